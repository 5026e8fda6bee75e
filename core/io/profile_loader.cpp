#include "io/profile_loader.h"

#include "io/memory_estimate.h"

#include "i18n/message.h"
#include "io/db_reader.h"
#include "io/file_buffer.h"
#include "io/kernel_checks.h"
#include "io/kernel_table_reader.h"
#include "io/side_file_readers.h"
#include "io/trace_json_reader.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <future>
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

// Device tasks that the profiler's own kernel table leaves out: stream synchronisation, notifications,
// memory copies and placeholders. They occupy a stream lane but are not kernels, and counting them makes
// busy time and bubbles differ from step_trace_time.csv (core/io/README.md, "Kernels from the trace").
bool housekeepingTaskType(std::string_view t) {
    static constexpr std::string_view kSkip[] = {
        "EVENT_RECORD_SQE", "EVENT_WAIT_SQE", "EVENT_RECORD", "EVENT_WAIT", "Notify Wait", "Notify Record",
        "NOTIFY_WAIT_SQE", "NOTIFY_RECORD_SQE", "Write Value", "WRITE_VALUE_SQE", "SDMA", "SDMA_SQE",
        "PCIE_DMA", "PCIE_DMA_SQE", "PLACE_HOLDER_SQE", "PLACE_HOLDER", "MEMCPY_ASYNC", "Memcpy"};
    for (auto k : kSkip)
        if (t == k) return true;
    return false;
}

// Kernels from the trace's device lanes when no kernel table is usable: every task of the `Ascend
// Hardware` streams except housekeeping, plus the collectives of the HCCL group lanes ("Group N
// Communication"; the "Plane" lanes hold their internal transfers, which the kernel table leaves out too).
void kernelsFromTrace(Profile& prof) {
    std::map<std::string, std::size_t> counted, skipped;
    for (const auto& e : prof.deviceEvents) {
        if (e.flags & EvInstant) continue;
        const std::string_view type = prof.str(e.taskType);
        if (housekeepingTaskType(type)) {
            ++skipped[std::string(type)];
            continue;
        }
        Kernel k;
        k.start = e.ts;
        k.dur = e.dur;
        k.name = e.name;
        k.taskType = e.taskType;
        const auto tid = static_cast<std::int64_t>(prof.lanes[e.lane].tid);
        const std::int64_t stream = e.streamArg >= 0 ? e.streamArg : tid;
        if (stream >= 0 && stream < (1LL << 31)) k.stream = static_cast<std::int32_t>(stream);
        k.cls = classifyTaskType(prof.str(k.taskType), prof.str(k.name));
        ++counted[type.empty() ? std::string("(no task type)") : std::string(type)];
        prof.kernels.push_back(k);
    }
    const StrId hccl = prof.strings.intern("HCCL");
    std::size_t collectives = 0, planeTasks = 0;
    for (const auto& e : prof.hcclEvents) {
        if (e.flags & EvInstant) continue;
        const auto& lane = prof.lanes[e.lane];
        auto t = prof.threads.find({lane.pid, lane.tid});
        const std::string_view tname = t != prof.threads.end() ? std::string_view(t->second.name) : "";
        if (tname.rfind("Group", 0) != 0) {
            ++planeTasks;
            continue;
        }
        Kernel k;
        k.start = e.ts;
        k.dur = e.dur;
        k.name = e.name;
        k.taskType = hccl;
        k.cls = TaskClass::Comm;
        ++collectives;
        prof.kernels.push_back(k);
    }
    if (collectives) counted["HCCL (group lane collectives)"] = collectives;
    if (planeTasks) skipped["HCCL plane tasks"] = planeTasks;
    prof.inventory.traceTaskTypesCounted.assign(counted.begin(), counted.end());
    prof.inventory.traceTaskTypesSkipped.assign(skipped.begin(), skipped.end());
}

} // namespace

namespace {

// Whether two files hold the same bytes (sizes first; contents compared in blocks only when equal).
bool sameContents(const std::string& a, const std::string& b) {
    std::error_code ec1, ec2;
    const auto sa = std::filesystem::file_size(a, ec1), sb = std::filesystem::file_size(b, ec2);
    if (ec1 || ec2 || sa != sb) return false;
    std::FILE* fa = std::fopen(a.c_str(), "rb");
    std::FILE* fb = std::fopen(b.c_str(), "rb");
    bool same = fa && fb;
    std::vector<char> ba(1 << 20), bb(1 << 20);
    while (same) {
        const std::size_t na = std::fread(ba.data(), 1, ba.size(), fa);
        const std::size_t nb = std::fread(bb.data(), 1, bb.size(), fb);
        if (na != nb || std::memcmp(ba.data(), bb.data(), na) != 0) same = false;
        if (na < ba.size()) break;
    }
    if (fa) std::fclose(fa);
    if (fb) std::fclose(fb);
    return same;
}

// Everything that is not the timeline: the kernel table (by priority) and the side files. Runs on its
// own thread with its own string pool while the trace is parsed; merged afterwards.
struct TablesResult {
    Profile side;
    FindingSink sink;
    std::vector<InventoryFile> kernelFiles, sideFiles;
    bool outOfMemory = false; // an allocation failed on the tables thread
};

void readTables(const RankFiles& files, TablesResult& t, const LoadControl& control) {
    Profile& prof = t.side;
    FindingSink& sink = t.sink;
    auto add = [&](std::vector<InventoryFile>& to, const std::string& role, const std::string& path,
                   std::uint64_t records) {
        to.push_back({role, path, fileSize(path), records});
    };
    if (!files.kernelDetails.empty()) {
        auto r = readKernelTable(files.kernelDetails, KernelSource::KernelDetails, prof, sink, &control);
        add(t.kernelFiles, "kernel_details", files.kernelDetails, r.rows);
        if (r.ok && r.rows == 0)
            sink.add({"kernel_table_empty", Severity::Warning, files.kernelDetails, 1, -1,
                      msg("kernel_details.csv has a header but no rows."),
                      msg("Kernels come from the next source (op_summary / task_time / trace device events)."),
                      msg("The offline analysis stopped early; re-run torch_npu.profiler.profiler.analyse (see "
                          "collection-problems.md, \"Only the timeline, no CSV\")."),
                      "collection-problems.md#only-the-timeline-no-csv"});
        if (r.kept > 0) {
            prof.inventory.kernelSource = KernelSource::KernelDetails;
            prof.inventory.kernelSourceFile = files.kernelDetails;
            prof.inventory.kernelDetailsLevel = r.level;
            if (r.pmuAllZero) {
                sink.add({"pmu_all_zero", Severity::Warning, files.kernelDetails, -1, -1,
                          msg("Every PMU column (aic_*/aiv_*) is zero."),
                          msg("Compute-bound / memory-bound verdicts are unavailable."),
                          msg("Collect with Level1 and aic_metrics=PipeUtilization (see collection-problems.md, "
                              "\"Level0 kernel table\")."),
                          "collection-problems.md#level0-kernel-table"});
            }
        }
    }
    if (prof.inventory.kernelSource == KernelSource::None) {
        for (const auto& p : files.opSummary) {
            auto r = readKernelTable(p, KernelSource::OpSummary, prof, sink, &control);
            add(t.kernelFiles, "op_summary", p, r.rows);
            if (r.kept > 0) {
                prof.inventory.kernelSource = KernelSource::OpSummary;
                prof.inventory.kernelSourceFile = p;
            }
        }
    } else {
        for (const auto& p : files.opSummary)
            add(t.kernelFiles, "op_summary (not used: kernel_details present)", p, 0);
    }
    if (prof.inventory.kernelSource == KernelSource::None) {
        for (const auto& p : files.taskTime) {
            auto r = readKernelTable(p, KernelSource::TaskTime, prof, sink, &control);
            add(t.kernelFiles, "task_time", p, r.rows);
            if (r.kept > 0) {
                prof.inventory.kernelSource = KernelSource::TaskTime;
                prof.inventory.kernelSourceFile = p;
            }
        }
    } else {
        for (const auto& p : files.taskTime)
            add(t.kernelFiles, "task_time (not used)", p, 0);
    }
    if (!files.stepTraceTime.empty()) {
        readStepTraceTime(files.stepTraceTime, prof, sink);
        add(t.sideFiles, "step_trace_time", files.stepTraceTime, prof.stepTrace.size());
    }
    if (!files.communication.empty()) {
        readCommunicationJson(files.communication, prof, sink);
        add(t.sideFiles, "communication", files.communication, prof.commOps.size());
    }
    if (!files.opStatistic.empty())
        add(t.sideFiles, "op_statistic", files.opStatistic, readOpStatistic(files.opStatistic, sink));
    for (const auto& p : files.sqliteExports)
        add(t.sideFiles, "sqlite export (not read)", p, 0);
}

// Moves the tables into the main profile, re-interning the kernels' strings into its pool.
void mergeTables(TablesResult& t, Profile& prof) {
    Profile& side = t.side;
    std::vector<StrId> remap(side.strings.size());
    for (StrId i = 0; i < side.strings.size(); ++i)
        remap[i] = prof.strings.intern(side.strings.view(i));
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

namespace {

// The profiler's SQLite export among the folder's .db files: ascend_pytorch_profiler_*.db (or msprof_*.db)
// and analysis.db beside it.
DbFiles pickDbFiles(const RankFiles& files) {
    DbFiles db;
    for (const auto& p : files.sqliteExports) {
        const std::string name = std::filesystem::path(p).filename().string();
        if (db.profilerDb.empty() && isProfilerDbName(name))
            db.profilerDb = p;
        else if (db.analysisDb.empty() && name == "analysis.db")
            db.analysisDb = p;
    }
    return db;
}

// Reads the SQLite export instead of the text files (no text export, or `--source db`).
LoadResult loadFromDb(const RankFiles& files, const DbFiles& db, LoadResult out, FindingSink& sink,
                      const LoadControl& control) {
    Profile& prof = *out.profile;
    if (db.profilerDb.empty()) {
        const std::string where = prof.inventory.outputDir.empty() ? prof.inventory.rankDir : prof.inventory.outputDir;
        sink.add({"db_missing", Severity::Error, where, -1, -1,
                  msg("The SQLite export was asked for (--source db) but the folder holds no "
                      "ascend_pytorch_profiler_*.db or msprof_*.db."),
                  msg("Nothing was read."),
                  msg("Read the text export instead (leave out --source db), or collect with export_type=db."),
                  "collection-problems.md#sqlite-export"});
        prof.loadFindings = sink.take();
        return out;
    }
    const DbReadResult r = readSqliteExport(db, prof, sink, control);
    if (r.cancelled) {
        out.cancelled = true;
        return out;
    }
    addFile(prof, "sqlite profiler export", db.profilerDb, r.taskRows);
    if (!db.analysisDb.empty()) addFile(prof, "sqlite analysis export", db.analysisDb, prof.stepTrace.size());
    for (const auto& p : files.sqliteExports)
        if (p != db.profilerDb && p != db.analysisDb) addFile(prof, "sqlite export (not read)", p, 0);
    for (const auto* p : {&files.kernelDetails, &files.traceView})
        if (!p->empty()) addFile(prof, "text export (not read: --source db)", *p, 0);
    checkKernelTable(prof, sink);
    out.hasAnyData = !prof.kernels.empty() || prof.hasTrace;
    prof.loadFindings = sink.take();
    control.report("done", 1, 1);
    return out;
}

} // namespace

namespace {

LoadResult loadRankUnguarded(const RankFolder& rank, const LoadControl& control) {
    LoadResult out;
    out.profile = std::make_unique<Profile>();
    Profile& prof = *out.profile;
    FindingSink sink;
    prof.inventory.rankDir = rank.root;
    prof.inventory.outputDir = rank.outputDir;
    prof.inventory.layout = rank.layout;
    prof.inventory.rankLabel = rank.label;
    const RankFiles files = listRankFiles(rank);

    // Refuse, before reading anything large, a profile whose model would not fit in memory.
    {
        const MemoryEstimate estimate = estimateLoadMemory(files, control.source);
        const double need = static_cast<double>(estimate.needBytes);
        const auto traceBytes = estimate.traceBytes, tableBytes = estimate.tableBytes, sideBytes = estimate.sideBytes,
                   jsonBytes = estimate.jsonBytes + estimate.commBytes, dbBytes = estimate.dbBytes;
        const std::uint64_t availBytes = availableMemoryBytes();
        const double avail = static_cast<double>(availBytes);
        if (estimate.needBytes > availBytes) {
            sink.add(
                {"profile_too_large", Severity::Error, rank.root, -1, -1,
                 msg("Loading this profile needs about {:.0f} MiB (trace {:.0f} MiB, kernel tables "
                     "{:.0f} MiB, side tables {:.0f} MiB, JSON files {:.0f} MiB{} on disk) but only "
                     "{:.0f} MiB of memory are available.",
                             need / 1048576, static_cast<double>(traceBytes) / 1048576,
                             static_cast<double>(tableBytes) / 1048576, static_cast<double>(sideBytes) / 1048576,
                             static_cast<double>(jsonBytes) / 1048576,
                             dbBytes ? msg(", SQLite export {:.0f} MiB", static_cast<double>(dbBytes) / 1048576)
                                     : std::string(),
                             avail / 1048576),
                 msg("Nothing was loaded (refused before reading, instead of being killed for lack of memory)."),
                 msg("Free memory or use a machine with more; or profile fewer steps (schedule active=…)."), ""});
            prof.loadFindings = sink.take();
            out.tooLarge = true;
            return out;
        }
    }
    for (const auto& p : files.profilerInfo) {
        readProfilerInfo(p, prof, sink);
        addFile(prof, "profiler_info", p, 0);
    }
    if (!rank.label.empty()) prof.inventory.rankLabel = rank.label;
    control.report("kernels", 0, 1);
    // The text export is the default; the SQLite export is read when there is no text (or when asked).
    if (control.source == DataSource::Db || (control.source == DataSource::Auto && !hasTextExport(files) &&
                                             !pickDbFiles(files).profilerDb.empty()))
        return loadFromDb(files, pickDbFiles(files), std::move(out), sink, control);

    // The tables are read on a second thread while this one parses the timeline. The thread owns what it
    // touches (its own cancel flag, a copy of the file list, the result) so that a cancelled load can
    // return at once and leave it to finish in the background.
    auto tables = std::make_shared<TablesResult>();
    auto tablesCancel = std::make_shared<std::atomic<bool>>(false);
    auto tablesDone = std::make_shared<std::promise<void>>();
    std::future<void> tablesReady = tablesDone->get_future();
    std::thread([tables, tablesCancel, tablesDone, files] {
        yieldCpuToOtherThreads(); // the timeline's parse is the critical path (core/README.md, Reading)
        LoadControl own;
        own.cancel = tablesCancel.get();
        try {
            readTables(files, *tables, own);
        } catch (const std::bad_alloc&) {
            tables->outOfMemory = true; // reported by the loading thread; never terminate the process
        }
        tablesDone->set_value();
    }).detach();
    struct CancelOnExit {
        std::shared_ptr<std::atomic<bool>> flag;
        ~CancelOnExit() { flag->store(true); } // an early return stops the tables thread too
    } cancelOnExit{tablesCancel};
    auto abandon = [&] {
        out.cancelled = true;
        return std::move(out);
    };

    // Timeline.
    std::vector<std::string> traces;
    if (!files.traceView.empty()) traces.push_back(files.traceView);
    for (const auto& p : files.msprofJson) {
        // A copy of a timeline already listed (the same export saved twice) would double every event.
        auto same = std::find_if(traces.begin(), traces.end(),
                                 [&](const std::string& t) { return sameContents(t, p); });
        if (same != traces.end()) {
            sink.add({"duplicate_timeline", Severity::Warning, p, -1, -1,
                      msg("{} is byte for byte the same as {}.", p, *same),
                      msg("It was read once: its events would otherwise be counted twice."),
                      msg("Remove the copy from the output folder."), ""});
            continue;
        }
        traces.push_back(p);
    }
    FindingSink traceSink;
    std::vector<InventoryFile> traceFiles;
    std::vector<std::string> emptyTraces; // well-formed but without a single event
    for (const auto& t : traces) {
        auto r = readTraceJson(t, prof, traceSink, control);
        traceFiles.push_back(
            {t == files.traceView ? "trace_view" : "msprof_timeline", t, fileSize(t), r.elements});
        if (r.cancelled) return abandon();
        if (r.ok && r.elements > 0) prof.hasTrace = true;
        if (r.ok && r.elements == 0) emptyTraces.push_back(t);
    }
    // Wait for the tables, still listening to the caller's cancel flag.
    while (tablesReady.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready)
        if (control.cancelled()) return abandon();
    if (tables->outOfMemory) throw std::bad_alloc();
    mergeTables(*tables, prof);
    for (auto& f : tables->kernelFiles)
        prof.inventory.files.push_back(std::move(f));
    for (auto& f : traceFiles)
        prof.inventory.files.push_back(std::move(f));
    for (auto& f : tables->sideFiles)
        prof.inventory.files.push_back(std::move(f));
    for (auto& f : tables->sink.take())
        sink.add(std::move(f));
    for (auto& f : traceSink.take())
        sink.add(std::move(f));
    if (control.cancelled()) {
        out.cancelled = true;
        return out;
    }
    for (const auto& t : emptyTraces) {
        const bool nothingElse = prof.kernels.empty() && !prof.hasTrace;
        sink.add({"trace_empty", nothingElse ? Severity::Error : Severity::Warning, t, -1, -1,
                  msg("The timeline holds no events (an empty trace array)."),
                  nothingElse ? msg("There is no kernel table either: nothing can be analysed.")
                              : msg("No host activity, step markers or flows come from it."),
                  msg("The collection stopped before anything was recorded; see collection-problems.md, \"Empty "
                      "output folder\"."),
                  "collection-problems.md#empty-output-folder"});
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
    if (prof.inventory.kernelSource != KernelSource::TraceDevice) joinKernelsWithTrace(prof);
    checkKernelTable(prof, sink);

    out.hasAnyData = !prof.kernels.empty() || prof.hasTrace;
    prof.loadFindings = sink.take();
    control.report("done", 1, 1);
    return out;
}

} // namespace

LoadResult loadRank(const RankFolder& rank, const LoadControl& control) {
    try {
        return loadRankUnguarded(rank, control);
    } catch (const std::bad_alloc&) {
        // The estimate let it through but memory ran out (a limit that is not visible, other processes
        // growing): refuse this rank with a message; the caller goes on with the next one.
        LoadResult out;
        out.profile = std::make_unique<Profile>();
        out.profile->inventory.rankDir = rank.root;
        out.tooLarge = true;
        out.profile->loadFindings.push_back(
            {"profile_too_large", Severity::Error, rank.root, -1, -1,
             msg("Memory ran out while loading this profile ({:.0f} MiB were available at the start).",
                 static_cast<double>(availableMemoryBytes()) / 1048576),
             msg("Nothing was loaded for this rank."),
             msg("Free memory or raise the process's memory limit (ulimit -v, the container's or cgroup's "
                 "memory.max); or profile fewer steps (schedule active=…)."),
             ""});
        return out;
    }
}

std::string noDataMessage(const RankFolder& rank, const LoadResult& loaded) {
    if (loaded.profile) {
        for (const auto& f : loaded.profile->loadFindings) {
            if (f.severity != Severity::Error || f.file.empty()) continue;
            std::string where = f.file;
            if (f.byteOffset >= 0)
                where += msg(" (byte {})", f.byteOffset);
            else if (f.line >= 0)
                where += msg(" (line {})", f.line);
            return msg("{} holds no readable profiling data: {} could not be read: {} {} {}", rank.root, where,
                       f.seen, f.impact, f.fix);
        }
    }
    if (const std::string problem = folderReadProblem(rank); !problem.empty())
        return msg("{} could not be read: {}. Give the user running BubbleScope read access to it (its owner can run "
                   "chmod -R a+rX on the folder), or copy the collection somewhere readable.",
                   rank.root, problem);
    if (const std::string problem = irregularDataFile(rank); !problem.empty())
        return msg("{} holds no readable profiling data: {}. Copy the profiler's own files into the output folder "
                   "again (a link must lead to a regular file).",
                   rank.root, problem);
    const DbFiles db = pickDbFiles(listRankFiles(rank));
    if (!db.profilerDb.empty())
        return msg("{} holds no text export (kernel_details.csv, trace_view.json), only the SQLite export {}, "
                   "which is read unless the text export is asked for (--source text).",
                   rank.root, db.profilerDb);
    return msg("{} holds no readable profiling data (no kernel table, no timeline); expected "
               "ASCEND_PROFILER_OUTPUT/kernel_details.csv or trace_view.json. An empty output folder usually means "
               "prof.step() was never called, the loop ran fewer steps than warmup + active, on_trace_ready was "
               "not set, or the save path was not writable (see collection-problems.md, \"Empty output "
               "folder\").",
               rank.root);
}

} // namespace bs
