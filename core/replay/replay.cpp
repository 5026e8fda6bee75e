#include "replay/replay.h"

#include "analysis/host_evidence.h"
#include "analysis/steps.h"
#include "i18n/message.h"
#include "model/profile.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <utility>
#include <unordered_map>

namespace bs {

namespace {

constexpr TimeNs kNone = INT64_MIN;
// §15: a kernel waited for another stream's kernel when it started within 1 µs after that kernel's end.
constexpr TimeNs kCrossStreamNs = 1000;
// A kernel that starts within 1 µs after its stream predecessor's end was queued behind it.
constexpr TimeNs kQueuedNs = 1000;
constexpr std::uint32_t kNoThread = UINT32_MAX;
// A thread that went on within 1 µs before a host flow arrived waited for it.
constexpr TimeNs kHandOverNs = 1000;

// What held a kernel back, as measured (README.md, "What binds a kernel").
enum class Bind : unsigned char { Launch, Queued, Dep, Absolute };

// Median as numpy: the mean of the two middle values of an even count (rounded down); 0 when empty.
TimeNs median(std::vector<TimeNs>& v) {
    if (v.empty()) return 0;
    const std::size_t m = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(m), v.end());
    const TimeNs hi = v[m];
    if (v.size() % 2 == 1) return hi;
    const TimeNs lo = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(m));
    return lo + (hi - lo) / 2;
}

} // namespace

struct ReplayModel::Impl {
    const Profile& p;
    const StepSet& steps;
    // Per kernel.
    std::vector<TimeNs> launchTs;           // the host instant of its launch (flow 's'), kNone: none linked
    std::vector<std::uint32_t> launchThread; // thread of that instant
    // Where the launch originates: on a thread that handed it over by a host flow (the Python thread of torch_npu's
    // task queue) the 's' of the last flow that arrived on the launching thread before the launch; else the
    // launch itself. Host edits cut the originating thread's time.
    std::vector<TimeNs> originTs;
    std::vector<std::uint32_t> originThread;
    std::vector<std::int64_t> pred, dep;    // stream predecessor, cross-stream dependency (-1: none)
    std::vector<Bind> bind;
    std::vector<std::uint32_t> byEnd; // kernel indices by end
    // Per host thread (host lanes of one tid: the Python and CANN lanes of one OS thread are one thread).
    struct SyncOp {
        TimeNs s = 0, e = 0;
        // The device work it waited for: the kernels ending inside it, byEnd[lo, hi) (empty: it waited for none).
        std::uint32_t lo = 0, hi = 0;
        TimeNs lat = 0; // from max(its start, their last end) to its end: the return after the wait
    };
    struct Gap {
        TimeNs s = 0, e = 0;
        std::int64_t kernel = -1; // backpressure: the kernel launched last before it, still queued at its end
        TimeNs lead = 0;          // that kernel's start − the gap's end
        // Queue wait: the gap ended within 1 µs before work handed over by another thread arrived (a host flow
        // 'f' on this thread, e.g. torch_npu's async_task_queue from the Python thread to the dequeue thread):
        // it waited for the flow's 's' on srcThread at srcTs.
        std::uint32_t srcThread = UINT32_MAX;
        TimeNs srcTs = 0;
    };
    struct Thread {
        std::uint64_t tid = 0;
        std::vector<SyncOp> syncs; // outermost sync ops, by start
        std::vector<Gap> gaps;     // untraced spans between the thread's merged host events, by start
        std::vector<std::pair<TimeNs, std::uint32_t>> launches; // (launch instant, kernel), by instant
        // Host flows arriving on this thread from another one: (its 'f' instant, source thread, its 's' instant).
        struct Incoming {
            TimeNs at;
            std::uint32_t src;
            TimeNs from;
            bool operator<(const Incoming& o) const { return at < o.at; }
        };
        std::vector<Incoming> incoming;
        // The instants where the kernels launched from here originate (their launch, or the host flow that handed
        // the launch to another thread): (instant, kernel), by instant.
        std::vector<std::pair<TimeNs, std::uint32_t>> origins;
    };
    std::vector<Thread> threads;
    std::vector<std::uint32_t> markerThread; // per step
    std::vector<TimeNs> markerEnd;
    bool markerSteps = false;
    ReplayStats stats;

    Impl(const Profile& prof, const StepSet& st);
    void linkLaunches(std::unordered_map<std::uint64_t, std::uint32_t>& threadOf);
    void buildKernels();
    void buildThreads(std::unordered_map<std::uint64_t, std::uint32_t>& threadOf);
    TimeNs kernelEnd(std::size_t k) const { return p.kernels[k].end(); }
    StepReplay replay(std::size_t step, const std::vector<ReplayEdit>& edits) const;
    TimeNs medianLaunchGap(const Thread& t, TimeNs a, TimeNs b) const;
};

ReplayModel::Impl::Impl(const Profile& prof, const StepSet& st) : p(prof), steps(st) {
    std::unordered_map<std::uint64_t, std::uint32_t> threadOf; // tid → thread
    linkLaunches(threadOf);
    buildKernels();
    buildThreads(threadOf);
    markerSteps = st.source == StepSource::ProfilerStep || st.source == StepSource::Iteration;
    markerThread.assign(st.steps.size(), kNoThread);
    markerEnd.assign(st.steps.size(), 0);
    for (std::size_t i = 0; i < st.steps.size(); ++i) {
        const Step& s = st.steps[i];
        markerEnd[i] = s.markerStart + s.markerDur;
        if (!markerSteps) continue;
        // The marker event: the host event starting at the marker's start with its name.
        auto it = std::lower_bound(p.hostEvents.begin(), p.hostEvents.end(), s.markerStart,
                                   [](const TraceEvent& e, TimeNs t) { return e.ts < t; });
        for (; it != p.hostEvents.end() && it->ts == s.markerStart; ++it)
            if (p.str(it->name) == s.label && it->lane < p.lanes.size()) {
                const auto t = threadOf.find(p.lanes[it->lane].tid);
                if (t != threadOf.end()) markerThread[i] = t->second;
                break;
            }
    }
}

// A flow 's' on a host lane and its 'f' on a device lane at a kernel's start on the lane's stream link the
// kernel to its launch (as the window's timeline does, ui/timeline_index.cpp). Of several, the latest 's'
// not after the kernel's start: the last host act before the device took it. An 's' after the start (real
// data has negative launch latencies) is no launch the kernel waited for: left out.
void ReplayModel::Impl::linkLaunches(std::unordered_map<std::uint64_t, std::uint32_t>& threadOf) {
    const auto& fl = p.flows;
    const std::size_t n = p.kernels.size();
    launchTs.assign(n, kNone);
    launchThread.assign(n, kNoThread);
    auto threadFor = [&](std::uint64_t tid) {
        auto [it, inserted] = threadOf.try_emplace(tid, static_cast<std::uint32_t>(threads.size()));
        if (inserted) {
            threads.emplace_back();
            threads.back().tid = tid;
        }
        return it->second;
    };
    for (const auto& e : p.hostEvents)
        if (e.lane < p.lanes.size() && p.lanes[e.lane].kind == LaneKind::Host) threadFor(p.lanes[e.lane].tid);
    std::unordered_map<std::uint64_t, std::uint32_t> startById;
    startById.reserve(fl.size() / 2 + 1);
    for (std::uint32_t i = 0; i < fl.size(); ++i)
        if (fl[i].phase == 's' && fl[i].lane < p.lanes.size() && p.lanes[fl[i].lane].kind == LaneKind::Host)
            startById.try_emplace(fl[i].id, i);
    const auto byStart = [](const Kernel& k, TimeNs t) { return k.start < t; };
    for (const auto& f : fl) {
        if (f.phase == 'f' && f.lane < p.lanes.size() && p.lanes[f.lane].kind == LaneKind::Host) {
            // A host flow from one thread to another (a hand-over): the receiving thread may have waited for it.
            const auto s = startById.find(f.id);
            if (s == startById.end()) continue;
            const FlowEvent& sf = fl[s->second];
            const std::uint32_t from = threadFor(p.lanes[sf.lane].tid), to = threadFor(p.lanes[f.lane].tid);
            if (from != to && sf.ts <= f.ts) threads[to].incoming.push_back({f.ts, from, sf.ts});
            continue;
        }
        if (f.phase != 'f' || f.lane >= p.lanes.size() || p.lanes[f.lane].kind != LaneKind::Device) continue;
        const auto s = startById.find(f.id);
        if (s == startById.end()) continue;
        const auto stream = static_cast<std::int64_t>(p.lanes[f.lane].tid);
        auto k = std::lower_bound(p.kernels.begin(), p.kernels.end(), f.ts, byStart);
        const auto first = k;
        for (; k != p.kernels.end() && k->start == f.ts; ++k)
            if (k->stream == stream) break;
        if (k == p.kernels.end() || k->start != f.ts) {
            k = first; // a kernel without a stream takes the flow when it is alone at that instant
            if (k == p.kernels.end() || k->start != f.ts || k->stream >= 0 ||
                (k + 1 != p.kernels.end() && (k + 1)->start == f.ts))
                continue;
        }
        const FlowEvent& sf = fl[s->second];
        const auto ki = static_cast<std::size_t>(k - p.kernels.begin());
        if (sf.ts > k->start) continue;
        if (launchTs[ki] == kNone || sf.ts > launchTs[ki]) {
            launchTs[ki] = sf.ts;
            launchThread[ki] = threadFor(p.lanes[sf.lane].tid);
        }
    }
}

void ReplayModel::Impl::buildKernels() {
    const auto& ks = p.kernels;
    const std::size_t n = ks.size();
    stats.kernels = n;
    pred.assign(n, -1);
    dep.assign(n, -1);
    bind.assign(n, Bind::Absolute);
    byEnd.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        byEnd[i] = static_cast<std::uint32_t>(i);
    std::sort(byEnd.begin(), byEnd.end(), [&](std::uint32_t a, std::uint32_t b) {
        return ks[a].end() != ks[b].end() ? ks[a].end() < ks[b].end() : a < b;
    });
    std::unordered_map<std::int32_t, std::int64_t> last; // stream → its latest kernel so far
    for (std::size_t i = 0; i < n; ++i) {
        const Kernel& k = ks[i];
        if (k.stream >= 0) {
            auto [it, inserted] = last.try_emplace(k.stream, static_cast<std::int64_t>(i));
            if (!inserted) pred[i] = std::exchange(it->second, static_cast<std::int64_t>(i));
        }
        const TimeNs predEnd = pred[i] >= 0 ? kernelEnd(static_cast<std::size_t>(pred[i])) : kNone;
        // The other stream's kernel that ended latest within 1 µs before this start, on an idle stream (its own
        // predecessor had ended by then).
        auto e = std::upper_bound(byEnd.begin(), byEnd.end(), k.start,
                                  [&](TimeNs t, std::uint32_t j) { return t < ks[j].end(); });
        for (int look = 0; e != byEnd.begin() && look < 64; ++look) {
            --e;
            const Kernel& d = ks[*e];
            if (d.end() < k.start - kCrossStreamNs) break;
            if (*e == i || d.start >= k.start || (k.stream >= 0 && d.stream == k.stream)) continue;
            if (predEnd == kNone || predEnd <= d.end()) dep[i] = *e;
            break;
        }
        const bool launched = launchTs[i] != kNone;
        stats.launched += launched;
        if (dep[i] >= 0)
            bind[i] = Bind::Dep, ++stats.crossStream;
        else if (predEnd != kNone && (k.start - predEnd <= kQueuedNs || !launched || launchTs[i] <= predEnd))
            bind[i] = Bind::Queued, ++stats.queued;
        else if (launched)
            bind[i] = Bind::Launch;
        else
            bind[i] = Bind::Absolute, ++stats.absolute;
    }
}

void ReplayModel::Impl::buildThreads(std::unordered_map<std::uint64_t, std::uint32_t>& threadOf) {
    stats.hostThreads = threads.size();
    // Where each launch originates (no host thread: no launch, kNone everywhere; the edits index these).
    originTs = launchTs;
    originThread = launchThread;
    if (threads.empty()) return;
    // The host work each thread did: the events §4 takes as evidence (step markers and frames enclosing a
    // whole step left out: they would cover every gap).
    const HostIndex host(p, steps);
    std::vector<std::vector<std::size_t>> evs(threads.size());
    for (std::size_t i : host.usedEvents()) {
        const TraceEvent& e = p.hostEvents[i];
        if (e.lane >= p.lanes.size() || p.lanes[e.lane].kind != LaneKind::Host) continue;
        evs[threadOf.at(p.lanes[e.lane].tid)].push_back(i);
    }
    for (std::size_t k = 0; k < launchTs.size(); ++k)
        if (launchTs[k] != kNone) threads[launchThread[k]].launches.emplace_back(launchTs[k], k);
    for (auto& th : threads)
        std::sort(th.incoming.begin(), th.incoming.end());
    for (std::size_t k = 0; k < launchTs.size(); ++k) {
        if (launchTs[k] == kNone) continue;
        const auto& in = threads[launchThread[k]].incoming;
        auto it = std::upper_bound(in.begin(), in.end(), Thread::Incoming{launchTs[k], 0, 0});
        if (it != in.begin()) {
            --it;
            originTs[k] = it->from;
            originThread[k] = it->src;
        }
        threads[originThread[k]].origins.emplace_back(originTs[k], k);
    }
    for (auto& th : threads)
        std::sort(th.origins.begin(), th.origins.end());
    for (std::size_t t = 0; t < threads.size(); ++t) {
        Thread& th = threads[t];
        std::sort(th.launches.begin(), th.launches.end());
        // Outermost sync ops (a sync op inside another one waits for the same work).
        TimeNs syncEnd = kNone, busyEnd = kNone;
        for (std::size_t i : evs[t]) { // by start (used events are in hostEvents order)
            const TraceEvent& e = p.hostEvents[i];
            if (busyEnd != kNone && e.ts > busyEnd) th.gaps.push_back({busyEnd, e.ts, -1, 0});
            busyEnd = busyEnd == kNone ? e.end() : std::max(busyEnd, e.end());
            if (e.dur <= 0 || !HostIndex::isSyncMarker(p.str(e.name))) continue;
            if (syncEnd != kNone && e.ts < syncEnd) {
                syncEnd = std::max(syncEnd, e.end());
                if (e.end() > th.syncs.back().e) th.syncs.back().e = e.end();
                continue;
            }
            th.syncs.push_back({e.ts, e.end(), 0, 0, 0});
            syncEnd = e.end();
        }
        for (auto& s : th.syncs) {
            ++stats.syncOps;
            // The device work it waited for: every kernel ending inside it (whoever launched it: a stream or
            // device synchronisation returns after the last of them; a kernel it launched itself, such as the
            // copy of aten::item, is one of them).
            const auto hi = std::upper_bound(byEnd.begin(), byEnd.end(), s.e,
                                             [&](TimeNs v, std::uint32_t j) { return v < kernelEnd(j); });
            const auto lo = std::lower_bound(byEnd.begin(), hi, s.s,
                                             [&](std::uint32_t j, TimeNs v) { return kernelEnd(j) < v; });
            s.lo = static_cast<std::uint32_t>(lo - byEnd.begin());
            s.hi = static_cast<std::uint32_t>(hi - byEnd.begin());
            if (s.lo < s.hi) {
                s.lat = s.e - std::max(s.s, kernelEnd(byEnd[s.hi - 1]));
                ++stats.syncOpsWaiting;
            }
        }
        for (auto& g : th.gaps) {
            ++stats.hostGaps;
            // Queue wait first: the thread went on within 1 µs before work handed over from another thread.
            auto in = std::lower_bound(th.incoming.begin(), th.incoming.end(), Thread::Incoming{g.e, 0, 0});
            if (in != th.incoming.end() && in->at - g.e <= kHandOverNs) {
                g.srcThread = in->src;
                g.srcTs = in->from;
                ++stats.queueWaitGaps;
                continue;
            }
            // Backpressure: the kernel launched last before the gap had not started when the host went on —
            // the runtime's queue held the host (README.md, "Host gaps").
            auto l = std::upper_bound(th.launches.begin(), th.launches.end(), std::make_pair(g.s, UINT32_MAX));
            if (l == th.launches.begin()) continue;
            --l;
            const Kernel& k = p.kernels[l->second];
            if (k.start > g.e) {
                g.kernel = l->second;
                g.lead = k.start - g.e;
                ++stats.backpressureGaps;
            }
        }
    }
}

TimeNs ReplayModel::Impl::medianLaunchGap(const Thread& t, TimeNs a, TimeNs b) const {
    std::vector<TimeNs> gaps;
    auto l = std::lower_bound(t.origins.begin(), t.origins.end(), std::make_pair(a, std::uint32_t{0}));
    for (; l != t.origins.end() && l->first < b; ++l)
        if (l != t.origins.begin()) {
            const TimeNs d = l->first - (l - 1)->first;
            if (d > 0) gaps.push_back(d);
        }
    return median(gaps);
}

namespace {

// One host thread's replayed clock over a step: measured time passes at its rate between points; a sync op's
// end waits for the replayed end of the kernel it waited for; a backpressure gap's end follows its kernel's
// replayed start; a removed span (an edit) takes no time.
struct Chain {
    enum Type : unsigned char { Anchor, RemStart, RemEnd, SyncEnd, GapEnd };
    struct Pt {
        TimeNs t;
        Type type;
        std::uint32_t ref;
    };
    std::vector<Pt> pts;
    std::vector<TimeNs> r;      // replayed time of each evaluated point
    std::vector<int> depthAfter; // removed spans open after each evaluated point
    TimeNs medGap = 0;
    bool built = false, busy = false;
};

} // namespace

StepReplay ReplayModel::Impl::replay(std::size_t step, const std::vector<ReplayEdit>& edits) const {
    StepReplay out;
    const auto& st = steps.steps;
    if (step >= st.size()) return out;
    const Step& S = st[step];
    out.measured = S.service();
    const auto& ks = p.kernels;
    const TimeNs A = S.start, E = S.end;
    // Kernels replayed: those starting in this step and the next (a backpressure gap of this step may follow
    // a kernel of the next); earlier kernels keep their measured times.
    const TimeNs B = !markerSteps ? E + 1 : step + 2 < st.size() ? st[step + 2].start : INT64_MAX;
    const auto byStart = [](const Kernel& k, TimeNs t) { return k.start < t; };
    const std::size_t k0 = static_cast<std::size_t>(std::lower_bound(ks.begin(), ks.end(), A, byStart) - ks.begin());
    const std::size_t k1 = static_cast<std::size_t>(std::lower_bound(ks.begin(), ks.end(), B, byStart) - ks.begin());
    const std::size_t n = k1 - k0;
    std::vector<TimeNs> dur(n), startR(n, kNone);
    for (std::size_t j = 0; j < n; ++j)
        dur[j] = ks[k0 + j].dur;

    // The edits of this step.
    std::unordered_map<std::uint32_t, std::vector<Interval>> removed; // thread → removed spans
    bool edited = false;
    auto inStep = [&](TimeNs t) { return t >= A && t < E; };
    auto remove = [&](std::uint32_t th, TimeNs a, TimeNs b) {
        if (b <= a) return;
        removed[th].push_back({a, b});
        edited = true;
    };
    for (const auto& ed : edits) {
        const bool hasKernel = ed.kernel < ks.size();
        const std::uint32_t th = hasKernel ? originThread[ed.kernel] : kNoThread;
        const TimeNs l = hasKernel ? originTs[ed.kernel] : kNone;
        switch (ed.kind) {
        case ReplayEditKind::RemoveSyncOps:
            if (!inStep(ed.windowStart)) break;
            for (std::uint32_t t = 0; t < threads.size(); ++t)
                for (const auto& s : threads[t].syncs)
                    if (s.s < ed.windowEnd && s.e > ed.windowStart) remove(t, s.s, s.e);
            break;
        case ReplayEditKind::CutHostTime: {
            if (!hasKernel || l == kNone || !inStep(ks[ed.kernel].start)) break;
            const auto& ls = threads[th].origins;
            auto it = std::lower_bound(ls.begin(), ls.end(), std::make_pair(l, std::uint32_t{0}));
            if (it == ls.begin()) break;
            const TimeNs prev = (it - 1)->first;
            remove(th, prev, l - medianLaunchGap(threads[th], A, E));
            break;
        }
        case ReplayEditKind::RemoveUntracedBlock: {
            if (!hasKernel || l == kNone || !inStep(ks[ed.kernel].start)) break;
            const Gap* best = nullptr;
            TimeNs bestOverlap = 0;
            for (const auto& g : threads[th].gaps) {
                const TimeNs ov = std::min(g.e, l) - std::max(g.s, ed.windowStart);
                if (ov > bestOverlap) bestOverlap = ov, best = &g;
            }
            if (best) remove(th, best->s, best->e);
            break;
        }
        case ReplayEditKind::FirstLaunchAtMedianPrelaunch: {
            if (!hasKernel || l == kNone || !inStep(ks[ed.kernel].start)) break;
            const TimeNs x = (ks[ed.kernel].start - A) - ed.amount;
            if (x > 0) remove(th, std::max(A, l - x), l);
            break;
        }
        case ReplayEditKind::OpSpeedup:
            for (std::size_t j = 0; j < n; ++j)
                if (inStep(ks[k0 + j].start) && p.str(ks[k0 + j].name) == ed.op) {
                    dur[j] = ed.factor <= 0 ? 0
                                            : std::max<TimeNs>(1, static_cast<TimeNs>(std::llround(
                                                                      static_cast<double>(dur[j]) / ed.factor)));
                    edited = edited || dur[j] != ks[k0 + j].dur;
                }
            break;
        case ReplayEditKind::ShortenKernel:
            if (hasKernel && ed.kernel >= k0 && ed.kernel < k1 && inStep(ks[ed.kernel].start) && ed.amount > 0) {
                TimeNs& d = dur[ed.kernel - k0];
                d = std::max<TimeNs>(0, d - ed.amount);
                edited = true;
            }
            break;
        }
    }
    out.edited = edited;

    // The step's medians (README.md): launch-to-start delay of launch-bound kernels, gap of queued kernels
    // per stream.
    std::vector<TimeNs> delays;
    std::unordered_map<std::int32_t, std::vector<TimeNs>> qgaps;
    for (std::size_t j = k0; j < k1 && ks[j].start < E; ++j) {
        if (bind[j] == Bind::Launch) delays.push_back(ks[j].start - launchTs[j]);
        if (bind[j] == Bind::Queued && pred[j] >= 0)
            qgaps[ks[j].stream].push_back(ks[j].start - kernelEnd(static_cast<std::size_t>(pred[j])));
    }
    const TimeNs medDelay = median(delays);
    std::unordered_map<std::int32_t, TimeNs> medQ;
    for (auto& [s, v] : qgaps)
        medQ[s] = median(v);

    auto endOf = [&](std::int64_t k) -> TimeNs { // replayed end when known, else measured
        const auto u = static_cast<std::size_t>(k);
        if (u >= k0 && u < k1 && startR[u - k0] != kNone) return startR[u - k0] + dur[u - k0];
        return kernelEnd(u);
    };
    auto startOf = [&](std::int64_t k) -> TimeNs {
        const auto u = static_cast<std::size_t>(k);
        if (u >= k0 && u < k1 && startR[u - k0] != kNone) return startR[u - k0];
        return ks[u].start;
    };
    auto known = [&](std::int64_t k) {
        const auto u = static_cast<std::size_t>(k);
        return u < k0 || (u < k1 && startR[u - k0] != kNone);
    };

    std::unordered_map<std::uint32_t, Chain> chains;
    auto build = [&](std::uint32_t t, Chain& c) {
        c.built = true;
        const Thread& th = threads[t];
        c.pts.push_back({A, Chain::Anchor, 0});
        const auto rem = removed.find(t);
        for (std::uint32_t i = 0; i < th.syncs.size(); ++i)
            if (th.syncs[i].e > A && th.syncs[i].e < B && th.syncs[i].lo < th.syncs[i].hi)
                c.pts.push_back({th.syncs[i].e, Chain::SyncEnd, i});
        std::vector<TimeNs> gapLens;
        for (std::uint32_t i = 0; i < th.gaps.size(); ++i) {
            const Gap& g = th.gaps[i];
            if (g.e > A && g.e < E) gapLens.push_back(g.e - g.s);
            if (g.e > A && g.e < B && (g.kernel >= 0 || g.srcThread != kNoThread)) c.pts.push_back({g.e, Chain::GapEnd, i});
        }
        c.medGap = median(gapLens);
        if (rem != removed.end())
            for (const auto& iv : rem->second) {
                c.pts.push_back({std::max(iv.a, A), Chain::RemStart, 0});
                c.pts.push_back({std::max(iv.b, A), Chain::RemEnd, 0});
            }
        std::stable_sort(c.pts.begin(), c.pts.end(), [](const Chain::Pt& x, const Chain::Pt& y) {
            return x.t != y.t ? x.t < y.t : x.type < y.type;
        });
    };
    auto inRemoved = [&](std::uint32_t t, TimeNs a, TimeNs b) {
        const auto rem = removed.find(t);
        if (rem == removed.end()) return false;
        for (const auto& iv : rem->second)
            if (iv.a <= a && b <= iv.b) return true;
        return false;
    };
    // Replayed time of instant t on the evaluated part of the chain.
    auto lookup = [&](const Chain& c, TimeNs t) -> TimeNs {
        auto it = std::upper_bound(c.pts.begin(), c.pts.begin() + static_cast<std::ptrdiff_t>(c.r.size()), t,
                                   [](TimeNs v, const Chain::Pt& pt) { return v < pt.t; });
        if (it == c.pts.begin()) return t;
        const auto i = static_cast<std::size_t>(it - c.pts.begin()) - 1;
        return c.r[i] + (c.depthAfter[i] > 0 ? 0 : t - c.pts[i].t);
    };
    std::function<TimeNs(std::uint32_t, TimeNs)> query = [&](std::uint32_t t, TimeNs at) -> TimeNs {
        if (t == kNoThread || t >= threads.size()) return at;
        Chain& c = chains[t];
        if (!c.built) build(t, c);
        // A hand-over may ask a thread that is itself being evaluated (flows at one instant): what is known.
        if (c.busy) return lookup(c, at);
        c.busy = true;
        while (c.r.size() < c.pts.size() && c.pts[c.r.size()].t <= at) {
            const std::size_t i = c.r.size();
            const Chain::Pt& pt = c.pts[i];
            const int depth = i == 0 ? 0 : c.depthAfter[i - 1];
            const TimeNs prev = i == 0 ? pt.t : c.r[i - 1];
            TimeNs r = i == 0 ? pt.t : prev + (depth > 0 ? 0 : pt.t - c.pts[i - 1].t);
            int after = depth;
            if (pt.type == Chain::RemStart) ++after;
            if (pt.type == Chain::RemEnd) --after;
            if (pt.type == Chain::SyncEnd && depth == 0) {
                const SyncOp& s = threads[t].syncs[pt.ref];
                if (!inRemoved(t, s.s, s.e)) {
                    TimeNs last = kNone;
                    for (std::uint32_t j = s.lo; j < s.hi; ++j)
                        last = std::max(last, endOf(byEnd[j]));
                    r = std::max(prev, std::max(lookup(c, s.s), last) + s.lat);
                }
            }
            if (pt.type == Chain::GapEnd && depth == 0) {
                const Gap& g = threads[t].gaps[pt.ref];
                const TimeNs own = lookup(c, g.s) + std::min(g.e - g.s, c.medGap);
                if (inRemoved(t, g.s, g.e)) {
                } else if (g.srcThread != kNoThread) {
                    r = std::max(prev, std::max(own, query(g.srcThread, g.srcTs) + (g.e - g.srcTs)));
                } else if (known(g.kernel)) {
                    r = std::max(prev, std::max(own, startOf(g.kernel) - g.lead));
                }
            }
            c.r.push_back(r);
            c.depthAfter.push_back(after);
        }
        c.busy = false;
        return lookup(c, at);
    };

    // The kernels in measured start order: each one's dependencies (its stream predecessor, its launch, the
    // kernel it waited for) started before it, so they are replayed already.
    TimeNs firstStartR = INT64_MAX, lastEndR = kNone;
    for (std::size_t j = 0; j < n; ++j) {
        const std::size_t k = k0 + j;
        const Kernel& kk = ks[k];
        const TimeNs gap = pred[k] >= 0 ? kk.start - kernelEnd(static_cast<std::size_t>(pred[k])) : 0;
        const bool hasL = launchTs[k] != kNone;
        const TimeNs q = medQ.count(kk.stream) ? medQ.at(kk.stream) : 0;
        TimeNs c = kNone;
        switch (bind[k]) {
        case Bind::Launch:
            c = query(launchThread[k], launchTs[k]) + (kk.start - launchTs[k]);
            if (pred[k] >= 0) c = std::max(c, endOf(pred[k]) + std::min(gap, q)); // queued if launched earlier
            break;
        case Bind::Queued:
            c = endOf(pred[k]) + gap;
            if (hasL) c = std::max(c, query(launchThread[k], launchTs[k]) + std::min(kk.start - launchTs[k], medDelay)); // launched late
            break;
        case Bind::Dep:
            c = endOf(dep[k]) + (kk.start - kernelEnd(static_cast<std::size_t>(dep[k])));
            if (pred[k] >= 0) c = std::max(c, endOf(pred[k]) + std::min(gap, q));
            if (hasL) c = std::max(c, query(launchThread[k], launchTs[k]) + std::min(kk.start - launchTs[k], medDelay));
            break;
        case Bind::Absolute:
            c = kk.start;
            break;
        }
        startR[j] = c;
        const bool member = markerSteps ? kk.start >= A
                                        : (steps.source != StepSource::StepIdColumn || kk.stepId == S.number);
        if (member) {
            firstStartR = std::min(firstStartR, c);
            lastEndR = std::max(lastEndR, c + dur[j]);
        }
    }

    TimeNs a = A, b = E;
    if (markerSteps) {
        a = query(markerThread[step], A);
        if (step + 1 < st.size())
            b = query(markerThread[step + 1], st[step + 1].start);
        else
            b = std::max(query(markerThread[step], markerEnd[step]), lastEndR == kNone ? kNone : lastEndR);
    } else if (lastEndR != kNone) {
        a = firstStartR;
        b = lastEndR;
    }
    out.replayed = b - a;
    out.errorPct = out.measured > 0 ? 100.0 * static_cast<double>(std::llabs(out.replayed - out.measured)) /
                                          static_cast<double>(out.measured)
                                    : 0.0;
    return out;
}

ReplayModel::ReplayModel(const Profile& profile, const StepSet& steps)
    : d_(std::make_unique<Impl>(profile, steps)) {}
ReplayModel::~ReplayModel() = default;

std::size_t ReplayModel::stepCount() const {
    return d_->steps.steps.size();
}

StepReplay ReplayModel::replay(std::size_t step, const std::vector<ReplayEdit>& edits) const {
    return d_->replay(step, edits);
}

const ReplayStats& ReplayModel::stats() const {
    return d_->stats;
}

std::string ReplayModel::unresolvable(const ReplayEdit& e) const {
    const auto& ks = d_->p.kernels;
    switch (e.kind) {
    case ReplayEditKind::RemoveSyncOps: {
        for (const auto& t : d_->threads)
            for (const auto& s : t.syncs)
                if (s.s < e.windowEnd && s.e > e.windowStart) return {};
        return msg("no sync op of the host trace overlaps the window");
    }
    case ReplayEditKind::CutHostTime:
    case ReplayEditKind::RemoveUntracedBlock:
    case ReplayEditKind::FirstLaunchAtMedianPrelaunch:
        if (e.kernel >= ks.size()) return msg("no kernel ends the window");
        if (d_->launchTs[e.kernel] == kNone) return msg("no launch is linked to the kernel after the window");
        return {};
    case ReplayEditKind::OpSpeedup:
        for (const auto& k : ks)
            if (d_->p.str(k.name) == e.op) return {};
        return msg("no kernel is named {}", e.op);
    case ReplayEditKind::ShortenKernel:
        return e.kernel < ks.size() ? std::string() : msg("no such kernel");
    }
    return {};
}

std::string ReplayModel::describe(const ReplayEdit& e) const {
    const auto& ks = d_->p.kernels;
    const std::string after = e.kernel < ks.size() ? std::string(d_->p.str(ks[e.kernel].name)) : std::string();
    switch (e.kind) {
    case ReplayEditKind::RemoveSyncOps:
        return msg("the host sync ops overlapping the window removed");
    case ReplayEditKind::CutHostTime:
        return msg("the host time before the launch of {} cut to the step's median launch gap", after);
    case ReplayEditKind::RemoveUntracedBlock:
        return msg("the untraced host block before the launch of {} removed", after);
    case ReplayEditKind::FirstLaunchAtMedianPrelaunch:
        return msg("the first launch at the median prelaunch of the other steps ({:.3f} ms)",
                   static_cast<double>(e.amount) / 1e6);
    case ReplayEditKind::OpSpeedup:
        return e.factor <= 0 ? msg("{} off the critical path", e.op) : msg("{} {:g}x faster", e.op, e.factor);
    case ReplayEditKind::ShortenKernel:
        return msg("{} {:.3f} ms shorter", after, static_cast<double>(e.amount) / 1e6);
    }
    return {};
}

std::vector<StepReplay> selfCheck(const Profile& profile, const StepSet& steps) {
    const ReplayModel m(profile, steps);
    std::vector<StepReplay> v;
    for (std::size_t i = 0; i < m.stepCount(); ++i)
        v.push_back(m.replay(i));
    return v;
}

} // namespace bs
