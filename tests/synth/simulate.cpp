#include "simulate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace synth {

namespace {

constexpr Ns us(double v) {
    return static_cast<Ns>(v * 1000.0);
}

} // namespace

#define SYNTH_LIB "/usr/local/lib/python3.10/site-packages/"
#define SYNTH_USER "/workspace/llm_bench/"
// The outer frames every op of a step shares: the user's loop calling vLLM's worker.
#define SYNTH_WORKER                                                                                         \
    SYNTH_LIB "vllm_ascend/worker/model_runner.py(1432): execute_model\n" SYNTH_LIB                           \
              "vllm/worker/worker_base.py(612): execute_model\n" SYNTH_USER "run.py(88): main"
const CallStack kStackStep{SYNTH_LIB "torch_npu/profiler/profiler.py(244): step\n" SYNTH_USER "run.py(91): main",
                           SYNTH_USER "run.py(91): main", "run.py:91 main"};
// Every model op: the user's model code (forward) called through nn.Module.
const CallStack kStackOp{SYNTH_USER "model.py(214): forward\n" SYNTH_LIB
                                    "torch/nn/modules/module.py(1527): _call_impl\n" SYNTH_WORKER,
                         SYNTH_USER "model.py(214): forward", "model.py:214 forward"};
const CallStack kStackCompile{SYNTH_LIB "torchair/npu_fx_compiler.py(401): compile\n" SYNTH_USER
                                        "run.py(79): warmup\n" SYNTH_USER "run.py(88): main",
                              SYNTH_USER "run.py(79): warmup", "run.py:79 warmup"};
// host_launch_lag: the user's block-table bookkeeping (index_put_ straight from the user's line).
const CallStack kStackLaunchLag{SYNTH_USER "model.py(131): update_block_tables\n" SYNTH_LIB
                                           "vllm_ascend/worker/model_runner.py(1398): _prepare_inputs\n" SYNTH_WORKER,
                                SYNTH_USER "model.py(131): update_block_tables", "model.py:131 update_block_tables"};
// sync_bubble: a stop check reads a device value (.item()), then copies through torch's device hook.
const CallStack kStackSyncItem{SYNTH_USER "sampler.py(77): check_stop\n" SYNTH_WORKER,
                               SYNTH_USER "sampler.py(77): check_stop", "sampler.py:77 check_stop"};
const CallStack kStackSyncCopy{SYNTH_LIB "torch/utils/_device.py(77): __torch_function__\n" SYNTH_USER
                                         "sampler.py(81): check_stop\n" SYNTH_WORKER,
                               SYNTH_USER "sampler.py(81): check_stop", "sampler.py:81 check_stop"};
// comm_wait_bubble: the user's expert-load all-reduce through torch.distributed.
const CallStack kStackCommWait{SYNTH_LIB "torch/distributed/distributed_c10d.py(2050): all_reduce\n" SYNTH_USER
                                         "model.py(260): sync_expert_load\n" SYNTH_WORKER,
                               SYNTH_USER "model.py(260): sync_expert_load", "model.py:260 sync_expert_load"};
// --first-prelaunch / --last-tail: the user's input and output copies.
const CallStack kStackPrelaunch{SYNTH_USER "run.py(64): load_inputs\n" SYNTH_USER "run.py(88): main",
                                SYNTH_USER "run.py(64): load_inputs", "run.py:64 load_inputs"};
const CallStack kStackTail{SYNTH_USER "run.py(97): collect_outputs\n" SYNTH_USER "run.py(88): main",
                           SYNTH_USER "run.py(97): collect_outputs", "run.py:97 collect_outputs"};
// --dispatch-gap: attention metadata built by the user's attention module before each attention kernel.
const CallStack kStackDispatch{SYNTH_USER "attention.py(301): build_metadata\n" SYNTH_LIB
                                          "torch/nn/modules/module.py(1527): _call_impl\n" SYNTH_USER
                                          "model.py(214): forward\n" SYNTH_LIB
                                          "torch/nn/modules/module.py(1527): _call_impl\n" SYNTH_WORKER,
                               SYNTH_USER "attention.py(301): build_metadata", "attention.py:301 build_metadata"};
#undef SYNTH_WORKER
#undef SYNTH_USER
#undef SYNTH_LIB

struct Simulator::OpDef {
    const char* name;
    const char* opType;
    const char* core;
    double prefillUs, decodeUs;
    int stream;
    const char* host;  // Python op that launches it
    const char* shape; // "{t}" = tokens
};

// Attention block, common to every layer.
static const Simulator::OpDef kRmsNorm{"aclnnRmsNorm_RmsNorm_RmsNorm",
                                       "RmsNorm",
                                       "AI_VECTOR_CORE",
                                       60,
                                       6,
                                       Simulator::kMain,
                                       "npu::npu_rms_norm",
                                       "{t},7168;7168"};
static const Simulator::OpDef kQkv{"aclnnMatmul_MatMulV3_MatMulV3",
                                   "MatMulV3",
                                   "AI_CORE",
                                   900,
                                   25,
                                   Simulator::kMain,
                                   "aten::mm",
                                   "{t},7168;7168,2112"};
static const Simulator::OpDef kRope{"aclnnApplyRotaryPosEmb_ApplyRotaryPosEmb_ApplyRotaryPosEmb",
                                    "ApplyRotaryPosEmb",
                                    "AI_VECTOR_CORE",
                                    80,
                                    5,
                                    Simulator::kMain,
                                    "npu::npu_apply_rotary_pos_emb",
                                    "{t},128,64;{t},1,64"};
static const Simulator::OpDef kFiaPrefill{
    "aclnnFusedInferAttentionScore_FusedInferAttentionScore_FusedInferAttentionScore",
    "FusedInferAttentionScore",
    "MIX_AIC",
    12000,
    80,
    Simulator::kMain,
    "npu::npu_fused_infer_attention_score",
    "1,{t},128,192;1,{t},128,192"};
static const Simulator::OpDef kOproj{
    "aclnnMatmul_MatMulV3_MatMulV3", "MatMulV3", "AI_CORE", 600, 18, Simulator::kMain, "aten::mm",
    "{t},16384;16384,7168"};
static const Simulator::OpDef kTpAllReduce{"hcom_allReduce_", "hcom_allReduce_",  "HCCL",    700, 30,
                                           Simulator::kTp,    "c10d::allreduce_", "{t},7168"};
static const Simulator::OpDef kBiasAdd{"aclnnInplaceAdd_AddAiCore_Add",
                                       "Add",
                                       "AI_VECTOR_CORE",
                                       50,
                                       6,
                                       Simulator::kMain,
                                       "aten::add_",
                                       "{t},7168;{t},7168"};
static const Simulator::OpDef kAddRmsNorm{"aclnnAddRmsNorm_AddRmsNorm_AddRmsNorm",
                                          "AddRmsNorm",
                                          "AI_VECTOR_CORE",
                                          70,
                                          8,
                                          Simulator::kMain,
                                          "npu::npu_add_rms_norm",
                                          "{t},7168;{t},7168;7168"};
// Dense FFN.
static const Simulator::OpDef kGateUp{"aclnnMatmul_MatMulV3_MatMulV3",
                                      "MatMulV3",
                                      "AI_CORE",
                                      1500,
                                      40,
                                      Simulator::kMain,
                                      "aten::mm",
                                      "{t},7168;7168,36864"};
static const Simulator::OpDef kSwiGlu{
    "aclnnSwiGlu_SwiGlu_SwiGlu", "SwiGlu",   "AI_VECTOR_CORE", 200, 8, Simulator::kMain,
    "npu::npu_swiglu",           "{t},36864"};
static const Simulator::OpDef kDown{
    "aclnnMatmul_MatMulV3_MatMulV3", "MatMulV3", "AI_CORE", 800, 25, Simulator::kMain, "aten::mm",
    "{t},18432;18432,7168"};
// MoE.
static const Simulator::OpDef kGating{"aclnnMoeGatingTopK_MoeGatingTopK_MoeGatingTopK",
                                      "MoeGatingTopK",
                                      "AI_VECTOR_CORE",
                                      60,
                                      12,
                                      Simulator::kMain,
                                      "npu::npu_moe_gating_top_k",
                                      "{t},256"};
static const Simulator::OpDef kDfc{"aclnnDispatchFFNCombine_DispatchFFNCombine_DispatchFFNCombine",
                                   "DispatchFFNCombine",
                                   "MIX_AIC",
                                   4000,
                                   180,
                                   Simulator::kMain,
                                   "npu::npu_dispatch_ffn_combine",
                                   "{t},7168;{t},8"};
static const Simulator::OpDef kInitRouting{"aclnnMoeInitRoutingV2_MoeInitRoutingV2_MoeInitRoutingV2",
                                           "MoeInitRoutingV2",
                                           "AI_VECTOR_CORE",
                                           150,
                                           15,
                                           Simulator::kMain,
                                           "npu::npu_moe_init_routing_v2",
                                           "{t},7168;{t},8"};
static const Simulator::OpDef kAllToAll{"hcom_alltoallv_", "hcom_alltoallv_",      "HCCL",    900, 60,
                                        Simulator::kEp,    "c10d::alltoall_base_", "{t},7168"};
static const Simulator::OpDef kGmm{"aclnnGroupedMatmulV4_GroupedMatmul_GroupedMatmul",
                                   "GroupedMatmul",
                                   "MIX_AIC",
                                   1200,
                                   45,
                                   Simulator::kMain,
                                   "npu::npu_grouped_matmul",
                                   "{t},7168;16,7168,4096"};
static const Simulator::OpDef kGmmSwiGlu{
    "aclnnSwiGlu_SwiGlu_SwiGlu", "SwiGlu",  "AI_VECTOR_CORE", 100, 6, Simulator::kMain,
    "npu::npu_swiglu",           "{t},4096"};
static const Simulator::OpDef kFinalize{"aclnnMoeFinalizeRouting_MoeFinalizeRouting_MoeFinalizeRouting",
                                        "MoeFinalizeRouting",
                                        "AI_VECTOR_CORE",
                                        120,
                                        12,
                                        Simulator::kMain,
                                        "npu::npu_moe_finalize_routing",
                                        "{t},7168"};
// Sampling tail.
static const Simulator::OpDef kArgMax{"aclnnArgMax_ArgMaxV2_ArgMaxV2",
                                      "ArgMaxV2",
                                      "AI_VECTOR_CORE",
                                      40,
                                      12,
                                      Simulator::kMain,
                                      "aten::argmax",
                                      "{t},129280"};
static const Simulator::OpDef kRejection{"rejection_greedy_sample_kernel",
                                         "rejection_greedy_sample",
                                         "AI_VECTOR_CORE",
                                         30,
                                         10,
                                         Simulator::kMain,
                                         "npu::rejection_greedy_sample",
                                         "{t}"};
// Planted op-level anomalies.
static const Simulator::OpDef kNonZero{"NonZero", "NonZero",        "AI_CPU",        150,
                                       150,       Simulator::kMain, "aten::nonzero", "{t},8"};
static const Simulator::OpDef kTopKCpu{"TopKV2", "TopKV2",         "AI_CPU",     100,
                                       100,      Simulator::kSide, "aten::topk", "{t},256"};
static const Simulator::OpDef kBroadcast{"hcom_broadcast_", "hcom_broadcast_",  "HCCL", 2000, 2000,
                                         Simulator::kTp,    "c10d::broadcast_", "16"};
static const Simulator::OpDef kCast{
    "aclnnCast_Cast_Cast", "Cast", "AI_VECTOR_CORE", 3, 3, Simulator::kMain, "aten::to", "16"};
// --aicpu-layer: an AICPU op inside one layer of every prefill pass.
static const Simulator::OpDef kUniqueCpu{"UniqueConsecutive", "UniqueConsecutive",        "AI_CPU", 300, 300,
                                         Simulator::kMain,    "aten::unique_consecutive", "{t}"};
// --tiny-waits: a µs op right after a TP all-reduce, started ~1.5 µs after the previous main-stream kernel.
static const Simulator::OpDef kSlice{"aclnnSlice_SliceAiCore_Slice",
                                     "Slice",
                                     "AI_VECTOR_CORE",
                                     4,
                                     4,
                                     Simulator::kMain,
                                     "aten::slice",
                                     "{t},7168"};
// Compile phase of a polluted first step.
static const Simulator::OpDef kCompileTransData{"aclnnTransData_TransData_TransData",
                                                "TransData",
                                                "AI_VECTOR_CORE",
                                                10000,
                                                10000,
                                                Simulator::kMain,
                                                "npu::npu_format_cast",
                                                "7168,7168"};

Simulator::Simulator(const Options& o) : o_(o), rng_(o.seed) {
    for (int i = 0; i < o.denseLayers; ++i)
        shape_.layers.push_back(LayerType::Dense);
    for (int i = 0; i < o.dfcLayers; ++i)
        shape_.layers.push_back(LayerType::MoeDfc);
    for (int i = 0; i < o.gmmLayers; ++i)
        shape_.layers.push_back(LayerType::MoeGmm);
    shape_.prefillPasses = o.prefillPasses;
    shape_.decodePasses = o.decodePasses;
}

// The user line behind a planted window, as expected.json names it: the frame as the stack writes it
// and as BubbleScope labels it ("file:line function").
void Simulator::namePlantedLine(Planted& p, const CallStack& stack) {
    p.strings.emplace_back("user_frame", stack.userFrame);
    p.strings.emplace_back("user_line", stack.userLine);
}

Ns Simulator::jitter(Ns base) {
    // ±2 %, deterministic for a seed.
    const double u = static_cast<double>(rng_() >> 11) / static_cast<double>(1ULL << 53);
    return std::max<Ns>(1000, static_cast<Ns>(static_cast<double>(base) * (0.98 + 0.04 * u)));
}

Ns Simulator::deviceIdleAt() const {
    Ns t = 0;
    for (Ns f : devFree_)
        t = std::max(t, f);
    return t;
}

void Simulator::hostEvent(StepOut& out, std::string name, Lane lane, Ns ts, Ns dur, const char* cat,
                          const CallStack* stack, std::string dims, std::uint64_t flow) {
    HostEvent e;
    e.name = std::move(name);
    e.lane = lane;
    e.ts = ts;
    e.dur = dur;
    e.cat = cat;
    e.stack = stack;
    e.inputDims = std::move(dims);
    e.flowOut = flow;
    out.host.push_back(std::move(e));
}

void Simulator::launch(StepOut& out, const OpDef& op, bool prefill, int tokens, int /*layerIndex*/) {
    Kernel k;
    const bool comm = op.stream == kTp || op.stream == kEp;
    k.name = op.name;
    if (comm) k.name = fmt::format("{}_{}_{}_1", op.name, ++commSeq_, op.stream == kTp ? 0 : 1);
    k.opType = op.opType;
    k.core = op.core;
    k.traceTaskType = comm ? "HCCL" : (std::string_view(op.core) == "AI_CPU" ? "AI_CPU" : op.core);
    k.stream = op.stream;
    k.isComm = comm;
    k.isAicpu = std::string_view(op.core) == "AI_CPU";
    if (&op == &kFiaPrefill && !prefill && o_.decodeAttentionHiUs > 0) {
        // --decode-attention-us LO-HI: uniform in the range (one draw, as jitter makes).
        const double u = static_cast<double>(rng_() >> 11) / static_cast<double>(1ULL << 53);
        k.dur = us(o_.decodeAttentionLoUs + u * (o_.decodeAttentionHiUs - o_.decodeAttentionLoUs));
    } else {
        k.dur = jitter(us(prefill ? op.prefillUs : op.decodeUs));
    }
    if (!o_.speedupOp.empty() && k.name == o_.speedupOp) {
        // --op-speedup: after the draw, so every other duration stays what the same seed gives without it.
        Speedup& t = speedup_[stepNumber_];
        ++t.calls;
        t.before += k.dur;
        k.dur = std::max<Ns>(1, static_cast<Ns>(std::llround(static_cast<double>(k.dur) / o_.speedupFactor)));
        t.after += k.dur;
    }
    std::string shape = fmt::format(fmt::runtime(op.shape), fmt::arg("t", tokens));
    k.inShapes = shape;
    k.outShapes = fmt::format("{},7168", tokens);
    k.taskId = ++taskId_;
    k.flowId = ++flowId_;
    k.blockDim = comm ? 0 : (prefill ? 24 : 8);

    // Host side: Python op, ACL call and the runtime launch on the CANN lane.
    const Ns h = std::min<Ns>(us(8), std::max<Ns>(us(1.5), k.dur * 3 / 10));
    const Ns t0 = tHost_;
    hostEvent(out, op.host, Lane::Python, t0, h, "cpu_op", &kStackOp, shape, k.flowId);
    hostEvent(out, fmt::format("AscendCL@aclnn{}", op.opType), Lane::Cann, t0 + h / 5, h * 3 / 5, "");
    hostEvent(out, "Node@launch", Lane::Cann, t0 + h * 4 / 5, h / 10 + 200, "", nullptr, {}, k.flowId);
    const Ns launched = t0 + h;

    Ns start = std::max(devFree_[op.stream] + us(1.2), launched + us(5));
    if (!comm && !prevWasComm_)
        start = std::max(start, lastCommEnd_);          // depends on the last collective's result
    if (comm) start = std::max(start, devFree_[kMain]); // sends what the main stream produced
    k.start = start;
    k.wait = lastEnd_[op.stream] > 0 ? std::max<Ns>(0, start - lastEnd_[op.stream]) : 0;
    devFree_[op.stream] = start + k.dur;
    lastEnd_[op.stream] = start + k.dur;
    if (comm) lastCommEnd_ = std::max(lastCommEnd_, start + k.dur);
    prevWasComm_ = comm;
    tHost_ = launched + us(1);
    // The runtime's task queue bounds how far the host runs ahead (it blocks inside the enqueue).
    tHost_ = std::max(tHost_, start - us(150));
    out.kernels.push_back(std::move(k));
}

void Simulator::launchTinyWait(StepOut& out, bool prefill, int tokens) {
    // The collective just launched runs on its stream; this op starts 1.5 µs after the main stream's last
    // kernel (and after the collective started), so its short wait span lies beside the collective.
    const Kernel comm = out.kernels.back(); // a copy: launch() below may reallocate out.kernels
    const Ns lastMain = devFree_[kMain];
    launch(out, kSlice, prefill, tokens, -1);
    Kernel& k = out.kernels.back();
    const Ns start = std::max({lastMain + us(1.5), comm.start + us(0.5), k.start - us(5) + us(1)});
    k.start = start;
    k.wait = lastEnd_[kMain] > 0 ? std::max<Ns>(0, start - lastMain) : 0;
    devFree_[kMain] = lastEnd_[kMain] = start + k.dur;
    ++tiny_.calls;
    tiny_.waitSum += k.wait;
    tiny_.waitMax = std::max(tiny_.waitMax, k.wait);
    if (start - k.wait < comm.start + comm.dur && start > comm.start) ++tiny_.overlapping;
}

std::vector<Planted> Simulator::summaryTruth(int steps) const {
    std::vector<Planted> v;
    if (o_.tinyWaits && tiny_.calls > 0) {
        Planted p;
        p.type = "tiny_wait_near_comm";
        p.kind = "op";
        p.label = "none";
        p.op = kSlice.name;
        p.strings.emplace_back("not_expected_label", "WAIT_POLLUTION_RISK");
        p.ints.emplace_back("calls", tiny_.calls);
        p.ints.emplace_back("calls_wait_overlapping_comm", tiny_.overlapping);
        p.reals.emplace_back("wait_avg_us",
                             static_cast<double>(tiny_.waitSum) / 1000.0 / static_cast<double>(tiny_.calls));
        p.reals.emplace_back("wait_max_us", static_cast<double>(tiny_.waitMax) / 1000.0);
        v.push_back(std::move(p));
    }
    if (o_.aicpuLayer >= 0 && aicpuLayerKernels_ > 0) {
        Planted p;
        p.type = "aicpu_in_layer";
        p.kind = "layer";
        p.label = "AICPU_EXPOSED_NOT_ALLOWED";
        p.op = kUniqueCpu.name;
        const auto n = static_cast<std::size_t>(o_.aicpuLayer);
        const std::size_t last = shape_.layers.size() - 1;
        const LayerType t = shape_.layers[n];
        // Layer types as the model section of expected.json names them: the last layer carries the sampling
        // tail.
        std::int64_t sameType = 0;
        for (std::size_t i = 0; i < shape_.layers.size(); ++i)
            sameType += shape_.layers[i] == t && (!o_.sampling || (i == last) == (n == last));
        const char* base = t == LayerType::Dense ? "Dense" : t == LayerType::MoeDfc ? "MoE+DFC" : "MoE+GMM";
        p.ints.emplace_back("layer", o_.aicpuLayer);
        p.strings.emplace_back("layer_type",
                               std::string(base) + (o_.sampling && n == last ? " with sampling" : ""));
        p.strings.emplace_back("phase", "prefill");
        p.ints.emplace_back("layers_with_it", aicpuLayerKernels_);
        p.ints.emplace_back("layers_of_its_type", sameType * (shape_.prefillPasses + shape_.decodePasses) *
                                                      static_cast<std::int64_t>(steps));
        v.push_back(std::move(p));
    }
    // --op-speedup: per step, the op's calls and its total duration as drawn and as written.
    for (const auto& [step, t] : speedup_) {
        Planted p;
        p.type = "op_speedup";
        p.kind = "op_change";
        p.label = "none";
        p.op = o_.speedupOp;
        p.ints.emplace_back("step", step);
        p.ints.emplace_back("calls", t.calls);
        p.ints.emplace_back("dur_total_without_ns", t.before);
        p.ints.emplace_back("dur_total_ns", t.after);
        p.reals.emplace_back("factor", o_.speedupFactor);
        v.push_back(std::move(p));
    }
    return v;
}

StepOut Simulator::simulateStep(int index, Ns start) {
    StepOut out;
    stepIndex_ = index;
    out.number = o_.firstStepNumber + index;
    stepNumber_ = out.number;
    out.markerStart = start;
    tHost_ = start + us(5);
    for (auto& f : devFree_)
        f = std::max(f, start);
    const int step1 = o_.steps > 1 ? 1 : 0;
    const bool lastStep = o_.traceMb <= 0 && index == o_.steps - 1;

    if (o_.firstPrelaunchUs > 0 && index == 0 && !o_.leaving("prelaunch")) {
        // Input preparation before the first launch: host-to-device copies (sync markers). A Python frame
        // that opened before the step marker keeps the host trace's start before the marker: an ordinary
        // window, not a capture-boundary one (ANALYSIS.md §6).
        const Ns d = us(o_.firstPrelaunchUs);
        hostEvent(out, "/workspace/llm_bench/run.py(64): load_inputs", Lane::Python,
                  start - us(20), us(20) + us(5) + d, "python_function");
        hostEvent(out, "aten::to", Lane::Python, tHost_, d, "cpu_op", &kStackPrelaunch);
        hostEvent(out, "aten::_to_copy", Lane::Python, tHost_ + us(2), d - us(4), "cpu_op");
        hostEvent(out, "aten::copy_", Lane::Python, tHost_ + us(4), d - us(8), "cpu_op");
        hostEvent(out, "aclrtMemcpy", Lane::Cann, tHost_ + us(6), d - us(12), "");
        tHost_ += d;
        Planted p;
        p.type = "first_step_prelaunch";
        p.label = "possible_sync_or_h2d";
        p.kind = "bubble";
        p.scope = "prelaunch";
        p.captureBoundary = 0;
        p.step = out.number;
        p.windowStart = start; // the window ends at the first kernel (set below)
        namePlantedLine(p, kStackPrelaunch);
        planted_.push_back(p);
    }

    // `line`: the call stack of the host work planted in the window (nullptr when none is traced).
    auto plantBubble = [&](const char* type, const char* label, const CallStack* line, auto&& hostSide) {
        Planted p;
        p.type = type;
        p.label = label;
        p.kind = "bubble";
        p.step = out.number;
        if (line) namePlantedLine(p, *line);
        hostSide();
        p.kernelIndex = out.kernels.size(); // the window ends where this kernel starts
        planted_.push_back(p);
    };

    if (o_.compileFirstStep && index == 0) {
        // Graph build / JIT inside the capture: long host compile, many format-conversion kernels.
        const Ns compileStart = tHost_;
        for (int i = 0; i < 330; ++i)
            launch(out, kCompileTransData, true, 7168, -1);
        tHost_ = std::max(tHost_, deviceIdleAt() - us(100));
        hostEvent(out, "torchair::compile", Lane::Python, compileStart, tHost_ - compileStart,
                  "python_function", &kStackCompile);
    }

    if (index == step1) {
        auto plantOp = [&](const char* type, const char* label, const char* op) {
            Planted p;
            p.type = type;
            p.label = label;
            p.kind = "op";
            p.op = op;
            p.step = -1; // every step
            planted_.push_back(p);
        };
        if (o_.aicpuExposed) plantOp("aicpu_exposed", "AICPU_EXPOSED_NOT_ALLOWED", kNonZero.name);
        if (o_.aicpuMasked) plantOp("aicpu_masked", "AICPU_MASKED_BUT_UNDESIRABLE", kTopKCpu.name);
        if (o_.waitAnchor) {
            plantOp("wait_anchor", "WAIT_ANCHOR_FALSE_HOTSPOT", kCast.name);
            plantOp("wait_pollution", "WAIT_POLLUTION_RISK", kCast.name);
        }
    }
    const int passes = o_.prefillPasses + o_.decodePasses;
    for (int pass = 0; pass < passes; ++pass) {
        const bool prefill = pass < o_.prefillPasses;
        const int decodeIndex = pass - o_.prefillPasses;
        int tokens = prefill ? 2048 : 16;
        if (o_.variableShapes && prefill && index == 2) tokens = 1024;
        const int nLayers = static_cast<int>(shape_.layers.size());
        for (int li = 0; li < nLayers; ++li) {
            const LayerType type = shape_.layers[static_cast<std::size_t>(li)];
            const bool isStep1 = index == step1;
            // --- planted bubbles (host side), all in step 1 ---
            if (isStep1 && !prefill && o_.hostLaunchLag && decodeIndex == 0 && li == 1 && !o_.leaving("launch-lag")) {
                plantBubble("host_launch_lag", "possible_host_launch_lag", &kStackLaunchLag, [&] {
                    // Python-side work (index bookkeeping) keeps the host busy: the device drains and idles.
                    for (int k = 0; k < 8; ++k) {
                        hostEvent(out, "aten::index_put_", Lane::Python, tHost_, us(95), "cpu_op",
                                  &kStackLaunchLag);
                        hostEvent(out, "python_function: scheduler.update", Lane::Python, tHost_ + us(95),
                                  us(5), "python_function");
                        tHost_ += us(100);
                    }
                });
            }
            if (isStep1 && !prefill && o_.syncBubble && decodeIndex == 1 && li == 0 && !o_.leaving("sync")) {
                plantBubble("sync_bubble", "possible_sync_or_h2d", &kStackSyncCopy, [&] {
                    const Ns drained = std::max(tHost_ + us(5), deviceIdleAt());
                    hostEvent(out, "aten::item", Lane::Python, tHost_, drained - tHost_ + us(10), "cpu_op",
                              &kStackSyncItem);
                    hostEvent(out, "aclrtSynchronizeStream", Lane::Cann, tHost_ + us(2), drained - tHost_,
                              "");
                    tHost_ = drained + us(10);
                    hostEvent(out, "aten::to", Lane::Python, tHost_, us(600), "cpu_op", &kStackSyncCopy);
                    hostEvent(out, "aten::_to_copy", Lane::Python, tHost_ + us(5), us(590), "cpu_op");
                    hostEvent(out, "aten::copy_", Lane::Python, tHost_ + us(10), us(580), "cpu_op");
                    hostEvent(out, "aclrtMemcpyAsync", Lane::Cann, tHost_ + us(20), us(560), "");
                    tHost_ += us(600);
                });
            }
            if (isStep1 && !prefill && o_.commWaitBubble && decodeIndex == 3 && li == 0) {
                plantBubble("comm_wait_bubble", "possible_comm_wait", &kStackCommWait, [&] {
                    // A blocking collective on the host waits for the peers before anything is launched.
                    const Ns drained = std::max(tHost_, deviceIdleAt());
                    hostEvent(out, "c10d::allreduce_", Lane::Python, tHost_, drained - tHost_ + us(700),
                              "cpu_op", &kStackCommWait);
                    hostEvent(out, "HcclAllReduce", Lane::Cann, tHost_ + us(3), drained - tHost_ + us(690),
                              "");
                    tHost_ = drained + us(700);
                });
            }
            std::vector<const OpDef*> ops = {&kRmsNorm, &kQkv,         &kRope,    &kFiaPrefill,
                                             &kOproj,   &kTpAllReduce, &kBiasAdd, &kAddRmsNorm};
            switch (type) {
            case LayerType::Dense:
                ops.insert(ops.end(), {&kGateUp, &kSwiGlu, &kDown, &kTpAllReduce, &kBiasAdd});
                break;
            case LayerType::MoeDfc:
                ops.insert(ops.end(), {&kGating, &kDfc, &kAddRmsNorm});
                break;
            case LayerType::MoeGmm:
                ops.insert(ops.end(), {&kGating, &kInitRouting, &kAllToAll, &kGmm, &kGmmSwiGlu, &kGmm,
                                       &kAllToAll, &kFinalize});
                break;
            }
            if (li == nLayers - 1 && o_.sampling) ops.insert(ops.end(), {&kArgMax, &kRejection});
            for (std::size_t oi = 0; oi < ops.size(); ++oi) {
                const OpDef& op = *ops[oi];
                if (isStep1 && !prefill && o_.untracedBubble && decodeIndex == 2 && li == 2 && oi == 2 &&
                    !o_.leaving("untraced")) {
                    plantBubble("untraced_bubble", "possible_untraced_host_blocking", nullptr, [&] {
                        // The launching thread stalls with nothing traced (e.g. blocked on a lock).
                        tHost_ = std::max(tHost_, deviceIdleAt()) + us(1000);
                    });
                }
                // --dispatch-gap: the host works (traced) before each attention kernel of the first decode
                // pass.
                if (o_.dispatchGapUs > 0 && !prefill && decodeIndex == 0 && &op == &kFiaPrefill) {
                    plantBubble("layer_dispatch_gap", "possible_host_launch_lag", &kStackDispatch, [&] {
                        const Ns drained = std::max(tHost_, deviceIdleAt());
                        const Ns d = us(o_.dispatchGapUs);
                        hostEvent(out, "/workspace/llm_bench/attention.py(301): build_metadata",
                                  Lane::Python, tHost_, drained - tHost_ + d, "python_function");
                        hostEvent(out, "aten::index_select", Lane::Python, drained, d - us(2), "cpu_op",
                                  &kStackDispatch);
                        tHost_ = drained + d;
                    });
                }
                if (o_.aicpuLayer == li && prefill && &op == &kOproj) {
                    launch(out, op, prefill, tokens, li);
                    launch(out, kUniqueCpu, prefill, tokens, li);
                    ++aicpuLayerKernels_;
                    continue;
                }
                // Masked AICPU: on a side stream, entirely under the first prefill QKV projection.
                if (o_.aicpuMasked && prefill && pass == 0 && li == 0 && &op == &kQkv) {
                    launch(out, op, prefill, tokens, li);
                    launch(out, kTopKCpu, prefill, tokens, li);
                    continue;
                }
                launch(out, op, prefill, tokens, li);
                if (o_.tinyWaits && &op == &kTpAllReduce) launchTinyWait(out, prefill, tokens);
                // Exposed AICPU: alone on the main stream after the router of the first decode pass.
                if (o_.aicpuExposed && !prefill && decodeIndex == 0 && li == o_.denseLayers &&
                    &op == &kGating)
                    launch(out, kNonZero, prefill, tokens, li);
            }
            // Wait anchor: a µs Cast after a ms broadcast, in the second decode pass's last layer.
            if (o_.waitAnchor && !prefill && decodeIndex == 1 && li == nLayers - 1) {
                launch(out, kBroadcast, prefill, tokens, li);
                prevWasComm_ = false; // the Cast consumes the broadcast result
                launch(out, kCast, prefill, tokens, li);
            }
        }
    }
    // End of step: the host synchronises with the device, then the profiler steps.
    const Ns drained = std::max(tHost_, deviceIdleAt());
    hostEvent(out, "aclrtSynchronizeDevice", Lane::Cann, tHost_, drained - tHost_ + us(2), "");
    Ns stepEnd = drained + us(10);
    if (o_.lastTailUs > 0 && lastStep) {
        // The sampled tokens go back to the host (device-to-host copies) after the device's last kernel. A
        // Python frame still open after the step keeps the host trace's end after the step: an ordinary
        // window.
        const Ns d = us(o_.lastTailUs), t = drained + us(3);
        hostEvent(out, "aten::to", Lane::Python, t, d, "cpu_op", &kStackTail);
        hostEvent(out, "aten::_to_copy", Lane::Python, t + us(2), d - us(4), "cpu_op");
        hostEvent(out, "aten::copy_", Lane::Python, t + us(4), d - us(8), "cpu_op");
        hostEvent(out, "aclrtMemcpy", Lane::Cann, t + us(6), d - us(12), "");
        stepEnd = t + d + us(10);
        hostEvent(out, "/workspace/llm_bench/run.py(97): collect_outputs", Lane::Python,
                  stepEnd - us(5), us(40), "python_function");
        Planted p;
        p.type = "last_step_tail";
        p.label = "possible_sync_or_h2d";
        p.kind = "bubble";
        p.scope = "tail";
        p.captureBoundary = 0;
        p.step = out.number;
        p.windowStart = deviceIdleAt();
        p.windowEnd = stepEnd;
        namePlantedLine(p, kStackTail);
        planted_.push_back(p);
    }
    for (auto& p : planted_)
        if (p.type == "first_step_prelaunch" && p.step == out.number && p.windowEnd == 0) {
            Ns first = out.kernels.front().start;
            for (const auto& k : out.kernels)
                first = std::min(first, k.start);
            p.windowEnd = first;
        }
    out.markerDur = stepEnd - start;
    tHost_ = stepEnd;
    return out;
}

} // namespace synth
