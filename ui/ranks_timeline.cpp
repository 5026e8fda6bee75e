// The Ranks timeline's state and input: the view (zoom, pan, fit, a step), the clocks, where a rank's row
// group is, the collectives' arrivals as drawn, find, tooltips. Painting: ranks_timeline_paint.cpp.
#include "ranks_timeline.h"
#include "timeline_keys.h"

#include "cluster/cluster_model.h"
#include "cluster_models.h"
#include "timeline_render.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

namespace bs::ui {

namespace {

constexpr int kMinGroup = 18, kMaxGroup = 60;
constexpr TimeNs kNoTime = std::numeric_limits<TimeNs>::max();

using Intervals = std::vector<std::pair<TimeNs, TimeNs>>;

const RankLanes* lanesOf(const ClusterResult& c, int rank) {
    if (rank < 0 || rank >= static_cast<int>(c.ranks.size())) return nullptr;
    return c.ranks[static_cast<std::size_t>(rank)].lanes.get();
}

// The interval of `v` (sorted, not overlapping) holding t, or nullptr.
const std::pair<TimeNs, TimeNs>* intervalAt(const Intervals& v, TimeNs t, TimeNs slop) {
    auto it = std::partition_point(v.begin(), v.end(), [&](const auto& p) { return p.second + slop <= t; });
    return it != v.end() && it->first - slop <= t ? &*it : nullptr;
}

// The first interval of [from, end) starting at or after `limit`: a galloping search, as the next pixel is
// usually a few intervals on (log of the distance, not of the whole lane).
Intervals::const_iterator gallop(Intervals::const_iterator from, Intervals::const_iterator end,
                                 TimeNs limit) {
    std::ptrdiff_t step = 1;
    auto lo = from;
    while (end - lo > step && (lo + step)->first < limit) {
        lo += step;
        step *= 2;
    }
    const auto hi = end - lo > step ? lo + step + 1 : end;
    return std::partition_point(lo, hi, [&](const auto& p) { return p.first < limit; });
}

} // namespace

std::vector<PixelRun> pixelRuns(const Intervals& intervals, TimeNs shift, TimeNs viewStart, TimeNs viewEnd,
                                int width) {
    std::vector<PixelRun> runs;
    if (intervals.empty() || width <= 0 || viewEnd <= viewStart) return runs;
    // The view on the rank's own clock.
    const TimeNs rs = viewStart + shift, re = viewEnd + shift;
    const double scale = width / static_cast<double>(viewEnd - viewStart); // px per ns
    const auto px = [&](TimeNs t) { return static_cast<double>(t - rs) * scale; };
    auto it = std::partition_point(intervals.begin(), intervals.end(),
                                   [&](const auto& p) { return p.second <= rs; });
    while (it != intervals.end() && it->first < re) {
        const int x0 = std::clamp(static_cast<int>(std::floor(px(it->first))), 0, width - 1);
        TimeNs runEnd = it->second;
        ++it;
        int x1 = 0;
        for (;;) {
            x1 = std::clamp(static_cast<int>(std::ceil(px(runEnd))), x0 + 1, width);
            // Every interval starting inside the run's last pixel joins it.
            const TimeNs limit = rs + static_cast<TimeNs>(std::ceil(x1 / scale));
            const auto next = gallop(it, intervals.end(), limit);
            if (next == it) break;
            runEnd = std::max(runEnd, std::prev(next)->second);
            it = next;
            if (x1 >= width) break;
        }
        if (!runs.empty() && x0 <= runs.back().x1) // touching pixels: one run
            runs.back().x1 = std::max(runs.back().x1, x1);
        else
            runs.push_back({x0, x1});
        if (x1 >= width) break;
    }
    return runs;
}

RanksTimeline::RanksTimeline(QWidget* parent) : QWidget(parent) {
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setMinimumSize(320, 160);
}

RanksTimeline::~RanksTimeline() = default;

void RanksTimeline::setCluster(std::shared_ptr<const ClusterResult> cluster) {
    cluster_ = std::move(cluster);
    selected_ = -1;
    scrollY_ = 0;
    lastFind_.clear();
    findCursor_ = -1;
    raw_ = false;
    origin_ = dataRange().first;
    fit();
}

bool RanksTimeline::hasLanes() const {
    if (!cluster_) return false;
    for (const auto& r : cluster_->ranks)
        if (r.lanes) return true;
    return false;
}

int RanksTimeline::rankCount() const {
    return cluster_ ? static_cast<int>(cluster_->ranks.size()) : 0;
}

TimeNs RanksTimeline::clockOffset(int rank) const {
    if (!cluster_ || rank < 0 || rank >= static_cast<int>(cluster_->clockOffsets.size())) return 0;
    return cluster_->clockOffsets[static_cast<std::size_t>(rank)].offset;
}

TimeNs RanksTimeline::shiftOf(int rank) const {
    return raw_ ? 0 : clockOffset(rank);
}

TimeNs RanksTimeline::alignedOnRow(int rank, TimeNs aligned) const {
    return raw_ ? aligned + clockOffset(rank) : aligned;
}

TimeNs RanksTimeline::displayTime(int rank, TimeNs raw) const {
    return raw - shiftOf(rank);
}

TimeNs RanksTimeline::rawTime(int rank, TimeNs display) const {
    return display + shiftOf(rank);
}

std::pair<TimeNs, TimeNs> RanksTimeline::dataRange() const {
    TimeNs lo = kNoTime, hi = std::numeric_limits<TimeNs>::min();
    for (int r = 0; r < rankCount(); ++r) {
        const RankLanes* l = lanesOf(*cluster_, r);
        if (!l) continue;
        const auto take = [&](TimeNs a, TimeNs b) {
            lo = std::min(lo, displayTime(r, a));
            hi = std::max(hi, displayTime(r, b));
        };
        if (!l->busy.empty()) take(l->busy.front().first, l->busy.back().second);
        if (!l->comm.empty()) take(l->comm.front().first, l->comm.back().second);
        for (const auto& s : l->steps)
            take(s.second.first, s.second.second);
    }
    if (lo == kNoTime) return {0, 1};
    return {lo, std::max(hi, lo + 1)};
}

void RanksTimeline::setRawClocks(bool raw) {
    if (raw == raw_) return;
    raw_ = raw;
    update();
}

int RanksTimeline::plotWidth() const {
    return std::max(1, width() - labelWidth_);
}

int RanksTimeline::groupHeight() const {
    const int n = std::max(1, rankCount());
    return std::clamp((height() - kAxisHeight) / n, kMinGroup, kMaxGroup);
}

int RanksTimeline::contentHeight() const {
    return rankCount() * groupHeight();
}

void RanksTimeline::clampScroll() {
    scrollY_ = std::clamp(scrollY_, 0, std::max(0, contentHeight() - (height() - kAxisHeight)));
}

QRect RanksTimeline::rankGroupRect(int rank) const {
    if (rank < 0 || rank >= rankCount()) return {};
    const int h = groupHeight();
    return QRect(0, kAxisHeight + rank * h - scrollY_, width(), h);
}

QRect RanksTimeline::laneRect(int rank, Lane lane) const {
    const QRect g = rankGroupRect(rank);
    if (g.isEmpty()) return {};
    // Busy 45 %, HCCL 30 %, steps the rest, under a 2 px gap between groups.
    const int inner = g.height() - 3;
    const int busy = std::max(3, inner * 45 / 100), comm = std::max(2, inner * 30 / 100);
    const int steps = std::max(2, inner - busy - comm);
    const int x = labelWidth_, w = plotWidth();
    switch (lane) {
    case Lane::Busy:
        return QRect(x, g.top() + 2, w, busy);
    case Lane::Comm:
        return QRect(x, g.top() + 2 + busy, w, comm);
    case Lane::Steps:
        return QRect(x, g.top() + 2 + busy + comm, w, steps);
    }
    return {};
}

int RanksTimeline::rankAt(const QPoint& pos) const {
    if (pos.y() < kAxisHeight || rankCount() == 0) return -1;
    const int r = (pos.y() - kAxisHeight + scrollY_) / groupHeight();
    return r >= 0 && r < rankCount() ? r : -1;
}

double RanksTimeline::xOf(TimeNs display) const {
    return labelWidth_ + timeToX(display, viewStart_, viewEnd_, plotWidth());
}

TimeNs RanksTimeline::timeAt(double x) const {
    return xToTime(x - labelWidth_, viewStart_, viewEnd_, plotWidth());
}

void RanksTimeline::setView(TimeNs start, TimeNs end) {
    if (end <= start) end = start + 1;
    const auto [lo, hi] = dataRange();
    const TimeNs margin = std::max<TimeNs>(1, (hi - lo) / 20);
    const TimeNs span = std::min(end - start, hi - lo + 2 * margin);
    start = std::clamp(start, lo - margin, std::max(lo - margin, hi + margin - span));
    viewStart_ = start;
    viewEnd_ = start + std::max<TimeNs>(span, 1000); // at most 1 µs across the plot
    update();
    emit viewChanged(viewStart_, viewEnd_);
}

void RanksTimeline::zoomBy(double factor, double anchorX) {
    const TimeNs at = timeAt(anchorX);
    const double f = std::clamp(factor, 1e-3, 1e3);
    const auto s = static_cast<TimeNs>(static_cast<double>(at - viewStart_) / f);
    const auto e = static_cast<TimeNs>(static_cast<double>(viewEnd_ - at) / f);
    setView(at - s, at + std::max<TimeNs>(e, 1));
}

void RanksTimeline::panByPixels(double dx) {
    const auto dt = static_cast<TimeNs>(dx * static_cast<double>(viewEnd_ - viewStart_) / plotWidth());
    setView(viewStart_ + dt, viewEnd_ + dt);
}

void RanksTimeline::fit() {
    const auto [lo, hi] = dataRange();
    const TimeNs pad = std::max<TimeNs>(1, (hi - lo) / 100);
    setView(lo - pad, hi + pad);
}

bool RanksTimeline::fitStep(std::int64_t step) {
    TimeNs lo = kNoTime, hi = std::numeric_limits<TimeNs>::min();
    for (int r = 0; r < rankCount(); ++r)
        if (const RankLanes* l = lanesOf(*cluster_, r))
            for (const auto& s : l->steps)
                if (s.first == step) {
                    lo = std::min(lo, displayTime(r, s.second.first));
                    hi = std::max(hi, displayTime(r, s.second.second));
                }
    if (lo == kNoTime) return false;
    const TimeNs pad = std::max<TimeNs>(1, (hi - lo) / 50);
    setView(lo - pad, hi + pad);
    return true;
}

void RanksTimeline::focusRange(TimeNs start, TimeNs end) {
    const TimeNs span = std::max<TimeNs>(end - start, 1000);
    const TimeNs ctx = span * 3 / 4; // the range fills ~40 % of the width
    setView(start - ctx, end + ctx);
}

void RanksTimeline::scrollToRank(int rank) {
    if (rank < 0 || rank >= rankCount()) return;
    const int h = groupHeight(), visible = height() - kAxisHeight;
    const int top = rank * h;
    if (top < scrollY_ || top + h > scrollY_ + visible) scrollY_ = top - (visible - h) / 2;
    clampScroll();
    update();
}

void RanksTimeline::setSelectedRank(int rank) {
    selected_ = rank >= 0 && rank < rankCount() ? rank : -1;
    update();
}

std::vector<RanksTimeline::Arrival> RanksTimeline::arrivals(int collective) const {
    std::vector<Arrival> out;
    if (!cluster_ || collective < 0 || collective >= static_cast<int>(cluster_->collectives.size()))
        return out;
    const ClusterCollective& cc = cluster_->collectives[static_cast<std::size_t>(collective)];
    // The last arriver's arrival on the aligned clock (the instant every other rank waits until).
    const CollectivePart* last = nullptr;
    for (const auto& p : cc.parts)
        if (p.rank == cc.lastArriver) last = &p;
    for (const auto& p : cc.parts) {
        Arrival a;
        a.rank = p.rank;
        a.arrival = raw_ ? p.start : p.aligned;
        a.last = last && &p == last;
        // That instant on this rank's row: on its own clock when the clocks are raw.
        a.waitEnd = last ? std::max(a.arrival, alignedOnRow(p.rank, last->aligned)) : a.arrival;
        out.push_back(a);
    }
    return out;
}

QString RanksTimeline::find(const QString& text) {
    const QString t = text.trimmed();
    if (!cluster_ || t.isEmpty()) return {};
    if (t != lastFind_) findCursor_ = -1;
    lastFind_ = t;
    QString number = t;
    if (number.startsWith(QLatin1String("rank"), Qt::CaseInsensitive)) number = number.mid(4).trimmed();
    bool isNumber = false;
    const int id = number.toInt(&isNumber);
    if (isNumber)
        for (int r = 0; r < rankCount(); ++r)
            if (cluster_->ranks[static_cast<std::size_t>(r)].rankId == id) {
                setSelectedRank(r);
                scrollToRank(r);
                emit rankClicked(r);
                return ClusterText::rankName(cluster_->ranks[static_cast<std::size_t>(r)]);
            }
    const int n = static_cast<int>(cluster_->collectives.size());
    for (int k = 1; k <= n; ++k) {
        const int i = (findCursor_ + k) % n;
        const ClusterCollective& cc = cluster_->collectives[static_cast<std::size_t>(i)];
        if (!QString::fromStdString(cc.key).contains(t, Qt::CaseInsensitive)) continue;
        findCursor_ = i;
        TimeNs lo = kNoTime, hi = std::numeric_limits<TimeNs>::min();
        for (const Arrival& a : arrivals(i)) {
            lo = std::min(lo, a.arrival);
            hi = std::max(hi, a.waitEnd);
        }
        if (lo != kNoTime) focusRange(lo, hi);
        if (cc.lastArriver >= 0) {
            setSelectedRank(cc.lastArriver);
            scrollToRank(cc.lastArriver);
        }
        return tr("%1 (%2)").arg(QString::fromStdString(cc.key), ClusterText::stepName(cc.step));
    }
    return {};
}

QString RanksTimeline::toolTipAt(const QPoint& pos) const {
    const int r = rankAt(pos);
    if (r < 0 || !cluster_) return {};
    const RankSummary& rank = cluster_->ranks[static_cast<std::size_t>(r)];
    QString tip = QStringLiteral("<b>%1</b>").arg(ClusterText::rankFullName(rank).toHtmlEscaped());
    for (const auto& s : cluster_->slowRanks)
        if (s.rank == r)
            tip += QStringLiteral("<br>") +
                   tr("Slow in %1 of %2 steps.").arg(s.steps.size()).arg(s.stepsCompared);
    if (r < static_cast<int>(cluster_->clockOffsets.size()) &&
        cluster_->clockOffsets[static_cast<std::size_t>(r)].collectives > 0)
        tip += QStringLiteral("<br>") +
               tr("Clock offset: %1 µs")
                   .arg(static_cast<double>(cluster_->clockOffsets[static_cast<std::size_t>(r)].offset) / 1e3,
                        0, 'f', 1);
    if (pos.x() < labelWidth_) return tip;
    const RankLanes* l = rank.lanes.get();
    if (!l) return tip;
    const TimeNs display = timeAt(pos.x()), raw = rawTime(r, display);
    const TimeNs slop = std::max<TimeNs>(0, timeAt(pos.x() + 2) - display);
    const auto span = [&](TimeNs a, TimeNs b) {
        return tr("start %1, duration %2")
            .arg(durationText(displayTime(r, a) - origin_), durationText(b - a));
    };
    if (laneRect(r, Lane::Busy).contains(pos)) {
        if (const auto* i = intervalAt(l->busy, raw, slop))
            tip +=
                QStringLiteral("<br>") + tr("Device busy") + QStringLiteral(": ") + span(i->first, i->second);
    } else if (laneRect(r, Lane::Comm).contains(pos)) {
        if (const auto* i = intervalAt(l->comm, raw, slop))
            tip += QStringLiteral("<br>") + tr("Communication") + QStringLiteral(": ") +
                   span(i->first, i->second);
    } else if (laneRect(r, Lane::Steps).contains(pos)) {
        for (const auto& s : l->steps)
            if (raw >= s.second.first && raw < s.second.second)
                tip += QStringLiteral("<br>") + ClusterText::stepName(s.first) + QStringLiteral(": ") +
                       span(s.second.first, s.second.second);
    }
    // The collectives whose arrival or wait on this row is under the mouse.
    for (int k = 0; k < static_cast<int>(cluster_->collectives.size()); ++k)
        for (const Arrival& a : arrivals(k))
            if (a.rank == r && display >= a.arrival - slop && display <= a.waitEnd + slop) {
                const ClusterCollective& cc = cluster_->collectives[static_cast<std::size_t>(k)];
                tip +=
                    QStringLiteral("<br><b>%1</b> (%2): ")
                        .arg(QString::fromStdString(cc.key).toHtmlEscaped(), ClusterText::stepName(cc.step));
                tip += a.last ? tr("arrives last, %1 after the earliest rank").arg(durationText(cc.lateness))
                              : tr("waits %1 for the last arriver").arg(durationText(a.waitEnd - a.arrival));
            }
    return tip;
}

bool RanksTimeline::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        const QString tip = toolTipAt(he->pos());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(he->globalPos(), tip, this);
        return true;
    }
    // Ctrl+F over the timeline is its own find, not the window's.
    if (e->type() == QEvent::ShortcutOverride && static_cast<QKeyEvent*>(e)->matches(QKeySequence::Find)) {
        e->accept();
        return true;
    }
    return QWidget::event(e);
}

void RanksTimeline::wheelEvent(QWheelEvent* e) {
    const QPoint d = e->angleDelta();
    const bool canScroll = contentHeight() > height() - kAxisHeight;
    if ((e->modifiers() & Qt::ControlModifier) ||
        (!canScroll && d.x() == 0 && !(e->modifiers() & Qt::ShiftModifier))) {
        zoomBy(std::pow(1.0015, d.y()), e->position().x());
    } else if (d.x() != 0 || (e->modifiers() & Qt::ShiftModifier)) {
        panByPixels(-(d.x() != 0 ? d.x() : d.y()) / 2.0);
    } else {
        scrollY_ -= d.y() / 2;
        clampScroll();
        update();
    }
    e->accept();
}

void RanksTimeline::mousePressEvent(QMouseEvent* e) {
    pressPos_ = e->pos();
    pressStart_ = viewStart_;
    pressEnd_ = viewEnd_;
    pressScroll_ = scrollY_;
    dragging_ = e->button() == Qt::LeftButton;
}

void RanksTimeline::mouseMoveEvent(QMouseEvent* e) {
    lastMouse_ = e->pos();
    if (!dragging_ || !(e->buttons() & Qt::LeftButton)) return;
    const auto dt = static_cast<TimeNs>((pressPos_.x() - e->pos().x()) *
                                        static_cast<double>(pressEnd_ - pressStart_) / plotWidth());
    scrollY_ = pressScroll_ + pressPos_.y() - e->pos().y();
    clampScroll();
    setView(pressStart_ + dt, pressEnd_ + dt);
}

void RanksTimeline::mouseReleaseEvent(QMouseEvent* e) {
    dragging_ = false;
    if ((e->pos() - pressPos_).manhattanLength() > 3) return;
    const int r = rankAt(e->pos());
    if (r < 0) return;
    setSelectedRank(r);
    emit rankClicked(r);
}

void RanksTimeline::mouseDoubleClickEvent(QMouseEvent* e) {
    const int r = rankAt(e->pos());
    if (r < 0) return;
    const TimeNs at = e->pos().x() > labelWidth_ ? timeAt(e->pos().x()) : (viewStart_ + viewEnd_) / 2;
    emit rankActivated(r, rawTime(r, at), viewEnd_ - viewStart_);
}

void RanksTimeline::keyPressEvent(QKeyEvent* e) {
    if (e->matches(QKeySequence::Find)) {
        emit findRequested();
        return;
    }
    const bool overPlot = lastMouse_.x() > labelWidth_ && rect().contains(lastMouse_);
    const double anchor = overPlot ? lastMouse_.x() : labelWidth_ + plotWidth() / 2.0;
    if (applyViewKey(*this, viewKeyOf(e->key(), true), anchor, plotWidth())) {
        e->accept();
        return;
    }
    switch (e->key()) {
    case Qt::Key_Up:
    case Qt::Key_Down:
        scrollY_ += (e->key() == Qt::Key_Up ? -1 : 1) * groupHeight();
        clampScroll();
        update();
        break;
    default:
        QWidget::keyPressEvent(e);
        return;
    }
    e->accept();
}

void RanksTimeline::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    clampScroll();
}

} // namespace bs::ui
