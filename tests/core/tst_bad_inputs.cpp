// The bad-input corpus: one case per way a collection breaks. Each asserts the finding's message and
// what analysis still delivers.
#include "analysis/analysis_run.h"
#include "io/kernel_table_reader.h"
#include "io/profile_loader.h"
#include "io/side_file_readers.h"
#include "io/trace_json_reader.h"
#include "report/atomic_write.h"
#include "report/json_export.h"
#include "test_support.h"

#include <QTemporaryDir>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using bstest::writeFile;

namespace {

const char* kHeader =
    "Step Id,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us)\n";

struct Run {
    bs::LoadResult load;
    bs::AnalysisResult r;
    bool has(const char* id) const {
        for (const auto& f : r.findings)
            if (f.id == id) return true;
        return false;
    }
    const bs::Finding* get(const char* id) const {
        for (const auto& f : r.findings)
            if (f.id == id) return &f;
        return nullptr;
    }
};

Run analyze(const QString& rankDir) {
    Run run;
    bs::RankFolder rank{bstest::s(rankDir), bstest::s(rankDir + QStringLiteral("/ASCEND_PROFILER_OUTPUT")),
                        "torch_npu", "bad"};
    run.load = bs::loadRank(rank);
    run.r = bs::analyzeProfile(*run.load.profile);
    return run;
}

const QString kRealTrace = QStringLiteral(
    BS_REALDATA_DIR "/torch_npu_resnet_ddp/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json");

bool failAlways() {
    return true;
}

} // namespace

class TstBadInputs : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    int n = 0;
    QString rank(const QByteArray& kernelCsv, bool withRealTrace = false) {
        const QString dir = tmp.filePath(QStringLiteral("r%1_ascend_pt").arg(++n));
        const QString out = dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT");
        QDir().mkpath(out);
        if (!kernelCsv.isNull()) writeFile(out + QStringLiteral("/kernel_details.csv"), kernelCsv);
        if (withRealTrace) QFile::copy(kRealTrace, out + QStringLiteral("/trace_view.json"));
        return dir;
    }

  private slots:
    void emptyKernelTableFallsBackToTheTrace() {
        auto run = analyze(rank(QByteArray(""), true));
        const auto* f = run.get("csv_empty");
        QVERIFY(f);
        QVERIFY(f->seen.find("empty") != std::string::npos);
        QCOMPARE(run.load.profile->inventory.kernelSource, bs::KernelSource::TraceDevice);
        QCOMPARE(run.r.metrics.size(), std::size_t(1));
        QVERIFY(run.r.metrics[0].busyUnion > 0);
    }
    void headerOnlyIsSaidAndTheTraceIsUsed() {
        auto run = analyze(rank(QByteArray(kHeader), true));
        const auto* f = run.get("kernel_table_empty");
        QVERIFY(f);
        QCOMPARE(f->seen, std::string("kernel_details.csv has a header but no rows."));
        QCOMPARE(run.load.profile->inventory.kernelSource, bs::KernelSource::TraceDevice);
    }
    void binaryGarbageIsRefusedBeforeReading() {
        QByteArray junk(4096, '\0');
        for (int i = 0; i < junk.size(); ++i)
            junk[i] = static_cast<char>((i * 7919) % 251);
        auto run = analyze(rank(junk, true));
        const auto* f = run.get("file_unreadable");
        QVERIFY(f);
        QVERIFY(f->seen.find("NUL bytes") != std::string::npos);
        QCOMPARE(run.load.profile->inventory.kernelSource, bs::KernelSource::TraceDevice);
    }
    void fourGigabyteSparseFileIsNotReadIntoMemory() {
        const QString dir = rank(QByteArray(), true);
        const QString csv = dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/kernel_details.csv");
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.resize(4LL << 30)); // sparse: no disk, all zeros
        f.close();
        auto run = analyze(dir);
        const auto* fd = run.get("file_unreadable");
        QVERIFY(fd);
        QVERIFY(fd->seen.find("sparse") != std::string::npos ||
                fd->seen.find("memory available") != std::string::npos);
        QVERIFY(run.load.hasAnyData); // the trace is still analysed
        QFile::remove(csv);
    }
    void invalidUtf8NamesSurviveIntoTheJson() {
        QByteArray csv(kHeader);
        csv += "1,2,Mat\xff\xfeMul,MatMul,AI_CORE,100,10,0\n1,2,Add,Add,AI_CORE,120,10,0\n";
        auto run = analyze(rank(csv));
        QCOMPARE(run.load.profile->kernels.size(), std::size_t(2));
        QCOMPARE(std::string(run.load.profile->str(run.load.profile->kernels[0].name)),
                 std::string("Mat\xff\xfeMul"));
        const std::string json = bs::renderJson(*run.load.profile, run.r);
        QVERIFY(json.find("Mat\xef\xbf\xbd\xef\xbf\xbdMul") != std::string::npos); // U+FFFD twice
    }
    void deeplyNestedJsonIsOneBadEvent() {
        const QString dir = rank(QByteArray());
        QByteArray deep = "[{\"ph\":\"X\",\"name\":\"ok\",\"pid\":1,\"tid\":1,\"ts\":\"5\",\"dur\":1},{"
                          "\"ph\":\"X\",\"args\":";
        deep += QByteArray(100000, '[') + QByteArray(100000, ']');
        deep += "},{\"ph\":\"X\",\"name\":\"ok2\",\"pid\":1,\"tid\":1,\"ts\":\"9\",\"dur\":1}]";
        writeFile(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"), deep);
        writeFile(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/communication.json"),
                  QByteArray(100000, '[') + QByteArray(100000, ']'));
        auto run = analyze(dir);
        QVERIFY(run.has("trace_bad_event"));
        QCOMPARE(run.load.profile->hostEvents.size(), std::size_t(2));
        const auto* c = run.get("json_invalid");
        QVERIFY(c);
        QVERIFY(c->seen.find("communication.json is not a valid JSON object") != std::string::npos);
    }
    void nanInfNegativeAndHugeNumbersAreRowsSkipped() {
        QByteArray csv(kHeader);
        csv += "1,2,a,A,AI_CORE,NaN,10,0\n1,2,b,B,AI_CORE,inf,10,0\n1,2,c,C,AI_CORE,100,-5,0\n1,2,d,D,AI_"
               "CORE,1e300,10,0\n1,2,ok,E,AI_CORE,200,10,0\n";
        auto run = analyze(rank(csv));
        QCOMPARE(run.load.profile->kernels.size(), std::size_t(1));
        int bad = 0;
        for (const auto& f : run.r.findings)
            if (f.id == "csv_bad_time") {
                ++bad;
                QVERIFY(f.seen.find("is not a valid non-negative decimal in µs") != std::string::npos);
                QVERIFY(f.line >= 2 && f.line <= 5);
            }
        QCOMPARE(bad, 4);
        QCOMPARE(run.r.metrics[0].busyUnion, Q_INT64_C(10000));
    }
    void duplicatedRowsAreCountedOnce() {
        QByteArray csv(kHeader);
        csv += "1,2,a,A,AI_CORE,100,10,0\n1,2,a,A,AI_CORE,100,10,0\n1,2,b,B,AI_CORE,120,10,0\n";
        auto run = analyze(rank(csv));
        QCOMPARE(run.load.profile->kernels.size(), std::size_t(2));
        QVERIFY(run.get("duplicate_kernel_rows")->seen.rfind("1 kernel row(s) repeat", 0) == 0);
        QCOMPARE(run.r.metrics[0].kernelSum, Q_INT64_C(20000));
    }
    void unsortedRowsGiveTheSameMetricsAsSorted() {
        QByteArray sorted(kHeader), shuffled(kHeader);
        sorted += "1,2,a,A,AI_CORE,100,10,0\n1,2,b,B,AI_CORE,150,10,0\n1,2,c,C,AI_CORE,300,20,0\n";
        shuffled += "1,2,c,C,AI_CORE,300,20,0\n1,2,a,A,AI_CORE,100,10,0\n1,2,b,B,AI_CORE,150,10,0\n";
        auto x = analyze(rank(sorted)), y = analyze(rank(shuffled));
        QCOMPARE(y.r.metrics[0].internalBubbleTotal, x.r.metrics[0].internalBubbleTotal);
        QCOMPARE(y.r.metrics[0].internalBubbleTotal, Q_INT64_C(180000)); // (150-110) + (300-160) µs
        QCOMPARE(std::string(y.load.profile->str(y.load.profile->kernels[0].name)), std::string("a"));
    }
    void overlappingKernelsOnOneStreamAreFlagged() {
        QByteArray csv(kHeader);
        csv += "1,2,a,A,AI_CORE,100,50,0\n1,2,b,B,AI_CORE,120,10,0\n1,3,c,C,AI_CORE,120,10,0\n";
        auto run = analyze(rank(csv));
        const auto* f = run.get("stream_overlap");
        QVERIFY(f);
        QVERIFY(f->seen.find("1 kernel(s) start more than 1 us before") != std::string::npos);
        QVERIFY(f->seen.find("b on stream 2") != std::string::npos);
        QCOMPARE(run.r.metrics[0].busyUnion, Q_INT64_C(50000)); // the union is unaffected
    }
    void stepMarkersOutOfOrderAndOverlapping() {
        const QString dir =
            rank(QByteArray(kHeader) + "1,2,a,A,AI_CORE,1010,10,0\n2,2,b,B,AI_CORE,2010,10,0\n");
        writeFile(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"),
                  "[{\"ph\":\"X\",\"name\":\"ProfilerStep#2\",\"pid\":1,\"tid\":1,\"ts\":\"2000\",\"dur\":"
                  "100,\"cat\":\"cpu_op\"},"
                  "{\"ph\":\"X\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,\"ts\":\"1000\",\"dur\":"
                  "1500,\"cat\":\"cpu_op\"}]");
        auto run = analyze(dir);
        QCOMPARE(run.r.steps.steps.size(), std::size_t(2));
        QCOMPARE(run.r.steps.steps[0].number, Q_INT64_C(1));    // sorted by start
        QCOMPARE(run.r.steps.steps[0].end, Q_INT64_C(2000000)); // cut at the next marker
        QVERIFY(run.get("step_markers_overlap")->seen.find("1 step marker(s) overlap the next one") !=
                std::string::npos);
    }
    void aStepWithoutKernels() {
        const QString dir = rank(QByteArray(kHeader) + "1,2,a,A,AI_CORE,1010,10,0\n");
        writeFile(
            dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"),
            "[{\"ph\":\"X\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,\"ts\":\"1000\",\"dur\":100},"
            "{\"ph\":\"X\",\"name\":\"ProfilerStep#2\",\"pid\":1,\"tid\":1,\"ts\":\"2000\",\"dur\":300}]");
        auto run = analyze(dir);
        const auto& m = run.r.metrics[1];
        QCOMPARE(m.kernelCount, std::size_t(0));
        QCOMPARE(m.busyUnion, Q_INT64_C(0));
        QCOMPARE(m.underfeedRatio, 1.0);
        QCOMPARE(m.prelaunchGap, m.service);
        QCOMPARE(m.service, Q_INT64_C(300000));
    }
    void timestampsOnTwoScales() {
        QByteArray csv(kHeader);
        csv += "1,2,a,A,AI_CORE,1736408883704643.212,10,0\n" // µs, as written
               "1,2,b,B,AI_CORE,1736408883704843212,10,0\n"  // ns in the µs column: overflows int64 ns
               "1,2,c,C,AI_CORE,1736408883704.900,10,0\n"    // ms in the µs column: 1000x too small
               "1,2,d,D,AI_CORE,1736408883705643.212,10,0\n";
        auto run = analyze(rank(csv));
        QCOMPARE(run.load.profile->kernels.size(), std::size_t(2));
        int scale = 0;
        for (const auto& f : run.r.findings)
            if (f.id == "timestamp_scale_mixed") ++scale;
        QCOMPARE(scale, 2);
        QVERIFY(run.get("timestamp_scale_mixed")->seen.find("nanosecond value in a microsecond column") !=
                std::string::npos);
    }
    void unreadableFileIsAFindingNotACrash() {
        const QString dir = rank(QByteArray(), true);
        const QString csv = dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/kernel_details.csv");
        if (::geteuid() == 0) {
            QDir().mkpath(csv); // root reads any file: a folder under that name is just as unreadable
        } else {
            writeFile(csv, kHeader);
            QFile::setPermissions(csv, QFileDevice::Permissions());
        }
        auto run = analyze(dir);
        const auto* f = run.get("file_unreadable");
        QVERIFY(f);
        QVERIFY(f->seen.find("kernel_details.csv") != std::string::npos);
        QCOMPARE(run.load.profile->inventory.kernelSource, bs::KernelSource::TraceDevice);
    }
    void symlinkLoopInsideARank() {
        const QString dir = rank(QByteArray(kHeader) + "1,2,a,A,AI_CORE,100,10,0\n");
        QVERIFY(QFile::link(dir, dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/loop")));
        auto found = bs::discoverProfiles(bstest::s(tmp.path()));
        QVERIFY(!found.ranks.empty());
        auto run = analyze(dir);
        QCOMPARE(run.load.profile->kernels.size(), std::size_t(1));
    }
    void fuzzRegressionExtremeTimestamps() {
        // fuzz_analysis crash-7970bee4: a gap of ~2.6e18 ns made 5 x median overflow int64 in the
        // gap-based structure split. Replayed exactly as the fuzz target does: kernel_details.csv, NUL,
        // trace_view.json. Under the sanitizer build of .ci/run the old code aborts here.
        const QByteArray input = bstest::readFile(QStringLiteral(BS_SOURCE_DIR "/tests/core/fuzz_regressions/analysis-7970bee4.bin"));
        QVERIFY(!input.isEmpty());
        const int cut = input.indexOf('\0');
        const QString dir = rank(cut < 0 ? input : input.left(cut));
        writeFile(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"), cut < 0 ? QByteArray() : input.mid(cut + 1));
        auto run = analyze(dir);
        (void)bs::renderJson(*run.load.profile, run.r);
        // And the bound itself: absolute times past ~2096 or single durations over 1000 s are rejected.
        QByteArray csv(kHeader);
        csv += "1,2,far,A,AI_CORE,9000000000000000,10,0\n1,2,long,B,AI_CORE,100,2000000000,0\n1,2,ok,C,AI_CORE,100,10,0\n";
        auto run2 = analyze(rank(csv));
        QCOMPARE(run2.load.profile->kernels.size(), std::size_t(1));
        int bad = 0;
        for (const auto& f : run2.r.findings) bad += f.id == "csv_bad_time";
        QCOMPARE(bad, 2);
    }
    void aFolderOfOneHundredThousandFiles() {
        const QString dir = tmp.filePath(QStringLiteral("many"));
        QDir().mkpath(dir);
        for (int i = 0; i < 100000; ++i) {
            QFile f(dir + QStringLiteral("/f%1.txt").arg(i));
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        auto found = bs::discoverProfiles(bstest::s(dir));
        QVERIFY(found.ranks.empty());
        QVERIFY(found.error.find("holds no Ascend profiling data") != std::string::npos);
        QDir(dir).removeRecursively();
    }
    void aProfileLargerThanMemoryIsRefusedBeforeLoading() {
        const QString dir = rank(QByteArray(), true);
        qputenv("BUBBLESCOPE_MEMORY_LIMIT_MB", "1");
        auto run = analyze(dir);
        qunsetenv("BUBBLESCOPE_MEMORY_LIMIT_MB");
        QVERIFY(run.load.tooLarge);
        QVERIFY(!run.load.hasAnyData);
        QVERIFY(run.load.profile->kernels.empty() && run.load.profile->hostEvents.empty());
        const auto& f = run.load.profile->loadFindings.front();
        QCOMPARE(f.id, std::string("profile_too_large"));
        QVERIFY(f.seen.find("but only 1 MiB of memory are available") != std::string::npos);
    }
    void aPresetCancelStopsTheLoad() {
        std::atomic<bool> cancel{true};
        bs::LoadControl ctl;
        ctl.cancel = &cancel;
        bs::RankFolder r{
            bstest::s(bstest::realdata(QStringLiteral("torch_npu_resnet_ddp/level1/rank0_ascend_pt"))),
            bstest::s(bstest::realdata(
                QStringLiteral("torch_npu_resnet_ddp/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT"))),
            "torch_npu", "x"};
        auto load = bs::loadRank(r, ctl);
        QVERIFY(load.cancelled);
    }
    void anExportThatFailsBeforeTheRenameLeavesTheOldFile() {
        const QString target = tmp.filePath(QStringLiteral("export.json"));
        writeFile(target, "old contents");
        bs::testing::setAtomicWriteFailpoint(&failAlways);
        const std::string err = bs::writeFileAtomically(bstest::s(target), std::string(1 << 20, 'x'));
        bs::testing::setAtomicWriteFailpoint(nullptr);
        QVERIFY(err.find("simulated failure before the rename") != std::string::npos);
        QCOMPARE(bstest::readFile(target), QByteArray("old contents"));
        QCOMPARE(QDir(tmp.path()).entryList({QStringLiteral("export.json.tmp-*")}, QDir::Files).size(), 0);
        // A process killed in the middle of exports: the target is always the old or a complete new file.
        for (int round = 0; round < 5; ++round) {
            const pid_t child = ::fork();
            if (child == 0) {
                const std::string big(32 << 20, static_cast<char>('a' + round));
                for (;;)
                    bs::writeFileAtomically(bstest::s(target), big);
            }
            ::usleep(60000 + round * 37000);
            ::kill(child, SIGKILL);
            ::waitpid(child, nullptr, 0);
            const QByteArray now = bstest::readFile(target);
            QVERIFY(now == QByteArray("old contents") ||
                    (now.size() == (32 << 20) && now.count(now.at(0)) == now.size()));
        }
    }
};

QTEST_APPLESS_MAIN(TstBadInputs)
#include "tst_bad_inputs.moc"
