// §15 acceptance (issue 47): on generated before/after pairs whose "after" leaves out exactly one cause (the same
// seed, every other timing the same), the gain the replay predicts from the before profile alone is within 10 %
// or 0.1 ms of the change in step service the after profile shows (both services measured by the analysis).
#include "test_support.h"
#include "pipeline/analysis_run.h"
#include "i18n/message.h"
#include "io/discovery.h"
#include "io/profile_loader.h"
#include "model/profile.h"
#include "replay/replay.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
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

    QString generate(const QString& dir, QStringList args) {
        const QString out = tmp.filePath(dir);
        args << QStringLiteral("--out") << out << QStringLiteral("--name") << QStringLiteral("g")
             << QStringLiteral("--quiet");
        QProcess p;
        p.start(QStringLiteral(BS_SYNTH), args);
        if (!p.waitForFinished(120000) || p.exitCode() != 0) {
            qWarning("generator failed: %s", p.readAllStandardError().constData());
            return {};
        }
        return out;
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
};

QTEST_GUILESS_MAIN(TstReplayGains)
#include "tst_replay_gains.moc"
