#include "analysis/analysis_run.h"

#include "analysis/health_check.h"

namespace bs {

AnalysisResult analyzeProfile(const Profile& profile) {
    AnalysisResult r;
    r.steps = detectSteps(profile);
    r.metrics = computeStepMetrics(profile, r.steps);
    r.crossCheck = crossCheck(profile, r.metrics);
    r.findings = healthCheck(profile, r.steps, r.metrics, r.crossCheck);
    return r;
}

} // namespace bs
