// The profile health check on hand-built folders whose every number is computed in the comments.
#include "i18n/message.h"
#include <cmath>
#include "pipeline/analysis_run.h"
#include "io/profile_loader.h"
#include "test_support.h"
#include "tst_health_check_fixtures.h"

#include <QTemporaryDir>

using bstest::writeFile;

namespace {

bs::LoadResult loadDir(const QString& dir) {
    auto found = bs::discoverProfiles(bstest::s(dir));
    if (found.ranks.size() != 1) return {};
    return bs::loadRank(found.ranks[0]);
}

QStringList ids(const bs::AnalysisResult& r) {
    QStringList out;
    for (const auto& f : r.findings)
        out << QString::fromStdString(f.id);
    return out;
}

} // namespace

class TstHealthCheck : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;

  private slots:
    void traceOnlyOutputStillGivesStepMetricsFromDeviceEvents() {
        QVERIFY(bstest::requireRealdata());
        const QString out = tmp.filePath(QStringLiteral("traceonly_ascend_pt/ASCEND_PROFILER_OUTPUT"));
        QDir().mkpath(out);
        QVERIFY(QFile::copy(
            bstest::realdata(QStringLiteral(
                "torch_npu_resnet_ddp/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json")),
            out + QStringLiteral("/trace_view.json")));
        auto loaded = loadDir(tmp.filePath(QStringLiteral("traceonly_ascend_pt")));
        QVERIFY(loaded.hasAnyData);
        const auto& prof = *loaded.profile;
        QCOMPARE(prof.inventory.kernelSource, bs::KernelSource::TraceDevice);
        // 535 device events: 172 AI_CORE + 13 MIX_AIV + 2 DSA_SQE kernels, 348 housekeeping tasks (event
        // record/wait, notify wait, write value, SDMA/PCIe copies, placeholders) left out; plus the 4
        // collectives of the HCCL group lane = kernel_details.csv's 191 rows.
        QCOMPARE(prof.deviceEvents.size(), std::size_t(535));
        QCOMPARE(prof.kernels.size(), std::size_t(191));
        auto r = bs::analyzeProfile(prof);
        QCOMPARE(r.steps.source, bs::StepSource::ProfilerStep);
        QCOMPARE(r.metrics.size(), std::size_t(1));
        QCOMPARE(r.metrics[0].stepId, Q_INT64_C(50));
        // The same marker as with kernel_details: window starts at ProfilerStep#50 (ts 1736408883686740.710).
        QCOMPARE(r.metrics[0].windowStart, Q_INT64_C(1736408883686740710));
        // step_trace_time.csv: Computing 8873.756 + Communication(Not Overlapped) 101963.203 = 110836.959 µs.
        QVERIFY2(std::abs(bs::nsToUs(r.metrics[0].busyUnion) - 110836.959) <= 1.0,
                 qPrintable(QString::number(bs::nsToUs(r.metrics[0].busyUnion), 'f', 3)));
        QCOMPARE(r.metrics[0].service, r.metrics[0].busyUnion + r.metrics[0].prelaunchGap +
                                           r.metrics[0].internalBubbleTotal + r.metrics[0].tailGap);
        QVERIFY(ids(r).contains(QStringLiteral("trace_only_no_csv")));
        for (const auto& f : r.findings)
            if (f.id == "trace_only_no_csv") QCOMPARE(f.docRef, std::string("collection-problems.md#only-the-timeline-no-csv"));
    }
    void emptyOutputFolderIsProblemFour() {
        const QString rank = tmp.filePath(QStringLiteral("empty_ascend_pt"));
        QDir().mkpath(rank + QStringLiteral("/ASCEND_PROFILER_OUTPUT"));
        auto loaded = loadDir(rank);
        QVERIFY(loaded.profile);
        QVERIFY(!loaded.hasAnyData);
        auto r = bs::analyzeProfile(*loaded.profile);
        QCOMPARE(ids(r), QStringList{QStringLiteral("output_folder_empty")});
        QCOMPARE(r.findings[0].docRef, std::string("collection-problems.md#empty-output-folder"));
        QCOMPARE(r.findings[0].severity, bs::Severity::Error);
    }
    void compileStepEarlyKernelsMismatchAndZeroPmuAreAllFound() {
        const QString out = tmp.filePath(QStringLiteral("synth_ascend_pt/ASCEND_PROFILER_OUTPUT"));
        // Steps (µs): #1 [1000, 2000), #2 [2000, 2100), #3 [2100, E) with E = max(2100+50, 2140) = 2150.
        writeFile(out + QStringLiteral("/trace_view.json"), kTstHealthCheckFixture0);
        // k0 starts before the first marker; step 1 holds one 900 µs kernel (compile-like);
        // steps 2 and 3 hold two 10 µs kernels each with a 10 µs gap: busy 20, prelaunch 10, internal 10.
        writeFile(out + QStringLiteral("/kernel_details.csv"),
                  "Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start "
                  "Time(us),Duration(us),Wait Time(us),"
                  "Block Dim,Input Shapes,aic_mac_ratio,aiv_vec_ratio\n"
                  "1,0,1,2,k0,Add,dynamic,AI_CORE,990.000\t,5,0,8,\"\"\"4\"\"\",0,0\n"
                  "1,0,2,2,compile,Add,dynamic,AI_CORE,1000.000\t,900,0,8,\"\"\"4\"\"\",0,0\n"
                  "2,0,3,2,a,Add,dynamic,AI_CORE,2010.000\t,10,0,8,\"\"\"4\"\"\",0,0\n"
                  "2,0,4,2,b,Add,dynamic,AI_CORE,2030.000\t,10,10,8,\"\"\"4\"\"\",0,0\n"
                  "3,0,5,2,a,Add,dynamic,AI_CORE,2110.000\t,10,0,8,\"\"\"4\"\"\",0,0\n"
                  "3,0,6,2,b,Add,dynamic,AI_CORE,2130.000\t,10,10,8,\"\"\"4\"\"\",0,0\n");
        // Step 2 figures are right; step 3's Free is 50 µs where the kernels give 10 µs.
        writeFile(out + QStringLiteral("/step_trace_time.csv"),
                  "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
                  "Communication(Not Overlapped and Exclude Receive),Preparing\n"
                  "2,20,0,0,0,10,100,0,0,10\n"
                  "3,20,0,0,0,50,50,0,0,10\n");
        auto loaded = loadDir(tmp.filePath(QStringLiteral("synth_ascend_pt")));
        QVERIFY(loaded.hasAnyData);
        auto r = bs::analyzeProfile(*loaded.profile);
        QCOMPARE(r.metrics.size(), std::size_t(3));
        const auto& s2 = r.metrics[1];
        QCOMPARE(s2.service, Q_INT64_C(100000));
        QCOMPARE(s2.busyUnion, Q_INT64_C(20000));
        QCOMPARE(s2.prelaunchGap, Q_INT64_C(10000));
        QCOMPARE(s2.internalBubbleTotal, Q_INT64_C(10000));
        QCOMPARE(s2.tailGap, Q_INT64_C(60000));
        QCOMPARE(s2.bubbleCount, std::size_t(1));
        QCOMPARE(s2.kernelWaitSum, Q_INT64_C(10000));
        QCOMPARE(r.metrics[2].windowEnd, Q_INT64_C(2150000));
        QCOMPARE(r.metrics[2].tailGap, Q_INT64_C(10000));
        QCOMPARE(r.steps.kernelsBeforeFirst, std::size_t(1));
        QCOMPARE(ids(r),
                 (QStringList{QStringLiteral("pmu_all_zero"), QStringLiteral("kernels_before_first_step"),
                              QStringLiteral("first_step_compile"), QStringLiteral("crosscheck_mismatch")}));
        QCOMPARE(r.crossCheck.mismatches, std::size_t(1));
        const auto& mm = r.findings.back();
        QVERIFY(bs::english(mm.seen).find("Step 3") != std::string::npos);
        QVERIFY(bs::english(mm.seen).find("internal_bubble_total is 10.000 us") != std::string::npos);
        for (const auto& f : r.findings)
            if (f.id == "first_step_compile") QCOMPARE(f.docRef, std::string("collection-problems.md#compilation-inside-the-capture"));
    }
};

QTEST_APPLESS_MAIN(TstHealthCheck)
#include "tst_health_check.moc"
