// bubblescope-synth command line.
#include "synth.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace {

void usage() {
    std::fputs(
        "Usage: bubblescope-synth --out DIR [options]\n"
        "Writes DIR/<name>_ascend_pt/ (a torch_npu-style profiling folder) and DIR/expected.json.\n"
        "  --name NAME            folder name prefix (default synth)\n"
        "  --seed N               random seed (default 1); same seed → same bytes\n"
        "  --dense N --dfc N --gmm N   layers per pass: dense, MoE+DispatchFFNCombine, "
        "MoE+GroupedMatmul (3/4/1)\n"
        "  --prefill N --decode N      passes per step (2/4)\n"
        "  --steps N              profiler steps (3)\n"
        "  --first-step N         number of the first ProfilerStep (1)\n"
        "  --no-sampling          no ArgMax / rejection_* tail in the last layer\n"
        "  --anomalies LIST       all | none | comma list of: "
        "launch-lag,sync,untraced,comm-wait,aicpu-exposed,\n"
        "                         aicpu-masked,wait-anchor,variable-shapes,compile (default none)\n"
        "Cases outside --anomalies (each adds its ground truth to expected.json):\n"
        "  --decode-attention-us LO-HI  decode attention kernels last LO..HI us (default 80 us +-2 %)\n"
        "  --aicpu-layer N        an AICPU kernel (UniqueConsecutive) in layer N of every prefill pass\n"
        "  --first-prelaunch US   the first step starts with US us of host input copies (a prelaunch "
        "window)\n"
        "  --last-tail US         the last step ends with US us of host output copies (a tail window)\n"
        "  --dispatch-gap US      US us of host work before every attention kernel of each step's first "
        "decode pass\n"
        "  --tiny-waits           a us-long op after every TP all-reduce, waiting ~1.5 us beside it\n"
        "  --level0               write a Level0 (8-column) kernel_details.csv without stream, shapes "
        "or PMU\n"
        "  --truncate F           cut trace_view.json at fraction F of its size (0<F<1)\n"
        "  --trace-mb N           add steps until trace_view.json reaches ~N MB\n"
        "  --db                   also write the SQLite export of the same capture (export_type=db):\n"
        "                         ascend_pytorch_profiler_0.db and analysis.db beside the text files\n"
        "  --db-mb N              add steps until the database reaches ~N MB (implies --db)\n"
        "  --ranks N              N rank folders of one collection (NAME_rankR_ascend_pt), the same timings on\n"
        "                         every rank, with communication.json per rank and\n"
        "                         cluster_analysis_output/cluster_step_trace_time.csv\n"
        "  --slow-rank K --slow-ms X   rank K starts one step X ms late; the others wait X ms at that step's\n"
        "                         first collective (expected.json names the rank, step and collective)\n"
        "  --slow-step I          the step (0-based index) that is delayed (default: the second)\n"
        "  --op-speedup NAME=F    every kernel named NAME lasts F times less (drawn as without it, so the same\n"
        "                         seed gives the same other timings); expected.json: op_speedup per step\n"
        "  --quiet\n",
        stderr);
}

bool setAnomalies(synth::Options& o, const std::string& list) {
    const bool all = list == "all";
    if (list == "none") return true;
    auto has = [&](const char* k) {
        return all || ("," + list + ",").find(std::string(",") + k + ",") != std::string::npos;
    };
    o.hostLaunchLag = has("launch-lag");
    o.syncBubble = has("sync");
    o.untracedBubble = has("untraced");
    o.commWaitBubble = has("comm-wait");
    o.aicpuExposed = has("aicpu-exposed");
    o.aicpuMasked = has("aicpu-masked");
    o.waitAnchor = has("wait-anchor");
    o.variableShapes = has("variable-shapes");
    o.compileFirstStep = has("compile");
    return true;
}

} // namespace

int main(int argc, char** argv) {
    synth::Options o;
    bool haveOut = false;
    try {
        for (int i = 1; i < argc; ++i) {
            const std::string a = argv[i];
            auto val = [&]() -> std::string {
                if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
                return argv[++i];
            };
            auto num = [&]() { return std::stoi(val()); };
            if (a == "--out")
                o.outDir = val(), haveOut = true;
            else if (a == "--name")
                o.name = val();
            else if (a == "--seed")
                o.seed = std::stoull(val());
            else if (a == "--dense")
                o.denseLayers = num();
            else if (a == "--dfc")
                o.dfcLayers = num();
            else if (a == "--gmm")
                o.gmmLayers = num();
            else if (a == "--prefill")
                o.prefillPasses = num();
            else if (a == "--decode")
                o.decodePasses = num();
            else if (a == "--steps")
                o.steps = num();
            else if (a == "--first-step")
                o.firstStepNumber = num();
            else if (a == "--no-sampling")
                o.sampling = false;
            else if (a == "--anomalies")
                setAnomalies(o, val());
            else if (a == "--decode-attention-us") {
                const std::string v = val();
                const auto dash = v.find('-');
                o.decodeAttentionLoUs = std::stod(v.substr(0, dash));
                o.decodeAttentionHiUs =
                    dash == std::string::npos ? o.decodeAttentionLoUs : std::stod(v.substr(dash + 1));
                if (o.decodeAttentionLoUs <= 0 || o.decodeAttentionHiUs < o.decodeAttentionLoUs)
                    throw std::invalid_argument("--decode-attention-us needs LO-HI with 0 < LO <= HI");
            } else if (a == "--aicpu-layer")
                o.aicpuLayer = num();
            else if (a == "--first-prelaunch")
                o.firstPrelaunchUs = std::stod(val());
            else if (a == "--last-tail")
                o.lastTailUs = std::stod(val());
            else if (a == "--dispatch-gap")
                o.dispatchGapUs = std::stod(val());
            else if (a == "--tiny-waits")
                o.tinyWaits = true;
            else if (a == "--level0")
                o.level0 = true;
            else if (a == "--truncate")
                o.truncateAt = std::stod(val());
            else if (a == "--trace-mb")
                o.traceMb = std::stod(val());
            else if (a == "--db")
                o.db = true;
            else if (a == "--db-mb")
                o.dbMb = std::stod(val()), o.db = true;
            else if (a == "--ranks")
                o.ranks = std::stoi(val());
            else if (a == "--slow-rank")
                o.slowRank = std::stoi(val());
            else if (a == "--slow-ms")
                o.slowMs = std::stod(val());
            else if (a == "--slow-step")
                o.slowStep = std::stoi(val());
            else if (a == "--op-speedup") {
                const std::string v = val();
                const auto eq = v.rfind('=');
                if (eq == std::string::npos || eq == 0) throw std::invalid_argument("--op-speedup needs NAME=FACTOR");
                o.speedupOp = v.substr(0, eq);
                o.speedupFactor = std::stod(v.substr(eq + 1));
                if (!(o.speedupFactor > 0)) throw std::invalid_argument("--op-speedup needs a FACTOR > 0");
            } else if (a == "--quiet")
                o.quiet = true;
            else if (a == "-h" || a == "--help")
                return usage(), 0;
            else
                throw std::invalid_argument("unknown option " + a);
        }
        if (!haveOut) throw std::invalid_argument("--out is required");
        if (o.denseLayers + o.dfcLayers + o.gmmLayers <= 0 || o.prefillPasses + o.decodePasses <= 0 ||
            o.steps <= 0)
            throw std::invalid_argument("the model needs at least one layer, one pass and one step");
        if (o.ranks < 0 || o.ranks > 4096) throw std::invalid_argument("--ranks must be 1 .. 4096");
        if (o.slowRank >= 0 && (o.ranks < 2 || o.slowRank >= o.ranks || o.slowMs <= 0))
            throw std::invalid_argument("--slow-rank K needs --ranks N > K and --slow-ms X > 0");
        if (o.ranks > 1 && (o.db || o.truncateAt > 0))
            throw std::invalid_argument("--ranks writes text exports only (no --db, --truncate)");
        if (o.db && o.level0)
            throw std::invalid_argument("--db writes a Level1 export; it cannot be combined with --level0");
        if (o.aicpuLayer >= o.denseLayers + o.dfcLayers + o.gmmLayers)
            throw std::invalid_argument("--aicpu-layer must name a layer of the pass (0 .. layers - 1)");
        for (double v : {o.firstPrelaunchUs, o.lastTailUs, o.dispatchGapUs})
            if (v < 0 || (v > 0 && v < 20)) throw std::invalid_argument("gap options need at least 20 us");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bubblescope-synth: %s\n", e.what());
        usage();
        return 2;
    }
    try {
        return synth::run(o);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bubblescope-synth: %s\n", e.what());
        return 1;
    }
}
