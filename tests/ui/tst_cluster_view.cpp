// The Cluster view on the real ResNet DDP L1 pair: shown first with the two real ranks only, heatmap cells
// equal to each rank's own step_trace_time.csv, rank 1 named slow, the first all-reduce with rank 1 as last
// arriver and rank 0's Wait Time from its communication.json, double-click opens rank 1's timeline, the
// median comparison; the item models pass QAbstractItemModelTester.
// Then a generated cluster (bubblescope-synth: 6 ranks, rank 4 computing 3 ms longer before one all-reduce,
// two ranks' clocks skewed): the slow-rank row, the heatmap's cost metric and diverging colours, and the
// Ranks tab (one row group per rank, the wait shaded to the last arriver, raw clocks, double-click), each
// checked against figures the test reads from the generated files (expected.json, step_trace_time.csv,
// communication.json).
#include "cluster_bars.h"
#include "cluster_heatmap.h"
#include "cluster_models.h"
#include "cluster_view.h"
#include "i18n/message.h"
#include "language.h"
#include "main_window.h"
#include "ranks_tab.h"
#include "ranks_timeline.h"
#include "timeline_data.h"
#include "timeline_widget.h"

#include "pipeline/analysis_run.h"
#include "cluster/cluster_analysis.h"
#include "cluster/cluster_model.h"
#include "cluster/cluster_report.h"
#include "cluster/summary_json.h"
#include "io/discovery.h"
#include "io/profile_loader.h"

#include "cli_support.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTreeView>

#include <cmath>
#include <map>

namespace {

using bs::TimeNs;

const QString kLevel1 = QDir::cleanPath(QStringLiteral(BS_REALDATA_DIR "/torch_npu_resnet_ddp/level1"));

// The profiler's own step_trace_time.csv of one rank: step → column → µs.
std::map<qint64, std::map<QString, double>> stepTrace(int rank) {
    std::map<qint64, std::map<QString, double>> rows;
    QFile f(kLevel1 +
            QStringLiteral("/rank%1_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv").arg(rank));
    if (!f.open(QIODevice::ReadOnly)) return rows;
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QStringList header = lines.value(0).trimmed().split(QLatin1Char(','));
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList cells = lines[i].trimmed().split(QLatin1Char(','));
        if (cells.size() != header.size()) continue;
        for (int c = 1; c < cells.size(); ++c)
            rows[cells[0].toLongLong()][header[c]] = cells[c].toDouble();
    }
    return rows;
}

// "Wait Time(ms)" of a collective in a rank's communication.json (name before '@').
double waitMs(int rank, const QString& op) {
    QFile f(kLevel1 +
            QStringLiteral("/rank%1_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json").arg(rank));
    if (!f.open(QIODevice::ReadOnly)) return -1;
    const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    for (const auto& step : root)
        for (const auto& kind : step.toObject()) {
            const QJsonObject ops = kind.toObject();
            for (auto it = ops.begin(); it != ops.end(); ++it)
                if (it.key().section(QLatin1Char('@'), 0, 0) == op)
                    return it
                        .value()[QStringLiteral("Communication Time Info")][QStringLiteral("Wait Time(ms)")]
                        .toDouble();
        }
    return -1;
}

// The generator, beside the test when the build does not name it (tests/synth/bubblescope-synth).
QString synthPath() {
#ifdef BS_SYNTH
    return QStringLiteral(BS_SYNTH);
#else
    return QCoreApplication::applicationDirPath() + QStringLiteral("/synth/bubblescope-synth");
#endif
}

QString binaryPath() {
#ifdef BS_BINARY
    return QStringLiteral(BS_BINARY);
#else
    return QCoreApplication::applicationDirPath() + QStringLiteral("/../app/bubblescope");
#endif
}

// A generated collection's files, as the test reads them.
struct Generated {
    QString dir;
    QJsonObject expected;
    QString rankDir(int r) const {
        return dir + QLatin1Char('/') + expected[QStringLiteral("rank_dirs")].toArray()[r].toString() +
               QStringLiteral("/ASCEND_PROFILER_OUTPUT/");
    }
    double skewNs(int r) const {
        return expected[QStringLiteral("clock_skew_us")].toObject()[QString::number(r)].toDouble() * 1e3;
    }
    // A step_trace_time.csv column of one rank: step → ns.
    std::map<qint64, double> stepColumn(int r, const QString& column) const {
        std::map<qint64, double> out;
        QFile f(rankDir(r) + QStringLiteral("step_trace_time.csv"));
        if (!f.open(QIODevice::ReadOnly)) return out;
        const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        const int col = static_cast<int>(lines.value(0).trimmed().split(QLatin1Char(',')).indexOf(column));
        for (int i = 1; i < lines.size() && col > 0; ++i) {
            const QStringList cells = lines[i].trimmed().split(QLatin1Char(','));
            out[cells[0].toLongLong()] = cells.value(col).toDouble() * 1e3;
        }
        return out;
    }
    // "Start Timestamp(us)" of a collective in a rank's communication.json, in ns (the rank's own clock).
    double collectiveStartNs(int r, const QString& op) const {
        QFile f(rankDir(r) + QStringLiteral("communication.json"));
        if (!f.open(QIODevice::ReadOnly)) return -1;
        const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        for (const auto& step : root)
            for (const auto& kind : step.toObject()) {
                const QJsonObject ops = kind.toObject();
                for (auto it = ops.begin(); it != ops.end(); ++it)
                    if (it.key().section(QLatin1Char('@'), 0, 0) == op)
                        return it.value()[QStringLiteral("Communication Time Info")]
                                         [QStringLiteral("Start Timestamp(us)")]
                                             .toDouble() *
                               1e3;
            }
        return -1;
    }
};

int rowOf(const QAbstractItemModel* m, int column, const QString& text, const QModelIndex& parent = {}) {
    for (int r = 0; r < m->rowCount(parent); ++r)
        if (m->index(r, column, parent).data().toString() == text) return r;
    return -1;
}

// The English words of a text meant for reading: a letter, then small letters ("Free", "prelaunch"). Ids in
// capitals, names with digits or '_' (comm_not_overlapped is caught on its own) and units are not words.
QStringList englishWords(const QString& text) {
    static const QRegularExpression word(QStringLiteral("(?<![\\w.])[A-Za-z][a-z]+(?![\\w.])"));
    static const QStringList units{QStringLiteral("ms"), QStringLiteral("us"), QStringLiteral("ns")};
    QStringList out;
    for (auto it = word.globalMatch(text); it.hasNext();) {
        const QString w = it.next().captured();
        if (!units.contains(w)) out << w;
    }
    return out;
}

// A copy of a real rank folder (never into the repository: a temporary folder of the test).
bool copyFolder(const QString& from, const QString& to) {
    QDirIterator it(from, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString file = it.next();
        const QString target = to + QLatin1Char('/') + QDir(from).relativeFilePath(file);
        if (!QDir().mkpath(QFileInfo(target).path()) || !QFile::copy(file, target)) return false;
    }
    return true;
}

QString qmFile() {
    return QFileInfo(binaryPath()).absolutePath() + QStringLiteral("/bubblescope_zh_CN.qm");
}

} // namespace

class TstClusterView : public QObject {
    Q_OBJECT
    bs::ui::MainWindow* w = nullptr;
    // The generated cluster and the window showing it.
    QTemporaryDir genDir;
    Generated gen;
    bs::ui::MainWindow* g = nullptr;
    int slowRank = -1; // its rank id (= index: the generator's folders sort by rank)
    QString delayed;   // the collective it is late at
    qint64 plantedStep = -1;

    bs::ui::ClusterView* gv() const { return g->clusterView(); }
    bs::ui::RanksTimeline* ranks() const { return gv()->ranksTab()->timeline(); }
    int genRankIndex(int id) const {
        const auto c = gv()->cluster();
        for (std::size_t i = 0; i < c->ranks.size(); ++i)
            if (c->ranks[i].rankId == id) return static_cast<int>(i);
        return -1;
    }
    int delayedCollective() const {
        const auto c = gv()->cluster();
        for (std::size_t i = 0; i < c->collectives.size(); ++i)
            if (QString::fromStdString(c->collectives[i].key) == delayed) return static_cast<int>(i);
        return -1;
    }
    static const bs::ui::RanksTimeline::Arrival*
    arrivalOf(const std::vector<bs::ui::RanksTimeline::Arrival>& v, int rank) {
        for (const auto& a : v)
            if (a.rank == rank) return &a;
        return nullptr;
    }

    int rankIndex(int id) const {
        const auto c = w->clusterView()->cluster();
        for (std::size_t i = 0; i < c->ranks.size(); ++i)
            if (c->ranks[i].rankId == id) return static_cast<int>(i);
        return -1;
    }
    void pickMetric(bs::ui::ClusterMetric m) { pickMetric(w, m); }
    static void pickMetric(bs::ui::MainWindow* win, bs::ui::ClusterMetric m) {
        auto* picker = win->clusterView()->metricPicker();
        picker->setCurrentIndex(picker->findData(static_cast<int>(m)));
        QCOMPARE(win->clusterView()->heatmap()->metric(), m);
    }

  private slots:
    void initTestCase() {
        w = new bs::ui::MainWindow;
        w->resize(1400, 900);
        w->show();
        QSignalSpy cluster(w->clusterView(), &bs::ui::ClusterView::analysisFinished);
        QSignalSpy loaded(w, &bs::ui::MainWindow::loadFinished);
        w->openPath(kLevel1);
        QVERIFY(cluster.wait(120000));
        QCOMPARE(cluster.at(0).at(0).toBool(), true);
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 120000);
    }
    void cleanupTestCase() {
        delete w;
        delete g;
    }

    void aParentOfTwoRanksShowsTheClusterViewFirstWithTheRealRanksOnly() {
        QCOMPARE(w->views()->currentWidget(), static_cast<QWidget*>(w->clusterView()));
        QVERIFY(w->views()->isTabVisible(0));
        const auto c = w->clusterView()->cluster();
        QCOMPARE(c->ranks.size(), std::size_t(2));
        for (const auto& r : c->ranks) {
            QVERIFY(r.error.empty());
            QVERIFY(QString::fromStdString(r.label).endsWith(QStringLiteral("_ascend_pt")));
        }
        QVERIFY(rankIndex(0) >= 0 && rankIndex(1) >= 0);
        QCOMPARE(c->steps, std::vector<std::int64_t>{50});
        // The rank picker lists the same ranks, by their full folder names.
        auto* picker = w->findChild<QComboBox*>(QStringLiteral("rankPicker"));
        QVERIFY(picker);
        QStringList items;
        for (int i = 0; i < picker->count(); ++i)
            items << picker->itemText(i);
        QCOMPARE(items, (QStringList{QStringLiteral("rank0_ascend_pt"), QStringLiteral("rank1_ascend_pt")}));
    }

    void heatmapCellsEqualEachRanksOwnStepTraceTime() {
        auto* heat = w->clusterView()->heatmap();
        using M = bs::ui::ClusterMetric;
        const std::pair<M, const char*> columns[] = {{M::Prelaunch, "Preparing"},
                                                     {M::Free, "Free"},
                                                     {M::Computing, "Computing"},
                                                     {M::ExposedComm, "Communication(Not Overlapped)"}};
        for (int id : {0, 1}) {
            const auto truth = stepTrace(id);
            QCOMPARE(truth.size(), std::size_t(1));
            QCOMPARE(truth.begin()->first, qint64(50));
            for (const auto& [metric, column] : columns) {
                pickMetric(metric);
                const auto v = heat->cellValue(rankIndex(id), 0);
                QVERIFY(v);
                const double profiler = truth.at(50).at(QString::fromLatin1(column));
                QVERIFY2(std::fabs(static_cast<double>(*v) / 1e3 - profiler) <= 1.0,
                         qPrintable(QStringLiteral("rank %1 %2: ours %3 us, profiler %4 us")
                                        .arg(id)
                                        .arg(QString::fromLatin1(column))
                                        .arg(static_cast<double>(*v) / 1e3, 0, 'f', 3)
                                        .arg(profiler, 0, 'f', 3)));
            }
        }
        // Rank 1's prelaunch (20433.25 us in its step_trace_time.csv) is in the hover text, exactly.
        pickMetric(M::Prelaunch);
        const QString tip = heat->toolTipAt(heat->cellRect(rankIndex(1), 0).center());
        QVERIFY2(tip.contains(QStringLiteral("20.433 ms")), qPrintable(tip));
        QVERIFY(tip.contains(QStringLiteral("rank 1 — rank1_ascend_pt")));
    }

    void theSlowRankListNamesRank1WithTheCoresEvidence() {
        auto* list = w->clusterView()->slowRankList();
        const QAbstractItemModel* m = list->model();
        QAbstractItemModelTester tester(const_cast<QAbstractItemModel*>(m),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(m->rowCount() > 0);
        for (int r = 0; r < m->rowCount(); ++r)
            QCOMPARE(m->index(r, 0).data().toString(), QStringLiteral("rank 1"));
        // The evidence pane shows the core's verdict for the selected row.
        const auto c = w->clusterView()->cluster();
        list->setCurrentIndex(m->index(0, 0));
        const QString verdict = QString::fromStdString(bs::english(c->slowRanks.front().verdict));
        QVERIFY(!verdict.isEmpty());
        QVERIFY2(w->clusterView()->evidencePane()->toPlainText().contains(verdict),
                 qPrintable(w->clusterView()->evidencePane()->toPlainText()));
    }

    void theFirstAllReduceNamesRank1AsLastArriverWithRank0sWait() {
        const QAbstractItemModel* m = w->clusterView()->collectiveTable()->model();
        QAbstractItemModelTester tester(const_cast<QAbstractItemModel*>(m),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QString op = QStringLiteral("hcom_allReduce__586_0_1");
        const int row = rowOf(m, 0, op);
        QVERIFY(row >= 0);
        QCOMPARE(m->index(row, 2).data().toString(), QStringLiteral("rank 1"));
        const QModelIndex parent = m->index(row, 0);
        const int r0 = rowOf(m, 0, QStringLiteral("rank 0"), parent);
        QVERIFY(r0 >= 0);
        const double wait0 = waitMs(0, op);
        QVERIFY(wait0 > 5.6 && wait0 < 5.7); // 5.65 ms: rank 0 waits for rank 1
        QCOMPARE(m->index(r0, bs::ui::kCollectiveWaitColumn, parent).data().toString(),
                 QString::number(wait0, 'f', 3));
        // Rank 1's row is marked as arriving last; its confidence is named in words.
        const int r1 = rowOf(m, 0, QStringLiteral("rank 1"), parent);
        QVERIFY(r1 >= 0);
        QCOMPARE(m->index(r1, bs::ui::kCollectiveLastColumn, parent).data().toString(),
                 QStringLiteral("arrives last"));
        QVERIFY(!m->index(row, bs::ui::kCollectiveConfidenceColumn).data().toString().isEmpty());
    }

    void compareWithTheMedianPutsRank1BesideTheMedian() {
        QDialog* dlg = w->clusterView()->compareWithMedian(rankIndex(1));
        QVERIFY(dlg);
        auto* table = dlg->findChild<QTableView*>();
        QVERIFY(table);
        QAbstractItemModelTester tester(table->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const int row = rowOf(table->model(), 1, QStringLiteral("Prelaunch"));
        QVERIFY(row >= 0);
        const double p0 = stepTrace(0).at(50).at(QStringLiteral("Preparing")) / 1e3;
        const double p1 = stepTrace(1).at(50).at(QStringLiteral("Preparing")) / 1e3;
        QCOMPARE(table->model()->index(row, 2).data().toString(), QString::number(p1, 'f', 3));
        QVERIFY(std::fabs(table->model()->index(row, 3).data().toString().toDouble() - (p0 + p1) / 2) <
                0.002);
        dlg->close();
    }

    void doubleClickingRank1OpensItsTimeline() {
        w->views()->setCurrentWidget(w->clusterView());
        auto* heat = w->clusterView()->heatmap();
        QSignalSpy loaded(w, &bs::ui::MainWindow::loadFinished);
        QTest::mouseDClick(heat, Qt::LeftButton, Qt::NoModifier, heat->cellRect(rankIndex(1), 0).center());
        QVERIFY(loaded.wait(120000));
        QCOMPARE(loaded.at(0).at(0).toBool(), true);
        QCOMPARE(w->views()->currentIndex(), 1);
        QVERIFY2(w->windowTitle().startsWith(QStringLiteral("rank1_ascend_pt")),
                 qPrintable(w->windowTitle()));
        QCOMPARE(w->findChild<QComboBox*>(QStringLiteral("rankPicker"))->currentText(),
                 QStringLiteral("rank1_ascend_pt"));
        QVERIFY(w->timeline()->viewEnd() > w->timeline()->viewStart());
    }

    // A job array's summaries folder opens on the Cluster tab, merged, with the same cluster as the parent
    // analysed here; double-clicking a rank opens its timeline from the folder its summary records.
    void aSummariesFolderOpensTheClusterFromTheSummaries() {
        QTemporaryDir dir;
        const auto parentCluster = w->clusterView()->cluster();
        const bs::DiscoveryResult found = bs::discoverProfiles(kLevel1.toStdString());
        for (const auto& rank : found.ranks) {
            if (!bs::isRankFolder(rank)) continue;
            const bs::LoadResult loaded = bs::loadRank(rank);
            QVERIFY(loaded.profile);
            const bs::AnalysisResult r = bs::analyzeProfile(*loaded.profile);
            QFile f(dir.filePath(QString::fromStdString(bs::summaryFileName(rank.label))));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(bs::renderRankSummaryJson(bs::summarizeRank(rank, *loaded.profile, r),
                                                                         bs::summaryProducer(), kLevel1.toStdString())));
        }
        bs::ui::MainWindow m;
        m.resize(1400, 900);
        m.show();
        QSignalSpy cluster(m.clusterView(), &bs::ui::ClusterView::analysisFinished);
        QSignalSpy loaded(&m, &bs::ui::MainWindow::loadFinished);
        m.openPath(dir.path());
        QVERIFY(cluster.wait(60000));
        QCOMPARE(cluster.at(0).at(0).toBool(), true);
        QCOMPARE(m.views()->currentWidget(), static_cast<QWidget*>(m.clusterView()));
        QCOMPARE(loaded.count(), 0); // no rank loaded: the summaries are the data
        // Summaries keep no device lanes: the Ranks tab says so instead of drawing empty rows.
        QVERIFY(!m.clusterView()->ranksTab()->showsTimeline());
        QVERIFY(m.clusterView()->ranksTab()->message()->text().contains(QStringLiteral("summaries")));
        // The same cluster as the parent analysed in the window (the summaries record the parent, so the
        // profiler's cluster CSV is cross-checked too).
        QCOMPARE(bs::renderClusterJson(*m.clusterView()->cluster()), bs::renderClusterJson(*parentCluster));
        // Double-click rank 1: its timeline, from its own folder.
        int one = -1;
        const auto c = m.clusterView()->cluster();
        for (std::size_t i = 0; i < c->ranks.size(); ++i)
            if (c->ranks[i].rankId == 1) one = static_cast<int>(i);
        QVERIFY(one >= 0);
        auto* heat = m.clusterView()->heatmap();
        QTest::mouseDClick(heat, Qt::LeftButton, Qt::NoModifier, heat->cellRect(one, 0).center());
        QVERIFY(loaded.wait(120000));
        QCOMPARE(loaded.at(0).at(0).toBool(), true);
        QVERIFY2(m.windowTitle().startsWith(QStringLiteral("rank1_ascend_pt")), qPrintable(m.windowTitle()));
        // The Cluster tab stays (the summaries' cluster), beside the rank's timeline.
        QVERIFY(m.views()->isTabVisible(0));
        QCOMPARE(m.clusterView()->path(), dir.path());
    }

    // ---- A generated cluster --------------------------------------------------------------------------

    void aGeneratedClusterOpensWithLanes() {
        QVERIFY(genDir.isValid());
        gen.dir = genDir.filePath(QStringLiteral("gen"));
        QVERIFY(!bstest::generateWith(synthPath(), gen.dir,
                                      {QStringLiteral("--ranks"), QStringLiteral("6"),
                                       QStringLiteral("--slow-rank"), QStringLiteral("4"),
                                       QStringLiteral("--slow-ms"), QStringLiteral("3"),
                                       QStringLiteral("--slow-cause"), QStringLiteral("compute"),
                                       QStringLiteral("--clock-skew-us"), QStringLiteral("2:1500,5:-800"),
                                       QStringLiteral("--seed"), QStringLiteral("3")})
                     .isEmpty());
        QFile f(gen.dir + QStringLiteral("/expected.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        gen.expected = QJsonDocument::fromJson(f.readAll()).object();
        slowRank = gen.expected[QStringLiteral("slow_rank")].toInt();
        delayed = gen.expected[QStringLiteral("delayed_collectives")]
                      .toArray()[0]
                      .toObject()[QStringLiteral("name")]
                      .toString();
        plantedStep = gen.expected[QStringLiteral("planted_steps")].toArray()[0].toInteger();
        QVERIFY(!delayed.isEmpty());

        g = new bs::ui::MainWindow;
        g->resize(1500, 950);
        g->show();
        QSignalSpy cluster(g->clusterView(), &bs::ui::ClusterView::analysisFinished);
        QSignalSpy loaded(g, &bs::ui::MainWindow::loadFinished);
        g->openPath(gen.dir);
        QVERIFY(cluster.wait(120000));
        QCOMPARE(cluster.at(0).at(0).toBool(), true);
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 120000);
        QCOMPARE(gv()->cluster()->ranks.size(), std::size_t(gen.expected[QStringLiteral("ranks")].toInt()));
        for (const auto& r : gv()->cluster()->ranks)
            QVERIFY(r.lanes); // the window asks for the lanes of a folder's ranks
        g->views()->setCurrentWidget(gv());
    }

    void theSlowRankRowNamesThePlantedRankWithItsCostAndCause() {
        const QAbstractItemModel* m = gv()->slowRankList()->model();
        QAbstractItemModelTester tester(const_cast<QAbstractItemModel*>(m),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(m->rowCount(), 1);
        const auto steps = gen.stepColumn(0, QStringLiteral("Computing"));
        const int planted = static_cast<int>(gen.expected[QStringLiteral("planted_steps")].toArray().size());
        QCOMPARE(m->index(0, 0).data().toString(), QStringLiteral("rank %1").arg(slowRank));
        QCOMPARE(m->index(0, 1).data().toString(),
                 QStringLiteral("slow in %1 of %2 steps").arg(planted).arg(steps.size()));
        const double slowMs = gen.expected[QStringLiteral("slow_ms")].toDouble();
        const int others = gen.expected[QStringLiteral("ranks")].toInt() - 1;
        const auto near = [](const QModelIndex& i, double ms) {
            return std::fabs(i.data().toString().toDouble() - ms) < 0.01;
        };
        QVERIFY2(near(m->index(0, 2), slowMs), qPrintable(m->index(0, 2).data().toString())); // cost per step
        // Expected gain: the core's replayed prediction, as the verdict says it (the value itself is tested against
        // generated before/after pairs in tst_replay_gains).
        const bs::SlowRank& sr = gv()->cluster()->slowRanks.front();
        QVERIFY(sr.predicted);
        QCOMPARE(m->index(0, 3).data().toString(), QString::number(sr.predictedGain / 1e6, 'f', 3));
        QVERIFY2(m->index(0, 3).data(Qt::ToolTipRole).toString().contains(bs::ui::coreText(sr.prediction)),
                 qPrintable(m->index(0, 3).data(Qt::ToolTipRole).toString()));
        QVERIFY2(near(m->index(0, 4), slowMs * others),
                 qPrintable(m->index(0, 4).data().toString()));                               // cluster loss
        QVERIFY2(near(m->index(0, 5), slowMs), qPrintable(m->index(0, 5).data().toString())); // lateness
        QVERIFY(m->index(0, 6).data().toString().startsWith(delayed));
        const QJsonObject cause = gen.expected[QStringLiteral("slow_cause")].toObject();
        QCOMPARE(cause[QStringLiteral("lead")].toString(), QStringLiteral("computing"));
        QCOMPARE(m->index(0, 7).data().toString(), QStringLiteral("computing"));
        QVERIFY(near(m->index(0, 8), cause[QStringLiteral("delta_ms")].toDouble()));
        // The evidence pane: the op that took longer, with its Δ, and the cause's terms.
        gv()->slowRankList()->setCurrentIndex(m->index(0, 0));
        const QString pane = gv()->evidencePane()->toPlainText();
        QVERIFY2(pane.contains(cause[QStringLiteral("op")].toString()), qPrintable(pane));
        QVERIFY2(
            pane.contains(QStringLiteral("+%1").arg(cause[QStringLiteral("delta_ms")].toDouble(), 0, 'f', 3)),
            qPrintable(pane));
        for (const char* term :
             {"step start", "prelaunch", "computing", "idle", "exposed communication", "rest"})
            QVERIFY2(pane.contains(QLatin1String(term)), term);
    }

    void theHeatmapOpensOnTheCostAndColoursByDeviationFromTheStepMedian() {
        auto* heat = gv()->heatmap();
        using M = bs::ui::ClusterMetric;
        QCOMPARE(heat->metric(), M::Cost);
        const auto c = gv()->cluster();
        const int col =
            static_cast<int>(std::find(c->steps.begin(), c->steps.end(), plantedStep) - c->steps.begin());
        QVERIFY(col < static_cast<int>(c->steps.size()));
        const int slow = genRankIndex(slowRank);
        // The cost cell of the slow rank: the planted delay, the largest deviation, full "above" colour.
        const auto cost = heat->cellValue(slow, col);
        QVERIFY(cost);
        QVERIFY(std::fabs(static_cast<double>(*cost) / 1e6 -
                          gen.expected[QStringLiteral("slow_ms")].toDouble()) < 0.01);
        QCOMPARE(heat->cellColour(slow, col), bs::ui::ClusterHeatmap::aboveColour());
        // Computing, from each rank's step_trace_time.csv: the ranks at the step's median are neutral, the
        // slow rank (3 ms more) is on the "above" side.
        pickMetric(g, M::Computing);
        std::vector<double> values;
        const int n = gen.expected[QStringLiteral("ranks")].toInt();
        for (int r = 0; r < n; ++r)
            values.push_back(gen.stepColumn(r, QStringLiteral("Computing")).at(plantedStep));
        std::vector<double> sorted = values;
        std::sort(sorted.begin(), sorted.end());
        const double median =
            (sorted[static_cast<std::size_t>(n / 2 - 1)] + sorted[static_cast<std::size_t>(n / 2)]) / 2;
        QVERIFY(values[static_cast<std::size_t>(slowRank)] > median + 1e6);
        int atMedian = 0;
        for (int r = 0; r < n; ++r) {
            const QColor colour = heat->cellColour(genRankIndex(r), col);
            if (std::fabs(values[static_cast<std::size_t>(r)] - median) < 1000) {
                QCOMPARE(colour, bs::ui::ClusterHeatmap::neutralColour());
                ++atMedian;
            }
        }
        QVERIFY(atMedian > 0);
        const QColor slowColour = heat->cellColour(slow, col);
        QVERIFY(slowColour.red() > slowColour.blue());
        QCOMPARE(slowColour, bs::ui::ClusterHeatmap::aboveColour());
        // The text stays the value; the tooltip gives value, median and deviation.
        const QString tip = heat->toolTipAt(heat->cellRect(slow, col).center());
        QVERIFY2(tip.contains(QString::number(values[static_cast<std::size_t>(slowRank)] / 1e6, 'f', 3)),
                 qPrintable(tip));
        QVERIFY2(tip.contains(QString::number(median / 1e6, 'f', 3)), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("+%1").arg(
                     (values[static_cast<std::size_t>(slowRank)] - median) / 1e6, 0, 'f', 3)),
                 qPrintable(tip));
        // The slow cell is outlined.
        g->views()->setCurrentWidget(gv());
        gv()->tabs()->setCurrentIndex(0);
        const QImage img = heat->grab().toImage();
        const QRect cell = heat->cellRect(slow, col);
        QCOMPARE(img.pixelColor(cell.left() + 2, cell.center().y()), QColor(0x1f, 0x4e, 0xb4));
        pickMetric(g, M::Cost);
    }

    void theRanksTabHasOneRowGroupPerRank() {
        gv()->tabs()->setCurrentWidget(gv()->ranksTab());
        QVERIFY(gv()->ranksTab()->showsTimeline());
        const int n = gen.expected[QStringLiteral("ranks")].toInt();
        QCOMPARE(ranks()->rankCount(), n);
        for (int r = 0; r < n; ++r) {
            const QRect group = ranks()->rankGroupRect(r);
            QVERIFY(group.height() > 0);
            if (r > 0) QCOMPARE(group.top(), ranks()->rankGroupRect(r - 1).bottom() + 1);
            // Device busy, HCCL, steps: three lanes inside the group.
            const QRect busy = ranks()->laneRect(r, bs::ui::RanksTimeline::Lane::Busy);
            const QRect comm = ranks()->laneRect(r, bs::ui::RanksTimeline::Lane::Comm);
            const QRect steps = ranks()->laneRect(r, bs::ui::RanksTimeline::Lane::Steps);
            QVERIFY(group.contains(busy.topLeft()) && group.contains(steps.bottomLeft()));
            QVERIFY(busy.bottom() < comm.top() && comm.bottom() < steps.top());
            QCOMPARE(ranks()->rankAt(group.center()), r);
        }
    }

    void theWaitForTheLastArriverIsShadedFromAnEarlyRanksAlignedArrival() {
        auto* tab = gv()->ranksTab();
        tab->findEdit()->setText(delayed);
        QTest::keyClick(tab->findEdit(), Qt::Key_Return);
        const int k = delayedCollective();
        QVERIFY(k >= 0);
        const auto marks = ranks()->arrivals(k);
        // Aligned arrivals: each rank's start in its communication.json minus its planted clock skew.
        const double early = gen.collectiveStartNs(0, delayed) - gen.skewNs(0);
        const double last = gen.collectiveStartNs(slowRank, delayed) - gen.skewNs(slowRank);
        QVERIFY(early > 0 && last > early);
        const auto* a0 = arrivalOf(marks, genRankIndex(0));
        const auto* aSlow = arrivalOf(marks, genRankIndex(slowRank));
        QVERIFY(a0 && aSlow);
        QVERIFY(aSlow->last && !a0->last);
        QVERIFY2(std::fabs(static_cast<double>(a0->arrival) - early) < 2000,
                 qPrintable(QString::number(a0->arrival - early)));
        QVERIFY2(std::fabs(static_cast<double>(a0->waitEnd) - last) < 2000,
                 qPrintable(QString::number(a0->waitEnd - last)));
        // Every rank but the last waits until the same instant; a skewed rank too, on the aligned clock.
        for (const auto& a : marks)
            if (!a.last) QVERIFY(std::fabs(static_cast<double>(a.waitEnd) - last) < 2000);
        // Drawn: the shade between the two x positions in rank 0's lanes is the wait colour (orange).
        QTRY_VERIFY(ranks()->isVisible());
        const QImage img = ranks()->grab().toImage();
        const double x0 = ranks()->xOf(static_cast<TimeNs>(early)),
                     x1 = ranks()->xOf(static_cast<TimeNs>(last));
        QVERIFY(x1 - x0 > 4);
        const QRect comm = ranks()->laneRect(genRankIndex(0), bs::ui::RanksTimeline::Lane::Comm);
        const QColor mid = img.pixelColor(static_cast<int>((x0 + x1) / 2), comm.center().y());
        QVERIFY2(mid.red() > 180 && mid.blue() < 110, qPrintable(mid.name()));
        // Outside the wait, before rank 0 arrives, no orange.
        const QColor before = img.pixelColor(static_cast<int>(x0) - 3, comm.center().y());
        QVERIFY2(!(before.red() > 180 && before.blue() < 110 && before.green() > 110 && before.green() < 190),
                 qPrintable(before.name()));
    }

    void rawClocksMoveASkewedRankByItsSkew() {
        const int k = delayedCollective();
        const int skewed = 2, plain = 0;
        QVERIFY(gen.skewNs(skewed) != 0 && gen.skewNs(plain) == 0);
        const auto aligned = ranks()->arrivals(k);
        gv()->ranksTab()->rawClocks()->setChecked(true);
        QVERIFY(ranks()->rawClocks());
        const auto raw = ranks()->arrivals(k);
        gv()->ranksTab()->rawClocks()->setChecked(false);
        QVERIFY(!ranks()->rawClocks());
        const auto* s0 = arrivalOf(aligned, genRankIndex(skewed));
        const auto* s1 = arrivalOf(raw, genRankIndex(skewed));
        const auto* p0 = arrivalOf(aligned, genRankIndex(plain));
        const auto* p1 = arrivalOf(raw, genRankIndex(plain));
        QVERIFY(s0 && s1 && p0 && p1);
        // On raw clocks each rank shows its own start, as its communication.json has it.
        QVERIFY(std::fabs(static_cast<double>(s1->arrival) - gen.collectiveStartNs(skewed, delayed)) < 2000);
        QVERIFY2(std::fabs(static_cast<double>(s1->arrival - s0->arrival) - gen.skewNs(skewed)) < 2000,
                 qPrintable(QString::number(s1->arrival - s0->arrival)));
        QVERIFY(std::fabs(static_cast<double>(p1->arrival - p0->arrival)) < 2000);
        // The same on screen: the skewed rank's lanes move right by its skew, the other rank's stay.
        const double px = ranks()->xOf(s1->arrival) - ranks()->xOf(s0->arrival);
        const double expectPx = gen.skewNs(skewed) * (ranks()->width() - ranks()->labelWidth()) /
                                static_cast<double>(ranks()->viewEnd() - ranks()->viewStart());
        QVERIFY2(std::fabs(px - expectPx) < 1.5,
                 qPrintable(QStringLiteral("%1 px, expected %2").arg(px).arg(expectPx)));
    }

    void findJumpsToARankNumber() {
        auto* tab = gv()->ranksTab();
        tab->findEdit()->setText(QStringLiteral("%1").arg(slowRank));
        QTest::keyClick(tab->findEdit(), Qt::Key_Return);
        QCOMPARE(ranks()->selectedRank(), genRankIndex(slowRank));
        QCOMPARE(gv()->selectedRank(), genRankIndex(slowRank));
        tab->findEdit()->setText(QStringLiteral("no_such_collective"));
        QTest::keyClick(tab->findEdit(), Qt::Key_Return);
        QCOMPARE(ranks()->selectedRank(), genRankIndex(slowRank));
    }

    void keysZoomPanAndFit() {
        ranks()->setFocus();
        ranks()->fit();
        const TimeNs s0 = ranks()->viewStart(), e0 = ranks()->viewEnd();
        QTest::keyClick(ranks(), Qt::Key_Plus);
        QVERIFY(ranks()->viewEnd() - ranks()->viewStart() < e0 - s0);
        const TimeNs zs = ranks()->viewStart();
        QTest::keyClick(ranks(), Qt::Key_Right);
        QVERIFY(ranks()->viewStart() > zs);
        QTest::keyClick(ranks(), Qt::Key_F);
        QCOMPARE(ranks()->viewStart(), s0);
        QCOMPARE(ranks()->viewEnd(), e0);
        // A step: the view holds that step's windows of every rank, and not the whole capture.
        QVERIFY(gv()->ranksTab()->fitStep(plantedStep));
        QVERIFY(ranks()->viewEnd() - ranks()->viewStart() < e0 - s0);
    }

    void doubleClickingARankRowOpensItsTimelineAtThatInstantOnItsOwnClock() {
        const int r = genRankIndex(2); // a skewed rank: its own clock differs from the aligned one
        QVERIFY(gen.skewNs(2) != 0);
        const QRect busy = ranks()->laneRect(r, bs::ui::RanksTimeline::Lane::Busy);
        const QPoint at(ranks()->labelWidth() + (ranks()->width() - ranks()->labelWidth()) / 2,
                        busy.center().y());
        const TimeNs aligned = ranks()->timeAt(at.x());
        QSignalSpy view(gv(), &bs::ui::ClusterView::rankViewRequested);
        QSignalSpy activated(gv(), &bs::ui::ClusterView::rankActivated);
        QSignalSpy loaded(g, &bs::ui::MainWindow::loadFinished);
        QTest::mouseDClick(ranks(), Qt::LeftButton, Qt::NoModifier, at);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).toInt(), r);
        QCOMPARE(view.count(), 1);
        const qint64 start = view.at(0).at(1).toLongLong(), end = view.at(0).at(2).toLongLong();
        QVERIFY(std::fabs(static_cast<double>((start + end) / 2 - aligned) - gen.skewNs(2)) < 2000);
        QVERIFY(loaded.wait(120000));
        QCOMPARE(loaded.at(0).at(0).toBool(), true);
        QVERIFY2(
            g->windowTitle().startsWith(gen.expected[QStringLiteral("rank_dirs")].toArray()[2].toString()),
            qPrintable(g->windowTitle()));
        // The rank's timeline shows that instant of its own clock.
        const TimeNs mid = (g->timeline()->viewStart() + g->timeline()->viewEnd()) / 2;
        QVERIFY2(std::fabs(static_cast<double>(mid - (start + end) / 2)) <
                     static_cast<double>(end - start) / 10,
                 qPrintable(QStringLiteral("%1 vs %2").arg(mid).arg((start + end) / 2)));
    }

    // `bubblescope screenshot --ranks` draws the Ranks tab off screen: fitted to the delayed step, the waits
    // for the slow rank are in the picture; the usual output guard and usage errors.
    void theScreenshotCommandDrawsTheRanksTab() {
        QTemporaryDir tmp;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        const auto run = [&](const QStringList& args) {
            return bstest::runProgram(binaryPath(), QStringList{QStringLiteral("screenshot")} + args, env)
                .code;
        };
        const QString png = tmp.filePath(QStringLiteral("ranks.png"));
        QCOMPARE(run({QStringLiteral("--ranks"), QStringLiteral("--step"), QString::number(plantedStep),
                      QStringLiteral("--out"), png, QStringLiteral("-q"), gen.dir}),
                 0);
        const QImage img(png);
        QCOMPARE(img.width(), 1600);
        QVERIFY(img.height() >= 400);
        int orange = 0;
        for (int y = 0; y < img.height(); y += 2)
            for (int x = 0; x < img.width(); x += 2) {
                const QColor c = img.pixelColor(x, y);
                orange += c.red() > 200 && c.green() > 120 && c.green() < 180 && c.blue() < 90 ? 1 : 0;
            }
        QVERIFY2(orange > 20, qPrintable(QString::number(orange))); // the waits of the other ranks
        // Usage errors: a step no rank has, --step without --ranks, a folder as the output.
        QCOMPARE(run({QStringLiteral("--ranks"), QStringLiteral("--step"), QStringLiteral("987654"),
                      QStringLiteral("--out"), tmp.filePath(QStringLiteral("x.png")), gen.dir}),
                 2);
        QCOMPARE(run({QStringLiteral("--step"), QStringLiteral("1"), QStringLiteral("--out"),
                      tmp.filePath(QStringLiteral("y.png")), gen.rankDir(0)}),
                 2);
        QVERIFY(QDir().mkpath(tmp.filePath(QStringLiteral("folder.png"))));
        QCOMPARE(run({QStringLiteral("--ranks"), QStringLiteral("--out"),
                      tmp.filePath(QStringLiteral("folder.png")), gen.dir}),
                 2);
        QVERIFY(!QFile::exists(tmp.filePath(QStringLiteral("x.png"))) &&
                !QFile::exists(tmp.filePath(QStringLiteral("y.png"))));
    }

    // Painting visits pixels, not intervals: 100 000 busy intervals collapse into at most a run per pixel,
    // and a wide view draws each interval as it is.
    void pixelRunsMergeWhatIsNarrowerThanAPixel() {
        using bs::ui::PixelRun;
        std::vector<std::pair<TimeNs, TimeNs>> v;
        for (TimeNs i = 0; i < 100000; ++i)
            v.push_back({i * 100, i * 100 + 50});
        const auto all = bs::ui::pixelRuns(v, 0, 0, 100000 * 100, 1000);
        QCOMPARE(all.size(), std::size_t(1));
        QCOMPARE(all.front(), (PixelRun{0, 1000}));
        const struct {
            TimeNs shift, start, end;
            int width;
            std::vector<PixelRun> runs;
        } table[] = {
            {0, 0, 1000, 10, {{0, 10}}}, // half a pixel every pixel: one run
            {0, 0, 400, 400, {{0, 50}, {100, 150}, {200, 250}, {300, 350}}},
            {100,
             0,
             400,
             400,
             {{0, 50}, {100, 150}, {200, 250}, {300, 350}}}, // shifted: the rank's t at t − 100
            {0, 120, 220, 100, {{0, 30}, {80, 100}}},        // a view inside: clipped at its edges
            {0, -1000, -500, 100, {}},                       // before the data
        };
        for (const auto& row : table)
            QCOMPARE(bs::ui::pixelRuns(v, row.shift, row.start, row.end, row.width), row.runs);
    }

    // 64 ranks of 100 000 intervals each draw a frame (no timing here: the bench measures it).
    void sixtyFourRanksOfAHundredThousandIntervalsPaint() {
        auto c = std::make_shared<bs::ClusterResult>();
        for (int r = 0; r < 64; ++r) {
            bs::RankSummary s;
            s.label = "r" + std::to_string(r);
            s.rankId = r;
            auto lanes = std::make_shared<bs::RankLanes>();
            for (TimeNs i = 0; i < 100000; ++i) {
                lanes->busy.push_back({i * 1000, i * 1000 + 700});
                if (i % 10 == 0) lanes->comm.push_back({i * 1000 + 700, i * 1000 + 900});
            }
            lanes->steps.push_back({1, {0, 50000000}});
            lanes->steps.push_back({2, {50000000, 100000000}});
            s.lanes = lanes;
            c->ranks.push_back(std::move(s));
            bs::ClockOffset o;
            o.rank = r;
            o.reference = 0;
            c->clockOffsets.push_back(o);
        }
        bs::ui::RanksTimeline t;
        t.resize(1600, 1000);
        t.setCluster(c);
        QImage img(t.size(), QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::white);
        t.render(&img);
        const QRect busy = t.laneRect(0, bs::ui::RanksTimeline::Lane::Busy);
        QCOMPARE(img.pixelColor(busy.left() + 200, busy.center().y()), QColor(0x3b, 0x7d, 0xd8));
        t.zoomBy(1000, t.labelWidth() + 10);
        t.render(&img);
    }

    // Issue 46 item 5: a rank whose trace_view.json is random bytes, beside its valid kernel_details.csv. The data
    // error names the file and the byte; the first recommendation says the file is there but cannot be read and
    // what to do (copy it again or write it again), never that it is missing; the kernels whose stream only the
    // trace gives (HCCL) are on a lane named by what they run, not "Stream ?".
    void aRankWhoseTraceIsRandomBytesIsToldItIsUnreadableNotMissing() {
        QTemporaryDir dir;
        const QString rank = dir.filePath(QStringLiteral("rank0_ascend_pt"));
        QVERIFY(copyFolder(kLevel1 + QStringLiteral("/rank0_ascend_pt"), rank));
        QFile trace(rank + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"));
        QVERIFY(trace.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QByteArray bytes(4096, '\0');
        QRandomGenerator random(46);
        for (auto& b : bytes)
            b = static_cast<char>(random.bounded(256));
        bytes[0] = '\x9c'; // not '[' or '{': the reader stops at byte 0
        QCOMPARE(trace.write(bytes), qint64(bytes.size()));
        trace.close();

        const bs::DiscoveryResult found = bs::discoverProfiles(rank.toStdString());
        QCOMPARE(found.ranks.size(), std::size_t(1));
        auto loaded = bs::loadRank(found.ranks.front());
        QVERIFY(loaded.profile && loaded.hasAnyData);
        bool error = false;
        for (const auto& f : loaded.profile->loadFindings)
            error = error || (f.id == "trace_not_chrome_format" && f.byteOffset == 0);
        QVERIFY(error);
        const bs::AnalysisResult r = bs::analyzeProfile(*loaded.profile);
        QVERIFY(!r.anomaly.recommendations.empty());
        const bs::Recommendation& first = r.anomaly.recommendations.front();
        QCOMPARE(first.priority, std::string("P0"));
        const std::string action = bs::english(first.action), why = bs::english(first.why);
        QVERIFY2(action.find("Check trace_view.json: it is there but is not a timeline that can be read "
                             "(trace_not_chrome_format at byte 0)") == 0,
                 action.c_str());
        QVERIFY2(action.find("Copy it again from the collection") != std::string::npos, action.c_str());
        QVERIFY2(why.find("trace_view.json is there but could not be read (trace_not_chrome_format at byte 0), so no "
                          "host event, step marker or launch flow comes from it") == 0,
                 why.c_str());
        QVERIFY2(why.find("insufficient evidence. The file does not start with '[' or '{' (Chrome trace format "
                          "expected).") != std::string::npos,
                 why.c_str());
        for (const auto& rc : r.anomaly.recommendations)
            QVERIFY2(bs::english(rc.why + rc.action + rc.evidenceGap).find("no trace_view.json") == std::string::npos,
                     bs::english(rc.why).c_str());
        QCOMPARE(bs::english(first.evidenceGap), std::string("timeline unreadable (trace_not_chrome_format at byte 0)"));

        // The window: the recommendation in the Summary, the lanes.
        bs::ui::MainWindow win;
        win.resize(1400, 900);
        win.show();
        QSignalSpy loadedSpy(&win, &bs::ui::MainWindow::loadFinished);
        win.openPath(rank);
        QTRY_VERIFY_WITH_TIMEOUT(!loadedSpy.isEmpty(), 120000);
        QVERIFY(loadedSpy.at(0).at(0).toBool());
        const QString summary = win.summary()->toPlainText();
        QVERIFY2(summary.contains(QStringLiteral("it is there but is not a timeline that can be read")), qPrintable(summary));
        QVERIFY(!summary.contains(QStringLiteral("there is no trace_view.json")));
        QStringList labels;
        bool hccl = false;
        for (int i = 0; i < win.timeline()->trackCount(); ++i) {
            const QString label = win.timeline()->trackLabelText(i);
            labels << label;
            QVERIFY2(!label.contains(QStringLiteral("Stream ?")), qPrintable(label));
            hccl = hccl || label == QStringLiteral("HCCL (stream unknown)");
        }
        QVERIFY2(hccl, qPrintable(labels.join(QStringLiteral(" | "))));
    }

    // Issue 46 item 6: in Chinese the Cluster view names its metrics in Chinese, in the heatmap's picker and in the
    // core's imbalance finding (the real Level0 pair: its exposed communication spreads and nobody waits), where the
    // metric used to be its id (comm_not_overlapped).
    void inChineseTheMetricsOfTheHeatmapAndOfTheImbalanceFindingAreChinese() {
        QVERIFY2(QFile::exists(qmFile()), qPrintable(qmFile()));
        bs::ui::setTranslationFile(qmFile());
        bs::ui::ClusterView v;
        v.resize(1400, 900);
        v.show();
        QSignalSpy done(&v, &bs::ui::ClusterView::analysisFinished);
        v.analyse(QDir::cleanPath(QStringLiteral(BS_REALDATA_DIR "/torch_npu_resnet_ddp/level0")));
        QVERIFY(done.wait(120000));
        QVERIFY(done.at(0).at(0).toBool());
        bool imbalance = false;
        for (const auto& f : v.cluster()->findings)
            imbalance = imbalance || f.id == "imbalance";
        QVERIFY(imbalance);
        QVERIFY2(v.summary()->toPlainText().contains(QStringLiteral("the exposed communication time of the ranks")),
                 qPrintable(v.summary()->toPlainText()));

        bs::ui::applyLanguage(QStringLiteral("zh_CN"));
        QTRY_VERIFY(v.summary()->toPlainText().contains(QStringLiteral("未掩盖通信时间")));
        const QString summary = v.summary()->toPlainText();
        for (const char* id : {"comm_not_overlapped", "computing", "free", "prelaunch", "exposed communication"})
            QVERIFY2(!summary.contains(QLatin1String(id)), qPrintable(QLatin1String(id) + QStringLiteral(": ") + summary));
        for (bs::ui::ClusterMetric m : bs::ui::kClusterMetrics)
            QVERIFY2(englishWords(bs::ui::ClusterText::metricName(m)).isEmpty(), qPrintable(bs::ui::ClusterText::metricName(m)));
        for (int i = 0; i < v.metricPicker()->count(); ++i)
            QVERIFY2(englishWords(v.metricPicker()->itemText(i)).isEmpty(), qPrintable(v.metricPicker()->itemText(i)));
        QCOMPARE(bs::ui::ClusterText::metricName(bs::ui::ClusterMetric::ExposedComm), QStringLiteral("未掩盖通信"));

        bs::ui::applyLanguage(QStringLiteral("en"));
        QTRY_VERIFY(v.summary()->toPlainText().contains(QStringLiteral("the exposed communication time of the ranks")));
    }

    void aSingleRankHasNoClusterView() {
        bs::ui::MainWindow one;
        QSignalSpy cluster(one.clusterView(), &bs::ui::ClusterView::analysisFinished);
        one.openPath(kLevel1 + QStringLiteral("/rank0_ascend_pt"));
        QVERIFY(cluster.wait(60000));
        QCOMPARE(cluster.at(0).at(0).toBool(), false);
        QVERIFY(!one.views()->isTabVisible(0));
        QCOMPARE(one.views()->currentIndex(), 1);
    }
};

QTEST_MAIN(TstClusterView)
#include "tst_cluster_view.moc"
