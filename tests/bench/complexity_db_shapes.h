#pragma once
// The SQLite-export shapes that once made the reader superlinear (issue 45, item 4), beside the text ones
// of complexity_shapes.h. Each function writes one torch_npu rank folder `<root>/<name>_ascend_pt` whose
// only data file is ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db (the tables and columns the reader
// uses, as tests/synth/db_writer.cpp writes them) and returns its path. Shared by the complexity bench
// (figures at n and 8n) and tests/hostile/tst_input_shapes.cpp (results at a modest n). Plain C++ and
// SQLite: no Qt, no core headers.
#include "complexity_shapes.h"

#include <sqlite3.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace shapes {

// A capture start in ns, as the export writes it.
constexpr long long kBaseNs = kBaseUs * 1000;

// The export's connection id of the one connection many rows share (far from every per-row id).
constexpr long long kSharedConnection = 1LL << 40;

class ShapeDb {
  public:
    explicit ShapeDb(const std::string& rank) {
        const std::string path = rank + "/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db";
        std::remove(path.c_str());
        if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) throw std::runtime_error("cannot create " + path);
        exec(
            "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN;"
            "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);"
            "CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER, connectionId INTEGER, "
            "globalTaskId INTEGER, globalPid INTEGER, taskType INTEGER, contextId INTEGER, streamId INTEGER, "
            "taskId INTEGER, modelId INTEGER);"
            "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER PRIMARY KEY, blockDim "
            "INTEGER, "
            "mixBlockDim INTEGER, taskType INTEGER, opType INTEGER, inputFormats INTEGER, inputDataTypes "
            "INTEGER, inputShapes INTEGER, outputFormats INTEGER, outputDataTypes INTEGER, outputShapes "
            "INTEGER, attrInfo INTEGER, waitNs INTEGER);"
            "CREATE TABLE TASK_PMU_INFO (globalTaskId INTEGER, name INTEGER, value NUMERIC);"
            "CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, "
            "name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes "
            "INTEGER, callchainId INTEGER, type INTEGER);"
            "CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);"
            "CREATE TABLE connectionCats (connectionId INT, cat);");
        str_ = prepare("INSERT INTO STRING_IDS VALUES (?,?)");
        task_ = prepare("INSERT INTO TASK VALUES (?,?,0,?,?,1,?,0,2,?,0)");
        compute_ = prepare(
            "INSERT INTO COMPUTE_TASK_INFO VALUES (?,?,8,0,?,?,NULL,NULL,NULL,NULL,NULL,NULL,NULL,0)");
        pmu_ = prepare("INSERT INTO TASK_PMU_INFO VALUES (?,?,?)");
        torch_ = prepare("INSERT INTO PYTORCH_API VALUES (?,?,?,?,?,NULL,NULL,NULL,NULL,NULL,50001)");
        conn_ = prepare("INSERT INTO CONNECTION_IDS VALUES (?,?)");
        cat_ = prepare("INSERT INTO connectionCats VALUES (?,?)");
    }
    ~ShapeDb() {
        for (sqlite3_stmt* s : {str_, task_, compute_, pmu_, torch_, conn_, cat_})
            sqlite3_finalize(s);
        if (db_) sqlite3_close(db_);
    }
    ShapeDb(const ShapeDb&) = delete;
    ShapeDb& operator=(const ShapeDb&) = delete;
    void commit() { exec("COMMIT;"); }

    long long string(long long id, const std::string& s) {
        run(str_, {id}, &s);
        return id;
    }
    // A compute kernel (AI_CORE MatMul) on stream 2, [start, start + dur) ns after the capture start.
    void kernel(long long gid, long long start, long long dur, long long name, long long connection = -1) {
        sqlite3_bind_int64(task_, 1, kBaseNs + start);
        sqlite3_bind_int64(task_, 2, kBaseNs + start + dur);
        if (connection >= 0)
            sqlite3_bind_int64(task_, 3, connection);
        else
            sqlite3_bind_null(task_, 3);
        sqlite3_bind_int64(task_, 4, gid);
        sqlite3_bind_int64(task_, 5, kAiCore);
        sqlite3_bind_int64(task_, 6, gid);
        step(task_);
        run(compute_, {name, gid, kAiCore, kMatMul});
    }
    void pmu(long long gid, long long name, double value) {
        sqlite3_bind_int64(pmu_, 1, gid);
        sqlite3_bind_int64(pmu_, 2, name);
        sqlite3_bind_double(pmu_, 3, value);
        step(pmu_);
    }
    // A PyTorch op on host thread `tid`, [start, start + dur) ns after the capture start.
    void torchOp(long long start, long long dur, long long tid, long long connectionId, long long name) {
        const std::string s = std::to_string(kBaseNs + start), e = std::to_string(kBaseNs + start + dur);
        sqlite3_bind_text(torch_, 1, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
        sqlite3_bind_text(torch_, 2, e.data(), static_cast<int>(e.size()), SQLITE_TRANSIENT);
        sqlite3_bind_int64(torch_, 3, (7LL << 32) | tid);
        if (connectionId >= 0)
            sqlite3_bind_int64(torch_, 4, connectionId);
        else
            sqlite3_bind_null(torch_, 4);
        sqlite3_bind_int64(torch_, 5, name);
        step(torch_);
    }
    void connection(long long apiId, long long connectionId) { run(conn_, {apiId, connectionId}); }
    void category(long long connectionId, const std::string& cat) { run(cat_, {connectionId}, &cat); }

    // String ids every shape uses.
    static constexpr long long kAiCore = 1, kMatMul = 2, kOp = 3, kMacRatio = 4, kFirstFree = 16;
    void commonStrings() {
        string(kAiCore, "AI_CORE");
        string(kMatMul, "MatMul");
        string(kOp, "aten::mm");
        string(kMacRatio, "aic_mac_ratio");
    }

  private:
    void exec(const char* sql) {
        char* err = nullptr;
        if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
            const std::string e = err ? err : "?";
            sqlite3_free(err);
            throw std::runtime_error("sqlite: " + e);
        }
    }
    sqlite3_stmt* prepare(const char* sql) {
        sqlite3_stmt* s = nullptr;
        if (sqlite3_prepare_v2(db_, sql, -1, &s, nullptr) != SQLITE_OK)
            throw std::runtime_error(std::string("sqlite: ") + sqlite3_errmsg(db_));
        return s;
    }
    void step(sqlite3_stmt* s) {
        if (sqlite3_step(s) != SQLITE_DONE)
            throw std::runtime_error(std::string("sqlite: ") + sqlite3_errmsg(db_));
        sqlite3_reset(s);
    }
    void run(sqlite3_stmt* s, std::initializer_list<long long> ints, const std::string* text = nullptr) {
        int i = 0;
        for (long long v : ints)
            sqlite3_bind_int64(s, ++i, v);
        if (text) sqlite3_bind_text(s, ++i, text->data(), static_cast<int>(text->size()), SQLITE_TRANSIENT);
        step(s);
    }
    sqlite3* db_ = nullptr;
    sqlite3_stmt *str_ = nullptr, *task_ = nullptr, *compute_ = nullptr, *pmu_ = nullptr, *torch_ = nullptr,
                 *conn_ = nullptr, *cat_ = nullptr;
};

// (h) `names` kernels (10 µs apart, 5 µs long), each with aic_mac_ratio = 0.25 and a PMU name of its own,
// aic_x<i> = i: as many distinct PMU names as kernels, each set on one kernel only (a names x kernels
// matrix is almost all empty).
inline std::string dbPmuNames(const std::string& root, std::size_t names) {
    const std::string dir = rankDir(root, "pmunames");
    ShapeDb db(dir);
    db.commonStrings();
    for (std::size_t i = 0; i < names; ++i) {
        const auto gid = static_cast<long long>(i);
        const long long name = db.string(ShapeDb::kFirstFree + gid, "aic_x" + std::to_string(i));
        db.kernel(gid, gid * 10000, 5000, ShapeDb::kMatMul);
        db.pmu(gid, ShapeDb::kMacRatio, 0.25);
        db.pmu(gid, name, static_cast<double>(i));
    }
    db.commit();
    return dir;
}

// (i) `ops` PyTorch ops on one thread (10 µs apart, 5 µs long; op i has API id i + 1) that all launch one
// connection (CONNECTION_IDS (i + 1, kSharedConnection)), whose one kernel starts after the last op;
// connectionCats holds a row per op for it, alternately async_npu and HostToDevice. Every op also starts
// a host-only connection (id 2 x kSharedConnection) that all ops share, categorised fwdbwd once per op.
inline std::string dbSharedConnection(const std::string& root, std::size_t ops) {
    const std::string dir = rankDir(root, "sharedconn");
    ShapeDb db(dir);
    db.commonStrings();
    const long long host = 2 * kSharedConnection;
    for (std::size_t i = 0; i < ops; ++i) {
        const auto api = static_cast<long long>(i) + 1;
        db.torchOp(static_cast<long long>(i) * 10000, 5000, 1, api, ShapeDb::kOp);
        db.connection(api, kSharedConnection);
        db.connection(api, host);
        db.category(kSharedConnection, i % 2 ? "HostToDevice" : "async_npu");
        db.category(host, "fwdbwd");
    }
    db.kernel(0, static_cast<long long>(ops) * 10000, 5000, ShapeDb::kMatMul, kSharedConnection);
    db.commit();
    return dir;
}

// (j) `rows` / 2 PyTorch ops on one thread that all carry API id 1, and `rows` / 2 CONNECTION_IDS rows
// (1, c) for as many connections c, each the connection of one kernel: every op claims every connection.
inline std::string dbSharedApiId(const std::string& root, std::size_t rows) {
    const std::string dir = rankDir(root, "sharedapi");
    ShapeDb db(dir);
    db.commonStrings();
    const std::size_t half = rows / 2 ? rows / 2 : 1;
    for (std::size_t i = 0; i < half; ++i) {
        const auto t = static_cast<long long>(i) * 10000;
        db.torchOp(t, 5000, 1, 1, ShapeDb::kOp);
        db.connection(1, static_cast<long long>(i) + 100);
        db.kernel(static_cast<long long>(i), t + 7000, 2000, ShapeDb::kMatMul,
                  static_cast<long long>(i) + 100);
    }
    db.commit();
    return dir;
}

// (k) `events` PyTorch ops nested on one host thread: op i, named "f<i mod 4096>" (as in nestedTrace), starts
// i µs after the capture start and ends 2 x events - i µs after it (op i + 1 inside op i). Kernels every 128
// µs, 32 µs long, and one more 64 µs after the nest (so that no op encloses the capture): the device gaps
// under the nest are windows whose host evidence is the whole chain above them.
inline std::string dbNested(const std::string& root, std::size_t events) {
    const std::string dir = rankDir(root, "dbnest");
    ShapeDb db(dir);
    db.commonStrings();
    const auto n = static_cast<long long>(events);
    for (long long i = 0; i < std::min(n, 4096LL); ++i)
        db.string(ShapeDb::kFirstFree + i, "f" + std::to_string(i));
    for (long long i = 0; i < n; ++i)
        db.torchOp(i * 1000, (2 * n - 2 * i) * 1000, 1, -1, ShapeDb::kFirstFree + i % 4096);
    long long k = 0;
    for (long long t = 0; t < 2 * n * 1000; t += 128000)
        db.kernel(k++, t, 32000, ShapeDb::kMatMul);
    db.kernel(k, 2 * n * 1000 + 64000, 32000, ShapeDb::kMatMul);
    db.commit();
    return dir;
}

} // namespace shapes
