#pragma once
// Cancellation and progress for long loads; shared by the headless command and the GUI's job.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>

namespace bs {

// Threads a side-file reader (kernel table, communication.json) may use; `asked` 0 means: decide here.
// The loader reads the trace on two threads and the side files beside it on a third; a second thread per
// side file pays only where a core is left for it (4 or more). On 2 cores it made the whole load 6-10 %
// slower (more work, the same two cores), while reading the file alone took 1.5-1.8 x less time.
inline int sideFileThreads(int asked = 0) {
    if (asked > 0) return asked;
    return std::thread::hardware_concurrency() >= 4 ? 2 : 1;
}

// Which export to read when a folder holds both the text files and a SQLite export (.db).
enum class DataSource { Auto, Text, Db };

struct LoadControl {
    DataSource source = DataSource::Auto; // Auto: text when present, else the .db export
    const std::atomic<bool>* cancel = nullptr;
    // stage name, done, total (bytes or items); called at most every few MB.
    std::function<void(const std::string& stage, std::uint64_t done, std::uint64_t total)> progress;
    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
    void report(const std::string& stage, std::uint64_t done, std::uint64_t total) const {
        if (progress) progress(stage, done, total);
    }
};

} // namespace bs
