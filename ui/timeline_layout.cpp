#include "timeline_layout.h"

#include "model/profile.h"
#include "timeline_data.h"
#include "timeline_render.h"

#include <QCoreApplication>
#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

namespace bs::ui {

namespace {
constexpr int kLegendMargin = 4; // px above and below the legend box in its strip
}

const TimelineRow* rowOfTrack(const std::vector<TimelineRow>& rows, int track, int level) {
    // A folded host lane has one row for all depths; asked for the whole track, a lane with depth rows
    // answers with its first.
    const TimelineRow* fallback = nullptr;
    for (const auto& r : rows) {
        if (r.track != track) continue;
        if (r.level == level) return &r;
        if (r.level < 0 || (level < 0 && !fallback)) fallback = &r;
    }
    return fallback;
}

const TimelineRow* rowOfKernel(const TimelineData& d, const Profile& p, const std::vector<TimelineRow>& rows,
                               std::size_t kernel) {
    if (kernel >= p.kernels.size()) return nullptr;
    const auto t = d.streamTrack.find(p.kernels[kernel].stream);
    return t == d.streamTrack.end() ? nullptr : rowOfTrack(rows, t->second);
}

const TimelineRow* rowOfHostEvent(const TimelineData& d, const Profile& p, const std::vector<TimelineRow>& rows,
                                  std::size_t event) {
    if (event >= p.hostEvents.size()) return nullptr;
    const auto t = d.laneTrack.find(p.hostEvents[event].lane);
    if (t == d.laneTrack.end()) return nullptr;
    const int depth = event < d.hostDepth.size() ? d.hostDepth[event] : 0;
    return rowOfTrack(rows, t->second, depth);
}

std::pair<int, int> deviceBand(const std::vector<TimelineRow>& rows, const TimelineGeometry& g) {
    int top = -1, bottom = -1;
    for (const auto& r : rows)
        if (r.device && g.onScreen(r)) { // the device rows in view (a scrolled stream may be hidden)
            if (top < 0) top = g.top(r);
            bottom = std::max(bottom, g.top(r) + r.h);
        }
    return {top, bottom};
}

std::optional<QLineF> flowArrowLine(const FlowLink& link, const TimelineData& d, const Profile& p,
                                    const std::vector<TimelineRow>& rows, const TimelineGeometry& g) {
    const TimelineRow* kr = rowOfKernel(d, p, rows, link.kernel);
    const TimelineRow* hr = nullptr;
    if (link.hostEvent != FlowLink::kNone)
        hr = rowOfHostEvent(d, p, rows, link.hostEvent);
    else if (auto t = d.laneTrack.find(link.lane); t != d.laneTrack.end())
        hr = rowOfTrack(rows, t->second, 0);
    if (!kr || !hr) return std::nullopt;
    const double hy = hr->y < kr->y ? g.top(*hr) + hr->h : g.top(*hr);
    const double ky = hr->y < kr->y ? g.top(*kr) : g.top(*kr) + kr->h;
    return QLineF(g.x(link.startTs), hy, g.x(p.kernels[link.kernel].start), ky);
}

std::vector<BadgeLayout> layoutBadges(const TimelineData& d, const TimelineGeometry& g, int deviceTop,
                                      int deviceBottom) {
    constexpr double kSize = 16, kGap = 3;
    std::vector<BadgeLayout> out;
    if (deviceTop < 0) return out;
    // Below the ruler when the device tracks are partly scrolled up; none when they are off screen.
    const double y = std::max(deviceTop, g.axisHeight) + 2;
    if (y + kSize > deviceBottom || y + kSize > g.height) return out;
    const double left = g.labelWidth + 1, right = g.width - 1;
    for (std::size_t i = 0; i < d.bubbles.size(); ++i) {
        const auto& b = d.bubbles[i];
        if (b.rank > 5 || !g.inView(b.start, b.end)) continue;
        const double x0 = g.x(std::max(b.start, g.viewStart)), x1 = g.x(std::min(b.end, g.viewEnd));
        const double cx = (x0 + x1) / 2;
        out.push_back({static_cast<int>(i), QRectF(cx - kSize / 2, y, kSize, kSize), cx});
    }
    std::sort(out.begin(), out.end(), [](const BadgeLayout& a, const BadgeLayout& b) {
        return a.anchorX != b.anchorX ? a.anchorX < b.anchorX : a.bubble < b.bubble;
    });
    // Left to right: no overlap, inside the left edge; then right to left: inside the right edge.
    double minX = left;
    for (auto& b : out) {
        b.rect.moveLeft(std::max(b.rect.left(), minX));
        minX = b.rect.right() + kGap;
    }
    double maxRight = right;
    for (auto it = out.rbegin(); it != out.rend(); ++it) {
        if (it->rect.right() > maxRight) it->rect.moveRight(maxRight);
        maxRight = it->rect.left() - kGap;
    }
    return out;
}

LegendLayout layoutLegend(const TimelineData& d, const TimelineGeometry& g, const QFontMetricsF& fm) {
    LegendLayout L;
    if (d.legend.empty()) return L;
    const double lineH = std::max(14.0, fm.height() + 2), sw = 10, pad = 6;
    const double maxW = std::max(160.0, g.plotWidth() * 0.75);
    const QString titles[] = {QCoreApplication::translate("Timeline", "Device"),
                              QCoreApplication::translate("Timeline", "Host"),
                              QCoreApplication::translate("Timeline", "Bubbles")};
    double titleW = 0;
    // The titles are drawn bold (LegendPass), which runs up to ~12 % wider than the regular face measured.
    for (const auto& t : titles)
        titleW = std::max(titleW, fm.horizontalAdvance(t) * 1.15 + 2);
    // Laid out at the origin first, moved to the corner once its size is known.
    double x = pad, y = pad, width = 0;
    int kind = -1;
    for (std::size_t i = 0; i < d.legend.size(); ++i) {
        const auto& e = d.legend[i];
        if (static_cast<int>(e.kind) != kind) {
            if (kind >= 0) y += lineH;
            kind = static_cast<int>(e.kind);
            L.cells.push_back({-1, {}, QRectF(pad, y, titleW, lineH), titles[kind]});
            x = pad + titleW + 8;
        }
        const double w = sw + 4 + fm.horizontalAdvance(e.label) + 10;
        if (x + w > maxW && x > pad + titleW + 8) { // wrap under the entries, not under the title
            y += lineH;
            x = pad + titleW + 8;
        }
        L.cells.push_back({static_cast<int>(i), QRectF(x, y + (lineH - sw) / 2, sw, sw),
                           QRectF(x + sw + 4, y, w - sw - 4, lineH), QString()});
        x += w;
        width = std::max(width, x);
    }
    const QRectF box(0, 0, width + pad, y + lineH + pad);
    // In its own strip at the bottom (legendStripHeight, reserved by the widget's layout): never over a lane.
    const QPointF at(g.width - box.width() - 8, g.height - box.height() - kLegendMargin);
    L.box = box.translated(at);
    for (auto& c : L.cells) {
        c.swatch.translate(at);
        c.text.translate(at);
    }
    return L;
}

int legendStripHeight(const TimelineData& d, const TimelineGeometry& g, const QFontMetricsF& fm) {
    const LegendLayout L = layoutLegend(d, g, fm);
    return L.cells.empty() ? 0 : static_cast<int>(std::ceil(L.box.height())) + 2 * kLegendMargin;
}

QString fitStepLabel(const QString& label, double width, const QFontMetricsF& fm) {
    if (fm.horizontalAdvance(label) <= width) return label;
    const auto hash = label.lastIndexOf(QLatin1Char('#'));
    if (hash >= 0) {
        const QString number = label.mid(hash);
        if (fm.horizontalAdvance(number) <= width) return number;
        return fm.elidedText(number, Qt::ElideRight, width);
    }
    return fm.elidedText(label, Qt::ElideRight, width);
}

} // namespace bs::ui
