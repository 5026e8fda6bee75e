#pragma once
// ANALYSIS.md §7: op rankings, wait anchors and wait pollution, AICPU exposure, PMU verdicts.
#include "analysis/anomaly_model.h"
#include "analysis/steps.h"
#include "model/profile.h"

namespace bs {

// `steps` selects the kernels (those whose start lies in one of the step windows); empty → all kernels.
std::vector<OpStats> analyzeOps(const Profile& profile, const std::vector<Interval>& stepWindows,
                                const Rulebook& rules);
std::vector<AicpuOp> analyzeAicpu(const Profile& profile, const std::vector<BubbleWindow>& windows,
                                  const Rulebook& rules);
bool pmuAvailable(const Profile& profile);

} // namespace bs
