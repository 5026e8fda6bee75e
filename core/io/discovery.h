#pragma once
// Finds the profiling data a user pointed at: a rank folder (*_ascend_pt), its
// ASCEND_PROFILER_OUTPUT/, a msprof PROF_* folder or its mindstudio_profiler_output/, a parent of
// several ranks, or any file inside one of those.
#include <string>
#include <vector>

namespace bs {

struct RankFolder {
    std::string root;      // rank folder (*_ascend_pt, PROF_*, or the folder itself for loose files)
    std::string outputDir; // where the CSV/JSON exports are ("" when missing)
    std::string layout;    // "torch_npu", "msprof", "loose"
    std::string label;     // relative path from the folder the user gave, or the folder name
};

struct DiscoveryResult {
    std::vector<RankFolder> ranks;
    std::string error; // one sentence when nothing usable was found
};

DiscoveryResult discoverProfiles(const std::string& path);

// Natural order of names: digit runs compare as numbers ("rank2" < "rank10"), the rest byte by byte.
// Discovery lists sibling folders in this order.
bool naturalLess(const std::string& a, const std::string& b);

// Files of interest inside one output folder (absolute paths; empty when absent).
struct RankFiles {
    std::string kernelDetails, stepTraceTime, communication, traceView, opStatistic;
    std::vector<std::string> opSummary, taskTime, msprofJson, profilerInfo, sqliteExports, otherCsv;
};
RankFiles listRankFiles(const RankFolder& rank);

} // namespace bs
