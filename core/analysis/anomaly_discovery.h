#pragma once
// ANALYSIS.md §4–8: from step metrics to windows, labels, tags, op findings, groups, verdict,
// recommendations and the five Bubble-first answers.
#include "analysis/anomaly_model.h"
#include "analysis/bubble_metrics.h"

namespace bs {

AnomalyResult discoverAnomalies(const Profile& profile, const StepSet& steps,
                                const std::vector<StepMetrics>& metrics, const Rulebook& rules,
                                bool firstStepIsCompile = false);

} // namespace bs
