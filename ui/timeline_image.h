#pragma once
// Pictures of the timeline for reviews: the view as it is now, as PNG or SVG (lanes, ruler, the selected
// bubble), and a snapshot of one bubble window with its context, drawn off screen at a chosen size.
#include <QByteArray>
#include <QSize>
#include <QString>

#include <memory>

class QWidget;

namespace bs {
struct Profile;
struct AnalysisResult;
} // namespace bs

namespace bs::ui {

class TimelineWidget;

// "png" or "svg" from a file name's extension ("" when it is neither).
QString pictureFormatFor(const QString& fileName);

// The widget as it shows now, encoded as `format` ("png" / "svg"); empty with `error` set on failure.
QByteArray timelinePicture(TimelineWidget& timeline, const QString& format, QString* error);
// The same for any widget (the Ranks tab's timeline); `title` names the SVG.
QByteArray widgetPicture(QWidget& widget, const QString& format, const QString& title, QString* error);

// A timeline of its own, `size` pixels, on window `windowIndex` of the analysis (selected, with the
// kernels and host activity around it), or the whole capture when windowIndex is -1. A height of 0: as
// tall as the lanes the picture shows (every host lane down to the innermost op behind the gap), 300 to
// 4000 px.
// The timeline bubblePicture draws (for tests): sized, on the window, idle groups folded, the host lanes'
// outer frames spanning the view hidden (their inner ops shown), the legend in its strip.
void prepareBubblePicture(TimelineWidget& timeline, std::shared_ptr<const Profile> profile,
                          std::shared_ptr<const AnalysisResult> analysis, int windowIndex, QSize size);
QByteArray bubblePicture(std::shared_ptr<const Profile> profile, std::shared_ptr<const AnalysisResult> analysis,
                         int windowIndex, QSize size, const QString& format, QString* error);

} // namespace bs::ui
