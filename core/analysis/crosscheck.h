#pragma once
// ANALYSIS.md §3.1: our figures beside the profiler's own step_trace_time.csv.
#include "analysis/bubble_metrics.h"

#include <optional>

namespace bs {

struct CrossCheckFigure {
    std::string field;          // our field name
    std::string profilerColumn; // their column(s)
    double oursUs = 0;
    std::optional<double> profilerUs;
    bool mismatch = false; // |diff| > 0.5 % of the profiler figure and > 1 µs
};

struct CrossCheckRow {
    std::int64_t stepId = -1;
    bool matched = false; // a step_trace_time row exists for this step
    std::vector<CrossCheckFigure> figures;
};

struct CrossCheck {
    bool available = false; // step_trace_time.csv was read
    std::vector<CrossCheckRow> rows;
    std::size_t mismatches = 0;
};

CrossCheck crossCheck(const Profile& profile, const std::vector<StepMetrics>& metrics);

} // namespace bs
