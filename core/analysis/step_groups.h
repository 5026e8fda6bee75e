#pragma once
// ANALYSIS.md §8: steps grouped by kernel-name template, with per-metric statistics and the
// dominant idle pattern.
#include "analysis/anomaly_model.h"
#include "analysis/bubble_metrics.h"

namespace bs {

std::vector<StepGroup> groupSteps(const Profile& profile, const StepSet& steps, const std::vector<StepMetrics>& metrics,
                                  const Rulebook& rules);
MetricStats statsOf(std::vector<double> values);
// Kernel names used for templates: digit runs in collective names are a running op index
// (hcom_allReduce__586_0_1), so they are masked.
std::string templateName(std::string_view name, TaskClass cls);

} // namespace bs
