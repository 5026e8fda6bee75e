// Screenshots of the main window, written to <build>/screenshots for review: the sample profile, a
// real rank with a bubble selected, and the zh_CN UI. The test checks what can be checked in pixels:
// the image size, that the selected bubble's band is drawn where the timeline says it is, and that a cut
// trace's error is named at the top of the summary.
#include "cluster_view.h"
#include "ranks_tab.h"
#include "main_window.h"
#include "panels/charts_panel.h"
#include "ui_test_support.h"
#include "cluster/cluster_model.h"
#include "timeline_widget.h"
#include "language.h"
#include "pipeline/analysis_run.h"
#include "i18n/message.h"
#include "io/discovery.h"
#include "io/profile_loader.h"

#include <QApplication>
#include <QDir>
#include <QProcess>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTest>
#include <QMenu>
#include <QMenuBar>

namespace {

using bstest::clickLink;

} // namespace

class TstScreenshots : public QObject {
    Q_OBJECT
    const QString outDir = QStringLiteral(BS_SCREENSHOT_DIR);

    bool load(bs::ui::MainWindow& w, const QString& path, bool sample) {
        QSignalSpy spy(&w, &bs::ui::MainWindow::loadFinished);
        if (sample)
            w.openSample(path);
        else
            w.openPath(path);
        return spy.wait(60000) && spy.at(0).at(0).toBool();
    }
    QImage shoot(QWidget& w, const QString& name) {
        QCoreApplication::processEvents();
        const QImage img = w.grab().toImage();
        img.save(outDir + QLatin1Char('/') + name);
        return img;
    }

  private slots:
    void initTestCase() { QDir().mkpath(outDir); }
    void sampleProfile() {
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(load(w, QStringLiteral(BS_SOURCE_DIR "/resources/sample/sample_ascend_pt"), true));
        QVERIFY(w.isShowingSample());
        const QImage img = shoot(w, QStringLiteral("01_sample_profile.png"));
        QCOMPARE(img.size(), QSize(1400, 900));
        w.tabs()->setCurrentIndex(4);
        shoot(w, QStringLiteral("04_sample_charts.png"));
        w.charts()->setIdleOnly(true);
        shoot(w, QStringLiteral("04b_sample_charts_idle_only.png"));
        w.charts()->setShowsShares(true);
        w.tabs()->setCurrentIndex(2);
        shoot(w, QStringLiteral("05_sample_layers.png"));
    }
    void realRankWithABubbleSelected() {
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(
            load(w, QStringLiteral(BS_REALDATA_DIR "/torch_npu_resnet_ddp/level1/rank0_ascend_pt"), false));
        w.tabs()->setCurrentIndex(1);
        w.bubbleTable()->selectRow(2);
        QCOMPARE(w.timeline()->selectedBubble(), 2);
        const QImage img = shoot(w, QStringLiteral("02_real_level1_rank0_bubble_b0003.png"));
        QCOMPARE(img.size(), QSize(1400, 900));
        // The selected window is centred with context: its band (translucent red over the device
        // tracks) covers the middle of the timeline.
        auto* tl = w.timeline();
        const QPoint mid = tl->mapTo(&w, QPoint(190 + (tl->width() - 190) / 2, 80));
        const QColor c = img.pixelColor(mid);
        QVERIFY2(c.red() > c.blue(), qPrintable(c.name()));
    }
    void realRankB0001ShowsTheUserLinesFirst() {
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(
            load(w, QStringLiteral(BS_REALDATA_DIR "/torch_npu_resnet_ddp/level1/rank0_ascend_pt"), false));
        w.tabs()->setCurrentIndex(1);
        w.bubbleTable()->selectRow(0);
        QCOMPARE(w.timeline()->selectedBubble(), 0);
        const QString text = w.bubbleDetail()->toPlainText();
        // The user's lines come before the raw kernels: line 350 (.to() of the batch) first.
        const auto user = text.indexOf(QStringLiteral("Your code behind this bubble:"));
        const auto line350 = text.indexOf(QStringLiteral("main.py:350 train"));
        QVERIFY2(user >= 0 && line350 > user, qPrintable(text));
        QVERIFY(line350 < text.indexOf(QStringLiteral("main.py:345 train")));
        QVERIFY(line350 < text.indexOf(QStringLiteral("Kernel")));
        // Line 350 clicked: its host events highlighted (amber) on the timeline, its full stack shown.
        QVERIFY(clickLink(w.bubbleDetail(), QStringLiteral("line:0")));
        auto* tl = w.timeline();
        QVERIFY(!tl->highlightedHostEvents().empty());
        QVERIFY(w.stackPane()->isVisible());
        QVERIFY(w.stackPane()->toPlainText().contains(QStringLiteral("Call stack of")));
        const QImage img = shoot(w, QStringLiteral("08_real_level1_rank0_b0001_user_lines.png"));
        QCOMPARE(img.size(), QSize(1400, 900));
        const QPoint at = tl->hostEventPosition(tl->highlightedHostEvents().front());
        QVERIFY(tl->rect().contains(at));
        const QColor c = img.pixelColor(tl->mapTo(&w, at));
        QVERIFY2(c.red() > 200 && c.green() > 150 && c.blue() < 80, qPrintable(c.name()));
    }
    void aCutTraceIsNamedAtTheTopOfTheSummary() {
        // The sample with its trace_view.json cut at 60 %: trace_truncated is an error finding, named before
        // the five answers with the confidence it lowered.
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString src = QStringLiteral(BS_SOURCE_DIR "/resources/sample/sample_ascend_pt");
        const QString dst = tmp.filePath(QStringLiteral("cut_ascend_pt"));
        QVERIFY(QDir().mkpath(dst + QStringLiteral("/ASCEND_PROFILER_OUTPUT")));
        for (const QString& f : {QStringLiteral("profiler_info_0.json"), QStringLiteral("profiler_metadata.json"),
                                 QStringLiteral("ASCEND_PROFILER_OUTPUT/kernel_details.csv"),
                                 QStringLiteral("ASCEND_PROFILER_OUTPUT/step_trace_time.csv"),
                                 QStringLiteral("ASCEND_PROFILER_OUTPUT/op_statistic.csv"),
                                 QStringLiteral("ASCEND_PROFILER_OUTPUT/communication.json")})
            QVERIFY(QFile::copy(src + QLatin1Char('/') + f, dst + QLatin1Char('/') + f));
        QFile in(src + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray trace = in.readAll();
        QFile out(dst + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"));
        QVERIFY(out.open(QIODevice::WriteOnly));
        QCOMPARE(out.write(trace.left(trace.size() * 6 / 10)), qint64(trace.size() * 6 / 10));
        out.close();
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(load(w, dst, false));
        w.tabs()->setCurrentIndex(0);
        const QString text = w.summary()->toPlainText();
        const auto err = text.indexOf(QStringLiteral("Data errors: trace_truncated in trace_view.json at byte "));
        QVERIFY2(err >= 0, qPrintable(text));
        QVERIFY(err < text.indexOf(QStringLiteral("Are there significant bubbles?")));
        QVERIFY(text.contains(QStringLiteral("They lower the confidence (now ")));
        shoot(w, QStringLiteral("06_cut_trace_summary.png"));
    }
    void aDatabaseExportSaysWhichTablesItRead() {
        // The real L1 rank 0 exported as SQLite only: the Health tab names the tables read, the Summary's
        // cross-check names analysis.db.
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(load(w, QStringLiteral(BS_REALDATA_DIR "/torch_npu_resnet_ddp_db/level1/rank0_ascend_pt"), false));
        QVERIFY(w.summary()->toPlainText().contains(QStringLiteral("Profiler cross-check (analysis.db StepTraceTime, µs)")));
        w.tabs()->setCurrentIndex(5);
        const QString health = w.health()->toPlainText();
        QVERIFY2(health.contains(QStringLiteral("db_source")), qPrintable(health));
        QVERIFY(health.contains(QStringLiteral("ascend_pytorch_profiler_0.db:TASK (552 rows)")));
        QVERIFY(health.contains(QStringLiteral("analysis.db:StepTraceTime (1 row)")));
        shoot(w, QStringLiteral("07_db_export_health.png"));
    }
    // Opens a parent of several ranks and waits for the Cluster view.
    bool loadCluster(bs::ui::MainWindow& w, const QString& path) {
        QSignalSpy spy(w.clusterView(), &bs::ui::ClusterView::analysisFinished);
        QSignalSpy loaded(&w, &bs::ui::MainWindow::loadFinished);
        w.openPath(path);
        if (!spy.wait(120000) || !spy.at(0).at(0).toBool()) return false;
        return !loaded.isEmpty() || loaded.wait(120000);
    }
    void clusterOfTheRealLevel1Pair() {
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(loadCluster(w, QStringLiteral(BS_REALDATA_DIR "/torch_npu_resnet_ddp/level1")));
        QCOMPARE(w.views()->currentWidget(), static_cast<QWidget*>(w.clusterView()));
        const QImage img = shoot(w, QStringLiteral("09_cluster_real_level1.png"));
        QCOMPARE(img.size(), QSize(1400, 900));
    }
    void clusterOfEightGeneratedRanksWithASlowRank() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString out = tmp.filePath(QStringLiteral("gen"));
        QProcess synth;
        synth.start(QStringLiteral(BS_SYNTH), {QStringLiteral("--ranks"), QStringLiteral("8"), QStringLiteral("--slow-rank"),
                                              QStringLiteral("5"), QStringLiteral("--slow-ms"), QStringLiteral("4"),
                                              QStringLiteral("--out"), out, QStringLiteral("--name"),
                                              QStringLiteral("llm"), QStringLiteral("--quiet")});
        QVERIFY(synth.waitForFinished(300000));
        QCOMPARE(synth.exitCode(), 0);
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(loadCluster(w, out));
        const auto c = w.clusterView()->cluster();
        QCOMPARE(c->ranks.size(), std::size_t(8)); // cluster_analysis_output is not a rank
        QVERIFY(!c->slowRanks.empty());
        for (const auto& e : c->slowRanks)
            QCOMPARE(c->ranks[static_cast<std::size_t>(e.rank)].rankId, 5);
        const QImage img = shoot(w, QStringLiteral("10_cluster_synth_8ranks.png"));
        QCOMPARE(img.size(), QSize(1400, 900));
        // The Ranks tab: every rank on one timeline, fitted to the delayed step.
        w.clusterView()->tabs()->setCurrentWidget(w.clusterView()->ranksTab());
        QVERIFY(w.clusterView()->ranksTab()->showsTimeline());
        QVERIFY(w.clusterView()->ranksTab()->fitStep(c->slowRanks.front().steps.front()));
        QCOMPARE(shoot(w, QStringLiteral("10b_cluster_synth_8ranks_ranks_tab.png")).size(), QSize(1400, 900));
    }
    // Within each menu (and the menu bar) no two entries share an accelerator key.
    static void checkAccelerators(QWidget& w) {
        QList<QWidget*> menus{w.findChild<QMenuBar*>()};
        for (QMenu* m : w.findChildren<QMenu*>()) menus << m;
        for (QWidget* m : menus) {
            QMap<QChar, QString> keys;
            for (QAction* a : m->actions()) {
                const QString t = a->text();
                const qsizetype amp = t.indexOf(QLatin1Char('&'));
                if (amp < 0 || amp + 1 >= t.size()) continue;
                const QChar k = t.at(amp + 1).toUpper();
                QVERIFY2(!keys.contains(k), qPrintable(QStringLiteral("%1 and %2 share &%3").arg(keys.value(k), t, k)));
                keys.insert(k, t);
            }
        }
    }

    // View ▸ Language applies at once: the window's own words (Qt translator) and the analysis's sentences
    // (core/i18n) change in the open window, and back.
    void chineseUiAtOnce() {
        const QString sample = QStringLiteral(BS_SOURCE_DIR "/resources/sample/sample_ascend_pt");
        // The sample's findings as the core writes them: their Chinese and English must be what the
        // Health panel shows in each language.
        const auto found = bs::discoverProfiles(sample.toStdString());
        QVERIFY(!found.ranks.empty());
        const auto loaded = bs::loadRank(found.ranks[0]);
        QVERIFY(loaded.profile);
        const bs::AnalysisResult r = bs::analyzeProfile(*loaded.profile);
        const bs::Finding* f = nullptr;
        for (const auto& x : r.findings)
            if (bs::hasMessage(x.seen)) {
                f = &x;
                break;
            }
        QVERIFY2(f, "the sample has no finding written as a message");
        const QString en = QString::fromStdString(bs::render(f->seen, bs::Language::English));
        const QString zh = QString::fromStdString(bs::render(f->seen, bs::Language::Chinese));
        QVERIFY(en != zh);

        bs::ui::setTranslationFile(QStringLiteral(BS_QM_FILE));
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(load(w, sample, true));
        QCOMPARE(w.tabs()->tabText(0), QStringLiteral("Summary"));
        QVERIFY(w.health()->toPlainText().contains(en));

        bs::ui::applyLanguage(QStringLiteral("zh_CN"));
        QTRY_COMPARE(w.tabs()->tabText(0), QStringLiteral("概览"));
        QVERIFY(w.health()->toPlainText().contains(zh));
        QVERIFY(!w.health()->toPlainText().contains(en));
        QCOMPARE(w.menuBar()->actions().front()->text(), QStringLiteral("文件(&F)"));
        checkAccelerators(w);
        // The timeline's lanes and the text report follow too.
        QVERIFY(!w.reportText().contains(QStringLiteral("== What to do next")));
        w.tabs()->setCurrentIndex(1);
        w.bubbleTable()->selectRow(0);
        shoot(w, QStringLiteral("03_sample_zh_CN.png"));
        w.tabs()->setCurrentIndex(0);
        shoot(w, QStringLiteral("03b_sample_zh_CN_summary.png"));
        w.tabs()->setCurrentIndex(w.tabs()->indexOf(w.health()));
        shoot(w, QStringLiteral("03c_sample_zh_CN_health.png"));

        bs::ui::applyLanguage(QStringLiteral("en"));
        QTRY_COMPARE(w.tabs()->tabText(0), QStringLiteral("Summary"));
        QVERIFY(w.health()->toPlainText().contains(en));
        QCOMPARE(w.menuBar()->actions().front()->text(), QStringLiteral("&File"));
        checkAccelerators(w);
        QVERIFY(w.reportText().contains(QStringLiteral("== What to do next")));
    }
};

QTEST_MAIN(TstScreenshots)
#include "tst_screenshots.moc"
