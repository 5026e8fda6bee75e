#pragma once
// Helpers shared by the bench programs: wall time, peak RSS (VmHWM) and its reset, MB.
#include <chrono>
#include <cstdint>
#include <fstream>
#include <string>

namespace benchutil {

using Clock = std::chrono::steady_clock;

inline double since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

// Peak resident set size of this process in kB (-1 when /proc is unreadable).
inline long peakRssKb() {
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
    return -1;
}

// Resets VmHWM so the next phase's peak is its own.
inline void resetPeakRss() {
    std::ofstream f("/proc/self/clear_refs");
    f << "5";
}

inline double mb(std::uintmax_t bytes) {
    return static_cast<double>(bytes) / 1048576.0;
}

} // namespace benchutil
