// Rule table for ANALYSIS.md §7 (op level: rankings, wait anchors, wait pollution, AICPU exposure, PMU
// verdicts), on hand-built profiles. The wait-pollution thresholds added by §6's rewrite (wait_avg ≥ 20 µs,
// ≥ 50 % of calls) are in tst_rules_section6.cpp; here only cases both readings agree on.
#include "analysis/op_analysis.h"
#include "i18n/message.h"
#include "rules_fixture.h"
#include "test_support.h"

#include <cmath>

using rules::at;
using rules::Fixture;
using rules::us;

namespace {

const bs::OpStats* op(const std::vector<bs::OpStats>& ops, const std::string& name) {
    for (const auto& o : ops)
        if (o.name == name) return &o;
    return nullptr;
}
const bs::AicpuOp* aicpu(const std::vector<bs::AicpuOp>& ops, const std::string& name) {
    for (const auto& o : ops)
        if (o.name == name) return &o;
    return nullptr;
}

} // namespace

class TstRulesOpLevel : public QObject {
    Q_OBJECT
  private slots:
    void perOpFiguresAndTheTwoRankings() {
        // X: 1 call of 100 µs → avg cost 100, total 100. Y: 10 calls of 20 µs + 5 µs wait → avg cost 25,
        // total duration 200, wait ratio 5 / 25 = 0.2. By average cost X is first; by total, Y.
        Fixture f;
        f.k("X", 0, 100);
        for (int i = 0; i < 10; ++i)
            f.k("Y", 200 + i * 100.0, 20, "AI_CORE", 2, 5);
        const auto ops = bs::analyzeOps(f.done(), {}, bs::Rulebook{});
        const auto* x = op(ops, "X");
        const auto* y = op(ops, "Y");
        QVERIFY(x && y);
        QCOMPARE(x->rankByAvgCost, 1);
        QCOMPARE(x->rankByTotal, 2);
        QCOMPARE(y->rankByAvgCost, 2);
        QCOMPARE(y->rankByTotal, 1);
        QCOMPARE(y->calls, std::size_t(10));
        QCOMPARE(y->durTotal, us(200));
        QCOMPARE(y->durAvgUs, 20.0);
        QCOMPARE(y->waitAvgUs, 5.0);
        QCOMPARE(y->totalCostAvgUs, 25.0);
        QCOMPARE(y->waitRatio, 0.2);
        QCOMPARE(y->taskType, std::string("AI_CORE"));
        QCOMPARE(ops.front().name, std::string("X")); // listed by average cost
    }
    void onlyKernelsStartingInTheGivenStepWindowsCount() {
        Fixture f;
        f.k("A", 50, 10).k("A", 150, 10).k("A", 250, 10);
        const auto ops = bs::analyzeOps(f.done(), {{at(0), at(100)}, {at(200), at(300)}}, bs::Rulebook{});
        QCOMPARE(op(ops, "A")->calls, std::size_t(2));
    }
    void collectivesWithRunningIndicesAreOneOp() {
        Fixture f;
        f.k("hcom_allReduce__586_0_1", 0, 10, "HCCL", 5).k("hcom_allReduce__587_0_1", 100, 30, "HCCL", 5);
        const auto ops = bs::analyzeOps(f.done(), {}, bs::Rulebook{});
        QCOMPARE(ops.size(), std::size_t(1));
        QCOMPARE(ops[0].name, std::string("hcom_allReduce__#_#_#"));
        QCOMPARE(ops[0].calls, std::size_t(2));
    }

    // ---- WAIT_ANCHOR_FALSE_HOTSPOT and wait_anchor_ops ----
    void waitAnchorsNeedTheirRatioDurationAndRank_data() {
        QTest::addColumn<double>("dur");
        QTest::addColumn<double>("wait");
        QTest::addColumn<int>("opsAbove"); // ops with a larger average cost (rank = opsAbove + 1)
        QTest::addColumn<bool>("falseHotspot");
        QTest::addColumn<bool>("listed"); // wait_anchor_ops: top 20 by average cost, wait ratio > 0.8
        QTest::newRow("ratio 0.96, 5 us, rank 1") << 5.0 << 120.0 << 0 << true << true;
        QTest::newRow("ratio 0.95 is not above 0.95") << 5.0 << 95.0 << 0 << false << true;
        QTest::newRow("ratio 0.90") << 5.0 << 45.0 << 0 << false << true;
        QTest::newRow("duration 10 us is not below 10 us") << 10.0 << 990.0 << 0 << false << true;
        QTest::newRow("duration 9.9 us") << 9.9 << 990.0 << 0 << true << true;
        QTest::newRow("rank 10") << 5.0 << 120.0 << 9 << true << true;
        QTest::newRow("rank 11") << 5.0 << 120.0 << 10 << false << true;
        QTest::newRow("ratio 0.80 is not listed") << 20.0 << 80.0 << 0 << false << false;
        QTest::newRow("ratio 0.81 is listed") << 19.0 << 81.0 << 0 << false << true;
        QTest::newRow("rank 20 is listed") << 5.0 << 120.0 << 19 << false << true;
        QTest::newRow("rank 21 is not listed") << 5.0 << 120.0 << 20 << false << false;
    }
    void waitAnchorsNeedTheirRatioDurationAndRank() {
        QFETCH(double, dur);
        QFETCH(double, wait);
        QFETCH(int, opsAbove);
        QFETCH(bool, falseHotspot);
        QFETCH(bool, listed);
        Fixture f;
        for (int i = 0; i < opsAbove; ++i)
            f.k("Big" + std::to_string(i), i * 20000.0, 10000.0 + i);
        f.k("Anchor", 500000, dur, "AI_VECTOR_CORE", 2, wait);
        const auto ops = bs::analyzeOps(f.done(), {}, bs::Rulebook{});
        const auto* a = op(ops, "Anchor");
        QVERIFY(a);
        QCOMPARE(a->rankByAvgCost, opsAbove + 1);
        QCOMPARE(a->falseHotspot, falseHotspot);
        QCOMPARE(a->waitAnchor, listed);
    }
    void aFalseHotspotRaisesTheGlobalTag() {
        Fixture f;
        f.step(1, 0, 1000).k("Cast", 0, 5, "AI_VECTOR_CORE", 2, 120).k("MatMul", 5, 995);
        const auto r = bs::analyzeProfile(f.done());
        QVERIFY(op(r.anomaly.ops, "Cast")->falseHotspot);
        QVERIFY(rules::hasTag(r.anomaly.globalTags, "WAIT_ANCHOR_FALSE_HOTSPOT"));
        // The same op waiting 45 µs (ratio 0.9) is listed as a wait anchor but raises nothing.
        Fixture g;
        g.step(1, 0, 1000).k("Cast", 0, 5, "AI_VECTOR_CORE", 2, 45).k("MatMul", 5, 995);
        const auto r2 = bs::analyzeProfile(g.done());
        QVERIFY(op(r2.anomaly.ops, "Cast")->waitAnchor);
        QVERIFY(!rules::hasTag(r2.anomaly.globalTags, "WAIT_ANCHOR_FALSE_HOTSPOT"));
    }

    // ---- wait pollution: cases where the old and the rewritten rule agree ----
    void waitPollutionNeedsWaitSpansOverlappingCommunication() {
        // HCCL kernel [1000, 1500). P: starts 1550 (wait 100 → [1450, 1550)) and 1600 (wait 200 →
        // [1400, 1600)): both overlap it, wait avg 150 µs → polluted.
        // Q: waits [2900, 3000) and [3100, 3200), far from any collective → not polluted, however long.
        // S: wait [5000, 5100) overlaps the communication.json op [4900, 5050) → polluted.
        Fixture f;
        f.k("hcom_allReduce__1", 1000, 500, "HCCL", 5);
        f.k("P", 1550, 10, "AI_CORE", 2, 100).k("P", 1600, 10, "AI_CORE", 2, 200);
        f.k("Q", 3000, 10, "AI_CORE", 2, 100).k("Q", 3200, 10, "AI_CORE", 2, 100);
        f.k("S", 5100, 10, "AI_CORE", 2, 100).k("S", 5300, 10, "AI_CORE", 2, 100);
        bs::CommOp c;
        c.name = "hcom_broadcast__2";
        c.start = at(4900);
        c.elapse = us(150);
        f.p.commOps.push_back(c);
        f.p.hasCommunicationJson = true;
        const auto ops = bs::analyzeOps(f.done(), {}, bs::Rulebook{});
        QVERIFY(op(ops, "P")->waitPollution);
        QVERIFY(!op(ops, "Q")->waitPollution);
        // S: its second call's wait [5200, 5300) misses; one of two calls (50 %) still qualifies.
        QVERIFY(op(ops, "S")->waitPollution);
    }

    // ---- AICPU: masked ratio against the merged compute-core union, duration-weighted ----
    void aicpuOpsAreClassedByTheirMaskedRatio() {
        Fixture f;
        // Masked: [0, 1000) under compute [0, 900) → 0.9 → MASKED.
        f.k("Masked", 0, 1000, "AI_CPU", 7).k("c1", 0, 900);
        // PartialHigh: [2000, 3000) under [2000, 2899.9) → 0.8999 → PARTIALLY_EXPOSED.
        f.k("PartialHigh", 2000, 1000, "AI_CPU", 7).k("c2", 2000, 899.9);
        // PartialLow: [4000, 5000) under [4000, 4200) → 0.2 → PARTIALLY_EXPOSED.
        f.k("PartialLow", 4000, 1000, "AI_CPU", 7).k("c3", 4000, 200);
        // Exposed: [6000, 7000) under [6000, 6199.9) → 0.1999 → EXPOSED_NOT_ALLOWED.
        f.k("Exposed", 6000, 1000, "AI_CPU", 7).k("c4", 6000, 199.9);
        // Half: 0.5 sits in the partial band.
        f.k("Half", 8000, 1000, "AI_CPU", 7).k("c5", 8000, 500);
        // BehindComm: under an HCCL kernel and an "other" task only: no compute core → 0 → EXPOSED.
        f.k("BehindComm", 10000, 1000, "AI_CPU", 7)
            .k("hcom_allReduce__3", 10000, 1000, "HCCL", 5)
            .k("Memset", 10000, 1000, "WRITE_BACK", 3);
        // Weighted: 100 µs fully under compute + 10 µs bare → 100 / 110 = 0.909 → MASKED (the mean of
        // the two calls' ratios, 0.5, would say PARTIALLY_EXPOSED).
        f.k("Weighted", 12000, 100, "AI_CPU", 7).k("c6", 12000, 100).k("Weighted", 13000, 10, "AI_CPU", 7);
        // Doubled: under two compute kernels on two streams: the union counts once → 1.0.
        f.k("Doubled", 14000, 1000, "AI_CPU", 7).k("c7", 14000, 1000).k("c8", 14000, 1000, "AI_CORE", 3);
        const auto ops = bs::analyzeAicpu(f.done(), {}, bs::Rulebook{});
        QCOMPARE(ops.size(), std::size_t(8));
        const std::pair<const char*, const char*> expected[] = {
            {"Masked", "AICPU_MASKED_BUT_UNDESIRABLE"},   {"PartialHigh", "AICPU_PARTIALLY_EXPOSED"},
            {"PartialLow", "AICPU_PARTIALLY_EXPOSED"},    {"Exposed", "AICPU_EXPOSED_NOT_ALLOWED"},
            {"Half", "AICPU_PARTIALLY_EXPOSED"},          {"BehindComm", "AICPU_EXPOSED_NOT_ALLOWED"},
            {"Weighted", "AICPU_MASKED_BUT_UNDESIRABLE"}, {"Doubled", "AICPU_MASKED_BUT_UNDESIRABLE"}};
        for (const auto& [name, cls] : expected) {
            const auto* a = aicpu(ops, name);
            QVERIFY2(a, name);
            QVERIFY2(a->cls == cls, (std::string(name) + " is " + a->cls).c_str());
        }
        QCOMPARE(aicpu(ops, "Masked")->maskedRatio, 0.9);
        QCOMPARE(aicpu(ops, "Exposed")->maskedRatio, 0.1999);
        QCOMPARE(aicpu(ops, "BehindComm")->maskedRatio, 0.0);
        QCOMPARE(aicpu(ops, "Weighted")->maskedRatio, 100.0 / 110.0);
        QCOMPARE(aicpu(ops, "Weighted")->calls, std::size_t(2));
        QCOMPARE(aicpu(ops, "Weighted")->durTotal, us(110));
        QCOMPARE(aicpu(ops, "Doubled")->maskedRatio, 1.0);
    }
    void onlyAnExposedAicpuOpRaisesTheRiskAndItsBubbleIsNamed_data() {
        QTest::addColumn<double>("maskedUs"); // of the AICPU kernel's 500 µs
        QTest::addColumn<bool>("risk");
        QTest::newRow("exposed (0 %)") << 0.0 << true;
        QTest::newRow("partially exposed (50 %)") << 250.0 << false;
    }
    void onlyAnExposedAicpuOpRaisesTheRiskAndItsBubbleIsNamed() {
        QFETCH(double, maskedUs);
        QFETCH(bool, risk);
        // Step [0, 10000): a [0, 3000), NonZero (AI_CPU) [3000, 3500), gap [3500, 4500), b [4500, 10000).
        Fixture f;
        f.step(1, 0, 10000)
            .k("a", 0, 3000 + maskedUs)
            .k("NonZero", 3000, 500, "AI_CPU", 7)
            .k("b", 4500, 5500);
        const auto r = bs::analyzeProfile(f.done());
        QCOMPARE(r.anomaly.aicpuOps.size(), std::size_t(1));
        QVERIFY(r.anomaly.aicpuOps[0].touchesBubble); // it ends where the 1 ms window starts
        QCOMPARE(rules::hasTag(r.anomaly.globalTags, "AICPU_EXPOSED_RISK"), risk);
    }

    // ---- PMU verdicts ----
    void pmuVerdictsNameTheLargestPipe() {
        Fixture f;
        f.p.pmu.columns = {"aic_mac_ratio", "aic_mte2_ratio", "aiv_vec_ratio", "aiv_mte2_ratio"};
        const float nan = std::nanf("");
        const std::vector<std::vector<float>> rows = {
            {0.6f, 0.3f, nan, nan},  // CubeCompute: mac largest
            {0.2f, 0.7f, nan, nan},  // CubeMemory: mte2 largest
            {nan, nan, 0.7f, 0.2f},  // VecCompute
            {nan, nan, 0.1f, 0.85f}, // VecHot: memory-bound and aiv_mte2 > 0.8
            {nan, nan, 0.1f, 0.79f}, // VecWarm: memory-bound, not hot
        };
        const char* names[] = {"CubeCompute", "CubeMemory", "VecCompute", "VecHot", "VecWarm"};
        for (std::size_t i = 0; i < rows.size(); ++i) {
            f.p.pmu.values.insert(f.p.pmu.values.end(), rows[i].begin(), rows[i].end());
            f.k(names[i], i * 100.0, 50, i < 2 ? "AI_CORE" : "AI_VECTOR_CORE");
            f.p.kernels.back().pmuRow = static_cast<std::int32_t>(i);
        }
        f.k("hcom_allReduce__1", 1000, 50, "HCCL", 5);
        const auto ops = bs::analyzeOps(f.done(), {}, bs::Rulebook{});
        QCOMPARE(op(ops, "CubeCompute")->pmuVerdict, std::string("compute-bound"));
        QCOMPARE(op(ops, "CubeMemory")->pmuVerdict, std::string("memory-bound"));
        QCOMPARE(op(ops, "VecCompute")->pmuVerdict, std::string("compute-bound"));
        QCOMPARE(bs::english(op(ops, "VecHot")->pmuVerdict),
                 std::string("memory-bound, hot (aiv_mte2_ratio 0.85)"));
        QCOMPARE(op(ops, "VecWarm")->pmuVerdict, std::string("memory-bound"));
        QCOMPARE(op(ops, "hcom_allReduce__#")->pmuVerdict, std::string("not_applicable"));
    }
    // An op's PMU ratios are the duration-weighted means over its kernels: a long compute-bound call and a
    // short memory-bound one make a compute-bound op (unweighted, mte2 0.50 > mac 0.40 would say memory).
    void pmuRatiosOfAnOpAreWeightedByKernelDuration() {
        Fixture f;
        f.p.pmu.columns = {"aic_mac_ratio", "aic_mte2_ratio", "cube_utilization(%)"};
        const std::vector<std::vector<float>> rows = {{0.8f, 0.1f, 50.0f}, {0.0f, 0.9f, 94.0f}};
        f.k("Mixed", 0, 100, "AI_CORE");
        f.p.kernels.back().pmuRow = 0;
        f.k("Mixed", 200, 10, "AI_CORE");
        f.p.kernels.back().pmuRow = 1;
        for (const auto& r : rows)
            f.p.pmu.values.insert(f.p.pmu.values.end(), r.begin(), r.end());
        const auto ops = bs::analyzeOps(f.done(), {}, bs::Rulebook{});
        const auto* mixed = op(ops, "Mixed");
        QVERIFY(mixed);
        QCOMPARE(mixed->pmuVerdict, std::string("compute-bound"));
        // mac (0.8 * 100 + 0 * 10) / 110 = 0.727; mte2 (0.1 * 100 + 0.9 * 10) / 110 = 0.173
        QCOMPARE(mixed->pmuDetail, std::string("aic_mac_ratio=0.73, aic_mte2_ratio=0.17"));
        // cube utilisation (50 * 100 + 94 * 10) / 110 = 54.0 (unweighted: 72.0)
        QVERIFY(mixed->cubeUtilization);
        QVERIFY(std::abs(*mixed->cubeUtilization - 54.0) < 1e-9);
    }
    void withoutPmuColumnsEveryVerdictIsUnavailable() {
        Fixture f;
        f.k("MatMul", 0, 50);
        const auto ops = bs::analyzeOps(f.done(), {}, bs::Rulebook{});
        QCOMPARE(ops.at(0).pmuVerdict, std::string("pmu_unavailable"));
        QVERIFY(!bs::pmuAvailable(f.p));
    }
};

QTEST_APPLESS_MAIN(TstRulesOpLevel)
#include "tst_rules_op_level.moc"
