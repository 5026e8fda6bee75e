#include "io/memory_estimate.h"

#include "io/discovery.h"
#include "io/load_control.h"

#include <filesystem>
#include <system_error>

namespace bs {

namespace {

std::uint64_t sizeOf(const std::string& p) {
    std::error_code ec;
    const auto n = std::filesystem::file_size(p, ec);
    return ec ? 0 : static_cast<std::uint64_t>(n);
}

// Per byte of each file (peak RSS of `bubblescope analyze --json` over the file's share, generated
// profiles; core/README.md, "Memory estimate"), as exact fractions so that a limit compares at its byte:
constexpr std::uint64_t kBaseBytes = 30ull << 20; // the process itself: Qt, the libraries, the string pool
struct Factor {
    std::uint64_t num, den;
};
constexpr Factor kTrace{45, 100}; // the timeline's events and flows (1-10 GB shapes: 0.45 x)
constexpr Factor kTable{12, 10};  // kernels and their PMU floats, with the JSON export in memory (1.1-1.7 x)
constexpr Factor kSide{64, 1};    // step_trace_time / op_statistic: a name → value map per row (~62 x)
constexpr Factor kComm{15, 10};   // communication.json, streamed: its ops and the windows they make (1.2 x)
constexpr Factor kJsonDom{36, 1}; // profiler_info: a JSON DOM (nlohmann, up to ~34 x)
constexpr Factor kDb{3, 1};       // the SQLite export: the model, the join tables and its mapped pages (3.1 x)
constexpr Factor kMargin{11, 10};

std::uint64_t times(std::uint64_t bytes, Factor f) {
    return bytes / f.den * f.num + bytes % f.den * f.num / f.den;
}

} // namespace

MemoryEstimate estimateLoadMemory(const RankFiles& files, DataSource source) {
    MemoryEstimate e;
    if (!files.traceView.empty()) e.traceBytes += sizeOf(files.traceView);
    for (const auto& p : files.msprofJson)
        e.traceBytes += sizeOf(p);
    if (!files.kernelDetails.empty()) {
        e.tableBytes += sizeOf(files.kernelDetails);
    } else {
        for (const auto& p : files.opSummary)
            e.tableBytes += sizeOf(p);
        for (const auto& p : files.taskTime)
            e.tableBytes += sizeOf(p);
    }
    if (!files.stepTraceTime.empty()) e.sideBytes += sizeOf(files.stepTraceTime);
    if (!files.opStatistic.empty()) e.sideBytes += sizeOf(files.opStatistic);
    if (!files.communication.empty()) e.commBytes = sizeOf(files.communication);
    for (const auto& p : files.profilerInfo)
        e.jsonBytes += sizeOf(p);
    if (source == DataSource::Db || (source == DataSource::Auto && !hasTextExport(files)))
        for (const auto& p : files.sqliteExports)
            e.dbBytes += sizeOf(p);
    e.needBytes = times(kBaseBytes + times(e.traceBytes, kTrace) + times(e.tableBytes, kTable) +
                            times(e.sideBytes, kSide) + times(e.commBytes, kComm) + times(e.jsonBytes, kJsonDom) +
                            times(e.dbBytes, kDb),
                        kMargin);
    return e;
}

} // namespace bs
