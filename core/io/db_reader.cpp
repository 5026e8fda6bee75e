#include "io/db_reader.h"

#include "i18n/message.h"
#include "io/db_reader_impl.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <filesystem>
#include <limits>
#include <system_error>
#include <unordered_map>

namespace bs {

bool isProfilerDbName(std::string_view n) {
    auto ends = [&](std::string_view s) {
        return n.size() >= s.size() && n.substr(n.size() - s.size()) == s;
    };
    return ends(".db") && (n.rfind("ascend_pytorch_profiler", 0) == 0 || n.rfind("msprof_", 0) == 0);
}

namespace dbimpl {

StrId DbReader::sid(const SqliteQuery& q, int col) {
    if (q.isNull(col)) return 0;
    if (q.type(col) == SqliteQuery::Type::Text) return prof_.strings.intern(q.text(col)); // a name, not an id
    std::int64_t id = 0;
    if (!q.integer(col, id)) return 0;
    return sidOf(id);
}

StrId DbReader::sidOf(std::int64_t id) {
    const std::uint64_t hi = static_cast<std::uint64_t>(id) >> 28,
                        lo = static_cast<std::uint64_t>(id) & 0xFFFFFFF;
    if (id >= 0 && hi < strBuckets_.size() && lo < strBuckets_[hi].size() && strBuckets_[hi][lo])
        return strBuckets_[hi][lo];
    auto it = strSparse_.find(id);
    if (it != strSparse_.end()) return it->second;
    // An id STRING_IDS does not hold (or no STRING_IDS at all): the id itself stands for the name, so equal
    // names still group together.
    return prof_.strings.intern(haveStrings_ ? fmt::format("(string id {})", id) : fmt::format("#{}", id));
}

std::uint32_t DbReader::laneOf(std::uint64_t pid, std::uint64_t tid, LaneKind kind) {
    auto key = std::make_pair(pid, tid);
    auto it = lanes_.find(key);
    if (it != lanes_.end()) return it->second;
    const auto idx = static_cast<std::uint32_t>(prof_.lanes.size());
    prof_.lanes.push_back({pid, tid, kind});
    lanes_.emplace(key, idx);
    return idx;
}

void DbReader::nameProcess(std::uint64_t pid, const char* name, const char* labels, std::int64_t sort) {
    auto& p = prof_.processes[pid];
    if (!p.name.empty()) return;
    p.name = name;
    p.labels = labels;
    p.sortIndex = sort;
}

bool DbReader::select(const SqliteDb& db, const std::string& table, const std::vector<std::string>& cols,
                      std::size_t required, std::unique_ptr<SqliteQuery>& q, const std::string& where) {
    if (!db.hasTable(table)) {
        tablesMissing_.push_back(std::filesystem::path(db.path()).filename().string() + ":" + table);
        return false;
    }
    const auto have = db.columns(table);
    std::string sql = "SELECT ";
    for (std::size_t i = 0; i < cols.size(); ++i) {
        const bool present = std::find(have.begin(), have.end(), cols[i]) != have.end();
        if (!present && i < required) {
            sink_.add(
                {"db_table_unusable", Severity::Warning, db.path(), -1, -1,
                 msg("Table {} of {} has no column '{}' (its columns: {}).", table,
                     std::filesystem::path(db.path()).filename().string(), cols[i],
                     fmt::format("{}", fmt::join(have, ", "))),
                 msg("Table {} is not read; {}", table, dbTableEffect(table)),
                 msg("The file was written by an unknown profiler version or was edited: export it again "
                     "with the profiler (export_type=db) or export the text files (export_type=text)."),
                 "collection-problems.md#sqlite-export"});
            return false;
        }
        sql += (i ? ", " : "") + (present ? "\"" + cols[i] + "\"" : std::string("NULL"));
    }
    sql += " FROM \"" + table + "\"" + where;
    q = std::make_unique<SqliteQuery>(db, sql);
    if (!q->ok()) {
        sink_.add(
            {"db_read_error", Severity::Error, db.path(), -1, -1,
             msg("Table {} of {} cannot be read: {}.", table,
                 std::filesystem::path(db.path()).filename().string(), q->error()),
             msg("Table {} is not read; {}", table, dbTableEffect(table)),
             msg("The file is damaged (cut while being copied or written): copy it again from the machine "
                 "that collected it, or export again with the profiler."),
             "collection-problems.md#sqlite-export"});
        return false;
    }
    return true;
}

void DbReader::endTable(const SqliteDb& db, const std::string& table, const SqliteQuery& q) {
    const std::string name = std::filesystem::path(db.path()).filename().string();
    if (!q.error().empty() && !cancelled_)
        sink_.add(
            {"db_read_error", Severity::Error, db.path(), -1, -1,
             msg("Reading table {} of {} stopped after {} row(s): {}.", table, name, q.rows(), q.error()),
             msg("The rows before the error are kept; the rest of {} is missing: {}", table,
                 dbTableEffect(table)),
             msg("The file is damaged (cut while being copied or written): copy it again from the machine "
                 "that collected it, or export again with the profiler."),
             "collection-problems.md#sqlite-export"});
    tablesRead_.emplace_back(name + ":" + table, q.rows());
    if (!onHostThread_) control_.report("sqlite " + table, tablesRead_.size(), 0);
}

void DbReader::badValue(const SqliteDb& db, const std::string& table, const std::string& column,
                        std::uint64_t row, const SqliteQuery& q, int col, const char* expected) {
    for (auto& b : bad_)
        if (b.table == table && b.column == column && b.file == db.path()) return void(++b.count);
    std::string example;
    switch (q.type(col)) {
    case SqliteQuery::Type::Null:
        example = "NULL";
        break;
    case SqliteQuery::Type::Blob:
        example = msg("a blob");
        break;
    case SqliteQuery::Type::Real:
        example = fmt::format("{}", q.f64(col));
        break;
    default:
        example = "'" + std::string(q.text(col).substr(0, 40)) + "'";
    }
    bad_.push_back({db.path(), table, column, msg("row {} holds {}", row, example), expected, 1});
}

void DbReader::walFindings(const SqliteDb& db, const std::string& lost) {
    if (db.walPath().empty()) return;
    const std::string name = std::filesystem::path(db.path()).filename().string(),
                      wal = std::filesystem::path(db.walPath()).filename().string();
    if (!db.ok()) {
        sink_.add(
            {"db_wal_unreadable", Severity::Error, db.walPath(), -1, -1,
             msg("{} cannot be read with its write-ahead log {}: {}.", name, wal, db.error()),
             msg("{} The .db file alone lacks what was committed to the log since its last checkpoint "
                 "(rows added or deleted, or every table), so it is not read without it.",
                 lost),
             msg("Where the folder can be written and the profiler has stopped, merge the log into the "
                 "database: `sqlite3 {} \"PRAGMA wal_checkpoint(TRUNCATE);\"` in its folder; or give the user "
                 "running BubbleScope read access to {}; or copy the folder again from the machine that "
                 "collected it, the -wal file with the .db.",
                 name, wal),
             "collection-problems.md#sqlite-export"});
        return;
    }
    std::error_code ec;
    const auto size = std::filesystem::file_size(db.walPath(), ec);
    sink_.add(
        {"db_wal_read", Severity::Info, db.walPath(), -1, -1,
         msg("{} was read with its write-ahead log {} ({} bytes): what was committed there since the last "
             "checkpoint is included.",
             name, wal, ec ? 0 : size),
         msg("None: the tables are read as SQLite reads them, with every committed row. Nothing was written "
             "beside the database (no -shm file, no checkpoint)."),
         msg("Nothing to fix. A tool that opens the .db file alone sees older content; to merge the log into "
             "it, run `sqlite3 {} \"PRAGMA wal_checkpoint(TRUNCATE);\"` in a writable copy of its folder.",
             name),
         "collection-problems.md#sqlite-export"});
}

void DbReader::readStrings(const SqliteDb& db) {
    std::unique_ptr<SqliteQuery> q;
    if (!select(db, "STRING_IDS", {"id", "value"}, 2, q)) return;
    haveStrings_ = true;
    while (q->next() && !cancelled()) {
        std::int64_t id = 0;
        if (!q->integer(0, id)) {
            badValue(db, "STRING_IDS", "id", q->rows(), *q, 0, msg("an integer id").c_str());
            continue;
        }
        const StrId s = prof_.strings.intern(q->text(1));
        const std::uint64_t hi = static_cast<std::uint64_t>(id) >> 28,
                            lo = static_cast<std::uint64_t>(id) & 0xFFFFFFF;
        // Dense buckets only while they stay dense; anything else goes to the hash map.
        if (id >= 0 && hi < 16 && lo < 4 * (q->rows() + 1024)) {
            if (strBuckets_.size() <= hi) strBuckets_.resize(hi + 1);
            auto& b = strBuckets_[hi];
            if (b.size() <= lo) b.resize(std::max<std::size_t>(lo + 1, b.size() * 2), 0);
            if (s != 0) {
                b[lo] = s;
                continue;
            }
        }
        strSparse_[id] = s;
    }
    endTable(db, "STRING_IDS", *q);
}

void DbReader::readStepTimes(const SqliteDb& db) {
    std::unique_ptr<SqliteQuery> q;
    if (!select(db, "STEP_TIME", {"id", "startNs", "endNs"}, 3, q)) return;
    std::vector<std::tuple<TimeNs, TimeNs, std::int64_t>> rows;
    while (q->next()) {
        std::int64_t id = 0, s = 0, e = 0;
        if (!q->integer(0, id) || !q->integer(1, s) || !q->integer(2, e) || !plausibleStart(s) || e < s ||
            !plausibleDuration(e - s)) {
            badValue(db, "STEP_TIME", "id/startNs/endNs", q->rows(), *q, 1,
                     msg("integer step id and ns times").c_str());
            continue;
        }
        rows.emplace_back(s, e, id);
    }
    endTable(db, "STEP_TIME", *q);
    std::sort(rows.begin(), rows.end());
    for (const auto& [s, e, id] : rows) {
        stepTimes_.emplace_back(s, e);
        stepIds_.push_back(id);
    }
}

void DbReader::readTasks(const SqliteDb& db) {
    std::unique_ptr<SqliteQuery> q;
    if (!select(db, "TASK",
                {"startNs", "endNs", "globalTaskId", "streamId", "taskType", "connectionId", "deviceId"}, 3,
                q)) {
        sink_.add(
            {"db_no_tasks", Severity::Error, db.path(), -1, -1,
             msg("{} has no readable TASK table.", std::filesystem::path(db.path()).filename().string()),
             msg("No device task, hence no kernel and no bubble, can be read from this export."),
             msg("Export again with the profiler (export_type=db), or export the text files "
                 "(export_type=text: kernel_details.csv, trace_view.json)."),
             "collection-problems.md#sqlite-export"});
        return;
    }
    while (q->next() && !cancelled()) {
        TaskRow t;
        std::int64_t s = 0, e = 0, v = 0;
        if (!q->integer(0, s) || !q->integer(1, e) || !plausibleStart(s) || e < s ||
            !plausibleDuration(e - s)) {
            badValue(db, "TASK", "startNs/endNs", q->rows(), *q, q->integer(0, s) ? 1 : 0,
                     msg("integer ns times with endNs >= startNs (at most 1000 s apart)").c_str());
            continue;
        }
        t.start = s;
        t.end = e;
        if (q->integer(2, v)) t.globalTaskId = v;
        if (q->integer(3, v)) {
            // Out of range, the task would land on the "unknown" stream with every other such task: said.
            if (v >= 0 && v < (1LL << 31))
                t.stream = static_cast<std::int32_t>(v);
            else
                badValue(db, "TASK", "streamId", q->rows(), *q, 3, msg("a stream id from 0 to 2147483647").c_str());
        }
        t.taskType = sid(*q, 4);
        if (q->integer(5, v)) t.connectionId = v;
        if (q->integer(6, v) && v >= 0 && v < (1LL << 31)) t.device = static_cast<std::int32_t>(v);
        tasks_.push_back(t);
    }
    endTable(db, "TASK", *q);
    res_.taskRows = tasks_.size();
}

void DbReader::readComputeInfo(const SqliteDb& db) {
    std::unique_ptr<SqliteQuery> q;
    if (!select(db, "COMPUTE_TASK_INFO",
                {"globalTaskId", "name", "opType", "taskType", "inputShapes", "inputDataTypes",
                 "outputShapes", "outputDataTypes", "blockDim", "waitNs"},
                2, q))
        return;
    const StrId na = prof_.strings.intern("N/A");
    while (q->next() && !cancelled()) {
        std::int64_t gid = 0, v = 0;
        if (!q->integer(0, gid)) {
            badValue(db, "COMPUTE_TASK_INFO", "globalTaskId", q->rows(), *q, 0,
                     msg("an integer task id").c_str());
            continue;
        }
        ComputeInfo c;
        // Level0 exports write "N/A" for what they did not collect, as the text table does.
        auto field = [&](int col) {
            const StrId s = sid(*q, col);
            return s == na ? 0 : s;
        };
        c.name = field(1);
        c.opType = field(2);
        c.taskType = field(3);
        c.inShapes = field(4);
        c.inTypes = field(5);
        c.outShapes = field(6);
        c.outTypes = field(7);
        if (q->integer(8, v) && v >= 0 && v <= 65535) c.blockDim = static_cast<std::uint32_t>(v);
        if (!q->isNull(9)) {
            if (q->integer(9, v) && plausibleDuration(v))
                c.wait = v;
            else
                badValue(db, "COMPUTE_TASK_INFO", "waitNs", q->rows(), *q, 9,
                         msg("an integer ns wait (0 … 1000 s)").c_str());
        }
        computeByTask_.emplace(gid, static_cast<std::uint32_t>(compute_.size()));
        compute_.push_back(c);
    }
    endTable(db, "COMPUTE_TASK_INFO", *q);
}

void DbReader::readPlaneTasks(const SqliteDb& db) {
    std::unique_ptr<SqliteQuery> q;
    if (!select(db, "COMMUNICATION_TASK_INFO", {"globalTaskId", "planeId"}, 1, q)) return;
    while (q->next() && !cancelled()) {
        std::int64_t gid = 0, plane = 0;
        if (!q->integer(0, gid)) continue;
        if (!q->integer(1, plane) || plane < 0 || plane > 4096) plane = 0;
        planeByTask_.emplace(gid, static_cast<std::int32_t>(plane));
    }
    endTable(db, "COMMUNICATION_TASK_INFO", *q);
}

void DbReader::readCommOps(const SqliteDb& db) {
    std::unique_ptr<SqliteQuery> q;
    if (!select(db, "COMMUNICATION_OP",
                {"opName", "startNs", "endNs", "connectionId", "groupName", "opType", "waitNs"}, 3, q))
        return;
    while (q->next() && !cancelled()) {
        std::int64_t s = 0, e = 0, v = 0;
        if (!q->integer(1, s) || !q->integer(2, e) || !plausibleStart(s) || e < s ||
            !plausibleDuration(e - s)) {
            badValue(db, "COMMUNICATION_OP", "startNs/endNs", q->rows(), *q, q->integer(1, s) ? 2 : 1,
                     msg("integer ns times with endNs >= startNs (at most 1000 s apart)").c_str());
            continue;
        }
        CommOpRow c;
        c.start = s;
        c.end = e;
        c.name = sid(*q, 0);
        if (q->integer(3, v)) c.connectionId = v;
        c.group = sid(*q, 4);
        c.opType = sid(*q, 5);
        if (q->integer(6, v) && plausibleDuration(v)) c.wait = v;
        if (c.connectionId >= 0)
            commByConnection_.emplace(c.connectionId, static_cast<std::uint32_t>(commOps_.size()));
        commOps_.push_back(c);
    }
    endTable(db, "COMMUNICATION_OP", *q);
}

// Sorts v[from, to) stably where it is made of ascending runs that overlap little: TASK is written in time
// order per step, each step starting a hair before the last one ended (117 runs over 1.4 million rows, one
// or two rows out of place at each seam). Each run is merged into the sorted rows before it from the first
// row it has to pass (a binary search), so the work is the overlap, not the length. When that work grows
// past a few times the length (runs that interleave throughout), the rest is left to a sort — false then.
template <typename T, typename Less>
bool mergeNaturalRuns(std::vector<T>& v, std::size_t from, std::size_t to, Less less) {
    const auto at = [&](std::size_t i) { return v.begin() + static_cast<long>(i); };
    std::size_t work = 0;
    for (std::size_t s = from + 1; s < to;) {
        if (!less(v[s], v[s - 1])) {
            ++s;
            continue;
        }
        std::size_t e = s + 1;
        while (e < to && !less(v[e], v[e - 1]))
            ++e;
        const auto p = std::upper_bound(at(from), at(s), v[s], less);
        work += static_cast<std::size_t>(at(e) - p);
        if (work > 8 * (to - from) + 4096) return false;
        std::inplace_merge(p, at(s), at(e), less);
        s = e;
    }
    return true;
}

// Sorts `v`, the concatenation of runs ending at `ends` (ascending; the last is v.size()): each run only if
// it is not sorted yet (by merging its own ascending runs when it has few), then the runs are merged —
// O(n) for rows already in time order.
template <typename T, typename Less>
void sortRuns(std::vector<T>& v, std::vector<std::size_t> ends, Less less) {
    std::size_t from = 0;
    for (std::size_t& e : ends) {
        e = std::clamp(e, from, v.size());
        if (!mergeNaturalRuns(v, from, e, less))
            std::sort(v.begin() + static_cast<long>(from), v.begin() + static_cast<long>(e), less);
        if (from > 0 && from < e && less(v[from], v[from - 1]))
            std::inplace_merge(
                std::upper_bound(v.begin(), v.begin() + static_cast<long>(from), v[from], less),
                v.begin() + static_cast<long>(from), v.begin() + static_cast<long>(e), less);
        from = e;
    }
    if (from < v.size()) std::sort(v.begin(), v.end(), less); // not reached: the last end is v.size()
}

const char* dbTableEffect(const std::string& t) {
    if (t == "TASK") {
        static const std::string m =
            msg("no device task, hence no kernel and no bubble, comes from this export.");
        return m.c_str();
    }
    if (t == "STRING_IDS") {
        static const std::string m = msg("names are shown as their string ids.");
        return m.c_str();
    }
    if (t == "COMPUTE_TASK_INFO") {
        static const std::string m =
            msg("compute kernels are not told from runtime housekeeping: only collectives count as kernels.");
        return m.c_str();
    }
    if (t == "COMMUNICATION_OP") {
        static const std::string m =
            msg("collectives (HCCL) are missing from the kernels and the busy time.");
        return m.c_str();
    }
    if (t == "COMMUNICATION_TASK_INFO") {
        static const std::string m = msg("HCCL plane tasks are shown as device tasks.");
        return m.c_str();
    }
    if (t == "TASK_PMU_INFO") {
        static const std::string m = msg("no PMU figures: compute/memory-bound verdicts are unavailable.");
        return m.c_str();
    }
    if (t == "PYTORCH_API") {
        static const std::string m =
            msg("no PyTorch host ops: bubbles cannot be attributed to host activity.");
        return m.c_str();
    }
    if (t == "CANN_API") {
        static const std::string m = msg("no CANN host calls (launches, synchronisation) as host evidence.");
        return m.c_str();
    }
    if (t == "CONNECTION_IDS" || t == "connectionCats") {
        static const std::string m = msg("host ops are not linked to the kernels they launched.");
        return m.c_str();
    }
    if (t == "STEP_TIME") {
        static const std::string m = msg("step markers come from PYTORCH_API alone.");
        return m.c_str();
    }
    if (t == "OVERLAP_ANALYSIS") {
        static const std::string m = msg("the profiler's Overlap Analysis lanes are not shown.");
        return m.c_str();
    }
    if (t == "StepTraceTime") {
        static const std::string m = msg("there is no profiler cross-check.");
        return m.c_str();
    }
    if (t == "CommAnalyzerTime") {
        static const std::string m =
            msg("communication wait / transit / synchronisation per collective are missing.");
        return m.c_str();
    }
    if (t == "CommAnalyzerBandwidth") {
        static const std::string m = msg("collectives have no transit sizes.");
        return m.c_str();
    }
    {
        static const std::string m = msg("its data is missing.");
        return m.c_str();
    }
}

// TASK's runtime task types (Level0 exports leave COMPUTE_TASK_INFO.taskType "N/A") under the names of
// kernel_details' Accelerator Core, so that kernels are classified alike.
StrId DbReader::runtimeTaskType(StrId t) {
    const std::string_view v = prof_.str(t);
    if (v == "KERNEL_AICORE") return prof_.strings.intern("AI_CORE");
    if (v == "KERNEL_AIVEC") return prof_.strings.intern("AI_VECTOR_CORE");
    if (v == "KERNEL_AICPU") return prof_.strings.intern("AI_CPU");
    return t;
}

void DbReader::buildKernelsAndDeviceEvents() {
    std::vector<std::int32_t> commStream(commOps_.size(), -1);
    for (const auto& t : tasks_) {
        if (t.connectionId < 0 || t.stream < 0) continue;
        auto it = commByConnection_.find(t.connectionId);
        if (it != commByConnection_.end() && commStream[it->second] < 0) commStream[it->second] = t.stream;
    }
    const StrId hccl = prof_.strings.intern("HCCL");
    std::vector<char> emitted(commOps_.size(), 0);
    std::size_t streamsFound = 0;
    auto emitComm = [&](std::uint32_t i) {
        if (emitted[i]) return;
        emitted[i] = 1;
        const CommOpRow& c = commOps_[i];
        Kernel k;
        k.start = c.start;
        k.dur = c.end - c.start;
        k.wait = c.wait;
        k.name = c.name;
        k.opType = c.opType;
        k.taskType = hccl;
        k.stream = commStream[i];
        if (k.stream >= 0) ++streamsFound;
        k.cls = classifyTaskType(prof_.str(hccl), prof_.str(k.name));
        prof_.kernels.push_back(k);
    };
    std::vector<StrId> planeNames;
    for (const auto& t : tasks_) {
        const std::uint64_t dev = static_cast<std::uint64_t>(t.device);
        auto comm = t.connectionId >= 0 ? commByConnection_.find(t.connectionId) : commByConnection_.end();
        const bool isComm = comm != commByConnection_.end();
        TraceEvent e;
        e.ts = t.start;
        e.dur = t.end - t.start;
        e.taskType = t.taskType;
        e.streamArg = t.stream;
        if (auto plane = planeByTask_.find(t.globalTaskId); plane != planeByTask_.end()) {
            // A collective's internal transfer: an HCCL "Plane N" lane, like the trace's.
            const std::uint64_t pid = kHcclPidBase | dev;
            const auto tid = static_cast<std::uint64_t>(plane->second) + 1000;
            e.lane = lane(pid, tid, LaneKind::Hccl, [&] {
                nameProcess(pid, "HCCL", "NPU", 15);
                prof_.threads[{pid, tid}] = {fmt::format("Plane {}", plane->second), plane->second + 1000};
            });
            e.name = t.taskType;
            prof_.hcclEvents.push_back(e);
            if (isComm) emitComm(comm->second);
            continue;
        }
        const std::uint64_t pid = kDevicePidBase | dev;
        const auto stream = static_cast<std::uint64_t>(t.stream < 0 ? 0 : t.stream);
        e.lane = lane(pid, stream, LaneKind::Device, [&] {
            nameProcess(pid, "Ascend Hardware", "NPU", 13);
            prof_.threads[{pid, stream}] = {fmt::format("Stream {}", stream),
                                            static_cast<std::int64_t>(stream)};
        });
        auto ci = t.globalTaskId >= 0 ? computeByTask_.find(t.globalTaskId) : computeByTask_.end();
        e.name = ci != computeByTask_.end() ? compute_[ci->second].name
                                            : (isComm ? commOps_[comm->second].name : t.taskType);
        prof_.deviceEvents.push_back(e);
        if (t.connectionId >= 0) taskEnds_.emplace_back(t.connectionId, e.lane, t.start);
        if (ci != computeByTask_.end()) {
            const ComputeInfo& c = compute_[ci->second];
            Kernel k;
            k.start = t.start;
            k.dur = t.end - t.start;
            k.wait = c.wait;
            k.name = c.name ? c.name : t.taskType;
            k.opType = c.opType;
            k.taskType = c.taskType ? c.taskType : runtimeTaskType(t.taskType);
            k.inputShapes = c.inShapes;
            k.inputDtypes = c.inTypes;
            k.outputShapes = c.outShapes;
            k.outputDtypes = c.outTypes;
            k.stream = t.stream;
            k.blockDim = c.blockDim;
            k.cls = classifyTaskType(prof_.str(k.taskType), prof_.str(k.name));
            kernelByTask_.emplace(t.globalTaskId, static_cast<std::uint32_t>(prof_.kernels.size()));
            prof_.kernels.push_back(k);
        } else if (isComm) {
            emitComm(comm->second);
        }
    }
    for (std::uint32_t i = 0; i < commOps_.size(); ++i)
        emitComm(i);
    // Collectives on the HCCL "Group N Communication" lanes, numbered by first appearance of their group.
    std::vector<StrId> groups;
    for (const auto& c : commOps_) {
        auto g = std::find(groups.begin(), groups.end(), c.group);
        const auto idx = static_cast<std::uint64_t>(g - groups.begin());
        if (g == groups.end()) groups.push_back(c.group);
        const std::uint64_t pid = kHcclPidBase;
        TraceEvent e;
        e.ts = c.start;
        e.dur = c.end - c.start;
        e.lane = lane(pid, idx, LaneKind::Hccl, [&] {
            nameProcess(pid, "HCCL", "NPU", 15);
            prof_.threads[{pid, idx}] = {fmt::format("Group {} Communication", idx),
                                         static_cast<std::int64_t>(idx)};
        });
        e.name = c.name;
        prof_.hcclEvents.push_back(e);
    }
    // COMMUNICATION_OP has no stream column: like kernel_details' HCCL rows, the stream comes from the tasks
    // of the same connection id (core/README.md, "SQLite export").
    prof_.inventory.kernelsWithoutStream = commOps_.size();
    prof_.inventory.streamsFromTrace = streamsFound;
}

// TASK_PMU_INFO read on a thread of its own, with its own connection (the table holds ~25 rows per kernel,
// most of a Level1 database), from the start of the load: which tasks are kernels is not known yet, so every
// run of rows of one globalTaskId becomes a row here, and applyPmu() keeps the kernels' rows — with the
// columns, bad values and order a read that knew the kernels gives. It touches no shared state.
// A row keeps its values in the order their names first appear in it (a later value of a name replaces the
// earlier one) and that order as a pattern shared by every row with the same one: a float per value however
// many distinct names the table holds — never a names x rows matrix (16 000 names, one per kernel, made
// that 1 GB here and as much again in the PmuTable).
struct PmuRead {
    bool present = false;
    std::string missingColumn, error;
    std::vector<std::int64_t> nameIds; // STRING_IDS id of each column, by first appearance in the table
    std::vector<std::int64_t> gids;    // globalTaskId of each row
    // Row r: values[rowStart[r] … rowStart[r + 1]), of the columns of pattern rowPattern[r]; pattern p:
    // patternColumns[patternStart[p] … patternStart[p + 1]).
    std::vector<float> values;
    std::vector<std::size_t> rowStart{0};
    std::vector<std::uint32_t> rowPattern;
    std::vector<std::uint32_t> patternColumns;
    std::vector<std::size_t> patternStart{0};
    std::vector<std::uint32_t> badRows;                             // the row of each bad value
    std::vector<std::pair<std::uint32_t, std::string>> badExamples; // the first bad value of the first rows
    std::uint64_t tableRows = 0;
    std::exception_ptr exception; // of the thread (out of memory), rethrown on the caller's thread
    std::size_t rows() const { return gids.size(); }
};

static void readPmuTable(const std::string& path, const LoadControl& control, PmuRead& out) {
    SqliteDb db(path);
    if (!db.ok() || !db.hasTable("TASK_PMU_INFO")) return;
    out.present = true;
    const auto have = db.columns("TASK_PMU_INFO");
    for (const char* c : {"globalTaskId", "name", "value"})
        if (std::find(have.begin(), have.end(), c) == have.end()) return void(out.missingColumn = c);
    SqliteQuery q(db, "SELECT \"globalTaskId\", \"name\", \"value\" FROM \"TASK_PMU_INFO\"");
    if (!q.ok()) return void(out.error = q.error());
    std::unordered_map<std::int64_t, std::uint32_t> colOf;
    std::unordered_map<std::string, std::uint32_t> patternOf; // a pattern's columns (their bytes) → pattern
    std::vector<std::uint32_t> rowCols; // the current row's columns, in order of first appearance
    // Per column: the row (+ 1) it last had a value in, and its slot in that row.
    std::vector<std::size_t> seenIn, seenAt;
    std::uint32_t lastPattern = UINT32_MAX;
    // The rows of one task come alike (the same names in the same order): the previous row's pattern is tried
    // before the map.
    auto patternFor = [&]() -> std::uint32_t {
        auto columnsOf = [&](std::uint32_t p) {
            return std::pair(out.patternColumns.begin() + static_cast<std::ptrdiff_t>(out.patternStart[p]),
                             out.patternColumns.begin() +
                                 static_cast<std::ptrdiff_t>(out.patternStart[p + 1]));
        };
        if (lastPattern != UINT32_MAX) {
            const auto [b, e] = columnsOf(lastPattern);
            if (std::equal(b, e, rowCols.begin(), rowCols.end())) return lastPattern;
        }
        std::string key(reinterpret_cast<const char*>(rowCols.data()),
                        rowCols.size() * sizeof(std::uint32_t));
        const auto [it, fresh] =
            patternOf.try_emplace(std::move(key), static_cast<std::uint32_t>(out.patternStart.size() - 1));
        if (fresh) {
            out.patternColumns.insert(out.patternColumns.end(), rowCols.begin(), rowCols.end());
            out.patternStart.push_back(out.patternColumns.size());
        }
        return lastPattern = it->second;
    };
    auto endRow = [&] {
        out.rowPattern.push_back(patternFor());
        out.rowStart.push_back(out.values.size());
        rowCols.clear();
    };
    std::int64_t lastGid = -1, lastName = -1;
    std::uint32_t col = 0;
    std::uint64_t tick = 0;
    while (q.next()) {
        if ((++tick & 0xFFFF) == 0 && control.cancelled()) break;
        std::int64_t gid = 0, name = 0;
        if (!q.integer(0, gid) || !q.integer(1, name)) continue;
        if (gid != lastGid || out.gids.empty()) {
            if (!out.gids.empty()) endRow();
            lastGid = gid;
            out.gids.push_back(gid);
        }
        const std::size_t row = out.gids.size() - 1;
        const auto type = q.type(2);
        if (type == SqliteQuery::Type::Null) continue;
        const double v = q.f64(2);
        if ((type != SqliteQuery::Type::Integer && type != SqliteQuery::Type::Real) || !(v >= 0) ||
            v > static_cast<double>(std::numeric_limits<float>::max())) {
            if (out.badRows.empty() || out.badRows.back() != row) {
                if (out.badExamples.size() < 1024)
                    out.badExamples.emplace_back(
                        static_cast<std::uint32_t>(row),
                        msg("row {} holds '{}'", q.rows(), std::string(q.text(2).substr(0, 40))));
            }
            out.badRows.push_back(static_cast<std::uint32_t>(row));
            continue;
        }
        if (name != lastName) {
            lastName = name;
            const auto [it, fresh] = colOf.try_emplace(name, static_cast<std::uint32_t>(out.nameIds.size()));
            if (fresh) {
                out.nameIds.push_back(name);
                seenIn.push_back(0);
                seenAt.push_back(0);
            }
            col = it->second;
        }
        if (seenIn[col] == row + 1) {
            out.values[out.rowStart.back() + seenAt[col]] = static_cast<float>(v);
        } else {
            seenIn[col] = row + 1;
            seenAt[col] = rowCols.size();
            rowCols.push_back(col);
            out.values.push_back(static_cast<float>(v));
        }
    }
    if (!out.gids.empty()) endRow();
    out.tableRows = q.rows();
    if (!q.error().empty()) out.error = q.error();
}

DbReader::DbReader(const DbFiles& f, Profile& p, FindingSink& s, const LoadControl& c)
    : files_(f), prof_(p), sink_(s), control_(c) {}

DbReader::~DbReader() {
    if (pmuThread_.joinable()) pmuThread_.join();
    if (hostThread_.joinable()) hostThread_.join();
}

void DbReader::startPmu() {
    pmu_ = std::make_unique<PmuRead>();
    pmuThread_ = std::thread([this] {
        try {
            readPmuTable(files_.profilerDb, control_, *pmu_);
        } catch (...) {
            pmu_->exception = std::current_exception();
        }
    });
}

void DbReader::applyPmu(const SqliteDb& db) {
    if (pmuThread_.joinable()) pmuThread_.join();
    if (!pmu_) return;
    PmuRead& r = *pmu_;
    if (r.exception) std::rethrow_exception(r.exception);
    const std::string name = std::filesystem::path(db.path()).filename().string();
    if (!r.present) {
        tablesMissing_.push_back(name + ":TASK_PMU_INFO");
        return;
    }
    if (!r.missingColumn.empty()) {
        sink_.add({"db_table_unusable", Severity::Warning, db.path(), -1, -1,
                   msg("Table TASK_PMU_INFO of {} has no column '{}'.", name, r.missingColumn),
                   msg("Table {} is not read; {}", "TASK_PMU_INFO", dbTableEffect("TASK_PMU_INFO")),
                   msg("The file was written by an unknown profiler version or was edited: export it again "
                       "with the profiler (export_type=db) or export the text files (export_type=text)."),
                   "collection-problems.md#sqlite-export"});
        return;
    }
    if (!r.error.empty() && !cancelled_)
        sink_.add(
            {"db_read_error", Severity::Error, db.path(), -1, -1,
             msg("Reading table {} of {} stopped after {} row(s): {}.", "TASK_PMU_INFO", name, r.tableRows,
                 r.error),
             msg("The rows before the error are kept; the rest of {} is missing: {}", "TASK_PMU_INFO",
                 dbTableEffect("TASK_PMU_INFO")),
             msg("The file is damaged (cut while being copied or written): copy it again from the machine "
                 "that collected it, or export again with the profiler."),
             "collection-problems.md#sqlite-export"});
    tablesRead_.emplace_back(name + ":TASK_PMU_INFO", r.tableRows);
    // The kernels' rows, numbered in table order; the others are PMU of tasks that are not kernels.
    std::vector<std::int32_t> keptAs(r.rows(), -1);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> kernelRows; // kernel index, local row
    for (std::size_t row = 0; row < r.rows(); ++row)
        if (auto k = kernelByTask_.find(r.gids[row]); k != kernelByTask_.end()) {
            keptAs[row] = static_cast<std::int32_t>(kernelRows.size());
            kernelRows.emplace_back(k->second, static_cast<std::uint32_t>(row));
        }
    std::uint64_t bad = 0;
    std::string badExample;
    for (std::uint32_t row : r.badRows)
        if (keptAs[row] >= 0 && bad++ == 0)
            for (const auto& [exRow, example] : r.badExamples)
                if (exRow == row) badExample = example;
    if (bad)
        bad_.push_back({db.path(), "TASK_PMU_INFO", "value", badExample,
                        msg("a non-negative number that fits a float"), bad});
    // Columns in order of first value in a kernel's row (a pattern is that order).
    std::vector<std::uint32_t> cols;
    std::vector<std::int64_t> outCol(r.nameIds.size(), -1); // a name's column in the PmuTable
    std::vector<char> patternSeen(r.patternStart.size() - 1, 0);
    std::size_t cells = 0;
    for (const auto& [k, row] : kernelRows) {
        cells += r.rowStart[row + 1] - r.rowStart[row];
        const std::uint32_t p = r.rowPattern[row];
        if (patternSeen[p]) continue;
        patternSeen[p] = 1;
        for (std::size_t i = r.patternStart[p]; i < r.patternStart[p + 1]; ++i)
            if (const std::uint32_t c = r.patternColumns[i]; outCol[c] < 0)
                outCol[c] = static_cast<std::int64_t>(cols.size()), cols.push_back(c);
    }
    // Column names as kernel_details writes them: times carry their unit (aic_mac_time → aic_mac_time(us));
    // the totals are kernel_details' aicore_time(us) / aiv_time(us).
    PmuTable& pmu = prof_.pmu;
    for (std::uint32_t c : cols) {
        std::string n(prof_.str(sidOf(r.nameIds[c])));
        if (n == "aic_total_time") n = "aicore_time";
        if (n == "aiv_total_time") n = "aiv_time";
        if (n.size() > 5 && n.compare(n.size() - 5, 5, "_time") == 0) n += "(us)";
        pmu.columns.push_back(n);
    }
    // Dense when at least half the slots hold a value (every real export: each kernel has the same ~25
    // names), else sparse: O(values) either way.
    const std::size_t n = cols.size();
    const bool dense = kernelRows.size() * n <= 2 * cells;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    if (dense) {
        pmu.values.assign(kernelRows.size() * n, nan);
    } else {
        pmu.values.reserve(cells);
        pmu.cellColumn.reserve(cells);
        pmu.rowStart.reserve(kernelRows.size() + 1);
        pmu.rowStart.push_back(0);
    }
    bool anyNonZero = false;
    std::vector<std::pair<std::uint32_t, float>> rowCells; // sparse: a row's (column, value), by column
    for (std::size_t i = 0; i < kernelRows.size(); ++i) {
        const std::uint32_t row = kernelRows[i].second, p = r.rowPattern[row];
        const std::size_t first = r.rowStart[row], count = r.rowStart[row + 1] - first;
        rowCells.clear();
        for (std::size_t j = 0; j < count; ++j) {
            const float v = r.values[first + j];
            const auto c = static_cast<std::uint32_t>(outCol[r.patternColumns[r.patternStart[p] + j]]);
            if (v != 0) anyNonZero = true; // values read are numbers, never NaN
            if (dense)
                pmu.values[i * n + c] = v;
            else
                rowCells.emplace_back(c, v);
        }
        if (!dense) {
            std::sort(rowCells.begin(), rowCells.end());
            for (const auto& [c, v] : rowCells)
                pmu.cellColumn.push_back(c), pmu.values.push_back(v);
            pmu.rowStart.push_back(pmu.values.size());
        }
        prof_.kernels[kernelRows[i].first].pmuRow = static_cast<std::int32_t>(i);
    }
    if (!kernelRows.empty() && !anyNonZero)
        sink_.add({"pmu_all_zero", Severity::Warning, db.path(), -1, -1,
                   msg("Every PMU value (aic_*/aiv_*) of table TASK_PMU_INFO is zero."),
                   msg("Compute-bound / memory-bound verdicts are unavailable."),
                   msg("Collect with Level1 and aic_metrics=PipeUtilization (see collection-problems.md, "
                       "\"Level0 kernel table\")."),
                   "collection-problems.md#level0-kernel-table"});
    pmu_.reset();
}

void DbReader::finish() {
    auto byStart = [](const Kernel& a, const Kernel& b) { return a.start < b.start; };
    if (!mergeNaturalRuns(prof_.kernels, 0, prof_.kernels.size(), byStart))
        std::stable_sort(prof_.kernels.begin(), prof_.kernels.end(), byStart);
    // The Step Id the text table carries: the STEP_TIME window holding the kernel's start.
    for (auto& k : prof_.kernels) {
        auto it = std::upper_bound(stepTimes_.begin(), stepTimes_.end(), k.start,
                                   [](TimeNs t, const std::pair<TimeNs, TimeNs>& s) { return t < s.first; });
        if (it == stepTimes_.begin()) continue;
        --it;
        const auto id = stepIds_[static_cast<std::size_t>(it - stepTimes_.begin())];
        if (k.start < it->second && id >= 0 && id < (1LL << 31)) k.stepId = static_cast<std::int32_t>(id);
    }
    auto byTs = [](const TraceEvent& a, const TraceEvent& b) {
        if (a.ts != b.ts) return a.ts < b.ts;
        if (a.dur != b.dur) return a.dur > b.dur;
        if (a.lane != b.lane) return a.lane < b.lane;
        return a.name < b.name;
    };
    // Each table's rows come in time order: sort only the runs that are not, then merge them.
    hostRuns_.push_back(prof_.hostEvents.size());
    sortRuns(prof_.hostEvents, hostRuns_, byTs);
    for (auto* v : {&prof_.deviceEvents, &prof_.hcclEvents, &prof_.overlapEvents})
        sortRuns(*v, {v->size()}, byTs);
    flowRuns_.push_back(prof_.flows.size());
    sortRuns(prof_.flows, flowRuns_, [](const FlowEvent& a, const FlowEvent& b) {
        if (a.ts != b.ts) return a.ts < b.ts;
        if (a.id != b.id) return a.id < b.id;
        return a.phase < b.phase;
    });
    for (const auto& b : bad_) {
        // In a file that is cut, rows near the cut read as zeros or garbage: that is the cut, said as such.
        if (truncated_ && b.file == files_.profilerDb) {
            sink_.add({"db_truncated", Severity::Warning, b.file, -1, -1,
                       msg("{} row(s) of table {} in {} could not be read whole in column {}, near the cut (first: {}).",
                           b.count, b.table, std::filesystem::path(b.file).filename().string(), b.column, b.example),
                       msg("Those rows are skipped (or that value is left out); the other rows are read."),
                       msg("The file was copied or written incompletely: copy it again from the machine that collected "
                           "it, or export again with the profiler."),
                       "collection-problems.md#sqlite-export"});
            continue;
        }
        sink_.add(
            {"db_bad_value", Severity::Warning, b.file, -1, -1,
             msg("{} row(s) of table {} in {} have an unexpected value in column {} (expected {}; first: "
                 "{}).",
                 b.count, b.table, std::filesystem::path(b.file).filename().string(), b.column, b.expected,
                 b.example),
             msg("Those rows are skipped (or that value is left out); the other rows are read."),
             msg("The file was edited or written by an unknown profiler version: export it again with the "
                 "profiler."),
             "collection-problems.md#sqlite-export"});
    }
    auto& inv = prof_.inventory;
    inv.source = "sqlite";
    inv.kernelSource = prof_.kernels.empty() ? KernelSource::None : KernelSource::SqliteTasks;
    inv.kernelSourceFile = files_.profilerDb;
    inv.kernelDetailsLevel.clear();
    for (const auto& [t, n] : tablesRead_)
        inv.dbTablesRead.push_back(fmt::format("{} ({} row{})", t, n, n == 1 ? "" : "s"));
    inv.dbTablesMissing = tablesMissing_;
    inv.traceEventCount += prof_.hostEvents.size() + prof_.deviceEvents.size() + prof_.hcclEvents.size() +
                           prof_.overlapEvents.size() + prof_.flows.size();
    prof_.hasTrace = prof_.hasTrace || !prof_.hostEvents.empty() || !prof_.deviceEvents.empty();
    std::string missing;
    for (const auto& m : tablesMissing_)
        missing += (missing.empty() ? "" : ", ") + m;
    std::string read; // as inv.dbTablesRead, in the reader's language
    for (const auto& [t, n] : tablesRead_)
        read += (read.empty() ? "" : ", ") + msg("{} ({} row{})", t, n, n == 1 ? "" : "s");
    sink_.add(
        {"db_source", Severity::Info, files_.profilerDb, -1, -1,
         msg("Read the SQLite export (no text export is used): tables {}.",
             read.empty() ? msg("none") : read),
         missing.empty()
             ? msg("Kernels, host activity, step markers and the profiler's own step breakdown come from "
                   "these "
                   "tables.")
             : msg("Expected tables not found: {}. What they hold is missing from the analysis (see "
                   "collection-problems.md, \"SQLite export\").",
                   missing),
         msg("Nothing to fix: this is the profiler's database export. Text files (export_type=text) are read "
             "instead when present."),
         "collection-problems.md#sqlite-export"});
}

DbReadResult DbReader::run() {
    SqliteDb db(files_.profilerDb);
    walFindings(db, msg("Nothing is read from it (no kernels, host activity or step markers)."));
    if (!db.ok()) {
        if (!db.walPath().empty()) return res_;
        sink_.add({"db_unreadable", Severity::Error, files_.profilerDb, -1, -1,
                   msg("{} cannot be read as a SQLite database: {}.",
                       std::filesystem::path(files_.profilerDb).filename().string(), db.error()),
                   msg("Nothing is read from it (no kernels, host activity or step markers)."),
                   msg("The file is not a complete database (cut while being copied, or not the profiler's): "
                       "copy it "
                       "again from the machine that collected it, or export again (export_type=db or text)."),
                   "collection-problems.md#sqlite-export"});
        return res_;
    }
    res_.ok = true;
    truncated_ = db.truncated();
    if (truncated_) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(files_.profilerDb, ec);
        sink_.add(
            {"db_truncated", Severity::Error, files_.profilerDb, -1, ec ? -1 : static_cast<long long>(size),
             msg("{} is cut: it ends at byte {} although its header counts more pages.",
                 std::filesystem::path(files_.profilerDb).filename().string(), ec ? 0 : size),
             msg("Each table is read up to the cut; the tables that reach past it are named below with the "
                 "rows "
                 "kept. Bubbles near the missing rows are not trustworthy."),
             msg("The file was copied or written incompletely: copy it again from the machine that collected "
                 "it, or export again with the profiler."),
             "collection-problems.md#sqlite-export"});
    }
    msprof_ = std::filesystem::path(files_.profilerDb).filename().string().rfind("msprof_", 0) == 0;
    // Three threads, each with its own connection: TASK_PMU_INFO (the largest table), the host tables, and
    // the device tables here. Each joins in before its results are needed (also on every early return:
    // destructor); core/README.md, "SQLite export".
    startPmu();
    readStrings(db);
    readStepTimes(db);
    startHost();
    readTasks(db);
    readComputeInfo(db);
    readPlaneTasks(db);
    readCommOps(db);
    if (cancelled_) return res_.cancelled = true, res_;
    buildKernelsAndDeviceEvents();
    control_.report("sqlite kernels", tablesRead_.size(), 0);
    mergeHost();
    control_.report("sqlite host tables (joined)", tablesRead_.size(), 0);
    if (cancelled_) return res_.cancelled = true, res_;
    buildFlows();
    control_.report("sqlite flows", tablesRead_.size(), 0);
    applyPmu(db);
    control_.report("sqlite TASK_PMU_INFO (joined)", tablesRead_.size(), 0);
    if (cancelled_ || control_.cancelled()) return res_.cancelled = true, res_;
    // Memory the join tables no longer need.
    tasks_ = {};
    compute_ = {};
    computeByTask_ = {};
    planeByTask_ = {};
    kernelByTask_ = {};
    control_.report("sqlite join", tablesRead_.size(), 0);
    finish();
    control_.report("sqlite sort", tablesRead_.size(), 0);
    return res_;
}

} // namespace dbimpl

DbReadResult readSqliteExport(const DbFiles& files, Profile& prof, FindingSink& sink,
                              const LoadControl& control) {
    return dbimpl::DbReader(files, prof, sink, control).run();
}

} // namespace bs
