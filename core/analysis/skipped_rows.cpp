#include "analysis/skipped_rows.h"

#include <algorithm>
#include <limits>

namespace bs {

namespace {

bool skipsARow(const Finding& f) {
    return f.id == "csv_field_count" || f.id == "csv_bad_time" || f.id == "timestamp_scale_mixed";
}

// A skipped row and the start times of the kernels on the nearest read lines around it.
struct Bounds {
    const Finding* finding = nullptr;
    TimeNs after = std::numeric_limits<TimeNs>::min();  // start of the kernel on line s⁻ (none: −∞)
    TimeNs before = std::numeric_limits<TimeNs>::max(); // start of the kernel on line s⁺ (none: +∞)
    long long below = 0, above = std::numeric_limits<long long>::max();
};

} // namespace

std::vector<std::vector<SkippedRow>> skippedRowsInWindows(const Profile& p,
                                                          const std::vector<Finding>& findings,
                                                          const std::vector<BubbleWindow>& windows) {
    std::vector<std::vector<SkippedRow>> out(windows.size());
    const std::string& table = p.inventory.kernelSourceFile;
    if (table.empty() || p.inventory.kernelSource == KernelSource::TraceDevice) return out;
    std::vector<Bounds> rows;
    for (const auto& f : findings)
        if (skipsARow(f) && f.line > 0 && f.file == table) rows.push_back({&f});
    if (rows.empty()) return out;
    std::sort(rows.begin(), rows.end(),
              [](const Bounds& x, const Bounds& y) { return x.finding->line < y.finding->line; });
    // One pass over the kernels: each read line is the nearest one below the first skipped line above
    // it, and the nearest one above the last skipped line below it.
    for (const auto& k : p.kernels) {
        if (k.sourceLine == 0) continue;
        const auto line = static_cast<long long>(k.sourceLine);
        auto it = std::upper_bound(rows.begin(), rows.end(), line,
                                   [](long long l, const Bounds& b) { return l < b.finding->line; });
        if (it != rows.end() && line > it->below) it->below = line, it->after = k.start;
        if (it != rows.begin()) {
            auto& b = *std::prev(it);
            if (line < b.above) b.above = line, b.before = k.start;
        }
    }
    // Skipped rows next to each other share their bounds (no read line between them).
    for (std::size_t i = 1; i < rows.size(); ++i)
        if (rows[i].below == 0) rows[i].below = rows[i - 1].below, rows[i].after = rows[i - 1].after;
    for (std::size_t i = rows.size() - 1; i-- > 0;)
        if (rows[i].above == std::numeric_limits<long long>::max())
            rows[i].above = rows[i + 1].above, rows[i].before = rows[i + 1].before;
    for (std::size_t i = 0; i < windows.size(); ++i)
        for (const auto& b : rows)
            if (b.after < windows[i].span.b && b.before > windows[i].span.a)
                out[i].push_back({b.finding->file, b.finding->line, b.finding->id});
    return out;
}

} // namespace bs
