// Acceptance: our per-step metrics equal the profiler's own step_trace_time.csv on every real rank
// (ANALYSIS.md §3.1): internal bubbles == Free, prelaunch == Preparing,
// busy union == Computing + Communication(Not Overlapped), each within 1 µs.
#include "pipeline/analysis_run.h"
#include "io/profile_loader.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QTextStream>

namespace {

// The profiler's figures, read here with Qt's own text handling (not the code under test).
QMap<QString, double> profilerRow(const QString& csvPath) {
    QFile f(csvPath);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QStringList head = lines.value(0).trimmed().split(QLatin1Char(','));
    const QStringList vals = lines.value(1).trimmed().split(QLatin1Char(','));
    QMap<QString, double> m;
    for (int i = 0; i < head.size() && i < vals.size(); ++i)
        m[head[i]] = vals[i].toDouble();
    return m;
}

} // namespace

class TstRealdataStepMetrics : public QObject {
    Q_OBJECT
  private slots:
    void stepMetricsMatchStepTraceTime_data() {
        QTest::addColumn<QString>("rank");
        for (const char* r : {"level0/rank0_ascend_pt", "level0/rank1_ascend_pt", "level1/rank0_ascend_pt",
                              "level1/rank1_ascend_pt"})
            QTest::newRow(r) << QString::fromLatin1(r);
    }
    void stepMetricsMatchStepTraceTime() {
        QVERIFY(bstest::requireRealdata());
        QFETCH(QString, rank);
        const QString dir = bstest::realdata(QStringLiteral("torch_npu_resnet_ddp/") + rank);
        const auto theirs = profilerRow(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"));
        QVERIFY(theirs.contains(QStringLiteral("Free")));
        QCOMPARE(theirs.value(QStringLiteral("Step")), 50.0);

        auto found = bs::discoverProfiles(bstest::s(dir));
        QCOMPARE(found.ranks.size(), std::size_t(1));
        auto loaded = bs::loadRank(found.ranks[0]);
        QVERIFY(loaded.hasAnyData);
        QCOMPARE(loaded.profile->inventory.kernelSource, bs::KernelSource::KernelDetails);
        auto r = bs::analyzeProfile(*loaded.profile);
        QCOMPARE(r.steps.source, bs::StepSource::ProfilerStep);
        QCOMPARE(r.metrics.size(), std::size_t(1));
        const auto& m = r.metrics[0];
        QCOMPARE(m.stepId, Q_INT64_C(50));
        QCOMPARE(m.kernelCount, std::size_t(191));
        const double freeUs = theirs.value(QStringLiteral("Free"));
        const double prepUs = theirs.value(QStringLiteral("Preparing"));
        const double busyUs = theirs.value(QStringLiteral("Computing")) +
                              theirs.value(QStringLiteral("Communication(Not Overlapped)"));
        QVERIFY2(std::abs(bs::nsToUs(m.internalBubbleTotal) - freeUs) <= 1.0,
                 qPrintable(QStringLiteral("internal %1 vs Free %2")
                                .arg(bs::nsToUs(m.internalBubbleTotal), 0, 'f', 3)
                                .arg(freeUs, 0, 'f', 3)));
        QVERIFY2(std::abs(bs::nsToUs(m.prelaunchGap) - prepUs) <= 1.0,
                 qPrintable(QStringLiteral("prelaunch %1 vs Preparing %2")
                                .arg(bs::nsToUs(m.prelaunchGap), 0, 'f', 3)
                                .arg(prepUs, 0, 'f', 3)));
        QVERIFY2(std::abs(bs::nsToUs(m.busyUnion) - busyUs) <= 1.0,
                 qPrintable(QStringLiteral("busy %1 vs %2")
                                .arg(bs::nsToUs(m.busyUnion), 0, 'f', 3)
                                .arg(busyUs, 0, 'f', 3)));
        // The identities of §3 hold between our own fields.
        QCOMPARE(m.service, m.busyUnion + m.underfeed);
        QCOMPARE(m.underfeed, m.prelaunchGap + m.internalBubbleTotal + m.tailGap);
        // And the cross-check agrees with itself: no mismatch reported.
        QCOMPARE(r.crossCheck.mismatches, std::size_t(0));
        QCOMPARE(r.crossCheck.rows.size(), std::size_t(1));
        QVERIFY(r.crossCheck.rows[0].matched);
    }
    // The trace-only path (a collection whose offline parse wrote only trace_view.json): the same folder
    // with every CSV hidden. Kernels come from the trace's device lanes, housekeeping tasks (event
    // record/wait, notify, write value, SDMA/PCIe copies, placeholders) and the HCCL plane tasks left out,
    // the HCCL group-lane collectives counted: the same 191 kernels, and the same figures within 1 µs.
    void traceOnlyMatchesStepTraceTime_data() { stepMetricsMatchStepTraceTime_data(); }
    void traceOnlyMatchesStepTraceTime() {
        QVERIFY(bstest::requireRealdata());
        QFETCH(QString, rank);
        const QString dir = bstest::realdata(QStringLiteral("torch_npu_resnet_ddp/") + rank);
        const auto theirs = profilerRow(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"));
        QVERIFY(theirs.contains(QStringLiteral("Free")));
        QTemporaryDir tmp;
        const QString out = tmp.filePath(QStringLiteral("only_ascend_pt/ASCEND_PROFILER_OUTPUT"));
        QVERIFY(QDir().mkpath(out));
        QVERIFY(QFile::copy(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"),
                            out + QStringLiteral("/trace_view.json")));
        bs::RankFolder rk{bstest::s(tmp.filePath(QStringLiteral("only_ascend_pt"))), bstest::s(out), "torch_npu",
                          "only"};
        auto loaded = bs::loadRank(rk);
        QVERIFY(loaded.hasAnyData);
        const auto& inv = loaded.profile->inventory;
        QCOMPARE(inv.kernelSource, bs::KernelSource::TraceDevice);
        auto r = bs::analyzeProfile(*loaded.profile);
        QCOMPARE(r.metrics.size(), std::size_t(1));
        const auto& m = r.metrics[0];
        QCOMPARE(m.kernelCount, std::size_t(191)); // = kernel_details.csv's rows
        const double freeUs = theirs.value(QStringLiteral("Free"));
        const double prepUs = theirs.value(QStringLiteral("Preparing"));
        const double busyUs = theirs.value(QStringLiteral("Computing")) +
                              theirs.value(QStringLiteral("Communication(Not Overlapped)"));
        QVERIFY2(std::abs(bs::nsToUs(m.internalBubbleTotal) - freeUs) <= 1.0,
                 qPrintable(QStringLiteral("internal %1 vs Free %2").arg(bs::nsToUs(m.internalBubbleTotal)).arg(freeUs)));
        QVERIFY2(std::abs(bs::nsToUs(m.prelaunchGap) - prepUs) <= 1.0,
                 qPrintable(QStringLiteral("prelaunch %1 vs Preparing %2").arg(bs::nsToUs(m.prelaunchGap)).arg(prepUs)));
        QVERIFY2(std::abs(bs::nsToUs(m.busyUnion) - busyUs) <= 1.0,
                 qPrintable(QStringLiteral("busy %1 vs %2").arg(bs::nsToUs(m.busyUnion)).arg(busyUs)));
        // The inventory says what was counted and what was left out.
        std::size_t hcclCollectives = 0, notifyWait = 0;
        for (const auto& [type, n] : inv.traceTaskTypesCounted)
            if (type == "HCCL (group lane collectives)") hcclCollectives = n;
        for (const auto& [type, n] : inv.traceTaskTypesSkipped)
            if (type == "Notify Wait") notifyWait = n;
        QCOMPARE(hcclCollectives, std::size_t(4)); // kernel_details.csv: 4 rows with Accelerator Core HCCL
        QVERIFY(notifyWait > 0);
    }
};

QTEST_APPLESS_MAIN(TstRealdataStepMetrics)
#include "tst_realdata_step_metrics.moc"
