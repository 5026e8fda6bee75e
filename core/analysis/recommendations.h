#pragma once
// Recommendations (ANALYSIS.md §10) and the five Bubble-first answers, from the anomaly results.
#include "analysis/anomaly_model.h"
#include "analysis/bubble_metrics.h"

namespace bs {

void addRecommendations(AnomalyResult& a, const Profile& profile, const std::vector<Finding>& findings);
void answerBubbleFirstQuestions(AnomalyResult& a, const StepSet& steps,
                                const std::vector<StepMetrics>& metrics);

} // namespace bs
