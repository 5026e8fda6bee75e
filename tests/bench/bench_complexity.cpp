// bubblescope-bench-complexity: for every input shape that once made a reader or an analysis step
// quadratic (issue 19, item 11), load + analyse it at size n and 8n and print the time ratios (wall and
// CPU; best of 3 runs, each in a fresh process). An O(n log n) pipeline gives a ratio near 8-9; the goal
// is <= 10, and the exit status is 1 when a CPU-time ratio is above it (CPU time, because wall time on a
// shared 2-core machine moves with whatever else runs). Each run's peak RSS is printed beside its times
// (VmHWM, the largest of the runs), and its ratio: memory must grow linearly. Never part of ctest: timing
// belongs here, not in unit tests.
//
//   bubblescope-bench-complexity [--scale F] [--size N] [SHAPE...]
//   SHAPE: numbers pmu dups oneop streams steps hosts pmunames sharedconn sharedapi nestx nestbe nestdb
//   (default: all)
//
// --scale multiplies every n (e.g. 0.125 for a quick look; the ratio is less stable on tiny inputs);
// --size N times that one size only (for a profiler).
#include "bench_util.h"
#include "complexity_db_shapes.h"
#include "complexity_shapes.h"

#include "pipeline/analysis_run.h"
#include "io/discovery.h"
#include "io/profile_loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <cstdio>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using Clock = std::chrono::steady_clock;

struct Shape {
    const char* name;
    const char* what;
    std::size_t n; // the small size; the large one is 8n
    std::function<std::string(const std::string& root, std::size_t n)> make;
};

double cpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct Timing {
    double wall = 1e30, cpu = 1e30;
    long rssKb = 0; // peak resident set (VmHWM) of the process that loaded and analysed
};

// `--run-one DIR`: load and analyse the one rank under DIR, then write wall seconds, CPU seconds and the
// peak RSS in kB to standard output.
int runOneHere(const std::string& dir) {
    const auto t = Clock::now();
    const double c = cpuSeconds();
    auto found = bs::discoverProfiles(dir);
    for (const auto& rank : found.ranks) {
        auto loaded = bs::loadRank(rank);
        if (loaded.profile && loaded.hasAnyData) (void)bs::analyzeProfile(*loaded.profile);
    }
    const double wall = std::chrono::duration<double>(Clock::now() - t).count(), cpu = cpuSeconds() - c;
    fmt::print("{} {} {}\n", wall, cpu, benchutil::peakRssKb());
    return 0;
}

// Load and analyse the one rank under `dir` once, in a fresh process (this program again, `--run-one`), so
// that every run starts from a fresh heap: a warm allocator would hand a small input recycled pages and a
// large one new pages to zero, which is not the algorithm's growth. A forked child would also count the
// pages it shares with this process (the shapes' text was built here) in its peak RSS. Wall and CPU seconds
// (CPU of all threads, which other jobs on a shared machine disturb far less than wall time) and the peak
// RSS come back through a pipe.
Timing runOnce(const std::string& dir) {
    int fd[2];
    if (pipe(fd) != 0) return {};
    const pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        if (dup2(fd[1], STDOUT_FILENO) < 0) _exit(1);
        execl("/proc/self/exe", "bubblescope-bench-complexity", "--run-one", dir.c_str(), nullptr);
        _exit(1);
    }
    close(fd[1]);
    std::string text;
    char buf[256];
    for (ssize_t got; pid > 0 && (got = read(fd[0], buf, sizeof buf)) > 0;)
        text.append(buf, static_cast<std::size_t>(got));
    close(fd[0]);
    if (pid > 0) waitpid(pid, nullptr, 0);
    Timing t;
    if (std::sscanf(text.c_str(), "%lf %lf %ld", &t.wall, &t.cpu, &t.rssKb) != 3) return {};
    return t;
}

// The best of `runs` fresh runs.
Timing timeLoadAndAnalyze(const std::string& dir, int runs) {
    Timing best;
    for (int r = 0; r < runs; ++r) {
        const Timing t = runOnce(dir);
        best.wall = std::min(best.wall, t.wall);
        best.cpu = std::min(best.cpu, t.cpu);
        best.rssKb = std::max(best.rssKb, t.rssKb);
    }
    return best;
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--run-one") return runOneHere(argv[2]);
    double scale = 1.0;
    std::size_t fixedSize = 0;
    std::vector<std::string> only;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--scale" && i + 1 < argc)
            scale = std::atof(argv[++i]);
        else if (a == "--size" && i + 1 < argc) // one size only, for a profiler: no ratio
            fixedSize = static_cast<std::size_t>(std::atoll(argv[++i]));
        else if (a == "--help" || a == "-h") {
            fmt::print(
                "usage: bubblescope-bench-complexity [--scale F] [--size N] "
                "[numbers|pmu|dups|oneop|streams|steps|hosts|pmunames|sharedconn|sharedapi|nestx|nestbe|"
                "nestdb]...\n");
            return 0;
        } else
            only.push_back(a);
    }
    const std::vector<Shape> shapes = {
        {"numbers", "(a) trace_view.json = JSON array of numbers, bytes", 1u << 20,
         [](const std::string& r, std::size_t n) { return shapes::traceOfNumbers(r, n); }},
        {"pmu", "(b) aic_* PMU columns in kernel_details.csv", 125000,
         [](const std::string& r, std::size_t n) { return shapes::pmuColumns(r, n); }},
        {"dups", "(c) kernel rows with one start time (half duplicates)", 25000,
         [](const std::string& r, std::size_t n) { return shapes::equalStarts(r, n); }},
        {"oneop", "(d) kernels of one op type (repeating-pattern search)", 62500,
         [](const std::string& r, std::size_t n) { return shapes::oneOpType(r, n); }},
        {"streams", "(e) streams, one kernel each (stream-pair overlap)", 20000,
         [](const std::string& r, std::size_t n) { return shapes::manyStreams(r, n); }},
        {"steps", "(f) Step Id steps with global gaps between them", 12500,
         [](const std::string& r, std::size_t n) { return shapes::manySteps(r, n); }},
        {"hosts", "(g) bubble windows under many host threads and long host events", 5000,
         [](const std::string& r, std::size_t n) { return shapes::hostLanes(r, n); }},
        // Issue 45, item 4. pmunames from 16 000 kernels: below 20 000 kernels a step's repeating-pattern search
        // tries periods up to n / 3 (at most 4096), which grows faster than this shape's reading.
        {"pmunames", "(h) SQLite: distinct TASK_PMU_INFO names, one kernel each", 16000,
         [](const std::string& r, std::size_t n) { return shapes::dbPmuNames(r, n); }},
        {"sharedconn", "(i) SQLite: PyTorch ops sharing one connection (CONNECTION_IDS, connectionCats)",
         12500, [](const std::string& r, std::size_t n) { return shapes::dbSharedConnection(r, n); }},
        {"sharedapi", "(j) SQLite: PYTORCH_API + CONNECTION_IDS rows sharing one API id", 1000,
         [](const std::string& r, std::size_t n) { return shapes::dbSharedApiId(r, n); }},
        {"nestx", "(l) trace: 'X' events nested on one host thread", 10000,
         [](const std::string& r, std::size_t n) { return shapes::nestedTrace(r, n, false); }},
        {"nestbe", "(l) trace: B/E pairs nested on one host thread", 10000,
         [](const std::string& r, std::size_t n) { return shapes::nestedTrace(r, n, true); }},
        {"nestdb", "(k) SQLite: PYTORCH_API ops nested on one host thread", 10000,
         [](const std::string& r, std::size_t n) { return shapes::dbNested(r, n); }},
    };
    const std::string root =
        (std::filesystem::temp_directory_path() / ("bs-bench-complexity-" + std::to_string(::getpid())))
            .string();
    fmt::print("{:<10} {:>9} {:>8} {:>8} {:>8} {:>9} {:>8} {:>8} {:>8} {:>6} {:>6} {:>6}   {}\n", "shape",
               "n", "wall s", "cpu s", "rss MB", "8n", "wall s", "cpu s", "rss MB", "wall x", "cpu x",
               "rss x", "what");
    bool fail = false;
    for (const auto& s : shapes) {
        if (!only.empty() && std::find(only.begin(), only.end(), s.name) == only.end()) continue;
        if (fixedSize) {
            const std::string dir = root + "/" + s.name;
            const Timing t = timeLoadAndAnalyze(s.make(dir, fixedSize), 1);
            std::filesystem::remove_all(dir);
            fmt::print("{:<10} {:>10} wall {:.3f} s, cpu {:.3f} s, rss {:.1f} MB\n", s.name, fixedSize,
                       t.wall, t.cpu, static_cast<double>(t.rssKb) / 1024);
            continue;
        }
        const std::size_t n =
            std::max<std::size_t>(16, static_cast<std::size_t>(static_cast<double>(s.n) * scale));
        Timing t[2];
        for (int k = 0; k < 2; ++k) {
            const std::string dir = root + "/" + s.name + std::to_string(k);
            const std::string rank = s.make(dir, k == 0 ? n : 8 * n);
            t[k] = timeLoadAndAnalyze(rank, 3); // best of 3 fresh processes at both sizes
            std::filesystem::remove_all(dir);
        }
        const double wallRatio = t[0].wall > 0 ? t[1].wall / t[0].wall : 0;
        const double cpuRatio = t[0].cpu > 0 ? t[1].cpu / t[0].cpu : 0;
        const bool bad = cpuRatio > 10.0;
        fail |= bad;
        const double rssRatio =
            t[0].rssKb > 0 ? static_cast<double>(t[1].rssKb) / static_cast<double>(t[0].rssKb) : 0;
        fmt::print("{:<10} {:>9} {:>8.3f} {:>8.3f} {:>8.1f} {:>9} {:>8.3f} {:>8.3f} {:>8.1f} {:>6.2f} "
                   "{:>6.2f} {:>6.2f}{} {}\n",
                   s.name, n, t[0].wall, t[0].cpu, static_cast<double>(t[0].rssKb) / 1024, 8 * n, t[1].wall,
                   t[1].cpu, static_cast<double>(t[1].rssKb) / 1024, wallRatio, cpuRatio, rssRatio,
                   bad ? " !" : "  ", s.what);
        std::fflush(stdout);
    }
    std::filesystem::remove_all(root);
    if (fail)
        fmt::print(
            "at least one CPU-time ratio t(8n)/t(n) is above 10: that step grows faster than n log n\n");
    return fail ? 1 : 0;
}
