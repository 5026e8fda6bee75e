#pragma once
// ANALYSIS.md §1 communication: per step the exposed HCCL time (not overlapped by other kernels) and, from
// communication.json, its Wait / Transit / Synchronization; per collective the wait ratio and
// COMM_WAIT_HEAVY.
#include "analysis/anomaly_model.h"
#include "analysis/bubble_metrics.h"

namespace bs {

// The collectives (by start, each tagged COMM_WAIT_HEAVY when its Wait / (Wait + Transit) is above
// comm_wait_heavy_ratio) and one StepComm per step. Needs only the steps: discoverAnomalies measures it on
// its own thread and adds it in its place (addCommunication).
struct CommAnalysis {
    std::vector<CollectiveWait> collectives;
    std::vector<StepComm> stepComm;
};
CommAnalysis measureCommunication(const Profile& profile, const StepSet& steps,
                                  const std::vector<StepMetrics>& metrics, const Rulebook& rules);

// Fills a.collectives and a.stepComm and adds COMM_WAIT_HEAVY to the global tags when a collective has it.
void addCommunication(AnomalyResult& a, CommAnalysis measured);

// Appends to the host-side risk answer that a waiting collective's time is the slowest peer's (§1).
void answerCommWaits(AnomalyResult& a, const StepSet& steps);

} // namespace bs
