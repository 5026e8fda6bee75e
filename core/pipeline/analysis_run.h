#pragma once
// The pipeline: runs every analysis over one loaded profile — steps and metrics, anomaly discovery (core/analysis),
// architecture (core/architecture), the replay's predictions (core/replay) — above all of them, so that every
// arrow of core points down. The GUI and the headless command share it.
#include "analysis/anomaly_model.h"
#include "analysis/crosscheck.h"
#include "analysis/steps.h"
#include "architecture/architecture_model.h"

namespace bs {

struct AnalysisResult {
    StepSet steps;
    std::vector<StepMetrics> metrics;
    CrossCheck crossCheck;
    std::vector<Finding> findings; // load findings + health check
    AnomalyResult anomaly;
    ArchitectureResult architecture;
};

AnalysisResult analyzeProfile(const Profile& profile, const Rulebook& rules = {});

} // namespace bs
