#include "timeline_image.h"

#include <algorithm>

#include "timeline_widget.h"

#include <QBuffer>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>

namespace bs::ui {

QString pictureFormatFor(const QString& fileName) {
    const QString ext = QFileInfo(fileName).suffix().toLower();
    return ext == QLatin1String("png") || ext == QLatin1String("svg") ? ext : QString();
}

namespace {

// XML 1.0 has no place for C0 controls other than tab, LF and CR, not even as character references, and
// QSvgGenerator writes the text it is given as it is: a kernel or thread name holding ESC or BEL would
// make the whole picture unreadable. Each such byte becomes U+FFFD (the painted PNG shows a box for it).
void replaceXmlForbiddenBytes(QByteArray& svg) {
    QByteArray out;
    out.reserve(svg.size());
    for (const char ch : std::as_const(svg)) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
            out.append("\xEF\xBF\xBD", 3);
        else
            out.append(ch);
    }
    svg.swap(out);
}

} // namespace

QByteArray timelinePicture(TimelineWidget& timeline, const QString& format, QString* error) {
    return widgetPicture(timeline, format, QStringLiteral("BubbleScope timeline"), error);
}

QByteArray widgetPicture(QWidget& timeline, const QString& format, const QString& title, QString* error) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    const QSize size = timeline.size();
    if (format == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(title);
        QPainter p(&svg);
        timeline.render(&p, QPoint(), QRegion(), QWidget::DrawChildren); // vectors, not a bitmap
        p.end();
        buffer.close();
        replaceXmlForbiddenBytes(bytes);
    } else if (format == QLatin1String("png")) {
        QImage img(size * timeline.devicePixelRatioF(), QImage::Format_ARGB32_Premultiplied);
        img.setDevicePixelRatio(timeline.devicePixelRatioF());
        img.fill(Qt::white);
        {
            QPainter p(&img);
            timeline.render(&p, QPoint(), QRegion(), QWidget::DrawChildren);
        }
        if (!img.save(&buffer, "PNG")) bytes.clear();
    }
    if (bytes.isEmpty() && error)
        *error = format.isEmpty() ? QStringLiteral("the picture's file name must end in .png or .svg")
                                  : QStringLiteral("the %1 picture could not be drawn").arg(format);
    return bytes;
}

void prepareBubblePicture(TimelineWidget& timeline, std::shared_ptr<const Profile> profile,
                          std::shared_ptr<const AnalysisResult> analysis, int windowIndex, QSize size) {
    timeline.setAttribute(Qt::WA_DontShowOnScreen);
    const bool fitHeight = size.height() <= 0;
    if (fitHeight) size.setHeight(600); // laid out first, then made as tall as its rows
    timeline.resize(size);
    timeline.setModel(std::move(profile), std::move(analysis));
    timeline.setLegendVisible(true); // a picture for a review says what its colours mean (in its own strip)
    timeline.fit();
    if (windowIndex >= 0) timeline.selectBubble(windowIndex); // centred, with the kernels around it
    timeline.foldGroupsEmptyInView(); // no room for lanes idle in the picture
    // The host lanes' outermost Python frames span the whole picture and say nothing about the gap; without
    // them the depth rows down to the innermost ops behind it (aten::to, the copy, the sync) fit the picture.
    timeline.hideOuterHostFramesInView();
    if (fitHeight) timeline.resize(size.width(), std::clamp(timeline.heightShowingEveryRow(), 300, 4000));
}

QByteArray bubblePicture(std::shared_ptr<const Profile> profile,
                         std::shared_ptr<const AnalysisResult> analysis, int windowIndex, QSize size,
                         const QString& format, QString* error) {
    TimelineWidget timeline;
    prepareBubblePicture(timeline, std::move(profile), std::move(analysis), windowIndex, size);
    return timelinePicture(timeline, format, error);
}

} // namespace bs::ui
