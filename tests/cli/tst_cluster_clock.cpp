// ANALYSIS.md §13.1–13.3 on hand-made rank summaries: one clock from the collectives' ends (median, spread,
// chaining), who arrives last (the uncertainty and corroboration boundaries), the cost threshold at its
// boundary, and the cause's terms, ops and windows. Every expected value is computed here by hand.
#include "cluster/cluster_analysis.h"
#include "cluster/cluster_report.h"
#include "i18n/message.h"

#include <QTest>

#include <string>
#include <vector>

namespace {

using bs::TimeNs;

constexpr TimeNs kBase = 1'700'000'000'000'000'000; // an absolute time (2023)

bs::RankSummary rank(int id, TimeNs service = 40'000'000) {
    bs::RankSummary r;
    r.label = "r" + std::to_string(id);
    r.rankId = id;
    r.hasCommunicationJson = true;
    bs::RankStepRow row;
    row.step = 1;
    row.service = service;
    row.computing = service / 2;
    row.preparing = 1'000'000;
    row.start = kBase;
    r.steps.push_back(row);
    return r;
}

bs::RankCollective op(const std::string& key, TimeNs start, TimeNs elapse, TimeNs sync = 0) {
    bs::RankCollective c;
    c.key = key;
    c.step = 1;
    c.start = start;
    c.elapse = elapse;
    c.sync = sync;
    c.wait = sync;
    return c;
}

// Four ranks at one collective x, rank 3 last: ranks 0, 1, 2 arrive 1, 2 and 6 ms before it (their
// synchronization), x ends for all at 30 ms. `replayed[i]`: rank i's gain of its wait alone; a rank with a gain
// of 0 or more also has it as its step's all-at-once figure (x is its only wait).
std::vector<bs::RankSummary> lateAtX(const TimeNs (&replayed)[4]) {
    std::vector<bs::RankSummary> ranks{rank(0), rank(1), rank(2), rank(3)};
    const TimeNs gaps[] = {1'000'000, 2'000'000, 6'000'000, 0};
    const TimeNs end = kBase + 30'000'000;
    for (std::size_t i = 0; i < 4; ++i) {
        const TimeNs start = kBase + 20'000'000 - gaps[i];
        bs::RankCollective x = op("x", start, end - start, gaps[i]);
        x.gain = replayed[i];
        ranks[i].collectives.push_back(x);
        if (i < 3 && replayed[i] >= 0) ranks[i].steps[0].waitsGain = replayed[i], ranks[i].steps[0].waitsReplayed = 1;
    }
    return ranks;
}

bs::RankWindow window(const std::string& id, const std::string& scope, TimeNs start, TimeNs dur,
                      std::vector<std::string> labels = {}) {
    bs::RankWindow w;
    w.id = id, w.scope = scope, w.step = "1", w.start = start, w.dur = dur, w.labels = std::move(labels);
    return w;
}

const bs::ClusterCollective* find(const bs::ClusterResult& c, const std::string& key) {
    for (const auto& x : c.collectives)
        if (x.key == key) return &x;
    return nullptr;
}

bool hasFinding(const bs::ClusterResult& c, const std::string& id) {
    for (const auto& f : c.findings)
        if (f.id == id) return true;
    return false;
}

} // namespace

class TstClusterClock : public QObject {
    Q_OBJECT
  private slots:
    // Offsets: the median of end(r) − end(ref) over shared collectives; the spread their median absolute
    // deviation. Rank 1: differences 7, 9, 9, 30 µs → median 9, deviations 2, 0, 0, 21 → spread 1 µs.
    void theOffsetIsTheMedianOfTheEndDifferences() {
        std::vector<bs::RankSummary> ranks{rank(0), rank(1)};
        const TimeNs diffs[] = {7'000, 9'000, 9'000, 30'000};
        for (int k = 0; k < 4; ++k) {
            const TimeNs s = kBase + k * 10'000'000;
            ranks[0].collectives.push_back(op("c" + std::to_string(k), s, 1'000'000));
            // Rank 1 starts with rank 0 (on the true clock) and its clock reads diffs[k] later at the end.
            ranks[1].collectives.push_back(op("c" + std::to_string(k), s + diffs[k], 1'000'000));
        }
        const bs::ClusterResult c = bs::analyzeCluster(std::move(ranks), {});
        QCOMPARE(c.clockOffsets.size(), std::size_t(2));
        QCOMPARE(c.clockOffsets[0].offset, TimeNs(0));
        QCOMPARE(c.clockOffsets[0].reference, 0);
        QCOMPARE(c.clockOffsets[1].offset, TimeNs(9'000));
        QCOMPARE(c.clockOffsets[1].spread, TimeNs(1'000));
        QCOMPARE(c.clockOffsets[1].collectives, std::size_t(4));
        QCOMPARE(c.clockOffsets[1].reference, 0);
        QCOMPARE(c.clockOffsets[1].via, -1);
        // Aligned arrival = start − offset.
        const auto* c3 = find(c, "c3");
        QVERIFY(c3);
        for (const auto& p : c3->parts)
            QCOMPARE(p.aligned, p.start - c.clockOffsets[static_cast<std::size_t>(p.rank)].offset);
    }

    // Rank 2 shares no collective with rank 0 (the reference, lowest id): its offset chains through rank 1.
    // Clocks: rank 1 reads +4 ms, rank 2 reads −3 ms against rank 0.
    void anOffsetChainsThroughASharedRankAndLargeOnesAreNamed() {
        std::vector<bs::RankSummary> ranks{rank(2), rank(0), rank(1)}; // discovery order is not the id order
        ranks[1].collectives.push_back(op("a", kBase, 1'000'000));
        ranks[2].collectives.push_back(op("a", kBase + 4'000'000, 1'000'000));
        ranks[2].collectives.push_back(op("b", kBase + 20'000'000 + 4'000'000, 1'000'000));
        ranks[0].collectives.push_back(op("b", kBase + 20'000'000 - 3'000'000, 1'000'000));
        const bs::ClusterResult c = bs::analyzeCluster(std::move(ranks), {});
        QCOMPARE(c.clockOffsets[1].reference, 1); // rank id 0 is the reference
        QCOMPARE(c.clockOffsets[2].offset, TimeNs(4'000'000));
        QCOMPARE(c.clockOffsets[0].offset, TimeNs(-3'000'000));
        QCOMPARE(c.clockOffsets[0].via, 2); // through rank id 1 (index 2)
        QCOMPARE(c.clockOffsets[0].reference, 1);
        // Both offsets exceed 1 ms: named as different hosts' clocks; 1 ms itself is not (see the boundary test).
        std::size_t named = 0;
        for (const auto& f : c.findings)
            named += f.id == "clock_offset" ? 1 : 0;
        QCOMPARE(named, std::size_t(2));
    }

    void theOffsetFindingStartsAboveOneMillisecond_data() {
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<bool>("named");
        QTest::newRow("1 ms - 1 ns") << qint64(999'999) << false;
        QTest::newRow("1 ms") << qint64(1'000'000) << false;
        QTest::newRow("1 ms + 1 ns") << qint64(1'000'001) << true;
        QTest::newRow("-1 ms - 1 ns") << qint64(-1'000'001) << true;
    }
    void theOffsetFindingStartsAboveOneMillisecond() {
        QFETCH(qint64, offset);
        QFETCH(bool, named);
        std::vector<bs::RankSummary> ranks{rank(0), rank(1)};
        ranks[0].collectives.push_back(op("a", kBase, 1'000'000));
        ranks[1].collectives.push_back(op("a", kBase + offset, 1'000'000));
        const bs::ClusterResult c = bs::analyzeCluster(std::move(ranks), {});
        QCOMPARE(c.clockOffsets[1].offset, TimeNs(offset));
        QCOMPARE(hasFinding(c, "clock_offset"), named);
    }

    // The spread finding: ends that disagree by more than 50 µs. Differences 0, s, 2s → median s, MAD s.
    void theSpreadFindingStartsAboveFiftyMicroseconds_data() {
        QTest::addColumn<qint64>("spread");
        QTest::addColumn<bool>("named");
        QTest::newRow("50 us - 1 ns") << qint64(49'999) << false;
        QTest::newRow("50 us") << qint64(50'000) << false;
        QTest::newRow("50 us + 1 ns") << qint64(50'001) << true;
    }
    void theSpreadFindingStartsAboveFiftyMicroseconds() {
        QFETCH(qint64, spread);
        QFETCH(bool, named);
        std::vector<bs::RankSummary> ranks{rank(0), rank(1)};
        for (int k = 0; k < 3; ++k) {
            const TimeNs s = kBase + k * 10'000'000;
            ranks[0].collectives.push_back(op("c" + std::to_string(k), s, 1'000'000));
            ranks[1].collectives.push_back(op("c" + std::to_string(k), s + k * spread, 1'000'000));
        }
        const bs::ClusterResult c = bs::analyzeCluster(std::move(ranks), {});
        QCOMPARE(c.clockOffsets[1].spread, TimeNs(spread));
        QCOMPARE(hasFinding(c, "clock_spread"), named);
    }

    // §13.2: a gap between the two latest arrivals within max(1 µs, the clocks' spread) names nobody.
    void aLastArriverNeedsAGapAboveTheClockUncertainty_data() {
        QTest::addColumn<qint64>("gap");
        QTest::addColumn<qint64>("spread");
        QTest::addColumn<bool>("named");
        QTest::addColumn<int>("late"); // the rank that arrives last at "x"
        QTest::newRow("floor: 1 us - 1 ns") << qint64(999) << qint64(0) << false << 1;
        QTest::newRow("floor: 1 us") << qint64(1'000) << qint64(0) << false << 1;
        QTest::newRow("floor: 1 us + 1 ns") << qint64(1'001) << qint64(0) << true << 1;
        QTest::newRow("spread: 10 us") << qint64(10'000) << qint64(10'000) << false << 1;
        QTest::newRow("spread: 10 us + 1 ns") << qint64(10'001) << qint64(10'000) << true << 1;
        // The reference (spread 0) arrives last: the uncertainty is the other one's spread.
        QTest::newRow("second's spread: 10 us") << qint64(10'000) << qint64(10'000) << false << 0;
        QTest::newRow("second's spread: 10 us + 1 ns") << qint64(10'001) << qint64(10'000) << true << 0;
    }
    void aLastArriverNeedsAGapAboveTheClockUncertainty() {
        QFETCH(qint64, gap);
        QFETCH(qint64, spread);
        QFETCH(bool, named);
        QFETCH(int, late);
        // Rank 1's clock reads +10 µs. End differences offset−spread, offset−spread, offset+spread,
        // offset+spread: median offset, MAD spread. Collective "x" (the last) has rank 1 arrive `gap` after
        // rank 0 on the aligned clock, with its end difference offset+spread.
        const TimeNs offset = 10'000;
        std::vector<bs::RankSummary> ranks{rank(0), rank(1)};
        const TimeNs d[] = {offset - spread, offset - spread, offset + spread};
        for (int k = 0; k < 3; ++k) {
            const TimeNs s = kBase + k * 10'000'000;
            ranks[0].collectives.push_back(op("c" + std::to_string(k), s, 1'000'000));
            ranks[1].collectives.push_back(op("c" + std::to_string(k), s + d[k], 1'000'000));
        }
        const TimeNs s = kBase + 50'000'000;
        if (late == 1) {
            ranks[0].collectives.push_back(op("x", s, 1'000'000, gap));
            ranks[1].collectives.push_back(op("x", s + offset + gap, 1'000'000 + spread - gap));
        } else { // rank 0 arrives `gap` after rank 1 (aligned); the end difference is still offset + spread
            ranks[0].collectives.push_back(op("x", s + gap, 1'000'000));
            ranks[1].collectives.push_back(op("x", s + offset, 1'000'000 + gap + spread, gap));
        }
        const bs::ClusterResult c = bs::analyzeCluster(std::move(ranks), {});
        QCOMPARE(c.clockOffsets[1].offset, offset);
        QCOMPARE(c.clockOffsets[1].spread, spread);
        const auto* x = find(c, "x");
        QVERIFY(x);
        QCOMPARE(x->lateness, TimeNs(gap));
        QCOMPARE(x->lastArriver, named ? late : -1);
        QCOMPARE(x->confidence, std::string(named ? "high" : "undetermined"));
    }

    // Corroboration: the early rank's synchronization within max(50 µs, 10 % of its gap) of the gap.
    void confidenceIsHighWhenTheEarlyRanksSynchronizationAgrees_data() {
        QTest::addColumn<qint64>("gap");
        QTest::addColumn<qint64>("sync");
        QTest::addColumn<QString>("confidence");
        QTest::newRow("10 %: 200 us off") << qint64(2'000'000) << qint64(1'800'000) << QStringLiteral("high");
        QTest::newRow("10 %: 200 us + 1 ns off") << qint64(2'000'000) << qint64(1'799'999) << QStringLiteral("medium");
        QTest::newRow("10 %: above") << qint64(2'000'000) << qint64(2'200'000) << QStringLiteral("high");
        QTest::newRow("10 %: above + 1 ns") << qint64(2'000'000) << qint64(2'200'001) << QStringLiteral("medium");
        QTest::newRow("floor: 50 us off") << qint64(300'000) << qint64(250'000) << QStringLiteral("high");
        QTest::newRow("floor: 50 us + 1 ns off") << qint64(300'000) << qint64(249'999) << QStringLiteral("medium");
        // The smallest wait never decides: here the late rank reports the longer wait, and is still last.
        QTest::newRow("no sync written") << qint64(2'000'000) << qint64(0) << QStringLiteral("medium");
    }
    void confidenceIsHighWhenTheEarlyRanksSynchronizationAgrees() {
        QFETCH(qint64, gap);
        QFETCH(qint64, sync);
        QFETCH(QString, confidence);
        std::vector<bs::RankSummary> ranks{rank(0), rank(1)};
        const TimeNs end = kBase + 10'000'000;
        ranks[0].collectives.push_back(op("x", kBase, end - kBase, sync));
        auto late = op("x", kBase + gap, end - kBase - gap, 0);
        late.wait = 5'000'000; // a long wait reported by the late rank itself
        ranks[1].collectives.push_back(late);
        const bs::ClusterResult c = bs::analyzeCluster(std::move(ranks), {});
        const auto* x = find(c, "x");
        QVERIFY(x);
        QCOMPARE(x->lastArriver, 1);
        QCOMPARE(x->confidence, confidence.toStdString());
        QCOMPARE(x->earliestSync, TimeNs(sync));
    }

    // §13.3: named slow when the cost ≥ max(0.1 ms, 0.5 % of the step's median service). Three ranks, rank 2
    // arrives `late` after the other two (who arrive together): each waits `late`, the median is `late`.
    void slowWhenTheCostReachesMaxOfATenthOfAMillisecondAndHalfAPercent_data() {
        QTest::addColumn<qint64>("service");
        QTest::addColumn<qint64>("late");
        QTest::addColumn<bool>("slow");
        QTest::newRow("0.1 ms - 1 ns") << qint64(10'000'000) << qint64(99'999) << false;
        QTest::newRow("0.1 ms") << qint64(10'000'000) << qint64(100'000) << true;
        QTest::newRow("0.1 ms + 1 ns") << qint64(10'000'000) << qint64(100'001) << true;
        QTest::newRow("0.5 % - 1 ns") << qint64(60'000'000) << qint64(299'999) << false;
        QTest::newRow("0.5 %") << qint64(60'000'000) << qint64(300'000) << true;
        QTest::newRow("0.5 % + 1 ns") << qint64(60'000'000) << qint64(300'001) << true;
    }
    void slowWhenTheCostReachesMaxOfATenthOfAMillisecondAndHalfAPercent() {
        QFETCH(qint64, service);
        QFETCH(qint64, late);
        QFETCH(bool, slow);
        std::vector<bs::RankSummary> ranks{rank(0, service), rank(1, service), rank(2, service)};
        const TimeNs end = kBase + 5'000'000;
        for (int i = 0; i < 3; ++i) {
            const TimeNs start = kBase + 1'000'000 + (i == 2 ? late : 0);
            ranks[static_cast<std::size_t>(i)].collectives.push_back(op("x", start, end - start, i == 2 ? 0 : late));
        }
        const bs::ClusterResult c = bs::analyzeCluster(std::move(ranks), {});
        QCOMPARE(c.stepCost.at(0).at(2), TimeNs(late));
        QCOMPARE(c.slowRanks.size(), std::size_t(slow ? 1 : 0));
        if (!slow) {
            QVERIFY2(bs::english(bs::clusterVerdicts(c).front()).rfind("No rank is slow", 0) == 0,
                     bs::english(bs::clusterVerdicts(c).front()).c_str());
            return;
        }
        const bs::SlowRank& s = c.slowRanks.front();
        QCOMPARE(s.rank, 2);
        QCOMPARE(s.cost, TimeNs(late));
        QCOMPARE(s.clusterLoss, TimeNs(2 * late)); // two ranks wait
        QCOMPARE(s.ranksWaiting, std::size_t(2));
        QCOMPARE(s.steps, std::vector<std::int64_t>{1});
        QCOMPARE(s.stepsCompared, std::size_t(1));
    }

    // A metric that spreads but costs nobody a wait: an imbalance finding, not a slow rank. Rank 2's
    // prelaunch 8 ms against 5 ms (spread 3 / 6 = 50 %); all three arrive together.
    void aSpreadNobodyWaitsForIsAnImbalance() {
        std::vector<bs::RankSummary> ranks{rank(0), rank(1), rank(2)};
        ranks[2].steps[0].preparing = 8'000'000;
        ranks[0].steps[0].preparing = ranks[1].steps[0].preparing = 5'000'000;
        for (auto& r : ranks)
            r.collectives.push_back(op("x", kBase + 9'000'000, 1'000'000));
        const bs::ClusterResult c = bs::analyzeCluster(std::move(ranks), {});
        QVERIFY(c.slowRanks.empty());
        QCOMPARE(c.collectives.at(0).lastArriver, -1);
        std::size_t imbalance = 0;
        for (const auto& f : c.findings)
            if (f.id == "imbalance") {
                ++imbalance;
                const std::string m = bs::english(f.message);
                QVERIFY2(m.find("the prelaunch time of the ranks") != std::string::npos && m.find("rank 2 at 8.00 ms") != std::string::npos &&
                             m.find("50.0 %") != std::string::npos,
                         m.c_str());
            }
        QCOMPARE(imbalance, std::size_t(1));
        QVERIFY(bs::english(bs::clusterVerdicts(c).front()).rfind("No rank is slow", 0) == 0);
    }

    // High confidence needs at least half of the other ranks to agree: with two others, one is enough.
    void halfOfTheOthersAgreeingIsHighConfidence() {
        std::vector<bs::RankSummary> ranks{rank(0), rank(1), rank(2)};
        const TimeNs end = kBase + 10'000'000, late = 2'000'000;
        ranks[0].collectives.push_back(op("x", kBase, end - kBase, late)); // agrees
        ranks[1].collectives.push_back(op("x", kBase, end - kBase, 0));    // does not
        ranks[2].collectives.push_back(op("x", kBase + late, end - kBase - late));
        const bs::ClusterResult c = bs::analyzeCluster(std::move(ranks), {});
        QCOMPARE(c.collectives.at(0).lastArriver, 2);
        QCOMPARE(c.collectives.at(0).corroborating, std::size_t(1));
        QCOMPARE(c.collectives.at(0).others, std::size_t(2));
        QCOMPARE(c.collectives.at(0).confidence, std::string("high"));
    }

    // With an even number of other ranks the median rank is the lower middle by service: of four others with
    // services 40, 41, 42, 43 ms, rank 1 (41 ms), whose prelaunch is 1 ms (rank 2's is 1.5 ms).
    void theMedianRankIsTheLowerMiddleByService() {
        std::vector<bs::RankSummary> ranks{rank(0, 40'000'000), rank(1, 41'000'000), rank(2, 42'000'000),
                                           rank(3, 43'000'000), rank(4, 44'000'000)};
        ranks[2].steps[0].preparing = 1'500'000;
        ranks[4].steps[0].preparing = 3'000'000;
        const TimeNs end = kBase + 30'000'000;
        for (int i = 0; i < 5; ++i) {
            const TimeNs start = kBase + 20'000'000 + (i == 4 ? 2'000'000 : 0);
            ranks[static_cast<std::size_t>(i)].collectives.push_back(op("x", start, end - start, i == 4 ? 0 : 2'000'000));
        }
        const bs::ClusterResult c = bs::analyzeCluster(std::move(ranks), {});
        QCOMPARE(c.slowRanks.size(), std::size_t(1));
        QCOMPARE(c.slowRanks[0].rank, 4);
        QCOMPARE(c.slowRanks[0].cause.prelaunch, TimeNs(2'000'000)); // 3 ms − rank 1's 1 ms
    }

    // The imbalance rule is msprof-analyze's: (max − min) / mean > 5 %. Two ranks' prelaunch 39 and 41 ms spread
    // by exactly 2 / 40 = 5 %.
    void anImbalanceNeedsASpreadAboveFivePercent_data() {
        QTest::addColumn<qint64>("high");
        QTest::addColumn<bool>("named");
        QTest::newRow("5 %") << qint64(41'000'000) << false;
        QTest::newRow("5 % + 1 ns") << qint64(41'000'001) << true;
    }
    void anImbalanceNeedsASpreadAboveFivePercent() {
        QFETCH(qint64, high);
        QFETCH(bool, named);
        std::vector<bs::RankSummary> ranks{rank(0), rank(1)};
        ranks[0].steps[0].preparing = 39'000'000;
        ranks[1].steps[0].preparing = high;
        const bs::ClusterResult c = bs::analyzeCluster(std::move(ranks), {});
        QCOMPARE(hasFinding(c, "imbalance"), named);
    }

    // The cause against the step's median rank (by service, the lower middle of the others): the terms add up
    // to the lateness; computing names the op that took longer; windows the median rank has at the same
    // size are never cited, a shorter one (≥ 5 %) is.
    void theCauseAddsUpAndNamesTheOpAndTheWindows() {
        // Ranks 0, 1, 3 arrive together; rank 2 is 3 ms late: step start +0.5 ms (aligned), prelaunch +1 ms,
        // computing +1.2 ms, idle +0.3 ms before the collective. Every rank's clock reads i ms more than rank
        // 0's (all its absolute times move), so raw step starts would give the wrong step-start term.
        std::vector<bs::RankSummary> ranks{rank(0, 40'000'000), rank(1, 41'000'000), rank(2, 43'000'000),
                                           rank(3, 42'000'000)};
        const TimeNs arrive = kBase + 20'000'000, end = kBase + 25'000'000;
        for (int i = 0; i < 4; ++i) {
            auto& r = ranks[static_cast<std::size_t>(i)];
            const TimeNs clock = i * 1'000'000;
            auto o = op("hcom_allReduce__1_0_1", arrive + (i == 2 ? 3'000'000 : 0), 0, i == 2 ? 0 : 3'000'000);
            o.elapse = end - o.start;
            o.start += clock;
            o.beforeComputing = i == 2 ? 11'200'000 : 10'000'000;
            o.beforeFree = i == 2 ? 2'300'000 : 2'000'000;
            o.beforeExposed = i == 2 ? 700'000 : 1'000'000; // less exposed communication is never a cause
            r.collectives.push_back(o);
            r.steps[0].start = kBase + (i == 2 ? 500'000 : 0) + clock;
            r.steps[0].preparing = i == 2 ? 2'000'000 : 1'000'000;
            r.steps[0].ops = {{"MatMulV2", static_cast<std::uint32_t>(i == 2 ? 13 : 12), i == 2 ? 13'200'000 : 12'000'000},
                              {"Add", 40, 800'000}};
            bs::RankWindow pre = window("b0001", "prelaunch", r.steps[0].start, r.steps[0].preparing, {"possible_sync_or_h2d"});
            pre.before = "(step start)", pre.after = "MatMulV2", pre.userLine = "main.py:350 train";
            // The same internal window on every rank (2 ms), and one rank 2 has 5 % longer than the median rank.
            bs::RankWindow same = window("b0002", "step_internal", kBase + 5'000'000 + clock, 2'000'000);
            same.before = "Add", same.after = "MatMulV2";
            bs::RankWindow longer = window("b0003", "step_internal", kBase + 8'000'000 + clock, i == 2 ? 2'000'000 : 1'900'000);
            longer.before = "MatMulV2", longer.after = "Add", longer.occurrence = 1;
            r.steps[0].windows = {pre, same, longer};
            if (i == 2) { // a window after its arrival: not part of why it was late
                bs::RankWindow after = window("b0004", "step_internal", o.start + 4'000'000, 5'000'000);
                after.before = "hcom_allReduce__1_0_1", after.after = "Add";
                r.steps[0].windows.push_back(after);
            }
        }
        const bs::ClusterResult c = bs::analyzeCluster(std::move(ranks), {});
        for (int i = 0; i < 4; ++i)
            QCOMPARE(c.clockOffsets[static_cast<std::size_t>(i)].offset, TimeNs(i * 1'000'000));
        QCOMPARE(c.slowRanks.size(), std::size_t(1));
        const bs::SlowRank& s = c.slowRanks.front();
        QCOMPARE(s.rank, 2);
        // The median rank of ranks 0, 1, 3 by service (40, 41, 42 ms) is rank 1.
        const bs::SlowCause& k = s.cause;
        QCOMPARE(k.lateness, TimeNs(3'000'000));
        QCOMPARE(k.stepStart, TimeNs(500'000));
        QCOMPARE(k.prelaunch, TimeNs(1'000'000));
        QCOMPARE(k.computing, TimeNs(1'200'000));
        QCOMPARE(k.free, TimeNs(300'000));
        QCOMPARE(k.commExposed, TimeNs(-300'000));
        QCOMPARE(k.rest, TimeNs(300'000));
        QCOMPARE(k.lead, std::string("computing"));
        QCOMPARE(k.ops.size(), std::size_t(1)); // Add took no longer
        QCOMPARE(k.ops[0].name, std::string("MatMulV2"));
        QCOMPARE(k.ops[0].callsMedian, 12.0);
        QCOMPARE(k.ops[0].callsRank, 13.0);
        QCOMPARE(k.ops[0].delta, TimeNs(1'200'000));
        // b0001 (2 ms vs 1 ms) and b0003 (2 ms vs 1.9 ms: exactly 5 % shorter) are cited; b0002 (the same size)
        // and b0004 (after the arrival) are not.
        QCOMPARE(k.windows.size(), std::size_t(2));
        QCOMPARE(k.windows[0].id, std::string("b0001"));
        QCOMPARE(k.windows[0].medianDur, TimeNs(1'000'000));
        QCOMPARE(k.windows[0].userLine, std::string("main.py:350 train"));
        QCOMPARE(k.windows[1].id, std::string("b0003"));
        QCOMPARE(s.cost, TimeNs(3'000'000));
        QCOMPARE(s.clusterLoss, TimeNs(9'000'000));
        // Its computing and prelaunch spread, but it is the slow rank there: no imbalance finding besides it.
        QVERIFY(!hasFinding(c, "imbalance"));
        const std::string v = bs::english(s.verdict);
        QVERIFY2(v == "rank 2 is slow in 1 of 1 steps: it arrives 3.00 ms late at hcom_allReduce__1_0_1 and 3 ranks wait "
                      "3.00 ms each (9.00 ms of device time per step). Cause: computing +1.20 ms before the collective — "
                      "MatMulV2: 1 call more, +1.200 ms. If it arrived on time: no predicted gain: the waiting "
                      "ranks' collectives are not in their traces, so their waits could not be replayed.",
                 v.c_str());
        QVERIFY(!s.predicted);
    }

    // §15 for §13.3 (core/cluster/README.md): rank 3 arrives last at x; ranks 0, 1, 2 waited 1, 2 and 6 ms (their
    // synchronization). Each one's replay of its step without that wait (its only one: the all-at-once figure)
    // gives 0.8, 2.5 and 5 ms; a rank never saves more than it waited for the late rank, so rank 1 counts 2 ms.
    // Median 2 ms per step (5 % of the 40 ms service), sum 7.8 ms. The replay error is the worst of theirs: rank
    // 2's is `error` ns of 40 ms, low confidence above 2 % (800 000 ns) only.
    void theArrivalGainIsTheMedianOfTheWaitingRanksReplays_data() {
        QTest::addColumn<qint64>("error");
        QTest::addColumn<bool>("low");
        QTest::newRow("2 % - 1 ns") << qint64(799'999) << false;
        QTest::newRow("2 %") << qint64(800'000) << false;
        QTest::newRow("2 % + 1 ns") << qint64(800'001) << true;
    }
    void theArrivalGainIsTheMedianOfTheWaitingRanksReplays() {
        QFETCH(qint64, error);
        QFETCH(bool, low);
        std::vector<bs::RankSummary> ranks = lateAtX({800'000, 2'500'000, 5'000'000, bs::kGainNotReplayed});
        ranks[2].steps[0].replayError = error;
        const bs::ClusterResult c = bs::analyzeCluster(std::move(ranks), {});
        QCOMPARE(c.slowRanks.size(), std::size_t(1));
        const bs::SlowRank& s = c.slowRanks[0];
        QVERIFY(s.predicted);
        QCOMPARE(s.predictedGain, TimeNs(2'000'000));
        QCOMPARE(s.predictedLoss, TimeNs(7'800'000));
        QCOMPARE(s.predictedGainPct, 5.0);
        QCOMPARE(s.ranksPredicted, std::size_t(3));
        QCOMPARE(s.replayErrorPct, 100.0 * static_cast<double>(error) / 40'000'000.0);
        QCOMPARE(s.lowConfidence, low);
        const std::string v = bs::english(s.prediction);
        QVERIFY2(v.rfind("If it arrived on time, the median of the 3 ranks waiting for it: expected gain ≈ 2.00 ms per "
                         "step (5.0 % of service), replayed; replay error 2.0 %", 0) == 0,
                 v.c_str());
        QCOMPARE(v.find("low confidence") != std::string::npos, low);
        QVERIFY2(v.find("(7.80 ms of device time in the cluster per step).") != std::string::npos, v.c_str());
        // 2 ms is not less than half of the 2 ms they wait (the cost): no word about where the wait goes.
        QVERIFY2(v.find("less than their wait") == std::string::npos, v.c_str());
        QVERIFY(bs::english(s.verdict).find(v) != std::string::npos);
    }

    // One waiting rank's wait not replayed (its kernel not in its trace): the median over the other two (0.8 and
    // 2 ms: 1.4 ms), and the verdict says it speaks of 2 of the 3 ranks waiting.
    void aWaitingRankWithoutReplayIsLeftOutAndSaidSo() {
        std::vector<bs::RankSummary> ranks =
            lateAtX({800'000, 2'500'000, bs::kGainNotReplayed, bs::kGainNotReplayed});
        const bs::ClusterResult c = bs::analyzeCluster(std::move(ranks), {});
        QCOMPARE(c.slowRanks.size(), std::size_t(1));
        const bs::SlowRank& s = c.slowRanks[0];
        QVERIFY(s.predicted);
        QCOMPARE(s.predictedGain, TimeNs(1'400'000));
        QCOMPARE(s.predictedLoss, TimeNs(2'800'000));
        QCOMPARE(s.ranksPredicted, std::size_t(2));
        QCOMPARE(s.ranksWaitingAll, std::size_t(3));
        const std::string v = bs::english(s.prediction);
        QVERIFY2(v.rfind("If it arrived on time, the median of the 2 of 3 ranks waiting for it whose waits could be "
                         "replayed: expected gain ≈ 1.40 ms per step",
                         0) == 0,
                 v.c_str());
    }

    // A waiting rank that also waited at another collective of the step (for nobody named late): the step's
    // all-at-once replay removes both waits, so the late rank is worth the gain of its own wait replayed alone,
    // capped by the all-at-once figure. Rank 0 waits 2 ms for rank 1 at x (alone: 1.5 ms) and at y, which only it
    // has; both together 3.5 ms. Rank 0 gains 1.5 ms — not min(3.5, 2) = 2 — and never more than the gap (2 ms) or
    // the all-at-once figure. When x's wait was only replayed with
    // the others (kGainStepOnly), rank 0's gain is unknown and nothing is predicted. Half of the 2 ms cost is the
    // boundary of the sentence saying where the rest of the wait goes: 1 ms alone says nothing, 1 ms − 1 ns says it.
    void aWaitingRankWithOtherWaitsCountsTheLateRanksWaitAlone_data() {
        QTest::addColumn<qint64>("alone");
        QTest::addColumn<qint64>("allAtOnce");
        QTest::addColumn<qint64>("expected"); // -1: no prediction
        QTest::addColumn<bool>("lessSaid");
        QTest::newRow("alone 1.5 ms") << qint64(1'500'000) << qint64(3'500'000) << qint64(1'500'000) << false;
        QTest::newRow("alone 1 ms") << qint64(1'000'000) << qint64(3'500'000) << qint64(1'000'000) << false;
        QTest::newRow("alone 1 ms - 1 ns") << qint64(999'999) << qint64(3'500'000) << qint64(999'999) << true;
        QTest::newRow("alone above the gap") << qint64(4'000'000) << qint64(3'500'000) << qint64(2'000'000) << false;
        // A model that gains less with both waits gone than with one (never seen; the cap keeps the smaller).
        QTest::newRow("all-at-once = alone") << qint64(1'800'000) << qint64(1'800'000) << qint64(1'800'000) << false;
        QTest::newRow("all-at-once below alone")
            << qint64(1'800'000) << qint64(1'799'999) << qint64(1'799'999) << false;
        QTest::newRow("step only") << qint64(bs::kGainStepOnly) << qint64(3'500'000) << qint64(-1) << false;
    }
    void aWaitingRankWithOtherWaitsCountsTheLateRanksWaitAlone() {
        QFETCH(qint64, alone);
        QFETCH(qint64, allAtOnce);
        QFETCH(qint64, expected);
        QFETCH(bool, lessSaid);
        std::vector<bs::RankSummary> ranks{rank(0), rank(1)};
        const TimeNs end = kBase + 30'000'000;
        bs::RankCollective x0 = op("x", kBase + 18'000'000, end - (kBase + 18'000'000), 2'000'000);
        x0.gain = alone;
        bs::RankCollective y0 = op("y", kBase + 32'000'000, 3'000'000, 1'500'000);
        y0.gain = 1'500'000;
        ranks[0].collectives = {x0, y0};
        ranks[0].steps[0].waitsGain = allAtOnce, ranks[0].steps[0].waitsReplayed = 2;
        bs::RankCollective x1 = op("x", kBase + 20'000'000, end - (kBase + 20'000'000));
        x1.gain = 0;
        ranks[1].collectives = {x1};
        ranks[1].steps[0].waitsGain = 0;
        const bs::ClusterResult c = bs::analyzeCluster(std::move(ranks), {});
        QCOMPARE(c.slowRanks.size(), std::size_t(1));
        const bs::SlowRank& s = c.slowRanks[0];
        QCOMPARE(s.rank, 1);
        QCOMPARE(s.cost, TimeNs(2'000'000));
        QCOMPARE(s.predicted, expected >= 0);
        if (expected < 0) {
            QCOMPARE(bs::english(s.prediction), std::string("If it arrived on time: no predicted gain: the waiting ranks' "
                                                            "collectives are not in their traces, so their waits could "
                                                            "not be replayed."));
            return;
        }
        QCOMPARE(s.predictedGain, TimeNs(expected));
        QCOMPARE(s.predictedLoss, TimeNs(expected));
        QCOMPARE(s.ranksPredicted, std::size_t(1));
        const std::string v = bs::english(s.prediction);
        QVERIFY2(v.rfind("If it arrived on time, the rank waiting for it: expected gain ≈ ", 0) == 0, v.c_str());
        QCOMPARE(v.find("That is less than their wait") != std::string::npos, lessSaid);
    }

    // Nobody's synchronization written: no wait to remove, said so (not "not in the traces").
    void withoutSynchronizationThereIsNoWaitToRemove() {
        std::vector<bs::RankSummary> ranks{rank(0), rank(1)};
        const TimeNs end = kBase + 30'000'000;
        ranks[0].collectives = {op("x", kBase + 18'000'000, end - (kBase + 18'000'000))};
        ranks[1].collectives = {op("x", kBase + 20'000'000, end - (kBase + 20'000'000))};
        for (auto& r : ranks)
            r.collectives[0].gain = 0, r.steps[0].waitsGain = -1;
        const bs::ClusterResult c = bs::analyzeCluster(std::move(ranks), {});
        QCOMPARE(c.slowRanks.size(), std::size_t(1));
        QVERIFY(!c.slowRanks[0].predicted);
        QCOMPARE(bs::english(c.slowRanks[0].prediction),
                 std::string("If it arrived on time: no predicted gain: the waiting ranks' communication.json shows no "
                             "synchronization time, so there is no wait to remove."));
    }

    // The cost is the MEDIAN of the others' waits (not the largest or the first), the loss their sum. Rank 3
    // arrives last; ranks 0, 1, 2 arrived 1, 2 and 6 ms before it (median 2 ms, sum 9 ms).
    void theCostIsTheMedianOfTheOthersWaits() {
        std::vector<bs::RankSummary> ranks =
            lateAtX({bs::kGainNotReplayed, bs::kGainNotReplayed, bs::kGainNotReplayed, bs::kGainNotReplayed});
        const bs::ClusterResult c = bs::analyzeCluster(std::move(ranks), {});
        QCOMPARE(c.slowRanks.size(), std::size_t(1));
        QCOMPARE(c.slowRanks[0].rank, 3);
        QCOMPARE(c.slowRanks[0].cost, TimeNs(2'000'000));
        QCOMPARE(c.slowRanks[0].clusterLoss, TimeNs(9'000'000));
        QCOMPARE(c.slowRanks[0].lateness, TimeNs(6'000'000));
        QCOMPARE(c.collectives[0].confidence, std::string("high"));
    }

    // A window the median rank has only just under 5 % shorter (1 ns more than 95 %) is the same size: not cited.
    void aWindowUnderFivePercentShorterAtTheMedianRankIsNotCited() {
        std::vector<bs::RankSummary> ranks{rank(0), rank(1)};
        for (int i = 0; i < 2; ++i) {
            auto& r = ranks[static_cast<std::size_t>(i)];
            auto o = op("x", kBase + 20'000'000 + (i == 1 ? 2'000'000 : 0), 0, i == 1 ? 0 : 2'000'000);
            o.elapse = kBase + 25'000'000 - o.start;
            o.beforeFree = i == 1 ? 4'000'000 : 2'000'000;
            r.collectives.push_back(o);
            bs::RankWindow w = window("b0001", "step_internal", kBase + 3'000'000, i == 1 ? 2'000'000 : 1'900'001);
            w.before = "A", w.after = "B";
            r.steps[0].windows = {w};
        }
        const bs::ClusterResult c = bs::analyzeCluster(std::move(ranks), {});
        QCOMPARE(c.slowRanks.size(), std::size_t(1));
        QCOMPARE(c.slowRanks[0].cause.lead, std::string("free"));
        QVERIFY(c.slowRanks[0].cause.windows.empty());
    }
};

QTEST_GUILESS_MAIN(TstClusterClock)
#include "tst_cluster_clock.moc"
