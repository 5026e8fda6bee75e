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

bool hasText(const RankFiles& f) {
    return !f.kernelDetails.empty() || !f.opSummary.empty() || !f.taskTime.empty() || !f.traceView.empty() ||
           !f.msprofJson.empty();
}

// Per byte of each file (peak RSS of `bubblescope analyze --json` over the file's share, generated
// profiles; core/README.md, "Memory estimate"):
constexpr double kBaseBytes = 40.0 * 1048576; // the process itself: Qt, the libraries, the string pool
constexpr double kTrace = 0.45;               // the timeline's events and flows (1 GB shape: 0.45 x)
constexpr double kTable = 1.2;    // kernels and their PMU floats; with the JSON export in memory (1.1-1.7 x)
constexpr double kSide = 64.0;    // step_trace_time / op_statistic: a name → value map per row (~62 x)
constexpr double kComm = 1.5;     // communication.json, streamed: its ops and the windows they make (1.2 x)
constexpr double kJsonDom = 36.0; // profiler_info: a JSON DOM (nlohmann, up to ~34 x)
constexpr double kDb = 3.0; // the SQLite export: the model, the join tables and its mapped pages (3.1 x)
constexpr double kMargin = 1.1;

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
    if (source == DataSource::Db || (source == DataSource::Auto && !hasText(files)))
        for (const auto& p : files.sqliteExports)
            e.dbBytes += sizeOf(p);
    const auto d = [](std::uint64_t v) { return static_cast<double>(v); };
    e.needBytes = (kBaseBytes + kTrace * d(e.traceBytes) + kTable * d(e.tableBytes) + kSide * d(e.sideBytes) +
                   kComm * d(e.commBytes) + kJsonDom * d(e.jsonBytes) + kDb * d(e.dbBytes)) *
                  kMargin;
    return e;
}

} // namespace bs
