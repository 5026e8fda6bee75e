// Timeline mapping (table-driven), item models (QAbstractItemModelTester) and the widget driven by
// real wheel, mouse and key events.
#include "analysis/analysis_run.h"
#include "io/profile_loader.h"
#include "panel_models.h"
#include "timeline_widget.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>
#include <QWheelEvent>

using namespace bs::ui;

class TstTimeline : public QObject {
    Q_OBJECT
    std::shared_ptr<const bs::Profile> profile;
    std::shared_ptr<const bs::AnalysisResult> analysis;

  private slots:
    void initTestCase() {
        auto found = bs::discoverProfiles(BS_SOURCE_DIR "/resources/sample/sample_ascend_pt");
        QCOMPARE(found.ranks.size(), std::size_t(1));
        auto load = bs::loadRank(found.ranks[0]);
        analysis = std::make_shared<bs::AnalysisResult>(bs::analyzeProfile(*load.profile));
        profile = std::shared_ptr<const bs::Profile>(std::move(load.profile));
    }
    void timeToPixelMapping_data() {
        QTest::addColumn<qint64>("t");
        QTest::addColumn<qint64>("s");
        QTest::addColumn<qint64>("e");
        QTest::addColumn<int>("w");
        QTest::addColumn<double>("x");
        QTest::newRow("start") << qint64(100) << qint64(100) << qint64(1100) << 1000 << 0.0;
        QTest::newRow("end") << qint64(1100) << qint64(100) << qint64(1100) << 1000 << 1000.0;
        QTest::newRow("middle") << qint64(600) << qint64(100) << qint64(1100) << 1000 << 500.0;
        QTest::newRow("before") << qint64(0) << qint64(100) << qint64(1100) << 500 << -50.0;
        QTest::newRow("absolute ns") << qint64(1736408883686740710LL + 5000) << qint64(1736408883686740710LL)
                                     << qint64(1736408883686750710LL) << 200 << 100.0;
    }
    void timeToPixelMapping() {
        QFETCH(qint64, t);
        QFETCH(qint64, s);
        QFETCH(qint64, e);
        QFETCH(int, w);
        QFETCH(double, x);
        QCOMPARE(timeToX(t, s, e, w), x);
        QCOMPARE(xToTime(x, s, e, w), t);
    }
    void ticksAreOneTwoFive_data() {
        QTest::addColumn<qint64>("span");
        QTest::addColumn<int>("width");
        QTest::addColumn<qint64>("step");
        QTest::newRow("1 ms over 1000 px") << qint64(1000000) << 1000 << qint64(100000); // 90 µs min → 100 µs
        QTest::newRow("4.2 s over 1200 px")
            << qint64(4213794000LL) << 1200 << qint64(500000000);                // 316 ms → 500 ms
        QTest::newRow("150 ns over 900 px") << qint64(150) << 900 << qint64(20); // 15 ns → 20 ns
    }
    void ticksAreOneTwoFive() {
        QFETCH(qint64, span);
        QFETCH(int, width);
        QFETCH(qint64, step);
        QCOMPARE(tickStep(0, span, width), step);
    }
    void itemModelsPassTheModelTester() {
        BubbleTableModel bubbles;
        QAbstractItemModelTester t1(&bubbles, QAbstractItemModelTester::FailureReportingMode::QtTest);
        bubbles.setAnalysis(profile, analysis);
        QCOMPARE(bubbles.rowCount(), 4);
        QCOMPARE(bubbles.index(0, BubbleTableModel::Rank).data().toString(), QStringLiteral("b0001"));
        QCOMPARE(bubbles.index(0, BubbleTableModel::Labels).data().toString(),
                 QStringLiteral("possible_untraced_host_blocking"));
        OpsTableModel ops;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&ops);
        proxy.setSortRole(Qt::UserRole);
        QAbstractItemModelTester t2(&ops, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t3(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        ops.setAnalysis(analysis);
        proxy.sort(OpsTableModel::Total, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, OpsTableModel::RankTotal).data().toInt(), 1);
        proxy.setFilterKeyColumn(OpsTableModel::Name);
        proxy.setFilterFixedString(QStringLiteral("Cast"));
        QCOMPARE(proxy.rowCount(), 1);
        QVERIFY(proxy.index(0, OpsTableModel::Flags)
                    .data()
                    .toString()
                    .contains(QStringLiteral("WAIT_ANCHOR_FALSE_HOTSPOT")));
        QStandardItemModel layers;
        QAbstractItemModelTester t4(&layers, QAbstractItemModelTester::FailureReportingMode::QtTest);
        fillLayerModel(layers, *profile, *analysis);
        QCOMPARE(layers.rowCount(), 18);         // passes
        QCOMPARE(layers.item(0)->rowCount(), 8); // layers per pass
        QVERIFY(layers.item(0)->child(3)->text().contains(QStringLiteral("MoE+DFC")));
    }
    void wheelKeysAndDragChangeTheView() {
        TimelineWidget w;
        w.resize(1200, 500);
        w.setModel(profile, analysis);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const qint64 span0 = w.viewEnd() - w.viewStart();
        QSignalSpy spy(&w, &TimelineWidget::viewChanged);
        // Ctrl+wheel up zooms in around the cursor.
        const QPointF pos(800, 150);
        QWheelEvent in(pos, w.mapToGlobal(pos), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::ControlModifier,
                       Qt::NoScrollPhase, false);
        QApplication::sendEvent(&w, &in);
        QVERIFY(w.viewEnd() - w.viewStart() < span0);
        QVERIFY(!spy.isEmpty());
        // The time under the cursor stays under the cursor.
        const qint64 span1 = w.viewEnd() - w.viewStart();
        QTest::keyClick(&w, Qt::Key_W);
        QVERIFY(w.viewEnd() - w.viewStart() < span1);
        QTest::keyClick(&w, Qt::Key_S);
        QVERIFY(std::llabs((w.viewEnd() - w.viewStart()) - span1) <=
                2); // W then S returns to the same span (integer rounding)
        const qint64 s0 = w.viewStart();
        QTest::keyClick(&w, Qt::Key_D);
        QVERIFY(w.viewStart() > s0);
        QTest::keyClick(&w, Qt::Key_A);
        QVERIFY(std::llabs(w.viewStart() - s0) <= 2);
        // Drag to the right moves the view to earlier times.
        const qint64 before = w.viewStart();
        QTest::mousePress(&w, Qt::LeftButton, Qt::NoModifier, QPoint(700, 200));
        QMouseEvent move(QEvent::MouseMove, QPointF(900, 200), w.mapToGlobal(QPointF(900, 200)), Qt::NoButton,
                         Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&w, &move);
        QTest::mouseRelease(&w, Qt::LeftButton, Qt::NoModifier, QPoint(900, 200));
        QVERIFY(w.viewStart() < before);
        QTest::keyClick(&w, Qt::Key_F);
        QCOMPARE(w.viewStart(), w.dataStart());
        QCOMPARE(w.viewEnd(), w.dataEnd());
        // N jumps to the largest bubble and shows it with context; P wraps to the smallest.
        QSignalSpy sel(&w, &TimelineWidget::bubbleSelected);
        QTest::keyClick(&w, Qt::Key_N);
        QCOMPARE(sel.count(), 1);
        QCOMPARE(w.selectedBubble(), 0);
        const auto& b = analysis->anomaly.windows[0];
        QVERIFY(w.viewStart() < b.span.a && w.viewEnd() > b.span.b);
        QVERIFY(w.viewEnd() - w.viewStart() < 3 * b.span.length());
        QTest::keyClick(&w, Qt::Key_P);
        QCOMPARE(w.selectedBubble(), 3);
        // The Host group folds and unfolds from its header.
        QVERIFY(!w.isGroupCollapsed(QStringLiteral("Host")));
        w.setGroupCollapsed(QStringLiteral("Host"), true);
        QVERIFY(w.isGroupCollapsed(QStringLiteral("Host")));
        QVERIFY(w.isGroupCollapsed(QStringLiteral("Overlap Analysis"))); // collapsed by default
    }
    void tracksAreNamedPerStream() {
        TimelineWidget w;
        w.setModel(profile, analysis);
        QStringList names;
        for (int i = 0; i < w.trackCount(); ++i)
            names << w.trackName(i);
        for (const char* n :
             {"Steps", "Layers", "Device busy", "Stream 2", "Stream 5", "Stream 6", "Stream 7"})
            QVERIFY2(names.contains(QString::fromLatin1(n)), n);
    }
};

QTEST_MAIN(TstTimeline)
#include "tst_timeline.moc"
