// The window shell: loads off the GUI thread and shows the analysis, or the error, in the window.
#include "main_window.h"

#include <QApplication>
#include <QDir>
#include <QSignalSpy>
#include <QTest>

class TstMainWindow : public QObject {
    Q_OBJECT
private slots:
    void opensARealRankAndShowsTheStepTable() {
        bs::ui::MainWindow w;
        w.show();
        QSignalSpy spy(&w, &bs::ui::MainWindow::loadFinished);
        w.openPath(QDir::cleanPath(QStringLiteral(BS_REALDATA_DIR "/torch_npu_resnet_ddp/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json")));
        QVERIFY(spy.wait(60000));
        QCOMPARE(spy.at(0).at(0).toBool(), true);
        QVERIFY(w.reportText().contains(QStringLiteral("ProfilerStep#N markers")));
        QVERIFY(w.reportText().contains(QStringLiteral("25744.050 (Free)")));
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("rank0_ascend_pt")));
    }
    void aMissingFolderShowsTheMessageInTheWindow() {
        bs::ui::MainWindow w;
        QSignalSpy spy(&w, &bs::ui::MainWindow::loadFinished);
        w.openPath(QStringLiteral("/no/such/profile"));
        QVERIFY(spy.wait(10000));
        QCOMPARE(spy.at(0).at(0).toBool(), false);
        QVERIFY(w.reportText().contains(QStringLiteral("does not exist")));
    }
};

QTEST_MAIN(TstMainWindow)
#include "tst_main_window.moc"
