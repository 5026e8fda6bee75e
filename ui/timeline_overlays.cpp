// The overlay passes: highlighted host events, search matches, bubble bands, the selection, launch
// arrows, the Top-5 badges and the legend. Each reads the frame's geometry and the overlay state only.
#include "model/profile.h"
#include "timeline_data.h"
#include "timeline_layout.h"
#include "timeline_render.h"
#include "timeline_search.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace bs::ui {

namespace {

const QColor kMatchFill(236, 64, 200);
const QColor kMatchOutline(90, 0, 80);
const QColor kFlowColor(20, 20, 20);
const QColor kSelectedFlowColor(200, 60, 0);

// An item's rectangle on a row, at least `minWidth` px wide so a µs event stays visible at any zoom.
QRectF itemRect(const TimelineGeometry& g, const TimelineRow& row, TimeNs a, TimeNs b, double minWidth) {
    const double x0 = g.x(std::max(a, g.viewStart)), x1 = g.x(std::min(b, g.viewEnd));
    const double w = std::max(minWidth, x1 - x0);
    return QRectF((x0 + x1) / 2 - w / 2, g.top(row) + 1, w, row.h - 2);
}

// An item's name over its highlight (the fill hides the name the lane drew), when it is wide enough to read.
void drawName(const RenderContext& c, const QRectF& r, std::string_view name, const QColor& text) {
    if (r.width() < 24 || name.empty()) return;
    const QFontMetricsF fm(c.small);
    const QString shown = fm.elidedText(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())),
                                        Qt::ElideRight, r.width() - 6);
    if (shown.isEmpty() || shown == QStringLiteral("\u2026")) return;
    c.p.setFont(c.small);
    c.p.setPen(text);
    c.p.drawText(r.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft, shown);
}

// Highlighted host events over their lanes: an amber fill with a dark outline. Only the highlighted
// events are visited (a few per window).
class HighlightsPass final : public TimelineRenderPass {
  public:
    void paint(const RenderContext& c) const override {
        if (!c.s.highlightByLane || c.s.highlightByLane->empty()) return;
        for (const auto& row : c.rows) {
            if (row.track < 0 || !c.g.onScreen(row)) continue;
            const auto& t = c.data.tracks[static_cast<std::size_t>(row.track)];
            if (t.kind != TrackKind::Host) continue;
            auto it = c.s.highlightByLane->find(t.lane);
            if (it == c.s.highlightByLane->end()) continue;
            for (std::size_t idx : it->second) {
                const auto& e = c.profile.hostEvents[idx];
                if (!c.g.inView(e.ts, std::max(e.end(), e.ts + 1))) continue;
                if (row.level >= 0 && c.data.hostDepth[idx] != row.level) continue;
                const QRectF r = itemRect(c.g, row, e.ts, std::max(e.end(), e.ts + 1), 3);
                c.p.fillRect(r, QColor(255, 190, 0));
                c.p.setPen(QPen(QColor(120, 60, 0), 1));
                c.p.drawRect(r.adjusted(0, 0, -1, -1));
                drawName(c, r, c.profile.str(e.name), QColor(30, 20, 0));
            }
        }
    }
};

// Search matches: a distinct fill in every lane they are in (merged per pixel like the items), outlined
// when few enough to tell apart; bubble matches outline their band.
class MatchesPass final : public TimelineRenderPass {
  public:
    void paint(const RenderContext& c) const override {
        if (!c.s.matchesByTrack) return;
        const auto& byTrack = *c.s.matchesByTrack;
        for (const auto& row : c.rows) {
            if (row.track < 0 || !c.g.onScreen(row) || static_cast<std::size_t>(row.track) >= byTrack.size()) continue;
            const auto& levels = byTrack[static_cast<std::size_t>(row.track)].levels;
            const std::size_t li = static_cast<std::size_t>(row.level + 1);
            if (li >= levels.size() || levels[li].items.empty()) continue;
            const ItemSeries& s = levels[li];
            paintSeries(c, s, c.g.top(row), row.h, &kMatchFill, false, row.track);
            const auto [first, last] = s.visibleSlice(c.g.viewStart, c.g.viewEnd);
            if (last - first > 400) continue;
            c.p.setPen(QPen(kMatchOutline, 1));
            c.p.setBrush(Qt::NoBrush);
            for (std::size_t i = first; i < last; ++i) {
                if (s.items[i].end <= c.g.viewStart) continue;
                const QRectF r = itemRect(c.g, row, s.items[i].start, s.items[i].end, 3);
                c.p.setPen(QPen(kMatchOutline, 1));
                c.p.drawRect(r.adjusted(0, 0, -1, -1));
                // The fill covers the item's own name: draw it again, readable on the match colour.
                if (c.s.matches && s.items[i].ref < c.s.matches->size()) {
                    const Match& m = (*c.s.matches)[s.items[i].ref];
                    if (m.kind == Match::Kind::Kernel)
                        drawName(c, r, c.profile.str(c.profile.kernels[m.index].name), Qt::white);
                    else if (m.kind == Match::Kind::HostEvent)
                        drawName(c, r, c.profile.str(c.profile.hostEvents[m.index].name), Qt::white);
                }
            }
        }
        if (c.s.matchedBubbles && c.deviceTop >= 0) {
            c.p.setPen(QPen(kMatchFill, 2, Qt::DashLine));
            for (int b : *c.s.matchedBubbles) {
                const auto& bb = c.data.bubbles[static_cast<std::size_t>(b)];
                if (!c.g.inView(bb.start, bb.end)) continue;
                const double x0 = c.g.x(std::max(bb.start, c.g.viewStart)), x1 = c.g.x(std::min(bb.end, c.g.viewEnd));
                c.p.drawRect(QRectF(x0, c.deviceTop + 1, std::max(2.0, x1 - x0), c.deviceBottom - c.deviceTop - 2));
            }
        }
    }
};

class BubblesPass final : public TimelineRenderPass {
  public:
    void paint(const RenderContext& c) const override {
        if (c.deviceTop < 0) return;
        for (const auto& b : c.data.bubbles) {
            if (!c.g.inView(b.start, b.end)) continue;
            const double x0 = c.g.x(std::max(b.start, c.g.viewStart)), x1 = c.g.x(std::min(b.end, c.g.viewEnd));
            c.p.fillRect(QRectF(x0, c.deviceTop, std::max(2.0, x1 - x0), c.deviceBottom - c.deviceTop), scopeColor(b.scope));
        }
    }
};

// The selected bubble (red frame), kernel and host event (a dark frame with a light inner line, visible
// on any colour), the current search match, and the shaded range.
class SelectionPass final : public TimelineRenderPass {
    static void frame(QPainter& p, const QRectF& r) {
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(QColor(10, 10, 10), 2));
        p.drawRect(r.adjusted(-1, -1, 0, 0));
        p.setPen(QPen(Qt::white, 1));
        p.drawRect(r.adjusted(1, 1, -2, -2));
    }

  public:
    void paint(const RenderContext& c) const override {
        QPainter& p = c.p;
        const auto& s = c.s;
        if (s.selectedBubble >= 0 && c.deviceTop >= 0) {
            const auto& b = c.data.bubbles[static_cast<std::size_t>(s.selectedBubble)];
            if (c.g.inView(b.start, b.end)) {
                const double x0 = c.g.x(std::max(b.start, c.g.viewStart)), x1 = c.g.x(std::min(b.end, c.g.viewEnd));
                p.setPen(QPen(QColor(200, 20, 20), 2));
                p.setBrush(Qt::NoBrush);
                p.drawRect(QRectF(x0, c.deviceTop, std::max(2.0, x1 - x0), c.deviceBottom - c.deviceTop).adjusted(1, 1, -1, -1));
            }
        }
        if (s.selectedKernel >= 0) {
            const auto& k = c.profile.kernels[static_cast<std::size_t>(s.selectedKernel)];
            const TimelineRow* row = rowOfKernel(c.data, c.profile, c.rows, static_cast<std::size_t>(s.selectedKernel));
            if (row && c.g.inView(k.start, k.end() + 1)) frame(p, itemRect(c.g, *row, k.start, std::max(k.end(), k.start + 1), 5));
        }
        if (s.selectedHostEvent >= 0) {
            const auto& e = c.profile.hostEvents[static_cast<std::size_t>(s.selectedHostEvent)];
            const TimelineRow* row = rowOfHostEvent(c.data, c.profile, c.rows, static_cast<std::size_t>(s.selectedHostEvent));
            if (row && c.g.inView(e.ts, e.end() + 1)) frame(p, itemRect(c.g, *row, e.ts, std::max(e.end(), e.ts + 1), 5));
        }
        if (s.currentMatchTrack >= 0 && c.g.inView(s.currentMatchStart, s.currentMatchEnd)) {
            if (const TimelineRow* row = rowOfTrack(c.rows, s.currentMatchTrack, s.currentMatchLevel)) {
                const QRectF r = itemRect(c.g, *row, s.currentMatchStart, s.currentMatchEnd, 7);
                p.setBrush(Qt::NoBrush);
                p.setPen(QPen(kMatchOutline, 3));
                p.drawRect(r.adjusted(-2, -2, 1, 1));
            }
        }
        if (s.currentMatchBubble >= 0 && c.deviceTop >= 0) {
            const auto& b = c.data.bubbles[static_cast<std::size_t>(s.currentMatchBubble)];
            if (c.g.inView(b.start, b.end)) {
                const double x0 = c.g.x(std::max(b.start, c.g.viewStart)), x1 = c.g.x(std::min(b.end, c.g.viewEnd));
                p.setBrush(Qt::NoBrush);
                p.setPen(QPen(kMatchOutline, 3));
                p.drawRect(QRectF(x0, c.deviceTop + 1, std::max(2.0, x1 - x0), c.deviceBottom - c.deviceTop - 2));
            }
        }
        if (s.rangeVisible) {
            const double x0 = c.g.x(std::min(s.rangeA, s.rangeB)), x1 = c.g.x(std::max(s.rangeA, s.rangeB));
            p.fillRect(QRectF(x0, c.g.axisHeight, x1 - x0, c.g.height), QColor(40, 120, 220, 40));
        }
    }
};

// Launch arrows host op → kernel: the selected kernel's (bold), and optionally every launch of the
// kernels in view (thin, at most maxFlowsInView, spread evenly over the view when there are more).
class FlowsPass final : public TimelineRenderPass {
    static void arrow(QPainter& p, const QLineF& l, const QColor& col, double width, double head) {
        p.setPen(QPen(col, width, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(l);
        if (l.length() < 1) return;
        const double a = std::atan2(l.dy(), l.dx());
        const QPointF tip = l.p2();
        QPolygonF tri;
        tri << tip << tip - QPointF(std::cos(a - 0.45) * head, std::sin(a - 0.45) * head)
            << tip - QPointF(std::cos(a + 0.45) * head, std::sin(a + 0.45) * head);
        p.setBrush(col);
        p.setPen(Qt::NoPen);
        p.drawPolygon(tri);
    }

  public:
    void paint(const RenderContext& c) const override {
        QPainter& p = c.p;
        p.setRenderHint(QPainter::Antialiasing, true);
        if (c.s.showAllFlowsInView && !c.data.flowLinks.empty()) {
            // Kernels are sorted by start and links by kernel: the kernels in view own one run of links.
            const auto& ks = c.profile.kernels;
            const auto byStart = [](const Kernel& k, TimeNs t) { return k.start < t; };
            const auto k0 = static_cast<std::uint32_t>(std::lower_bound(ks.begin(), ks.end(), c.g.viewStart, byStart) - ks.begin());
            const auto k1 = static_cast<std::uint32_t>(std::lower_bound(ks.begin(), ks.end(), c.g.viewEnd, byStart) - ks.begin());
            const auto byKernel = [](const FlowLink& l, std::uint32_t k) { return l.kernel < k; };
            const auto& fl = c.data.flowLinks;
            const std::size_t a = static_cast<std::size_t>(std::lower_bound(fl.begin(), fl.end(), k0, byKernel) - fl.begin());
            const std::size_t b = static_cast<std::size_t>(std::lower_bound(fl.begin(), fl.end(), k1, byKernel) - fl.begin());
            const std::size_t n = b - a, budget = static_cast<std::size_t>(std::max(1, c.s.maxFlowsInView));
            const double stride = n > budget ? static_cast<double>(n) / static_cast<double>(budget) : 1.0;
            QColor col = kFlowColor;
            col.setAlpha(110);
            for (double i = 0; i < static_cast<double>(n); i += stride)
                if (auto l = flowArrowLine(fl[a + static_cast<std::size_t>(i)], c.data, c.profile, c.rows, c.g))
                    arrow(p, *l, col, 1, 5);
        }
        if (c.s.selectedKernel >= 0) {
            const auto [first, last] = c.data.linksOf(static_cast<std::uint32_t>(c.s.selectedKernel));
            for (const FlowLink* l = first; l != last; ++l)
                if (auto line = flowArrowLine(*l, c.data, c.profile, c.rows, c.g)) {
                    arrow(p, *line, kSelectedFlowColor, 2, 9);
                    p.setBrush(Qt::white);
                    p.setPen(QPen(kSelectedFlowColor, 2));
                    p.drawEllipse(line->p1(), 4, 4); // the host end: click it to go to the host op
                }
        }
        p.setRenderHint(QPainter::Antialiasing, false);
    }
};

class BadgesPass final : public TimelineRenderPass {
  public:
    void paint(const RenderContext& c) const override {
        QPainter& p = c.p;
        const auto badges = layoutBadges(c.data, c.g, c.deviceTop, c.deviceBottom);
        if (badges.empty()) return;
        p.setRenderHint(QPainter::Antialiasing, true);
        p.setFont(c.small);
        for (const auto& b : badges) {
            if (std::abs(b.rect.center().x() - b.anchorX) > 1) { // moved aside: a leader to its band
                p.setPen(QPen(QColor(200, 30, 30), 1));
                p.drawLine(QPointF(b.rect.center().x(), b.rect.bottom()), QPointF(b.anchorX, b.rect.bottom() + 6));
            }
            p.setBrush(QColor(200, 30, 30));
            p.setPen(QPen(Qt::white, 1));
            p.drawEllipse(b.rect);
            p.setPen(Qt::white);
            p.drawText(b.rect, Qt::AlignCenter, QString::number(c.data.bubbles[static_cast<std::size_t>(b.bubble)].rank));
        }
        p.setBrush(Qt::NoBrush);
        p.setRenderHint(QPainter::Antialiasing, false);
    }
};

// The legend's strip below the lanes (TimelineGeometry::legendHeight), so it never covers a row.
class LegendPass final : public TimelineRenderPass {
  public:
    bool clipsToTracks() const override { return false; }
    void paint(const RenderContext& c) const override {
        if (!c.s.legendVisible || c.g.legendHeight <= 0) return;
        QPainter& p = c.p;
        const LegendLayout L = layoutLegend(c.data, c.g, QFontMetricsF(c.small));
        if (L.cells.empty()) return;
        const int top = c.g.lanesBottom();
        p.fillRect(0, top, c.g.width, c.g.legendHeight, c.palette.color(QPalette::Window));
        p.setPen(c.palette.color(QPalette::Mid));
        p.drawLine(0, top, c.g.width, top);
        p.fillRect(L.box, c.palette.color(QPalette::Window));
        p.setPen(c.palette.color(QPalette::Mid));
        p.drawRect(L.box.adjusted(0, 0, -1, -1));
        p.setFont(c.small);
        for (const auto& cell : L.cells) {
            p.setPen(c.palette.color(QPalette::WindowText));
            if (cell.entry < 0) {
                QFont bold = c.small;
                bold.setBold(true);
                p.setFont(bold);
                p.drawText(cell.text, Qt::AlignVCenter | Qt::AlignLeft, cell.title);
                p.setFont(c.small);
                continue;
            }
            const auto& e = c.data.legend[static_cast<std::size_t>(cell.entry)];
            p.fillRect(cell.swatch, e.color);
            p.drawText(cell.text, Qt::AlignVCenter | Qt::AlignLeft, e.label);
        }
    }
};

} // namespace

void appendOverlayPasses(RenderPasses& passes) {
    passes.push_back(std::make_unique<HighlightsPass>());
    passes.push_back(std::make_unique<MatchesPass>());
    passes.push_back(std::make_unique<BubblesPass>());
    passes.push_back(std::make_unique<SelectionPass>());
    passes.push_back(std::make_unique<FlowsPass>());
    passes.push_back(std::make_unique<BadgesPass>());
}

void appendTopPasses(RenderPasses& passes) {
    passes.push_back(std::make_unique<LegendPass>());
}

} // namespace bs::ui
