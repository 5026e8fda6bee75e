#include "analysis/host_evidence.h"

#include "i18n/message.h"

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
    byEnd_.reserve(p.hostEvents.size());
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
        if (e.dur > 0)
            byEnd_.push_back(static_cast<std::uint32_t>(i));
        else
            instants_.push_back(e.ts);
        if (e.stack) stackEvents_.push_back(i);
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
    std::sort(byEnd_.begin(), byEnd_.end(), [&](std::uint32_t x, std::uint32_t y) {
        return p.hostEvents[x].end() < p.hostEvents[y].end();
    });
    // Events with a call stack: a segment tree of their latest ends over ts order finds those enclosing a
    // window without scanning all of them for every window.
    stackMaxEnd_.assign(stackEvents_.empty() ? 0 : 4 * stackEvents_.size(), INT64_MIN);
    if (!stackEvents_.empty()) buildStackIndex(1, 0, stackEvents_.size());
}

void HostIndex::buildStackIndex(std::size_t node, std::size_t lo, std::size_t hi) {
    if (hi - lo == 1) {
        stackMaxEnd_[node] = p_.hostEvents[stackEvents_[lo]].end();
        return;
    }
    const std::size_t mid = lo + (hi - lo) / 2;
    buildStackIndex(2 * node, lo, mid);
    buildStackIndex(2 * node + 1, mid, hi);
    stackMaxEnd_[node] = std::max(stackMaxEnd_[2 * node], stackMaxEnd_[2 * node + 1]);
}

// Appends, in stackEvents_ order, the events among the first `before` (those starting at or before w.a)
// that end at or after w.b — those enclosing w: O((k + 1) log n) for k found.
void HostIndex::stackEnclosing(std::size_t node, std::size_t lo, std::size_t hi, std::size_t before,
                               Interval w, std::vector<std::size_t>& out) const {
    if (lo >= before || stackMaxEnd_[node] < w.b) return;
    if (hi - lo == 1) {
        out.push_back(stackEvents_[lo]);
        return;
    }
    const std::size_t mid = lo + (hi - lo) / 2;
    stackEnclosing(2 * node, lo, mid, before, w, out);
    stackEnclosing(2 * node + 1, mid, hi, before, w, out);
}

HostIndex::LaneArea HostIndex::laneAreaBefore(TimeNs t) const {
    auto it = std::upper_bound(laneEdges_.begin(), laneEdges_.end(), t);
    if (it == laneEdges_.begin()) return 0;
    const auto i = static_cast<std::size_t>(it - laneEdges_.begin()) - 1;
    return laneArea_[i] + static_cast<LaneArea>(laneDepth_[i]) * (t - laneEdges_[i]);
}

std::size_t HostIndex::countOverlapping(Interval w) const {
    if (w.b <= w.a) return 0;
    // Events with a duration starting before w.b, less those of them ending by w.a.
    const auto started = static_cast<std::size_t>(
        std::lower_bound(used_.begin(), used_.end(), w.b,
                         [&](std::size_t i, TimeNs t) { return p_.hostEvents[i].ts < t; }) -
        used_.begin());
    const auto instants = static_cast<std::size_t>(std::lower_bound(instants_.begin(), instants_.end(), w.b) -
                                                   instants_.begin());
    const auto ended = static_cast<std::size_t>(
        std::upper_bound(byEnd_.begin(), byEnd_.end(), w.a,
                         [&](TimeNs t, std::uint32_t i) { return t < p_.hostEvents[i].end(); }) -
        byEnd_.begin());
    return started - instants - ended;
}

void HostIndex::partialHits(Interval w, bool withStackOnly,
                            std::vector<std::pair<TimeNs, std::size_t>>& out) const {
    // Starting inside w (after w.a) …
    auto s = std::upper_bound(used_.begin(), used_.end(), w.a,
                              [&](TimeNs t, std::size_t i) { return t < p_.hostEvents[i].ts; });
    for (; s != used_.end() && p_.hostEvents[*s].ts < w.b; ++s) {
        const TraceEvent& e = p_.hostEvents[*s];
        if (e.dur > 0 && (!withStackOnly || e.stack)) out.emplace_back(std::min(e.end(), w.b) - e.ts, *s);
    }
    // … or starting by w.a and ending inside w.
    auto f = std::upper_bound(byEnd_.begin(), byEnd_.end(), w.a,
                              [&](TimeNs t, std::uint32_t i) { return t < p_.hostEvents[i].end(); });
    for (; f != byEnd_.end() && p_.hostEvents[*f].end() < w.b; ++f) {
        const TraceEvent& e = p_.hostEvents[*f];
        if (e.ts <= w.a && (!withStackOnly || e.stack)) out.emplace_back(e.end() - w.a, *f);
    }
}

std::vector<std::pair<TimeNs, std::size_t>> HostIndex::overlappingWithStack(Interval w) const {
    std::vector<std::pair<TimeNs, std::size_t>> hits;
    if (w.b <= w.a || stackEvents_.empty()) return hits;
    partialHits(w, true, hits);
    const auto before = static_cast<std::size_t>(
        std::upper_bound(stackEvents_.begin(), stackEvents_.end(), w.a,
                         [&](TimeNs t, std::size_t i) { return t < p_.hostEvents[i].ts; }) -
        stackEvents_.begin());
    std::vector<std::size_t> enclosing;
    stackEnclosing(1, 0, stackEvents_.size(), before, w, enclosing);
    for (std::size_t i : enclosing)
        hits.emplace_back(w.length(), i);
    std::sort(hits.begin(), hits.end(), [](const auto& x, const auto& y) { return x.second < y.second; });
    return hits;
}

// ---- Events enclosing a window: one sweep for all windows ------------------------------------------------
//
// An event encloses window w when it starts at or before w.a and ends at or after w.b; its overlap is then
// the whole window, more than any other event's, so the enclosing events come first in a window's ranking
// (overlap, then the shorter, then the earlier start, then the lower index). Only the best three of them
// are ever shown, and for the markers the best one per thread (two markers enclosing one window on a thread
// are a nest: only its first counts). The windows are swept by start while the events are inserted as the
// sweep passes their start, into a tree over the windows' ends: an event sits under the latest window end
// it reaches, and a window asks the part of the tree from its own end on. Each node keeps its best three:
// O((events + windows) log windows), memory O(windows).

namespace {

constexpr std::uint32_t kNoEvent = UINT32_MAX;

struct Best3 {
    std::uint32_t e[3] = {kNoEvent, kNoEvent, kNoEvent};
};

class EnclosingTree {
  public:
    EnclosingTree(const Profile& p, const std::vector<TimeNs>& windowEnds, bool onePerLane)
        : p_(p), ends_(windowEnds), onePerLane_(onePerLane), tree_(2 * windowEnds.size()) {}
    // The window ends are sorted; the event goes under the last one it reaches (none: it encloses no window).
    void insert(std::uint32_t event) {
        const auto reach = std::upper_bound(ends_.begin(), ends_.end(), p_.hostEvents[event].end());
        if (reach == ends_.begin()) return;
        std::size_t node = static_cast<std::size_t>(reach - ends_.begin()) - 1 + ends_.size();
        Best3 one;
        one.e[0] = event;
        tree_[node] = merge(tree_[node], one);
        for (node /= 2; node >= 1; node /= 2)
            tree_[node] = merge(tree_[2 * node], tree_[2 * node + 1]);
    }
    // The best three inserted events ending at or after the window end of rank `rank`.
    Best3 from(std::size_t rank) const {
        Best3 out;
        for (std::size_t l = rank + ends_.size(), r = 2 * ends_.size(); l < r; l /= 2, r /= 2) {
            if (l & 1) out = merge(out, tree_[l++]);
            if (r & 1) out = merge(out, tree_[--r]);
        }
        return out;
    }

  private:
    bool before(std::uint32_t x, std::uint32_t y) const {
        const TraceEvent &a = p_.hostEvents[x], &b = p_.hostEvents[y];
        if (a.dur != b.dur) return a.dur < b.dur;
        if (a.ts != b.ts) return a.ts < b.ts;
        return x < y;
    }
    // The best three of both (each sorted, best first); with onePerLane_, the best of each lane only. Kept
    // per node this is exact: a lane missing from a part's best three has three better lanes there.
    Best3 merge(const Best3& x, const Best3& y) const {
        Best3 out;
        std::size_t i = 0, j = 0, k = 0;
        while (k < 3) {
            const bool hx = i < 3 && x.e[i] != kNoEvent, hy = j < 3 && y.e[j] != kNoEvent;
            if (!hx && !hy) break;
            const std::uint32_t e = hx && (!hy || before(x.e[i], y.e[j])) ? x.e[i++] : y.e[j++];
            if (onePerLane_ && std::any_of(out.e, out.e + k, [&](std::uint32_t o) {
                    return p_.hostEvents[o].lane == p_.hostEvents[e].lane;
                }))
                continue;
            out.e[k++] = e;
        }
        return out;
    }
    const Profile& p_;
    const std::vector<TimeNs>& ends_;
    bool onePerLane_;
    std::vector<Best3> tree_;
};

} // namespace

struct HostIndex::Enclosing {
    Best3 all, sync, comm;
};

std::vector<HostIndex::Enclosing> HostIndex::findEnclosing(const std::vector<Interval>& windows) const {
    std::vector<Enclosing> out(windows.size());
    std::vector<std::size_t> byStart; // the windows with a length, by start
    std::vector<TimeNs> ends;
    TimeNs shortest = INT64_MAX;
    for (std::size_t i = 0; i < windows.size(); ++i)
        if (windows[i].length() > 0) {
            byStart.push_back(i);
            ends.push_back(windows[i].b);
            shortest = std::min(shortest, windows[i].length());
        }
    if (byStart.empty()) return out;
    std::sort(byStart.begin(), byStart.end(),
              [&](std::size_t x, std::size_t y) { return windows[x].a < windows[y].a; });
    std::sort(ends.begin(), ends.end());
    EnclosingTree all(p_, ends, false), sync(p_, ends, true), comm(p_, ends, true);
    std::size_t next = 0;
    for (std::size_t wi : byStart) {
        const Interval w = windows[wi];
        for (; next < used_.size() && p_.hostEvents[used_[next]].ts <= w.a; ++next) {
            const TraceEvent& e = p_.hostEvents[used_[next]];
            if (e.dur < shortest) continue; // encloses no window
            const auto idx = static_cast<std::uint32_t>(used_[next]);
            all.insert(idx);
            if (nameClass_[e.name] & 1) sync.insert(idx);
            if (nameClass_[e.name] & 2) comm.insert(idx);
        }
        const auto rank =
            static_cast<std::size_t>(std::lower_bound(ends.begin(), ends.end(), w.b) - ends.begin());
        out[wi] = {all.from(rank), sync.from(rank), comm.from(rank)};
    }
    return out;
}

std::vector<HostEvidence> HostIndex::evidence(const std::vector<Interval>& windows) const {
    std::vector<HostEvidence> out;
    out.reserve(windows.size());
    const std::vector<Enclosing> around =
        hostTraceExists_ ? findEnclosing(windows) : std::vector<Enclosing>(windows.size());
    for (std::size_t i = 0; i < windows.size(); ++i)
        out.push_back(windowEvidence(windows[i], around[i]));
    return out;
}

HostEvidence HostIndex::windowEvidence(Interval w, const Enclosing& enclosing) const {
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
    // Ranked by overlap: the enclosing events (the whole window each), then the others. Equal overlap: the
    // shorter (innermost, more specific) event first, then the earlier, then the lower index.
    std::vector<std::pair<TimeNs, std::size_t>> hits;
    partialHits(w, false, hits);
    std::sort(hits.begin(), hits.end(), [&](const auto& x, const auto& y) {
        if (x.first != y.first) return x.first > y.first;
        const auto& ex = p_.hostEvents[x.second];
        const auto& ey = p_.hostEvents[y.second];
        if (ex.dur != ey.dur) return ex.dur < ey.dur;
        if (ex.ts != ey.ts) return ex.ts < ey.ts;
        return x.second < y.second;
    });
    auto overlapOf = [&](std::size_t idx, TimeNs overlap) {
        const auto& e = p_.hostEvents[idx];
        const auto& lane = p_.lanes[e.lane];
        std::string thread;
        auto pit = p_.processes.find(lane.pid);
        if (pit != p_.processes.end()) thread = pit->second.name + " ";
        auto tit = p_.threads.find({lane.pid, lane.tid});
        thread += tit != p_.threads.end() && !tit->second.name.empty() ? tit->second.name
                                                                       : msg("thread {}", lane.tid);
        return HostEventOverlap{std::string(p_.str(e.name)), thread, overlap};
    };
    for (std::uint32_t idx : enclosing.all.e)
        if (idx != kNoEvent) ev.topEvents.push_back(overlapOf(idx, w.length()));
    for (std::size_t k = 0; k < hits.size() && ev.topEvents.size() < 3; ++k)
        ev.topEvents.push_back(overlapOf(hits[k].second, hits[k].first));
    // The markers behind the sync and communication ratios, top 3 each. Frames of one call nest on their
    // thread (a Python `to` ⊃ aten::to ⊃ aten::_to_copy ⊃ aten::copy_): only the first of a nest counts,
    // so that one call does not hide a marker on another thread (the CANN aclrtSynchronize* beside it).
    // Enclosing markers on one thread are such a nest: the sweep kept the best of each thread.
    auto markers = [&](int bit, const Best3& enclosingMarkers, std::vector<HostEventOverlap>& out) {
        std::vector<std::size_t> chosen;
        for (std::uint32_t idx : enclosingMarkers.e)
            if (idx != kNoEvent) chosen.push_back(idx), out.push_back(overlapOf(idx, w.length()));
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
            out.push_back(overlapOf(h.second, h.first));
        }
    };
    markers(1, enclosing.sync, ev.topSyncMarkers);
    markers(2, enclosing.comm, ev.topCommMarkers);
    return ev;
}

} // namespace bs
