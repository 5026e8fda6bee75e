#include "db_writer.h"

#include <sqlite3.h>

#include <fmt/format.h>

#include <stdexcept>
#include <string_view>
#include <unordered_map>

namespace synth {

namespace {

class Db {
  public:
    explicit Db(const std::string& path) {
        std::remove(path.c_str());
        if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) throw std::runtime_error("cannot create " + path);
        exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size=-262144; BEGIN;");
    }
    ~Db() {
        for (auto* s : stmts_)
            sqlite3_finalize(s);
        if (db_) sqlite3_close(db_);
    }
    void exec(const std::string& sql) {
        char* err = nullptr;
        if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
            std::string e = err ? err : "?";
            sqlite3_free(err);
            throw std::runtime_error("sqlite: " + e + " in " + sql);
        }
    }
    sqlite3_stmt* prepare(const std::string& sql) {
        sqlite3_stmt* s = nullptr;
        if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr) != SQLITE_OK)
            throw std::runtime_error(std::string("sqlite: ") + sqlite3_errmsg(db_));
        stmts_.push_back(s);
        return s;
    }
    // Binds the values (int64, double, text or nullptr for NULL) and runs the statement once.
    template <typename... A> void run(sqlite3_stmt* s, const A&... a) {
        int i = 0;
        (bind(s, ++i, a), ...);
        if (sqlite3_step(s) != SQLITE_DONE) throw std::runtime_error(std::string("sqlite: ") + sqlite3_errmsg(db_));
        sqlite3_reset(s);
    }
    std::uint64_t bytes() {
        sqlite3_stmt* s = nullptr;
        sqlite3_prepare_v2(db_, "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()", -1,
                           &s, nullptr);
        std::uint64_t n = 0;
        if (sqlite3_step(s) == SQLITE_ROW) n = static_cast<std::uint64_t>(sqlite3_column_int64(s, 0));
        sqlite3_finalize(s);
        return n;
    }
    void close() {
        exec("COMMIT;");
        for (auto* s : stmts_)
            sqlite3_finalize(s);
        stmts_.clear();
        sqlite3_close(db_);
        db_ = nullptr;
    }

  private:
    static void bind(sqlite3_stmt* s, int i, std::int64_t v) { sqlite3_bind_int64(s, i, v); }
    static void bind(sqlite3_stmt* s, int i, int v) { sqlite3_bind_int64(s, i, v); }
    static void bind(sqlite3_stmt* s, int i, std::uint64_t v) { sqlite3_bind_int64(s, i, static_cast<std::int64_t>(v)); }
    static void bind(sqlite3_stmt* s, int i, double v) { sqlite3_bind_double(s, i, v); }
    static void bind(sqlite3_stmt* s, int i, const std::string& v) {
        sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    }
    static void bind(sqlite3_stmt* s, int i, std::nullptr_t) { sqlite3_bind_null(s, i); }
    sqlite3* db_ = nullptr;
    std::vector<sqlite3_stmt*> stmts_;
};

// kernel_details' PMU column name → TASK_PMU_INFO's (times without their unit, the totals renamed).
std::string pmuDbName(std::string n) {
    if (n == "aicore_time(us)") return "aic_total_time";
    if (n == "aiv_time(us)") return "aiv_total_time";
    if (n.size() > 4 && n.compare(n.size() - 4, 4, "(us)") == 0) n.resize(n.size() - 4);
    return n;
}

} // namespace

struct DbWriter::Impl {
    Db prof, analysis;
    sqlite3_stmt *str, *task, *compute, *commOp, *pmu, *torch, *cann, *conn, *chain, *step, *overlap, *stepTrace,
        *commTime, *commBw;
    std::unordered_map<std::string, std::int64_t> ids;
    std::int64_t nextTask = 0, nextApi = 0, nextChain = 0, nextOp = 1;
    std::unordered_map<const CallStack*, std::int64_t> chains; // one call chain per distinct stack

    Impl(const std::string& p, const std::string& a, int rank) : prof(p), analysis(a) {
        prof.exec(
            "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT);"
            "CREATE TABLE META_DATA (name TEXT,value TEXT);"
            "INSERT INTO META_DATA VALUES ('SCHEMA_VERSION','1.0.0');"
            "CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER);" +
            fmt::format("INSERT INTO RANK_DEVICE_MAP VALUES ({},{});", rank, rank) +
            "CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY,name TEXT);"
            "INSERT INTO ENUM_API_TYPE VALUES (20000,'acl'),(50001,'op'),(50002,'queue'),(50003,'trace'),(50004,'mstx');"
            "CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId INTEGER,globalTaskId "
            "INTEGER,globalPid INTEGER,taskType INTEGER,contextId INTEGER,streamId INTEGER,taskId INTEGER,modelId "
            "INTEGER);"
            "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER PRIMARY KEY,blockDim INTEGER,"
            "mixBlockDim INTEGER,taskType INTEGER,opType INTEGER,inputFormats INTEGER,inputDataTypes INTEGER,"
            "inputShapes INTEGER,outputFormats INTEGER,outputDataTypes INTEGER,outputShapes INTEGER,attrInfo "
            "INTEGER, waitNs INTEGER);"
            "CREATE TABLE COMMUNICATION_OP (opName INTEGER,startNs INTEGER,endNs INTEGER,connectionId INTEGER,"
            "groupName INTEGER,opId INTEGER PRIMARY KEY,relay INTEGER,retry INTEGER,dataType INTEGER,algType "
            "INTEGER,count NUMERIC,opType INTEGER, waitNs INTEGER);"
            "CREATE TABLE COMMUNICATION_TASK_INFO (name INTEGER,globalTaskId INTEGER,taskType INTEGER,planeId "
            "INTEGER,groupName INTEGER,notifyId INTEGER,rdmaType INTEGER,srcRank INTEGER,dstRank INTEGER,"
            "transportType INTEGER,size INTEGER,dataType INTEGER,linkType INTEGER,opId INTEGER);"
            "CREATE TABLE TASK_PMU_INFO (globalTaskId INTEGER,name INTEGER,value NUMERIC);"
            "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, name "
            "INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, "
            "callchainId INTEGER, type INTEGER);"
            "CREATE TABLE PYTORCH_CALLCHAINS (id INTEGER, stack INTEGER, stackDepth INTEGER);"
            "CREATE TABLE CANN_API (startNs INTEGER,endNs INTEGER,type INTEGER,globalTid INTEGER,connectionId "
            "INTEGER,name INTEGER);"
            "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);"
            "CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);"
            "CREATE TABLE OVERLAP_ANALYSIS (id INTEGER PRIMARY KEY AUTOINCREMENT, deviceId integer, startNs "
            "integer, endNs integer, type integer);");
        analysis.exec(
            "CREATE TABLE StepTraceTime (step TEXT, computing NUMERIC, communication_not_overlapped NUMERIC, "
            "overlapped NUMERIC, communication NUMERIC, free NUMERIC, stage NUMERIC, bubble NUMERIC, "
            "communication_not_overlapped_and_exclude_receive NUMERIC, preparing NUMERIC);"
            "CREATE TABLE CommAnalyzerTime (hccl_op_name TEXT, group_name TEXT, start_timestamp NUMERIC, "
            "elapse_time NUMERIC, transit_time NUMERIC, wait_time NUMERIC, synchronization_time NUMERIC, "
            "idle_time NUMERIC, step TEXT, type TEXT);"
            "CREATE TABLE CommAnalyzerBandwidth (hccl_op_name TEXT, group_name TEXT, transport_type TEXT, "
            "transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC, large_packet_ratio NUMERIC, "
            "package_size NUMERIC, count NUMERIC, total_duration NUMERIC, step TEXT, type TEXT);");
        str = prof.prepare("INSERT INTO STRING_IDS VALUES (?,?)");
        task = prof.prepare("INSERT INTO TASK VALUES (?,?,0,?,?,2716001,?,4294967295,?,?,4294967295)");
        compute = prof.prepare(
            "INSERT INTO COMPUTE_TASK_INFO VALUES (?,?,?,0,?,?,NULL,?,?,NULL,?,?,NULL,?)");
        commOp = prof.prepare("INSERT INTO COMMUNICATION_OP VALUES (?,?,?,?,?,?,0,0,4,NULL,0,?,?)");
        pmu = prof.prepare("INSERT INTO TASK_PMU_INFO VALUES (?,?,?)");
        torch = prof.prepare("INSERT INTO PYTORCH_API VALUES (?,?,?,?,?,NULL,NULL,NULL,?,?,?)");
        cann = prof.prepare("INSERT INTO CANN_API VALUES (?,?,20000,?,?,?)");
        conn = prof.prepare("INSERT INTO CONNECTION_IDS VALUES (?,?)");
        chain = prof.prepare("INSERT INTO PYTORCH_CALLCHAINS VALUES (?,?,?)");
        step = prof.prepare("INSERT INTO STEP_TIME VALUES (?,?,?)");
        overlap = prof.prepare("INSERT INTO OVERLAP_ANALYSIS (deviceId, startNs, endNs, type) VALUES (0,?,?,?)");
        stepTrace = analysis.prepare("INSERT INTO StepTraceTime VALUES (?,?,?,?,?,?,?,?,?,?)");
        commTime = analysis.prepare("INSERT INTO CommAnalyzerTime VALUES (?,'group',?,?,?,?,?,?,?,'collective')");
        commBw = analysis.prepare(
            "INSERT INTO CommAnalyzerBandwidth VALUES (?,'group',?,?,?,?,0,0,0,0,?,'collective')");
    }

    std::int64_t id(const std::string& s) {
        auto it = ids.find(s);
        if (it != ids.end()) return it->second;
        const auto n = static_cast<std::int64_t>(ids.size());
        ids.emplace(s, n);
        prof.run(str, n, s);
        return n;
    }
    // The events of one call stack share its call chain: one row per frame, stackDepth 0 innermost (the
    // trace writes the same frames, joined).
    std::int64_t callchain(const CallStack& c) {
        auto it = chains.find(&c);
        if (it != chains.end()) return it->second;
        const std::int64_t chainId = nextChain++;
        chains.emplace(&c, chainId);
        std::string_view rest(c.frames);
        for (int depth = 0; !rest.empty(); ++depth) {
            const std::size_t nl = rest.find('\n');
            prof.run(chain, chainId, id(std::string(rest.substr(0, nl))), depth);
            rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
        }
        return chainId;
    }
};

DbWriter::DbWriter(const std::string& p, const std::string& a, int rank)
    : d_(std::make_unique<Impl>(p, a, rank)) {}
DbWriter::~DbWriter() = default;

void DbWriter::stepMarker(std::int64_t number, Ns start, Ns dur) {
    const std::int64_t name = d_->id(fmt::format("ProfilerStep#{}", number));
    const std::int64_t gt = (2716001LL << 32) | 2716001LL;
    d_->prof.run(d_->torch, std::to_string(start), std::to_string(start + dur), gt, nullptr, name, nullptr,
                 d_->callchain(kStackStep), 50001);
    d_->prof.run(d_->step, number, start, start + dur);
}

void DbWriter::hostEvent(const HostEvent& h, std::uint64_t pythonTid) {
    const std::int64_t name = d_->id(h.name);
    const std::int64_t gt = static_cast<std::int64_t>((pythonTid << 32) | pythonTid);
    if (h.lane == Lane::Cann) {
        if (h.flowOut)
            d_->prof.run(d_->cann, h.ts, h.ts + h.dur, gt, h.flowOut, name);
        else
            d_->prof.run(d_->cann, h.ts, h.ts + h.dur, gt, nullptr, name);
        return;
    }
    const std::string_view cat(h.cat);
    const int type = cat == "python_function" ? 50003 : 50001;
    const std::int64_t api = d_->nextApi++;
    if (h.flowOut) d_->prof.run(d_->conn, api, h.flowOut);
    const std::string start = std::to_string(h.ts), end = std::to_string(h.ts + h.dur);
    if (!h.inputDims.empty() && h.stack)
        d_->prof.run(d_->torch, start, end, gt, api, name, d_->id("[" + h.inputDims + "]"), d_->callchain(*h.stack), type);
    else if (!h.inputDims.empty())
        d_->prof.run(d_->torch, start, end, gt, api, name, d_->id("[" + h.inputDims + "]"), nullptr, type);
    else if (h.stack)
        d_->prof.run(d_->torch, start, end, gt, api, name, nullptr, d_->callchain(*h.stack), type);
    else
        d_->prof.run(d_->torch, start, end, gt, api, name, nullptr, nullptr, type);
}

void DbWriter::kernel(const Kernel& k, const std::vector<std::pair<std::string, std::string>>& pmu) {
    const std::int64_t gid = d_->nextTask++;
    const std::int64_t name = d_->id(k.name);
    d_->prof.run(d_->task, k.start, k.start + k.dur, k.flowId, gid, d_->id(k.traceTaskType), k.stream, k.taskId);
    if (k.isComm) {
        d_->prof.run(d_->commOp, name, k.start, k.start + k.dur, k.flowId,
                     d_->id(k.stream == 5 ? "group_tp" : "group_ep"), d_->nextOp++, d_->id(k.opType), k.wait);
        return;
    }
    d_->prof.run(d_->compute, name, gid, k.blockDim, d_->id(k.core), d_->id(k.opType), d_->id(k.inTypes),
                 d_->id(k.inShapes), d_->id(k.outTypes), d_->id(k.outShapes), k.wait);
    for (const auto& [n, text] : pmu)
        d_->prof.run(d_->pmu, gid, d_->id(pmuDbName(n)), std::stod(text));
}

void DbWriter::overlap(int type, Ns start, Ns end) {
    d_->prof.run(d_->overlap, start, end, type);
}

void DbWriter::stepTrace(const std::string& step, const std::vector<double>& v) {
    if (v.size() != 9) throw std::runtime_error("StepTraceTime needs 9 values");
    d_->analysis.run(d_->stepTrace, step, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]);
}

void DbWriter::commOp(const std::string& step, const std::string& key, double startUs, const std::vector<double>& ms,
                      const std::vector<std::pair<std::string, double>>& sizes) {
    d_->analysis.run(d_->commTime, key, startUs, ms.at(0), ms.at(1), ms.at(2), ms.at(3), ms.at(4), step);
    for (const auto& [transport, mb] : sizes)
        d_->analysis.run(d_->commBw, key, transport, mb, mb > 0 ? ms.at(1) : 0.0, mb > 0 ? 17.14 : 0.0, step);
}

void DbWriter::finish() {
    d_->prof.close();
    d_->analysis.close();
}

std::uint64_t DbWriter::bytes() const {
    return d_->prof.bytes();
}

} // namespace synth
