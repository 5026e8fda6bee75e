#include "analysis/host_evidence.h"

#include <algorithm>
#include <cctype>

namespace bs {

namespace {

bool iContains(std::string_view hay, std::string_view needle) {
    if (needle.size() > hay.size()) return false;
    for (std::size_t i = 0; i + needle.size() <= hay.size(); ++i) {
        bool ok = true;
        for (std::size_t j = 0; j < needle.size() && ok; ++j)
            ok = std::tolower(static_cast<unsigned char>(hay[i + j])) ==
                 std::tolower(static_cast<unsigned char>(needle[j]));
        if (ok) return true;
    }
    return false;
}

bool startsWith(std::string_view s, std::string_view p) {
    return s.substr(0, p.size()) == p;
}

bool isStepMarker(std::string_view n) {
    return startsWith(n, "ProfilerStep#") || startsWith(n, "Iteration#") || startsWith(n, "Step#");
}

} // namespace

bool HostIndex::isSyncMarker(std::string_view n) {
    return n == "aten::to" || n == "aten::_to_copy" || n == "aten::copy_" || startsWith(n, "HostToDevice") ||
           n == "torch_to_npu" || startsWith(n, "aclrtMemcpy") || startsWith(n, "aclrtSynchronize") ||
           n.find("Synchronize") != std::string_view::npos || n == "aten::item" ||
           n == "aten::_local_scalar_dense";
}

bool HostIndex::isCommMarker(std::string_view n) {
    return startsWith(n, "c10d") || iContains(n, "hccl") || iContains(n, "hcom") || n == "StreamWaitEvent" ||
           n == "Notify_Wait" || n == "Notify Wait";
}

HostIndex::HostIndex(const Profile& p, const StepSet& steps) : p_(p) {
    hostTraceExists_ = !p.hostEvents.empty();
    // Events that enclose a whole step window (outer Python frames, the marker itself) say nothing
    // about a gap inside it: they are left out (core/README.md).
    // An event encloses a step when some step starting at or after it ends no later than it: steps by
    // start with the suffix minimum of their ends answer that with one binary search (a scan of every
    // step per event was quadratic).
    std::vector<std::pair<TimeNs, TimeNs>> byStart; // (start, end)
    for (const auto& s : steps.steps)
        byStart.emplace_back(s.start, s.end);
    std::sort(byStart.begin(), byStart.end());
    std::vector<TimeNs> minEndFrom(byStart.size() + 1, INT64_MAX);
    for (std::size_t i = byStart.size(); i-- > 0;)
        minEndFrom[i] = std::min(minEndFrom[i + 1], byStart[i].second);
    auto enclosesAStep = [&](const TraceEvent& e) {
        auto it = std::lower_bound(byStart.begin(), byStart.end(), e.ts,
                                   [](const std::pair<TimeNs, TimeNs>& s, TimeNs t) { return s.first < t; });
        return minEndFrom[static_cast<std::size_t>(it - byStart.begin())] <= e.end();
    };
    TimeNs minService = INT64_MAX;
    for (const auto& s : steps.steps)
        minService = std::min(minService, s.end - s.start);
    std::vector<Interval> all, sync, comm;
    std::vector<std::vector<Interval>> lanes(p.lanes.size()); // by lane index
    // Room for every event up front (reserved, not touched: the pages an event never fills cost nothing),
    // so that no vector is copied as it grows.
    {
        std::vector<std::size_t> perLane(lanes.size());
        for (const auto& e : p.hostEvents)
            if (e.lane < perLane.size()) ++perLane[e.lane];
        for (std::size_t l = 0; l < lanes.size(); ++l)
            lanes[l].reserve(perLane[l]);
    }
    all.reserve(p.hostEvents.size());
    used_.reserve(p.hostEvents.size());
    std::vector<signed char>& cls = nameClass_;
    cls.assign(p.strings.size(), -1); // per name: bit0 sync, bit1 comm, 4 = marker
    if (hostTraceExists_) traceStart_ = INT64_MAX, traceEnd_ = INT64_MIN;
    for (std::size_t i = 0; i < p.hostEvents.size(); ++i) {
        const auto& e = p.hostEvents[i];
        traceStart_ = std::min(traceStart_, e.ts);
        traceEnd_ = std::max(traceEnd_, e.end());
        signed char& c = cls[e.name];
        if (c < 0) {
            const std::string_view n = p.str(e.name);
            c = static_cast<signed char>((isSyncMarker(n) ? 1 : 0) | (isCommMarker(n) ? 2 : 0) |
                                         (isStepMarker(n) ? 4 : 0));
        }
        if (c & 4) continue;
        if (e.dur >= minService && enclosesAStep(e)) continue;
        used_.push_back(i);
        if (e.dur > kLong) longEvents_.push_back(i);
        const Interval iv{e.ts, e.end()};
        all.push_back(iv);
        lanes[e.lane].push_back(iv);
        if (c & 1) sync.push_back(iv);
        if (c & 2) comm.push_back(iv);
    }
    for (const auto& e : p.hcclEvents)
        comm.push_back({e.ts, e.end()});
    all_ = mergeIntervals(std::move(all));
    sync_ = mergeIntervals(std::move(sync));
    comm_ = mergeIntervals(std::move(comm));
    // Lane busy time as a step function (depth = lanes busy at once), so the sum over lanes of their
    // time inside a window is the area under it: two binary searches per window, however many lanes.
    // A lane's merged intervals are disjoint and in order, so its edges are a sorted run: the runs are
    // merged pairwise (log(lanes) passes) instead of sorting all edges (which fell back to heap sort).
    std::vector<std::pair<TimeNs, int>> edges;
    edges.reserve(2 * used_.size());
    std::vector<std::size_t> bounds{0};
    for (auto& v : lanes) {
        for (const auto& iv : mergeIntervals(std::move(v))) {
            edges.emplace_back(iv.a, +1);
            edges.emplace_back(iv.b, -1);
        }
        if (edges.size() != bounds.back()) bounds.push_back(edges.size());
    }
    while (bounds.size() > 2) {
        std::vector<std::size_t> merged{0};
        for (std::size_t i = 0; i + 1 < bounds.size(); i += 2) {
            if (i + 2 < bounds.size()) {
                const auto at = [&](std::size_t k) { return edges.begin() + static_cast<std::ptrdiff_t>(bounds[k]); };
                std::inplace_merge(at(i), at(i + 1), at(i + 2));
                merged.push_back(bounds[i + 2]);
            } else {
                merged.push_back(bounds[i + 1]);
            }
        }
        bounds = std::move(merged);
    }
    std::int64_t depth = 0;
    LaneArea area = 0;
    laneEdges_.reserve(edges.size());
    laneDepth_.reserve(edges.size());
    laneArea_.reserve(edges.size());
    for (std::size_t i = 0; i < edges.size();) {
        const TimeNs t = edges[i].first;
        if (!laneEdges_.empty()) area += static_cast<LaneArea>(depth) * (t - laneEdges_.back());
        for (; i < edges.size() && edges[i].first == t; ++i)
            depth += edges[i].second;
        laneEdges_.push_back(t);
        laneDepth_.push_back(depth);
        laneArea_.push_back(area);
    }
    // Long events, which can reach a window from far before it: a segment tree of their latest ends over
    // ts order finds those overlapping a window without scanning all of them for every window.
    longMaxEnd_.assign(longEvents_.empty() ? 0 : 4 * longEvents_.size(), INT64_MIN);
    if (!longEvents_.empty()) buildLongIndex(1, 0, longEvents_.size());
}

void HostIndex::buildLongIndex(std::size_t node, std::size_t lo, std::size_t hi) {
    if (hi - lo == 1) {
        longMaxEnd_[node] = p_.hostEvents[longEvents_[lo]].end();
        return;
    }
    const std::size_t mid = lo + (hi - lo) / 2;
    buildLongIndex(2 * node, lo, mid);
    buildLongIndex(2 * node + 1, mid, hi);
    longMaxEnd_[node] = std::max(longMaxEnd_[2 * node], longMaxEnd_[2 * node + 1]);
}

// Appends, in longEvents_ order, the long events among the first `before` (those starting before w.b)
// that end after w.a: O((k + 1) log n) for k found.
void HostIndex::longOverlapping(std::size_t node, std::size_t lo, std::size_t hi, std::size_t before,
                                Interval w, std::vector<std::size_t>& out) const {
    if (lo >= before || longMaxEnd_[node] <= w.a) return;
    if (hi - lo == 1) {
        out.push_back(longEvents_[lo]);
        return;
    }
    const std::size_t mid = lo + (hi - lo) / 2;
    longOverlapping(2 * node, lo, mid, before, w, out);
    longOverlapping(2 * node + 1, mid, hi, before, w, out);
}

HostIndex::LaneArea HostIndex::laneAreaBefore(TimeNs t) const {
    auto it = std::upper_bound(laneEdges_.begin(), laneEdges_.end(), t);
    if (it == laneEdges_.begin()) return 0;
    const auto i = static_cast<std::size_t>(it - laneEdges_.begin()) - 1;
    return laneArea_[i] + static_cast<LaneArea>(laneDepth_[i]) * (t - laneEdges_[i]);
}

std::vector<std::pair<TimeNs, std::size_t>> HostIndex::overlapping(Interval w) const {
    // Short events near the window, plus the few long ones.
    std::vector<std::pair<TimeNs, std::size_t>> hits;
    auto consider = [&](std::size_t idx) {
        const auto& e = p_.hostEvents[idx];
        const TimeNs o = std::min(e.end(), w.b) - std::max(e.ts, w.a);
        if (o > 0) hits.emplace_back(o, idx);
    };
    auto lo = std::lower_bound(used_.begin(), used_.end(), w.a - kLong,
                               [&](std::size_t i, TimeNs t) { return p_.hostEvents[i].ts < t; });
    for (auto it = lo; it != used_.end() && p_.hostEvents[*it].ts < w.b; ++it)
        if (p_.hostEvents[*it].dur <= kLong) consider(*it);
    if (!longEvents_.empty()) {
        const auto before = static_cast<std::size_t>(
            std::lower_bound(longEvents_.begin(), longEvents_.end(), w.b,
                             [&](std::size_t i, TimeNs t) { return p_.hostEvents[i].ts < t; }) -
            longEvents_.begin());
        std::vector<std::size_t> longHits;
        longOverlapping(1, 0, longEvents_.size(), before, w, longHits);
        for (std::size_t idx : longHits)
            consider(idx);
    }
    return hits;
}

HostEvidence HostIndex::evidence(Interval w) const {
    HostEvidence ev;
    ev.hostTraceExists = hostTraceExists_;
    const double len = static_cast<double>(w.length());
    if (!hostTraceExists_ || len <= 0) return ev;
    const TimeNs covered = intersectLength(all_, w);
    ev.coverage = static_cast<double>(covered) / len;
    ev.syncRatio = static_cast<double>(intersectLength(sync_, w)) / len;
    ev.commRatio = static_cast<double>(intersectLength(comm_, w)) / len;
    if (covered > 0) {
        // Sum over lanes of their busy time in the window; a few lanes can pass int64 (each adds up to the
        // window length, <= ~8e18 ns), so the 128-bit area is capped at the int64 limit.
        const LaneArea area = laneAreaBefore(w.b) - laneAreaBefore(w.a);
        const TimeNs sum = area > INT64_MAX ? INT64_MAX : static_cast<TimeNs>(area);
        ev.parallelism = static_cast<double>(sum) / static_cast<double>(covered);
    }
    // Top 3 events by overlap.
    std::vector<std::pair<TimeNs, std::size_t>> hits = overlapping(w);
    std::sort(hits.begin(), hits.end(), [&](const auto& x, const auto& y) {
        if (x.first != y.first) return x.first > y.first;
        // Equal overlap: the shorter (innermost, more specific) event first.
        const auto& ex = p_.hostEvents[x.second];
        const auto& ey = p_.hostEvents[y.second];
        if (ex.dur != ey.dur) return ex.dur < ey.dur;
        return ex.ts < ey.ts;
    });
    auto overlapOf = [&](const std::pair<TimeNs, std::size_t>& h) {
        const auto& e = p_.hostEvents[h.second];
        const auto& lane = p_.lanes[e.lane];
        std::string thread;
        auto pit = p_.processes.find(lane.pid);
        if (pit != p_.processes.end()) thread = pit->second.name + " ";
        auto tit = p_.threads.find({lane.pid, lane.tid});
        thread += tit != p_.threads.end() && !tit->second.name.empty() ? tit->second.name
                                                                       : "thread " + std::to_string(lane.tid);
        return HostEventOverlap{std::string(p_.str(e.name)), thread, h.first};
    };
    for (std::size_t k = 0; k < hits.size() && k < 3; ++k)
        ev.topEvents.push_back(overlapOf(hits[k]));
    // The markers behind the sync and communication ratios, top 3 each. Frames of one call nest on their
    // thread (a Python `to` ⊃ aten::to ⊃ aten::_to_copy ⊃ aten::copy_): only the first of a nest counts,
    // so that one call does not hide a marker on another thread (the CANN aclrtSynchronize* beside it).
    auto markers = [&](int bit, std::vector<HostEventOverlap>& out) {
        std::vector<std::size_t> chosen;
        for (const auto& h : hits) {
            if (out.size() >= 3) break;
            const auto& e = p_.hostEvents[h.second];
            if (!(nameClass_[e.name] & bit)) continue;
            const bool nested = std::any_of(chosen.begin(), chosen.end(), [&](std::size_t c) {
                const auto& x = p_.hostEvents[c];
                return x.lane == e.lane && x.ts < e.end() && e.ts < x.end();
            });
            if (nested) continue;
            chosen.push_back(h.second);
            out.push_back(overlapOf(h));
        }
    };
    markers(1, ev.topSyncMarkers);
    markers(2, ev.topCommMarkers);
    return ev;
}

} // namespace bs
