#include "analysis/host_evidence.h"

#include <algorithm>
#include <cctype>
#include <map>

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
    auto enclosesAStep = [&](const TraceEvent& e) {
        for (const auto& s : steps.steps)
            if (e.ts <= s.start && e.end() >= s.end) return true;
        return false;
    };
    TimeNs minService = INT64_MAX;
    for (const auto& s : steps.steps)
        minService = std::min(minService, s.end - s.start);
    std::vector<Interval> all, sync, comm;
    std::map<std::uint32_t, std::vector<Interval>> lanes;
    std::vector<signed char> cls(p.strings.size(), -1); // per name: bit0 sync, bit1 comm, 4 = marker
    for (std::size_t i = 0; i < p.hostEvents.size(); ++i) {
        const auto& e = p.hostEvents[i];
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
    for (auto& [lane, v] : lanes)
        perLane_.push_back(mergeIntervals(std::move(v)));
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
        TimeNs sum = 0;
        for (const auto& lane : perLane_)
            sum += intersectLength(lane, w);
        ev.parallelism = static_cast<double>(sum) / static_cast<double>(covered);
    }
    // Top 3 events by overlap: short events near the window, plus the few long ones.
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
    for (std::size_t idx : longEvents_)
        consider(idx);
    std::sort(hits.begin(), hits.end(), [&](const auto& x, const auto& y) {
        if (x.first != y.first) return x.first > y.first;
        // Equal overlap: the shorter (innermost, more specific) event first.
        const auto& ex = p_.hostEvents[x.second];
        const auto& ey = p_.hostEvents[y.second];
        if (ex.dur != ey.dur) return ex.dur < ey.dur;
        return ex.ts < ey.ts;
    });
    for (std::size_t k = 0; k < hits.size() && k < 3; ++k) {
        const auto& e = p_.hostEvents[hits[k].second];
        const auto& lane = p_.lanes[e.lane];
        std::string thread;
        auto pit = p_.processes.find(lane.pid);
        if (pit != p_.processes.end()) thread = pit->second.name + " ";
        auto tit = p_.threads.find({lane.pid, lane.tid});
        thread += tit != p_.threads.end() && !tit->second.name.empty() ? tit->second.name
                                                                       : "thread " + std::to_string(lane.tid);
        ev.topEvents.push_back({std::string(p_.str(e.name)), thread, hits[k].first});
    }
    return ev;
}

} // namespace bs
