// bench-merge (issue 15): the merge of many rank summaries on one machine, as after a Slurm job array.
// One generated rank is analysed and summarized once; N summary files are written from it (rank id, label
// and every collective's wait varied per rank, so the cross-rank table does real work), then merged.
// Prints the merge's wall time and peak RSS (goal: 1024 summaries in <= 2 s and <= 500 MB).
// Usage: bubblescope-bench-merge RANK_FOLDER [N]
#include "pipeline/analysis_run.h"
#include "analysis/rulebook.h"
#include "bench_util.h"
#include "cluster/cluster_analysis.h"
#include "cluster/summary_json.h"
#include "io/discovery.h"
#include "io/profile_loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        fmt::print(stderr, "usage: bubblescope-bench-merge RANK_FOLDER [N]\n");
        return 2;
    }
    const int n = argc == 3 ? std::stoi(argv[2]) : 1024;
    const bs::DiscoveryResult found = bs::discoverProfiles(argv[1]);
    if (found.ranks.empty()) {
        fmt::print(stderr, "no rank under {}\n", argv[1]);
        return 1;
    }
    bs::RankSummary base;
    {
        bs::LoadResult loaded = bs::loadRank(found.ranks.front());
        if (!loaded.profile) return 1;
        const bs::AnalysisResult r = bs::analyzeProfile(*loaded.profile, bs::Rulebook{});
        base = bs::summarizeRank(found.ranks.front(), *loaded.profile, r);
    }
    const fs::path dir = fs::temp_directory_path() / fmt::format("bubblescope-bench-merge-{}", n);
    fs::create_directories(dir);
    std::vector<std::string> files;
    std::uintmax_t bytes = 0;
    for (int i = 0; i < n; ++i) {
        bs::RankSummary s = base;
        s.rankId = i;
        s.label = fmt::format("job_rank{}_ascend_pt", i);
        for (auto& c : s.collectives) {
            const bs::TimeNs d = (static_cast<bs::TimeNs>(i) * 7919 + c.step * 104729) % 1'000'000;
            c.wait += d;
            c.start += 1'000'000 - d;
        }
        const std::string text = bs::renderRankSummaryJson(s, "bubblescope bench");
        files.push_back((dir / fmt::format("rank{}.summary.json", i)).string());
        std::ofstream(files.back(), std::ios::binary) << text;
        bytes += text.size();
    }
    const std::size_t perRank = base.collectives.size();
    base = {};
    benchutil::resetPeakRss();
    const auto t0 = benchutil::Clock::now();
    const std::clock_t c0 = std::clock();
    const bs::ClusterResult c = bs::mergeRankSummaryFiles(files, "bubblescope bench", std::string());
    const double wall = benchutil::since(t0);
    const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
    fmt::print("merge of {} summaries ({:.1f} MB of JSON, {:.1f} KB a summary, {} collectives each): {:.2f} s ({:.2f} s of "
               "CPU), peak RSS {:.1f} MB (goal <= 2 s, <= 500 MB); {} ranks, {} collectives matched, {} refused, {} slow\n",
               n, benchutil::mb(bytes), static_cast<double>(bytes) / 1024.0 / n, perRank, wall, cpu,
               static_cast<double>(benchutil::peakRssKb()) / 1024.0, c.ranks.size(), c.collectivesMatched,
               std::count_if(c.findings.begin(), c.findings.end(), [](const auto& f) { return f.id == "summary_refused"; }),
               c.slowRanks.size());
    for (const auto& f : files)
        fs::remove(f);
    fs::remove(dir);
    return 0;
}
