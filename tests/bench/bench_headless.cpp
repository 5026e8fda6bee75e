// Headless end to end (issue 18): the real `bubblescope analyze --json` process, timed from fork to
// wait4 with its peak RSS from the kernel's rusage (what /usr/bin/time prints), beside the bare simdjson
// pass over the same trace and the in-process stages (side files, trace, analysis, JSON). Median of N.
#include "bench_headless.h"

#include "pipeline/analysis_run.h"
#include "i18n/message.h"
#include "io/discovery.h"
#include "io/communication_json.h"
#include "io/file_buffer.h"
#include "io/kernel_table_reader.h"
#include "io/profile_loader.h"
#include "io/side_file_readers.h"
#include "io/trace_json_reader.h"
#include "report/json_export.h"

#include "bench_util.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <functional>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

namespace benchheadless {

namespace {

using benchutil::Clock;
using benchutil::mb;
using benchutil::since;

struct ProcessRun {
    double seconds = 0, cpuSeconds = 0; // wall; user + system of the process and its threads
    long maxRssKb = 0;
    double diskMb = 0; // read from the disk (ru_inblock: 512-byte blocks)
    int status = -1;
};

// fork + exec `exe analyze PATH --json OUT -q` (without OUT: `exe analyze PATH -q`, the text report
// only); stdout/stderr go to /dev/null.
ProcessRun runAnalyze(const std::string& exe, const std::string& path, const std::string& out) {
    ProcessRun r;
    const auto t = Clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, 1);
        ::dup2(null, 2);
        if (out.empty())
            ::execl(exe.c_str(), exe.c_str(), "analyze", path.c_str(), "-q", static_cast<char*>(nullptr));
        else
            ::execl(exe.c_str(), exe.c_str(), "analyze", path.c_str(), "--json", out.c_str(), "-q",
                    static_cast<char*>(nullptr));
        ::_exit(127);
    }
    struct rusage ru {};
    int status = 0;
    if (pid < 0 || ::wait4(pid, &status, 0, &ru) < 0) return r;
    r.seconds = since(t);
    r.maxRssKb = ru.ru_maxrss;
    r.diskMb = static_cast<double>(ru.ru_inblock) * 512.0 / (1024.0 * 1024.0);
    auto sec = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
    };
    r.cpuSeconds = sec(ru.ru_utime) + sec(ru.ru_stime);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return r;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// CPU seconds (user + system) of this process, all its threads.
double processCpuSeconds() {
    timespec ts{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Median wall time of `runs` calls of f; with cpu, the median CPU seconds of the process over each call
// (every thread f starts is counted: a stage on two threads costs the CPU time of both).
double timed(int runs, const std::function<void()>& f, std::vector<double>* all = nullptr,
             double* cpu = nullptr) {
    std::vector<double> s, c;
    for (int i = 0; i < runs; ++i) {
        const double c0 = processCpuSeconds();
        const auto t = Clock::now();
        f();
        s.push_back(since(t));
        c.push_back(processCpuSeconds() - c0);
    }
    if (all) *all = s;
    if (cpu) *cpu = median(c);
    return median(s);
}

std::uintmax_t sizeOf(const std::string& p) {
    std::error_code ec;
    const auto s = p.empty() ? 0 : std::filesystem::file_size(p, ec);
    return ec ? 0 : s;
}

std::string list(const std::vector<double>& v) {
    std::string s;
    for (double x : v)
        s += fmt::format("{}{:.3f}", s.empty() ? "" : ", ", x);
    return s;
}

struct Stage {
    double sec = 0, cpu = 0;
    std::uintmax_t bytes = 0;
    double rate() const { return sec > 0 ? mb(bytes) / sec : 0; }        // MB per second of wall time
    double cpuRate() const { return cpu > 0 ? mb(bytes) / cpu : 0; }     // MB per CPU second
};

void printStage(const char* name, const Stage& st) {
    if (st.bytes)
        fmt::print("  {:<30} {:>8.3f} s  {:>8.1f} MB/s  CPU {:.3f} s = {:>6.1f} MB per CPU-s  ({:.1f} MB)\n",
                   name, st.sec, st.rate(), st.cpu, st.cpuRate(), mb(st.bytes));
    else
        fmt::print("  {:<30} {:>8.3f} s  CPU {:.3f} s\n", name, st.sec, st.cpu);
}

Stage timedStage(int runs, std::uintmax_t bytes, const std::function<void()>& f) {
    Stage st;
    st.bytes = bytes;
    st.sec = timed(runs, f, nullptr, &st.cpu);
    return st;
}

// The loader's stages one by one in this process (the loader overlaps the tables with the trace).
// The side files and the trace are compared with each other, so they are timed in rounds: each round reads
// every one of them once, in turn, and each figure is the median over the rounds. A burst of load from
// elsewhere on a shared machine then falls on one round of each, not on all runs of one stage. Stages are
// short (0.02-2 s), so there are at least kStageRounds rounds whatever --runs says; and each side file is
// also compared with the trace round by round (its rate over the trace's in the same round), which a slow
// round moves less than it moves either median.
constexpr int kStageRounds = 7;
void stages(const bs::RankFolder& rank, const bs::RankFiles& files, const std::string& trace, int runs) {
    // The side files on 1 and on 2 threads (the loader uses 2 only with 4+ hardware threads:
    // sideFileThreads); the trace always on 2 (its reader thread and its parse).
    struct Timed {
        const char* name;
        std::uintmax_t bytes;
        std::function<void()> f;
        std::vector<double> sec, cpu;
    };
    std::vector<Timed> all;
    auto readCsv = [&](int threads) {
        return [&files, threads] {
            bs::Profile p;
            bs::FindingSink s;
            bs::readKernelTable(files.kernelDetails, bs::KernelSource::KernelDetails, p, s, nullptr, threads);
        };
    };
    auto readComm = [&](int threads) {
        return [&files, threads] {
            bs::Profile p;
            bs::FindingSink s;
            bs::readCommunicationJson(files.communication, p, s, threads);
        };
    };
    enum { kCsv1 = 0, kComm1, kCsv2, kComm2, kTrace };
    all.push_back({"stage kernel CSV, 1 thread",
                   files.kernelDetails.empty() ? 0 : sizeOf(files.kernelDetails),
                   readCsv(1),
                   {},
                   {}});
    all.push_back({"stage comm.json, 1 thread",
                   files.communication.empty() ? 0 : sizeOf(files.communication),
                   readComm(1),
                   {},
                   {}});
    all.push_back({"stage kernel CSV, 2 threads", all[kCsv1].bytes, readCsv(2), {}, {}});
    all.push_back({"stage comm.json, 2 threads", all[kComm1].bytes, readComm(2), {}, {}});
    all.push_back({"stage trace JSON, 2 threads",
                   trace.empty() ? 0 : sizeOf(trace),
                   [&trace] {
                       bs::Profile p;
                       bs::FindingSink s;
                       bs::readTraceJson(trace, p, s);
                   },
                   {},
                   {}});
    const int rounds = std::max(runs, kStageRounds);
    for (int r = 0; r < rounds; ++r)
        for (auto& t : all) {
            if (!t.bytes) continue;
            const double c0 = processCpuSeconds();
            const auto t0 = Clock::now();
            t.f();
            t.sec.push_back(since(t0));
            t.cpu.push_back(processCpuSeconds() - c0);
        }
    Stage st[5];
    for (int k = 0; k < 5; ++k) {
        if (!all[k].bytes) continue;
        st[k] = {median(all[k].sec), median(all[k].cpu), all[k].bytes};
        printStage(all[k].name, st[k]);
    }
    if (st[kTrace].bytes) {
        const Stage& tr = st[kTrace];
        // Side files against the trace's rate (issue 18): per CPU second (what a file costs the machine,
        // whatever its threads) and per wall second with both on two threads.
        auto verdict = [&](const char* what, int k1, const Stage& one, const Stage& two) {
            if (!one.bytes) return;
            fmt::print("  {:<30} per CPU-s {:.1f} vs trace {:.1f} MB ({}), wall on 2 threads {:.1f} vs "
                       "trace {:.1f} MB/s ({}); the whole file takes {:.0f} % of the trace's wall time\n",
                       what, one.cpuRate(), tr.cpuRate(), one.cpuRate() >= tr.cpuRate() ? ">=" : "BELOW",
                       two.rate(), tr.rate(), two.rate() >= tr.rate() ? ">=" : "BELOW",
                       100.0 * one.sec / tr.sec);
            // Round by round: (file MB per CPU-s) / (trace MB per CPU-s) of the same round.
            std::vector<double> ratio;
            for (std::size_t r = 0; r < all[k1].cpu.size() && r < all[kTrace].cpu.size(); ++r)
                if (all[k1].cpu[r] > 0 && all[kTrace].cpu[r] > 0)
                    ratio.push_back((static_cast<double>(one.bytes) / all[k1].cpu[r]) /
                                    (static_cast<double>(tr.bytes) / all[kTrace].cpu[r]));
            if (ratio.empty()) return;
            const auto [lo, hi] = std::minmax_element(ratio.begin(), ratio.end());
            fmt::print("  {:<30} per CPU-s, round by round: {:.2f} x the trace's rate (median of {} rounds; "
                       "{:.2f}-{:.2f}) ({})\n",
                       "", median(ratio), ratio.size(), *lo, *hi, median(ratio) >= 1.0 ? ">=" : "BELOW");
        };
        verdict("kernel CSV vs trace", kCsv1, st[kCsv1], st[kCsv2]);
        verdict("comm.json vs trace", kComm1, st[kComm1], st[kComm2]);
    }
    bs::LoadResult loaded;
    printStage("stage load (all files)", timedStage(runs, 0, [&] { loaded = bs::loadRank(rank); }));
    bs::AnalysisResult result;
    printStage("stage analysis", timedStage(runs, 0, [&] { result = bs::analyzeProfile(*loaded.profile); }));
    printStage("stage render JSON", timedStage(runs, 0, [&] { (void)bs::renderJson(*loaded.profile, result); }));
}

} // namespace

std::size_t barePass(const std::string& path, double& seconds) {
    auto t = Clock::now();
    simdjson::padded_string json;
    if (simdjson::padded_string::load(path).get(json)) return 0;
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document doc;
    std::size_t n = 0, fields = 0;
    if (parser.iterate(json).get(doc)) return 0;
    simdjson::ondemand::array arr;
    if (doc.get_array().get(arr)) return 0;
    for (auto el : arr) {
        simdjson::ondemand::object obj;
        if (el.get_object().get(obj)) break;
        for (auto f : obj) {
            std::string_view k;
            if (f.unescaped_key().get(k)) break;
            ++fields;
        }
        ++n;
    }
    seconds = since(t);
    return n + (fields == 0);
}

double warmPageCache(const std::string& folder, double& cachedMb) {
    namespace fs = std::filesystem;
    std::uintmax_t total = 0, cached = 0;
    std::vector<char> buf(1 << 20);
    std::error_code ec;
    const long page = ::sysconf(_SC_PAGESIZE);
    auto one = [&](const fs::path& f) {
        const int fd = ::open(f.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) return;
        struct stat st {};
        if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
            const auto size = static_cast<std::size_t>(st.st_size);
            total += size;
            if (void* m = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0); m != MAP_FAILED) {
                std::vector<unsigned char> in((size + page - 1) / page);
                if (::mincore(m, size, in.data()) == 0)
                    for (std::size_t i = 0; i < in.size(); ++i)
                        if (in[i] & 1) cached += std::min<std::uintmax_t>(page, size - i * page);
                ::munmap(m, size);
            }
            while (::read(fd, buf.data(), buf.size()) > 0) {
            }
        }
        ::close(fd);
    };
    if (fs::is_regular_file(folder, ec))
        one(folder);
    else
        for (auto it = fs::recursive_directory_iterator(folder, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
            if (it->is_regular_file(ec)) one(it->path());
    cachedMb = mb(cached);
    return mb(total);
}

Figures startProcesses(const std::string& label, const std::string& path) {
    Figures fig;
    fig.label = label;
    fig.path = path;
    fig.folderMb = warmPageCache(path, fig.cachedMbBeforeProcesses);
    return fig;
}

void runProcessOnce(const std::string& exe, Figures& fig) {
    double cached = 0;
    if (!fig.processRuns.empty()) warmPageCache(fig.path, cached); // runs can outlast the page cache's minute
    const std::string out =
        (std::filesystem::temp_directory_path() / "bubblescope-bench-headless.json").string();
    const ProcessRun r = runAnalyze(exe, fig.path, out);
    if (r.status != 0)
        fmt::print("{} run {}: exit status {}\n", fig.label, fig.processRuns.size() + 1, r.status);
    std::error_code ec;
    std::filesystem::remove(out, ec);
    fig.processRuns.push_back(r.seconds);
    fig.cpuRuns.push_back(r.cpuSeconds);
    fig.rssRuns.push_back(r.maxRssKb);
    fig.diskMbRuns.push_back(r.diskMb);
}

void finishProcesses(const std::string& exe, Figures& fig) {
    const ProcessRun text = runAnalyze(exe, fig.path, "");
    fig.textOnlyRssKb = text.status == 0 ? text.maxRssKb : 0;
    fig.processSec = median(fig.processRuns);
    fig.cpuSec = median(fig.cpuRuns);
    std::vector<long> rss = fig.rssRuns;
    std::sort(rss.begin(), rss.end());
    fig.rssKb = rss.empty() ? 0 : rss[rss.size() / 2];
}

std::vector<Figures> measureProcesses(const std::string& exe, const std::vector<Profile>& profiles,
                                      int runs) {
    std::vector<Figures> all;
    for (const auto& [label, path] : profiles)
        all.push_back(startProcesses(label, path));
    // Round by round: run i of every profile, then run i + 1 of every profile. A ratio between two
    // profiles (the 1 GB / 200 MB growth) then compares runs a few seconds apart, not runs minutes apart
    // on a machine whose neighbours come and go.
    for (int i = 0; i < runs; ++i)
        for (auto& fig : all)
            runProcessOnce(exe, fig);
    for (auto& fig : all)
        finishProcesses(exe, fig);
    return all;
}

void benchHeadless(Figures& fig, int runs, bool withStages) {
    auto found = bs::discoverProfiles(fig.path);
    if (found.ranks.empty()) {
        fmt::print("{}: {}\n", fig.label, bs::english(found.error));
        return;
    }
    const auto& rank = found.ranks[0];
    const auto files = bs::listRankFiles(rank);
    const std::string trace =
        !files.traceView.empty() ? files.traceView : (files.msprofJson.empty() ? "" : files.msprofJson[0]);
    fig.traceBytes = sizeOf(trace);
    fmt::print("\n== {}  ({})\n", fig.label, rank.root);
    fig.folderMb = warmPageCache(fig.path, fig.cachedMbBeforeStages);
    // This project's VMs page out page cache left unread for a minute (DAMON): a timed run that reads
    // the disk measures the disk. The folder is read once before each part; what was cached says how
    // much that mattered.
    fmt::print(
        "  page cache: {:.1f} of the folder's {:.1f} MB cached before the processes, {:.1f} before the "
        "rest; read once before each\n",
        fig.cachedMbBeforeProcesses, fig.folderMb, fig.cachedMbBeforeStages);

    std::vector<double> bare;
    std::size_t events = 0;
    fig.bareSec = timed(
        runs,
        [&] {
            double s = 0;
            events = barePass(trace, s);
        },
        &bare);
    fig.events = events;
    fig.bareMinSec = bare.empty() ? 0 : *std::min_element(bare.begin(), bare.end());
    const std::uintmax_t csv = sizeOf(files.kernelDetails), comm = sizeOf(files.communication);
    fmt::print("  shape: {} events, {:.1f} bytes/event, trace {:.1f} MB, kernel CSV {:.1f} MB, "
               "communication.json {:.1f} MB\n",
               events, events ? static_cast<double>(fig.traceBytes) / static_cast<double>(events) : 0.0,
               mb(fig.traceBytes), mb(csv), mb(comm));
    fmt::print("  {:<30} {} (median {:.3f} s)  {:>8.1f} MB/s of trace JSON\n", "analyze --json process (s)",
               list(fig.processRuns), fig.processSec, mb(fig.traceBytes) / fig.processSec);
    fmt::print("  {:<30} {} (median {:.3f} s; the machine is shared: CPU is the steadier figure)\n",
               "analyze --json CPU user+sys (s)", list(fig.cpuRuns), fig.cpuSec);
    fmt::print("  {:<30} {}\n", "read from the disk (MB)", list(fig.diskMbRuns));
    fmt::print("  {:<30} {} (median {:.3f} s)  {:>8.1f} MB/s\n", "bare simdjson pass (s)", list(bare),
               fig.bareSec, mb(fig.traceBytes) / fig.bareSec);
    fmt::print("  {:<30} {:>8.2f} x  (target <= 2.0)\n", "ratio process / bare",
               fig.processSec / fig.bareSec);
    // The bare pass reads the whole trace into one fresh buffer: at 1 GB its runs spread 1.4-4.5 s here (the
    // VM's first touch of fresh memory), so the ratio to the fastest of them is printed too.
    fmt::print("  {:<30} {:>8.2f} x  (to the fastest bare pass, {:.3f} s)\n", "ratio process / fastest bare",
               fig.processSec / fig.bareMinSec, fig.bareMinSec);
    fmt::print("  {:<30} {:>8.1f} MB  ({:.2f} x trace; target <= 1.0)\n", "peak RSS (wait4, median)",
               fig.rssKb / 1024.0, fig.ratioRss());
    if (withStages) stages(rank, files, trace, runs);
}

void printSummary(const std::vector<Figures>& all) {
    fmt::print("\n{:<24} {:>10} {:>7} {:>9} {:>9} {:>7} {:>9} {:>8} {:>8} {:>8}\n", "label", "events", "B/ev",
               "trace MB", "process s", "CPU s", "MB/s", "/ bare", "/ fastest", "RSS/tr");
    for (const auto& f : all)
        fmt::print("{:<24} {:>10} {:>7.1f} {:>9.1f} {:>9.3f} {:>7.3f} {:>9.1f} {:>7.2f}x {:>8.2f}x {:>7.2f}x\n",
                   f.label, f.events,
                   f.events ? static_cast<double>(f.traceBytes) / static_cast<double>(f.events) : 0.0,
                   mb(f.traceBytes), f.processSec, f.cpuSec, mb(f.traceBytes) / f.processSec,
                   f.processSec / f.bareSec, f.processSec / f.bareMinSec, f.ratioRss());
    // Linear growth: for labels PREFIX-200MB and PREFIX-1GB, the time ratio beside the size ratio.
    for (const auto& big : all) {
        const auto dash = big.label.rfind("-1GB");
        if (dash == std::string::npos) continue;
        for (const auto& small : all)
            if (small.label == big.label.substr(0, dash) + "-200MB") {
                // The same round's runs of both sizes, a few seconds apart: the steadier figure.
                std::vector<double> wall, cpu;
                for (std::size_t r = 0; r < big.processRuns.size() && r < small.processRuns.size(); ++r) {
                    if (small.processRuns[r] > 0) wall.push_back(big.processRuns[r] / small.processRuns[r]);
                    if (small.cpuRuns[r] > 0) cpu.push_back(big.cpuRuns[r] / small.cpuRuns[r]);
                }
                fmt::print("{}: 1 GB / 200 MB time {:.2f} x for {:.2f} x the bytes (target <= 5.5); round by "
                           "round: wall {:.2f} x, CPU {:.2f} x (medians of {} rounds)\n",
                           big.label.substr(0, dash), big.processSec / small.processSec,
                           static_cast<double>(big.traceBytes) / static_cast<double>(small.traceBytes),
                           median(wall), median(cpu), wall.size());
            }
    }
}

} // namespace benchheadless
