#pragma once
// ANALYSIS.md §15: the replay model. Per step, each stream's kernels in order with their measured durations,
// each kernel's launch (the host op linked to it by the trace's flows or the database's CONNECTION_IDS) with
// its observed launch-to-start delay, cross-stream waits (a kernel that started within 1 µs of another
// stream's kernel end on an idle stream), and each host thread in order, a synchronising op (§4/§5's sync
// markers) lasting until the device work it waits for has ended. Replayed event by event in the measured
// start order of the kernels (O(n log n) per step). A fix is an edit of the model; its worth is the
// difference of two replays. The decisions where §15 is silent: core/replay/README.md.
#include "model/time.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bs {

struct Profile;
struct StepSet;
struct AnomalyResult;
struct StepMetrics;

enum class ReplayEditKind {
    RemoveSyncOps,       // the outermost sync ops overlapping `window` are removed (the host goes on at their start)
    CutHostTime,         // the host time between the launch before and the launch of `kernel` cut to the step's
                         // median launch gap on that thread
    RemoveUntracedBlock, // the untraced host gap (no event on the thread) before the launch of `kernel` that
                         // overlaps `window` most is removed
    FirstLaunchAtMedianPrelaunch, // the host time before the launch of `kernel` (the step's first kernel) cut
                                  // so that it starts `amount` after the step start
    OpSpeedup,                    // every kernel named `op` lasts `factor` times less (factor 0: not at all)
    ShortenKernel,                // `kernel` lasts `amount` less (a collective's wait for a late rank)
};

struct ReplayEdit {
    ReplayEditKind kind = ReplayEditKind::RemoveSyncOps;
    TimeNs windowStart = 0, windowEnd = 0; // the bubble window (window edits)
    std::size_t kernel = SIZE_MAX;         // index into Profile::kernels
    std::string op;                        // OpSpeedup
    double factor = 1.0;                   // OpSpeedup
    TimeNs amount = 0;                     // FirstLaunchAtMedianPrelaunch: the prelaunch wanted; ShortenKernel
};

// A prediction whose replays' self-check error exceeds this (per cent) is marked low confidence (issue 47).
inline constexpr double kReplayLowConfidencePct = 2.0;

// What one replay of one step gives.
struct StepReplay {
    TimeNs measured = 0; // the step's service (ANALYSIS.md §2: window length)
    TimeNs replayed = 0; // the replayed window length
    double errorPct = 0; // |replayed − measured| / measured × 100 (0 when measured is 0)
    bool edited = false; // an edit of the list touched this step
};

// Counts of the model, for the README and the tests.
struct ReplayStats {
    std::size_t kernels = 0, launched = 0, crossStream = 0, queued = 0, absolute = 0;
    std::size_t hostThreads = 0, syncOps = 0, syncOpsWaiting = 0, hostGaps = 0, backpressureGaps = 0, queueWaitGaps = 0;
};

class ReplayModel {
  public:
    ReplayModel(const Profile& profile, const StepSet& steps);
    ~ReplayModel();
    ReplayModel(const ReplayModel&) = delete;
    ReplayModel& operator=(const ReplayModel&) = delete;

    std::size_t stepCount() const;
    // Replays step `step` (index into StepSet::steps) with `edits` (a window edit applies to the step its
    // window or kernel lies in; OpSpeedup to every kernel of the step).
    StepReplay replay(std::size_t step, const std::vector<ReplayEdit>& edits = {}) const;
    // The edit in words (English; core/i18n translates the fixed parts).
    std::string describe(const ReplayEdit& edit) const;
    // Why an edit cannot be made (empty when it can): e.g. no launch is linked to the kernel.
    std::string unresolvable(const ReplayEdit& edit) const;
    const ReplayStats& stats() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> d_;
};

// The self-check of every step: replayed unchanged.
std::vector<StepReplay> selfCheck(const Profile& profile, const StepSet& steps);

// Sets Recommendation::replay (or replayMissing) for every recommendation of `anomaly` whose replayCause is
// set: the edit matching its cause on each of its windows, replayed over the steps of the windows' group
// (all steps when they lie in several groups or the cause is an op), averaged per step. `metrics` give the
// other steps' prelaunch.
void predictRecommendationGains(const Profile& profile, const StepSet& steps, const std::vector<StepMetrics>& metrics,
                                AnomalyResult& anomaly);

} // namespace bs
