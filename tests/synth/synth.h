#pragma once
// bubblescope-synth: writes a torch_npu-style profiling folder that BubbleScope's loaders cannot
// tell from a real one, with planted anomalies and their ground truth in expected.json.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace synth {

using Ns = std::int64_t;

struct Options {
    std::string outDir = ".";
    std::string name = "synth";
    std::uint64_t seed = 1;
    int denseLayers = 3;
    int dfcLayers = 4; // MoE layers with DispatchFFNCombine
    int gmmLayers = 1; // MoE layers with GroupedMatmul + alltoallv
    int prefillPasses = 2;
    int decodePasses = 4;
    int steps = 3;
    int firstStepNumber = 1;
    bool sampling = true;
    // Planted anomalies.
    bool hostLaunchLag = false, syncBubble = false, untracedBubble = false, commWaitBubble = false;
    bool aicpuExposed = false, aicpuMasked = false, waitAnchor = false, variableShapes = false;
    bool compileFirstStep = false;
    // Cases for the architecture report and the window rules (never part of --anomalies all, so the outputs
    // of the options above stay byte-identical).
    double decodeAttentionLoUs = 0, decodeAttentionHiUs = 0; // decode FIA duration range (0: 80 µs ± 2 %)
    int aicpuLayer = -1;         // an AICPU kernel in this layer of every prefill pass
    double firstPrelaunchUs = 0; // host input copies before the first step's first launch
    double lastTailUs = 0;       // host output copies after the last step's device work
    double dispatchGapUs = 0;    // host work before every attention kernel of each step's first decode pass
    bool tinyWaits = false;      // a µs op right after every TP all-reduce, waiting ~1.5 µs beside it
    bool level0 = false;         // 8-column Level0 kernel_details (no stream, shapes, PMU)
    double truncateAt = 0.0;     // cut trace_view.json at this fraction of its size (0 = complete)
    double traceMb = 0.0;        // grow the capture (more steps) until trace_view.json reaches ~N MB
    bool db = false;             // also write the SQLite export (ascend_pytorch_profiler_0.db + analysis.db)
    double dbMb = 0.0;           // grow the capture until the database reaches ~N MB (implies db)
    bool quiet = false;
    // --op-speedup NAME=F: every kernel named NAME lasts F times less (the random draw is made as before, so a
    // before/after pair with the same seed differs only there); expected.json gets its per-step totals.
    std::string speedupOp;
    double speedupFactor = 1.0;
    // Several ranks of one collection (--ranks N): the same timings on every rank, except that rank
    // slowRank starts step slowStep (index) slowMs ms late and the others wait that long at its first
    // collective.
    int ranks = 0;
    int rank = 0; // the rank being written
    int slowRank = -1;
    double slowMs = 0;
    int slowStep = -1; // -1: the second step (the first when there is one); kAllSteps: every step
    static constexpr int kAllSteps = -2;
    // --slow-cause compute: the slow rank's device computes slowMs longer before the planted collective (one
    // extra kernel) instead of starting the step late (host, the default).
    bool slowCompute = false;
    bool slowCauseGiven = false;
    // --leave-out CAUSE: the matching "after" profile — the cause (sync, launch-lag, untraced, prelaunch,
    // slow-rank) planted as asked is left out, every random draw made as with it, so the same seed gives the
    // same other timings (as --op-speedup does for ops).
    std::string leaveOut;
    bool leaving(const char* cause) const { return leaveOut == cause; }
    // --clock-skew-us R:US,…: what rank R's clock reads minus the true time, in ns (ranks not listed: 0).
    std::vector<std::pair<int, Ns>> clockSkew;
};

// One device task as written to kernel_details.csv and the trace.
struct Kernel {
    std::string name;
    const char* opType = "";
    const char* core = "AI_CORE"; // Accelerator Core column
    const char* traceTaskType = "AI_CORE";
    int stream = 2;
    Ns start = 0, dur = 0, wait = 0;
    std::string inShapes, inTypes = "DT_BF16", outShapes, outTypes = "DT_BF16";
    std::uint64_t taskId = 0;
    std::uint64_t flowId = 0; // async_npu / HostToDevice id (0 = none)
    int blockDim = 24;
    bool isComm = false;
    bool isAicpu = false;
    Ns commWait = -1; // communication.json Wait Time (-1: half the elapse)
    Ns commTransit = -1;
    Ns commSync = -1; // communication.json Synchronization Time (-1: 0.45 of the elapse, a single rank's)
};

enum class Lane { Python, PythonWorker, Cann };

// Python call stacks of host ops, innermost frame first, one frame a line (the trace joins them with
// ";\r\n", the database writes one PYTORCH_CALLCHAINS row each): the user's script (/workspace/llm_bench)
// over the library frames of torch, torch_npu and vLLM under site-packages, as a real vLLM-Ascend run
// writes them. A planted host cause has its own user line, named in expected.json.
struct CallStack {
    const char* frames;    // "…/model.py(214): forward\n…/module.py(1527): _call_impl\n…"
    const char* userFrame; // its innermost user frame as written ("" when there is none)
    const char* userLine;  // the same as BubbleScope labels it: "model.py:214 forward"
};
extern const CallStack kStackStep, kStackOp, kStackCompile, kStackLaunchLag, kStackSyncItem, kStackSyncCopy,
    kStackCommWait, kStackPrelaunch, kStackTail, kStackDispatch;

struct HostEvent {
    std::string name;
    const char* cat = "cpu_op";
    Lane lane = Lane::Python;
    Ns ts = 0, dur = 0;
    const CallStack* stack = nullptr; // nullptr: no "Call stack"
    std::string inputDims;
    std::uint64_t flowOut = 0; // emits a flow 's' at ts+dur (async_npu from Python, HostToDevice from CANN)
};

struct Planted {
    std::string type;  // host_launch_lag, sync_bubble, …
    std::string label; // expected soft label / tag / finding id
    std::string kind;  // "bubble", "op", "step", "finding"
    std::int64_t step = -1;
    std::size_t kernelIndex = 0; // bubbles: index (in the step) of the kernel that ends the window
    Ns windowStart = 0, windowEnd = 0;
    std::string op; // op name for op-level anomalies
    std::string scope = "step_internal";
    int captureBoundary = -1; // written as "capture_boundary" (a bool) when >= 0
    // Extra ground truth, written after the fields above in this order.
    std::vector<std::pair<std::string, std::int64_t>> ints;
    std::vector<std::pair<std::string, double>> reals;
    std::vector<std::pair<std::string, std::string>> strings;
};

struct StepOut {
    std::int64_t number = 0;
    Ns markerStart = 0, markerDur = 0;
    std::vector<Kernel> kernels;
    std::vector<HostEvent> host;
};

// A collective the cluster delay planted: its step, its name and (--slow-cause compute) the op of the slow
// rank's extra kernel ("" for host).
struct DelayedCollective {
    std::int64_t step = 0;
    std::string name;
    std::string extraOp;
};

int run(const Options& o);
// One rank folder (run() for a single rank); `delayed` receives the collectives planted by the cluster delay.
int runRank(const Options& o, std::vector<DelayedCollective>* delayed = nullptr);
// The service (window length, ANALYSIS.md §2) of each step the options give, simulated without writing.
std::vector<Ns> stepServices(const Options& o);
// --ranks N: N rank folders, cluster_analysis_output/cluster_step_trace_time.csv, expected.json.
int runCluster(const Options& o);
// The cluster delay on one simulated step of rank o.rank (nothing when the step is not the planted one).
// Returns the index in s.kernels of the kernel it inserted (--slow-cause compute on the slow rank), else -1.
std::ptrdiff_t plantClusterDelay(StepOut& s, const Options& o, int stepIndex,
                                 std::vector<DelayedCollective>* delayed);
// --clock-skew-us: rank's clock offset in ns (0 when not listed), and a simulated step as that clock reads it
// (every absolute time moved by skew, durations unchanged).
Ns clockSkewNs(const Options& o, int rank);
void shiftClock(StepOut& s, Ns skew);

} // namespace synth
