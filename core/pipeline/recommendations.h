#pragma once
// Recommendations (ANALYSIS.md §10) and the five Bubble-first answers, from the anomaly results.
#include "analysis/anomaly_model.h"
#include "analysis/bubble_metrics.h"

namespace bs {

struct LayerBoundaryBubbles;

// Any error finding (a cut trace, an unreadable file) lowers the confidence one level: high → medium,
// medium → low; at low every soft cause is low too.
void lowerConfidenceForDataErrors(AnomalyResult& a, const std::vector<Finding>& findings);
// Also settles requires_host_followup and each group's requires_followup from the recommendations that
// need a host follow-up (followupKind "host"): one rule for the JSON, the reports and the table.
// layerBoundaries (the architecture's placement of the windows, may be null) adds §10's "inter-structure
// bubbles → host dispatch between layers" when some significant window sits at a layer start.
void addRecommendations(AnomalyResult& a, const Profile& profile, const std::vector<Finding>& findings,
                        const LayerBoundaryBubbles* layerBoundaries = nullptr);
void answerBubbleFirstQuestions(AnomalyResult& a, const StepSet& steps,
                                const std::vector<StepMetrics>& metrics,
                                const std::vector<Finding>& findings);

// The error findings, named for a sentence: "trace_truncated in trace_view.json at byte 1895573".
std::vector<std::string> dataErrorNames(const std::vector<Finding>& findings);
// True when the recommendation asks for a host follow-up.
bool isHostFollowup(const Recommendation& r);
// §15's order of the recommendations: by priority, and within a priority the larger replayed gain first; one
// without a prediction after those with one (equal gains keep §10's order: use it with a stable sort).
bool comesBefore(const Recommendation& x, const Recommendation& y);

} // namespace bs
