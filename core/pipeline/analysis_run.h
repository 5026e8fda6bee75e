#pragma once
// Runs every analysis that exists over one loaded profile. The GUI and the headless command share it.
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
