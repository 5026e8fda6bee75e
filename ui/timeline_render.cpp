// The shared geometry, the item painter and the base passes: background, items per lane, the busy
// union, the label column and the ruler. The overlays are in timeline_overlays.cpp.
#include "timeline_render.h"

#include "language.h"
#include "pipeline/analysis_run.h"
#include "model/profile.h"
#include "timeline_data.h"
#include "timeline_layout.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace bs::ui {

double timeToX(TimeNs t, TimeNs s, TimeNs e, int width) {
    if (e <= s || width <= 0) return 0;
    return static_cast<double>(t - s) * width / static_cast<double>(e - s);
}

TimeNs xToTime(double x, TimeNs s, TimeNs e, int width) {
    if (width <= 0) return s;
    return s + static_cast<TimeNs>(std::llround(x * static_cast<double>(e - s) / width));
}

TimeNs tickStep(TimeNs s, TimeNs e, int width, int minPixels) {
    const double span = static_cast<double>(std::max<TimeNs>(1, e - s));
    const double minStep = span * minPixels / std::max(1, width);
    TimeNs step = 1;
    while (true) {
        for (TimeNs m : {1, 2, 5})
            if (static_cast<double>(step * m) >= minStep) return step * m;
        if (step > (TimeNs(1) << 60) / 10) return step;
        step *= 10;
    }
}

double TimelineGeometry::plotX(TimeNs t) const {
    return timeToX(t, viewStart, viewEnd, plotWidth());
}
double TimelineGeometry::x(TimeNs t) const {
    return labelWidth + plotX(t);
}
TimeNs TimelineGeometry::time(double widgetX) const {
    return xToTime(widgetX - labelWidth, viewStart, viewEnd, plotWidth());
}

bool RenderContext::groupCollapsed(const QString& group) const {
    for (const auto& t : data.tracks)
        if (t.group == group) return t.collapsed;
    return false;
}

// Group keys stay English (they name the lanes in settings and tests); what is shown is translated.
QString groupTitle(const QString& key) {
    static const char* const kGroupNames[] = {QT_TRANSLATE_NOOP("Timeline", "Host"),
                                              QT_TRANSLATE_NOOP("Timeline", "HCCL"),
                                              QT_TRANSLATE_NOOP("Timeline", "Overlap Analysis")};
    for (const char* g : kGroupNames)
        if (key == QLatin1String(g)) return QCoreApplication::translate("Timeline", g);
    return key;
}

QString durationText(TimeNs ns) {
    const double a = std::abs(static_cast<double>(ns));
    if (a >= 1e9) return QStringLiteral("%1 s").arg(static_cast<double>(ns) / 1e9, 0, 'f', 3);
    if (a >= 1e6) return QStringLiteral("%1 ms").arg(static_cast<double>(ns) / 1e6, 0, 'f', 3);
    if (a >= 1e3) return QStringLiteral("%1 µs").arg(static_cast<double>(ns) / 1e3, 0, 'f', 1);
    return QStringLiteral("%1 ns").arg(ns);
}

// Axis label with as many decimals as the tick step needs.
QString tickLabel(TimeNs t, TimeNs step) {
    struct Unit {
        double ns;
        const char* name;
    };
    const Unit units[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}};
    const double a = std::max(std::abs(static_cast<double>(t)), static_cast<double>(step));
    for (const auto& u : units) {
        if (a < u.ns && u.ns > 1) continue;
        int decimals = 0;
        for (double q = static_cast<double>(step) / u.ns; q < 1 && decimals < 6; q *= 10)
            ++decimals;
        return QStringLiteral("%1 %2")
            .arg(static_cast<double>(t) / u.ns, 0, 'f', decimals)
            .arg(QString::fromUtf8(u.name));
    }
    return QStringLiteral("%1 ns").arg(t);
}

namespace {

QString itemLabel(const RenderContext& c, TrackKind kind, std::uint32_t ref) {
    if (kind == TrackKind::Stream) {
        const auto n = c.profile.str(c.profile.kernels[ref].name);
        return QString::fromUtf8(n.data(), static_cast<qsizetype>(n.size()));
    }
    if (kind == TrackKind::Steps) return coreText(c.analysis.steps.steps[ref].label);
    if (kind == TrackKind::Host || kind == TrackKind::Hccl) {
        const auto n = c.profile.str((kind == TrackKind::Host ? c.profile.hostEvents : c.profile.hcclEvents)[ref].name);
        return QString::fromUtf8(n.data(), static_cast<qsizetype>(n.size()));
    }
    const auto& s = c.analysis.architecture.structures[ref];
    return coreText(s.type) + (s.layerInPass >= 0 ? QStringLiteral(" L%1").arg(s.layerInPass) : QString());
}

} // namespace

void paintSeries(const RenderContext& c, const ItemSeries& s, int y, int h, const QColor* fixedColor, bool labels,
                 int trackIndex) {
    QPainter& p = c.p;
    const TimelineGeometry& g = c.g;
    const int w = g.plotWidth(), lw = g.labelWidth;
    const TimeNs vs = g.viewStart, ve = g.viewEnd;
    const auto [firstIdx, lastIdx] = s.visibleSlice(vs, ve);
    const TrackKind kind = trackIndex >= 0 ? c.data.tracks[static_cast<std::size_t>(trackIndex)].kind : TrackKind::Host;
    int pendingX0 = -1, pendingX1 = -1;
    std::uint16_t pendingColor = 0;
    int merged = 0;
    auto flush = [&] {
        if (pendingX0 < 0) return;
        const QColor col = fixedColor ? *fixedColor : c.data.palette[pendingColor];
        p.fillRect(lw + pendingX0, y + 1, std::max(1, pendingX1 - pendingX0), h - 2, merged > 1 ? col.darker(115) : col);
        pendingX0 = -1;
        merged = 0;
    };
    if (lastIdx - firstIdx > static_cast<std::size_t>(2 * w)) {
        // Level of detail: more items than pixels. Walk pixel by pixel: the union of the items that start
        // before time T is [.., prefixMaxEnd), so each step covers at least one pixel column and costs one
        // binary search — O(width × log n) whatever the item count.
        const double nsPerPx = static_cast<double>(ve - vs) / w;
        TimeNs T = vs;
        while (T < ve) {
            auto idx = std::lower_bound(s.items.begin(), s.items.end(), T,
                                        [](const TimelineItem& i, TimeNs v) { return i.start < v; });
            const std::size_t k = static_cast<std::size_t>(idx - s.items.begin());
            const TimeNs cov = k > 0 ? s.prefixMaxEnd[k - 1] : INT64_MIN;
            if (cov > T) {
                const int x0 = std::clamp(static_cast<int>(std::floor(g.plotX(T))), 0, w);
                const TimeNs runEnd = std::min(cov, ve);
                int x1 = std::clamp(static_cast<int>(std::ceil(g.plotX(runEnd))), 0, w);
                x1 = std::max(x1, x0 + 1);
                const std::uint16_t color = s.items[k - 1].color;
                if (pendingX0 >= 0 && x0 <= pendingX1) {
                    pendingX1 = std::max(pendingX1, x1);
                    ++merged;
                } else {
                    flush();
                    pendingX0 = x0;
                    pendingX1 = x1;
                    pendingColor = color;
                    merged = 2;
                }
                // Continue from the next pixel boundary after the run.
                T = vs + static_cast<TimeNs>(std::ceil(static_cast<double>(x1) * nsPerPx));
                if (T <= runEnd) T = runEnd + 1;
            } else {
                if (idx == s.items.end() || idx->start >= ve) break;
                T = idx->start + 1; // jump over the idle gap: the next item now starts before T
            }
        }
        flush();
        return;
    }
    const bool named = labels && kind != TrackKind::DeviceBusy && kind != TrackKind::Overlap;
    const QFontMetricsF fm(c.small);
    for (std::size_t i = firstIdx; i < lastIdx; ++i) {
        const TimelineItem& it = s.items[i];
        if (it.end <= vs) continue;
        int x0 = static_cast<int>(std::floor(g.plotX(std::max(it.start, vs))));
        int x1 = static_cast<int>(std::ceil(g.plotX(std::min(it.end, ve))));
        x0 = std::clamp(x0, 0, w);
        x1 = std::clamp(std::max(x1, x0 + 1), 0, w);
        // Merge runs that touch the same pixel column (sub-pixel items fold into one rectangle).
        if (pendingX0 >= 0 && x0 <= pendingX1 && (it.color == pendingColor || x1 - x0 <= 1)) {
            pendingX1 = std::max(pendingX1, x1);
            ++merged;
            continue;
        }
        flush();
        pendingX0 = x0;
        pendingX1 = x1;
        pendingColor = it.color;
        merged = 1;
        // Names on wide items; a step keeps its number ("#50") when its label is cut.
        const int minWidth = kind == TrackKind::Steps ? 22 : 60;
        if (named && x1 - x0 > minWidth) {
            flush();
            const QColor bg = fixedColor ? *fixedColor : c.data.palette[it.color];
            p.setPen(bg.lightness() > 150 ? QColor(20, 20, 30) : QColor(Qt::white));
            p.setFont(c.small);
            const QString label = itemLabel(c, kind, it.ref);
            const QString shown = kind == TrackKind::Steps ? fitStepLabel(label, x1 - x0 - 6, fm)
                                                           : fm.elidedText(label, Qt::ElideRight, x1 - x0 - 6);
            p.drawText(QRect(lw + x0 + 3, y, x1 - x0 - 6, h), Qt::AlignVCenter | Qt::AlignLeft, shown);
        }
    }
    flush();
}

QString emptyLanesText(int n, bool shown) {
    return shown ? QCoreApplication::translate("Timeline", "lanes with nothing in view: %1, shown (click to hide them)").arg(n)
                 : QCoreApplication::translate("Timeline", "lanes with nothing in view: %1 (click to show them)").arg(n);
}

namespace {

class BackgroundPass final : public TimelineRenderPass {
  public:
    void paint(const RenderContext& c) const override {
        c.p.fillRect(0, 0, c.g.width, c.g.height, c.palette.color(QPalette::Base));
        c.p.setRenderHint(QPainter::Antialiasing, false);
        for (const auto& row : c.rows) {
            if (row.track >= 0 || !c.g.onScreen(row)) continue;
            const int y = c.g.top(row);
            if (row.emptyLanes > 0) { // the lanes hidden as empty in view: a quiet row, named in the labels
                c.p.setPen(c.palette.color(QPalette::PlaceholderText));
                c.p.setFont(c.small);
                c.p.drawText(QRect(c.g.labelWidth + 6, y, c.g.plotWidth() - 12, row.h),
                             Qt::AlignVCenter | Qt::AlignLeft, emptyLanesText(row.emptyLanes, row.emptyShown));
                continue;
            }
            c.p.fillRect(0, y, c.g.width, row.h, c.palette.color(QPalette::AlternateBase));
            c.p.setPen(c.palette.color(QPalette::Text));
            c.p.setFont(c.base);
            c.p.drawText(QRect(6, y, c.g.labelWidth + 200, row.h), Qt::AlignVCenter | Qt::AlignLeft,
                         (c.groupCollapsed(row.group) ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) +
                             groupTitle(row.group));
        }
    }
};

// Every lane's items except the busy union (its own pass); host depth rows draw their level.
class ItemsPass final : public TimelineRenderPass {
  public:
    void paint(const RenderContext& c) const override {
        for (const auto& row : c.rows) {
            if (row.track < 0 || !c.g.onScreen(row)) continue;
            const auto& t = c.data.tracks[static_cast<std::size_t>(row.track)];
            if (t.kind == TrackKind::DeviceBusy) continue;
            const ItemSeries& s =
                row.level >= 0 && static_cast<std::size_t>(row.level) < t.levels.size() ? t.levels[static_cast<std::size_t>(row.level)] : t;
            paintSeries(c, s, c.g.top(row), row.h, nullptr, true, row.track);
        }
    }
};

class BusyUnionPass final : public TimelineRenderPass {
  public:
    void paint(const RenderContext& c) const override {
        for (const auto& row : c.rows) {
            if (row.track < 0 || !c.g.onScreen(row)) continue;
            const auto& t = c.data.tracks[static_cast<std::size_t>(row.track)];
            if (t.kind == TrackKind::DeviceBusy) paintSeries(c, t, c.g.top(row), row.h, nullptr, false, row.track);
        }
    }
};

class LabelsPass final : public TimelineRenderPass {
  public:
    void paint(const RenderContext& c) const override {
        QPainter& p = c.p;
        const int lw = c.g.labelWidth;
        p.fillRect(0, c.g.axisHeight, lw, c.g.height, c.palette.color(QPalette::Window));
        const QFontMetricsF fm(c.base);
        for (const auto& row : c.rows) {
            if (!c.g.onScreen(row)) continue;
            const int y = c.g.top(row);
            if (row.emptyLanes > 0) {
                p.setPen(c.palette.color(QPalette::PlaceholderText));
                p.setFont(c.small);
                p.drawText(
                    QRect(8, y, lw - 12, row.h), Qt::AlignVCenter,
                    fm.elidedText(
                        (row.emptyShown ? QStringLiteral("▾ ") : QStringLiteral("▸ ")) +
                            QCoreApplication::translate("Timeline", "empty lanes: %1").arg(row.emptyLanes),
                        Qt::ElideRight, lw - 12));
                continue;
            }
            if (row.track < 0) {
                p.fillRect(0, y, lw, row.h, c.palette.color(QPalette::AlternateBase));
                p.setPen(c.palette.color(QPalette::Text));
                p.setFont(c.base);
                p.drawText(QRect(6, y, lw - 8, row.h), Qt::AlignVCenter,
                           (c.groupCollapsed(row.group) ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) +
                               groupTitle(row.group));
                continue;
            }
            if (!row.labelled) continue;
            const auto& t = c.data.tracks[static_cast<std::size_t>(row.track)];
            QString text = t.detail.isEmpty() ? t.name : t.name + QStringLiteral("  ") + t.detail;
            int indent = 8;
            if (t.kind == TrackKind::Host && t.levels.size() > 1) { // the depth rows fold from here
                text = (t.depthFolded ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) + text;
                if (t.firstLevel > 0 && !t.depthFolded)
                    text += QStringLiteral("  ") +
                            QCoreApplication::translate("Timeline", "from depth %1").arg(t.firstLevel);
                indent = 4;
            }
            p.setPen(c.palette.color(QPalette::WindowText));
            p.setFont(c.base);
            p.drawText(QRect(indent, y, lw - indent - 4, std::max(row.h, 14)), Qt::AlignVCenter,
                       fm.elidedText(text, Qt::ElideRight, lw - indent - 4));
        }
        p.setPen(c.palette.color(QPalette::Mid));
        p.drawLine(lw - 1, c.g.axisHeight, lw - 1, c.g.height);
    }
};

// Adaptive ticks relative to the start of the data (the first device kernel, as the tables and reports).
class RulerPass final : public TimelineRenderPass {
  public:
    bool clipsToTracks() const override { return false; }
    void paint(const RenderContext& c) const override {
        QPainter& p = c.p;
        const TimelineGeometry& g = c.g;
        p.fillRect(0, 0, g.width, g.axisHeight, c.palette.color(QPalette::Window));
        const TimeNs step = tickStep(g.viewStart, g.viewEnd, g.plotWidth(), 90);
        const TimeNs origin = c.analysis.anomaly.captureEnd > 0 ? c.analysis.anomaly.captureStart : c.data.start;
        TimeNs t0 = g.viewStart - origin;
        t0 = (t0 >= 0 ? t0 / step : (t0 - step + 1) / step) * step + origin;
        p.setFont(c.small);
        for (TimeNs t = t0; t <= g.viewEnd; t += step) {
            const double x = g.x(t);
            if (x < g.labelWidth) continue;
            p.setPen(c.palette.color(QPalette::Mid));
            p.drawLine(QPointF(x, g.axisHeight - 6), QPointF(x, g.axisHeight));
            p.setPen(QColor(0, 0, 0, 25));
            p.drawLine(QPointF(x, g.axisHeight), QPointF(x, g.lanesBottom()));
            p.setPen(c.palette.color(QPalette::WindowText));
            p.drawText(QRectF(x + 3, 2, 120, g.axisHeight - 8), Qt::AlignLeft | Qt::AlignVCenter, tickLabel(t - origin, step));
        }
        p.setPen(c.palette.color(QPalette::WindowText));
        p.drawText(QRect(6, 0, g.labelWidth - 8, g.axisHeight), Qt::AlignVCenter,
                   QCoreApplication::translate("bs::ui::TimelineWidget", "View %1").arg(durationText(g.viewEnd - g.viewStart)));
    }
};

} // namespace

// The overlays (timeline_overlays.cpp).
void appendOverlayPasses(RenderPasses& passes);
void appendTopPasses(RenderPasses& passes);

RenderPasses defaultRenderPasses() {
    RenderPasses passes;
    passes.push_back(std::make_unique<BackgroundPass>());
    passes.push_back(std::make_unique<ItemsPass>());
    passes.push_back(std::make_unique<BusyUnionPass>());
    appendOverlayPasses(passes); // highlights, search matches, bubbles, selection, flows, badges
    passes.push_back(std::make_unique<LabelsPass>());
    passes.push_back(std::make_unique<RulerPass>());
    appendTopPasses(passes); // legend
    return passes;
}

void paintPasses(const RenderPasses& passes, const RenderContext& c) {
    for (const auto& pass : passes) {
        c.p.save();
        // The track passes never paint over the ruler, nor over the legend's strip.
        if (pass->clipsToTracks())
            c.p.setClipRect(0, c.g.axisHeight, c.g.width, c.g.lanesBottom() - c.g.axisHeight);
        pass->paint(c);
        c.p.restore();
    }
}

} // namespace bs::ui
