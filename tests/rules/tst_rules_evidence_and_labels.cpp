// Rule table for ANALYSIS.md §4 (bubble windows, host evidence) and §5 (soft attribution), on hand-built
// profiles. Times in the comments are µs after the fixture's origin.
#include "analysis/bubble_windows.h"
#include "analysis/host_evidence.h"
#include "analysis/soft_attribution.h"
#include "io/profile_loader.h"
#include "report/json_export.h"
#include "rules_fixture.h"
#include "test_support.h"

#include <nlohmann/json.hpp>

using rules::at;
using rules::Fixture;
using rules::us;

namespace {

// The labels §5 gives a window that is not at the capture edge, from its ratios alone.
std::vector<std::string> labelsFor(double coverage, double sync, double comm, double parallelism) {
    bs::BubbleWindow w;
    w.evidence.hostTraceExists = true;
    w.evidence.coverage = coverage;
    w.evidence.syncRatio = sync;
    w.evidence.commRatio = comm;
    if (parallelism >= 0) w.evidence.parallelism = parallelism;
    bs::attributeWindow(w, bs::Rulebook{});
    if (w.labelEvidence.size() != w.labels.size()) return {"<labels without evidence>"};
    return w.labels;
}

} // namespace

class TstRulesEvidenceAndLabels : public QObject {
    Q_OBJECT
  private slots:
    // ---- §4 host evidence ----
    void coverageIsTheUnionOfHostEventsClippedToTheWindow() {
        // Step [0, 10000), window W = [1000, 2000).
        // Thread 1: e1 [900, 1300) → 300 inside, e3 [1800, 2100) → 200 inside.
        // Thread 2: e2 [1200, 1500) → 300 inside, overlapping e1 by 100.
        // Union inside W: [1000, 1500) + [1800, 2000) = 700 → coverage 0.7.
        // Parallelism: (thread 1: 500 + thread 2: 300) / 700 = 8/7.
        Fixture f;
        f.step(1, 0, 10000).k("a", 0, 1000).k("b", 2000, 8000);
        f.host("e1", 900, 400, 1).host("e2", 1200, 300, 2).host("e3", 1800, 300, 1);
        const auto set = bs::detectSteps(f.done());
        const bs::HostIndex host(f.p, set);
        const auto ev = host.evidence({at(1000), at(2000)});
        QVERIFY(ev.hostTraceExists);
        QCOMPARE(ev.coverage, 0.7);
        QVERIFY(ev.parallelism.has_value());
        QCOMPARE(*ev.parallelism, 8.0 / 7.0);
        QCOMPARE(ev.syncRatio, 0.0);
        QCOMPARE(ev.commRatio, 0.0);
        // Top 3 by overlap: e1 300 and e2 300 (tie: the shorter e2 first), then e3 200.
        QCOMPARE(ev.topEvents.size(), std::size_t(3));
        QCOMPARE(ev.topEvents[0].name, std::string("e2"));
        QCOMPARE(ev.topEvents[0].overlap, us(300));
        QCOMPARE(ev.topEvents[1].name, std::string("e1"));
        QCOMPARE(ev.topEvents[2].name, std::string("e3"));
        QCOMPARE(ev.topEvents[2].overlap, us(200));
    }
    void parallelismIsUndefinedWhenNothingCoversTheWindow() {
        Fixture f;
        f.step(1, 0, 10000).k("a", 0, 1000).k("b", 2000, 8000).host("far", 5000, 100);
        const auto set = bs::detectSteps(f.done());
        const auto ev = bs::HostIndex(f.p, set).evidence({at(1000), at(2000)});
        QVERIFY(ev.hostTraceExists);
        QCOMPARE(ev.coverage, 0.0);
        QVERIFY(!ev.parallelism.has_value());
    }
    void syncMarkersAreExactlyTheListedNames_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("sync");
        for (const char* n : {"aten::to", "aten::_to_copy", "aten::copy_", "HostToDevice", "HostToDevice_42",
                              "torch_to_npu", "aclrtMemcpyAsync", "aclrtSynchronizeStream",
                              "StreamSynchronize", "aten::item", "aten::_local_scalar_dense"})
            QTest::newRow(n) << QString::fromLatin1(n) << true;
        for (const char* n :
             {"aten::top", "aten::to_dense", "aten::copy", "aten::add", "Memcpy", "aten::items"})
            QTest::newRow(n) << QString::fromLatin1(n) << false;
    }
    void syncMarkersAreExactlyTheListedNames() {
        QFETCH(QString, name);
        QFETCH(bool, sync);
        QCOMPARE(bs::HostIndex::isSyncMarker(name.toStdString()), sync);
    }
    void communicationMarkersAreExactlyTheListedNames_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("comm");
        for (const char* n : {"c10d::allreduce_", "HcclAllReduce", "aclnnHcclBroadcast", "hcom_allReduce_",
                              "StreamWaitEvent", "Notify_Wait", "Notify Wait"})
            QTest::newRow(n) << QString::fromLatin1(n) << true;
        for (const char* n : {"aten::add", "StreamWait", "NotifyRecord", "Notify_Record", "d10c"})
            QTest::newRow(n) << QString::fromLatin1(n) << false;
    }
    void communicationMarkersAreExactlyTheListedNames() {
        QFETCH(QString, name);
        QFETCH(bool, comm);
        QCOMPARE(bs::HostIndex::isCommMarker(name.toStdString()), comm);
    }
    void syncAndCommRatiosUseOnlyTheirMarkers() {
        // W = [1000, 2000): aten::to [1000, 1250) → sync 0.25; c10d::allreduce_ [1500, 1800) → comm 0.3;
        // aten::add [1250, 1500) is neither. Coverage (1000 − 200 uncovered) / 1000 = 0.8.
        Fixture f;
        f.step(1, 0, 10000).k("a", 0, 1000).k("b", 2000, 8000);
        f.host("aten::to", 1000, 250).host("aten::add", 1250, 250).host("c10d::allreduce_", 1500, 300);
        const auto set = bs::detectSteps(f.done());
        const auto ev = bs::HostIndex(f.p, set).evidence({at(1000), at(2000)});
        QCOMPARE(ev.syncRatio, 0.25);
        QCOMPARE(ev.commRatio, 0.3);
        QCOMPARE(ev.coverage, 0.8);
    }
    void hcclLaneEventsAreCommunicationMarkers() {
        // An HCCL lane event [1200, 1600) covers 400 of W = [1000, 2000): comm ratio 0.4. It is no host
        // event, so it adds nothing to the coverage.
        Fixture f;
        f.step(1, 0, 10000).k("a", 0, 1000).k("b", 2000, 8000).hcclLane("hcom_allReduce__1", 1200, 400);
        const auto set = bs::detectSteps(f.done());
        const auto ev = bs::HostIndex(f.p, set).evidence({at(1000), at(2000)});
        QCOMPARE(ev.commRatio, 0.4);
        QCOMPARE(ev.coverage, 0.0);
    }
    void framesEnclosingTheWholeStepAndStepMarkersAreNotEvidence() {
        // `train` [-100, 10500) encloses the whole step [0, 10000) and the marker is the step itself:
        // neither counts. Inside the step, `forward` [500, 9500) and `aten::add` [1000, 1500) count:
        // W = [1000, 2000) is covered by forward only → 1.0; W2 = [9600, 9800) → 0, not 1.0.
        Fixture f;
        f.step(1, 0, 10000).k("a", 0, 1000).k("b", 2000, 7600).k("c", 9800, 200);
        f.host("main.py(375): train", -100, 10600, 1)
            .host("forward", 500, 9000, 1)
            .host("aten::add", 1000, 500, 2);
        const auto set = bs::detectSteps(f.done());
        const bs::HostIndex host(f.p, set);
        QCOMPARE(host.evidence({at(1000), at(2000)}).coverage, 1.0);
        QCOMPARE(host.evidence({at(9600), at(9800)}).coverage, 0.0);
        QCOMPARE(host.eventsUsed(), std::size_t(2)); // forward and aten::add
    }
    void theRealLevel1Rank0PrelaunchCoverageLeavesOutTheEnclosingFrames() {
        // ResNet L1 rank 0: b0001 is step 50's prelaunch [1736408883686740.710, 1736408883704643.212) µs.
        // Recomputed independently from trace_view.json (X events of the Python and CANN processes clipped
        // to the window, ProfilerStep#50 and the 8 frames that enclose the whole step left out, union
        // taken in exact decimals): coverage 0.7859249. Counting the enclosing frames would give 1.0.
        QVERIFY(bstest::requireRealdata());
        auto found = bs::discoverProfiles(
            bstest::s(bstest::realdata(QStringLiteral("torch_npu_resnet_ddp/level1/rank0_ascend_pt"))));
        QCOMPARE(found.ranks.size(), std::size_t(1));
        auto loaded = bs::loadRank(found.ranks[0]);
        const auto set = bs::detectSteps(*loaded.profile);
        const auto ev = bs::HostIndex(*loaded.profile, set)
                            .evidence({Q_INT64_C(1736408883686740710), Q_INT64_C(1736408883704643212)});
        QVERIFY2(std::abs(ev.coverage - 0.7859249) < 1e-6, qPrintable(QString::number(ev.coverage, 'f', 9)));
    }
    void withoutAnyHostTraceTheRatiosAreNull() {
        Fixture f;
        rules::KernelSpec a{"a", 0, 100, "AI_CORE", 2, 0, "", 1}, b{"b", 500, 100, "AI_CORE", 2, 0, "", 1};
        f.kernel(a).kernel(b);
        const auto set = bs::detectSteps(f.done());
        const auto ev = bs::HostIndex(f.p, set).evidence({at(100), at(500)});
        QVERIFY(!ev.hostTraceExists);
    }

    // ---- §4 windows ----
    void windowsAreSignificantFromFiftyMicrosecondsSortedWithIdsAndScopes() {
        // Step [0, 2000): prelaunch [0, 100) = 100; gaps [200, 249.999) = 49.999 (not significant),
        // [300, 350) = 50 (significant), [400, 700) = 300; tail [1900, 2000) = 100.
        // A kernel before the step leaves a global gap [-600, 0) = 600 outside every step window.
        Fixture f;
        f.k("early", -700, 100).step(1, 0, 2000);
        f.k("a", 100, 100).k("b", 249.999, 50.001).k("c", 350, 50).k("d", 700, 1200);
        const auto set = bs::detectSteps(f.done());
        const auto metrics = bs::computeStepMetrics(f.p, set);
        const bs::HostIndex host(f.p, set);
        const auto ws = bs::findBubbleWindows(f.p, set, metrics, host, bs::Rulebook{}, {at(-700), at(2000)});
        // By duration: global 600, internal 300, prelaunch 100 (earlier of the two 100s), tail 100,
        // internal 50.
        QCOMPARE(ws.size(), std::size_t(5));
        const bs::WindowScope order[] = {bs::WindowScope::Global, bs::WindowScope::StepInternal,
                                         bs::WindowScope::Prelaunch, bs::WindowScope::Tail,
                                         bs::WindowScope::StepInternal};
        const double lens[] = {600, 300, 100, 100, 50};
        for (std::size_t i = 0; i < ws.size(); ++i) {
            QCOMPARE(ws[i].id, "b000" + std::to_string(i + 1));
            QCOMPARE(ws[i].scope, order[i]);
            QCOMPARE(ws[i].span.length(), us(lens[i]));
        }
        QCOMPARE(ws[0].stepId, std::string("global"));
        QCOMPARE(ws[1].stepId, std::string("1"));
        // Neighbours of [400, 700): before, kernels by latest end ≤ 400 (c, b, a); after, d.
        QCOMPARE(ws[1].before.size(), std::size_t(3));
        QCOMPARE(ws[1].before[0].name, std::string("c"));
        QCOMPARE(ws[1].before[2].name, std::string("a"));
        QCOMPARE(ws[1].after.size(), std::size_t(1));
        QCOMPARE(ws[1].after[0].name, std::string("d"));
        QCOMPARE(ws[1].after[0].start, at(700));
    }

    void theJsonListsAtMostTwoHundredWindows() {
        // 202 kernels of 100 µs with 60 µs between them: 201 significant windows; the JSON keeps the
        // 200 longest (all equal: the first 200 by start), b0001 … b0200.
        Fixture f;
        f.step(1, 0, 202 * 160.0 - 60);
        for (int i = 0; i < 202; ++i)
            f.k("K", i * 160.0, 100);
        const auto r = bs::analyzeProfile(f.done());
        QCOMPARE(r.anomaly.windows.size(), std::size_t(201));
        const auto doc = nlohmann::json::parse(bs::renderJson(f.p, r));
        const auto& list = doc.at("bubble_windows");
        QCOMPARE(list.size(), std::size_t(200));
        QCOMPARE(list.back().at("bubble_id").get<std::string>(), std::string("b0200"));
    }

    // ---- §5 soft attribution ----
    void softLabelsFollowTheSixRulesInOrder_data() {
        QTest::addColumn<double>("coverage");
        QTest::addColumn<double>("sync");
        QTest::addColumn<double>("comm");
        QTest::addColumn<double>("parallelism"); // < 0: undefined
        QTest::addColumn<QString>("labels");
        const QString lag = QStringLiteral("possible_host_launch_lag");
        const QString none = QStringLiteral("insufficient_evidence");
        // Rule 1: sync ≥ 0.20.
        QTest::newRow("sync 0.1999 is below 0.20") << 0.5 << 0.1999 << 0.0 << 1.5 << lag;
        QTest::newRow("sync 0.20 labels")
            << 0.5 << 0.20 << 0.0 << 1.5 << QStringLiteral("possible_sync_or_h2d");
        QTest::newRow("sync 0.25 labels")
            << 0.5 << 0.25 << 0.0 << 1.5 << QStringLiteral("possible_sync_or_h2d");
        // Rule 2: comm ≥ 0.20; labels co-exist, in rule order.
        QTest::newRow("comm 0.1999 is below 0.20") << 0.5 << 0.0 << 0.1999 << 1.5 << lag;
        QTest::newRow("comm 0.20 labels")
            << 0.5 << 0.0 << 0.20 << 1.5 << QStringLiteral("possible_comm_wait");
        QTest::newRow("sync and comm co-exist")
            << 0.6 << 0.3 << 0.3 << 1.5 << QStringLiteral("possible_sync_or_h2d,possible_comm_wait");
        // Rule 3: coverage < 0.05.
        QTest::newRow("coverage 0.0499 is untraced")
            << 0.0499 << 0.0 << 0.0 << 1.5 << QStringLiteral("possible_untraced_host_blocking");
        QTest::newRow("coverage 0 is untraced")
            << 0.0 << 0.0 << 0.0 << -1.0 << QStringLiteral("possible_untraced_host_blocking");
        QTest::newRow("coverage 0.05 is not untraced") << 0.05 << 0.0 << 0.0 << 1.5 << none;
        QTest::newRow("coverage 0.07 is not untraced") << 0.07 << 0.0 << 0.0 << 1.5 << none;
        // Rule 4: none yet and coverage ≥ 0.10.
        QTest::newRow("coverage 0.0999 is no launch lag") << 0.0999 << 0.0 << 0.0 << 1.5 << none;
        QTest::newRow("coverage 0.10 is launch lag") << 0.10 << 0.0 << 0.0 << 1.5 << lag;
        QTest::newRow("launch lag only when no label yet")
            << 0.9 << 0.25 << 0.0 << 1.5 << QStringLiteral("possible_sync_or_h2d");
        // Rule 5: none yet and parallelism < 1.2.
        QTest::newRow("parallelism 1.1999 is serialization")
            << 0.07 << 0.0 << 0.0 << 1.1999 << QStringLiteral("possible_python_serialization_or_lock");
        QTest::newRow("parallelism 1.2 is not serialization") << 0.07 << 0.0 << 0.0 << 1.2 << none;
        QTest::newRow("serialization only when no label yet") << 0.5 << 0.0 << 0.0 << 1.0 << lag;
        QTest::newRow("untraced wins over serialization")
            << 0.04 << 0.0 << 0.0 << 1.0 << QStringLiteral("possible_untraced_host_blocking");
    }
    void softLabelsFollowTheSixRulesInOrder() {
        QFETCH(double, coverage);
        QFETCH(double, sync);
        QFETCH(double, comm);
        QFETCH(double, parallelism);
        QFETCH(QString, labels);
        QCOMPARE(QString::fromStdString(rules::joined(labelsFor(coverage, sync, comm, parallelism))), labels);
    }
    void withoutAHostTraceAWindowIsInsufficientEvidenceAndUntraced() {
        bs::BubbleWindow w;
        bs::attributeWindow(w, bs::Rulebook{});
        QCOMPARE(rules::joined(w.labels),
                 std::string("insufficient_evidence,possible_untraced_host_blocking"));
    }
    void labelsComeFromRealHostEventsEndToEnd() {
        // Step [0, 10000) with internal gaps [2000, 3000) (aten::to over 300 → sync 0.3), [5000, 6000)
        // (aten::add over 600 → launch lag), [8000, 9000) (nothing → untraced). Kernels fill the rest.
        Fixture f;
        f.step(1, 0, 10000).k("a", 0, 2000).k("b", 3000, 2000).k("c", 6000, 2000).k("d", 9000, 1000);
        f.host("aten::to", 2100, 300).host("aten::add", 5200, 600);
        auto r = bs::analyzeProfile(f.done());
        const auto& ws = r.anomaly.windows;
        QCOMPARE(ws.size(), std::size_t(3)); // three 1000 µs windows, by start
        QCOMPARE(rules::joined(ws[0].labels), std::string("possible_sync_or_h2d"));
        QCOMPARE(ws[0].evidence.syncRatio, 0.3);
        QCOMPARE(rules::joined(ws[1].labels), std::string("possible_host_launch_lag"));
        QCOMPARE(ws[1].evidence.coverage, 0.6);
        QCOMPARE(rules::joined(ws[2].labels), std::string("possible_untraced_host_blocking"));
    }
};

QTEST_APPLESS_MAIN(TstRulesEvidenceAndLabels)
#include "tst_rules_evidence_and_labels.moc"
