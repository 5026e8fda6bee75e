// Rule table for ANALYSIS.md §2 (steps), §3 (bubble metrics) and §3.1 (the profiler cross-check), on
// hand-built profiles. Times in the comments are µs after the fixture's origin.
#include "analysis/crosscheck.h"
#include "analysis/intervals.h"
#include "io/profile_loader.h"
#include "rules_fixture.h"
#include "test_support.h"

using rules::at;
using rules::Fixture;
using rules::us;

class TstRulesStepsAndMetrics : public QObject {
    Q_OBJECT
  private slots:
    // ---- the thresholds themselves ----
    void everyDefaultThresholdIsTheOneAnalysisMdStates() {
        // §4 bubble_min_us 50, top 5, JSON cap 200, 3 neighbours; §5 0.20 / 0.20 / 0.05 / 0.10 / 1.2;
        // §6 X = max(1.0 ms, 0.10 × service), 0.30, 60 % / 60 %, 0.10; §7 0.95 / 10 µs / rank 10,
        // list 0.8 / top 20, AICPU 0.9 / 0.2, aiv_mte2 0.8; §8 0.05 ms / 1 % / 0.8; §9 block 10 µs.
        const std::pair<const char*, double> spec[] = {{"bubble_min_us", 50},
                                                       {"top_windows", 5},
                                                       {"window_list_cap", 200},
                                                       {"neighbour_kernels", 3},
                                                       {"sync_ratio_min", 0.20},
                                                       {"comm_ratio_min", 0.20},
                                                       {"untraced_coverage_max", 0.05},
                                                       {"launch_lag_coverage_min", 0.10},
                                                       {"serialization_parallelism_max", 1.2},
                                                       {"heavy_gap_min_ms", 1.0},
                                                       {"heavy_gap_service_fraction", 0.10},
                                                       {"underfeed_heavy_ratio", 0.30},
                                                       {"recurring_step_fraction", 0.60},
                                                       {"recurring_position_fraction", 0.60},
                                                       {"host_risk_coverage_min", 0.10},
                                                       {"wait_anchor_wait_ratio", 0.95},
                                                       {"wait_anchor_max_duration_us", 10},
                                                       {"wait_anchor_max_rank", 10},
                                                       {"wait_list_ratio", 0.80},
                                                       {"wait_list_top", 20},
                                                       {"aicpu_masked_min", 0.90},
                                                       {"aicpu_partial_min", 0.20},
                                                       {"pmu_mte2_hot", 0.80},
                                                       {"idle_none_ms", 0.05},
                                                       {"idle_none_service_fraction", 0.01},
                                                       {"idle_mixed_ratio", 0.80},
                                                       {"block_min_us", 10}};
        const auto entries = bs::Rulebook{}.entries();
        for (const auto& [name, value] : spec) {
            auto it =
                std::find_if(entries.begin(), entries.end(), [&](const auto& e) { return e.first == name; });
            QVERIFY2(it != entries.end(), name);
            QVERIFY2(it->second == value, qPrintable(QStringLiteral("%1 = %2, ANALYSIS.md says %3")
                                                         .arg(QLatin1String(name))
                                                         .arg(it->second)
                                                         .arg(value)));
        }
    }

    // ---- §2 steps ----
    void markerStepsTileFromOneMarkerStartToTheNext() {
        Fixture f;
        f.step(1, 0, 900).step(2, 1000, 500).k("a", 10, 100).k("b", 1100, 100);
        const auto set = bs::detectSteps(f.done());
        QCOMPARE(set.source, bs::StepSource::ProfilerStep);
        QCOMPARE(set.steps.size(), std::size_t(2));
        // W_1 = [S_1, S_2) = [0, 1000): the marker's own 900 µs do not end the window.
        QCOMPARE(set.steps[0].start, at(0));
        QCOMPARE(set.steps[0].end, at(1000));
        QCOMPARE(set.steps[0].number, Q_INT64_C(1));
    }
    void theLastStepEndsAtTheLatestKernelThatStartsInsideIt() {
        // Last marker [1000, 1500); kernel c starts inside it (1400) and ends at 1700 > 1500:
        // E = max(1500, 1700) = 1700. Reading "the marker end" would give 1500.
        Fixture f;
        f.step(1, 0, 900).step(2, 1000, 500).k("a", 10, 100).k("c", 1400, 300);
        const auto set = bs::detectSteps(f.done());
        QCOMPARE(set.steps[1].end, at(1700));
    }
    void theLastStepEndsAtItsMarkerWhenEveryKernelEndsBefore() {
        // Last marker [1000, 1900); the latest kernel ends at 1200: E = max(1900, 1200) = 1900.
        Fixture f;
        f.step(1, 0, 900).step(2, 1000, 900).k("a", 10, 100).k("b", 1100, 100);
        const auto set = bs::detectSteps(f.done());
        QCOMPARE(set.steps[1].end, at(1900));
    }
    void aKernelStartedBeforeTheLastStepDoesNotExtendIt() {
        // x starts in step 1 (900) and runs to 2900: only kernels that start at or after S_last = 1000
        // count, so E = max(1000 + 500, 1200) = 1500.
        Fixture f;
        f.step(1, 0, 900).step(2, 1000, 500).k("x", 900, 2000, "AI_CORE", 3).k("b", 1100, 100);
        const auto set = bs::detectSteps(f.done());
        QCOMPARE(set.steps[1].end, at(1500));
    }
    void iterationMarkersDefineStepsWhenThereIsNoProfilerStep() {
        Fixture f;
        f.marker("Iteration#3", 0, 900).marker("Iteration#4", 1000, 900).k("a", 10, 100).k("b", 1100, 100);
        const auto set = bs::detectSteps(f.done());
        QCOMPARE(set.source, bs::StepSource::Iteration);
        QCOMPARE(set.steps.size(), std::size_t(2));
        QCOMPARE(set.steps[0].number, Q_INT64_C(3));
        QCOMPARE(set.steps[1].number, Q_INT64_C(4));
        QCOMPARE(set.steps[0].end, at(1000));
        QCOMPARE(set.steps[1].end, at(1900));
    }
    void stepHashMarkersDefineStepsToo() {
        Fixture f;
        f.marker("Step#7", 0, 400).marker("Step#8", 500, 400).k("a", 10, 100).k("b", 600, 100);
        const auto set = bs::detectSteps(f.done());
        QCOMPARE(set.source, bs::StepSource::Iteration);
        QCOMPARE(set.steps.size(), std::size_t(2));
        QCOMPARE(set.steps[1].number, Q_INT64_C(8));
        QCOMPARE(set.steps[1].start, at(500));
    }
    void profilerStepMarkersWinOverIterationMarkers() {
        // Both kinds exist: ProfilerStep#N comes first in §2's order, the Iteration markers are ignored.
        Fixture f;
        f.step(1, 0, 2000).marker("Iteration#1", 0, 900).marker("Iteration#2", 1000, 900).k("a", 10, 100);
        const auto set = bs::detectSteps(f.done());
        QCOMPARE(set.source, bs::StepSource::ProfilerStep);
        QCOMPARE(set.steps.size(), std::size_t(1));
        QCOMPARE(set.steps[0].end, at(2000));
    }
    void theStepIdColumnGivesFirstStartToLastEndOfEachId() {
        Fixture f;
        rules::KernelSpec a{"a", 100, 50, "AI_CORE", 2, 0, "", 1}, b{"b", 300, 100, "AI_CORE", 2, 0, "", 1},
            c{"c", 1000, 20, "AI_CORE", 2, 0, "", 2};
        f.kernel(a).kernel(b).kernel(c);
        const auto set = bs::detectSteps(f.done());
        QCOMPARE(set.source, bs::StepSource::StepIdColumn);
        QCOMPARE(set.steps.size(), std::size_t(2));
        // Id 1: 100 … max(150, 400) = 400; id 2: 1000 … 1020.
        QCOMPARE(set.steps[0].start, at(100));
        QCOMPARE(set.steps[0].end, at(400));
        QCOMPARE(set.steps[1].start, at(1000));
        QCOMPARE(set.steps[1].end, at(1020));
    }
    void withoutMarkersOrStepIdsOnePseudoStepCoversTheCapture() {
        Fixture f;
        f.k("a", 100, 50).k("long", 120, 500, "AI_CORE", 3).k("c", 300, 10);
        const auto set = bs::detectSteps(f.done());
        QCOMPARE(set.source, bs::StepSource::Pseudo);
        QCOMPARE(set.steps.size(), std::size_t(1));
        // First start 100 … latest end max(150, 620, 310) = 620 (not the last kernel's end, 310).
        QCOMPARE(set.steps[0].start, at(100));
        QCOMPARE(set.steps[0].end, at(620));
    }
    void kernelsBeforeTheFirstMarkerBelongToNoStep() {
        Fixture f;
        f.k("early", -300, 100).step(1, 0, 1000).k("a", 100, 100);
        const auto set = bs::detectSteps(f.done());
        QCOMPARE(set.kernelsBeforeFirst, std::size_t(1));
        const auto m = bs::computeStepMetrics(f.p, set);
        QCOMPARE(m[0].kernelCount, std::size_t(1));
        QCOMPARE(m[0].busyUnion, us(100));
    }

    // ---- §2 membership vs §3 clipping ----
    void aKernelStraddlingTwoStepsCountsInTheFirstAndBusiesBoth() {
        // Steps [0, 1000) and [1000, 2000). s = [900, 1100) starts in step 1.
        // Step 1 busy: a [100, 200) + s clipped [900, 1000) = 200; prelaunch 100, one gap 700, tail 0.
        // Step 2 busy: s clipped [1000, 1100) + b [1500, 1600) = 200; prelaunch 0 (not 500), gap 400, tail
        // 400.
        Fixture f;
        f.step(1, 0, 1000).step(2, 1000, 1000).k("a", 100, 100).k("s", 900, 200).k("b", 1500, 100);
        const auto set = bs::detectSteps(f.done());
        const auto m = bs::computeStepMetrics(f.p, set);
        QCOMPARE(m[0].kernelCount, std::size_t(2));
        QCOMPARE(m[1].kernelCount, std::size_t(1));
        QCOMPARE(m[0].busyUnion, us(200));
        QCOMPARE(m[0].tailGap, us(0));
        QCOMPARE(m[1].busyUnion, us(200));
        QCOMPARE(m[1].prelaunchGap, us(0));
        QCOMPARE(m[1].internalBubbleTotal, us(400));
        QCOMPARE(m[1].tailGap, us(400));
    }

    // ---- §3 metrics ----
    void everyFieldOfTheMetricsTableOnOneStep() {
        // Window [0, 10000). Kernels: A [1000, 2000) s2 AI_CORE wait 5, B [1500, 2500) s3 AI_VECTOR_CORE,
        // C [3000, 3100) s4 AI_CPU wait 7, D [5000, 6000) s5 HCCL, E [6100, 7000) s2 other task type.
        // Merged: [1000, 2500) [3000, 3100) [5000, 6000) [6100, 7000) → busy 1500+100+1000+900 = 3500.
        // Gaps 500, 1900, 100: total 2500, largest 1900 (neither the first nor the last), count 3.
        // Prelaunch 1000, tail 3000, underfeed 6500 = 1000 + 2500 + 3000, ratio 0.65.
        Fixture f;
        f.step(1, 0, 10000)
            .k("A", 1000, 1000, "AI_CORE", 2, 5)
            .k("B", 1500, 1000, "AI_VECTOR_CORE", 3)
            .k("C", 3000, 100, "AI_CPU", 4, 7)
            .k("hcom_allReduce__1_0_1", 5000, 1000, "HCCL", 5)
            .k("E", 6100, 900, "WRITE_BACK", 2);
        const auto set = bs::detectSteps(f.done());
        const auto m = bs::computeStepMetrics(f.p, set).at(0);
        QCOMPARE(m.service, us(10000));
        QCOMPARE(m.busyUnion, us(3500));
        QCOMPARE(m.underfeed, us(6500));
        QCOMPARE(m.underfeedRatio, 0.65);
        QCOMPARE(m.prelaunchGap, us(1000));
        QCOMPARE(m.tailGap, us(3000));
        QCOMPARE(m.internalBubbleTotal, us(2500));
        QCOMPARE(m.largestInternalBubble, us(1900));
        QCOMPARE(m.bubbleCount, std::size_t(3));
        QCOMPARE(m.internalGaps.size(), std::size_t(3));
        QCOMPARE(m.internalGaps[1].a, at(3100));
        QCOMPARE(m.internalGaps[1].b, at(5000));
        // Per step inventory: classes, kernel sum 1000+1000+100+1000+900 = 4000, waits 12, streams {2,3,4,5}.
        QCOMPARE(m.kernelCount, std::size_t(5));
        QCOMPARE(m.computeCoreCount, std::size_t(2));
        QCOMPARE(m.aicpuCount, std::size_t(1));
        QCOMPARE(m.commCount, std::size_t(1));
        QCOMPARE(m.otherCount, std::size_t(1));
        QCOMPARE(m.kernelSum, us(4000));
        QCOMPARE(m.kernelWaitSum, us(12));
        QCOMPARE(m.distinctStreams, std::size_t(4));
    }
    void touchingKernelsMergeIntoOneBusySegment() {
        // [100, 150) s2 and [150, 200) s3 touch: one segment [100, 200). Then [300, 350): one gap of 100.
        // Not merging touching intervals would add a zero-length gap: 2 bubbles.
        Fixture f;
        f.step(1, 0, 400).k("a", 100, 50).k("b", 150, 50, "AI_CORE", 3).k("c", 300, 50);
        const auto set = bs::detectSteps(f.done());
        const auto m = bs::computeStepMetrics(f.p, set).at(0);
        QCOMPARE(m.bubbleCount, std::size_t(1));
        QCOMPARE(m.largestInternalBubble, us(100));
        QCOMPARE(m.busyUnion, us(150));
    }
    void theRealLevel1Rank0LargestGapIsNotItsLastGap() {
        // ResNet L1 rank 0, step 50: 90 internal gaps; the largest is the 1.318826 ms after MaxPool's
        // TransData (its window b0003 is recomputed from the raw trace in tst_anomaly_discovery); the
        // first is 0.104203 ms and the last 0.095682 ms.
        QVERIFY(bstest::requireRealdata());
        auto found = bs::discoverProfiles(
            bstest::s(bstest::realdata(QStringLiteral("torch_npu_resnet_ddp/level1/rank0_ascend_pt"))));
        QCOMPARE(found.ranks.size(), std::size_t(1));
        auto loaded = bs::loadRank(found.ranks[0]);
        const auto set = bs::detectSteps(*loaded.profile);
        const auto m = bs::computeStepMetrics(*loaded.profile, set).at(0);
        QCOMPARE(m.bubbleCount, std::size_t(90));
        QCOMPARE(m.largestInternalBubble, bs::TimeNs(1318826));
        QCOMPARE(m.internalGaps.front().length(), bs::TimeNs(104203));
        QCOMPARE(m.internalGaps.back().length(), bs::TimeNs(95682));
    }
    void mergeIntervalsJoinsTouchingAndOverlappingAndDropsEmpty() {
        const auto m = bs::mergeIntervals({{20, 30}, {0, 10}, {10, 15}, {12, 18}, {40, 40}, {50, 45}});
        // {0,10}+{10,15} touch, {12,18} overlaps → [0, 18); [20, 30); the empty and reversed ones dropped.
        QCOMPARE(m.size(), std::size_t(2));
        QCOMPARE(m[0].a, bs::TimeNs(0));
        QCOMPARE(m[0].b, bs::TimeNs(18));
        QCOMPARE(m[1].a, bs::TimeNs(20));
        QCOMPARE(bs::totalLength(m), bs::TimeNs(28));
        QCOMPARE(bs::intersectLength(m, {15, 25}), bs::TimeNs(8)); // [15,18) + [20,25)
    }
    void aStepWithoutKernelsIsAllPrelaunch() {
        Fixture f;
        f.step(1, 0, 1000).step(2, 1000, 300).k("a", 10, 100);
        const auto set = bs::detectSteps(f.done());
        const auto m = bs::computeStepMetrics(f.p, set).at(1);
        QCOMPARE(m.busyUnion, us(0));
        QCOMPARE(m.underfeed, us(300));
        QCOMPARE(m.underfeedRatio, 1.0);
        QCOMPARE(m.prelaunchGap, us(300));
        QCOMPARE(m.tailGap, us(0));
        QCOMPARE(m.bubbleCount, std::size_t(0));
    }
    void zeroLengthKernelsDoNotSplitAGap() {
        // a [100, 200), z at 500 with no duration, b [900, 1000): one gap of 700 (core/README decision).
        Fixture f;
        f.step(1, 0, 1000).k("a", 100, 100).k("z", 500, 0, "AI_CORE", 3).k("b", 900, 100);
        const auto set = bs::detectSteps(f.done());
        const auto m = bs::computeStepMetrics(f.p, set).at(0);
        QCOMPARE(m.bubbleCount, std::size_t(1));
        QCOMPARE(m.largestInternalBubble, us(700));
        QCOMPARE(m.kernelCount, std::size_t(3));
    }

    // ---- §3.1 cross-check: flagged when > 0.5 % and > 1 µs ----
    void crossCheckFlagsOnlyDifferencesAboveHalfAPercentAndOneMicrosecond_data() {
        QTest::addColumn<double>("oursUs");
        QTest::addColumn<double>("theirsUs");
        QTest::addColumn<bool>("mismatch");
        // 0.5 % of 1004.9 is 5.0245 > 4.9: agreement. 0.5 % of 1005.1 is 5.0255 < 5.1: mismatch.
        QTest::newRow("4.9 us on 1004.9 us (0.49 %) agrees") << 1000.0 << 1004.9 << false;
        QTest::newRow("5.1 us on 1005.1 us (0.51 %) differs") << 1000.0 << 1005.1 << true;
        // Small figures: 0.9 µs is 0.9 % of 100.9 but not more than 1 µs; 1.1 µs is both.
        QTest::newRow("0.9 us on 100.9 us (0.9 %, <= 1 us) agrees") << 100.0 << 100.9 << false;
        QTest::newRow("1.1 us on 101.1 us (1.1 %, > 1 us) differs") << 100.0 << 101.1 << true;
        QTest::newRow("ours above theirs counts the same") << 1005.1 << 1000.0 << true;
    }
    void crossCheckFlagsOnlyDifferencesAboveHalfAPercentAndOneMicrosecond() {
        QFETCH(double, oursUs);
        QFETCH(double, theirsUs);
        QFETCH(bool, mismatch);
        bs::Profile p;
        bs::StepTraceRow row;
        row.step = "1";
        row.values = {{"Free", theirsUs},
                      {"Preparing", 50.0},
                      {"Computing", 4000.0},
                      {"Communication(Not Overlapped)", 1000.0}};
        p.stepTrace.push_back(row);
        bs::StepMetrics m;
        m.stepId = 1;
        m.internalBubbleTotal = us(oursUs);
        m.prelaunchGap = us(50);
        m.busyUnion = us(5000); // = Computing 4000 + Communication(Not Overlapped) 1000
        std::vector<bs::StepMetrics> metrics{m, m};
        metrics[1].stepId = 2; // no profiler row for step 2
        const auto cc = bs::crossCheck(p, metrics);
        QVERIFY(cc.available);
        QCOMPARE(cc.rows.size(), std::size_t(2));
        QVERIFY(cc.rows[0].matched);
        QVERIFY(!cc.rows[1].matched);
        QCOMPARE(cc.rows[0].figures.size(), std::size_t(3));
        QCOMPARE(cc.rows[0].figures[0].profilerColumn, std::string("Free"));
        QCOMPARE(cc.rows[0].figures[0].mismatch, mismatch);
        QVERIFY(!cc.rows[0].figures[1].mismatch); // Preparing 50 = 50
        QVERIFY(!cc.rows[0].figures[2].mismatch); // busy 5000 = 4000 + 1000
        QCOMPARE(cc.mismatches, std::size_t(mismatch ? 1 : 0));
    }
    void aSingleStepMatchesASingleProfilerRowWhateverItsNumber() {
        bs::Profile p;
        bs::StepTraceRow row;
        row.step = "50";
        row.values = {{"Free", 10.0}};
        p.stepTrace.push_back(row);
        bs::StepMetrics m; // the pseudo-step: number -1
        m.internalBubbleTotal = us(10);
        const auto cc = bs::crossCheck(p, {m});
        QVERIFY(cc.rows.at(0).matched);
        QCOMPARE(cc.mismatches, std::size_t(0));
    }
};

QTEST_APPLESS_MAIN(TstRulesStepsAndMetrics)
#include "tst_rules_steps_and_metrics.moc"
