#pragma once
// The timing model: a host thread that launches ops ahead of the device (bounded lead), streams
// that run their tasks in order, communication on its own streams overlapping the next compute op,
// and the planted anomalies. Produces one StepOut at a time.
#include "synth.h"

#include <functional>
#include <map>
#include <random>

namespace synth {

enum class LayerType { Dense, MoeDfc, MoeGmm };

struct ModelShape {
    std::vector<LayerType> layers; // per pass
    int prefillPasses = 0, decodePasses = 0;
};

class Simulator {
  public:
    explicit Simulator(const Options& o);
    ModelShape shape() const { return shape_; }
    // Simulates step `index` (0-based) starting at host time `start`; returns it.
    StepOut simulateStep(int index, Ns start);
    const std::vector<Planted>& planted() const { return planted_; }
    // Ground truth gathered over every step (append after the last step): --tiny-waits, --aicpu-layer.
    std::vector<Planted> summaryTruth(int steps) const;
    static constexpr int kMain = 2, kTp = 5, kEp = 6, kSide = 7;
    struct OpDef;

  private:
    void launch(StepOut& out, const OpDef& op, bool prefill, int tokens, int layerIndex);
    void launchTinyWait(StepOut& out, bool prefill, int tokens); // --tiny-waits, after a TP all-reduce
    void hostEvent(StepOut& out, std::string name, Lane lane, Ns ts, Ns dur, const char* cat = "cpu_op",
                   const CallStack* stack = nullptr, std::string dims = {}, std::uint64_t flow = 0);
    static void namePlantedLine(Planted& p, const CallStack& stack);
    Ns jitter(Ns base);
    Ns deviceIdleAt() const; // when every stream has drained

    Options o_;
    ModelShape shape_;
    std::mt19937_64 rng_;
    Ns tHost_ = 0;
    Ns devFree_[8] = {};
    Ns lastEnd_[8] = {};
    Ns lastCommEnd_ = 0;
    bool prevWasComm_ = false;
    std::uint64_t taskId_ = 1000, flowId_ = 5000, commSeq_ = 100;
    std::vector<Planted> planted_;
    int stepIndex_ = 0;
    struct TinyWaits {
        std::int64_t calls = 0, overlapping = 0;
        Ns waitSum = 0, waitMax = 0;
    } tiny_;
    std::int64_t aicpuLayerKernels_ = 0;
    struct Speedup {
        std::int64_t calls = 0;
        Ns before = 0, after = 0; // Σ duration without and with --op-speedup
    };
    std::map<std::int64_t, Speedup> speedup_; // by step number
    std::int64_t stepNumber_ = 0;
};

} // namespace synth
