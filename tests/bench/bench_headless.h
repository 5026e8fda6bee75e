#pragma once
// Headless end-to-end figures of bubblescope-bench (issue 18): the `analyze --json` process against the
// bare simdjson pass over the same trace.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace benchheadless {

struct Figures {
    std::string label, path;
    std::vector<double> processRuns, cpuRuns; // wall and CPU (user + system) seconds of each run
    std::vector<long> rssRuns;                // peak RSS of each run, kB
    std::vector<double> diskMbRuns;           // MB each run read from the disk (wait4's ru_inblock)
    double folderMb = 0;                      // the profile folder's files
    double cachedMbBeforeProcesses = 0, cachedMbBeforeStages = 0; // of them in the page cache before warming
    std::uintmax_t traceBytes = 0;
    std::size_t events = 0;
    double processSec = 0, cpuSec = 0, bareSec = 0;
    double bareMinSec = 0; // the fastest bare pass: on this VM a pass that first touches fresh memory can take 2x
    long rssKb = 0;
    long textOnlyRssKb = 0; // peak RSS of one `analyze PATH -q` (the model and the text report; no JSON export)
    double ratioRss() const {
        return traceBytes ? (static_cast<double>(rssKb) * 1024.0) / static_cast<double>(traceBytes) : 0.0;
    }
};

// The limit: simdjson On Demand over the whole file (read included), touching every key of every event.
// Returns the number of events; `seconds` receives the wall time.
std::size_t barePass(const std::string& path, double& seconds);

// Reads every file of the profile folder once, so that no timed run reads the disk (on a VM that pages
// out cold page cache, a file not read for a minute is gone). Returns the MB of the files and, in
// cachedMb, how many of them were in the page cache before (mincore).
double warmPageCache(const std::string& folder, double& cachedMb);

using Profile = std::pair<std::string, std::string>; // label, path

// The headless processes, in three steps so that a caller can put other runs between them (the GUI bench
// alternates a headless and a window run). Call them before anything large is loaded in this process: a
// forked child's peak RSS (wait4) counts the pages it shared with its parent until exec, so a parent that
// has held a profile would inflate it.
// startProcesses reads the folder once (what was cached is noted); runProcessOnce runs
// `exe analyze PATH --json … -q` once (the folder read again first if it ran before) and appends the
// figures; finishProcesses runs `exe analyze PATH -q` once (textOnlyRssKb) and takes the medians.
Figures startProcesses(const std::string& label, const std::string& path);
void runProcessOnce(const std::string& exe, Figures& fig);
void finishProcesses(const std::string& exe, Figures& fig);

// The three steps for every profile, `runs` runs each, round by round (run i of every profile before
// run i + 1 of any).
std::vector<Figures> measureProcesses(const std::string& exe, const std::vector<Profile>& profiles, int runs);

// The bare pass (`runs` times) and the shape beside the process figures; prints them and (withStages) the
// loader's stages timed in this process.
void benchHeadless(Figures& fig, int runs, bool withStages);

// One line per label, and the 1 GB / 200 MB time ratio for labels PREFIX-200MB / PREFIX-1GB.
void printSummary(const std::vector<Figures>& all);

} // namespace benchheadless
