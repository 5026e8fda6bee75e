// The window: loads off the GUI thread, shows the analysis or the error in the window, selecting a
// bubble row moves the timeline onto it, and menu exports write the bytes the headless command writes.
#include "test_support.h"
#include "main_window.h"
#include "timeline_widget.h"

#include "analysis/analysis_run.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kRank =
    QDir::cleanPath(QStringLiteral(BS_REALDATA_DIR "/torch_npu_resnet_ddp/level1/rank0_ascend_pt"));

} // namespace

class TstMainWindow : public QObject {
    Q_OBJECT
  private slots:
    void opensARealRankAndShowsTheStepTable() {
        bs::ui::MainWindow w;
        w.show();
        QSignalSpy spy(&w, &bs::ui::MainWindow::loadFinished);
        w.openPath(kRank + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"));
        QVERIFY(spy.wait(60000));
        QCOMPARE(spy.at(0).at(0).toBool(), true);
        QVERIFY(w.reportText().contains(QStringLiteral("ProfilerStep#N markers")));
        QVERIFY(w.reportText().contains(QStringLiteral("25744.050 (Free)")));
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("rank0_ascend_pt")));
        QCOMPARE(w.tabs()->tabText(1), QStringLiteral("Bubbles (88)")); // 88 windows of 50 us or more
    }
    void aMissingFolderShowsTheMessageInTheWindow() {
        bs::ui::MainWindow w;
        QSignalSpy spy(&w, &bs::ui::MainWindow::loadFinished);
        w.openPath(QStringLiteral("/no/such/profile"));
        QVERIFY(spy.wait(10000));
        QCOMPARE(spy.at(0).at(0).toBool(), false);
        QVERIFY(w.reportText().contains(QStringLiteral("does not exist")));
    }
    void selectingABubbleRowMovesTheTimelineOntoIt() {
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QSignalSpy spy(&w, &bs::ui::MainWindow::loadFinished);
        w.openPath(kRank);
        QVERIFY(spy.wait(60000));
        auto* table = w.bubbleTable();
        QVERIFY(table->model()->rowCount() >= 5);
        const qint64 s = table->model()->index(2, 0).data(Qt::UserRole).toLongLong();
        const qint64 e = table->model()->index(2, 0).data(Qt::UserRole + 1).toLongLong();
        QVERIFY(e > s);
        w.tabs()->setCurrentIndex(1);
        // A real click on the row.
        const QRect r = table->visualRect(table->model()->index(2, 1));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier, r.center());
        QCOMPARE(table->currentIndex().row(), 2);
        auto* tl = w.timeline();
        QCOMPARE(tl->selectedBubble(), 2);
        QVERIFY(tl->viewStart() < s && tl->viewEnd() > e);       // the window is in view…
        QVERIFY(tl->viewEnd() - tl->viewStart() <= 3 * (e - s)); // …with context, not the whole capture
    }
    void menuExportsWriteTheSameBytesAsTheHeadlessCommand() {
        QTemporaryDir tmp;
        bs::ui::MainWindow w;
        QSignalSpy spy(&w, &bs::ui::MainWindow::loadFinished);
        w.openPath(kRank);
        QVERIFY(spy.wait(60000));
        using E = bs::ui::MainWindow::Export;
        QCOMPARE(w.defaultExportName(E::ArchitectureReport),
                 QStringLiteral("model_architecture_report_rank0_ascend_pt.md"));
        QCOMPARE(w.defaultExportName(E::AnomalyReport), QStringLiteral("anomaly_report_rank0_ascend_pt.md"));
        QVERIFY(w.exportTo(E::AnomalyJson, tmp.filePath(QStringLiteral("gui.json"))).isEmpty());
        QVERIFY(w.exportTo(E::AnomalyReport, tmp.filePath(QStringLiteral("gui.md"))).isEmpty());
        QVERIFY(w.exportTo(E::ArchitectureReport, tmp.filePath(QStringLiteral("gui_arch.md"))).isEmpty());
        QProcess p;
        p.start(QStringLiteral(BS_BINARY),
                {QStringLiteral("analyze"), kRank, QStringLiteral("--json"),
                 tmp.filePath(QStringLiteral("cli.json")), QStringLiteral("--report"),
                 tmp.filePath(QStringLiteral("cli.md")), QStringLiteral("--arch"),
                 tmp.filePath(QStringLiteral("cli_arch.md"))});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        for (const auto& [a, b] :
             {std::pair{"gui.json", "cli.json"}, {"gui.md", "cli.md"}, {"gui_arch.md", "cli_arch.md"}}) {
            const QByteArray x = bstest::readFile(tmp.filePath(QString::fromLatin1(a))),
                             y = bstest::readFile(tmp.filePath(QString::fromLatin1(b)));
            QVERIFY(!x.isEmpty());
            QVERIFY2(x == y, a);
        }
        // A folder that cannot be written: a clear error, nothing written.
        const QString err = w.exportTo(E::AnomalyJson, tmp.filePath(QStringLiteral("missing/dir/x.json")));
        QVERIFY(!err.isEmpty());
        QVERIFY(!QFile::exists(tmp.filePath(QStringLiteral("missing/dir/x.json"))));
    }
};

QTEST_MAIN(TstMainWindow)
#include "tst_main_window.moc"
