// Rule table for the rules that ANALYSIS.md §6's rewrite changed (and COMM_WAIT_HEAVY of §1), written
// against the new text: the capture-boundary rule (which prelaunch / tail / global windows may get host
// labels, when PARTIAL_CAPTURE_BOUNDARY is raised), the hidden-issue verdict on PRELAUNCH / TAIL /
// INTERNAL heavy steps, WAIT_POLLUTION_RISK (wait_avg ≥ wait_pollution_min_us = 20 µs and ≥ 50 % of the
// calls), and COMM_WAIT_HEAVY (Wait / (Wait + Transit) > 0.2). Only stable interfaces are used (the
// analysis result, the JSON, the rule table), so this file builds before and after that change.
// Times in the comments are µs after the fixture's origin.
#include "i18n/message.h"
#include "report/json_export.h"
#include "rules_fixture.h"
#include "test_support.h"

#include <nlohmann/json.hpp>

using rules::at;
using rules::Fixture;
using rules::us;

namespace {

const bs::BubbleWindow* windowAt(const bs::AnalysisResult& r, double startUs) {
    for (const auto& w : r.anomaly.windows)
        if (w.span.a == at(startUs)) return &w;
    return nullptr;
}

const bs::OpStats* op(const bs::AnalysisResult& r, const std::string& name) {
    for (const auto& o : r.anomaly.ops)
        if (o.name == name) return &o;
    return nullptr;
}

} // namespace

class TstRulesSection6 : public QObject {
    Q_OBJECT
  private slots:
    // ---- capture-boundary gaps ----
    void aFirstPrelaunchInsideTheHostTraceIsAnOrdinaryWindow() {
        // Host trace from -100; marker ProfilerStep#1 [0, 10000); first kernel at 2000. The prelaunch
        // [0, 2000) is covered by aten::to [-100, 800) → sync 800 / 2000 = 0.4: possible_sync_or_h2d (the
        // Level2 rank 0 case). No kernel before the marker: not a capture-boundary gap, and as the largest
        // window it does not raise PARTIAL_CAPTURE_BOUNDARY.
        Fixture f;
        f.host("aten::to", -100, 900).step(1, 0, 10000).k("a", 2000, 3000).k("b", 5500, 4500);
        const auto r = bs::analyzeProfile(f.done());
        const auto* w = windowAt(r, 0);
        QVERIFY(w);
        QCOMPARE(w->scope, bs::WindowScope::Prelaunch);
        QCOMPARE(r.anomaly.windows.front().span.a, at(0)); // the largest window
        QCOMPARE(w->evidence.syncRatio, 0.4);
        QVERIFY(!w->boundary);
        QCOMPARE(rules::joined(w->labels), std::string("possible_sync_or_h2d"));
        QVERIFY(!rules::hasTag(r.anomaly.globalTags, "PARTIAL_CAPTURE_BOUNDARY"));
    }
    void aLastTailInsideTheHostTraceIsAnOrdinaryWindow() {
        // Marker [0, 10000), kernels end at 7000: tail [7000, 10000) covered by aten::item [7000, 8200)
        // → sync 0.4; the host trace goes on to 10100 (aten::add [9900, 10100)).
        Fixture f;
        f.step(1, 0, 10000).k("a", 0, 3000).k("b", 3000, 4000);
        f.host("aten::item", 7000, 1200).host("aten::add", 9900, 200);
        const auto r = bs::analyzeProfile(f.done());
        const auto* w = windowAt(r, 7000);
        QVERIFY(w);
        QCOMPARE(w->scope, bs::WindowScope::Tail);
        QVERIFY(!w->boundary);
        QVERIFY(rules::hasTag(w->labels, "possible_sync_or_h2d"));
        QVERIFY(!rules::hasTag(w->labels, "insufficient_evidence"));
        QVERIFY(!rules::hasTag(r.anomaly.globalTags, "PARTIAL_CAPTURE_BOUNDARY"));
    }
    void aFirstPrelaunchAfterKernelsBeforeTheMarkerIsACaptureBoundaryGap() {
        // A kernel [-500, -400) before the marker: the first prelaunch [0, 2000) is a capture-boundary gap
        // (insufficient_evidence only, though aten::to covers 40 % of it), and so is the global gap
        // [-400, 0) before the first marker (covered by aten::add). PARTIAL_CAPTURE_BOUNDARY is raised.
        Fixture f;
        f.k("early", -500, 100).host("aten::add", -400, 300).host("aten::to", -100, 900);
        f.step(1, 0, 10000).k("a", 2000, 3000).k("b", 5500, 4500);
        const auto r = bs::analyzeProfile(f.done());
        const auto* pre = windowAt(r, 0);
        const auto* global = windowAt(r, -400);
        QVERIFY(pre && global);
        QCOMPARE(global->scope, bs::WindowScope::Global);
        QVERIFY(pre->boundary);
        QVERIFY(global->boundary);
        QCOMPARE(rules::joined(pre->labels), std::string("insufficient_evidence"));
        QCOMPARE(rules::joined(global->labels), std::string("insufficient_evidence"));
        QVERIFY(rules::hasTag(r.anomaly.globalTags, "PARTIAL_CAPTURE_BOUNDARY"));
    }
    void aGlobalGapBeforeTheFirstMarkerIsACaptureBoundaryGapAndTheLargest() {
        // Kernels [-3000, -2900) and the step's [0, …): the global gap [-2900, 0) = 2.9 ms is the largest
        // window, a capture-boundary gap: insufficient_evidence only, even under host events.
        Fixture f;
        f.k("early", -3000, 100).host("aten::add", -2900, 2800).step(1, 0, 1000).k("a", 0, 1000);
        const auto r = bs::analyzeProfile(f.done());
        QVERIFY(!r.anomaly.windows.empty());
        const auto& w = r.anomaly.windows.front();
        QCOMPARE(w.span.a, at(-2900));
        QVERIFY(w.boundary);
        QCOMPARE(rules::joined(w.labels), std::string("insufficient_evidence"));
        QVERIFY(rules::hasTag(r.anomaly.globalTags, "PARTIAL_CAPTURE_BOUNDARY"));
    }

    // ---- hidden-issue verdict: underfeed ≥ 0.30 or any PRELAUNCH / TAIL / INTERNAL heavy step ----
    void aHeavyPrelaunchAloneMakesTheVerdictTrue() {
        // One 5 ms step, prelaunch 1 ms (= X), ratio 0.2. Host trace from -100 so the prelaunch is ordinary.
        Fixture f;
        f.host("aten::add", -100, 50);
        rules::oneStep(f, 5000, 1000, {}, 0);
        const auto r = bs::analyzeProfile(f.done());
        QVERIFY(rules::hasTag(r.anomaly.stepTags[0].tags, "PRELAUNCH_GAP_HEAVY"));
        QVERIFY(r.anomaly.hiddenIssuePresent);
        QCOMPARE(r.anomaly.severity, std::string("medium"));
    }
    void aHeavyTailAloneMakesTheVerdictTrue() {
        Fixture f;
        rules::oneStep(f, 5000, 0, {}, 1000);
        f.host("aten::add", 5100, 50);
        const auto r = bs::analyzeProfile(f.done());
        QVERIFY(rules::hasTag(r.anomaly.stepTags[0].tags, "TAIL_GAP_HEAVY"));
        QVERIFY(r.anomaly.hiddenIssuePresent);
    }
    void aStepHeavyByItsOwnServiceMakesTheVerdictTrue() {
        // One template, services 20 ms and 5 ms: the 5 ms step's 1.2 ms gap is heavy for that step
        // (X = 1 ms), though it is below X of the group's average service (0.1 × 12.5 = 1.25 ms).
        // Underfeed 0 and 0.24: average 0.12.
        Fixture f;
        f.step(1, 0, 20000).k("A", 0, 10000).k("B", 10000, 10000);
        f.step(2, 20000, 5000).k("A", 20000, 1900).k("B", 23100, 1900);
        const auto r = bs::analyzeProfile(f.done());
        QCOMPARE(r.anomaly.groups.size(), std::size_t(1));
        QVERIFY(rules::hasTag(r.anomaly.stepTags[1].tags, "INTERNAL_BUBBLE_HEAVY"));
        QVERIFY(r.anomaly.hiddenIssuePresent);
    }

    // ---- WAIT_POLLUTION_RISK: wait_avg ≥ 20 µs and ≥ 50 % of calls overlapping communication ----
    void thePollutionAndCommWaitThresholdsAreRules() {
        double pollution = -1, commWait = -1;
        for (const auto& [name, v] : bs::Rulebook{}.entries()) {
            if (name == "wait_pollution_min_us") pollution = v;
            if (name == "comm_wait_heavy_ratio") commWait = v;
        }
        QCOMPARE(pollution, 20.0);
        QCOMPARE(commWait, 0.2);
    }
    void waitPollutionNeedsTwentyMicrosecondsAndHalfTheCalls_data() {
        QTest::addColumn<double>("wait");     // µs, every call
        QTest::addColumn<int>("overlapping"); // calls (of 4) whose wait span overlaps the collective
        QTest::addColumn<bool>("polluted");
        QTest::newRow("1.5 us launch waits next to a collective") << 1.5 << 4 << false;
        QTest::newRow("wait 19.9 us, every call") << 19.9 << 4 << false;
        QTest::newRow("wait 20 us, every call") << 20.0 << 4 << true;
        QTest::newRow("wait 100 us, 1 of 4 calls") << 100.0 << 1 << false;
        QTest::newRow("wait 100 us, 2 of 4 calls (50 %)") << 100.0 << 2 << true;
    }
    void waitPollutionNeedsTwentyMicrosecondsAndHalfTheCalls() {
        QFETCH(double, wait);
        QFETCH(int, overlapping);
        QFETCH(bool, polluted);
        // Step [0, 10000). Four HCCL kernels [i·2000, i·2000 + 500); op Cast starts right after the
        // first `overlapping` of them (its wait span reaches back into the collective) and, for the
        // others, 1000 µs after (the span [start - wait, start) misses every collective). MatMul fills in.
        Fixture f;
        f.step(1, 0, 10000);
        for (int i = 0; i < 4; ++i) {
            const double c = i * 2000.0;
            f.k("hcom_allReduce__" + std::to_string(i), c, 500, "HCCL", 5);
            const double start = c + (i < overlapping ? 500.0 : 1500.0);
            f.k("Cast", start, 100, "AI_VECTOR_CORE", 2, wait);
            f.k("MatMul", start + 100, 300);
        }
        const auto r = bs::analyzeProfile(f.done());
        const auto* cast = op(r, "Cast");
        QVERIFY(cast);
        QCOMPARE(cast->waitAvgUs, wait);
        QCOMPARE(cast->waitPollution, polluted);
        QCOMPARE(rules::hasTag(r.anomaly.globalTags, "WAIT_POLLUTION_RISK"), polluted);
        QCOMPARE(rules::hasTag(r.anomaly.globalTags, "COMM_SYNC_RISK"), polluted); // no window has comm
    }

    // ---- COMM_WAIT_HEAVY (§1): a collective whose Wait / (Wait + Transit) > 0.2 ----
    void commWaitHeavyNeedsAWaitRatioAboveTwentyPercent_data() {
        QTest::addColumn<double>("wait"); // µs, of Wait + Transit = 100 µs
        QTest::addColumn<bool>("heavy");
        QTest::newRow("wait ratio 0.30") << 30.0 << true;
        QTest::newRow("wait ratio 0.21") << 21.0 << true;
        QTest::newRow("wait ratio 0.20 is not above 0.2") << 20.0 << false;
    }
    void commWaitHeavyNeedsAWaitRatioAboveTwentyPercent() {
        QFETCH(double, wait);
        QFETCH(bool, heavy);
        Fixture f;
        f.step(1, 0, 1000)
            .k("MatMul", 0, 400)
            .k("hcom_allReduce__1_0_1", 400, 200, "HCCL", 5)
            .k("Add", 600, 400);
        bs::CommOp c;
        c.step = "step1";
        c.kind = "collective";
        c.name = "hcom_allReduce__1_0_1";
        c.start = at(400);
        c.elapse = us(200);
        c.wait = us(wait);
        c.transit = us(100 - wait);
        f.p.commOps.push_back(c);
        f.p.hasCommunicationJson = true;
        const auto r = bs::analyzeProfile(f.done());
        const std::string json = bs::renderJson(f.p, r);
        QCOMPARE(json.find("COMM_WAIT_HEAVY") != std::string::npos, heavy);
        bool said = false;
        for (const auto& a : r.anomaly.answers)
            said |= bs::english(a).find("COMM_WAIT_HEAVY") != std::string::npos;
        QCOMPARE(said, heavy);
        // Per step, comm_wait_ms and comm_transit_ms from communication.json.
        const auto doc = nlohmann::json::parse(json);
        const auto& step = doc.at("steps").at(0);
        QVERIFY2(step.contains("comm_wait_ms"), "steps[0] has no comm_wait_ms");
        QCOMPARE(step.at("comm_wait_ms").get<double>(), wait / 1000);
        QCOMPARE(step.at("comm_transit_ms").get<double>(), (100 - wait) / 1000);
    }
};

QTEST_APPLESS_MAIN(TstRulesSection6)
#include "tst_rules_section6.moc"
