// The Cluster view on the real ResNet DDP L1 pair: shown first with the two real ranks only, heatmap cells
// equal to each rank's own step_trace_time.csv, rank 1 named slow, the first all-reduce with rank 1 as last
// arriver and rank 0's Wait Time from its communication.json, double-click opens rank 1's timeline, the
// median comparison; the item models pass QAbstractItemModelTester.
#include "i18n/message.h"
#include "cluster_bars.h"
#include "cluster_heatmap.h"
#include "cluster_models.h"
#include "cluster_view.h"
#include "main_window.h"
#include "timeline_widget.h"

#include "analysis/analysis_run.h"
#include "cluster/cluster_analysis.h"
#include "cluster/cluster_model.h"
#include "cluster/cluster_report.h"
#include "cluster/summary_json.h"
#include "io/discovery.h"
#include "io/profile_loader.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <cmath>
#include <map>

namespace {

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

int rowOf(const QAbstractItemModel* m, int column, const QString& text, const QModelIndex& parent = {}) {
    for (int r = 0; r < m->rowCount(parent); ++r)
        if (m->index(r, column, parent).data().toString() == text) return r;
    return -1;
}

} // namespace

class TstClusterView : public QObject {
    Q_OBJECT
    bs::ui::MainWindow* w = nullptr;

    int rankIndex(int id) const {
        const auto c = w->clusterView()->cluster();
        for (std::size_t i = 0; i < c->ranks.size(); ++i)
            if (c->ranks[i].rankId == id) return static_cast<int>(i);
        return -1;
    }
    void pickMetric(bs::ui::ClusterMetric m) {
        auto* picker = w->clusterView()->metricPicker();
        picker->setCurrentIndex(picker->findData(static_cast<int>(m)));
        QCOMPARE(w->clusterView()->heatmap()->metric(), m);
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
    void cleanupTestCase() { delete w; }

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
        const auto c = w->clusterView()->cluster();
        QCOMPARE(m->index(0, 0).data(Qt::UserRole).toStringList().value(0),
                 QString::fromStdString(bs::english(c->slowRanks.front().evidence.front())));
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
        QCOMPARE(m->index(r0, 3, parent).data().toString(), QString::number(wait0, 'f', 3));
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
