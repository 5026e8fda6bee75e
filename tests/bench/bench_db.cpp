// bubblescope-bench-db: loading the SQLite export (export_type=db) beside the text export of the same
// profile: wall time, MB/s of the files read, peak RSS, then the analysis on top. Never part of ctest.
// Usage: bubblescope-bench-db [--db-only] [--no-analysis] LABEL=RANK_FOLDER ...  (a folder holding both
// exports, or only the .db). --db-only skips the text export, --no-analysis the analysis after the load.
#include "pipeline/analysis_run.h"
#include "io/discovery.h"
#include "io/profile_loader.h"

#include "bench_util.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/resource.h>

namespace {

using benchutil::Clock;
using benchutil::mb;
using benchutil::peakRssKb;
using benchutil::resetPeakRss;
using benchutil::since;

// CPU seconds (user + system) of the calling thread, or of the whole process: on a machine shared with other
// jobs the wall time alone says little, the CPU time says what the load itself cost.
double cpuSeconds(int who) {
    rusage u{};
    getrusage(who, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// Bytes of the files a source reads: the .db files, or the text files.
std::uintmax_t sourceBytes(const bs::Profile& p) {
    std::uintmax_t n = 0;
    for (const auto& f : p.inventory.files)
        if (f.role.find("not") == std::string::npos && f.role != "profiler_info") n += f.bytes;
    return n;
}

bool gNoAnalysis = false;

void bench(const std::string& label, const bs::RankFolder& rank, bs::DataSource source, const char* name) {
    // Best of two: the first run also warms the page cache for the second.
    double best = 1e300, analysis = 0, cpu = 0;
    long rss = 0;
    std::uintmax_t bytes = 0;
    std::size_t kernels = 0, hostEvents = 0;
    for (int run = 0; run < 2; ++run) {
        resetPeakRss();
        bs::LoadControl control;
        control.source = source;
        const auto t = Clock::now();
        const double cpu0 = cpuSeconds(RUSAGE_SELF);
        // Per-stage times of the database read (the reader reports each table as it finishes): wall, and CPU
        // of the loading thread.
        std::string stages;
        auto last = t;
        double lastCpu = cpuSeconds(RUSAGE_THREAD);
        if (source == bs::DataSource::Db && run == 1)
            control.progress = [&](const std::string& stage, std::uint64_t, std::uint64_t) {
                if (stage.rfind("sqlite ", 0) != 0) return;
                const double c = cpuSeconds(RUSAGE_THREAD);
                stages += fmt::format(" {} {:.2f}s/{:.2f}", stage.substr(7), since(last), c - lastCpu);
                last = Clock::now();
                lastCpu = c;
            };
        bs::LoadResult r = bs::loadRank(rank, control);
        const double s = since(t);
        if (s < best) cpu = cpuSeconds(RUSAGE_SELF) - cpu0;
        if (!r.hasAnyData) {
            fmt::print("{:<22} {:<6} no data\n", label, name);
            return;
        }
        if (run == 0) rss = peakRssKb();
        best = std::min(best, s);
        bytes = sourceBytes(*r.profile);
        kernels = r.profile->kernels.size();
        hostEvents = r.profile->hostEvents.size();
        if (run == 1 && !stages.empty())
            fmt::print("{:<22} stages (wall s/loading thread CPU s):{}\n", label, stages);
        if (run == 1 && !gNoAnalysis) {
            const auto ta = Clock::now();
            auto res = bs::analyzeProfile(*r.profile);
            analysis = since(ta);
        }
    }
    fmt::print("{:<22} {:<6} {:>9.1f} MB  load {:>7.2f} s (CPU {:.2f} s)  {:>7.1f} MB/s  peak RSS {:>7.0f} "
               "MB ({:.2f} x)  "
               "kernels {:>9}  host events {:>10}  analysis {:>6.2f} s\n",
               label, name, mb(bytes), best, cpu, mb(bytes) / best, static_cast<double>(rss) / 1024.0,
               static_cast<double>(rss) * 1024.0 / static_cast<double>(std::max<std::uintmax_t>(bytes, 1)),
               kernels, hostEvents, analysis);
    std::fflush(stdout); // a crash in a later run keeps this line
}

} // namespace

int main(int argc, char** argv) {
    fmt::print(
        "SQLite export vs text export of the same profile (best of 2 loads; MB/s of the files each reads)\n");
    bool dbOnly = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--db-only" || a == "--no-analysis") {
            (a == "--db-only" ? dbOnly : gNoAnalysis) = true;
            continue;
        }
        const auto eq = a.find('=');
        const std::string label = a.substr(0, eq), dir = eq == std::string::npos ? a : a.substr(eq + 1);
        auto found = bs::discoverProfiles(dir);
        if (found.ranks.empty()) {
            fmt::print("{:<22} not found: {}\n", label, dir);
            continue;
        }
        bench(label, found.ranks[0], bs::DataSource::Db, "db");
        if (!dbOnly) bench(label, found.ranks[0], bs::DataSource::Text, "text");
    }
    fmt::print("Target: >= 150 MB/s of DB file on the 1 GB database.\n");
    return 0;
}
