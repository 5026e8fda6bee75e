// §15 acceptance (issue 47): on generated before/after pairs whose "after" leaves out exactly one cause (the same
// seed, every other timing the same), the gain the replay predicts from the before profile alone is within 10 %
// or 0.1 ms of the change in step service the after profile shows (both services measured by the analysis).
#include "test_support.h"
#include "cli_support.h"
#include "pipeline/analysis_run.h"
#include "cluster/cluster_analysis.h"
#include "cluster/cluster_model.h"
#include "analysis/rulebook.h"
#include "i18n/message.h"
#include "io/discovery.h"
#include "io/profile_loader.h"
#include "model/profile.h"
#include "replay/replay.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace {

struct Loaded {
    bs::LoadResult load;
    bs::AnalysisResult result;
    QJsonObject expected;
};

// Σ over steps of the measured service, ms.
double serviceSumMs(const bs::AnalysisResult& r) {
    double v = 0;
    for (const auto& m : r.metrics)
        v += static_cast<double>(m.service) / 1e6;
    return v;
}

bool within(double predicted, double achieved) {
    return std::abs(predicted - achieved) <= std::max(0.1, 0.10 * std::abs(achieved));
}

} // namespace

class TstReplayGains : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;

    QString generate(const QString& dir, const QStringList& args) {
        return bstest::generate(tmp.filePath(dir), args, QStringLiteral("g"));
    }
    static Loaded load(const QString& folder) {
        Loaded l;
        auto found = bs::discoverProfiles(bstest::s(folder));
        if (found.ranks.size() != 1) return l;
        l.load = bs::loadRank(found.ranks[0]);
        if (l.load.profile) l.result = bs::analyzeProfile(*l.load.profile);
        return l;
    }
    static const bs::Recommendation* withCause(const bs::AnalysisResult& r, const char* cause) {
        for (const auto& rec : r.anomaly.recommendations)
            if (rec.replayCause == cause && rec.replay) return &rec;
        return nullptr;
    }

  private slots:
    void initTestCase() { QVERIFY(tmp.isValid()); }

    // One pair per window cause: the recommendation whose cause it is predicts the change.
    void windowCausePredictsTheAchievedChange_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("leaveOut");
        QTest::addColumn<QString>("cause");    // the recommendation's replayCause
        QTest::addColumn<QString>("expected"); // the planted type in expected.json
        QTest::newRow("sync") << QStringList{"--anomalies", "sync"} << "sync" << "sync" << "sync_bubble";
        QTest::newRow("launch-lag") << QStringList{"--anomalies", "launch-lag"} << "launch-lag" << "launch_lag"
                                    << "host_launch_lag";
        QTest::newRow("untraced") << QStringList{"--anomalies", "untraced"} << "untraced" << "untraced"
                                  << "untraced_bubble";
        QTest::newRow("prelaunch") << QStringList{"--first-prelaunch", "3000"} << "prelaunch" << "sync"
                                   << "first_step_prelaunch";
    }
    void windowCausePredictsTheAchievedChange() {
        QFETCH(QStringList, args);
        QFETCH(QString, leaveOut);
        QFETCH(QString, cause);
        QFETCH(QString, expected);
        const QString tag = QString::fromLatin1(QTest::currentDataTag());
        const QString before = generate(tag + "-before", args);
        const QString after = generate(tag + "-after", args + QStringList{"--leave-out", leaveOut});
        QVERIFY(!before.isEmpty() && !after.isEmpty());
        const Loaded b = load(before), a = load(after);
        QVERIFY(b.load.profile && a.load.profile);
        QCOMPARE(b.result.metrics.size(), a.result.metrics.size());
        const double achieved = serviceSumMs(b.result) - serviceSumMs(a.result);
        // The generator's own figure for the planted step agrees with what the analysis measures.
        const QJsonObject ex = QJsonDocument::fromJson(bstest::readFile(before + "/expected.json")).object();
        double truth = -1;
        for (const auto& v : ex.value("anomalies").toArray())
            if (v.toObject().value("type").toString() == expected)
                truth = (v.toObject().value("step_service_ns").toDouble() -
                         v.toObject().value("step_service_without_ns").toDouble()) / 1e6;
        QVERIFY2(std::abs(truth - achieved) < 1e-6, qPrintable(QStringLiteral("expected.json %1 ms, analysis %2 ms")
                                                                   .arg(truth).arg(achieved)));
        const bs::Recommendation* rec = withCause(b.result, cause.toLatin1().constData());
        QVERIFY2(rec, "no recommendation with that cause and a prediction");
        const double predicted = rec->replay->gainMs * static_cast<double>(rec->replay->steps);
        qInfo("%s: achieved %.3f ms, predicted %.3f ms (%s; %zu of %zu steps edited), replay error %.3f %%",
              qPrintable(tag), achieved, predicted, bs::english(rec->replay->edit).c_str(), rec->replay->stepsEdited,
              rec->replay->steps, rec->replay->errorPct);
        QVERIFY(achieved > 0.2);
        QVERIFY2(within(predicted, achieved),
                 qPrintable(QStringLiteral("predicted %1 ms, achieved %2 ms").arg(predicted).arg(achieved)));
        QVERIFY(!rec->replay->lowConfidence);
    }

    // An op F times faster: the replay of the before profile against the generator's --op-speedup pair.
    void opSpeedupPredictsTheAchievedChange() {
        const QString op = QStringLiteral("aclnnMatmul_MatMulV3_MatMulV3");
        const QString before = generate("op-before", {});
        const QString after = generate("op-after", {"--op-speedup", op + "=2"});
        const Loaded b = load(before), a = load(after);
        QVERIFY(b.load.profile && a.load.profile);
        const bs::ReplayModel m(*b.load.profile, b.result.steps);
        bs::ReplayEdit e;
        e.kind = bs::ReplayEditKind::OpSpeedup;
        e.op = op.toStdString();
        e.factor = 2;
        double predicted = 0;
        for (std::size_t s = 0; s < m.stepCount(); ++s)
            predicted += static_cast<double>(m.replay(s).replayed - m.replay(s, {e}).replayed) / 1e6;
        const double achieved = serviceSumMs(b.result) - serviceSumMs(a.result);
        qInfo("op-speedup %s=2: achieved %.3f ms, predicted %.3f ms", qPrintable(op), achieved, predicted);
        QVERIFY(achieved > 1.0);
        QVERIFY2(within(predicted, achieved),
                 qPrintable(QStringLiteral("predicted %1 ms, achieved %2 ms").arg(predicted).arg(achieved)));
    }

    // A cluster straggler: the waiting rank's collective without its wait for the late rank, against the same
    // collection without the slow rank.
    void lateRankOnTimePredictsTheAchievedChange() {
        const QStringList args{"--ranks", "2", "--slow-rank", "1", "--slow-ms", "3"};
        const QString before = generate("cluster-before", args);
        const QString after = generate("cluster-after", args + QStringList{"--leave-out", "slow-rank"});
        const Loaded b = load(before + "/g_rank0_ascend_pt"), a = load(after + "/g_rank0_ascend_pt");
        QVERIFY(b.load.profile && a.load.profile);
        const bs::Profile& p = *b.load.profile;
        // The planted step (the second) and its first collective: rank 0 waited 3 ms there.
        const bs::Step& st = b.result.steps.steps.at(1);
        std::size_t first = SIZE_MAX;
        for (std::size_t i = 0; i < p.kernels.size(); ++i)
            if (p.kernels[i].start >= st.start && p.kernels[i].start < st.end && p.kernels[i].cls == bs::TaskClass::Comm) {
                first = i;
                break;
            }
        QVERIFY(first != SIZE_MAX);
        const bs::ReplayModel m(p, b.result.steps);
        bs::ReplayEdit e;
        e.kind = bs::ReplayEditKind::ShortenKernel;
        e.kernel = first;
        e.amount = 3000000;
        const double predicted = static_cast<double>(m.replay(1).replayed - m.replay(1, {e}).replayed) / 1e6;
        const double achieved = static_cast<double>(b.result.metrics[1].service - a.result.metrics[1].service) / 1e6;
        qInfo("slow rank on time (rank 0, step index 1): achieved %.3f ms, predicted %.3f ms", achieved, predicted);
        QVERIFY(achieved > 2.0);
        QVERIFY2(within(predicted, achieved),
                 qPrintable(QStringLiteral("predicted %1 ms, achieved %2 ms").arg(predicted).arg(achieved)));
    }

    // §15 for §13.3 through the cluster: the slow rank's verdict predicts, from the before collection alone, what
    // each waiting rank's step gains when it arrives on time (the median over them, per slow step); the after
    // collection (the same seed without the slow rank) shows the achieved change: per slow step the median over
    // those ranks of service before − after, averaged. Directly and through per-rank summaries (the job array's
    // way), which must give the same figure.
    void theSlowRanksPredictionMatchesTheClusterWithoutIt_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("4 ranks, host, one step") << QStringList{"--ranks", "4", "--slow-rank", "1", "--slow-ms", "3"};
        QTest::newRow("3 ranks, compute, every step")
            << QStringList{"--ranks", "3", "--slow-rank", "2", "--slow-ms", "2.5", "--slow-cause", "compute",
                           "--slow-step", "all"};
        QTest::newRow("2 ranks, skewed clocks") << QStringList{"--ranks", "2", "--slow-rank", "0", "--slow-ms", "2",
                                                               "--clock-skew-us", "1:2500"};
    }
    void theSlowRanksPredictionMatchesTheClusterWithoutIt() {
        QFETCH(QStringList, args);
        const QString tag = QString::fromLatin1(QTest::currentDataTag()).replace(QRegularExpression("[^a-z0-9]+"), "-");
        const QString before = generate("cl-before-" + tag, args);
        const QString after = generate("cl-after-" + tag, args + QStringList{"--leave-out", "slow-rank"});
        QVERIFY(!before.isEmpty() && !after.isEmpty());
        const bs::Rulebook rules;
        const bs::ClusterResult b = bs::analyzeClusterFolder(bstest::s(before), rules);
        const bs::ClusterResult a = bs::analyzeClusterFolder(bstest::s(after), rules);
        QCOMPARE(b.slowRanks.size(), std::size_t(1));
        QVERIFY(a.slowRanks.empty());
        const bs::SlowRank& sr = b.slowRanks.front();
        QVERIFY2(sr.predicted, bs::english(sr.replayMissing).c_str());
        QCOMPARE(sr.ranksPredicted, b.ranks.size() - 1);
        QVERIFY(!sr.lowConfidence);
        // Achieved: per slow step, the median over the other ranks of their service change.
        const auto serviceOf = [](const bs::ClusterResult& c, std::size_t rank, std::int64_t step) -> double {
            for (const auto& row : c.ranks[rank].steps)
                if (row.step == step) return static_cast<double>(row.service) / 1e6;
            return -1;
        };
        double achieved = 0;
        for (std::int64_t step : sr.steps) {
            std::vector<double> d;
            for (std::size_t r = 0; r < b.ranks.size(); ++r) {
                if (static_cast<int>(r) == sr.rank) continue;
                QCOMPARE(a.ranks[r].label, b.ranks[r].label);
                QVERIFY(serviceOf(b, r, step) > 0 && serviceOf(a, r, step) > 0);
                d.push_back(serviceOf(b, r, step) - serviceOf(a, r, step));
            }
            std::sort(d.begin(), d.end());
            achieved += d.size() % 2 ? d[d.size() / 2] : (d[d.size() / 2 - 1] + d[d.size() / 2]) / 2;
        }
        achieved /= static_cast<double>(sr.steps.size());
        const double predicted = static_cast<double>(sr.predictedGain) / 1e6;
        qInfo("%s: slow rank %d in %zu steps, achieved %.3f ms, predicted %.3f ms per slow step (%zu ranks waiting, "
              "replay error %.3f %%)",
              qPrintable(tag), b.ranks[static_cast<std::size_t>(sr.rank)].rankId, sr.steps.size(), achieved, predicted,
              sr.ranksPredicted, sr.replayErrorPct);
        QVERIFY(achieved > 1.0);
        QVERIFY2(within(predicted, achieved),
                 qPrintable(QStringLiteral("predicted %1 ms, achieved %2 ms").arg(predicted).arg(achieved)));
        // The same through the summaries: one `analyze --summary` per rank, then `cluster` on them.
        const QString sums = tmp.filePath("cl-sums-" + tag);
        for (std::size_t i = 0; i < b.ranks.size(); ++i)
            QCOMPARE(bstest::runBinary({"analyze", before, "--shard", QStringLiteral("%1/%2").arg(i).arg(b.ranks.size()),
                                "--summary", sums, "-q"}).code,
                     0);
        const QString json = tmp.filePath("cl-" + tag + ".json");
        QCOMPARE(bstest::runBinary({"cluster", sums, "-q", "--json", json}).code, 0);
        const QJsonObject doc = QJsonDocument::fromJson(bstest::readFile(json)).object();
        const QJsonArray slow = doc.value("cluster").toObject().value("slow_ranks").toArray();
        QCOMPARE(slow.size(), 1);
        const QJsonObject s0 = slow.at(0).toObject();
        QCOMPARE(s0.value("predicted_gain_ms").toDouble(), static_cast<double>(sr.predictedGain) / 1e6);
        QCOMPARE(s0.value("predicted_device_ms").toDouble(), static_cast<double>(sr.predictedLoss) / 1e6);
        QCOMPARE(s0.value("edit").toString(), QStringLiteral("late_rank_on_time"));
        QVERIFY(s0.value("verdict").toString().contains("If it arrived on time"));
    }
};

QTEST_GUILESS_MAIN(TstReplayGains)
#include "tst_replay_gains.moc"
