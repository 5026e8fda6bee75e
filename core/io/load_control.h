#pragma once
// Cancellation and progress for long loads; shared by the headless command and the GUI's job.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace bs {

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
