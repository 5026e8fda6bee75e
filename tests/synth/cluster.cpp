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

namespace fs = std::filesystem;

namespace synth {

namespace {

int plantedStep(const Options& o) {
    if (o.slowStep >= 0) return o.slowStep;
    return o.steps >= 2 ? 1 : 0;
}

} // namespace

void plantClusterDelay(StepOut& s, const Options& o, int stepIndex,
                       std::vector<std::pair<std::int64_t, std::string>>* delayed) {
    // Every rank writes the same communication.json figures: wait and transit from the undelayed elapse.
    for (auto& k : s.kernels)
        if (k.isComm) {
            k.commWait = k.dur / 2;
            k.commTransit = k.dur * 35 / 100;
        }
    if (o.slowRank < 0 || stepIndex != plantedStep(o)) return;
    const Ns x = static_cast<Ns>(o.slowMs * 1e6 + 0.5);
    auto first = s.kernels.end();
    for (auto it = s.kernels.begin(); it != s.kernels.end(); ++it)
        if (it->isComm && (first == s.kernels.end() || it->start < first->start)) first = it;
    if (first == s.kernels.end()) return;
    if (delayed) delayed->push_back({s.number, first->name});
    s.markerDur += x;
    if (o.rank == o.slowRank) {
        // The slow rank: host work delays the whole step by x (a longer prelaunch); it arrives last and
        // waits no longer than before.
        for (auto& k : s.kernels)
            k.start += x;
        for (auto& h : s.host)
            h.ts += x;
        return;
    }
    // The others: their first collective waits x longer for the slow rank; everything after it moves.
    const Ns t = first->start;
    for (auto& k : s.kernels)
        if (k.start > t) k.start += x;
    for (auto& h : s.host)
        if (h.ts > t) h.ts += x;
    first->dur += x;
    first->commWait += x;
}

int runCluster(const Options& o) {
    std::vector<std::pair<std::int64_t, std::string>> delayed;
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
    for (const auto& [step, name] : delayed) {
        steps.push_back(step);
        colls.push_back({{"step", step}, {"name", name}});
    }
    ex["planted_steps"] = steps;
    ex["delayed_collectives"] = colls;
    const std::string exs = ex.dump(2) + "\n";
    f = std::fopen((fs::path(o.outDir) / "expected.json").c_str(), "wb");
    if (!f) throw std::runtime_error("cannot write expected.json");
    std::fwrite(exs.data(), 1, exs.size(), f);
    std::fclose(f);
    if (!o.quiet) std::fprintf(stderr, "bubblescope-synth: wrote %d ranks under %s\n", o.ranks, o.outDir.c_str());
    return 0;
}

} // namespace synth
