#include "architecture/comm_pipeline.h"

#include "architecture/kernel_roles.h"
#include "i18n/message.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace bs {

namespace {

// For each stream, the other streams whose busy time overlaps its own (positive length), ascending.
// One sweep over all merged intervals by start: an interval overlaps exactly the intervals still open
// when it starts, and a stream has at most one open at a time (its merged intervals are disjoint). Cost
// O(N log N + pairs found); comparing every stream with every other was S^2 (40 k streams: 54 s).
std::map<int, std::vector<int>> overlappingStreams(const std::map<int, std::vector<Interval>>& merged) {
    struct Iv {
        TimeNs a, b;
        int stream;
    };
    std::vector<Iv> all;
    for (const auto& [s, v] : merged)
        for (const auto& iv : v)
            all.push_back({iv.a, iv.b, s});
    std::sort(all.begin(), all.end(), [](const Iv& x, const Iv& y) { return x.a < y.a; });
    std::multimap<TimeNs, int> open; // end → stream
    std::vector<std::pair<int, int>> pairs;
    for (const auto& x : all) {
        while (!open.empty() && open.begin()->first <= x.a)
            open.erase(open.begin());
        for (const auto& [end, o] : open)
            if (o != x.stream) pairs.emplace_back(std::min(o, x.stream), std::max(o, x.stream));
        open.emplace(x.b, x.stream);
    }
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    std::map<int, std::vector<int>> out;
    for (const auto& [s, o] : pairs) {
        out[s].push_back(o);
        out[o].push_back(s);
    }
    for (auto& [s, v] : out)
        std::sort(v.begin(), v.end());
    return out;
}

struct StreamTally {
    std::vector<Interval> busy;
    std::map<TaskClass, TimeNs> byClass;
    std::map<std::string, StreamKernelUse> uses; // by display name
    std::size_t kernels = 0;
};

// "communication: `hcom_allReduce_` ×243 (all-reduce)": the role, then the top names by time.
std::string purposeText(const StreamRole& s) {
    std::string o = s.role + ":";
    const std::size_t show = std::min<std::size_t>(s.uses.size(), 3);
    for (std::size_t i = 0; i < show; ++i) {
        const auto& u = s.uses[i];
        o += fmt::format("{} `{}` ×{}", i ? "," : "", u.name, u.count);
        if (!u.collective.empty()) o += " (" + u.collective + ")";
    }
    if (s.uses.size() > show) o += msg(" and {} more", s.uses.size() - show);
    return o;
}

} // namespace

std::string collectiveKind(std::string_view n) {
    if (iContains(n, "alltoall")) return "all-to-all";
    if (iContains(n, "allreduce")) return "all-reduce";
    if (iContains(n, "reducescatter") || iContains(n, "reduce_scatter")) return "reduce-scatter";
    if (iContains(n, "allgather") || iContains(n, "all_gather")) return "all-gather";
    if (iContains(n, "broadcast")) return "broadcast";
    if (iContains(n, "send") || iContains(n, "recv") || iContains(n, "receive")) return "send/receive";
    if (iContains(n, "reduce")) return "reduce";
    if (iContains(n, "barrier")) return "barrier";
    return "collective";
}

void describeStreams(const Profile& p, ArchitectureResult& a) {
    std::vector<Interval> comm, compute, all;
    std::map<int, StreamTally> tally;
    for (const auto& k : p.kernels) {
        (k.cls == TaskClass::Comm ? comm : compute).push_back({k.start, k.end()});
        all.push_back({k.start, k.end()});
        auto& t = tally[k.stream];
        t.busy.push_back({k.start, k.end()});
        ++t.kernels;
        TimeNs& c = t.byClass[k.cls];
        c = addSaturating(c, k.dur); // durations are bounded, their number is not (time.h)
        auto& u = t.uses[kernelDisplayName(p, k)];
        if (u.name.empty()) {
            u.name = kernelDisplayName(p, k);
            if (k.cls == TaskClass::Comm) u.collective = collectiveKind(p.str(k.name));
        }
        ++u.count;
        u.time = addSaturating(u.time, k.dur);
        a.kernelSumAll = addSaturating(a.kernelSumAll, k.dur);
    }
    const auto mc = mergeIntervals(comm), mk = mergeIntervals(compute);
    a.commTotal = totalLength(mc);
    for (const auto& iv : mc)
        a.commHidden += intersectLength(mk, iv);
    a.commOverlapShare =
        a.commTotal ? static_cast<double>(a.commHidden) / static_cast<double>(a.commTotal) : 0;
    a.busyAll = totalLength(mergeIntervals(std::move(all)));
    if (!p.kernels.empty()) {
        TimeNs end = 0;
        for (const auto& k : p.kernels)
            end = std::max(end, k.end());
        a.wallAll = end - p.kernels.front().start;
    }
    // The main stream: most compute-core time.
    int mainStream = -1;
    TimeNs mainBusy = -1;
    for (const auto& [s, t] : tally) {
        auto it = t.byClass.find(TaskClass::ComputeCore);
        if (it != t.byClass.end() && it->second > mainBusy) mainBusy = it->second, mainStream = s;
    }
    std::map<int, std::vector<Interval>> merged;
    for (auto& [s, t] : tally)
        merged[s] = mergeIntervals(std::move(t.busy));
    const auto overlaps = overlappingStreams(merged);
    for (auto& [s, t] : tally) {
        StreamRole sr;
        sr.stream = s;
        sr.kernels = t.kernels;
        sr.busy = totalLength(merged[s]);
        TaskClass top = TaskClass::Other;
        TimeNs topT = -1;
        for (const auto& [c, time] : t.byClass)
            if (time > topT) topT = time, top = c;
        if (s == mainStream)
            sr.role = "main compute";
        else if (top == TaskClass::ComputeCore)
            sr.role = "secondary compute";
        else if (top == TaskClass::Comm)
            sr.role = "communication";
        else if (top == TaskClass::AiCpu)
            sr.role = "AICPU";
        else
            sr.role = "other tasks";
        for (auto& [n, u] : t.uses)
            sr.uses.push_back(std::move(u));
        std::stable_sort(sr.uses.begin(), sr.uses.end(),
                         [](const StreamKernelUse& x, const StreamKernelUse& y) { return x.time > y.time; });
        sr.purpose = purposeText(sr);
        if (auto it = overlaps.find(s); it != overlaps.end()) sr.overlapsWith = it->second;
        a.streams.push_back(std::move(sr));
    }
}

} // namespace bs
