#pragma once
// ANALYSIS.md §8: steps grouped by kernel-name template, with per-metric statistics and the
// dominant idle pattern.
#include "analysis/anomaly_model.h"
#include "analysis/bubble_metrics.h"

namespace bs {

// `firstStepIsCompile`: the health check found compile time in the first step (health finding first_step_compile);
// a group made of that step alone is then ranked last, so the dominant group is steady state.
std::vector<StepGroup> groupSteps(const Profile& profile, const StepSet& steps,
                                  const std::vector<StepMetrics>& metrics, const Rulebook& rules,
                                  bool firstStepIsCompile = false);
MetricStats statsOf(std::vector<double> values);
// Kernel names used for templates: digit runs in collective names are a running op index
// (hcom_allReduce__586_0_1), so they are masked.
std::string templateName(std::string_view name, TaskClass cls);

} // namespace bs
