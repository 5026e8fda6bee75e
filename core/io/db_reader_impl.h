#pragma once
// Internal to the SQLite reader (db_reader.cpp: device tables; db_host_reader.cpp: host tables, flows,
// analysis.db). Not part of core's interface.
#include "io/db_reader.h"
#include "io/sqlite_db.h"

#include <exception>
#include <limits>
#include <memory>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace bs::dbimpl {

struct PmuRead;
struct HostSide;

struct PairHash {
    std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& k) const noexcept {
        return std::hash<std::uint64_t>{}(k.first * 0x9E3779B97F4A7C15ULL ^
                                          (k.second + 0x632BE59BD9B4E019ULL));
    }
};

// What the analysis loses when a table cannot be read (for findings).
const char* dbTableEffect(const std::string& table);

// Synthetic process ids: the export keeps thread ids (globalTid = pid << 32 | tid) but names no
// processes, so lanes get ids of their own, apart from any real pid (< 2^32).
constexpr std::uint64_t kCannPidBase = 1ULL << 40, kDevicePidBase = 2ULL << 40, kHcclPidBase = 3ULL << 40,
                        kOverlapPidBase = 4ULL << 40;

// A TASK row kept until kernels, device events and HCCL plane tasks are told apart.
struct TaskRow {
    TimeNs start = 0, end = 0;
    std::int64_t globalTaskId = -1, connectionId = -1;
    std::int32_t stream = -1;
    std::int32_t device = 0;
    StrId taskType = 0;
};

struct ComputeInfo {
    StrId name = 0, opType = 0, taskType = 0, inShapes = 0, inTypes = 0, outShapes = 0, outTypes = 0;
    std::uint32_t blockDim = 0;
    TimeNs wait = 0;
};

struct CommOpRow {
    TimeNs start = 0, end = 0, wait = 0;
    std::int64_t connectionId = -1;
    StrId name = 0, opType = 0, group = 0;
};

class DbReader {
  public:
    DbReader(const DbFiles& f, Profile& p, FindingSink& s, const LoadControl& c);
    ~DbReader();
    DbReadResult run();

  private:
    // Steps of run(), in order.
    void readStrings(const SqliteDb& db);
    void readStepTimes(const SqliteDb& db);
    void readTasks(const SqliteDb& db);
    void readComputeInfo(const SqliteDb& db);
    void readPlaneTasks(const SqliteDb& db);
    void readCommOps(const SqliteDb& db);
    void buildKernelsAndDeviceEvents();
    void startPmu();
    void applyPmu(const SqliteDb& db);
    void startHost();
    void readHostSide(); // the host thread's body, on a reader of its own (db_host_reader.cpp)
    void readHostApis(const SqliteDb& db);
    void readFlowTables(const SqliteDb& db);
    void readOverlap(const SqliteDb& db);
    void readAnalysisDb();
    void mergeHost();
    void buildFlows();
    void finish();

    // Opens `table` for reading its `cols` (required first, `required` of them). False (with the table
    // listed as missing, or a finding when it is there but unusable) when it cannot be read.
    bool select(const SqliteDb& db, const std::string& table, const std::vector<std::string>& cols,
                std::size_t required, std::unique_ptr<SqliteQuery>& q, const std::string& where = {});
    // After the last row: a read error (a cut or corrupt file) becomes a finding; counts the table read.
    void endTable(const SqliteDb& db, const std::string& table, const SqliteQuery& q);
    void badValue(const SqliteDb& db, const std::string& table, const std::string& column, std::uint64_t row,
                  const SqliteQuery& q, int col, const char* expected);
    // A database with a -wal file (db.walPath() set): read with it (Info), or refused by the -wal's name
    // (Error; `lost`: what the analysis then lacks). Reading the .db alone would give older content.
    void walFindings(const SqliteDb& db, const std::string& lost);
    bool cancelled() {
        if ((++tick_ & 0xFFFF) == 0 && control_.cancelled()) cancelled_ = true;
        return cancelled_;
    }
    StrId sid(const SqliteQuery& q, int col);
    StrId sidOf(std::int64_t id);
    StrId runtimeTaskType(StrId t);
    std::uint32_t laneOf(std::uint64_t pid, std::uint64_t tid, LaneKind kind);
    // The lane of (pid, tid), named by `name()` (process and thread names) when it is new. Rows of one
    // lane come in runs: the last lane is checked before the hash map.
    template <typename Name>
    std::uint32_t lane(std::uint64_t pid, std::uint64_t tid, LaneKind kind, Name&& name) {
        if (lastLane_ != UINT32_MAX && lastPid_ == pid && lastTid_ == tid) return lastLane_;
        const std::size_t before = prof_.lanes.size();
        lastLane_ = laneOf(pid, tid, kind);
        if (prof_.lanes.size() != before) name();
        lastPid_ = pid;
        lastTid_ = tid;
        return lastLane_;
    }
    std::uint32_t lastLane_ = UINT32_MAX;
    std::uint64_t lastPid_ = 0, lastTid_ = 0;
    void nameProcess(std::uint64_t pid, const char* name, const char* labels, std::int64_t sort);

    const DbFiles& files_;
    Profile& prof_;
    FindingSink& sink_;
    const LoadControl& control_;
    DbReadResult res_;
    bool cancelled_ = false;
    std::uint64_t tick_ = 0;
    bool haveStrings_ = false;
    // STRING_IDS: ids carry a category in their high bits (1 << 28, 1 << 29 …); each category is dense.
    std::vector<std::vector<StrId>> strBuckets_;
    std::unordered_map<std::int64_t, StrId> strSparse_;
    std::unordered_map<std::pair<std::uint64_t, std::uint64_t>, std::uint32_t, PairHash> lanes_;
    std::vector<std::pair<std::string, std::uint64_t>> tablesRead_;
    std::vector<std::string> tablesMissing_;
    struct BadCount {
        std::string file, table, column, example, expected;
        std::uint64_t count = 0;
    };
    std::vector<BadCount> bad_;
    bool truncated_ = false; // the profiler database is cut: its bad values are the cut's
    std::vector<std::pair<TimeNs, TimeNs>> stepTimes_; // STEP_TIME (start, end), by start
    std::vector<std::int64_t> stepIds_;
    std::vector<TaskRow> tasks_;
    std::vector<ComputeInfo> compute_;
    std::unordered_map<std::int64_t, std::uint32_t> computeByTask_; // globalTaskId → compute_ index
    std::unordered_map<std::int64_t, std::int32_t> planeByTask_;    // globalTaskId → plane id
    std::vector<CommOpRow> commOps_;
    std::unordered_map<std::int64_t, std::uint32_t> commByConnection_;
    std::unordered_map<std::int64_t, std::uint32_t> kernelByTask_; // globalTaskId → kernel index
    std::vector<std::tuple<std::int64_t, std::uint32_t, TimeNs>>
        taskEnds_; // connectionId, device lane, start (flows)
    bool msprof_ = false;
    std::unique_ptr<PmuRead> pmu_;
    std::thread pmuThread_;
    // The host tables (PYTORCH_API, CANN_API, flows' tables, OVERLAP_ANALYSIS, analysis.db) are read on a
    // thread of their own by a second reader with its own Profile, merged in after the device tables.
    std::unique_ptr<HostSide> host_;
    std::thread hostThread_;
    bool onHostThread_ = false; // no progress reports from there: the callback belongs to the caller's thread
    // connectionCats, per connectionId: its first category and whether any row names HostToDevice /
    // async_npu. Rows repeat a connection any number of times; a list of them per connection, copied for
    // every launch, made many rows sharing one connection quadratic.
    struct FlowCategories {
        StrId first = 0;
        bool hostToDevice = false, npu = false;
    };
    std::unordered_map<std::int64_t, FlowCategories> flowCats_;
    std::vector<std::pair<std::int64_t, std::int64_t>> byApi_; // CONNECTION_IDS (id, connectionId), sorted
    struct HostLink {
        std::int64_t connectionId;
        std::uint32_t lane;
        TimeNs ts, end;
    };
    std::vector<HostLink> torchLinks_, cannLinks_; // PYTORCH_API (id into CONNECTION_IDS) / CANN_API rows
    std::uint32_t firstPythonLane_ = UINT32_MAX;
    std::vector<std::size_t> hostRuns_, flowRuns_; // where each table's rows end in hostEvents / flows
};

// The host thread's reader with its own Profile (string pool, lanes) and findings; merged by mergeHost().
struct HostSide {
    Profile prof;
    FindingSink sink{std::numeric_limits<std::size_t>::max()}; // capped when merged, in the main sink
    std::unique_ptr<DbReader> reader;
    std::exception_ptr error; // an exception of the thread (out of memory), rethrown on the caller's thread
};

} // namespace bs::dbimpl
