#pragma once
// Geometry of the overlays, computed from the rows and the view alone (the passes draw it, the widget
// hit-tests it, the tests check it): which row shows a kernel or a host event, where the launch arrow
// runs, where the Top-5 badges and the legend go.
#include "model/time.h"

#include <QLineF>
#include <QRectF>
#include <QString>

#include <cstddef>
#include <optional>
#include <vector>

class QFontMetricsF;

namespace bs {
struct Profile;
}

namespace bs::ui {

struct TimelineData;
struct TimelineGeometry;
struct TimelineRow;
struct FlowLink;

// The row drawing `level` of a track (a host depth), or the track's whole row; nullptr when folded.
const TimelineRow* rowOfTrack(const std::vector<TimelineRow>& rows, int track, int level = -1);
const TimelineRow* rowOfKernel(const TimelineData& d, const Profile& p, const std::vector<TimelineRow>& rows,
                               std::size_t kernel);
const TimelineRow* rowOfHostEvent(const TimelineData& d, const Profile& p, const std::vector<TimelineRow>& rows,
                                  std::size_t event);
// Widget y of the device tracks' band [top, bottom) at the current scroll; top < 0 when there are none.
std::pair<int, int> deviceBand(const std::vector<TimelineRow>& rows, const TimelineGeometry& g);

// The launch arrow: from the host event's row at the flow start to the kernel's row at its start
// (widget coordinates at the current view and scroll); nullopt when a lane is folded.
std::optional<QLineF> flowArrowLine(const FlowLink& link, const TimelineData& d, const Profile& p,
                                    const std::vector<TimelineRow>& rows, const TimelineGeometry& g);

// Top-5 badges: centred over their band when there is room, pushed apart (never overlapping) and kept
// inside the plot area; below the ruler when the device tracks are scrolled up.
struct BadgeLayout {
    int bubble = -1; // index into TimelineData::bubbles
    QRectF rect;
    double anchorX = 0; // centre of the band's visible part: a leader line joins a moved badge to it
};
std::vector<BadgeLayout> layoutBadges(const TimelineData& d, const TimelineGeometry& g, int deviceTop,
                                      int deviceBottom);

// The legend box at the bottom-right, in its own strip below the lanes: one line per kind (device, host,
// bubbles), wrapped.
struct LegendLayout {
    QRectF box;
    struct Cell {
        int entry = -1; // index into TimelineData::legend; -1: the line's title
        QRectF swatch, text;
        QString title;
    };
    std::vector<Cell> cells;
};
LegendLayout layoutLegend(const TimelineData& d, const TimelineGeometry& g, const QFontMetricsF& fm);
// The height of the strip the legend gets below the lanes (0 when there is nothing to list).
int legendStripHeight(const TimelineData& d, const TimelineGeometry& g, const QFontMetricsF& fm);

// "ProfilerStep#50" cut to fit `width`: the step number is kept ("#50") before the text is elided.
QString fitStepLabel(const QString& label, double width, const QFontMetricsF& fm);

} // namespace bs::ui
