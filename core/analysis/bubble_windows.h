#pragma once
// ANALYSIS.md §4: significant bubble windows with neighbour kernels, host evidence and labels.
#include "analysis/bubble_metrics.h"
#include "analysis/host_evidence.h"

namespace bs {

// Windows of every step (internal / prelaunch / tail) and of the global capture outside the steps,
// duration >= bubble_min_us, sorted by duration (longest first), ids b0001…
std::vector<BubbleWindow> findBubbleWindows(const Profile& profile, const StepSet& steps,
                                            const std::vector<StepMetrics>& metrics, const HostIndex& host,
                                            const Rulebook& rules, Interval capture);

} // namespace bs
