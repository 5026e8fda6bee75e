// bench-cluster: several generated ranks analysed one after another (the cluster view). Prints the
// wall time, peak RSS against the largest rank's trace, and the throughput against one rank alone.
// Usage: bubblescope-bench-cluster PARENT
#include "pipeline/analysis_run.h"
#include "analysis/rulebook.h"
#include "cluster/cluster_analysis.h"
#include "io/discovery.h"
#include "io/profile_loader.h"

#include <fmt/format.h>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

namespace fs = std::filesystem;

namespace {

double seconds(std::chrono::steady_clock::duration d) {
    return std::chrono::duration<double>(d).count();
}

double peakRssMb() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0; // ru_maxrss is in KiB on Linux
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        fmt::print(stderr, "usage: bubblescope-bench-cluster PARENT\n");
        return 2;
    }
    const std::string parent = argv[1];
    const bs::DiscoveryResult found = bs::discoverProfiles(parent);
    std::uintmax_t total = 0, largest = 0;
    const bs::RankFolder* largestRank = nullptr;
    for (const auto& r : found.ranks) {
        std::error_code ec;
        const auto n = fs::file_size(fs::path(r.outputDir) / "trace_view.json", ec);
        if (ec) continue;
        total += n;
        if (n > largest) largest = n, largestRank = &r;
    }
    if (!largestRank) {
        fmt::print(stderr, "no rank with a trace_view.json under {}\n", parent);
        return 1;
    }
    const bs::Rulebook rules;
    // One rank alone: the reference throughput.
    auto t0 = std::chrono::steady_clock::now();
    {
        bs::LoadResult loaded = bs::loadRank(*largestRank);
        if (loaded.profile) bs::analyzeProfile(*loaded.profile, rules);
    }
    const double single = seconds(std::chrono::steady_clock::now() - t0);
    // Its summary (what the cluster keeps), as written and with every collective made to wait for its peers
    // (synchronization 10 % of its elapse): the worst case of the waits' replays (issue 47: one replay per wait,
    // at most kWaitReplaysPerStep per step, and one with all of a step's waits at once).
    {
        bs::LoadResult loaded = bs::loadRank(*largestRank);
        if (loaded.profile) {
            for (int pass = 0; pass < 2; ++pass) {
                if (pass == 1)
                    for (auto& op : loaded.profile->commOps)
                        op.sync = op.elapse / 10;
                const bs::AnalysisResult r = bs::analyzeProfile(*loaded.profile, rules);
                const auto s0 = std::chrono::steady_clock::now();
                const bs::RankSummary s = bs::summarizeRank(*largestRank, *loaded.profile, r);
                const double took = seconds(std::chrono::steady_clock::now() - s0);
                std::size_t waits = 0, alone = 0;
                for (const auto& row : s.steps)
                    waits += row.waitsReplayed;
                for (const auto& c : s.collectives)
                    alone += c.gain > 0 ? 1 : 0;
                fmt::print("summary of the largest rank ({} steps, {} kernels, {} collectives){}: {:.3f} s; waits replayed "
                           "{} ({} gaining step time alone)\n",
                           s.steps.size(), loaded.profile->kernels.size(), s.collectives.size(),
                           pass ? ", every collective waiting" : "", took, waits, alone);
            }
        }
    }
    t0 = std::chrono::steady_clock::now();
    const bs::ClusterResult c = bs::analyzeClusterFolder(parent, rules);
    const double all = seconds(std::chrono::steady_clock::now() - t0);
    const double mb = 1024.0 * 1024.0;
    const double singleTput = static_cast<double>(largest) / mb / single, clusterTput = static_cast<double>(total) / mb / all;
    fmt::print("ranks {} ({} slow-rank entries), traces {:.1f} MB in all, largest {:.1f} MB\n", c.ranks.size(),
               c.slowRanks.size(), static_cast<double>(total) / mb, static_cast<double>(largest) / mb);
    fmt::print("one rank: {:.2f} s ({:.1f} MB/s); cluster: {:.2f} s ({:.1f} MB/s, {:.2f} x one rank; ranks one after another)\n",
               single, singleTput, all, clusterTput, clusterTput / singleTput);
    fmt::print("peak RSS {:.1f} MB = {:.2f} x the largest trace (goal <= 1.5)\n", peakRssMb(),
               peakRssMb() / (static_cast<double>(largest) / mb));
    return 0;
}
