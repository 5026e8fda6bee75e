// The Compare tab (issue 16): the open rank against another profile. On a generated before/after pair
// (before: every planted anomaly; after: the sync bubble gone and DispatchFFNCombine twice as fast) the
// removed window is shown removed and selecting it puts both timelines at the same offset from their
// step's start; the op filter finds the faster op at about −50 %; the real L0 / L1 pair is compared with
// the profiler level named as a scope difference; a folder dropped with Shift held is compared, not opened.
// Screenshots: <build>/screenshots/11–13.
#include "compare_view.h"
#include "glossary.h"
#include "language.h"
#include "main_window.h"
#include "timeline_render.h"
#include "timeline_widget.h"

#include "pipeline/analysis_run.h"
#include "compare/compare.h"

#include "cli_support.h"

#include <QDir>
#include <QDropEvent>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QLineEdit>
#include <QMimeData>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTest>
#include <QUrl>
#include <QWindow>

#include <cmath>

namespace {
const char* kDfc = "aclnnDispatchFFNCombine_DispatchFFNCombine_DispatchFFNCombine";

// The English words of a text meant for reading: a capital or small letter, then small letters ("Host",
// "removed"). Ids in capitals (HCCL, CANN), names with digits or '_' and the units are not words.
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
} // namespace

class TstCompareView : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    QString before, after;
    const QString outDir = QStringLiteral(BS_SCREENSHOT_DIR);

    QString generate(const QString& name, const QStringList& args) {
        const QString out = bstest::generate(
            tmp.filePath(name), args + QStringList{QStringLiteral("--seed"), QStringLiteral("7")});
        return out.isEmpty() ? out : out + QStringLiteral("/synth_ascend_pt");
    }
    bool load(bs::ui::MainWindow& w, const QString& path) {
        QSignalSpy spy(&w, &bs::ui::MainWindow::loadFinished);
        w.openPath(path);
        return spy.wait(60000) && spy.at(0).at(0).toBool();
    }
    bool compare(bs::ui::MainWindow& w, const QString& path) {
        QSignalSpy spy(w.compareView(), &bs::ui::CompareView::comparisonFinished);
        w.compareWith(path);
        return spy.wait(60000) && spy.at(0).at(0).toBool();
    }
    void shoot(QWidget& w, const QString& name) {
        QCoreApplication::processEvents();
        w.grab().toImage().save(outDir + QLatin1Char('/') + name);
    }
    // The start of the step a side's window lies in (the side's own analysis).
    static bs::TimeNs stepStartOf(const bs::AnalysisResult& a, const bs::CompareWindow& w) {
        return a.steps.steps[static_cast<std::size_t>(w.stepIndex)].start;
    }

  private slots:
    void initTestCase() {
        QDir().mkpath(outDir);
        before = generate(QStringLiteral("before"), {QStringLiteral("--anomalies"), QStringLiteral("all")});
        after = generate(QStringLiteral("after"),
                         {QStringLiteral("--anomalies"),
                          QStringLiteral("launch-lag,untraced,comm-wait,aicpu-exposed,aicpu-masked,wait-anchor,variable-shapes,compile"),
                          QStringLiteral("--op-speedup"), QString::fromLatin1(kDfc) + QStringLiteral("=2")});
        QVERIFY(!before.isEmpty() && !after.isEmpty());
    }

    void generatedPairRemovedWindowAlignedInBothTimelines() {
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(load(w, before));
        QVERIFY(compare(w, after));
        bs::ui::CompareView* v = w.compareView();
        QCOMPARE(w.views()->currentWidget(), static_cast<QWidget*>(v));
        const bs::Comparison* c = v->comparison();
        QVERIFY(c);
        QVERIFY2(c->warnings.empty(), c->warnings.empty() ? "" : c->warnings.front().message.c_str());
        QCOMPARE(v->bubblesTable()->rowCount(), static_cast<int>(c->matches.size()));
        QCOMPARE(v->stepsTable()->rowCount(), static_cast<int>(c->figures.size()));

        // A removed window of the dominant group: selected in the base timeline, none in the new one, and
        // the new timeline shows the same offset from the step start as the base.
        int removedRow = -1;
        for (int r = 0; r < v->bubblesTable()->rowCount(); ++r) {
            const auto& m = c->matches[static_cast<std::size_t>(v->bubblesTable()->item(r, 0)->data(Qt::UserRole).toInt())];
            QCOMPARE(v->bubblesTable()->item(r, 0)->text(), QString::fromStdString(m.cls));
            if (m.cls == "removed" && m.dominant && removedRow < 0) removedRow = r;
        }
        QVERIFY(removedRow >= 0);
        v->bubblesTable()->selectRow(removedRow);
        const auto& removed = c->matches[static_cast<std::size_t>(v->bubblesTable()->item(removedRow, 0)->data(Qt::UserRole).toInt())];
        QCOMPARE(v->baseTimeline()->selectedBubble(), removed.base);
        QCOMPARE(v->newTimeline()->selectedBubble(), -1);
        const bs::CompareWindow& bw = c->base.windows[static_cast<std::size_t>(removed.base)];
        QVERIFY(v->baseTimeline()->viewStart() <= bw.start && v->baseTimeline()->viewEnd() >= bw.start + bw.dur);
        shoot(w, QStringLiteral("11_compare_generated_removed_window.png"));

        // An unchanged window: selected on both sides, both views at the same offset from their step start.
        int unchangedRow = -1;
        for (int r = 0; r < v->bubblesTable()->rowCount() && unchangedRow < 0; ++r) {
            const auto& m = c->matches[static_cast<std::size_t>(v->bubblesTable()->item(r, 0)->data(Qt::UserRole).toInt())];
            if (m.cls == "unchanged" && m.base >= 0 && m.next >= 0 &&
                c->base.windows[static_cast<std::size_t>(m.base)].stepIndex >= 0)
                unchangedRow = r;
        }
        QVERIFY(unchangedRow >= 0);
        v->bubblesTable()->selectRow(unchangedRow);
        const auto& same = c->matches[static_cast<std::size_t>(v->bubblesTable()->item(unchangedRow, 0)->data(Qt::UserRole).toInt())];
        QCOMPARE(v->baseTimeline()->selectedBubble(), same.base);
        QCOMPARE(v->newTimeline()->selectedBubble(), same.next);
        const bs::TimeNs offBase = v->baseTimeline()->viewStart() - stepStartOf(*v->baseAnalysis(), c->base.windows[static_cast<std::size_t>(same.base)]);
        const bs::TimeNs offNew = v->newTimeline()->viewStart() - stepStartOf(*v->newAnalysis(), c->next.windows[static_cast<std::size_t>(same.next)]);
        QCOMPARE(offBase, offNew);
        QCOMPARE(v->baseTimeline()->viewEnd() - v->baseTimeline()->viewStart(), v->newTimeline()->viewEnd() - v->newTimeline()->viewStart());

        // The op filter: DispatchFFNCombine made twice as fast shows about −50 % of its total.
        v->tabs()->setCurrentIndex(1);
        v->opsFilter()->setText(QStringLiteral("DispatchFFNCombine"));
        auto* proxy = qobject_cast<QSortFilterProxyModel*>(v->opsTable()->model());
        QVERIFY(proxy);
        QVERIFY(proxy->rowCount() >= 1);
        bool found = false;
        for (int r = 0; r < proxy->rowCount(); ++r) {
            if (proxy->index(r, 0).data().toString() != QString::fromLatin1(kDfc)) continue;
            found = true;
            const double pct = proxy->index(r, 8).data(Qt::UserRole).toDouble();
            QVERIFY2(std::fabs(pct + 50.0) <= 0.5, qPrintable(QString::number(pct)));
            QVERIFY(proxy->index(r, 8).data().toString().startsWith(QStringLiteral("\u2212")));
        }
        QVERIFY(found);
        shoot(w, QStringLiteral("12_compare_generated_ops_filtered.png"));
        v->tabs()->setCurrentIndex(0);
    }

    void realLevel0AgainstLevel1NamesTheProfilerLevel() {
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(load(w, QStringLiteral(BS_REALDATA_DIR "/torch_npu_resnet_ddp/level0/rank0_ascend_pt")));
        QVERIFY(compare(w, QStringLiteral(BS_REALDATA_DIR "/torch_npu_resnet_ddp/level1/rank0_ascend_pt")));
        const bs::Comparison* c = w.compareView()->comparison();
        QVERIFY(c);
        bool level = false;
        for (const auto& x : c->warnings)
            level = level || x.what == "profiler_level";
        QVERIFY(level);
        const QString text = w.compareView()->verdict()->toPlainText();
        QVERIFY2(text.startsWith(QStringLiteral("Not the same scope")), qPrintable(text.left(200)));
        QVERIFY(text.contains(QStringLiteral("Level0")) && text.contains(QStringLiteral("Level1")));
        // b0001, the prelaunch window at the capture's start, on both sides: the same span at the same
        // offset from each step's start although the base's view is held at its data's start.
        bs::ui::CompareView* v = w.compareView();
        int row = -1;
        for (int r = 0; r < v->bubblesTable()->rowCount(); ++r)
            if (v->bubblesTable()->item(r, 1)->text() == QStringLiteral("b0001")) row = r;
        QVERIFY(row >= 0);
        v->bubblesTable()->selectRow(row);
        const auto& m = c->matches[static_cast<std::size_t>(v->bubblesTable()->item(row, 0)->data(Qt::UserRole).toInt())];
        QVERIFY(m.base >= 0 && m.next >= 0);
        QCOMPARE(v->baseTimeline()->selectedBubble(), m.base);
        QCOMPARE(v->newTimeline()->selectedBubble(), m.next);
        const bs::TimeNs offBase = v->baseTimeline()->viewStart() - stepStartOf(*v->baseAnalysis(), c->base.windows[static_cast<std::size_t>(m.base)]);
        const bs::TimeNs offNew = v->newTimeline()->viewStart() - stepStartOf(*v->newAnalysis(), c->next.windows[static_cast<std::size_t>(m.next)]);
        QCOMPARE(offBase, offNew);
        QCOMPARE(v->baseTimeline()->viewEnd() - v->baseTimeline()->viewStart(), v->newTimeline()->viewEnd() - v->newTimeline()->viewStart());
        w.compareView()->tabs()->setCurrentIndex(2);
        shoot(w, QStringLiteral("13_compare_real_level0_level1.png"));
    }

    // Issue 46 item 6: in Chinese, what the Compare tab shows for reading is Chinese: the bubbles' fates, the
    // ops' statuses, the lane groups' titles, the threads the profiler left unnamed, the ops' PMU verdicts.
    void inChineseTheFatesStatusesGroupsThreadsAndPmuVerdictsHaveNoEnglishWord() {
        const QString qm = QDir::cleanPath(QStringLiteral(BS_SCREENSHOT_DIR "/../app/bubblescope_zh_CN.qm"));
        QVERIFY2(QFile::exists(qm), qPrintable(qm + QStringLiteral(" is missing: build bubblescope (it makes the .qm)")));
        bs::ui::setTranslationFile(qm);
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(load(w, before));
        QVERIFY(compare(w, after));
        bs::ui::CompareView* v = w.compareView();
        QCOMPARE(v->bubblesTable()->item(0, 0)->text(),
                 QString::fromStdString(v->comparison()->matches[static_cast<std::size_t>(
                     v->bubblesTable()->item(0, 0)->data(Qt::UserRole).toInt())].cls));
        bs::ui::applyLanguage(QStringLiteral("zh_CN"));
        QTRY_COMPARE(v->tabs()->tabText(2), QStringLiteral("气泡"));
        QCoreApplication::processEvents();
        auto noEnglish = [](const QString& where, const QString& text) {
            const QStringList words = englishWords(text);
            if (!words.isEmpty())
                QTest::qFail(qPrintable(QStringLiteral("%1 \"%2\": English %3").arg(where, text, words.join(QLatin1Char(' ')))),
                             __FILE__, __LINE__);
            return words.isEmpty();
        };
        QSet<QString> fates;
        for (int r = 0; r < v->bubblesTable()->rowCount(); ++r) {
            if (!noEnglish(QStringLiteral("fate"), v->bubblesTable()->item(r, 0)->text())) return;
            fates << v->bubblesTable()->item(r, 0)->text();
        }
        QVERIFY2(fates.contains(QStringLiteral("已消失")) && fates.contains(QStringLiteral("未变化")),
                 qPrintable(QStringList(fates.values()).join(QLatin1Char(' '))));
        // The step figures, in the words of the core's catalog.
        QCOMPARE(v->stepsTable()->item(0, 0)->text(), QStringLiteral("step 服务时间 (ms)"));
        const QAbstractItemModel* ops = v->opsTable()->model();
        QVERIFY(ops->rowCount() > 0);
        for (int r = 0; r < ops->rowCount(); ++r)
            if (!noEnglish(QStringLiteral("op status"), ops->index(r, 2).data().toString())) return;
        for (const char* group : {"Host", "HCCL", "Overlap Analysis"})
            if (!noEnglish(QStringLiteral("group title"), bs::ui::groupTitle(QLatin1String(group)))) return;
        // The threads: the profiler writes "Thread <id>" for a thread it has no name for; the window writes it in
        // its language ("线程 <id>"), after the process's name.
        static const QRegularExpression unnamed(QStringLiteral("(^|· )Thread \\d+$"));
        static const QRegularExpression chinese(QStringLiteral("(^|· )线程 \\d+$"));
        int threads = 0;
        for (bs::ui::TimelineWidget* t : {v->baseTimeline(), v->newTimeline()})
            for (int i = 0; i < t->trackCount(); ++i) {
                QVERIFY2(!unnamed.match(t->trackName(i)).hasMatch(), qPrintable(t->trackName(i)));
                threads += chinese.match(t->trackName(i)).hasMatch() ? 1 : 0;
            }
        QVERIFY(threads >= 2);
        // PMU verdicts, as a table cell shows them.
        int verdicts = 0;
        for (const auto& o : v->baseAnalysis()->anomaly.ops) {
            if (o.pmuVerdict.empty()) continue;
            if (!noEnglish(QStringLiteral("PMU verdict"), bs::ui::pmuVerdictText(o.pmuVerdict))) return;
            verdicts += o.pmuVerdict.rfind("compute-bound", 0) == 0 || o.pmuVerdict.rfind("memory-bound", 0) == 0;
        }
        QVERIFY(verdicts > 0);
        QCOMPARE(bs::ui::pmuVerdictText("compute-bound"), QStringLiteral("计算受限"));
        shoot(w, QStringLiteral("46_compare_zh_CN.png"));

        // Back in English: the ids the JSON writes.
        bs::ui::applyLanguage(QStringLiteral("en"));
        QTRY_COMPARE(v->tabs()->tabText(2), QStringLiteral("Bubbles"));
        QCoreApplication::processEvents();
        for (int r = 0; r < v->bubblesTable()->rowCount(); ++r)
            QCOMPARE(v->bubblesTable()->item(r, 0)->text(),
                     QString::fromStdString(v->comparison()->matches[static_cast<std::size_t>(
                         v->bubblesTable()->item(r, 0)->data(Qt::UserRole).toInt())].cls));
        QCOMPARE(bs::ui::groupTitle(QStringLiteral("Host")), QStringLiteral("Host"));
        QCOMPARE(v->stepsTable()->item(0, 0)->text(), QStringLiteral("step service (ms)"));
        QCOMPARE(bs::ui::pmuVerdictText("compute-bound"), QStringLiteral("compute-bound"));
    }

    void aFolderDroppedWithShiftIsCompared() {
        bs::ui::MainWindow w;
        w.resize(1000, 700);
        w.show();
        QVERIFY(load(w, before));
        QSignalSpy compared(w.compareView(), &bs::ui::CompareView::comparisonFinished);
        QSignalSpy opened(&w, &bs::ui::MainWindow::loadFinished);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(after)});
        // As the window system delivers a drop: to the window, a drag-enter first (it picks the target).
        const QPoint at = w.centralWidget()->mapTo(&w, QPoint(100, 100));
        QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::ShiftModifier);
        QCoreApplication::sendEvent(w.windowHandle(), &enter);
        QDropEvent drop(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::ShiftModifier);
        QCoreApplication::sendEvent(w.windowHandle(), &drop);
        QCOMPARE(w.views()->currentWidget(), static_cast<QWidget*>(w.compareView())); // compared at once
        QVERIFY(compared.wait(60000));
        QVERIFY(compared.at(0).at(0).toBool());
        QCOMPARE(opened.count(), 0); // the open rank stays the base
        QCOMPARE(w.compareView()->comparison()->next.folder, after.toStdString());
    }
};

QTEST_MAIN(TstCompareView)
#include "tst_compare_view.moc"
