// bubblescope-synth command line.
#include "synth.h"

#include <algorithm>
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
        "                         every rank, with communication.json per rank (Synchronization Time: what a\n"
        "                         rank waited for a late one, else 0) and\n"
        "                         cluster_analysis_output/cluster_step_trace_time.csv; --db writes each rank's\n"
        "                         database too\n"
        "  --slow-rank K --slow-ms X   rank K is X ms late at one step's first collective (see --slow-cause);\n"
        "                         the others wait X ms there (expected.json names the rank, step and collective)\n"
        "  --slow-step I|all      the step (0-based index) that is delayed (default: the second); all: every\n"
        "                         step\n"
        "  --slow-cause host|compute   why rank K is late (default host): host = it starts the step X ms late\n"
        "                         (its prelaunch grows); compute = its device computes X ms longer before the\n"
        "                         collective: one extra kernel of an AI_CORE op of the step (a MatMul, X ms long,\n"
        "                         >= 0.01) just before it, which moves the collective and all after it by X\n"
        "                         (expected.json: slow_cause with kind, lead, op, op_calls_delta, delta_ms)\n"
        "  --clock-skew-us R:US[,R:US...]  rank R's clock reads US us off (a decimal, up to 3 places, may be\n"
        "                         negative): every absolute time it writes moves by US (trace, kernel_details,\n"
        "                         communication.json, database), the schedule and every duration stay;\n"
        "                         expected.json: clock_skew_us per rank and clock_offsets_us (against rank 0)\n"
        "  --op-speedup NAME=F    every kernel named NAME lasts F times less (drawn as without it, so the same\n"
        "                         seed gives the same other timings); expected.json: op_speedup per step\n"
        "  --leave-out CAUSE      the matching after profile: CAUSE (sync, launch-lag, untraced, prelaunch,\n"
        "                         slow-rank) planted as asked is left out, the same seed gives the same other\n"
        "                         timings; without it, expected.json gives each planted cause's step service\n"
        "                         with and without it (step_service_ns, step_service_without_ns)\n"
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

// --clock-skew-us R:US[,R:US...]: US a decimal in µs with at most 3 places (ns), kept exact (integers only).
void parseClockSkew(synth::Options& o, const std::string& list) {
    const std::string what = "--clock-skew-us needs R:US[,R:US...] (rank, then a decimal in us with at most "
                             "3 places, e.g. 1:250,3:-12.5)";
    auto digits = [](const std::string& d) {
        return !d.empty() && std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    std::size_t pos = 0;
    while (true) {
        const std::size_t comma = list.find(',', pos);
        const std::string item = list.substr(pos, comma == std::string::npos ? comma : comma - pos);
        const std::size_t colon = item.find(':');
        if (colon == std::string::npos) throw std::invalid_argument(what + ": '" + item + "'");
        const std::string rank = item.substr(0, colon);
        std::string v = item.substr(colon + 1);
        bool neg = false;
        if (!v.empty() && (v[0] == '-' || v[0] == '+')) neg = v[0] == '-', v.erase(0, 1);
        const std::size_t dot = v.find('.');
        const std::string whole = v.substr(0, dot);
        std::string frac = dot == std::string::npos ? std::string() : v.substr(dot + 1);
        if (!digits(rank) || rank.size() > 4 || !digits(whole) || whole.size() > 12 ||
            (dot != std::string::npos && (!digits(frac) || frac.size() > 3)))
            throw std::invalid_argument(what + ": '" + item + "'");
        frac.resize(3, '0');
        const synth::Ns ns = std::stoll(whole) * 1000 + std::stoll(frac);
        const int r = std::stoi(rank);
        for (const auto& [q, _] : o.clockSkew)
            if (q == r) throw std::invalid_argument("--clock-skew-us names rank " + rank + " twice");
        o.clockSkew.emplace_back(r, neg ? -ns : ns);
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
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
            else if (a == "--slow-step") {
                const std::string v = val();
                if (v == "all")
                    o.slowStep = synth::Options::kAllSteps;
                else if (!v.empty() && v.size() < 10 &&
                         std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }))
                    o.slowStep = std::stoi(v);
                else
                    throw std::invalid_argument("--slow-step needs a step index >= 0 or all: " + v);
            } else if (a == "--slow-cause") {
                const std::string v = val();
                if (v != "host" && v != "compute")
                    throw std::invalid_argument("--slow-cause needs host or compute, not '" + v + "'");
                o.slowCompute = v == "compute";
                o.slowCauseGiven = true;
            } else if (a == "--clock-skew-us")
                parseClockSkew(o, val());
            else if (a == "--op-speedup") {
                const std::string v = val();
                const auto eq = v.rfind('=');
                if (eq == std::string::npos || eq == 0) throw std::invalid_argument("--op-speedup needs NAME=FACTOR");
                o.speedupOp = v.substr(0, eq);
                o.speedupFactor = std::stod(v.substr(eq + 1));
                if (!(o.speedupFactor > 0)) throw std::invalid_argument("--op-speedup needs a FACTOR > 0");
            } else if (a == "--leave-out") {
                o.leaveOut = val();
                if (o.leaveOut != "sync" && o.leaveOut != "launch-lag" && o.leaveOut != "untraced" &&
                    o.leaveOut != "prelaunch" && o.leaveOut != "slow-rank")
                    throw std::invalid_argument("--leave-out needs sync, launch-lag, untraced, prelaunch or "
                                                "slow-rank, not '" + o.leaveOut + "'");
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
        if (o.ranks > 1 && o.truncateAt > 0)
            throw std::invalid_argument("--ranks cannot be combined with --truncate");
        if (o.slowCauseGiven && o.slowRank < 0)
            throw std::invalid_argument("--slow-cause needs --slow-rank K");
        if (o.slowCompute && o.slowMs < 0.01)
            throw std::invalid_argument("--slow-cause compute needs --slow-ms X >= 0.01 (the extra kernel)");
        if (!o.clockSkew.empty()) {
            if (o.ranks < 2) throw std::invalid_argument("--clock-skew-us needs --ranks N (N >= 2)");
            for (const auto& [r, ns] : o.clockSkew)
                if (r >= o.ranks)
                    throw std::invalid_argument("--clock-skew-us: rank " + std::to_string(r) +
                                                " is not a rank of --ranks " + std::to_string(o.ranks) +
                                                " (0 .. " + std::to_string(o.ranks - 1) + ")");
        }
        if (!o.leaveOut.empty()) {
            const bool planted = o.leaving("sync")         ? o.syncBubble
                                 : o.leaving("launch-lag") ? o.hostLaunchLag
                                 : o.leaving("untraced")   ? o.untracedBubble
                                 : o.leaving("prelaunch")  ? o.firstPrelaunchUs > 0
                                                           : o.slowRank >= 0;
            if (!planted)
                throw std::invalid_argument("--leave-out " + o.leaveOut + " needs that cause planted (--anomalies " +
                                            "sync / launch-lag / untraced, --first-prelaunch US or --slow-rank K)");
            if (o.leaving("slow-rank")) o.slowRank = -1, o.slowCauseGiven = false, o.slowCompute = false;
        }
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
