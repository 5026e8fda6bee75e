#include "io/profile_loader.h"

#include "io/kernel_table_reader.h"
#include "io/side_file_readers.h"
#include "io/trace_json_reader.h"

#include <algorithm>
#include <filesystem>
#include <thread>

namespace bs {

namespace {

std::uint64_t fileSize(const std::string& p) {
    std::error_code ec;
    auto s = std::filesystem::file_size(p, ec);
    return ec ? 0 : static_cast<std::uint64_t>(s);
}

void addFile(Profile& prof, const std::string& role, const std::string& path, std::uint64_t records) {
    prof.inventory.files.push_back({role, path, fileSize(path), records});
}

// Fills task type and stream of CSV kernels from the device events of the trace, joining on the
// start time (kernel_details "Start Time(us)" equals the device event ts), preferring the same stream.
void joinWithTrace(Profile& prof) {
    if (prof.deviceEvents.empty()) return;
    const auto& ev = prof.deviceEvents;
    std::size_t typeFilled = 0, streamFilled = 0, streamMissing = 0;
    auto cursor = ev.begin();
    for (auto& k : prof.kernels) {
        const bool needType = prof.str(k.taskType).empty();
        const bool needStream = k.stream < 0;
        if (!needType && !needStream) continue;
        if (needStream) ++streamMissing;
        // Kernels are in start order: walk forward from the previous match instead of searching.
        while (cursor != ev.end() && cursor->ts < k.start) ++cursor;
        auto lo = cursor;
        const TraceEvent* best = nullptr;
        for (auto it = lo; it != ev.end() && it->ts == k.start; ++it) {
            const auto tid = static_cast<std::int64_t>(prof.lanes[it->lane].tid);
            const std::int64_t stream = it->streamArg >= 0 ? it->streamArg : tid;
            if (!best) best = &*it;
            if (k.stream >= 0 && stream == k.stream) {
                best = &*it;
                break;
            }
            if (k.stream < 0 && prof.str(it->name) == prof.str(k.name)) {
                best = &*it;
                break;
            }
        }
        if (!best) continue;
        if (needType && best->taskType) {
            k.taskType = best->taskType;
            k.cls = classifyTaskType(prof.str(k.taskType), prof.str(k.name));
            ++typeFilled;
        }
        if (needStream) {
            const auto tid = static_cast<std::int64_t>(prof.lanes[best->lane].tid);
            const std::int64_t stream = best->streamArg >= 0 ? best->streamArg : tid;
            if (stream >= 0 && stream < (1LL << 31)) {
                k.stream = static_cast<std::int32_t>(stream);
                ++streamFilled;
            }
        }
    }
    prof.inventory.kernelsTaskTypeFromTrace = typeFilled;
    prof.inventory.kernelsWithoutStream = streamMissing;
    prof.inventory.streamsFromTrace = streamFilled;
}

void kernelsFromTrace(Profile& prof) {
    for (const auto& e : prof.deviceEvents) {
        if (e.flags & EvInstant) continue;
        Kernel k;
        k.start = e.ts;
        k.dur = e.dur;
        k.name = e.name;
        k.taskType = e.taskType;
        const auto tid = static_cast<std::int64_t>(prof.lanes[e.lane].tid);
        const std::int64_t stream = e.streamArg >= 0 ? e.streamArg : tid;
        if (stream >= 0 && stream < (1LL << 31)) k.stream = static_cast<std::int32_t>(stream);
        k.cls = classifyTaskType(prof.str(k.taskType), prof.str(k.name));
        prof.kernels.push_back(k);
    }
}

} // namespace

namespace {

// Everything that is not the timeline: the kernel table (by priority) and the side files. Runs on its
// own thread with its own string pool while the trace is parsed; merged afterwards.
struct TablesResult {
    Profile side;
    FindingSink sink;
    std::vector<InventoryFile> kernelFiles, sideFiles;
};

void readTables(const RankFiles& files, TablesResult& t) {
    Profile& prof = t.side;
    FindingSink& sink = t.sink;
    auto add = [&](std::vector<InventoryFile>& to, const std::string& role, const std::string& path, std::uint64_t records) {
        to.push_back({role, path, fileSize(path), records});
    };
    if (!files.kernelDetails.empty()) {
        auto r = readKernelTable(files.kernelDetails, KernelSource::KernelDetails, prof, sink);
        add(t.kernelFiles, "kernel_details", files.kernelDetails, r.rows);
        if (r.kept > 0) {
            prof.inventory.kernelSource = KernelSource::KernelDetails;
            prof.inventory.kernelSourceFile = files.kernelDetails;
            prof.inventory.kernelDetailsLevel = r.level;
            if (r.pmuAllZero) {
                sink.add({"pmu_all_zero", Severity::Warning, files.kernelDetails, -1, -1,
                          "Every PMU column (aic_*/aiv_*) is zero.",
                          "Compute-bound / memory-bound verdicts are unavailable.",
                          "Collect with Level1 and aic_metrics=PipeUtilization (seed 003 problem 1).", "seed 003 problem 1"});
            }
        }
    }
    if (prof.inventory.kernelSource == KernelSource::None) {
        for (const auto& p : files.opSummary) {
            auto r = readKernelTable(p, KernelSource::OpSummary, prof, sink);
            add(t.kernelFiles, "op_summary", p, r.rows);
            if (r.kept > 0) {
                prof.inventory.kernelSource = KernelSource::OpSummary;
                prof.inventory.kernelSourceFile = p;
            }
        }
    } else {
        for (const auto& p : files.opSummary) add(t.kernelFiles, "op_summary (not used: kernel_details present)", p, 0);
    }
    if (prof.inventory.kernelSource == KernelSource::None) {
        for (const auto& p : files.taskTime) {
            auto r = readKernelTable(p, KernelSource::TaskTime, prof, sink);
            add(t.kernelFiles, "task_time", p, r.rows);
            if (r.kept > 0) {
                prof.inventory.kernelSource = KernelSource::TaskTime;
                prof.inventory.kernelSourceFile = p;
            }
        }
    } else {
        for (const auto& p : files.taskTime) add(t.kernelFiles, "task_time (not used)", p, 0);
    }
    if (!files.stepTraceTime.empty()) {
        readStepTraceTime(files.stepTraceTime, prof, sink);
        add(t.sideFiles, "step_trace_time", files.stepTraceTime, prof.stepTrace.size());
    }
    if (!files.communication.empty()) {
        readCommunicationJson(files.communication, prof, sink);
        add(t.sideFiles, "communication", files.communication, prof.commOps.size());
    }
    if (!files.opStatistic.empty()) add(t.sideFiles, "op_statistic", files.opStatistic, readOpStatistic(files.opStatistic, sink));
    for (const auto& p : files.sqliteExports) add(t.sideFiles, "sqlite export (not read)", p, 0);
}

// Moves the tables into the main profile, re-interning the kernels' strings into its pool.
void mergeTables(TablesResult& t, Profile& prof) {
    Profile& side = t.side;
    std::vector<StrId> remap(side.strings.size());
    for (StrId i = 0; i < side.strings.size(); ++i) remap[i] = prof.strings.intern(side.strings.view(i));
    prof.kernels = std::move(side.kernels);
    for (auto& k : prof.kernels) {
        k.name = remap[k.name];
        k.opType = remap[k.opType];
        k.taskType = remap[k.taskType];
        k.inputShapes = remap[k.inputShapes];
        k.inputDtypes = remap[k.inputDtypes];
        k.outputShapes = remap[k.outputShapes];
        k.outputDtypes = remap[k.outputDtypes];
    }
    prof.pmu = std::move(side.pmu);
    prof.stepTrace = std::move(side.stepTrace);
    prof.commOps = std::move(side.commOps);
    prof.hasCommunicationJson = side.hasCommunicationJson;
    prof.inventory.kernelSource = side.inventory.kernelSource;
    prof.inventory.kernelSourceFile = side.inventory.kernelSourceFile;
    prof.inventory.kernelDetailsLevel = side.inventory.kernelDetailsLevel;
}

} // namespace

LoadResult loadRank(const RankFolder& rank, const LoadControl& control) {
    LoadResult out;
    out.profile = std::make_unique<Profile>();
    Profile& prof = *out.profile;
    FindingSink sink;
    prof.inventory.rankDir = rank.root;
    prof.inventory.outputDir = rank.outputDir;
    prof.inventory.layout = rank.layout;
    prof.inventory.rankLabel = rank.label;
    const RankFiles files = listRankFiles(rank);

    for (const auto& p : files.profilerInfo) {
        readProfilerInfo(p, prof, sink);
        addFile(prof, "profiler_info", p, 0);
    }
    if (!rank.label.empty()) prof.inventory.rankLabel = rank.label;
    control.report("kernels", 0, 1);

    // The tables are read on a second thread while this one parses the timeline.
    TablesResult tables;
    std::thread tablesThread([&files, &tables] { readTables(files, tables); });
    struct Joiner {
        std::thread& t;
        ~Joiner() {
            if (t.joinable()) t.join();
        }
    } joiner{tablesThread};

    // Timeline.
    std::vector<std::string> traces;
    if (!files.traceView.empty()) traces.push_back(files.traceView);
    for (const auto& p : files.msprofJson) traces.push_back(p);
    FindingSink traceSink;
    std::vector<InventoryFile> traceFiles;
    for (const auto& t : traces) {
        auto r = readTraceJson(t, prof, traceSink, control);
        traceFiles.push_back({t == files.traceView ? "trace_view" : "msprof_timeline", t, fileSize(t), r.elements});
        if (r.cancelled) {
            out.cancelled = true;
            return out;
        }
        if (r.ok) prof.hasTrace = true;
    }
    tablesThread.join();
    mergeTables(tables, prof);
    for (auto& f : tables.kernelFiles) prof.inventory.files.push_back(std::move(f));
    for (auto& f : traceFiles) prof.inventory.files.push_back(std::move(f));
    for (auto& f : tables.sideFiles) prof.inventory.files.push_back(std::move(f));
    for (auto& f : tables.sink.take()) sink.add(std::move(f));
    for (auto& f : traceSink.take()) sink.add(std::move(f));
    if (control.cancelled()) {
        out.cancelled = true;
        return out;
    }

    if (prof.inventory.kernelSource == KernelSource::None && !prof.deviceEvents.empty()) {
        kernelsFromTrace(prof);
        prof.inventory.kernelSource = KernelSource::TraceDevice;
        prof.inventory.kernelSourceFile = traces.empty() ? "" : traces.front();
    }
    // Kernel tables are written in start order: sort (stably, by start) only what is not.
    auto byStart = [](const Kernel& a, const Kernel& b) { return a.start < b.start; };
    if (!std::is_sorted(prof.kernels.begin(), prof.kernels.end(), byStart))
        std::stable_sort(prof.kernels.begin(), prof.kernels.end(), byStart);
    if (prof.inventory.kernelSource != KernelSource::TraceDevice) joinWithTrace(prof);

    out.hasAnyData = !prof.kernels.empty() || prof.hasTrace;
    prof.loadFindings = sink.take();
    control.report("done", 1, 1);
    return out;
}

} // namespace bs
