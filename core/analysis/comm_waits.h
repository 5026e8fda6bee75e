#pragma once
// ANALYSIS.md §1 communication: per step the exposed HCCL time (not overlapped by other kernels) and, from
// communication.json, its Wait / Transit / Synchronization; per collective the wait ratio and
// COMM_WAIT_HEAVY.
#include "analysis/anomaly_model.h"
#include "analysis/bubble_metrics.h"

namespace bs {

// Fills a.collectives and a.stepComm (one per step) and adds COMM_WAIT_HEAVY to the global tags when a
// collective's Wait / (Wait + Transit) is above comm_wait_heavy_ratio.
void analyzeCommunication(AnomalyResult& a, const Profile& profile, const StepSet& steps,
                          const std::vector<StepMetrics>& metrics);

// Appends to the host-side risk answer that a waiting collective's time is the slowest peer's (§1).
void answerCommWaits(AnomalyResult& a, const StepSet& steps);

} // namespace bs
