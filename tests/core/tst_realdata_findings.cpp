// Acceptance: every file under ../shared/realdata loads, and the only findings are ones a
// performance engineer agrees with (listed here with the reason).
#include "pipeline/analysis_run.h"
#include "io/csv_reader.h"
#include "io/file_buffer.h"
#include "io/profile_loader.h"
#include "io/side_file_readers.h"
#include "test_support.h"

#include <QDirIterator>

#include <set>

class TstRealdataFindings : public QObject {
    Q_OBJECT
  private slots:
    void everyRankLoadsWithExactlyTheExpectedFindings_data() {
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("source");
        QTest::addColumn<QStringList>("findings");
        // Level0: no Stream ID / shapes / PMU (collection-problems.md, "Level0 kernel table"); 8-card DDP without communication.json,
        // which torch_npu only writes at Level1 (problem 5, a note).
        const QStringList l0 = {QStringLiteral("level0_kernel_details"),
                                QStringLiteral("no_communication_json")};
        QTest::newRow("l0r0") << "torch_npu_resnet_ddp/level0/rank0_ascend_pt"
                              << "kernel_details.csv" << l0;
        QTest::newRow("l0r1") << "torch_npu_resnet_ddp/level0/rank1_ascend_pt"
                              << "kernel_details.csv" << l0;
        // Level1 with communication.json: a complete collection, nothing to say.
        QTest::newRow("l1r0") << "torch_npu_resnet_ddp/level1/rank0_ascend_pt"
                              << "kernel_details.csv" << QStringList();
        QTest::newRow("l1r1") << "torch_npu_resnet_ddp/level1/rank1_ascend_pt"
                              << "kernel_details.csv" << QStringList();
        // msprof without step markers: one pseudo-step.
        QTest::newRow("msprof") << "msprof_vllm_ascend/PROF_000001_20260823165326062_00625538CIGQAHCJ"
                                << "op_summary.csv" << QStringList{QStringLiteral("no_step_markers")};
        // Loose legacy files: kernel tables without a timeline, and a timeline without a kernel table.
        QTest::newRow("legacy-advisor") << "torch_npu_legacy_2024/advisor_backend_compute_advice"
                                        << "kernel_details.csv" << QStringList{QStringLiteral("no_trace")};
        // This real-derived test file repeats one MatMulV5 row four times (start 1736413974248200.543) and
        // has two FlashAttentionScore rows with the same start and different durations on stream 2.
        QTest::newRow("legacy-compute")
            << "torch_npu_legacy_2024/compute_advice_data"
            << "kernel_details.csv"
            << QStringList{QStringLiteral("duplicate_kernel_rows"), QStringLiteral("stream_overlap"),
                           QStringLiteral("no_trace")};
        QTest::newRow("legacy-timeline")
            << "torch_npu_legacy_2024/timeline_advice"
            << "trace device events" << QStringList{QStringLiteral("kernel_source_trace")};
    }
    void everyRankLoadsWithExactlyTheExpectedFindings() {
        QVERIFY(bstest::requireRealdata());
        QFETCH(QString, label);
        QFETCH(QString, source);
        QFETCH(QStringList, findings);
        auto found = bs::discoverProfiles(bstest::s(bstest::realdata(label)));
        QCOMPARE(found.ranks.size(), std::size_t(1));
        auto loaded = bs::loadRank(found.ranks[0]);
        QVERIFY(loaded.hasAnyData);
        QVERIFY(!loaded.profile->kernels.empty());
        QCOMPARE(QString::fromLatin1(bs::kernelSourceName(loaded.profile->inventory.kernelSource)), source);
        auto r = bs::analyzeProfile(*loaded.profile);
        QStringList ids;
        for (const auto& f : r.findings)
            ids << QString::fromStdString(f.id);
        QCOMPARE(ids, findings);
        for (const auto& m : r.metrics) {
            QVERIFY(m.busyUnion > 0);
            QVERIFY(m.busyUnion <= m.service);
        }
    }
    void everyRankOfTheTextSetsLoads() {
        QVERIFY(bstest::requireRealdata());
        // The text-export sets this test is about: 4 resnet ranks, 1 msprof folder, 3 legacy folders.
        std::size_t n = 0;
        for (const char* set : {"torch_npu_resnet_ddp", "msprof_vllm_ascend", "torch_npu_legacy_2024"}) {
            auto found = bs::discoverProfiles(bstest::s(bstest::realdata(QString::fromLatin1(set))));
            n += found.ranks.size();
            for (const auto& rank : found.ranks)
                QVERIFY2(bs::loadRank(rank).hasAnyData, rank.label.c_str());
        }
        QCOMPARE(n, std::size_t(8));
    }
    void everyCsvUnderRealdataParsesWithConsistentFieldCounts() {
        QVERIFY(bstest::requireRealdata());
        int files = 0;
        // The CSV files of the text-export sets (the DB set has none; other sets may be added).
        for (const char* set : {"torch_npu_resnet_ddp", "msprof_vllm_ascend", "torch_npu_legacy_2024"}) {
        QDirIterator it(bstest::realdata(QString::fromLatin1(set)), {QStringLiteral("*.csv")}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString p = it.next();
            bs::FileBuffer fb = bs::readWholeFile(bstest::s(p));
            QVERIFY(fb.error.empty());
            bs::CsvReader csv(fb.view());
            std::vector<std::string_view> f;
            QVERIFY(csv.next(f));
            const std::size_t n = f.size();
            std::size_t rows = 0;
            while (csv.next(f)) {
                ++rows;
                QVERIFY2(f.size() == n, qPrintable(QStringLiteral("%1 line %2").arg(p).arg(csv.line())));
            }
            QVERIFY(rows > 0);
            ++files;
        }
        }
        QCOMPARE(files, 39);
    }
    void clusterStepTraceAndCommunicationFilesAreRead() {
        QVERIFY(bstest::requireRealdata());
        bs::Profile prof;
        bs::FindingSink sink;
        QVERIFY(bs::readStepTraceTime(
            bstest::s(bstest::realdata(
                QStringLiteral("torch_npu_legacy_2024/cluster_analysis_output/cluster_step_trace_time.csv"))),
            prof, sink));
        QCOMPARE(prof.stepTrace.size(), std::size_t(9));
        QCOMPARE(prof.stepTrace[0].values.at("Free"), 990605.1042031233);
        QVERIFY(sink.findings().empty());
        for (const char* rel :
             {"torch_npu_resnet_ddp/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json",
              "torch_npu_resnet_ddp/level1/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json"}) {
            bs::Profile p2;
            QVERIFY(
                bs::readCommunicationJson(bstest::s(bstest::realdata(QString::fromLatin1(rel))), p2, sink));
            QVERIFY(!p2.commOps.empty());
            QVERIFY(p2.commOps[0].elapse > 0);
        }
        // The first collective of rank 0, from the file: start 1736408883732241.5 µs, elapse 79.08952021875
        // ms.
        bs::Profile p3;
        bs::readCommunicationJson(
            bstest::s(bstest::realdata(QStringLiteral(
                "torch_npu_resnet_ddp/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json"))),
            p3, sink);
        bool seen = false;
        for (const auto& c : p3.commOps)
            if (c.name == "hcom_allReduce__586_0_1@17522688603477080586") {
                seen = true;
                QCOMPARE(c.start, Q_INT64_C(1736408883732241500));
                QCOMPARE(c.elapse, Q_INT64_C(79089520));
                QCOMPARE(c.step, std::string("step50"));
            }
        QVERIFY(seen);
    }
};

QTEST_APPLESS_MAIN(TstRealdataFindings)
#include "tst_realdata_findings.moc"
