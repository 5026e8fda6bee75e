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

// The rank has a text export (a kernel table or a timeline); without one the SQLite export is read.
bool hasTextExport(const RankFiles& files);

// Why the rank's folders cannot be listed ("cannot open the folder …: Permission denied"), or "" when
// they can. A folder that cannot be listed looks empty to a directory walk; this names the real error.
std::string folderReadProblem(const RankFolder& rank);

// A data file of the rank (by its name: kernel_details.csv, trace_view.json, the SQLite export, …) that is
// not a regular file: a folder, a FIFO, a device, or a link that leads nowhere or in a loop. Said as a
// sentence naming it ("… is a FIFO, not a regular file"); "" when there is none. The file lists above keep
// only regular files, so without this such a rank would look like an empty output folder.
std::string irregularDataFile(const RankFolder& rank);

// The profile an existing file belongs to (its rank folder, or the loose folder holding it), or "" when
// it is nobody's. A profile's files are everything inside a rank folder's sub-folders
// (ASCEND_PROFILER_OUTPUT, FRAMEWORK, PROF_*/device_*, mindstudio_profiler_output, …), the profiler's own
// files at the top of a rank folder (profiler_*.json, the profiler's databases and data files), and the data files of a loose
// folder (trace_view.json, kernel_details.csv, … and their neighbours communication.json, op_statistic,
// profiler_info). Decided from the path alone, whatever command is running: every output is checked
// against it (report/output_target.cpp), so no writer can replace a profile's file. `canonicalFile` has no
// symbolic link left.
std::string profileOwningFile(const std::string& canonicalFile);

} // namespace bs
