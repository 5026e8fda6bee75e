#pragma once
// What `bubblescope analyze` shows on standard error while it works, and how Ctrl+C stops it.
//
// Progress: on a terminal, one line redrawn in place (at most 10 times a second) and cleared at the end;
// with --progress, plain lines (a line per phase, per 10 % of a file read, per rank) for batch logs;
// nothing when standard error is not a terminal or with --quiet. BUBBLESCOPE_PROGRESS (terminal, lines,
// off) chooses when neither option is given.
//
// Interruption: SIGINT/SIGTERM set the cancel flag that LoadControl::cancel points to. Loading and
// analysing write no file, so the handler ends the process at once (exit 130). While an output file is
// being written (temporary file + rename) it only sets the flag; the writer finishes that file and exits
// 130 right after it, so an output is the old file or the complete new one, never a temporary file.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace bs::cli {

constexpr int kExitInterrupted = 130; // 128 + SIGINT, as shells report it

enum class ProgressMode { Off, Terminal, Lines };

// Off with --quiet; Lines with --progress; else what BUBBLESCOPE_PROGRESS says (terminal, lines, off; any
// other value is named on standard error and ignored); else Terminal when standard error is a terminal.
ProgressMode chooseProgressMode(bool quiet, bool lines);

class Progress {
  public:
    Progress(ProgressMode mode, bool quiet);
    ~Progress(); // clears the line
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    ProgressMode mode() const { return mode_; }

    void discovering(const std::string& path);
    void setRankCount(std::size_t n);
    void startRank(std::size_t index, const std::string& label); // index from 0
    // LoadControl::progress: stage ("trace", "kernels", "sqlite TABLE", "done"), done, total.
    void loaded(const std::string& stage, std::uint64_t done, std::uint64_t total);
    void analysing();
    void comparingRanks();
    void writing(const std::string& name);
    void rankDone();
    // Clears the line until the next phase begins.
    void pause();
    // Clears the line for good (the run is over).
    void finish();

    // An error or a warning: always printed, on a line of its own (the progress line is redrawn after).
    void error(const std::string& line);
    // An informational line ("wrote FILE", the ranks found): not printed with --quiet.
    void note(const std::string& line);
    // Runs `print` (writing standard output, which may be the same terminal) with the line cleared.
    void aside(const std::function<void()>& print);

  private:
    enum class Phase { Idle, Discovering, ReadingTrace, ReadingTables, ReadingDatabase, Analysing, Comparing, Writing };
    using Clock = std::chrono::steady_clock;

    void setPhase(Phase p, const std::string& detail); // with mutex_ held
    std::string describe(Clock::time_point now) const; // with mutex_ held
    std::string eta(Clock::time_point now) const;      // with mutex_ held; empty when unknown
    void clearLine();                                  // with mutex_ held
    void emitLine(const std::string& text);            // Lines mode, with mutex_ held
    void tick();                                       // Terminal mode: the redraw thread
    Clock::time_point now() const;                     // the wall clock, or the driven one
    void redraw(bool phaseChanged);                    // Terminal mode, with mutex_ held
    bool draw();                                       // the line, unless it is already shown; mutex_ held

    const ProgressMode mode_;
    const bool quiet_;
    const Clock::time_point start_ = Clock::now();
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
    bool shown_ = false; // a progress line is on the terminal now
    Phase phase_ = Phase::Idle;
    std::string detail_; // the file being written, the table being read
    std::size_t ranks_ = 1, rank_ = 0, ranksDone_ = 0;
    std::string rankLabel_;
    Clock::time_point rankStart_ = start_, readStart_ = start_;
    std::uint64_t done_ = 0, total_ = 0;
    int lastTenth_ = -1; // Lines mode: the last 10 % step printed
    // BUBBLESCOPE_PROGRESS_TICK_MS: a clock driven by the input instead of the wall clock (tests): it
    // advances this much at each report of the trace reader, and the line is redrawn at the reports, so
    // what is shown depends on the input only, never on the machine's speed. Zero: the wall clock.
    Clock::duration tick_{0};
    Clock::time_point drivenNow_ = start_, lastDraw_ = start_;
    std::string lastLine_; // what draw() last showed
    std::thread ticker_;
};

// The flag Ctrl+C sets; pass it as LoadControl::cancel.
const std::atomic<bool>& cancelFlag();
// Installs the SIGINT/SIGTERM handler; `clearLine`: write "\r\033[K" before the message.
void installInterruptHandler(bool clearLine);
// Whether a progress line is drawn, which the handler clears before its message.
void clearLineOnInterrupt(bool clearLine);
// Prints "bubblescope: interrupted" and ends the process with exit status 130.
[[noreturn]] void exitInterrupted();

// Around the writing of one output file: an interruption before it skips the file, one during it lets
// the file complete; both end the process with 130 (in the constructor / destructor).
class OutputWriteGuard {
  public:
    explicit OutputWriteGuard(bool isFile);
    ~OutputWriteGuard();
    OutputWriteGuard(const OutputWriteGuard&) = delete;
    OutputWriteGuard& operator=(const OutputWriteGuard&) = delete;

  private:
    const bool active_;
};

} // namespace bs::cli
