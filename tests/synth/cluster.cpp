// --ranks N: several ranks of one collection with a planted slow rank (or none), the profiler's
// cluster_step_trace_time.csv and the ground truth.
#include "synth.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>

namespace fs = std::filesystem;

namespace synth {

namespace {

constexpr Ns us(double v) {
    return static_cast<Ns>(v * 1000.0);
}

bool isPlantedStep(const Options& o, int stepIndex) {
    if (o.slowStep == Options::kAllSteps) return true;
    if (o.slowStep >= 0) return stepIndex == o.slowStep;
    return stepIndex == (o.steps >= 2 ? 1 : 0);
}

// A skew in µs as expected.json writes it: an integer when whole, else the decimal (ns precision).
nlohmann::ordered_json usJson(Ns ns) {
    if (ns % 1000 == 0) return nlohmann::ordered_json(ns / 1000);
    return nlohmann::ordered_json(static_cast<double>(ns) / 1000.0);
}

// The slow rank computes x longer before collective `first` (--slow-cause compute): one extra kernel of the
// op `tmpl` (an AI_CORE op of the step), x long, on the stream of the kernel launched just before the
// collective, from the collective's start; the collective and everything after it move by x. Its host launch
// (Python op, ACL call, runtime launch and their flows, as the simulator writes every launch) goes just
// before the collective's; the host events from there to the collective's device start move by that launch,
// those after it by x (the host blocks in the task queue as long as the device is held up).
void plantExtraCompute(StepOut& s, std::size_t firstIdx, std::size_t prevIdx, const Kernel& tmpl, Ns x) {
    const Ns t = s.kernels[firstIdx].start;
    const std::uint64_t collFlow = s.kernels[firstIdx].flowId;
    Kernel k = tmpl;
    k.stream = s.kernels[prevIdx].stream;
    k.start = t;
    k.dur = x;
    // Ids outside the simulator's sequences (taskId from 1000, flowId from 5000, one a kernel): every other
    // kernel keeps the ids it has on the other ranks.
    k.taskId = 2000000000ULL + static_cast<std::uint64_t>(s.number);
    k.flowId = 2000000000ULL + static_cast<std::uint64_t>(s.number);
    // The host launch: the op the template kernel was launched by, its Python lane event copied.
    const auto hostOf = [&](std::uint64_t flow) {
        return std::find_if(s.host.begin(), s.host.end(),
                            [&](const HostEvent& h) { return h.flowOut == flow && h.lane != Lane::Cann; });
    };
    const auto tmplHost = hostOf(tmpl.flowId);
    const auto collHost = hostOf(collFlow);
    if (tmplHost == s.host.end() || collHost == s.host.end())
        throw std::runtime_error("--slow-cause compute: no host launch for the planted kernel");
    const Ns h = std::min<Ns>(us(8), std::max<Ns>(us(1.5), x * 3 / 10)); // as Simulator::launch
    const Ns t0 = collHost->ts, hx = h + us(1);
    std::vector<HostEvent> launch(3);
    launch[0] = *tmplHost;
    launch[0].ts = t0;
    launch[0].dur = h;
    launch[0].flowOut = k.flowId;
    launch[1].name = fmt::format("AscendCL@aclnn{}", k.opType);
    launch[1].cat = "";
    launch[1].lane = Lane::Cann;
    launch[1].ts = t0 + h / 5;
    launch[1].dur = h * 3 / 5;
    launch[2].name = "Node@launch";
    launch[2].cat = "";
    launch[2].lane = Lane::Cann;
    launch[2].ts = t0 + h * 4 / 5;
    launch[2].dur = h / 10 + 200;
    launch[2].flowOut = k.flowId;
    for (auto& e : s.host)
        if (e.ts > t)
            e.ts += x;
        else if (e.ts >= t0)
            e.ts += hx;
    s.host.insert(s.host.begin() + (collHost - s.host.begin()), launch.begin(), launch.end());
    // Device: the collective and what follows it (in launch order or in time) move by x.
    std::vector<char> moved(s.kernels.size(), 0);
    for (std::size_t i = 0; i < s.kernels.size(); ++i)
        if (i >= firstIdx || s.kernels[i].start > t) {
            s.kernels[i].start += x;
            moved[i] = 1;
        }
    s.kernels.insert(s.kernels.begin() + static_cast<std::ptrdiff_t>(firstIdx), k);
    moved.insert(moved.begin() + static_cast<std::ptrdiff_t>(firstIdx), 2);
    // Wait Time: the gap since the stream's previous task (a task without one in the step waits x longer,
    // its predecessor in the step before stayed where it was).
    for (std::size_t i = 0; i < s.kernels.size(); ++i) {
        if (!moved[i]) continue;
        Kernel& ki = s.kernels[i];
        std::size_t j = i;
        while (j > 0 && s.kernels[j - 1].stream != ki.stream)
            --j;
        if (j > 0)
            ki.wait = std::max<Ns>(0, ki.start - (s.kernels[j - 1].start + s.kernels[j - 1].dur));
        else if (moved[i] == 1)
            ki.wait += x;
    }
}

} // namespace

std::ptrdiff_t plantClusterDelay(StepOut& s, const Options& o, int stepIndex,
                                 std::vector<DelayedCollective>* delayed) {
    // Every rank writes the same communication.json figures: wait and transit from the undelayed elapse, no
    // synchronization (only a rank that waits for a late one synchronizes, below).
    for (auto& k : s.kernels)
        if (k.isComm) {
            k.commWait = k.dur / 2;
            k.commTransit = k.dur * 35 / 100;
            k.commSync = 0;
        }
    if (o.slowRank < 0 || o.leaving("slow-rank") || !isPlantedStep(o, stepIndex)) return -1;
    const Ns x = static_cast<Ns>(o.slowMs * 1e6 + 0.5);
    auto first = s.kernels.end();
    for (auto it = s.kernels.begin(); it != s.kernels.end(); ++it)
        if (it->isComm && (first == s.kernels.end() || it->start < first->start)) first = it;
    if (first == s.kernels.end()) return -1;
    const auto firstIdx = static_cast<std::size_t>(first - s.kernels.begin());
    // --slow-cause compute: the kernel launched just before the collective (its stream) and the op the extra
    // kernel repeats: the nearest AI_CORE (cube, MatMul-type) kernel launched before it, the same on every
    // rank.
    std::size_t prevIdx = firstIdx, tmplIdx = firstIdx;
    if (o.slowCompute) {
        for (std::size_t i = firstIdx; i-- > 0;)
            if (!s.kernels[i].isComm) {
                if (prevIdx == firstIdx) prevIdx = i;
                if (std::string_view(s.kernels[i].core) == "AI_CORE") {
                    tmplIdx = i;
                    break;
                }
            }
        if (tmplIdx == firstIdx)
            throw std::runtime_error(
                "--slow-cause compute: no AI_CORE kernel before the first collective of step " +
                std::to_string(s.number));
    }
    if (delayed) delayed->push_back({s.number, first->name, o.slowCompute ? s.kernels[tmplIdx].name : ""});
    s.markerDur += x;
    if (o.rank == o.slowRank) {
        if (o.slowCompute) {
            // The slow rank computes x longer before the collective: it arrives last, x late, and waits no
            // longer than before.
            const Kernel tmpl = s.kernels[tmplIdx];
            plantExtraCompute(s, firstIdx, prevIdx, tmpl, x);
            return static_cast<std::ptrdiff_t>(firstIdx);
        }
        // The slow rank: host work delays the whole step by x (a longer prelaunch); it arrives last and
        // waits no longer than before.
        for (auto& k : s.kernels)
            k.start += x;
        for (auto& h : s.host)
            h.ts += x;
        return -1;
    }
    // The others: their first collective waits x longer for the slow rank; everything after it moves, except a
    // kernel of another stream that started while it ran (it does not wait for the collective: the add right
    // after an all-reduce, launched and run beside it).
    const Ns t = first->start, firstEnd = first->start + first->dur;
    const int commStream = first->stream;
    for (auto& k : s.kernels)
        if (k.start > t && (k.start >= firstEnd || k.stream == commStream)) k.start += x;
    for (auto& h : s.host)
        if (h.ts > t) h.ts += x;
    first->dur += x;
    first->commWait += x;
    first->commSync = x; // the time it waited for the late rank
    return -1;
}

Ns clockSkewNs(const Options& o, int rank) {
    for (const auto& [r, ns] : o.clockSkew)
        if (r == rank) return ns;
    return 0;
}

void shiftClock(StepOut& s, Ns skew) {
    s.markerStart += skew;
    for (auto& k : s.kernels)
        k.start += skew;
    for (auto& h : s.host)
        h.ts += skew;
}

int runCluster(const Options& o) {
    std::vector<DelayedCollective> delayed;
    std::vector<std::string> dirs;
    std::string csv = "Step,Type,Index,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,"
                      "Bubble,Communication(Not Overlapped and Exclude Receive),Preparing\r\n";
    for (int r = 0; r < o.ranks; ++r) {
        Options ro = o;
        ro.rank = r;
        ro.quiet = true;
        if (const int rc = runRank(ro, r == 0 ? &delayed : nullptr); rc != 0) return rc;
        const std::string dir = fmt::format("{}_rank{}_ascend_pt", o.name, r);
        dirs.push_back(dir);
        // The profiler's cluster table repeats each rank's step_trace_time.csv rows with Type rank, Index r.
        std::ifstream in(fs::path(o.outDir) / dir / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv");
        std::string line;
        std::getline(in, line);
        while (std::getline(in, line)) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (line.empty()) continue;
            const auto comma = line.find(',');
            csv += line.substr(0, comma) + ",rank," + std::to_string(r) + line.substr(comma) + "\r\n";
        }
    }
    const fs::path clusterDir = fs::path(o.outDir) / "cluster_analysis_output";
    fs::create_directories(clusterDir);
    std::FILE* f = std::fopen((clusterDir / "cluster_step_trace_time.csv").c_str(), "wb");
    if (!f) throw std::runtime_error("cannot write cluster_step_trace_time.csv");
    std::fwrite(csv.data(), 1, csv.size(), f);
    std::fclose(f);

    nlohmann::ordered_json ex;
    ex["generator"] = "bubblescope-synth";
    ex["ranks"] = o.ranks;
    ex["rank_dirs"] = dirs;
    ex["slow_rank"] = o.slowRank >= 0 ? nlohmann::ordered_json(o.slowRank) : nlohmann::ordered_json(nullptr);
    ex["slow_ms"] = o.slowRank >= 0 ? o.slowMs : 0.0;
    nlohmann::ordered_json steps = nlohmann::ordered_json::array(), colls = nlohmann::ordered_json::array();
    for (const auto& d : delayed) {
        steps.push_back(d.step);
        colls.push_back({{"step", d.step}, {"name", d.name}});
    }
    ex["planted_steps"] = steps;
    ex["delayed_collectives"] = colls;
    if (o.slowRank >= 0) {
        // What makes the slow rank late, and the step metric it grows: host (the whole step starts late, its
        // prelaunch grows) or compute (one extra kernel before the collective, its computing grows).
        nlohmann::ordered_json cause;
        if (o.slowCompute) {
            cause["kind"] = "compute";
            cause["lead"] = "computing";
            cause["op"] = delayed.empty() ? std::string() : delayed.front().extraOp;
            cause["op_calls_delta"] = 1;
        } else {
            cause["kind"] = "host";
            cause["lead"] = "prelaunch";
        }
        cause["delta_ms"] = o.slowMs;
        ex["slow_cause"] = cause;
    }
    if (!o.clockSkew.empty()) {
        // What each rank's clock reads minus the true time, and the same against rank 0 (the reference).
        auto skew = nlohmann::ordered_json::object(), offsets = nlohmann::ordered_json::object();
        for (int r = 0; r < o.ranks; ++r) {
            skew[std::to_string(r)] = usJson(clockSkewNs(o, r));
            offsets[std::to_string(r)] = usJson(clockSkewNs(o, r) - clockSkewNs(o, 0));
        }
        ex["clock_skew_us"] = skew;
        ex["clock_offsets_us"] = offsets;
    }
    const std::string exs = ex.dump(2) + "\n";
    f = std::fopen((fs::path(o.outDir) / "expected.json").c_str(), "wb");
    if (!f) throw std::runtime_error("cannot write expected.json");
    std::fwrite(exs.data(), 1, exs.size(), f);
    std::fclose(f);
    if (!o.quiet) std::fprintf(stderr, "bubblescope-synth: wrote %d ranks under %s\n", o.ranks, o.outDir.c_str());
    return 0;
}

} // namespace synth
