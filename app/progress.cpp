#include "progress.h"

#include "i18n/message.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/ioctl.h>
#include <unistd.h>

namespace bs::cli {

namespace {

static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs a lock-free flag");
std::atomic<bool> g_cancel{false};
std::atomic<bool> g_writing{false};
std::atomic<bool> g_clearLine{false};

void writeAll(const char* s, std::size_t n) { // async-signal-safe
    while (n > 0) {
        const ssize_t w = ::write(2, s, n);
        if (w <= 0) return;
        s += w;
        n -= static_cast<std::size_t>(w);
    }
}

void sayInterrupted() { // async-signal-safe
    static constexpr char clear[] = "\r\033[K";
    static constexpr char msg[] = "bubblescope: interrupted\n";
    if (g_clearLine.load()) writeAll(clear, sizeof clear - 1);
    writeAll(msg, sizeof msg - 1);
}

extern "C" void onInterrupt(int) {
    g_cancel.store(true);
    // Nothing is being written: nothing can be left half done. Otherwise the writer exits after its file.
    if (!g_writing.load()) {
        sayInterrupted();
        ::_exit(kExitInterrupted);
    }
}

std::string minutes(double seconds) {
    const long s = static_cast<long>(seconds + 0.5);
    char buf[32];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
}

std::string megabytes(std::uint64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", static_cast<double>(bytes) / 1048576.0);
    return buf;
}

// Cuts `s` to `columns` terminal columns (wide East Asian characters count two) at a character boundary,
// so the line never wraps (a wrapped line cannot be redrawn with \r).
std::string fitColumns(const std::string& s, int columns) {
    int used = 0;
    std::size_t i = 0;
    while (i < s.size()) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const std::size_t len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        const int width = c >= 0xE1 ? 2 : 1; // U+1100 and above: CJK, Hangul, fullwidth forms
        if (used + width > columns) return s.substr(0, i);
        used += width;
        i += len;
    }
    return s;
}

int terminalColumns() {
    winsize ws{};
    if (::ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    return 80;
}

} // namespace

ProgressMode chooseProgressMode(bool quiet, bool lines) {
    if (quiet) return ProgressMode::Off;
    if (lines) return ProgressMode::Lines;
    // BUBBLESCOPE_PROGRESS sets what the options leave open: a log viewer that renders carriage returns
    // wants the redrawn line without a terminal; a batch setup wants lines without adding --progress to
    // every call.
    if (const char* env = std::getenv("BUBBLESCOPE_PROGRESS"); env && *env) {
        const std::string v(env);
        if (v == "terminal") return ProgressMode::Terminal;
        if (v == "lines") return ProgressMode::Lines;
        if (v == "off") return ProgressMode::Off;
        std::fprintf(
            stderr,
            "bubblescope: BUBBLESCOPE_PROGRESS=%s is not one of terminal, lines, off; it is ignored\n", env);
    }
    return ::isatty(2) ? ProgressMode::Terminal : ProgressMode::Off;
}

Progress::Progress(ProgressMode mode, bool quiet) : mode_(mode), quiet_(quiet) {
    if (const char* env = std::getenv("BUBBLESCOPE_PROGRESS_TICK_MS"); env && *env) {
        char* end = nullptr;
        const long ms = std::strtol(env, &end, 10);
        if (*end == '\0' && ms > 0 && ms <= 60000) tick_ = std::chrono::milliseconds(ms);
    }
    if (mode_ == ProgressMode::Terminal && tick_.count() == 0) ticker_ = std::thread([this] { tick(); });
}

Progress::Clock::time_point Progress::now() const { return tick_.count() ? drivenNow_ : Clock::now(); }

// The driven clock's redraw: on a new phase at once, else at most every 100 ms of its time, as tick() does.
void Progress::redraw(bool phaseChanged) {
    if (mode_ != ProgressMode::Terminal || tick_.count() == 0 || phase_ == Phase::Idle) return;
    if (!phaseChanged && now() - lastDraw_ < std::chrono::milliseconds(100)) return;
    if (draw()) lastDraw_ = now();
}

bool Progress::draw() {
    const std::string line = fitColumns(describe(now()), terminalColumns() - 1);
    if (line == lastLine_ && shown_) return false;
    std::fprintf(stderr, "\r%s\033[K", line.c_str());
    std::fflush(stderr);
    shown_ = true;
    lastLine_ = line;
    return true;
}

Progress::~Progress() { finish(); }

void Progress::finish() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
        clearLine();
    }
    wake_.notify_all();
    if (ticker_.joinable()) ticker_.join();
}

void Progress::pause() {
    std::lock_guard lock(mutex_);
    phase_ = Phase::Idle;
    detail_.clear();
    clearLine();
}

void Progress::discovering(const std::string& path) {
    std::lock_guard lock(mutex_);
    setPhase(Phase::Discovering, path);
}

void Progress::setRankCount(std::size_t n) {
    std::lock_guard lock(mutex_);
    ranks_ = std::max<std::size_t>(n, 1);
}

void Progress::startRank(std::size_t index, const std::string& label) {
    std::lock_guard lock(mutex_);
    rank_ = index;
    rankLabel_ = label;
    rankStart_ = now();
    done_ = total_ = 0;
    phase_ = Phase::Idle; // a line for the new rank in Lines mode even when its first phase is the same
    setPhase(Phase::ReadingTables, "");
}

void Progress::loaded(const std::string& stage, std::uint64_t done, std::uint64_t total) {
    std::lock_guard lock(mutex_);
    if (stage == "trace" && total > 0) {
        drivenNow_ += tick_;
        // Rounded: the last report of a file may stop a byte short of its size (a final newline).
        if ((done * 100 + total / 2) / total >= 100) return setPhase(Phase::ReadingTables, "");
        if (phase_ != Phase::ReadingTrace || total != total_) {
            readStart_ = now();
            lastTenth_ = -1;
        }
        done_ = done;
        total_ = total;
        setPhase(Phase::ReadingTrace, "");
        const int tenth = static_cast<int>(done * 10 / total);
        if (tenth > lastTenth_) {
            if (lastTenth_ >= 0 && mode_ == ProgressMode::Lines) emitLine(describe(now()));
            lastTenth_ = tenth;
        }
        redraw(false);
    } else if (stage.rfind("sqlite ", 0) == 0) {
        setPhase(Phase::ReadingDatabase, stage.substr(7));
    } else if (stage == "done") {
        setPhase(Phase::Analysing, "");
    } else if (stage == "kernels") {
        setPhase(Phase::ReadingTables, "");
    }
}

void Progress::analysing() {
    std::lock_guard lock(mutex_);
    setPhase(Phase::Analysing, "");
}

void Progress::comparingRanks() {
    std::lock_guard lock(mutex_);
    setPhase(Phase::Comparing, "");
}

void Progress::writing(const std::string& name) {
    std::lock_guard lock(mutex_);
    setPhase(Phase::Writing, name);
}

void Progress::rankDone() {
    std::lock_guard lock(mutex_);
    ranksDone_ = rank_ + 1;
}

void Progress::error(const std::string& line) {
    std::lock_guard lock(mutex_);
    clearLine();
    std::fprintf(stderr, "%s\n", bs::render(line).c_str()); // messages from core in the --lang language
}

void Progress::note(const std::string& line) {
    if (quiet_) return;
    std::lock_guard lock(mutex_);
    clearLine();
    std::fprintf(stderr, "%s\n", bs::render(line).c_str());
}

void Progress::aside(const std::function<void()>& print) {
    std::lock_guard lock(mutex_);
    clearLine();
    print();
    if (mode_ == ProgressMode::Terminal && ::isatty(1)) std::fflush(stdout); // shown before the line is redrawn
}

void Progress::setPhase(Phase p, const std::string& detail) {
    if (p == phase_ && detail == detail_) return;
    phase_ = p;
    detail_ = detail;
    if (mode_ == ProgressMode::Lines) emitLine(describe(now()));
    redraw(true);
}

std::string Progress::describe(Clock::time_point now) const {
    std::string s = "bubblescope: ";
    if (mode_ == ProgressMode::Lines) s += "[" + minutes(std::chrono::duration<double>(now - start_).count()) + "] ";
    if (ranks_ > 1 && phase_ != Phase::Discovering && phase_ != Phase::Comparing)
        s += "rank " + std::to_string(rank_ + 1) + "/" + std::to_string(ranks_) + " " + rankLabel_ + ": ";
    switch (phase_) {
    case Phase::Idle: break;
    case Phase::Discovering: s += "discovering profiles under " + detail_; break;
    case Phase::ReadingTrace:
        s += "reading trace " + std::to_string(done_ * 100 / std::max<std::uint64_t>(total_, 1)) + "% (" +
             megabytes(done_) + " of " + megabytes(total_) + " MB)";
        break;
    case Phase::ReadingTables: s += "reading tables"; break;
    case Phase::ReadingDatabase: s += "reading database (" + detail_ + ")"; break;
    case Phase::Analysing: s += "analysing"; break;
    case Phase::Comparing: s += "comparing " + std::to_string(ranks_) + " ranks"; break;
    case Phase::Writing: s += "writing " + detail_; break;
    }
    if (mode_ == ProgressMode::Terminal) {
        s += "  " + minutes(std::chrono::duration<double>(now - start_).count());
        if (const std::string e = eta(now); !e.empty()) s += ", ETA " + e;
    }
    return s;
}

// Estimated from the ranks done so far, and within a rank from the share of its trace read (the read
// dominates a rank's time). Unknown until there is something to extrapolate from.
std::string Progress::eta(Clock::time_point now) const {
    const double sinceStart = std::chrono::duration<double>(now - start_).count();
    const double inRank = std::chrono::duration<double>(now - rankStart_).count();
    if (ranksDone_ > 0 && ranks_ > 1) {
        const double perRank = std::chrono::duration<double>(rankStart_ - start_).count() / ranksDone_;
        return minutes(std::max(0.0, perRank * static_cast<double>(ranks_ - ranksDone_) - inRank));
    }
    if (phase_ != Phase::ReadingTrace || total_ == 0 || sinceStart < 0.3) return {};
    const double frac = static_cast<double>(done_) / static_cast<double>(total_);
    const double reading = std::chrono::duration<double>(now - readStart_).count();
    if (frac < 0.02 || reading <= 0) return {};
    const double rankTime = inRank - reading + reading / frac; // time this rank's read would take in all
    return minutes(std::max(0.0, rankTime * static_cast<double>(ranks_ - rank_) - inRank));
}

void Progress::clearLine() {
    if (!shown_) return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    shown_ = false;
}

void Progress::emitLine(const std::string& text) {
    std::fprintf(stderr, "%s\n", text.c_str());
    std::fflush(stderr);
}

void Progress::tick() {
    std::unique_lock lock(mutex_);
    // A run done in a quarter of a second shows no line at all (no flicker).
    wake_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stop_; });
    while (!stop_) {
        if (phase_ != Phase::Idle && !g_cancel.load()) draw();
        wake_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stop_; });
    }
}

const std::atomic<bool>& cancelFlag() { return g_cancel; }

void installInterruptHandler(bool clearLine) {
    g_clearLine.store(clearLine);
    struct sigaction sa {};
    sa.sa_handler = onInterrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART; // a file being written goes on writing
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGTERM, &sa, nullptr);
}

void clearLineOnInterrupt(bool clearLine) { g_clearLine.store(clearLine); }

void exitInterrupted() {
    sayInterrupted();
    ::_exit(kExitInterrupted);
}

OutputWriteGuard::OutputWriteGuard(bool isFile) : active_(isFile) {
    if (!active_) return;
    g_writing.store(true);
    if (g_cancel.load()) exitInterrupted(); // interrupted just before: this file is not started
}

OutputWriteGuard::~OutputWriteGuard() {
    if (!active_) return;
    g_writing.store(false); // from here on the handler exits by itself
    if (g_cancel.load()) exitInterrupted(); // interrupted during the write: the file is complete
}

} // namespace bs::cli
