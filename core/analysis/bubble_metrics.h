#pragma once
// ANALYSIS.md §3: per-step device busy union and bubbles.
#include "analysis/intervals.h"
#include "analysis/steps.h"
#include "model/profile.h"

#include <vector>

namespace bs {

struct StepMetrics {
    std::int64_t stepId = -1;
    std::string label;
    TimeNs windowStart = 0, windowEnd = 0;
    TimeNs service = 0, busyUnion = 0, underfeed = 0;
    double underfeedRatio = 0;
    TimeNs prelaunchGap = 0, tailGap = 0, internalBubbleTotal = 0, largestInternalBubble = 0;
    std::size_t bubbleCount = 0;
    // Inventory of the kernels that belong to the step (start inside the window).
    std::size_t kernelCount = 0, computeCoreCount = 0, aicpuCount = 0, commCount = 0, otherCount = 0;
    TimeNs kernelSum = 0, kernelWaitSum = 0;
    std::size_t distinctStreams = 0;
    std::vector<Interval> internalGaps; // in time order
};

std::vector<StepMetrics> computeStepMetrics(const Profile& profile, const StepSet& steps);

// Merged busy segments of all kernels clipped to [w.a, w.b).
std::vector<Interval> busySegments(const Profile& profile, Interval w);

} // namespace bs
