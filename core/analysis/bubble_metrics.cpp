#include "analysis/bubble_metrics.h"

#include <algorithm>
#include <set>

namespace bs {

namespace {

TimeNs maxKernelDuration(const Profile& p) {
    TimeNs m = 0;
    for (const auto& k : p.kernels)
        m = std::max(m, k.dur);
    return m;
}

std::vector<Interval> busyIn(const Profile& p, Interval w, TimeNs maxDur) {
    std::vector<Interval> clipped;
    auto it = std::lower_bound(p.kernels.begin(), p.kernels.end(), w.a - maxDur,
                               [](const Kernel& k, TimeNs t) { return k.start < t; });
    for (; it != p.kernels.end() && it->start < w.b; ++it) {
        if (it->end() <= w.a) continue;
        clipped.push_back({std::max(it->start, w.a), std::min(it->end(), w.b)});
    }
    return mergeIntervals(std::move(clipped));
}

} // namespace

std::vector<Interval> busySegments(const Profile& p, Interval w) {
    return busyIn(p, w, maxKernelDuration(p));
}

std::vector<StepMetrics> computeStepMetrics(const Profile& p, const StepSet& set) {
    std::vector<StepMetrics> out;
    const TimeNs maxDur = maxKernelDuration(p);
    for (const auto& s : set.steps) {
        StepMetrics m;
        m.stepId = s.number;
        m.label = s.label;
        m.windowStart = s.start;
        m.windowEnd = s.end;
        m.service = s.end - s.start;
        auto seg = busyIn(p, {s.start, s.end}, maxDur);
        m.busyUnion = totalLength(seg);
        m.underfeed = m.service - m.busyUnion;
        m.underfeedRatio =
            m.service > 0 ? static_cast<double>(m.underfeed) / static_cast<double>(m.service) : 0.0;
        if (seg.empty()) {
            m.prelaunchGap = m.service;
            m.tailGap = 0;
        } else {
            m.prelaunchGap = seg.front().a - s.start;
            m.tailGap = s.end - seg.back().b;
            for (std::size_t i = 1; i < seg.size(); ++i) {
                Interval g{seg[i - 1].b, seg[i].a};
                m.internalGaps.push_back(g);
                m.internalBubbleTotal += g.length();
                m.largestInternalBubble = std::max(m.largestInternalBubble, g.length());
            }
            m.bubbleCount = m.internalGaps.size();
        }
        std::set<std::int32_t> streams;
        auto it = std::lower_bound(p.kernels.begin(), p.kernels.end(), s.start,
                                   [](const Kernel& k, TimeNs t) { return k.start < t; });
        for (; it != p.kernels.end() && it->start < s.end; ++it) {
            ++m.kernelCount;
            switch (it->cls) {
            case TaskClass::ComputeCore:
                ++m.computeCoreCount;
                break;
            case TaskClass::AiCpu:
                ++m.aicpuCount;
                break;
            case TaskClass::Comm:
                ++m.commCount;
                break;
            case TaskClass::Other:
                ++m.otherCount;
                break;
            }
            // Sums of bounded durations can still pass int64 over millions of kernels: saturate (time.h).
            m.kernelSum = addSaturating(m.kernelSum, it->dur);
            m.kernelWaitSum = addSaturating(m.kernelWaitSum, it->wait);
            if (it->stream >= 0) streams.insert(it->stream);
        }
        m.distinctStreams = streams.size();
        out.push_back(std::move(m));
    }
    return out;
}

} // namespace bs
