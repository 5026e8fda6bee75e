// The widget's state and API: model, view, rows, selection, search matches, flows, legend. Painting is
// in the render passes (timeline_render.cpp, timeline_overlays.cpp); input in timeline_input.cpp.
#include "timeline_widget.h"

#include "pipeline/analysis_run.h"
#include "model/profile.h"
#include "timeline_data.h"
#include "timeline_layout.h"
#include "timeline_render.h"

#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QImage>
#include <QMap>
#include <QPainter>

#include <algorithm>

namespace bs::ui {

TimelineWidget::TimelineWidget(QWidget* parent) : QWidget(parent), passes_(defaultRenderPasses()) {
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumHeight(160);
    setAccessibleName(tr("Timeline"));
}

TimelineWidget::~TimelineWidget() = default;

void TimelineWidget::setModel(std::shared_ptr<const Profile> profile,
                              std::shared_ptr<const AnalysisResult> analysis) {
    setModel(std::move(profile), std::move(analysis), nullptr);
}

void TimelineWidget::setModel(std::shared_ptr<const Profile> profile, std::shared_ptr<const AnalysisResult> analysis,
                              std::unique_ptr<TimelineData> built) {
    profile_ = std::move(profile);
    analysis_ = std::move(analysis);
    data_.reset(); // the old tracks go before the new ones are built
    data_ = built ? std::move(built) : std::make_unique<TimelineData>(buildTimelineData(*profile_, *analysis_));
    selectedBubble_ = selectedKernel_ = selectedHostEvent_ = -1;
    highlighted_.clear();
    highlightByLane_.clear();
    matches_.clear();
    matchesByTrack_.clear();
    matchedBubbles_.clear();
    currentMatch_ = -1;
    rangeA_ = rangeB_ = 0;
    scrollY_ = 0;
    emptyLanesShown_.clear();
    emptyInView_.clear();
    lastPicked_ = Picked::None;
    flowFromKernel_ = -1;
    fit();
    relayout();
    updateLegendStrip();
}

void TimelineWidget::clear() {
    // Nothing of the profile shown stays: its model, its selections, its range (issue 46: a failed open kept
    // the previous profile in memory behind an empty timeline).
    data_.reset();
    profile_.reset();
    analysis_.reset();
    selectedBubble_ = -1;
    rangeA_ = rangeB_ = 0;
    rangeSelecting_ = false;
    highlighted_.clear();
    highlightByLane_.clear();
    matches_.clear();
    matchesByTrack_.clear();
    matchedBubbles_.clear();
    currentMatch_ = selectedKernel_ = selectedHostEvent_ = -1;
    emptyLanesShown_.clear();
    emptyInView_.clear();
    lastPicked_ = Picked::None;
    flowFromKernel_ = -1;
    rows_.clear();
    update();
}

TimeNs TimelineWidget::dataStart() const {
    return data_ ? data_->start : 0;
}
TimeNs TimelineWidget::dataEnd() const {
    return data_ ? data_->end : 1;
}
int TimelineWidget::trackCount() const {
    return data_ ? static_cast<int>(data_->tracks.size()) : 0;
}
QString TimelineWidget::trackName(int i) const {
    return data_ ? data_->tracks[static_cast<std::size_t>(i)].name : QString();
}

TimeNs TimelineWidget::origin() const {
    return analysis_ && analysis_->anomaly.captureEnd > 0 ? analysis_->anomaly.captureStart : dataStart();
}

TimelineGeometry TimelineWidget::geometry() const {
    TimelineGeometry g;
    g.viewStart = viewStart_;
    g.viewEnd = viewEnd_;
    g.width = width();
    g.height = height();
    g.labelWidth = labelWidth_;
    g.axisHeight = kAxisHeight;
    g.scrollY = scrollY_;
    g.pinnedBottom = pinnedBottom_;
    g.legendHeight = legendVisible_ ? std::min(legendHeight_, std::max(0, height() - kAxisHeight - 40)) : 0;
    return g;
}

// Which lanes hold nothing in view. The rule (issue 46): a lane of the HCCL, Host or Overlap Analysis groups
// with no item overlapping the view is hidden behind one "N lanes empty in view" row of its group — decided
// per view, not per capture, because on the real ResNet rank every HCCL plane has events somewhere, yet in
// its 17.9 ms prelaunch gap eight empty planes pushed the host ops off screen. Device streams always show:
// an idle stream is what a bubble is. Two binary searches per lane (prefixMaxEnd), so panning costs nothing,
// and the rows change only when the set of empty lanes does.
bool TimelineWidget::laneEmptyInView(std::size_t track) const {
    const auto& t = data_->tracks[track];
    if (t.kind != TrackKind::Hccl && t.kind != TrackKind::Host && t.kind != TrackKind::Overlap) return false;
    const auto last = std::lower_bound(t.items.begin(), t.items.end(), viewEnd_,
                                       [](const TimelineItem& i, TimeNs v) { return i.start < v; });
    return last == t.items.begin() ||
           t.prefixMaxEnd[static_cast<std::size_t>(last - t.items.begin()) - 1] <= viewStart_;
}

bool TimelineWidget::emptyLanesChanged() const {
    if (!data_) return false;
    if (emptyInView_.size() != data_->tracks.size()) return true;
    for (std::size_t i = 0; i < data_->tracks.size(); ++i)
        if (emptyInView_[i] != laneEmptyInView(i)) return true;
    return false;
}

// Rows top to bottom: a header per group (not Device), a row per track — a host lane gets one row per
// call depth unless folded; a group's lanes empty in view share one row after its shown lanes.
void TimelineWidget::relayout() {
    rows_.clear();
    if (!data_) return;
    emptyInView_.assign(data_->tracks.size(), false);
    for (std::size_t i = 0; i < data_->tracks.size(); ++i)
        emptyInView_[i] = laneEmptyInView(i);
    int y = kAxisHeight;
    QString lastGroup;
    int hidden = 0, shownEmpty = 0;
    // After a group's lanes: the row standing for its lanes empty in view (hidden: click shows them; shown at
    // the user's request: click hides them again).
    const auto flushHidden = [&] {
        if ((hidden > 0 || shownEmpty > 0) && !lastGroup.isEmpty()) {
            TimelineRow r{-1, -1, lastGroup, y, 16, false, true};
            r.emptyLanes = hidden > 0 ? hidden : shownEmpty;
            r.emptyShown = hidden == 0;
            rows_.push_back(r);
            y += 18;
        }
        hidden = shownEmpty = 0;
    };
    for (std::size_t i = 0; i < data_->tracks.size(); ++i) {
        const auto& t = data_->tracks[i];
        if (t.group != lastGroup) flushHidden();
        if (t.group != lastGroup && t.group != QStringLiteral("Device")) {
            rows_.push_back({-1, -1, t.group, y, 18, false, true});
            y += 18;
        }
        lastGroup = t.group;
        if (t.collapsed) continue;
        if (emptyInView_[i] && !emptyLanesShown_.contains(t.group)) {
            ++hidden;
            continue;
        }
        if (emptyInView_[i]) ++shownEmpty;
        const int track = static_cast<int>(i);
        if (t.kind == TrackKind::Host && t.levels.size() > 1 && !t.depthFolded) {
            const auto first =
                static_cast<std::size_t>(std::clamp(t.firstLevel, 0, static_cast<int>(t.levels.size()) - 1));
            for (std::size_t d = first; d < t.levels.size(); ++d) {
                rows_.push_back({track, static_cast<int>(d), t.group, y, 14, false, d == first});
                y += 15;
            }
            y += 2;
            continue;
        }
        const bool band = t.kind == TrackKind::Steps || t.kind == TrackKind::Layers;
        const int h = band ? 16 : 20;
        // Steps, Layers and Device busy, while they lead the lanes, stay put when the lanes below scroll.
        const bool pin = (band || t.kind == TrackKind::DeviceBusy) &&
                         std::all_of(rows_.begin(), rows_.end(), [](const TimelineRow& r) { return r.pinned; });
        rows_.push_back({track, -1, t.group, y, h, t.kind == TrackKind::Stream || t.kind == TrackKind::DeviceBusy, true, pin});
        y += h + 2;
    }
    flushHidden();
    pinnedBottom_ = kAxisHeight;
    for (const auto& r : rows_)
        if (r.pinned) pinnedBottom_ = std::max(pinnedBottom_, r.y + r.h + 2);
    scrollY_ = std::clamp(scrollY_, 0, maxScroll());
    update();
}

int TimelineWidget::maxScroll() const {
    return std::max(0, contentHeight() - geometry().lanesBottom() + 20);
}

void TimelineWidget::updateLegendStrip() {
    legendHeight_ = 0;
    if (data_ && legendVisible_) {
        QFont small = font();
        small.setPointSizeF(std::max(6.5, font().pointSizeF() * 0.85));
        TimelineGeometry g = geometry();
        g.legendHeight = 0;
        legendHeight_ = legendStripHeight(*data_, g, QFontMetricsF(small));
    }
    scrollY_ = std::clamp(scrollY_, 0, maxScroll());
    update();
}

void TimelineWidget::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    updateLegendStrip(); // the legend wraps to the width
}

QRect TimelineWidget::lanesArea() const {
    const auto g = geometry();
    return QRect(0, kAxisHeight, width(), std::max(0, g.lanesBottom() - kAxisHeight));
}

int TimelineWidget::hiddenEmptyLaneCount(const QString& group) const {
    for (const auto& r : rows_)
        if (r.emptyLanes > 0 && !r.emptyShown && r.group == group) return r.emptyLanes;
    return 0;
}

int TimelineWidget::emptyLanesRowTop(const QString& group) const {
    const TimelineGeometry g = geometry();
    for (const auto& r : rows_)
        if (r.emptyLanes > 0 && r.group == group) return g.top(r);
    return -1;
}

void TimelineWidget::setEmptyLanesShown(const QString& group, bool shown) {
    emptyLanesShown_.removeAll(group);
    if (shown) emptyLanesShown_ << group;
    relayout();
}

bool TimelineWidget::isTrackLaidOut(int track) const {
    return std::any_of(rows_.begin(), rows_.end(),
                       [track](const TimelineRow& r) { return r.track == track; });
}

int TimelineWidget::heightShowingEveryRow() const {
    return height() - geometry().lanesBottom() + contentHeight() + 8;
}

int TimelineWidget::contentHeight() const {
    int total = 0;
    for (const auto& x : rows_)
        total = std::max(total, x.y + x.h);
    return total;
}

void TimelineWidget::scrollToRow(const TimelineRow* r) {
    if (!r) return;
    if (r->pinned) return;
    const int top = r->y - scrollY_;
    const int bottom = geometry().lanesBottom();
    if (top < pinnedBottom_ || top + r->h > bottom)
        scrollY_ = std::clamp(r->y - (bottom + pinnedBottom_) / 2, 0, maxScroll());
}

void TimelineWidget::setHighlightedHostEvents(std::vector<std::size_t> indices) {
    highlighted_.clear();
    highlightByLane_.clear();
    if (profile_) {
        for (std::size_t i : indices)
            if (i < profile_->hostEvents.size()) highlighted_.push_back(i);
        std::sort(highlighted_.begin(), highlighted_.end());
        highlighted_.erase(std::unique(highlighted_.begin(), highlighted_.end()), highlighted_.end());
        for (std::size_t i : highlighted_)
            highlightByLane_[profile_->hostEvents[i].lane].push_back(i);
    }
    // Bring the first highlighted lane into view (unfolding the host group when it is folded).
    if (!highlighted_.empty() && data_) {
        if (!rowOfHostEvent(*data_, *profile_, rows_, highlighted_.front()))
            setGroupCollapsed(QStringLiteral("Host"), false);
        scrollToRow(rowOfHostEvent(*data_, *profile_, rows_, highlighted_.front()));
    }
    update();
}

QPoint TimelineWidget::hostEventPosition(std::size_t index) const {
    if (!profile_ || !data_ || index >= profile_->hostEvents.size()) return {-1, -1};
    const auto& e = profile_->hostEvents[index];
    const TimelineRow* r = rowOfHostEvent(*data_, *profile_, rows_, index);
    if (!r || e.end() <= viewStart_ || e.ts >= viewEnd_) return {-1, -1};
    const auto g = geometry();
    const double x0 = g.x(std::max(e.ts, viewStart_)), x1 = g.x(std::min(e.end(), viewEnd_));
    return {static_cast<int>((x0 + x1) / 2), g.top(*r) + r->h / 2};
}

QPoint TimelineWidget::kernelPosition(std::size_t index) const {
    if (!profile_ || !data_ || index >= profile_->kernels.size()) return {-1, -1};
    const auto& k = profile_->kernels[index];
    const TimelineRow* r = rowOfKernel(*data_, *profile_, rows_, index);
    if (!r || k.end() <= viewStart_ || k.start >= viewEnd_) return {-1, -1};
    const auto g = geometry();
    const double x0 = g.x(std::max(k.start, viewStart_)), x1 = g.x(std::min(k.end(), viewEnd_));
    return {static_cast<int>((x0 + x1) / 2), g.top(*r) + r->h / 2};
}

void TimelineWidget::setGroupCollapsed(const QString& group, bool collapsed) {
    if (!data_) return;
    for (auto& t : data_->tracks)
        if (t.group == group) t.collapsed = collapsed;
    relayout();
}

QStringList TimelineWidget::foldGroupsEmptyInView() {
    QStringList folded;
    if (!data_) return folded;
    // A group's lanes with no item overlapping the view (e.g. eight HCCL planes idle around a prelaunch gap).
    QMap<QString, bool> any;
    for (const auto& t : data_->tracks) {
        if (t.group == QLatin1String("Device")) continue; // steps, layers, busy union, streams: always shown
        bool& a = any[t.group];
        if (a) continue;
        const auto [first, last] = t.visibleSlice(viewStart_, viewEnd_);
        for (std::size_t i = first; i < last && !a; ++i)
            a = t.items[i].start < viewEnd_ && t.items[i].end > viewStart_;
    }
    for (auto it = any.cbegin(); it != any.cend(); ++it)
        if (!it.value() && !isGroupCollapsed(it.key())) {
            setGroupCollapsed(it.key(), true);
            folded << it.key();
        }
    return folded;
}

bool TimelineWidget::isGroupCollapsed(const QString& group) const {
    if (!data_) return false;
    for (const auto& t : data_->tracks)
        if (t.group == group) return t.collapsed;
    return false;
}

void TimelineWidget::markRange(TimeNs a, TimeNs b) {
    rangeA_ = a;
    rangeB_ = b;
    update();
}

void TimelineWidget::setView(TimeNs start, TimeNs end) {
    if (end - start < 100) end = start + 100; // 100 ns minimum span
    const TimeNs pad = std::max<TimeNs>(1, (dataEnd() - dataStart()) / 20);
    const TimeNs lo = dataStart() - pad, hi = dataEnd() + pad;
    // Panning stops at the margin: the view is shifted back, keeping its span; only a span wider than
    // the data and margins is cut.
    if (start < lo) {
        end += lo - start;
        start = lo;
    }
    if (end > hi) {
        start = std::max(lo, start - (end - hi));
        end = hi;
    }
    if (end <= start) end = start + 100;
    if (start == viewStart_ && end == viewEnd_) return;
    viewStart_ = start;
    viewEnd_ = end;
    if (emptyLanesChanged()) relayout();
    update();
    emit viewChanged(viewStart_, viewEnd_);
}

void TimelineWidget::zoomBy(double factor, double anchorX) {
    const int w = std::max(1, width() - labelWidth_);
    const TimeNs anchor = xToTime(anchorX - labelWidth_, viewStart_, viewEnd_, w);
    const double span = static_cast<double>(viewEnd_ - viewStart_) / factor;
    const double left = static_cast<double>(anchor - viewStart_) / static_cast<double>(viewEnd_ - viewStart_);
    const TimeNs s = anchor - static_cast<TimeNs>(span * left);
    setView(s, s + static_cast<TimeNs>(span));
}

void TimelineWidget::panByPixels(double dx) {
    const int w = std::max(1, width() - labelWidth_);
    const TimeNs dt = static_cast<TimeNs>(dx * static_cast<double>(viewEnd_ - viewStart_) / w);
    setView(viewStart_ + dt, viewEnd_ + dt);
}

void TimelineWidget::fit() {
    setView(dataStart(), dataEnd());
}

void TimelineWidget::focusRange(TimeNs start, TimeNs end) {
    const TimeNs len = std::max<TimeNs>(end - start, 1000);
    setView(start - len * 3 / 4, end + len * 3 / 4);
}

void TimelineWidget::centreOn(TimeNs start, TimeNs end) {
    const TimeNs span = viewEnd_ - viewStart_, mid = start + (end - start) / 2;
    if (end - start > span * 9 / 10) focusRange(start, end);
    else setView(mid - span / 2, mid - span / 2 + span);
}

void TimelineWidget::selectBubble(int index) {
    if (!data_ || index >= static_cast<int>(data_->bubbles.size())) index = -1;
    selectedBubble_ = index;
    if (index >= 0) {
        const auto& b = data_->bubbles[static_cast<std::size_t>(index)];
        focusRange(b.start, b.end);
    }
    update();
    emit bubbleSelected(index);
}

// ---- selection -------------------------------------------------------------------------------------

void TimelineWidget::setSelectedKernel(int kernel) {
    if (!profile_ || kernel < 0 || kernel >= static_cast<int>(profile_->kernels.size())) kernel = -1;
    selectedKernel_ = kernel;
    if (kernel >= 0) lastPicked_ = Picked::Kernel;
    update();
}

void TimelineWidget::setSelectedHostEvent(int index) {
    if (!profile_ || index < 0 || index >= static_cast<int>(profile_->hostEvents.size())) index = -1;
    selectedHostEvent_ = index;
    if (index >= 0) lastPicked_ = Picked::HostEvent;
    if (index >= 0 && data_) {
        if (!rowOfHostEvent(*data_, *profile_, rows_, static_cast<std::size_t>(index)))
            setGroupCollapsed(QStringLiteral("Host"), false);
        scrollToRow(rowOfHostEvent(*data_, *profile_, rows_, static_cast<std::size_t>(index)));
    }
    update();
}

void TimelineWidget::clearSelection() {
    selectedKernel_ = selectedHostEvent_ = -1;
    rangeA_ = rangeB_ = 0;
    rangeSelecting_ = false;
    setSearchMatches({});
    update();
    emit selectionCleared();
}

// ---- search matches --------------------------------------------------------------------------------

void TimelineWidget::setSearchMatches(std::vector<Match> matches) {
    matches_.clear();
    matchesByTrack_.clear();
    matchedBubbles_.clear();
    currentMatch_ = -1;
    if (data_) {
        matchesByTrack_.resize(data_->tracks.size());
        for (const Match& m : matches) {
            const auto [a, b] = matchSpan(*profile_, *analysis_, m);
            if (a == 0 && b == 0) continue; // out of range
            const auto ref = static_cast<std::uint32_t>(matches_.size());
            matches_.push_back(m);
            if (m.kind == Match::Kind::Bubble) {
                matchedBubbles_.push_back(static_cast<int>(m.index));
                continue;
            }
            int track = -1;
            int depth = -1;
            if (m.kind == Match::Kind::Kernel) {
                auto t = data_->streamTrack.find(profile_->kernels[m.index].stream);
                if (t != data_->streamTrack.end()) track = t->second;
            } else {
                auto t = data_->laneTrack.find(profile_->hostEvents[m.index].lane);
                if (t != data_->laneTrack.end()) track = t->second;
                depth = data_->hostDepth[m.index];
            }
            if (track < 0) continue;
            auto& levels = matchesByTrack_[static_cast<std::size_t>(track)].levels;
            if (levels.size() < static_cast<std::size_t>(depth + 2)) levels.resize(static_cast<std::size_t>(depth + 2));
            const TimelineItem item{a, std::max(b, a + 1), ref, 0};
            levels[0].items.push_back(item);
            if (depth >= 0) levels[static_cast<std::size_t>(depth + 1)].items.push_back(item);
        }
        for (auto& tm : matchesByTrack_)
            for (auto& s : tm.levels)
                s.finish();
    }
    update();
    emit matchChanged(currentMatch_, static_cast<int>(matches_.size()));
}

void TimelineWidget::showMatch(int i) {
    if (matches_.empty() || !data_) return;
    const int n = static_cast<int>(matches_.size());
    currentMatch_ = (i % n + n) % n;
    const Match& m = matches_[static_cast<std::size_t>(currentMatch_)];
    const auto [a, b] = matchSpan(*profile_, *analysis_, m);
    focusRange(a, std::max(b, a + 1));
    if (m.kind == Match::Kind::Kernel) scrollToRow(rowOfKernel(*data_, *profile_, rows_, m.index));
    if (m.kind == Match::Kind::HostEvent) {
        if (!rowOfHostEvent(*data_, *profile_, rows_, m.index)) setGroupCollapsed(QStringLiteral("Host"), false);
        scrollToRow(rowOfHostEvent(*data_, *profile_, rows_, m.index));
    }
    if (m.kind == Match::Kind::Bubble && !rows_.empty()) scrollToRow(&rows_.front());
    update();
    emit matchChanged(currentMatch_, n);
}

QString TimelineWidget::matchLane(const Match& m) const {
    if (!data_ || !profile_) return {};
    int track = -1;
    if (m.kind == Match::Kind::Kernel && m.index < profile_->kernels.size()) {
        const auto t = data_->streamTrack.find(profile_->kernels[m.index].stream);
        if (t != data_->streamTrack.end()) track = t->second;
    } else if (m.kind == Match::Kind::HostEvent && m.index < profile_->hostEvents.size()) {
        const auto t = data_->laneTrack.find(profile_->hostEvents[m.index].lane);
        if (t != data_->laneTrack.end()) track = t->second;
    } else if (m.kind == Match::Kind::Bubble) {
        for (std::size_t i = 0; i < data_->tracks.size() && track < 0; ++i)
            if (data_->tracks[i].kind == TrackKind::DeviceBusy) track = static_cast<int>(i);
    }
    return track < 0 ? QString() : data_->tracks[static_cast<std::size_t>(track)].name;
}

double TimelineWidget::matchStartMs(const Match& m) const {
    if (!profile_ || !analysis_) return 0;
    return static_cast<double>(matchSpan(*profile_, *analysis_, m).first - origin()) / 1e6;
}

void TimelineWidget::nextMatch() {
    showMatch(currentMatch_ < 0 ? 0 : currentMatch_ + 1);
}

void TimelineWidget::previousMatch() {
    showMatch(currentMatch_ < 0 ? -1 : currentMatch_ - 1);
}

// ---- flows -----------------------------------------------------------------------------------------

std::optional<QLineF> TimelineWidget::flowArrowFor(int kernel) const {
    if (!data_ || kernel < 0) return std::nullopt;
    const auto [first, last] = data_->linksOf(static_cast<std::uint32_t>(kernel));
    if (first == last) return std::nullopt;
    return flowArrowLine(*first, *data_, *profile_, rows_, geometry());
}

int TimelineWidget::launchingHostEvent(int kernel) const {
    if (!data_ || kernel < 0) return -1;
    const auto [first, last] = data_->linksOf(static_cast<std::uint32_t>(kernel));
    return first == last || first->hostEvent == FlowLink::kNone ? -1 : static_cast<int>(first->hostEvent);
}

int TimelineWidget::launchingFlow(int kernel) const {
    if (!data_ || kernel < 0) return -1;
    const auto [first, last] = data_->linksOf(static_cast<std::uint32_t>(kernel));
    return first == last ? -1 : static_cast<int>(first->flow);
}

std::optional<TimeNs> TimelineWidget::launchLatency(int kernel) const {
    if (!data_ || kernel < 0) return std::nullopt;
    const auto [first, last] = data_->linksOf(static_cast<std::uint32_t>(kernel));
    if (first == last) return std::nullopt;
    return profile_->kernels[static_cast<std::size_t>(kernel)].start - first->startTs;
}

void TimelineWidget::ensureInView(TimeNs start, TimeNs end) {
    if (start >= viewStart_ && end <= viewEnd_) return;
    centreOn(start, std::max(end, start + 1));
}

// The view first (it decides which lanes are empty), then the group, then the row.
void TimelineWidget::showHostEvent(int index) {
    const auto& ev = profile_->hostEvents[static_cast<std::size_t>(index)];
    ensureInView(ev.ts, ev.end());
    const auto e = static_cast<std::size_t>(index);
    if (!rowOfHostEvent(*data_, *profile_, rows_, e)) {
        const auto t = data_->laneTrack.find(ev.lane);
        if (t != data_->laneTrack.end())
            setGroupCollapsed(data_->tracks[static_cast<std::size_t>(t->second)].group, false);
    }
    scrollToRow(rowOfHostEvent(*data_, *profile_, rows_, e));
}

void TimelineWidget::showKernel(int kernel) {
    const auto& k = profile_->kernels[static_cast<std::size_t>(kernel)];
    ensureInView(k.start, k.end());
    scrollToRow(rowOfKernel(*data_, *profile_, rows_, static_cast<std::size_t>(kernel)));
}

bool TimelineWidget::showLaunchingHostEvent(int kernel) {
    const int host = launchingHostEvent(kernel);
    if (host < 0) return false;
    flowFromKernel_ = kernel;
    selectedHostEvent_ = host;
    lastPicked_ = Picked::HostEvent;
    showHostEvent(host);
    update();
    emit hostEventClicked(host);
    return true;
}

bool TimelineWidget::showLaunchedKernel(int hostEvent) {
    if (!data_ || hostEvent < 0 || hostEvent >= static_cast<int>(profile_->hostEvents.size())) return false;
    const auto h = static_cast<std::uint32_t>(hostEvent);
    // The kernel L came from when this op launched it; else the first kernel it launched (links are sorted by
    // kernel, kernels by start); else the first launched from inside its span on its lane (an enclosing op).
    int kernel = -1;
    if (launchingHostEvent(flowFromKernel_) == hostEvent) kernel = flowFromKernel_;
    for (std::size_t i = 0; kernel < 0 && i < data_->flowLinks.size(); ++i)
        if (data_->flowLinks[i].hostEvent == h) kernel = static_cast<int>(data_->flowLinks[i].kernel);
    const auto& ev = profile_->hostEvents[h];
    for (std::size_t i = 0; kernel < 0 && i < data_->flowLinks.size(); ++i) {
        const FlowLink& l = data_->flowLinks[i];
        if (l.lane == ev.lane && l.startTs >= ev.ts && l.startTs <= ev.end())
            kernel = static_cast<int>(l.kernel);
    }
    if (kernel < 0) return false;
    selectedKernel_ = kernel;
    lastPicked_ = Picked::Kernel;
    showKernel(kernel);
    update();
    emit kernelClicked(kernel);
    return true;
}

bool TimelineWidget::followLaunchFlow() {
    if (!data_) return false;
    if (lastPicked_ == Picked::HostEvent && selectedHostEvent_ >= 0)
        return showLaunchedKernel(selectedHostEvent_);
    if (selectedKernel_ >= 0) return showLaunchingHostEvent(selectedKernel_);
    return selectedHostEvent_ >= 0 && showLaunchedKernel(selectedHostEvent_);
}

std::size_t TimelineWidget::flowLinkCount() const {
    return data_ ? data_->flowLinks.size() : 0;
}

void TimelineWidget::setShowAllFlowsInView(bool on) {
    showAllFlows_ = on;
    update();
}

// ---- legend, labels, badges, depth -------------------------------------------------------------------

void TimelineWidget::setLegendVisible(bool on) {
    legendVisible_ = on;
    updateLegendStrip();
}

QStringList TimelineWidget::legendLabels() const {
    QStringList out;
    if (data_)
        for (const auto& e : data_->legend)
            out << e.label;
    return out;
}

QRectF TimelineWidget::legendRect() const {
    if (!legendVisible_ || !data_) return {};
    QFont small = font();
    small.setPointSizeF(std::max(6.5, font().pointSizeF() * 0.85));
    return layoutLegend(*data_, geometry(), QFontMetricsF(small)).box;
}

void TimelineWidget::setLabelWidth(int w) {
    labelWidth_ = std::clamp(w, 80, std::max(80, width() / 2));
    update();
}

QString TimelineWidget::trackLabelText(int track) const {
    if (!data_ || track < 0 || track >= trackCount()) return {};
    const auto& t = data_->tracks[static_cast<std::size_t>(track)];
    return t.detail.isEmpty() ? t.name : t.name + QStringLiteral("  ") + t.detail;
}

bool TimelineWidget::isTrackLabelCut(int track) const {
    return QFontMetricsF(font()).horizontalAdvance(trackLabelText(track)) > labelWidth_ - 16;
}

std::vector<QRectF> TimelineWidget::badgeRects() const {
    std::vector<QRectF> out;
    if (!data_) return out;
    const auto g = geometry();
    const auto [top, bottom] = deviceBand(rows_, g);
    for (const auto& b : layoutBadges(*data_, g, top, bottom))
        out.push_back(b.rect);
    return out;
}

int TimelineWidget::hostEventDepth(std::size_t index) const {
    return data_ && index < data_->hostDepth.size() ? data_->hostDepth[index] : -1;
}

int TimelineWidget::hostDepthCount(int track) const {
    if (!data_ || track < 0 || track >= trackCount()) return 0;
    return static_cast<int>(data_->tracks[static_cast<std::size_t>(track)].levels.size());
}

void TimelineWidget::setHostDepthFolded(int track, bool folded) {
    if (!data_ || track < 0 || track >= trackCount()) return;
    data_->tracks[static_cast<std::size_t>(track)].depthFolded = folded;
    relayout();
}

int TimelineWidget::hideOuterHostFramesInView() {
    int hidden = 0;
    if (!data_) return hidden;
    for (auto& t : data_->tracks) {
        t.firstLevel = 0;
        if (t.kind != TrackKind::Host) continue;
        // The outer frames: the leading depth rows holding one event in view (a chain of frames, each
        // wrapping the next), down to the first row with two or more, which is where the view's ops part.
        const auto singleInView = [this](const ItemSeries& s) {
            const auto [a, b] = s.visibleSlice(viewStart_, viewEnd_);
            int n = 0;
            for (std::size_t i = a; i < b && n < 2; ++i)
                n += s.items[i].end > viewStart_ && s.items[i].start < viewEnd_;
            return n == 1;
        };
        while (t.firstLevel + 1 < static_cast<int>(t.levels.size()) &&
               singleInView(t.levels[static_cast<std::size_t>(t.firstLevel)]))
            ++t.firstLevel;
        hidden += t.firstLevel;
    }
    relayout();
    return hidden;
}

int TimelineWidget::firstHostDepthShown(int track) const {
    return data_ && track >= 0 && track < trackCount()
               ? data_->tracks[static_cast<std::size_t>(track)].firstLevel
               : 0;
}

bool TimelineWidget::isHostDepthFolded(int track) const {
    return data_ && track >= 0 && track < trackCount() && data_->tracks[static_cast<std::size_t>(track)].depthFolded;
}

int TimelineWidget::trackRowTop(int track, int level) const {
    const TimelineGeometry g = geometry();
    for (const auto& r : rows_)
        if (r.track == track && r.level == level) return g.top(r);
    return -1;
}

// ---- painting --------------------------------------------------------------------------------------

void TimelineWidget::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paintTo(p);
}

double TimelineWidget::renderOnceMs() {
    QImage img(size(), QImage::Format_RGB32);
    QElapsedTimer t;
    t.start();
    QPainter p(&img);
    paintTo(p);
    p.end();
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

void TimelineWidget::paintTo(QPainter& p) {
    if (!data_) {
        p.fillRect(rect(), palette().color(QPalette::Base));
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No profile loaded"));
        return;
    }
    const TimelineGeometry g = geometry();
    TimelineOverlayState s;
    s.selectedBubble = selectedBubble_;
    s.selectedKernel = selectedKernel_;
    s.selectedHostEvent = selectedHostEvent_;
    s.rangeVisible = rangeSelecting_ || rangeA_ != rangeB_;
    s.rangeA = rangeA_;
    s.rangeB = rangeB_;
    s.highlightByLane = &highlightByLane_;
    s.matches = &matches_;
    s.matchesByTrack = &matchesByTrack_;
    s.matchedBubbles = &matchedBubbles_;
    s.showAllFlowsInView = showAllFlows_;
    s.legendVisible = legendVisible_;
    if (currentMatch_ >= 0) {
        const Match& m = matches_[static_cast<std::size_t>(currentMatch_)];
        const auto [a, b] = matchSpan(*profile_, *analysis_, m);
        s.currentMatchStart = a;
        s.currentMatchEnd = std::max(b, a + 1);
        if (m.kind == Match::Kind::Bubble) s.currentMatchBubble = static_cast<int>(m.index);
        else if (m.kind == Match::Kind::Kernel) {
            auto t = data_->streamTrack.find(profile_->kernels[m.index].stream);
            s.currentMatchTrack = t == data_->streamTrack.end() ? -1 : t->second;
        } else {
            auto t = data_->laneTrack.find(profile_->hostEvents[m.index].lane);
            s.currentMatchTrack = t == data_->laneTrack.end() ? -1 : t->second;
            s.currentMatchLevel = data_->hostDepth[m.index];
        }
    }
    QFont small = font();
    small.setPointSizeF(std::max(6.5, font().pointSizeF() * 0.85));
    RenderContext c{p, *data_, *profile_, *analysis_, rows_, g, s, palette(), font(), small, -1, -1};
    std::tie(c.deviceTop, c.deviceBottom) = deviceBand(rows_, g);
    paintPasses(passes_, c);
}

} // namespace bs::ui
