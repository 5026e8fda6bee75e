// The pipeline (ANALYSIS.md, core/README.md "Layers"): it calls analysis, architecture and the advice
// built on both, so every include of core points down to it and never up from it.
#include "pipeline/analysis_run.h"

#include "analysis/anomaly_discovery.h"
#include "analysis/comm_waits.h"
#include "analysis/health_check.h"
#include "architecture/architecture_analysis.h"
#include "pipeline/recommendations.h"
#include "replay/replay.h"

#include <algorithm>
#include <future>

namespace bs {

AnalysisResult analyzeProfile(const Profile& profile, const Rulebook& rules) {
    AnalysisResult r;
    r.steps = detectSteps(profile);
    // The architecture's layers and structures need the steps but no bubble window: they are built on a
    // second thread while the step metrics are computed and the anomalies discovered (std::async: an
    // exception there reaches the caller at get(); r.steps is not written again).
    auto draft = std::async(std::launch::async,
                            [&] { return analyzeArchitectureWithoutWindows(profile, r.steps, rules); });
    r.metrics = computeStepMetrics(profile, r.steps);
    r.crossCheck = crossCheck(profile, r.metrics);
    r.findings = healthCheck(profile, r.steps, r.metrics, r.crossCheck);
    const bool compile = std::any_of(r.findings.begin(), r.findings.end(),
                                     [](const Finding& f) { return f.id == "first_step_compile"; });
    r.anomaly = discoverAnomalies(profile, r.steps, r.metrics, rules, compile);
    lowerConfidenceForDataErrors(r.anomaly, r.findings);
    // The architecture places the windows at layer starts; §10's layer-boundary recommendation needs it.
    r.architecture = placeWindowsInArchitecture(draft.get(), profile, r.anomaly.windows);
    addRecommendations(r.anomaly, profile, r.findings, &r.architecture.boundaryBubbles);
    answerBubbleFirstQuestions(r.anomaly, r.steps, r.metrics, r.findings);
    answerCommWaits(r.anomaly, r.steps); // §1: a waiting collective's time is the slowest peer's
    predictRecommendationGains(profile, r.steps, r.metrics, r.anomaly); // §15: what each fix is worth, replayed
    // §15: by priority, and within a priority the fix worth most first; one without a prediction after those
    // with one, in the order §10 gave (every output and the window list them in this order).
    std::stable_sort(r.anomaly.recommendations.begin(), r.anomaly.recommendations.end(), comesBefore);
    return r;
}

} // namespace bs
