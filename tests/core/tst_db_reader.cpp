// The SQLite export (export_type=db): every real rank of torch_npu_resnet_ddp_db gives the profiler's own
// StepTraceTime (analysis.db) within 1 µs; a generated capture written both ways gives the same JSON; broken
// databases become findings naming file and table, never a crash.
#include "i18n/message.h"
#include "pipeline/analysis_run.h"
#include "io/profile_loader.h"
#include "report/json_export.h"
#include "test_support.h"

#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <map>

namespace {

// Reads one row of a table with the sqlite3 C API (not the reader under test), read-only and immutable.
std::map<std::string, double> sqliteRow(const QString& db, const char* sql) {
    std::map<std::string, double> out;
    sqlite3* h = nullptr;
    const std::string uri = "file:" + bstest::s(db) + "?immutable=1";
    if (sqlite3_open_v2(uri.c_str(), &h, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(h, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
            for (int i = 0; i < sqlite3_column_count(st); ++i)
                out[sqlite3_column_name(st, i)] = sqlite3_column_double(st, i);
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return out;
}

// Runs SQL on a (copied) database, writable: to break it on purpose.
bool sqliteExec(const QString& db, const std::string& sql) {
    sqlite3* h = nullptr;
    if (sqlite3_open(bstest::s(db).c_str(), &h) != SQLITE_OK) return false;
    const bool ok = sqlite3_exec(h, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_close(h);
    return ok;
}

// Runs SQL on a (copied) database with automatic checkpoints off and closes it without the checkpoint SQLite
// makes on close: the committed transactions stay in its -wal file, as in a folder copied while the
// profiler still held the database.
bool sqliteExecKeepingWal(const QString& db, const std::string& sql) {
    sqlite3* h = nullptr;
    if (sqlite3_open(bstest::s(db).c_str(), &h) != SQLITE_OK) return sqlite3_close(h), false;
    sqlite3_db_config(h, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    const std::string all = "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; " + sql;
    const bool ok = sqlite3_exec(h, all.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_close(h);
    return ok;
}

// Writes the database `from` page by page into a new WAL-mode database `to` and keeps every page in
// `to`-wal: the main file holds only its first, empty page (a profiler killed before its first checkpoint).
bool copyIntoWalOnly(const QString& from, const QString& to) {
    sqlite3 *src = nullptr, *dst = nullptr;
    const std::string uri = "file:" + bstest::s(from) + "?immutable=1";
    bool ok =
        sqlite3_open_v2(uri.c_str(), &src, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) == SQLITE_OK &&
        sqlite3_open(bstest::s(to).c_str(), &dst) == SQLITE_OK;
    if (ok) sqlite3_db_config(dst, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    ok = ok && sqlite3_exec(dst, "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;", nullptr, nullptr,
                            nullptr) == SQLITE_OK;
    if (ok) {
        sqlite3_backup* b = sqlite3_backup_init(dst, "main", src, "main");
        ok = b && sqlite3_backup_step(b, -1) == SQLITE_DONE;
        sqlite3_backup_finish(b);
    }
    sqlite3_close(dst);
    sqlite3_close(src);
    return ok;
}

// Every file and folder under `dir` with its bytes: what reading must leave exactly as it was.
std::map<std::string, QByteArray> folderBytes(const QString& dir) {
    std::map<std::string, QByteArray> out;
    for (const auto& e : std::filesystem::recursive_directory_iterator(bstest::s(dir)))
        out[e.path().string()] = e.is_regular_file()
                                     ? bstest::readFile(QString::fromStdString(e.path().string()))
                                     : QByteArray("(not a file)");
    return out;
}

struct Run {
    bs::LoadResult load;
    bs::AnalysisResult r;
};

Run analyse(const QString& folder, bs::DataSource source = bs::DataSource::Auto) {
    Run out;
    auto found = bs::discoverProfiles(bstest::s(folder));
    if (found.ranks.size() != 1) return out;
    bs::LoadControl control;
    control.source = source;
    out.load = bs::loadRank(found.ranks[0], control);
    if (out.load.profile && out.load.hasAnyData) out.r = bs::analyzeProfile(*out.load.profile);
    return out;
}

const bs::Finding* finding(const Run& run, const std::string& id) {
    for (const auto& f : run.load.profile->loadFindings)
        if (f.id == id) return &f;
    return nullptr;
}

// A copy of a real L1 rank folder (the shared data is read-only) to break.
QString copyRank(const QTemporaryDir& tmp, const char* rank = "level1/rank0_ascend_pt") {
    const QString from = bstest::realdata(QStringLiteral("torch_npu_resnet_ddp_db/") + QLatin1String(rank));
    const QString to = tmp.filePath(QStringLiteral("rank0_ascend_pt"));
    std::filesystem::copy(bstest::s(from), bstest::s(to), std::filesystem::copy_options::recursive);
    for (const auto& e : std::filesystem::recursive_directory_iterator(bstest::s(to)))
        std::filesystem::permissions(e.path(), std::filesystem::perms::owner_all,
                                     std::filesystem::perm_options::add);
    std::filesystem::permissions(bstest::s(to), std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add);
    return to;
}

QString profilerDb(const QString& rankDir) {
    return rankDir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db");
}

} // namespace

class TstDbReader : public QObject {
    Q_OBJECT
  private slots:
    void everyRealRankMatchesStepTraceTime_data() {
        QTest::addColumn<QString>("rank");
        QTest::addColumn<int>("id");
        for (const char* r : {"level0/rank0_ascend_pt", "level0/rank1_ascend_pt", "level1/rank0_ascend_pt",
                              "level1/rank1_ascend_pt"})
            QTest::newRow(r) << QString::fromLatin1(r) << (QByteArray(r).contains("rank1") ? 1 : 0);
    }
    void everyRealRankMatchesStepTraceTime() {
        QVERIFY(bstest::requireRealdata());
        QFETCH(QString, rank);
        QFETCH(int, id);
        const QString dir = bstest::realdata(QStringLiteral("torch_npu_resnet_ddp_db/") + rank);
        // The profiler's own breakdown, straight from analysis.db.
        const auto theirs =
            sqliteRow(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/analysis.db"),
                      "SELECT step, computing, communication_not_overlapped, free, preparing FROM "
                      "StepTraceTime");
        QCOMPARE(theirs.at("step"), 50.0);
        const Run run = analyse(dir);
        QVERIFY(run.load.hasAnyData);
        const auto& inv = run.load.profile->inventory;
        QCOMPARE(inv.source, std::string("sqlite"));
        QCOMPARE(inv.kernelSource, bs::KernelSource::SqliteTasks);
        QVERIFY(inv.kernelSourceFile.find(fmt::format("ascend_pytorch_profiler_{}.db", id)) !=
                std::string::npos);
        QCOMPARE(run.r.steps.source, bs::StepSource::ProfilerStep);
        QCOMPARE(run.r.metrics.size(), std::size_t(1));
        const auto& m = run.r.metrics[0];
        QCOMPARE(m.stepId, Q_INT64_C(50));
        QCOMPARE(m.kernelCount, std::size_t(191)); // 187 COMPUTE_TASK_INFO tasks + 4 COMMUNICATION_OP rows
        const double freeUs = theirs.at("free"), prepUs = theirs.at("preparing"),
                     busyUs = theirs.at("computing") + theirs.at("communication_not_overlapped");
        QVERIFY2(
            std::abs(bs::nsToUs(m.internalBubbleTotal) - freeUs) <= 1.0,
            qPrintable(
                QStringLiteral("internal %1 vs Free %2").arg(bs::nsToUs(m.internalBubbleTotal)).arg(freeUs)));
        QVERIFY2(
            std::abs(bs::nsToUs(m.prelaunchGap) - prepUs) <= 1.0,
            qPrintable(
                QStringLiteral("prelaunch %1 vs Preparing %2").arg(bs::nsToUs(m.prelaunchGap)).arg(prepUs)));
        QVERIFY2(
            std::abs(bs::nsToUs(m.busyUnion) - busyUs) <= 1.0,
            qPrintable(
                QStringLiteral("busy %1 vs Computing+CommNO %2").arg(bs::nsToUs(m.busyUnion)).arg(busyUs)));
        // The cross-check reads StepTraceTime through the reader: no mismatch.
        QVERIFY(run.r.crossCheck.available);
        QCOMPARE(run.r.crossCheck.mismatches, std::size_t(0));
        // The Health panel's explanation: which tables were read.
        const bs::Finding* src = finding(run, "db_source");
        QVERIFY(src);
        QVERIFY(bs::english(src->seen).find("TASK (5") != std::string::npos);
        QVERIFY(bs::english(src->seen).find("analysis.db:StepTraceTime (1 row)") != std::string::npos);
    }

    // Hand-written golden figures of L1 rank 0 (analysis.db StepTraceTime, step 50, in µs: free 25258.144,
    // preparing 18055.693, computing 8903.431 + communication_not_overlapped 98071.947 = 106975.378).
    void level1Rank0GoldenFigures() {
        QVERIFY(bstest::requireRealdata());
        const Run run =
            analyse(bstest::realdata(QStringLiteral("torch_npu_resnet_ddp_db/level1/rank0_ascend_pt")));
        QVERIFY(run.load.hasAnyData);
        const auto& m = run.r.metrics.at(0);
        QVERIFY(std::abs(bs::nsToUs(m.internalBubbleTotal) - 25258.144) <= 1.0);
        QVERIFY(std::abs(bs::nsToUs(m.prelaunchGap) - 18055.693) <= 1.0);
        QVERIFY(std::abs(bs::nsToUs(m.busyUnion) - 106975.378) <= 1.0);
        // Level1: PMU (TASK_PMU_INFO) and shapes; communication.json's equivalent (CommAnalyzerTime).
        const auto& p = *run.load.profile;
        QVERIFY(!p.pmu.columns.empty());
        QVERIFY(p.pmu.column("aic_mac_ratio").has_value());
        QVERIFY(p.hasCommunicationJson);
        QCOMPARE(p.commOps.size(), std::size_t(4));
        QVERIFY(std::any_of(p.kernels.begin(), p.kernels.end(),
                            [](const bs::Kernel& k) { return k.inputShapes != 0; }));
        QVERIFY(std::any_of(p.hostEvents.begin(), p.hostEvents.end(),
                            [](const bs::TraceEvent& e) { return e.flags & bs::EvHasStack; }));
        QVERIFY(!p.flows.empty());
    }

    // PROVENANCE.md: the db sets are separate runs from the text sets, so their figures are not compared.
    // This checks that they are indeed different runs (the step markers start at different times).
    void textTwinIsASeparateRun() {
        QVERIFY(bstest::requireRealdata());
        const Run db =
            analyse(bstest::realdata(QStringLiteral("torch_npu_resnet_ddp_db/level1/rank0_ascend_pt")));
        const Run text =
            analyse(bstest::realdata(QStringLiteral("torch_npu_resnet_ddp/level1/rank0_ascend_pt")));
        QVERIFY(db.load.hasAnyData && text.load.hasAnyData);
        QCOMPARE(text.load.profile->inventory.source, std::string("text"));
        QVERIFY(db.r.steps.steps.at(0).markerStart != text.r.steps.steps.at(0).markerStart);
    }

    // A generated capture written both ways gives the same anomaly JSON, byte for byte, apart from the
    // inventory's fields that name the files read.
    void generatedProfileGivesTheSameJsonBothWays() {
        QTemporaryDir tmp;
        QProcess p;
        p.start(QStringLiteral(BS_SYNTH),
                {QStringLiteral("--out"), tmp.path(), QStringLiteral("--name"), QStringLiteral("both"),
                 QStringLiteral("--dfc"), QStringLiteral("8"), QStringLiteral("--steps"), QStringLiteral("3"),
                 QStringLiteral("--anomalies"), QStringLiteral("all"), QStringLiteral("--tiny-waits"),
                 QStringLiteral("--db"), QStringLiteral("--quiet")});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QString dir = tmp.filePath(QStringLiteral("both_ascend_pt"));
        const Run text = analyse(dir, bs::DataSource::Auto); // text is the default when both exist
        const Run db = analyse(dir, bs::DataSource::Db);
        QVERIFY(text.load.hasAnyData && db.load.hasAnyData);
        QCOMPARE(text.load.profile->inventory.source, std::string("text"));
        QCOMPARE(db.load.profile->inventory.source, std::string("sqlite"));
        const std::string a = bs::renderJson(*text.load.profile, text.r);
        const std::string b = bs::renderJson(*db.load.profile, db.r);
        // Outside "inventory" the documents are the same bytes.
        auto cut = [](const std::string& s) {
            const auto from = s.find("\n  \"inventory\": {");
            const auto to = s.find("\n  },", from);
            return std::make_pair(s.substr(0, from) + s.substr(to), s.substr(from, to - from));
        };
        const auto [restA, invA] = cut(a);
        const auto [restB, invB] = cut(b);
        QVERIFY(restA.size() > 10000);
        QVERIFY2(restA == restB,
                 "the JSON outside the inventory differs between the text and the SQLite export");
        // Inside it, only the source fields.
        auto ja = nlohmann::ordered_json::parse(a)["inventory"],
             jb = nlohmann::ordered_json::parse(b)["inventory"];
        QCOMPARE(ja["source"].get<std::string>(), std::string("text"));
        QCOMPARE(jb["source"].get<std::string>(), std::string("sqlite"));
        QVERIFY(jb["db_tables_missing"].empty());
        for (const char* k : {"source", "db_tables_read", "db_tables_missing", "kernel_source",
                              "kernel_source_file", "kernel_details_level", "files", "trace_event_count"}) {
            ja.erase(k);
            jb.erase(k);
        }
        QCOMPARE(ja.dump(), jb.dump());
        QVERIFY(ja["kernel_count"] == jb["kernel_count"]);
    }

    // ---- Bad input: each case names the file and table, keeps what is still true, never crashes. ----

    void aFileThatIsNotSqliteIsAFinding() {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("x_ascend_pt"));
        bstest::writeFile(profilerDb(dir),
                          QByteArray("this is a kernel table, not a database\n").repeated(200));
        const Run run = analyse(dir);
        QVERIFY(!run.load.hasAnyData);
        const bs::Finding* f = finding(run, "db_unreadable");
        QVERIFY(f);
        QCOMPARE(f->severity, bs::Severity::Error);
        QVERIFY(f->file.find("ascend_pytorch_profiler_0.db") != std::string::npos);
        QVERIFY2(bs::english(f->seen).find("not a database") != std::string::npos, bs::english(f->seen).c_str());
        // The message the command prints names the file and the cause, not an empty output folder.
        auto found = bs::discoverProfiles(bstest::s(dir));
        const std::string msg = bs::english(bs::noDataMessage(found.ranks.at(0), run.load));
        QVERIFY2(msg.find("ascend_pytorch_profiler_0.db") != std::string::npos, msg.c_str());
        QVERIFY(msg.find("prof.step()") == std::string::npos);
    }

    void aTruncatedDatabaseKeepsWhatWasRead() {
        QTemporaryDir tmp;
        const QString dir = copyRank(tmp);
        const auto db = bstest::s(profilerDb(dir));
        const auto size = std::filesystem::file_size(db);
        std::filesystem::resize_file(db, size / 2);
        const Run run = analyse(dir);
        // Observed outcome: SQLite refuses a file shorter than its header's page count at the first schema
        // read
        // ("database disk image is malformed"); the reader then reads with writable_schema (still read-only,
        // immutable) and every table up to the cut. The cut is an error naming the file and byte; each table
        // that reaches past it is named with the rows kept.
        QVERIFY(!finding(run, "db_unreadable"));
        QVERIFY(run.load.hasAnyData);
        const bs::Finding* cut = finding(run, "db_truncated");
        QVERIFY(cut);
        QCOMPARE(cut->severity, bs::Severity::Error);
        QCOMPARE(cut->byteOffset, static_cast<long long>(size / 2));
        bool taskNamed = false;
        for (const auto& f : run.load.profile->loadFindings)
            if (f.id == "db_read_error") {
                QVERIFY(f.file == db);
                QVERIFY2(bs::english(f.seen).find("malformed") != std::string::npos, bs::english(f.seen).c_str());
                taskNamed |=
                    bs::english(f.seen).find("Reading table TASK of ascend_pytorch_profiler_0.db stopped after ") == 0;
            }
        QVERIFY(taskNamed);
        // What was before the cut is kept: most kernels of the step, the host calls, analysis.db intact.
        const auto kernels = run.load.profile->kernels.size();
        QVERIFY2(kernels > 100 && kernels < 191, qPrintable(QString::number(kernels)));
        QVERIFY(!run.load.profile->hostEvents.empty());
        QCOMPARE(run.load.profile->stepTrace.size(), std::size_t(1));
        // ... and the profiler's own figures now disagree with what could be read: the cross-check says so.
        QVERIFY(run.r.crossCheck.mismatches > 0);
    }

    // Issue 45, item 8: a cut inside the last page (which SQLite's schema read does not notice) is a cut too;
    // at its boundary: one byte short is cut, the whole file is not, a byte appended is not.
    void aDatabaseCutInsideItsLastPageIsTruncated() {
        for (const long long change : {-100LL, -1LL, 0LL, 1LL}) {
            QTemporaryDir tmp;
            const QString dir = copyRank(tmp);
            const auto db = bstest::s(profilerDb(dir));
            const auto size = static_cast<long long>(std::filesystem::file_size(db));
            std::filesystem::resize_file(db, static_cast<std::uintmax_t>(size + change));
            const Run run = analyse(dir);
            const bs::Finding* cut = finding(run, "db_truncated");
            QVERIFY2((cut != nullptr) == (change < 0), qPrintable(QString::number(change)));
            if (cut) QCOMPARE(cut->byteOffset, size + change);
            QVERIFY2(!finding(run, "db_bad_value") || change >= 0, qPrintable(QString::number(change)));
        }
    }

    void aLockedDatabaseIsStillRead() {
        QTemporaryDir tmp;
        const QString dir = copyRank(tmp);
        const QString db = profilerDb(dir);
        const QByteArray before = bstest::readFile(db);
        // Another connection holds an exclusive lock (a writer in the middle of a transaction).
        sqlite3* h = nullptr;
        QCOMPARE(sqlite3_open(bstest::s(db).c_str(), &h), SQLITE_OK);
        QCOMPARE(
            sqlite3_exec(h, "PRAGMA locking_mode=EXCLUSIVE; BEGIN EXCLUSIVE;", nullptr, nullptr, nullptr),
            SQLITE_OK);
        const Run run = analyse(dir);
        sqlite3_exec(h, "ROLLBACK;", nullptr, nullptr, nullptr);
        sqlite3_close(h);
        // Observed outcome: opened immutable, the reader takes no lock, so the lock does not stop it; the
        // figures are the complete ones.
        QVERIFY(run.load.hasAnyData);
        QVERIFY(!finding(run, "db_read_error") && !finding(run, "db_unreadable"));
        QCOMPARE(run.r.metrics.at(0).kernelCount, std::size_t(191));
        QVERIFY(std::abs(bs::nsToUs(run.r.metrics.at(0).internalBubbleTotal) - 25258.144) <= 1.0);
        QCOMPARE(bstest::readFile(db), before); // never written
    }

    // Issue 45, item 8: a TASK streamId outside int32 is a db_bad_value, at the boundary: 2^31 - 1 is a
    // stream, 2^31 and -1 are not (2 rows), instead of every such task silently landing on "unknown".
    void aStreamIdOutsideInt32IsABadValueAtItsBoundary() {
        QTemporaryDir tmp;
        const QString dir = copyRank(tmp), db = profilerDb(dir);
        sqlite3* h = nullptr;
        QCOMPARE(sqlite3_open(bstest::s(db).c_str(), &h), SQLITE_OK);
        QCOMPARE(sqlite3_exec(h,
                              "UPDATE TASK SET streamId = 2147483647 WHERE rowid = 1;"
                              "UPDATE TASK SET streamId = 2147483648 WHERE rowid = 2;"
                              "UPDATE TASK SET streamId = -1 WHERE rowid = 3;"
                              "PRAGMA wal_checkpoint(TRUNCATE);",
                              nullptr, nullptr, nullptr),
                 SQLITE_OK);
        sqlite3_close(h);
        const Run run = analyse(dir);
        QVERIFY(run.load.hasAnyData);
        std::string seen;
        for (const auto& f : run.load.profile->loadFindings)
            if (f.id == "db_bad_value" && bs::english(f.seen).find("column streamId") != std::string::npos)
                seen = bs::english(f.seen);
        QVERIFY2(seen.rfind("2 row(s) of table TASK in ascend_pytorch_profiler_0.db have an unexpected value in "
                            "column streamId (expected a stream id from 0 to 2147483647; first: ",
                            0) == 0,
                 seen.c_str());
        QVERIFY2(seen.find("2147483648") != std::string::npos, seen.c_str());
    }

    // ---- A database in WAL mode (issue 45): the committed content of its -wal file is read, and nothing is
    // written beside it. The L1 rank 0 database is in WAL mode (header bytes 18/19 = 2, an empty -wal). ----

    // TASK holds 552 rows, rowids 1..552 (sqlite3 on the real file): deleting the even rowids keeps 276.
    void committedRowsInTheWalAreRead() {
        QTemporaryDir tmp;
        const QString dir = copyRank(tmp), db = profilerDb(dir);
        QVERIFY(sqliteExecKeepingWal(db, "DELETE FROM TASK WHERE rowid % 2 = 0;"));
        QVERIFY(QFileInfo(db + QStringLiteral("-wal")).size() > 0);
        QCOMPARE(sqliteRow(db, "SELECT count(*) AS n FROM TASK").at("n"), 552.0); // the .db alone is stale
        const auto before = folderBytes(dir);
        const Run run = analyse(dir);
        QVERIFY(run.load.hasAnyData);
        const auto& read = run.load.profile->inventory.dbTablesRead;
        QVERIFY2(std::find(read.begin(), read.end(), "ascend_pytorch_profiler_0.db:TASK (276 rows)") !=
                     read.end(),
                 fmt::format("{}", fmt::join(read, ", ")).c_str());
        const bs::Finding* f = finding(run, "db_wal_read");
        QVERIFY(f);
        QCOMPARE(f->severity, bs::Severity::Info);
        QVERIFY2(bs::english(f->seen).find("ascend_pytorch_profiler_0.db-wal") != std::string::npos,
                 bs::english(f->seen).c_str());
        QVERIFY(folderBytes(dir) == before); // no -shm, no -wal written, nothing checkpointed
    }

    // Every table is only in the -wal: the immutable read found no TASK table at all (exit 3).
    void aDatabaseWhollyInItsWalIsRead() {
        QTemporaryDir tmp;
        const QString dir = copyRank(tmp), db = profilerDb(dir);
        // (The real export may or may not ship an empty -wal / -shm beside its .db: gone either way.)
        for (const char* ext : {"", "-wal", "-shm"})
            QVERIFY(!QFileInfo::exists(db + QLatin1String(ext)) || QFile::remove(db + QLatin1String(ext)));
        QVERIFY(copyIntoWalOnly(
            bstest::realdata(QStringLiteral("torch_npu_resnet_ddp_db/level1/rank0_ascend_pt")) +
                QStringLiteral("/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db"),
            db));
        // The .db alone is empty: its one page holds no table.
        QCOMPARE(sqliteRow(db, "SELECT count(*) AS n FROM sqlite_master").at("n"), 0.0);
        const auto before = folderBytes(dir);
        const Run run = analyse(dir);
        QVERIFY(run.load.hasAnyData);
        QVERIFY(!finding(run, "db_no_tasks"));
        // The golden figures of level1Rank0GoldenFigures: the whole database was read.
        const auto& m = run.r.metrics.at(0);
        QCOMPARE(m.kernelCount, std::size_t(191));
        QVERIFY(std::abs(bs::nsToUs(m.internalBubbleTotal) - 25258.144) <= 1.0);
        QVERIFY(std::abs(bs::nsToUs(m.busyUnion) - 106975.378) <= 1.0);
        QVERIFY(folderBytes(dir) == before);
    }

    // Only the .db and its -wal were copied (no -shm): SQLite reading read-only would create the -shm beside
    // them; the reader keeps its WAL index in memory instead.
    void aWalWithoutItsShmIsReadWithoutCreatingOne() {
        QTemporaryDir tmp;
        const QString dir = copyRank(tmp), db = profilerDb(dir);
        QVERIFY(sqliteExecKeepingWal(db, "DELETE FROM TASK WHERE rowid % 2 = 0;"));
        QVERIFY(QFile::remove(db + QStringLiteral("-shm")));
        const auto before = folderBytes(dir);
        const Run run = analyse(dir);
        QVERIFY(run.load.hasAnyData);
        const auto& read = run.load.profile->inventory.dbTablesRead;
        QVERIFY(std::find(read.begin(), read.end(), "ascend_pytorch_profiler_0.db:TASK (276 rows)") !=
                read.end());
        QVERIFY(!QFileInfo::exists(db + QStringLiteral("-shm")));
        QVERIFY(folderBytes(dir) == before);
    }

    // A -wal SQLite cannot open (here a folder in its place; a file without read permission is another)
    // refuses the database with the -wal named, rather than reading the .db without it.
    void anUnreadableWalIsRefusedByName() {
        QTemporaryDir tmp;
        const QString dir = copyRank(tmp), db = profilerDb(dir), wal = db + QStringLiteral("-wal");
        QVERIFY(!QFileInfo::exists(wal) || QFile::remove(wal));
        QVERIFY(QDir().mkdir(wal));
        const Run run = analyse(dir);
        QVERIFY(!run.load.hasAnyData);
        const bs::Finding* f = finding(run, "db_wal_unreadable");
        QVERIFY(f);
        QCOMPARE(f->severity, bs::Severity::Error);
        QCOMPARE(f->file, bstest::s(wal));
        QVERIFY2(bs::english(f->fix).find("PRAGMA wal_checkpoint(TRUNCATE)") != std::string::npos,
                 bs::english(f->fix).c_str());
        auto found = bs::discoverProfiles(bstest::s(dir));
        const std::string msg = bs::english(bs::noDataMessage(found.ranks.at(0), run.load));
        QVERIFY2(msg.find("ascend_pytorch_profiler_0.db-wal") != std::string::npos, msg.c_str());
    }

    void aMissingTableIsNamedAndTheRestIsRead() {
        QTemporaryDir tmp;
        const QString dir = copyRank(tmp);
        QVERIFY(sqliteExec(profilerDb(dir), "DROP TABLE COMPUTE_TASK_INFO; DROP TABLE PYTORCH_API;"));
        const Run run = analyse(dir);
        QVERIFY(run.load.hasAnyData);
        const auto& inv = run.load.profile->inventory;
        QVERIFY(std::find(inv.dbTablesMissing.begin(), inv.dbTablesMissing.end(),
                          "ascend_pytorch_profiler_0.db:COMPUTE_TASK_INFO") != inv.dbTablesMissing.end());
        QVERIFY(std::find(inv.dbTablesMissing.begin(), inv.dbTablesMissing.end(),
                          "ascend_pytorch_profiler_0.db:PYTORCH_API") != inv.dbTablesMissing.end());
        const bs::Finding* f = finding(run, "db_source");
        QVERIFY(f && bs::english(f->impact).find("COMPUTE_TASK_INFO") != std::string::npos);
        // What is still true: the 4 collectives are kernels, CANN host calls are there, steps come from
        // STEP_TIME, and the profiler's own figures from analysis.db.
        QCOMPARE(run.load.profile->kernels.size(), std::size_t(4));
        QVERIFY(!run.load.profile->hostEvents.empty());
        QCOMPARE(run.r.steps.source, bs::StepSource::ProfilerStep);
        QCOMPARE(run.load.profile->stepTrace.size(), std::size_t(1));
    }

    void aColumnOfTheWrongTypeSkipsOnlyItsRows() {
        QTemporaryDir tmp;
        const QString dir = copyRank(tmp);
        // One device task's start is text, another's end a blob; a PMU value is text.
        QVERIFY(sqliteExec(profilerDb(dir), "UPDATE TASK SET startNs = 'soon' WHERE rowid = 1; "
                                            "UPDATE TASK SET endNs = x'00' WHERE rowid = 2; "
                                            "UPDATE TASK_PMU_INFO SET value = 'high' WHERE rowid = 1;"));
        const Run run = analyse(dir);
        QVERIFY(run.load.hasAnyData);
        std::vector<const bs::Finding*> bad;
        for (const auto& f : run.load.profile->loadFindings)
            if (f.id == "db_bad_value") bad.push_back(&f);
        QCOMPARE(bad.size(), std::size_t(2));
        QVERIFY2(bs::english(bad[0]->seen).find("2 row(s) of table TASK") != std::string::npos, bs::english(bad[0]->seen).c_str());
        QVERIFY(bs::english(bad[0]->seen).find("'soon'") != std::string::npos);
        QVERIFY(bad[0]->file.find("ascend_pytorch_profiler_0.db") != std::string::npos);
        QVERIFY2(bs::english(bad[1]->seen).find("table TASK_PMU_INFO") != std::string::npos, bs::english(bad[1]->seen).c_str());
        QCOMPARE(run.load.profile->inventory.dbTablesRead.size() > 5, true);
        // Rows 1 and 2 (housekeeping tasks before the step) are the only ones lost: the step is intact.
        QCOMPARE(run.r.metrics.at(0).kernelCount, std::size_t(191));
    }

    // The host tables are read on a thread of their own: their bad values and unusable tables are findings
    // naming file and table all the same, in the order of a single-threaded read (device tables first).
    void aBrokenHostTableIsReportedLikeADeviceTable() {
        QTemporaryDir tmp;
        const QString dir = copyRank(tmp);
        QVERIFY(sqliteExec(profilerDb(dir), "UPDATE TASK SET startNs = 'soon' WHERE rowid = 1; "
                                            "UPDATE PYTORCH_API SET endNs = x'00' WHERE rowid = 1; "
                                            "ALTER TABLE CANN_API DROP COLUMN startNs;"));
        const Run run = analyse(dir);
        QVERIFY(run.load.hasAnyData);
        std::vector<const bs::Finding*> bad;
        for (const auto& f : run.load.profile->loadFindings)
            if (f.id == "db_bad_value") bad.push_back(&f);
        QCOMPARE(bad.size(), std::size_t(2));
        QVERIFY2(bs::english(bad[0]->seen).find("table TASK ") != std::string::npos, bs::english(bad[0]->seen).c_str());
        QVERIFY2(bs::english(bad[1]->seen).find("1 row(s) of table PYTORCH_API in ascend_pytorch_profiler_0.db") !=
                     std::string::npos,
                 bs::english(bad[1]->seen).c_str());
        const bs::Finding* f = finding(run, "db_table_unusable");
        QVERIFY(f);
        QVERIFY2(bs::english(f->seen).find("Table CANN_API of ascend_pytorch_profiler_0.db has no column 'startNs'") == 0,
                 bs::english(f->seen).c_str());
        // The PyTorch ops are there (all but the broken row), the CANN calls are not.
        QVERIFY(!run.load.profile->hostEvents.empty());
        const auto& read = run.load.profile->inventory.dbTablesRead;
        auto at = [&](const char* t) {
            return std::find_if(read.begin(), read.end(),
                                [&](const std::string& r) { return r.find(t) != std::string::npos; }) -
                   read.begin();
        };
        QVERIFY(at(":TASK (") < at(":PYTORCH_API (") && at(":PYTORCH_API (") < at(":TASK_PMU_INFO ("));
        QVERIFY(at(":TASK_PMU_INFO (") < static_cast<long>(read.size()));
        QCOMPARE(at(":CANN_API ("), static_cast<long>(read.size()));
    }

    // Cancelling (the window's cancel flag) stops the load with all three reading threads, never a result.
    void aCancelledLoadStopsAndGivesNoProfile() {
        QVERIFY(bstest::requireRealdata());
        auto found = bs::discoverProfiles(
            bstest::s(bstest::realdata(QStringLiteral("torch_npu_resnet_ddp_db/level1/rank0_ascend_pt"))));
        QCOMPARE(found.ranks.size(), std::size_t(1));
        std::atomic<bool> cancel{false};
        bs::LoadControl control;
        control.cancel = &cancel;
        control.progress = [&](const std::string& stage, std::uint64_t, std::uint64_t) {
            if (stage == "sqlite STRING_IDS") cancel = true; // with the PMU thread running
        };
        const bs::LoadResult r = bs::loadRank(found.ranks[0], control);
        QVERIFY(r.cancelled);
    }

    void sourceDbWithoutADatabaseSaysSo() {
        QVERIFY(bstest::requireRealdata());
        const Run run =
            analyse(bstest::realdata(QStringLiteral("torch_npu_resnet_ddp/level1/rank0_ascend_pt")),
                    bs::DataSource::Db);
        QVERIFY(!run.load.hasAnyData);
        const bs::Finding* f = finding(run, "db_missing");
        QVERIFY(f);
        QVERIFY(bs::english(f->seen).find("--source db") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TstDbReader)
#include "tst_db_reader.moc"
