#include "io/profile_loader.h"

#include "io/kernel_table_reader.h"
#include "io/side_file_readers.h"
#include "io/trace_json_reader.h"

#include <algorithm>
#include <filesystem>

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
    for (auto& k : prof.kernels) {
        const bool needType = prof.str(k.taskType).empty();
        const bool needStream = k.stream < 0;
        if (!needType && !needStream) continue;
        if (needStream) ++streamMissing;
        auto lo = std::lower_bound(ev.begin(), ev.end(), k.start, [](const TraceEvent& e, TimeNs t) { return e.ts < t; });
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

    // Kernel source, by priority.
    if (!files.kernelDetails.empty()) {
        auto r = readKernelTable(files.kernelDetails, KernelSource::KernelDetails, prof, sink);
        addFile(prof, "kernel_details", files.kernelDetails, r.rows);
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
            addFile(prof, "op_summary", p, r.rows);
            if (r.kept > 0) {
                prof.inventory.kernelSource = KernelSource::OpSummary;
                prof.inventory.kernelSourceFile = p;
            }
        }
    } else {
        for (const auto& p : files.opSummary) addFile(prof, "op_summary (not used: kernel_details present)", p, 0);
    }
    if (prof.inventory.kernelSource == KernelSource::None) {
        for (const auto& p : files.taskTime) {
            auto r = readKernelTable(p, KernelSource::TaskTime, prof, sink);
            addFile(prof, "task_time", p, r.rows);
            if (r.kept > 0) {
                prof.inventory.kernelSource = KernelSource::TaskTime;
                prof.inventory.kernelSourceFile = p;
            }
        }
    } else {
        for (const auto& p : files.taskTime) addFile(prof, "task_time (not used)", p, 0);
    }
    if (control.cancelled()) {
        out.cancelled = true;
        return out;
    }

    // Timeline.
    std::vector<std::string> traces;
    if (!files.traceView.empty()) traces.push_back(files.traceView);
    for (const auto& p : files.msprofJson) traces.push_back(p);
    for (const auto& t : traces) {
        auto r = readTraceJson(t, prof, sink, control);
        addFile(prof, t == files.traceView ? "trace_view" : "msprof_timeline", t, r.elements);
        if (r.cancelled) {
            out.cancelled = true;
            return out;
        }
        if (r.ok) prof.hasTrace = true;
    }

    if (prof.inventory.kernelSource == KernelSource::None && !prof.deviceEvents.empty()) {
        kernelsFromTrace(prof);
        prof.inventory.kernelSource = KernelSource::TraceDevice;
        prof.inventory.kernelSourceFile = traces.empty() ? "" : traces.front();
    } else {
        joinWithTrace(prof);
    }
    std::stable_sort(prof.kernels.begin(), prof.kernels.end(), [](const Kernel& a, const Kernel& b) {
        return a.start < b.start || (a.start == b.start && a.stream < b.stream);
    });

    if (!files.stepTraceTime.empty()) {
        readStepTraceTime(files.stepTraceTime, prof, sink);
        addFile(prof, "step_trace_time", files.stepTraceTime, prof.stepTrace.size());
    }
    if (!files.communication.empty()) {
        readCommunicationJson(files.communication, prof, sink);
        addFile(prof, "communication", files.communication, prof.commOps.size());
    }
    if (!files.opStatistic.empty()) addFile(prof, "op_statistic", files.opStatistic, readOpStatistic(files.opStatistic, sink));
    for (const auto& p : files.sqliteExports) addFile(prof, "sqlite export (not read)", p, 0);

    out.hasAnyData = !prof.kernels.empty() || prof.hasTrace;
    prof.loadFindings = sink.take();
    control.report("done", 1, 1);
    return out;
}

} // namespace bs
