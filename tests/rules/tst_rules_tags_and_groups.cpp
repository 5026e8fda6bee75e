// Rule table for ANALYSIS.md §6 (step tags, group and global risks, the parts of the verdict that §6's
// rewrite keeps) and §8 (step groups, percentiles, dominant idle pattern), on hand-built profiles.
// The rewritten §6 rules (capture boundary, verdict on prelaunch/tail, wait pollution minimum, comm
// wait) are in tst_rules_section6.cpp. Times in the comments are µs after the fixture's origin.
#include "analysis/step_groups.h"
#include "i18n/message.h"
#include "rules_fixture.h"
#include "test_support.h"

using rules::at;
using rules::Fixture;
using rules::us;

namespace {

// Steps of 10 000 µs with the same kernels A [0, 2000), B [2000, 6000), C [6000, 8000), D [8000, 10000)
// (relative to the step). `gapAfter[i]` names the kernel after which step i idles for `gap` µs (the
// kernel is shortened at its end), "-" for none; `hostCover` µs of aten::add sit at the start of each gap.
void repeatedSteps(Fixture& f, const QStringList& gapAfter, double gap, double hostCover = 0) {
    const char* names[] = {"A", "B", "C", "D"};
    const double starts[] = {0, 2000, 6000, 8000, 10000};
    for (int i = 0; i < gapAfter.size(); ++i) {
        const double o = i * 10000.0;
        f.step(i + 1, o, 10000);
        for (int k = 0; k < 4; ++k) {
            const bool shortened = gapAfter[i] == QLatin1String(names[k]);
            const double len = starts[k + 1] - starts[k];
            f.k(names[k], o + starts[k], shortened ? len - gap : len);
            if (shortened && hostCover > 0) f.host("aten::add", o + starts[k + 1] - gap, hostCover);
        }
    }
}

const bs::StepGroup& dominant(const bs::AnalysisResult& r) {
    return r.anomaly.groups.front();
}

} // namespace

class TstRulesTagsAndGroups : public QObject {
    Q_OBJECT
  private slots:
    // ---- §6 per-step tags: X = max(1.0 ms, 0.10 × service) ----
    void stepTagsUseTheLargerOfOneMillisecondAndTenPercent_data() {
        QTest::addColumn<double>("service");
        QTest::addColumn<double>("prelaunch");
        QTest::addColumn<QList<double>>("gaps");
        QTest::addColumn<double>("tail");
        QTest::addColumn<QString>("tags"); // sorted
        const QString idle = QStringLiteral("DEVICE_IDLE_GAP_HEAVY");
        // Service 5 ms: X = max(1, 0.5) = 1 ms. Ratios stay below 0.30 unless said.
        QTest::newRow("prelaunch 0.999 ms of 5 ms is not heavy")
            << 5000.0 << 999.0 << QList<double>{} << 0.0 << QString();
        QTest::newRow("prelaunch 1.0 ms of 5 ms is heavy")
            << 5000.0 << 1000.0 << QList<double>{} << 0.0 << idle + QStringLiteral(",PRELAUNCH_GAP_HEAVY");
        QTest::newRow("tail 0.999 ms of 5 ms is not heavy")
            << 5000.0 << 0.0 << QList<double>{} << 999.0 << QString();
        QTest::newRow("tail 1.0 ms of 5 ms is heavy")
            << 5000.0 << 0.0 << QList<double>{} << 1000.0 << idle + QStringLiteral(",TAIL_GAP_HEAVY");
        QTest::newRow("internal 0.999 ms of 5 ms is not heavy")
            << 5000.0 << 0.0 << QList<double>{999.0} << 0.0 << QString();
        QTest::newRow("internal 1.0 ms of 5 ms is heavy") << 5000.0 << 0.0 << QList<double>{1000.0} << 0.0
                                                          << idle + QStringLiteral(",INTERNAL_BUBBLE_HEAVY");
        QTest::newRow("the largest internal gap decides, not the last")
            << 5000.0 << 0.0 << QList<double>{1000.0, 100.0} << 0.0
            << idle + QStringLiteral(",INTERNAL_BUBBLE_HEAVY");
        // Service 20 ms: X = max(1, 2) = 2 ms; 1.5 ms is heavy only if X were the smaller of the two.
        QTest::newRow("prelaunch 1.5 ms of 20 ms is not heavy")
            << 20000.0 << 1500.0 << QList<double>{} << 0.0 << QString();
        QTest::newRow("prelaunch 2.0 ms of 20 ms is heavy")
            << 20000.0 << 2000.0 << QList<double>{} << 0.0 << idle + QStringLiteral(",PRELAUNCH_GAP_HEAVY");
        QTest::newRow("internal 1.5 ms of 20 ms is not heavy")
            << 20000.0 << 0.0 << QList<double>{1500.0} << 0.0 << QString();
        // DEVICE_IDLE_GAP_HEAVY by ratio alone: 10 ms, idle 900 + 600 + 600 + 900 = 3000 → 0.30, no gap ≥ 1
        // ms.
        QTest::newRow("underfeed 0.30 without a heavy gap")
            << 10000.0 << 900.0 << QList<double>{600.0, 600.0} << 900.0 << idle;
        QTest::newRow("underfeed 0.2999 without a heavy gap")
            << 10000.0 << 900.0 << QList<double>{600.0, 600.0} << 899.0 << QString();
    }
    void stepTagsUseTheLargerOfOneMillisecondAndTenPercent() {
        QFETCH(double, service);
        QFETCH(double, prelaunch);
        QFETCH(QList<double>, gaps);
        QFETCH(double, tail);
        QFETCH(QString, tags);
        Fixture f;
        rules::oneStep(f, service, prelaunch, std::vector<double>(gaps.begin(), gaps.end()), tail);
        const auto r = bs::analyzeProfile(f.done());
        QCOMPARE(r.metrics.at(0).service, us(service));
        QCOMPARE(QString::fromStdString(rules::joined(r.anomaly.stepTags.at(0).tags, true)), tags);
    }

    // ---- §6 RECURRING_BUBBLE_PATTERN ----
    void recurringNeedsTwoStepsSixtyPercentWithABubbleAndSixtyPercentAtOnePlace_data() {
        QTest::addColumn<QStringList>("gapAfter");
        QTest::addColumn<bool>("recurring");
        QTest::newRow("3 of 5 steps, all after B") << QStringList{"B", "B", "B", "-", "-"} << true;
        QTest::newRow("2 of 5 steps is below 60 %") << QStringList{"B", "B", "-", "-", "-"} << false;
        QTest::newRow("3 of 5 steps at three places") << QStringList{"A", "B", "C", "-", "-"} << false;
        QTest::newRow("5 of 5, 3 after B (60 %)") << QStringList{"B", "B", "B", "C", "C"} << true;
        QTest::newRow("5 of 5, at most 2 at one place") << QStringList{"A", "A", "B", "B", "C"} << false;
        QTest::newRow("a group of one step never recurs") << QStringList{"B"} << false;
    }
    void recurringNeedsTwoStepsSixtyPercentWithABubbleAndSixtyPercentAtOnePlace() {
        QFETCH(QStringList, gapAfter);
        QFETCH(bool, recurring);
        Fixture f;
        repeatedSteps(f, gapAfter, 300); // 300 µs ≥ 50 µs: significant; ratio 0.03
        const auto r = bs::analyzeProfile(f.done());
        QCOMPARE(r.anomaly.groups.size(), std::size_t(1));
        QCOMPARE(dominant(r).recurring, recurring);
        QCOMPARE(rules::hasTag(dominant(r).tags, "RECURRING_BUBBLE_PATTERN"), recurring);
        QCOMPARE(rules::hasTag(r.anomaly.globalTags, "RECURRING_BUBBLE_PATTERN"), recurring);
        if (recurring) QCOMPARE(dominant(r).recurringPosition, std::string("B"));
    }

    // ---- §6 HOST_ORIGINATED_RISK and UNTRACED_HOST_BLOCKING_RISK ----
    void hostRisksNeedUnderfeedRecurrenceAndCoverage_data() {
        QTest::addColumn<double>("gap");       // µs per 10 ms step: underfeed ratio = gap / 10000
        QTest::addColumn<double>("hostCover"); // µs of host events in each gap: coverage = hostCover / gap
        QTest::addColumn<bool>("hostOriginated");
        QTest::addColumn<bool>("untraced");
        QTest::newRow("underfeed 0.31, coverage 0.5: host originated") << 3100.0 << 1550.0 << true << false;
        QTest::newRow("underfeed 0.29, coverage 0.5: no risk") << 2900.0 << 1450.0 << false << false;
        QTest::newRow("coverage 0.10: host originated") << 3100.0 << 310.0 << true << false;
        QTest::newRow("coverage 0.0999: neither") << 3100.0 << 309.69 << false << false;
        QTest::newRow("coverage 0.05: neither") << 3100.0 << 155.0 << false << false;
        QTest::newRow("coverage 0.0499: untraced") << 3100.0 << 154.69 << false << true;
        QTest::newRow("coverage 0: untraced") << 3100.0 << 0.0 << false << true;
        QTest::newRow("underfeed 0.29, coverage 0: no risk") << 2900.0 << 0.0 << false << false;
    }
    void hostRisksNeedUnderfeedRecurrenceAndCoverage() {
        QFETCH(double, gap);
        QFETCH(double, hostCover);
        QFETCH(bool, hostOriginated);
        QFETCH(bool, untraced);
        Fixture f;
        repeatedSteps(f, {"B", "B", "B"}, gap, hostCover);
        const auto r = bs::analyzeProfile(f.done());
        const auto& g = dominant(r);
        QVERIFY(g.recurring);
        QCOMPARE(rules::hasTag(g.tags, "HOST_ORIGINATED_RISK"), hostOriginated);
        QCOMPARE(rules::hasTag(r.anomaly.globalTags, "HOST_ORIGINATED_RISK"), hostOriginated);
        QCOMPARE(rules::hasTag(g.tags, "UNTRACED_HOST_BLOCKING_RISK"), untraced);
        QCOMPARE(rules::hasTag(r.anomaly.globalTags, "UNTRACED_HOST_BLOCKING_RISK"), untraced);
        // The risk implies the follow-up; a follow-up can also come from a single untraced window.
        if (untraced) {
            QVERIFY(g.requiresFollowup);
            QVERIFY(r.anomaly.requiresHostFollowup);
        }
    }
    void aSingleUnderfedUntracedStepIsUntracedHostBlocking() {
        // One step of 10 ms with a 3.5 ms gap and nothing traced in it: "recurring (or a single step)".
        Fixture f;
        repeatedSteps(f, {"B"}, 3500);
        const auto r = bs::analyzeProfile(f.done());
        QVERIFY(!dominant(r).recurring);
        QVERIFY(rules::hasTag(dominant(r).tags, "UNTRACED_HOST_BLOCKING_RISK"));
        QVERIFY(!rules::hasTag(dominant(r).tags, "HOST_ORIGINATED_RISK")); // needs recurrence
        QVERIFY(r.anomaly.requiresHostFollowup);
    }

    // ---- §6 COMM_SYNC_RISK from the top windows ----
    void commSyncRiskNeedsATopWindowWithCommRatioAtLeastTwentyPercent_data() {
        QTest::addColumn<double>("commUs");
        QTest::addColumn<bool>("risk");
        QTest::newRow("comm 0.20 of the window") << 200.0 << true;
        QTest::newRow("comm 0.1999 of the window") << 199.9 << false;
    }
    void commSyncRiskNeedsATopWindowWithCommRatioAtLeastTwentyPercent() {
        QFETCH(double, commUs);
        QFETCH(bool, risk);
        // Step [0, 10000), one internal gap [4000, 5000), HcclAllReduce host event at its start.
        Fixture f;
        f.step(1, 0, 10000).k("a", 0, 4000).k("b", 5000, 5000).host("HcclAllReduce", 4000, commUs);
        const auto r = bs::analyzeProfile(f.done());
        QCOMPARE(r.anomaly.windows.size(), std::size_t(1));
        QCOMPARE(rules::hasTag(r.anomaly.globalTags, "COMM_SYNC_RISK"), risk);
    }

    // ---- §6 VARIABLE_SHAPE_SAME_TEMPLATE ----
    void variableShapesNeedOneTemplateWithDifferentShapes_data() {
        QTest::addColumn<QString>("shapes1");
        QTest::addColumn<QString>("shapes2");
        QTest::addColumn<int>("verdict"); // -1 not evaluated, 0 same, 1 different
        QTest::newRow("different shapes") << QStringLiteral("8,128") << QStringLiteral("8,256") << 1;
        QTest::newRow("same shapes") << QStringLiteral("8,128") << QStringLiteral("8,128") << 0;
        QTest::newRow("no shapes recorded") << QString() << QString() << -1;
    }
    void variableShapesNeedOneTemplateWithDifferentShapes() {
        QFETCH(QString, shapes1);
        QFETCH(QString, shapes2);
        QFETCH(int, verdict);
        Fixture f;
        f.step(1, 0, 1000).step(2, 1000, 1000);
        f.kernel({"MatMul", 0, 1000, "AI_CORE", 2, 0, shapes1.toStdString()});
        f.kernel({"MatMul", 1000, 1000, "AI_CORE", 2, 0, shapes2.toStdString()});
        const auto r = bs::analyzeProfile(f.done());
        QCOMPARE(r.anomaly.groups.size(), std::size_t(1)); // shapes never split a template
        const auto& g = dominant(r);
        QCOMPARE(g.variableShapes.has_value(), verdict >= 0);
        if (verdict >= 0) QCOMPARE(*g.variableShapes, verdict == 1);
        QCOMPARE(rules::hasTag(r.anomaly.globalTags, "VARIABLE_SHAPE_SAME_TEMPLATE"), verdict == 1);
        bool noted = false;
        for (const auto& n : r.anomaly.notes)
            noted |=
                bs::english(n).find("VARIABLE_SHAPE_SAME_TEMPLATE was not evaluated") != std::string::npos;
        QCOMPARE(noted, verdict < 0);
    }

    // ---- §6 hidden-issue verdict: the cases its rewrite leaves unchanged ----
    void theVerdictIsFalseWithoutUnderfeedOrAHeavyGap() {
        Fixture f;
        repeatedSteps(f, {"B", "B", "B"}, 300); // ratio 0.03, largest 0.3 ms < X = 1 ms
        const auto r = bs::analyzeProfile(f.done());
        QVERIFY(!r.anomaly.hiddenIssuePresent);
        QCOMPARE(r.anomaly.severity, std::string("none"));
    }
    void theVerdictIsTrueOnUnderfeedAloneWithMediumSeverityWhenNotRecurring() {
        // One 10 ms step, eight 400 µs gaps: ratio 0.32, every gap < X = 1 ms.
        Fixture f;
        rules::oneStep(f, 10000, 0, std::vector<double>(8, 400.0), 0);
        const auto r = bs::analyzeProfile(f.done());
        QCOMPARE(r.metrics[0].underfeedRatio, 0.32);
        QVERIFY(r.anomaly.hiddenIssuePresent);
        QCOMPARE(r.anomaly.severity, std::string("medium"));
    }
    void theVerdictIsTrueOnAHeavyInternalBubbleAlone() {
        // One 20 ms step, one 2 ms gap: ratio 0.10, largest internal 2 ms ≥ X = 2 ms.
        Fixture f;
        rules::oneStep(f, 20000, 0, {2000}, 0);
        const auto r = bs::analyzeProfile(f.done());
        QVERIFY(r.anomaly.hiddenIssuePresent);
        QCOMPARE(r.anomaly.severity, std::string("medium"));
    }
    void theVerdictIsHighWhenTheDominantGroupRecurs() {
        // Three 10 ms steps, a 1.5 ms gap after B in each: INTERNAL_BUBBLE_HEAVY and recurring.
        Fixture f;
        repeatedSteps(f, {"B", "B", "B"}, 1500);
        const auto r = bs::analyzeProfile(f.done());
        QVERIFY(dominant(r).recurring);
        QVERIFY(r.anomaly.hiddenIssuePresent);
        QCOMPARE(r.anomaly.severity, std::string("high"));
    }

    // ---- §8 step groups ----
    void percentilesInterpolateLinearlyAsNumpyDoes() {
        // Sorted 1 2 3 4: median at position 1.5 → 2.5; P90 at 2.7 → 3.7; P95 at 2.85 → 3.85.
        const auto s = bs::statsOf({4, 1, 3, 2});
        QCOMPARE(s.avg, 2.5);
        QCOMPARE(s.median, 2.5);
        QCOMPARE(s.p90, 3.7);
        QCOMPARE(s.p95, 3.85);
        const auto two = bs::statsOf({10, 20}); // P90 at 0.9 → 19, P95 → 19.5
        QCOMPARE(two.median, 15.0);
        QCOMPARE(two.p90, 19.0);
        QCOMPARE(two.p95, 19.5);
        QCOMPARE(bs::statsOf({7}).p95, 7.0);
    }
    void groupStatisticsArePercentilesOfTheStepMetrics() {
        // Four steps of one template with prelaunch 100, 200, 300, 400 µs: P90 = 0.37 ms.
        Fixture f;
        for (int i = 0; i < 4; ++i) {
            f.step(i + 1, i * 1000.0, 1000);
            f.k("a", i * 1000.0 + (i + 1) * 100.0, 1000 - (i + 1) * 100.0);
        }
        const auto r = bs::analyzeProfile(f.done());
        const auto& g = dominant(r);
        QCOMPARE(g.prelaunch.avg, 0.25);
        QCOMPARE(g.prelaunch.median, 0.25);
        QCOMPARE(g.prelaunch.p90, 0.37);
        QCOMPARE(g.prelaunch.p95, 0.385);
    }
    void groupsAreTemplatesRankedByTotalServiceNotByCount() {
        // Three 1 ms steps of A,B (3 ms) and two 2 ms steps of A,C (4 ms): g0 is A,C.
        Fixture f;
        for (int i = 0; i < 3; ++i)
            f.step(i + 1, i * 1000.0, 1000).k("A", i * 1000.0, 500).k("B", i * 1000.0 + 500, 500);
        for (int i = 0; i < 2; ++i)
            f.step(i + 4, 3000 + i * 2000.0, 2000)
                .k("A", 3000 + i * 2000.0, 1000)
                .k("C", 4000 + i * 2000.0, 1000);
        const auto r = bs::analyzeProfile(f.done());
        QCOMPARE(r.anomaly.groups.size(), std::size_t(2));
        QCOMPARE(r.anomaly.groups[0].id, std::string("g0"));
        QCOMPARE(r.anomaly.groups[0].steps, (std::vector<int>{3, 4}));
        QCOMPARE(r.anomaly.groups[0].totalService, us(4000));
        QCOMPARE(r.anomaly.groups[1].steps, (std::vector<int>{0, 1, 2}));
    }
    void collectiveRunningIndicesDoNotSplitATemplate() {
        Fixture f;
        f.step(1, 0, 1000).k("hcom_allReduce__586_0_1", 0, 1000, "HCCL", 5);
        f.step(2, 1000, 1000).k("hcom_allReduce__587_0_1", 1000, 1000, "HCCL", 5);
        const auto r = bs::analyzeProfile(f.done());
        QCOMPARE(r.anomaly.groups.size(), std::size_t(1));
        QCOMPARE(bs::templateName("hcom_allReduce__586_0_1", bs::TaskClass::Comm),
                 std::string("hcom_allReduce__#_#_#"));
        QCOMPARE(bs::templateName("MatMul_1", bs::TaskClass::ComputeCore), std::string("MatMul_1"));
    }
    void aCompilePollutedFirstStepIsRankedLast() {
        // Step 1 (10 ms, its own template) would be g0 by service; with first_step_compile it is last.
        Fixture f;
        f.step(1, 0, 10000).k("Compile", 0, 10000);
        f.step(2, 10000, 1000).k("A", 10000, 1000).step(3, 11000, 1000).k("A", 11000, 1000);
        const auto set = bs::detectSteps(f.done());
        const auto metrics = bs::computeStepMetrics(f.p, set);
        QCOMPARE(bs::groupSteps(f.p, set, metrics, {}, false).front().steps, std::vector<int>{0});
        const auto groups = bs::groupSteps(f.p, set, metrics, {}, true);
        QCOMPARE(groups.front().steps, (std::vector<int>{1, 2}));
        QCOMPARE(groups.back().steps, std::vector<int>{0});
    }
    void dominantIdlePatternIsNoneMixedOrTheLargest_data() {
        QTest::addColumn<double>("service"); // ms, every field is the same in both steps
        QTest::addColumn<double>("prelaunch");
        QTest::addColumn<double>("tail");
        QTest::addColumn<double>("internal");
        QTest::addColumn<double>("interStep"); // idle between the two windows; its average is half
        QTest::addColumn<QString>("pattern");
        QTest::newRow("0.049 ms is under the 0.05 ms floor")
            << 1.0 << 0.049 << 0.0 << 0.0 << 0.0 << QStringLiteral("none");
        QTest::newRow("0.05 ms reaches the floor")
            << 1.0 << 0.05 << 0.0 << 0.0 << 0.0 << QStringLiteral("prelaunch");
        QTest::newRow("0.099 ms is under 1 % of 10 ms")
            << 10.0 << 0.099 << 0.0 << 0.0 << 0.0 << QStringLiteral("none");
        QTest::newRow("0.101 ms is over 1 % of 10 ms")
            << 10.0 << 0.101 << 0.0 << 0.0 << 0.0 << QStringLiteral("prelaunch");
        QTest::newRow("second at 0.8 of the largest is mixed")
            << 10.0 << 1.0 << 0.8 << 0.0 << 0.0 << QStringLiteral("mixed");
        QTest::newRow("second at 0.79 of the largest is not")
            << 10.0 << 1.0 << 0.79 << 0.0 << 0.0 << QStringLiteral("prelaunch");
        QTest::newRow("tail") << 10.0 << 0.2 << 1.0 << 0.0 << 0.0 << QStringLiteral("tail");
        QTest::newRow("internal bubbles")
            << 10.0 << 0.2 << 0.0 << 1.0 << 0.0 << QStringLiteral("internal_bubble");
        QTest::newRow("inter-step idle") << 10.0 << 0.2 << 0.0 << 0.0 << 4.0 << QStringLiteral("inter_step");
    }
    void dominantIdlePatternIsNoneMixedOrTheLargest() {
        QFETCH(double, service);
        QFETCH(double, prelaunch);
        QFETCH(double, tail);
        QFETCH(double, internal);
        QFETCH(double, interStep);
        QFETCH(QString, pattern);
        // Two steps without kernels (one template); their metrics are set by hand.
        bs::Profile p;
        bs::StepSet set;
        std::vector<bs::StepMetrics> metrics;
        for (int i = 0; i < 2; ++i) {
            bs::Step s;
            s.number = i + 1;
            s.start = at(i * (service + interStep) * 1000);
            s.end = s.start + us(service * 1000);
            set.steps.push_back(s);
            bs::StepMetrics m;
            m.stepId = s.number;
            m.windowStart = s.start;
            m.windowEnd = s.end;
            m.service = s.service();
            m.prelaunchGap = us(prelaunch * 1000);
            m.tailGap = us(tail * 1000);
            m.internalBubbleTotal = us(internal * 1000);
            metrics.push_back(m);
        }
        const auto groups = bs::groupSteps(p, set, metrics, bs::Rulebook{});
        QCOMPARE(groups.size(), std::size_t(1));
        QCOMPARE(groups[0].interStep.avg, interStep / 2);
        QCOMPARE(QString::fromStdString(groups[0].dominantIdlePattern), pattern);
    }
};

QTEST_APPLESS_MAIN(TstRulesTagsAndGroups)
#include "tst_rules_tags_and_groups.moc"
