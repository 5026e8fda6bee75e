#pragma once
// The in-memory model of one rank's capture. Compact, interned, sorted; no Qt.
#include "model/finding.h"
#include "model/string_pool.h"
#include "model/task_type.h"
#include "model/time.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bs {

enum class KernelSource { None, KernelDetails, OpSummary, TaskTime, TraceDevice, SqliteTasks };
const char* kernelSourceName(KernelSource s);
struct Inventory;
// Where the profiler's own step breakdown came from: "step_trace_time.csv" or "analysis.db StepTraceTime".
const char* crossCheckSourceName(const Inventory& inv);
// Where kernels without a Stream ID got theirs: "the trace" or "their TASK rows" (SQLite export).
const char* streamRecoverySource(const Inventory& inv);

struct Kernel {
    TimeNs start = 0;
    TimeNs dur = 0;
    TimeNs wait = 0;
    StrId name = 0;
    StrId opType = 0;
    StrId taskType = 0; // as resolved by §1.1 (may be 0 = unknown)
    StrId inputShapes = 0;
    StrId inputDtypes = 0;
    StrId outputShapes = 0;
    StrId outputDtypes = 0;
    std::int32_t stream = -1; // -1 unknown
    std::int32_t stepId = -1; // Step Id column, -1 absent
    std::uint32_t blockDim = 0;
    std::int32_t pmuRow = -1; // row in Profile::pmu, -1 none
    std::uint32_t sourceLine = 0;
    TaskClass cls = TaskClass::Other;
    TimeNs end() const { return start + dur; }
};

// PMU columns kept by name (NaN when N/A). Dense — `values` row-major, a slot per column — when rows carry
// most columns (a kernel table's rows carry all of its header's). Sparse when they do not (an SQLite
// export's TASK_PMU_INFO may give each kernel a name of its own: a names x kernels matrix is then almost
// all NaN, 2.65 GB for a 3 MB file): row r's values are values[rowStart[r] … rowStart[r + 1]), their
// columns in cellColumn, ascending. Only the SQLite reader writes the sparse form (core/README.md).
struct PmuTable {
    std::vector<std::string> columns;
    std::vector<float> values;
    std::vector<std::uint32_t> cellColumn; // sparse: the column of each value
    std::vector<std::size_t> rowStart;     // sparse: rows + 1 offsets into values; empty when dense
    bool sparse() const { return !rowStart.empty(); }
    float at(std::size_t row, std::size_t col) const {
        if (!sparse()) return values[row * columns.size() + col];
        const auto first = cellColumn.begin() + static_cast<std::ptrdiff_t>(rowStart[row]);
        const auto last = cellColumn.begin() + static_cast<std::ptrdiff_t>(rowStart[row + 1]);
        const auto it = std::lower_bound(first, last, col);
        return it != last && *it == col ? values[static_cast<std::size_t>(it - cellColumn.begin())]
                                        : std::numeric_limits<float>::quiet_NaN();
    }
    std::optional<std::size_t> column(std::string_view name) const {
        for (std::size_t i = 0; i < columns.size(); ++i)
            if (columns[i] == name) return i;
        return std::nullopt;
    }
};

enum class LaneKind : unsigned char { Host, Device, Hccl, Overlap, OtherDevice };

struct Lane {
    std::uint64_t pid = 0;
    std::uint64_t tid = 0;
    LaneKind kind = LaneKind::Host;
};

struct ProcessInfo {
    std::string name;
    std::string labels;
    std::int64_t sortIndex = 0;
};
struct ThreadInfo {
    std::string name;
    std::int64_t sortIndex = 0;
};

enum EventFlags : std::uint16_t {
    EvHasStack = 1,     // args carry "Call stack"
    EvHasShapes = 2,    // args carry "Input Dims"
    EvFromBeginEnd = 4, // built from a B/E pair
    EvInstant = 8,      // 'i' event
};

// A complete trace event (X, B/E pair or i) on any lane.
struct TraceEvent {
    TimeNs ts = 0;
    TimeNs dur = 0;
    std::uint32_t lane = 0; // index into Profile::lanes
    StrId name = 0;
    StrId cat = 0;
    StrId taskType = 0;          // args."Task Type" (device lanes)
    std::int32_t streamArg = -1; // args."Stream Id" / "Physic Stream Id"
    std::uint16_t flags = 0;
    // args."Call stack" (host lanes; PYTORCH_CALLCHAINS in a SQLite export), interned once per distinct
    // stack: frames innermost first, separated by ";\r\n" ("/path/main.py(350): train"). 0 = none.
    StrId stack = 0;
    TimeNs end() const { return ts + dur; }
};

struct FlowEvent {
    TimeNs ts = 0;
    // Flow id: the integer itself (async_npu ids, HostToDevice string ids of digits), else a 64-bit
    // FNV-1a hash of the id text. Ids are unique per flow, so they are not interned.
    std::uint64_t id = 0;
    StrId cat = 0;
    std::uint32_t lane = 0;
    char phase = 's'; // 's' or 'f'
};

struct StepTraceRow {
    std::string step;
    std::map<std::string, double> values; // column → µs
    std::uint32_t line = 0;
};

struct CommOp {
    std::string step; // "step50"
    std::string kind; // collective / p2p
    std::string name;
    TimeNs start = 0;
    TimeNs elapse = 0, transit = 0, wait = 0, sync = 0, idle = 0;
    double transitSizeMB = 0;
};

struct InventoryFile {
    std::string role; // kernel_details, trace_view, …
    std::string path;
    std::uint64_t bytes = 0;
    std::uint64_t records = 0;
};

struct Inventory {
    std::string rankDir;   // the folder analysed
    std::string outputDir; // ASCEND_PROFILER_OUTPUT / mindstudio_profiler_output / the folder
    std::string layout;    // torch_npu / msprof / loose
    std::string rankLabel; // "rank0", from profiler_info or folder name
    // Which export was read: "text" (CSV / JSON files) or "sqlite" (ascend_pytorch_profiler_*.db +
    // analysis.db, msprof_*.db), with the database tables read and the expected ones that were absent.
    std::string source = "text";
    std::vector<std::string> dbTablesRead, dbTablesMissing;
    std::vector<InventoryFile> files;
    KernelSource kernelSource = KernelSource::None;
    std::string kernelSourceFile;
    std::string kernelDetailsLevel;       // "Level0", "Level1/2", "2023", ""
    std::size_t kernelsWithoutStream = 0; // kernel table rows without a Stream ID
    std::size_t streamsFromTrace = 0;     // of those, filled from the trace join
    std::size_t kernelsTaskTypeFromTrace = 0;
    // The collection config from profiler_info_*.json (empty / nullopt when absent): what was asked for,
    // so that advice names what the collection lacks instead of repeating what it already set.
    std::string profilerLevel; // "_profiler_level": "Level0" / "Level1" / "Level2"
    std::string aicMetrics;    // "_aic_metrics": "ACL_AICORE_PIPE_UTILIZATION", "ACL_AICORE_NONE", …
    std::optional<bool> recordShapes, withStack;
    std::optional<std::vector<std::string>> activities; // "ProfilerActivity.CPU", "ProfilerActivity.NPU"
    std::size_t traceEventCount = 0, counterEventCount = 0, metadataEventCount = 0;
    std::size_t truncatedAtByte = 0;
    bool traceTruncated = false;
    // Kernels taken from the trace (no kernel table): task types counted as kernels and those left out as
    // housekeeping, with their event counts (core/io/README.md, "Kernels from the trace").
    std::vector<std::pair<std::string, std::size_t>> traceTaskTypesCounted, traceTaskTypesSkipped;
};

struct Profile {
    StringPool strings;
    Inventory inventory;
    std::vector<Kernel> kernels; // sorted by (start, stream)
    PmuTable pmu;
    std::vector<Lane> lanes;
    std::map<std::uint64_t, ProcessInfo> processes;
    std::map<std::pair<std::uint64_t, std::uint64_t>, ThreadInfo> threads;
    std::vector<TraceEvent> hostEvents;    // non-device X/B-E/i events, sorted by ts
    std::vector<TraceEvent> deviceEvents;  // Ascend Hardware events, sorted by ts
    std::vector<TraceEvent> hcclEvents;    // HCCL process events
    std::vector<TraceEvent> overlapEvents; // Overlap Analysis lanes
    std::vector<FlowEvent> flows;
    std::vector<StepTraceRow> stepTrace;
    std::vector<CommOp> commOps;
    bool hasTrace = false;
    bool hasCommunicationJson = false;
    std::vector<Finding> loadFindings;

    std::string_view str(StrId id) const { return strings.view(id); }
    std::size_t modelBytes() const;
};

} // namespace bs
