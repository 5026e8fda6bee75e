// The bad-input corpus: one case per way a collection breaks. Each asserts the finding's message and
// what analysis still delivers.
#include "i18n/message.h"
#include "pipeline/analysis_run.h"
#include "io/file_buffer.h"
#include "io/kernel_table_reader.h"
#include "io/profile_loader.h"
#include "io/side_file_readers.h"
#include "io/trace_json_reader.h"
#include "report/atomic_write.h"
#include "report/json_export.h"
#include "test_support.h"

#include <QJsonDocument>
#include <QTemporaryDir>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <poll.h>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <sys/resource.h>
#include <sys/stat.h>
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
        QVERIFY(bs::english(f->seen).find("empty") != std::string::npos);
        QCOMPARE(run.load.profile->inventory.kernelSource, bs::KernelSource::TraceDevice);
        QCOMPARE(run.r.metrics.size(), std::size_t(1));
        // The real L1 rank 0 trace alone gives its step_trace_time.csv busy time (Computing 8873.756 +
        // Communication(Not Overlapped) 101963.203 µs).
        QVERIFY(std::abs(bs::nsToUs(run.r.metrics[0].busyUnion) - 110836.959) <= 1.0);
    }
    void headerOnlyIsSaidAndTheTraceIsUsed() {
        auto run = analyze(rank(QByteArray(kHeader), true));
        const auto* f = run.get("kernel_table_empty");
        QVERIFY(f);
        QCOMPARE(bs::english(f->seen), std::string("kernel_details.csv has a header but no rows."));
        QCOMPARE(run.load.profile->inventory.kernelSource, bs::KernelSource::TraceDevice);
    }
    void binaryGarbageIsRefusedBeforeReading() {
        QByteArray junk(4096, '\0');
        for (int i = 0; i < junk.size(); ++i)
            junk[i] = static_cast<char>((i * 7919) % 251);
        auto run = analyze(rank(junk, true));
        const auto* f = run.get("file_unreadable");
        QVERIFY(f);
        QVERIFY(bs::english(f->seen).find("NUL bytes") != std::string::npos);
        QCOMPARE(run.load.profile->inventory.kernelSource, bs::KernelSource::TraceDevice);
    }
    // A side file of 8 MiB or more is read into a buffer mapped on its own (whole pages, made present
    // before the read); a smaller one into an ordinary allocation. Both hold the file's bytes exactly,
    // then 64 zero bytes.
    void largeAndSmallFilesAreReadExactlyWithTheirPadding() {
        for (const qsizetype size : {qsizetype(3000), qsizetype((9 << 20) + 123), qsizetype(8 << 20)}) {
            QByteArray text(size, ' ');
            std::uint64_t x = 0x9E3779B97F4A7C15ULL;
            for (qsizetype i = 0; i < size; ++i) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                text[i] = static_cast<char>(1 + x % 255); // any byte but NUL
            }
            const QString path = tmp.filePath(QStringLiteral("big%1.json").arg(size));
            writeFile(path, text);
            const bs::FileBuffer fb = bs::readWholeFile(bstest::s(path));
            QVERIFY(fb.error.empty());
            QCOMPARE(fb.length, static_cast<std::size_t>(size));
            QVERIFY(std::memcmp(fb.begin(), text.constData(), fb.length) == 0);
            for (std::size_t i = 0; i < bs::kReadPadding; ++i)
                QCOMPARE(fb.begin()[fb.length + i], '\0');
            const std::size_t mapped = fb.data.get_deleter().mappedBytes;
            if (size < (8 << 20)) {
                QCOMPARE(mapped, std::size_t(0));
            } else {
                const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
                QCOMPARE(mapped % page, std::size_t(0));
                QVERIFY(mapped >= fb.length + bs::kReadPadding &&
                        mapped < fb.length + bs::kReadPadding + page);
                QCOMPARE(reinterpret_cast<std::uintptr_t>(fb.begin()) % page, std::uintptr_t(0));
            }
            QFile::remove(path);
        }
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
        QVERIFY(bs::english(fd->seen).find("sparse") != std::string::npos ||
                bs::english(fd->seen).find("memory available") != std::string::npos);
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
        QVERIFY(bs::english(c->seen).find("communication.json is not a valid JSON object") != std::string::npos);
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
                QVERIFY(bs::english(f.seen).find("is not a valid non-negative decimal in µs") != std::string::npos);
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
        QVERIFY(bs::english(run.get("duplicate_kernel_rows")->seen).rfind("1 kernel row(s) repeat", 0) == 0);
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
        QVERIFY(bs::english(f->seen).find("1 kernel(s) start more than 1 us before") != std::string::npos);
        QVERIFY(bs::english(f->seen).find("b on stream 2") != std::string::npos);
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
        QVERIFY(bs::english(run.get("step_markers_overlap")->seen).find("1 step marker(s) overlap the next one") !=
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
        QVERIFY(bs::english(run.get("timestamp_scale_mixed")->seen).find("nanosecond value in a microsecond column") !=
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
        QVERIFY(bs::english(f->seen).find("kernel_details.csv") != std::string::npos);
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
        const std::string json = bs::renderJson(*run.load.profile, run.r);
        // Not only "no crash": what survives is the two rows with plausible times, Conv2D1 at
        // 1736408883704903.918 µs for 313.886 µs and aclnnInplaceRelu_Relu_Relu at 1736408883705425.768 for
        // 15.500; one step (Step Id 50) with busy 313.886 + 15.5 = 329.386 µs and one internal gap of
        // 1736408883705425.768 − 1736408883705217.804 = 207.964 µs; one structure (a single 208 µs gap is
        // below max(50 µs, 5 × its own median)); and the JSON is a complete document.
        QCOMPARE(run.load.profile->kernels.size(), std::size_t(2));
        QCOMPARE(run.r.steps.source, bs::StepSource::StepIdColumn);
        QCOMPARE(run.r.metrics.size(), std::size_t(1));
        QCOMPARE(run.r.metrics[0].busyUnion, Q_INT64_C(329386));
        QCOMPARE(run.r.metrics[0].internalBubbleTotal, Q_INT64_C(207964));
        QCOMPARE(run.r.metrics[0].bubbleCount, std::size_t(1));
        QCOMPARE(run.r.architecture.structures.size(), std::size_t(1));
        QVERIFY(QJsonDocument::fromJson(QByteArray::fromStdString(json)).isObject());
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
        QVERIFY(bs::english(found.error).find("holds no Ascend profiling data") != std::string::npos);
        QDir(dir).removeRecursively();
    }
    // Issue 45, item 6: the estimate at its boundary, per share (sizes only: the refusal comes before any
    // read, so the files' bytes do not matter). Hand-computed: (30 MiB + factor x size) x 1.1.
    //   SQLite export of 100 MiB:        (30 + 3 x 100) x 1.1 = 363 MiB
    //   communication.json of 100 MiB:   (30 + 1.5 x 100) x 1.1 = 198 MiB (not the 36 x of a DOM)
    //   trace of 200 MiB + table 100 MiB: (30 + 0.45 x 200 + 1.2 x 100) x 1.1 = 264 MiB
    void theMemoryEstimateRefusesAtItsBoundaryByte_data() {
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<QList<int>>("mib");
        QTest::addColumn<int>("needMib");
        QTest::newRow("sqlite") << QStringList{QStringLiteral("ascend_pytorch_profiler_0.db")} << QList<int>{100} << 363;
        QTest::newRow("communication.json") << QStringList{QStringLiteral("kernel_details.csv"), QStringLiteral("communication.json")}
                                            << QList<int>{0, 100} << 198;
        QTest::newRow("trace and table") << QStringList{QStringLiteral("trace_view.json"), QStringLiteral("kernel_details.csv")}
                                         << QList<int>{200, 100} << 264;
    }
    void theMemoryEstimateRefusesAtItsBoundaryByte() {
        QFETCH(QStringList, files);
        QFETCH(QList<int>, mib);
        QFETCH(int, needMib);
        QTemporaryDir tmp;
        std::atomic<bool> cancelNow{true};
        const QString out = tmp.filePath(QStringLiteral("r_ascend_pt/ASCEND_PROFILER_OUTPUT"));
        QVERIFY(QDir().mkpath(out));
        for (qsizetype i = 0; i < files.size(); ++i) {
            const std::string path = bstest::s(out + QLatin1Char('/') + files[i]);
            { std::ofstream f(path); }
            std::filesystem::resize_file(path, static_cast<std::uintmax_t>(mib[i]) << 20); // sparse
        }
        const bs::RankFolder rank{bstest::s(tmp.filePath(QStringLiteral("r_ascend_pt"))), bstest::s(out), "torch_npu", "r"};
        for (const int limit : {needMib - 1, needMib, needMib + 1}) {
            qputenv("BUBBLESCOPE_MEMORY_LIMIT_MB", QByteArray::number(limit));
            bs::LoadControl control;
            control.cancel = &cancelNow; // accepted: stop at the first check, nothing of the sparse files is read
            const bs::LoadResult loaded = bs::loadRank(rank, control);
            qunsetenv("BUBBLESCOPE_MEMORY_LIMIT_MB");
            QVERIFY2(loaded.tooLarge == (limit < needMib), qPrintable(QString::number(limit)));
            if (loaded.tooLarge)
                QVERIFY2(bs::english(loaded.profile->loadFindings.front().seen)
                                 .find("needs about " + std::to_string(needMib) + " MiB") != std::string::npos,
                         bs::english(loaded.profile->loadFindings.front().seen).c_str());
        }
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
        QVERIFY(bs::english(f.seen).find("but only 1 MiB of memory are available") != std::string::npos);
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
    // ---- Hostile inputs (issue 19) ----
    void aNestedTraceEventsDecoyIsNotTaken() {
        // The array is the top-level member: a "traceEvents" inside another member or inside a string is
        // skipped with its value, however much comes before the real one (here 17 MB).
        const QString dir = rank(QByteArray());
        QByteArray t = "{\"otherData\":{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"decoy\",\"pid\":1,\"tid\":1,"
                       "\"ts\":\"1\",\"dur\":1}]},\"note\":\"\\\"traceEvents\\\":[\",\"pad\":\"";
        t += QByteArray(17 << 20, 'k');
        t += "\",\"traceEvents\":[{\"ph\":\"X\",\"name\":\"real\",\"pid\":1,\"tid\":1,\"ts\":\"5\",\"dur\":2}],"
             "\"displayTimeUnit\":\"ns\"}";
        writeFile(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"), t);
        auto run = analyze(dir);
        QCOMPARE(run.load.profile->hostEvents.size(), std::size_t(1));
        QCOMPARE(std::string(run.load.profile->str(run.load.profile->hostEvents[0].name)), std::string("real"));
        QVERIFY(!run.has("trace_not_chrome_format"));
        // An object whose only traceEvents is nested has none.
        const QString dir2 = rank(QByteArray());
        writeFile(dir2 + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"),
                  "{\"otherData\":{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"decoy\",\"pid\":1,\"tid\":1,\"ts\":"
                  "\"1\",\"dur\":1}]}}");
        auto run2 = analyze(dir2);
        QVERIFY(run2.load.profile->hostEvents.empty());
        const auto* f = run2.get("trace_not_chrome_format");
        QVERIFY(f);
        QCOMPARE(bs::english(f->seen), std::string("The file is a JSON object without a top-level \"traceEvents\" array."));
    }
    void elementsThatAreNotObjectsAreSkippedOneByOne() {
        // 200 000 numbers between two events: each is reported (capped), the events are kept. The time
        // this takes is measured by the complexity bench (n and 8n), not here.
        const QString dir = rank(QByteArray());
        QByteArray t = "[{\"ph\":\"X\",\"name\":\"first\",\"pid\":1,\"tid\":1,\"ts\":\"5\",\"dur\":2},";
        for (int i = 0; i < 200000; ++i)
            t += "12345,";
        t += "{\"ph\":\"X\",\"name\":\"last\",\"pid\":1,\"tid\":1,\"ts\":\"9\",\"dur\":2}]";
        const QString path = dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json");
        writeFile(path, t);
        bs::Profile prof;
        bs::FindingSink sink;
        auto r = bs::readTraceJson(bstest::s(path), prof, sink);
        QCOMPARE(r.elements, std::size_t(2));
        QCOMPARE(r.badElements, std::size_t(200000));
        QCOMPARE(prof.hostEvents.size(), std::size_t(2));
        QCOMPARE(std::string(prof.str(prof.hostEvents[1].name)), std::string("last"));
    }
    void hostEventsWithInvalidUtf8AreKept() {
        // GBK names: the events and the three step markers stay, the bad bytes become U+FFFD.
        QByteArray csv(kHeader);
        QByteArray t = "[";
        for (int step = 1; step <= 3; ++step) {
            const long long s0 = step * 1000;
            t += QByteArray("{\"ph\":\"X\",\"name\":\"ProfilerStep#") + QByteArray::number(step) +
                 "\",\"pid\":1,\"tid\":1,\"ts\":\"" + QByteArray::number(s0) + "\",\"dur\":900,\"args\":{\"Call "
                 "stack\":\"D:\\\\\xd1\xb5\xc1\xb7.py(3)\"}},";
            t += QByteArray("{\"ph\":\"X\",\"name\":\"\xc4\xa3\xd0\xcd_op\",\"pid\":1,\"tid\":1,\"ts\":\"") +
                 QByteArray::number(s0 + 10) + "\",\"dur\":50},";
            csv += QByteArray::number(step) + ",2,MatMul,MatMul,AI_CORE," + QByteArray::number(s0 + 100) +
                   ",100,0\n";
        }
        t.chop(1);
        t += "]";
        const QString dir = rank(csv);
        writeFile(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"), t);
        auto run = analyze(dir);
        QCOMPARE(run.load.profile->hostEvents.size(), std::size_t(6));
        QCOMPARE(run.r.steps.steps.size(), std::size_t(3));
        QCOMPARE(run.r.steps.source, bs::StepSource::ProfilerStep);
        bool replaced = false;
        for (const auto& e : run.load.profile->hostEvents)
            replaced = replaced || run.load.profile->str(e.name) == "\xc4\xa3\xef\xbf\xbd\xef\xbf\xbd_op";
        // GBK "模型" is C4 A3 D0 CD: C4 A3 happens to be valid UTF-8 (U+0123) and stays; D0 (no continuation
        // byte after it) and CD (followed by '_') are not, and each becomes U+FFFD.
        QVERIFY(replaced);
        const auto* f = run.get("trace_invalid_utf8");
        QVERIFY(f);
        QCOMPARE(bs::english(f->seen).substr(0, 11), std::string("6 event(s) "));
    }
    void anEmptyTraceIsAFindingNotACompleteCollection() {
        const QString dir = rank(QByteArray());
        writeFile(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"), "[]");
        bs::RankFolder rk{bstest::s(dir), bstest::s(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT")), "torch_npu",
                          "empty"};
        auto loaded = bs::loadRank(rk);
        QVERIFY(!loaded.hasAnyData);
        const std::string msg = bs::english(bs::noDataMessage(rk, loaded));
        QVERIFY2(msg.find("trace_view.json could not be read: The timeline holds no events (an empty trace "
                          "array).") != std::string::npos,
                 msg.c_str());
        // With a kernel table the analysis runs, and the report has a finding instead of "looks complete".
        QByteArray csv(kHeader);
        csv += "1,2,MatMul,MatMul,AI_CORE,100,10,0\n";
        const QString dir2 = rank(csv);
        writeFile(dir2 + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"), "[]");
        auto run = analyze(dir2);
        const auto* f = run.get("trace_empty");
        QVERIFY(f);
        QCOMPARE(f->severity, bs::Severity::Warning);
    }
    void aTimelineSavedTwiceIsReadOnce() {
        const QString prof = tmp.filePath(QStringLiteral("PROF_000001_dup"));
        const QString out = prof + QStringLiteral("/mindstudio_profiler_output");
        const QByteArray t = "[{\"ph\":\"X\",\"name\":\"op\",\"pid\":1,\"tid\":1,\"ts\":\"5\",\"dur\":2},"
                             "{\"ph\":\"X\",\"name\":\"op2\",\"pid\":1,\"tid\":1,\"ts\":\"9\",\"dur\":2}]";
        writeFile(out + QStringLiteral("/msprof_20260101000000.json"), t);
        writeFile(out + QStringLiteral("/msprof_20260101000001.json"), t);
        auto found = bs::discoverProfiles(bstest::s(prof));
        QCOMPARE(found.ranks.size(), std::size_t(1));
        auto loaded = bs::loadRank(found.ranks[0]);
        QCOMPARE(loaded.profile->hostEvents.size(), std::size_t(2));
        bool dup = false;
        for (const auto& f : loaded.profile->loadFindings)
            dup = dup || (f.id == "duplicate_timeline" &&
                          bs::english(f.seen).find("msprof_20260101000001.json is byte for byte the same as") != std::string::npos);
        QVERIFY(dup);
    }
    void aBeginEndPairLongerThanTheBoundIsRejected() {
        const QString dir = rank(QByteArray());
        writeFile(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"),
                  "[{\"ph\":\"B\",\"name\":\"long\",\"pid\":1,\"tid\":1,\"ts\":\"0\"},"
                  "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":\"2000000000000\"},"
                  "{\"ph\":\"B\",\"name\":\"fine\",\"pid\":1,\"tid\":1,\"ts\":\"10\"},"
                  "{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":\"30\"}]");
        auto run = analyze(dir);
        QCOMPARE(run.load.profile->hostEvents.size(), std::size_t(1));
        QCOMPARE(run.load.profile->hostEvents[0].dur, bs::TimeNs(20000));
        const auto* f = run.get("trace_bad_event");
        QVERIFY(f);
        QVERIFY(bs::english(f->seen).find("'E' ends more than 1000 s after its 'B'") != std::string::npos);
    }
    void aFifoInPlaceOfAFileIsRefusedWithoutWaiting() {
        // A FIFO with no writer: opening it would block forever; the readers open without blocking and
        // check the opened descriptor.
        const QString dir = rank(QByteArray());
        const QString fifo = dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json");
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        bs::Profile prof;
        bs::FindingSink sink;
        auto r = bs::readTraceJson(bstest::s(fifo), prof, sink);
        QVERIFY(!r.ok);
        QCOMPARE(sink.findings().size(), std::size_t(1));
        QVERIFY(bs::english(sink.findings()[0].seen).find("is not a regular file") != std::string::npos);
        bs::FileBuffer fb = bs::readWholeFile(bstest::s(fifo));
        QCOMPARE(bs::english(fb.error), bstest::s(fifo) + " is not a regular file");
        QFile::remove(fifo);
    }
    void stepTraceTimeCountsInTheMemoryEstimate() {
        // 2 MB of step_trace_time.csv is ~128 MiB of rows: refused under a 64 MiB limit.
        QByteArray csv(kHeader);
        csv += "1,2,MatMul,MatMul,AI_CORE,100,10,0\n";
        const QString dir = rank(csv);
        QByteArray st = "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
                        "Communication(Not Overlapped and Exclude Receive),Preparing\n";
        while (st.size() < (2 << 20))
            st += "1,10.0,0,0,0,1.0,11.0,0,0,0.5\n";
        writeFile(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"), st);
        qputenv("BUBBLESCOPE_MEMORY_LIMIT_MB", "64");
        auto loaded = bs::loadRank({bstest::s(dir), bstest::s(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT")),
                                    "torch_npu", "st"});
        qunsetenv("BUBBLESCOPE_MEMORY_LIMIT_MB");
        QVERIFY(loaded.tooLarge);
        QVERIFY(bs::english(loaded.profile->loadFindings.front().seen).find("side tables 2 MiB") != std::string::npos);
    }
    void anAddressSpaceLimitIsReadAndRunningOutIsARefusal() {
        // In a child: under `ulimit -v`, the available memory is the headroom under the limit; and when the
        // estimate is overridden so that loading starts, running out of memory is a refusal, not an abort.
        const pid_t child = ::fork();
        if (child == 0) {
            const std::uint64_t before = bs::availableMemoryBytes();
            struct rlimit rl {};
            std::FILE* f = std::fopen("/proc/self/statm", "r");
            unsigned long long pages = 0;
            if (!f || std::fscanf(f, "%llu", &pages) != 1) ::_exit(10);
            std::fclose(f);
            const auto mapped = static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE));
            rl.rlim_cur = rl.rlim_max = mapped + (200u << 20);
            if (::setrlimit(RLIMIT_AS, &rl) != 0) ::_exit(11);
            const std::uint64_t under = bs::availableMemoryBytes();
            if (!(under <= (200u << 20) && under > (150u << 20) && under <= before)) ::_exit(12);
#if !defined(__SANITIZE_ADDRESS__)
            // 150 MB of events: ~60 MB of model, more than the 200 MB headroom once the file is read twice
            // over in chunks and sorted; with the estimate disabled the load starts and must fail cleanly.
            ::setenv("BUBBLESCOPE_MEMORY_LIMIT_MB", "100000", 1);
            // The folder is removed before _exit (which runs no destructor): a leaked 160 MB per run.
            const int code = [] {
            QTemporaryDir d;
            const QString out = d.filePath(QStringLiteral("big_ascend_pt/ASCEND_PROFILER_OUTPUT"));
            QDir().mkpath(out);
            QFile tf(out + QStringLiteral("/trace_view.json"));
            if (!tf.open(QIODevice::WriteOnly)) return 13;
            tf.write("[");
            const QByteArray ev = "{\"ph\":\"X\",\"name\":\"op\",\"pid\":1,\"tid\":1,\"ts\":\"5\",\"dur\":2},";
            for (int i = 0; i < 3000000; ++i)
                tf.write(ev);
            tf.write("{\"ph\":\"X\",\"name\":\"op\",\"pid\":1,\"tid\":1,\"ts\":\"5\",\"dur\":2}]");
            tf.close();
            auto loaded = bs::loadRank({bstest::s(d.filePath(QStringLiteral("big_ascend_pt"))), bstest::s(out),
                                        "torch_npu", "big"});
            if (!loaded.tooLarge) return 14;
            if (bs::english(loaded.profile->loadFindings.front().seen).find("Memory ran out while loading") == std::string::npos)
                return 15;
            return 0;
            }();
            if (code != 0) ::_exit(code);
#endif
            ::_exit(0);
        }
        int status = 0;
        ::waitpid(child, &status, 0);
        QVERIFY2(WIFEXITED(status), "the child was killed (an uncaught std::bad_alloc aborts)");
        QCOMPARE(WEXITSTATUS(status), 0);
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
        // In odd rounds the kill waits until the child has completed one export (it says so on a pipe) and
        // then lands in a later one: the target must be exactly that round's file, so renames are proven
        // to happen, not only assumed.
        int renamedRounds = 0;
        for (int round = 0; round < 5; ++round) {
            const char letter = static_cast<char>('a' + round);
            const bool afterARename = round % 2 == 1;
            int fds[2];
            QCOMPARE(::pipe(fds), 0);
            const pid_t child = ::fork();
            if (child == 0) {
                ::close(fds[0]);
                const std::string big(32 << 20, letter);
                for (bool told = false;;)
                    if (bs::writeFileAtomically(bstest::s(target), big).empty() && !told)
                        told = ::write(fds[1], "r", 1) == 1;
            }
            ::close(fds[1]);
            bool told = false;
            if (afterARename) {
                pollfd pfd{fds[0], POLLIN, 0};
                char c = 0;
                told = ::poll(&pfd, 1, 60000) == 1 && ::read(fds[0], &c, 1) == 1;
                ::usleep(static_cast<useconds_t>(round * 37000));
            } else {
                ::usleep(static_cast<useconds_t>(60000 + round * 37000));
            }
            ::kill(child, SIGKILL);
            ::waitpid(child, nullptr, 0);
            ::close(fds[0]);
            const QByteArray now = bstest::readFile(target);
            QVERIFY(now == QByteArray("old contents") ||
                    (now.size() == (32 << 20) && now.count(now.at(0)) == now.size()));
            if (afterARename) {
                QVERIFY2(told, "the child did not complete an export within 60 s");
                QVERIFY2(now == QByteArray(32 << 20, letter),
                         "the target is not the completed export of this round");
            }
            renamedRounds += now == QByteArray(32 << 20, letter);
        }
        QVERIFY(renamedRounds >= 2);
    }
};

QTEST_APPLESS_MAIN(TstBadInputs)
#include "tst_bad_inputs.moc"
