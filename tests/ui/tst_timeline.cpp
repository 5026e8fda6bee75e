// Timeline mapping (table-driven), item models (QAbstractItemModelTester) and the widget driven by
// real wheel, mouse and key events; issue 17: render passes, selection, search, flows, legend,
// orientation, host call depth. Screenshots go to <build>/shots/ (looked at, not compared).
#include "pipeline/analysis_run.h"
#include "io/profile_loader.h"
#include "model/profile.h"
#include "panel_models.h"
#include "layer_tree_model.h"
#include "architecture/architecture_analysis.h"
#include "timeline_image.h"
#include "timeline_layout.h"
#include "timeline_search.h"
#include "timeline_widget.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>
#include <QToolTip>
#include <QWheelEvent>

#include <set>

using namespace bs::ui;

namespace {

struct Loaded {
    std::shared_ptr<const bs::Profile> profile;
    std::shared_ptr<const bs::AnalysisResult> analysis;
};

Loaded loadFolder(const QString& path) {
    auto found = bs::discoverProfiles(path.toStdString());
    if (found.ranks.empty()) return {};
    auto load = bs::loadRank(found.ranks[0]);
    if (!load.profile) return {};
    auto analysis = std::make_shared<bs::AnalysisResult>(bs::analyzeProfile(*load.profile));
    return {std::shared_ptr<const bs::Profile>(std::move(load.profile)), analysis};
}

QString shotPath(const QString& name) {
    const QString dir = QCoreApplication::applicationDirPath() + QStringLiteral("/../shots");
    QDir().mkpath(dir);
    return QDir(dir).absoluteFilePath(name);
}

QImage shoot(QWidget& w, const QString& name) {
    const QImage img = w.grab().toImage();
    img.save(shotPath(name));
    return img;
}

void sendMove(QWidget& w, QPoint at, Qt::MouseButtons buttons = Qt::NoButton) {
    QMouseEvent move(QEvent::MouseMove, QPointF(at), w.mapToGlobal(QPointF(at)), Qt::NoButton, buttons, Qt::NoModifier);
    QApplication::sendEvent(&w, &move);
}

QString tooltipAt(QWidget& w, QPoint at) {
    QToolTip::hideText();
    QHelpEvent help(QEvent::ToolTip, at, w.mapToGlobal(at));
    QApplication::sendEvent(&w, &help);
    return QToolTip::isVisible() ? QToolTip::text() : QString();
}

// The first kernel whose launch has a host event (the sample's async_npu flows).
int kernelWithLaunch(const TimelineWidget& w, const bs::Profile& p) {
    for (std::size_t k = 0; k < p.kernels.size(); ++k)
        if (w.launchingHostEvent(static_cast<int>(k)) >= 0) return static_cast<int>(k);
    return -1;
}

// The host op that launched kernel k, from the profile's flows alone: the 'f' at the kernel's start on its
// stream, its 's', the innermost host event on the 's' lane around it; -1 when there is none.
int launchingHostOpFromFlows(const bs::Profile& p, std::size_t k) {
    const auto& kk = p.kernels[k];
    const bs::FlowEvent* f = nullptr;
    for (const auto& x : p.flows)
        if (x.phase == 'f' && x.ts == kk.start && p.lanes[x.lane].kind == bs::LaneKind::Device &&
            static_cast<int>(p.lanes[x.lane].tid) == kk.stream) {
            f = &x;
            break;
        }
    if (!f) return -1;
    const bs::FlowEvent* s = nullptr;
    for (const auto& x : p.flows)
        if (x.phase == 's' && x.id == f->id) s = &x;
    if (!s) return -1;
    int best = -1;
    for (std::size_t i = 0; i < p.hostEvents.size(); ++i) {
        const auto& e = p.hostEvents[i];
        if (e.lane == s->lane && e.ts <= s->ts && e.end() >= s->ts &&
            (best < 0 || e.dur < p.hostEvents[static_cast<std::size_t>(best)].dur))
            best = static_cast<int>(i);
    }
    return best;
}

// A point is shown when it is in the plot (right of the labels) and in the lanes' area (below the ruler and
// the pinned rows' band is not checked: streams and host lanes scroll under it).
bool shownInPlot(const TimelineWidget& w, QPoint at) {
    return at.x() > w.labelWidth() && at.x() < w.width() && w.lanesArea().contains(at);
}

// Every laid-out row's rectangle, clipped to what is drawn (the lanes' area), misses the legend.
void checkLegendCoversNoRow(const TimelineWidget& w) {
    const QRectF legend = w.legendRect();
    QVERIFY(!legend.isEmpty());
    QVERIFY2(!legend.intersects(QRectF(w.lanesArea())), "the legend overlaps the lanes' area");
    int rows = 0;
    for (int t = 0; t < w.trackCount(); ++t) {
        std::vector<int> levels{-1};
        if (w.hostDepthCount(t) > 1 && !w.isHostDepthFolded(t))
            for (int d = w.firstHostDepthShown(t); d < w.hostDepthCount(t); ++d)
                levels.push_back(d);
        for (int level : levels) {
            const int top = w.trackRowTop(t, level);
            if (top < 0) continue;
            const QRectF row = QRectF(0, top, w.width(), 20).intersected(QRectF(w.lanesArea()));
            if (row.isEmpty()) continue;
            ++rows;
            QVERIFY2(
                !row.intersects(legend),
                qPrintable(
                    QStringLiteral("track %1 level %2 at y %3 under the legend").arg(t).arg(level).arg(top)));
        }
    }
    QVERIFY(rows > 3);
}

void checkBadgesApart(const TimelineWidget& w, int expected) {
    const auto badges = w.badgeRects();
    QCOMPARE(static_cast<int>(badges.size()), expected);
    for (std::size_t i = 0; i < badges.size(); ++i) {
        const QRectF& a = badges[i];
        QVERIFY2(a.left() >= w.labelWidth() && a.right() <= w.width() && a.top() >= 26 && a.bottom() <= w.height(),
                 qPrintable(QStringLiteral("badge %1 at %2,%3 outside the plot").arg(i).arg(a.left()).arg(a.top())));
        for (std::size_t j = i + 1; j < badges.size(); ++j)
            QVERIFY2(!a.intersects(badges[j]), qPrintable(QStringLiteral("badges %1 and %2 overlap").arg(i).arg(j)));
    }
}

int bubblesInViewAmongTopFive(const TimelineWidget& w, const bs::AnalysisResult& r) {
    int n = 0;
    for (std::size_t i = 0; i < r.anomaly.windows.size() && i < 5; ++i)
        n += r.anomaly.windows[i].span.b > w.viewStart() && r.anomaly.windows[i].span.a < w.viewEnd();
    return n;
}

} // namespace

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
        // The Layers tree: lazy over the architecture result (kernel leaves made when asked).
        LayerTreeModel layers;
        QAbstractItemModelTester t4(&layers, QAbstractItemModelTester::FailureReportingMode::QtTest);
        layers.setAnalysis(profile, *analysis);
        QCOMPARE(layers.rowCount(), 18);                   // passes
        QCOMPARE(layers.rowCount(layers.index(0, 0)), 8); // layers per pass
        QVERIFY(layers.index(3, 0, layers.index(0, 0)).data().toString().contains(QStringLiteral("MoE+DFC")));
        // Down to a kernel leaf: its name, duration, stream and span are the kernel's; every kernel of the
        // pass's layers is a leaf once.
        const QModelIndex layer = layers.index(0, 0, layers.index(0, 0));
        const QModelIndex role = layers.index(0, 0, layer);
        QVERIFY(layers.hasChildren(role));
        const QModelIndex leaf = layers.index(0, 0, role);
        QVERIFY(!layers.hasChildren(leaf));
        QCOMPARE(leaf.parent(), role);
        QCOMPARE(leaf.parent().parent(), layer);
        const qint64 ks = leaf.data(Qt::UserRole).toLongLong();
        const auto k = std::find_if(profile->kernels.begin(), profile->kernels.end(), [&](const bs::Kernel& x) {
            return x.start == ks && QString::fromUtf8(profile->str(x.name)) == leaf.data().toString();
        });
        QVERIFY(k != profile->kernels.end());
        QCOMPARE(leaf.data(Qt::UserRole + 1).toLongLong(), k->start + k->dur);
        QCOMPARE(leaf.siblingAtColumn(LayerTreeModel::Stream).data().toString(), QString::number(k->stream));
        QCOMPARE(leaf.siblingAtColumn(LayerTreeModel::Wall).data().toString(), QString::number(bs::nsToMs(k->dur), 'f', 4));
        int leaves = 0;
        for (int r = 0; r < layers.rowCount(layer); ++r)
            leaves += layers.rowCount(layers.index(r, 0, layer));
        const auto& l = analysis->architecture.layers[static_cast<std::size_t>(analysis->architecture.passes[0].layers[0])];
        QCOMPARE(static_cast<std::size_t>(leaves), bs::kernelIndexAt(*profile, l.span.b) - bs::kernelIndexAt(*profile, l.span.a));
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
    // 1. Render passes: the sample at fit is painted (bands, kernels, badges) and its paint time printed.
    void renderPassesPaintTheSampleAtFit() {
        TimelineWidget w;
        w.resize(1400, 700);
        w.setModel(profile, analysis);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QImage img = shoot(w, QStringLiteral("t01_sample_fit.png"));
        QCOMPARE(img.size(), QSize(1400, 700));
        // A kernel of stream 2 is drawn in a kernel colour (not the background) where the widget says it is.
        const QPoint k = w.kernelPosition(0);
        QVERIFY(w.rect().contains(k));
        QVERIFY(img.pixelColor(k) != w.palette().color(QPalette::Base));
        std::vector<double> ms;
        for (int i = 0; i < 9; ++i)
            ms.push_back(w.renderOnceMs());
        std::sort(ms.begin(), ms.end());
        qInfo("sample at fit, 1400x700: paint median %.2f ms (%zu kernels, %zu host events, %zu flow links)", ms[4],
              profile->kernels.size(), profile->hostEvents.size(), w.flowLinkCount());
    }
    void paintTimeOfAMillionKernelsAndNestedHostEventsIsPrinted() {
        // In memory, as the bench: 10^6 kernels on two streams, 10^6 host events nested three deep, a launch
        // flow per kernel. Only printed: the machine is shared.
        auto p = std::make_shared<bs::Profile>();
        const bs::StrId names[] = {p->strings.intern("MatMulV3"), p->strings.intern("RmsNorm"), p->strings.intern("aten::add"),
                                   p->strings.intern("aclnnAdd"), p->strings.intern("AI_CORE")};
        p->lanes = {{1, 1, bs::LaneKind::Host}, {2, 2, bs::LaneKind::Device}};
        bs::TimeNs t = 1736408883686740710LL;
        const std::size_t n = 1'000'000;
        p->kernels.reserve(n);
        for (std::size_t i = 0; i < n; ++i) {
            bs::Kernel k;
            k.start = t;
            k.dur = 3000 + static_cast<bs::TimeNs>((i * 7919) % 20000);
            k.name = names[i % 2];
            k.taskType = names[4];
            k.stream = 2;
            k.cls = bs::TaskClass::ComputeCore;
            p->kernels.push_back(k);
            if (i % 3 == 0) { // an op holding a launch holding an innermost call
                bs::TraceEvent e;
                e.ts = t - 2500;
                e.dur = 2400;
                e.name = names[2];
                p->hostEvents.push_back(e);
                e.ts += 100, e.dur = 2000, e.name = names[3];
                p->hostEvents.push_back(e);
                e.ts += 100, e.dur = 500;
                p->hostEvents.push_back(e);
                p->flows.push_back({e.ts + 10, i, 0, 0, 's'});
                p->flows.push_back({t, i, 0, 1, 'f'});
            }
            t += k.dur + 1200 + ((i % 997) == 0 ? 80000 : 0);
        }
        std::sort(p->flows.begin(), p->flows.end(), [](const bs::FlowEvent& a, const bs::FlowEvent& b) {
            return a.ts != b.ts ? a.ts < b.ts : a.id < b.id;
        });
        auto r = std::make_shared<bs::AnalysisResult>(bs::analyzeProfile(*p));
        QElapsedTimer build;
        build.start();
        TimelineWidget w;
        w.resize(1600, 900);
        w.setModel(p, r);
        const double buildMs = static_cast<double>(build.elapsed());
        QCOMPARE(w.flowLinkCount(), n / 3 + 1);
        QCOMPARE(w.hostDepthCount(w.trackCount() - 1), 3);
        w.setShowAllFlowsInView(true);
        w.setLegendVisible(true);
        std::vector<double> fit, in;
        for (int i = 0; i < 5; ++i)
            fit.push_back(w.renderOnceMs());
        const bs::TimeNs mid = (w.dataStart() + w.dataEnd()) / 2, span = (w.dataEnd() - w.dataStart()) / 20000;
        w.setView(mid - span, mid + span);
        for (int i = 0; i < 5; ++i)
            in.push_back(w.renderOnceMs());
        std::sort(fit.begin(), fit.end());
        std::sort(in.begin(), in.end());
        qInfo("10^6 kernels + 10^6 host events (3 depths) + 333k flows, 1600x900: model %.0f ms, paint at fit median %.2f ms, "
              "zoomed in (all flows in view drawn) %.2f ms",
              buildMs, fit[2], in[2]);
        const QByteArray big = qgetenv("BS_BIG_PROFILE"); // a generated ~500 MB profile, when given
        if (!big.isEmpty()) {
            QElapsedTimer t0;
            t0.start();
            const Loaded L = loadFolder(QString::fromLocal8Bit(big));
            QVERIFY(L.profile);
            const double loadS = static_cast<double>(t0.elapsed()) / 1000;
            TimelineWidget bw;
            bw.resize(1600, 900);
            t0.restart();
            bw.setModel(L.profile, L.analysis);
            const double modelMs = static_cast<double>(t0.elapsed());
            std::vector<double> v;
            for (int i = 0; i < 5; ++i)
                v.push_back(bw.renderOnceMs());
            std::sort(v.begin(), v.end());
            qInfo("%s: load %.1f s, timeline model %.0f ms, paint at fit median %.2f ms (%zu kernels, %zu host events)",
                  big.constData(), loadS, modelMs, v[2], L.profile->kernels.size(), L.profile->hostEvents.size());
        }
    }

    // 2. Selection feedback.
    void aClickedKernelIsOutlinedAndEscClearsSelectionRangeAndMatches() {
        TimelineWidget w;
        w.resize(1400, 700);
        w.setModel(profile, analysis);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const int k = 100;
        const auto& kk = profile->kernels[k];
        w.focusRange(kk.start, kk.end());
        QSignalSpy clicked(&w, &TimelineWidget::kernelClicked);
        const QPoint at = w.kernelPosition(k);
        QVERIFY(w.rect().contains(at));
        QTest::mouseClick(&w, Qt::LeftButton, Qt::NoModifier, at);
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.at(0).at(0).toInt(), k);
        QCOMPARE(w.selectedKernel(), k);
        // The outline: dark pixels just outside the kernel's left edge on its row.
        const QImage img = shoot(w, QStringLiteral("t02_selected_kernel.png"));
        const int x0 = static_cast<int>(timeToX(kk.start, w.viewStart(), w.viewEnd(), w.width() - w.labelWidth())) + w.labelWidth();
        bool dark = false;
        for (int dx = -3; dx <= 1; ++dx)
            dark |= img.pixelColor(x0 + dx, at.y()).lightness() < 40;
        QVERIFY2(dark, "no outline at the selected kernel's edge");
        // setSelectedKernel selects without emitting kernelClicked; -1 clears.
        w.setSelectedKernel(5);
        QCOMPARE(w.selectedKernel(), 5);
        QCOMPARE(clicked.count(), 1);
        w.setSelectedKernel(-1);
        QCOMPARE(w.selectedKernel(), -1);
        w.setSelectedKernel(k);
        // A range (Shift+drag) and search matches, then Esc clears all three.
        QTest::mousePress(&w, Qt::LeftButton, Qt::ShiftModifier, QPoint(400, 60));
        sendMove(w, QPoint(700, 60), Qt::LeftButton);
        QTest::mouseRelease(&w, Qt::LeftButton, Qt::ShiftModifier, QPoint(700, 60));
        QVERIFY(w.hasRangeSelection());
        w.setSearchMatches(findMatches(*profile, *analysis, QStringLiteral("matmul")));
        QVERIFY(!w.searchMatches().empty());
        QSignalSpy cleared(&w, &TimelineWidget::selectionCleared);
        QTest::keyClick(&w, Qt::Key_Escape);
        QCOMPARE(cleared.count(), 1);
        QCOMPARE(w.selectedKernel(), -1);
        QVERIFY(!w.hasRangeSelection());
        QVERIFY(w.searchMatches().empty());
        QCOMPARE(w.currentMatch(), -1);
    }

    // 3. Search.
    void findMatchesIsCaseInsensitiveInTimeOrderWithCountsPerKind() {
        MatchCounts counts;
        const auto m = findMatches(*profile, *analysis, QStringLiteral("mAtMuL"), &counts);
        std::size_t kernels = 0, host = 0;
        for (const auto& k : profile->kernels)
            kernels += QString::fromStdString(std::string(profile->str(k.name))).contains(QStringLiteral("matmul"), Qt::CaseInsensitive);
        for (const auto& e : profile->hostEvents)
            host += QString::fromStdString(std::string(profile->str(e.name))).contains(QStringLiteral("matmul"), Qt::CaseInsensitive);
        QVERIFY(kernels > 0);
        QCOMPARE(counts.kernels, kernels);
        QCOMPARE(counts.hostEvents, host);
        QCOMPARE(counts.bubbles, std::size_t(0));
        QCOMPARE(m.size(), counts.total());
        for (std::size_t i = 1; i < m.size(); ++i)
            QVERIFY(matchSpan(*profile, *analysis, m[i - 1]).first <= matchSpan(*profile, *analysis, m[i]).first);
        // Bubble ids, any case.
        const auto b = findMatches(*profile, *analysis, QStringLiteral("B0001"), &counts);
        QCOMPARE(counts.bubbles, std::size_t(1));
        QVERIFY(std::find(b.begin(), b.end(), Match{Match::Kind::Bubble, 0}) != b.end());
        QVERIFY(findMatches(*profile, *analysis, QStringLiteral("  ")).empty());
        QVERIFY(findMatches(*profile, *analysis, QStringLiteral("no such name anywhere")).empty());
        qInfo("'matmul': %zu kernels, %zu host events", kernels, host);
    }
    void searchMatchesAreWalkedWithF3ShiftF3AndEnterAndCentred() {
        TimelineWidget w;
        w.resize(1400, 900);
        w.setModel(profile, analysis);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        MatchCounts counts;
        auto m = findMatches(*profile, *analysis, QStringLiteral("Cast"), &counts);
        QVERIFY(counts.kernels > 2 && counts.hostEvents > 0);
        const int n = static_cast<int>(m.size());
        QSignalSpy changed(&w, &TimelineWidget::matchChanged);
        w.setSearchMatches(m);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(1).toInt(), n);
        QCOMPARE(w.currentMatch(), -1);
        shoot(w, QStringLiteral("t03_search_cast_fit.png"));
        auto centred = [&](int i) {
            const auto [a, b] = matchSpan(*profile, *analysis, m[static_cast<std::size_t>(i)]);
            const bs::TimeNs mid = (w.viewStart() + w.viewEnd()) / 2, span = w.viewEnd() - w.viewStart();
            return w.viewStart() <= a && w.viewEnd() >= b && std::llabs((a + b) / 2 - mid) <= span / 10 && span >= (b - a) * 2;
        };
        QTest::keyClick(&w, Qt::Key_F3);
        QCOMPARE(w.currentMatch(), 0);
        QCOMPARE(changed.last().at(0).toInt(), 0);
        QCOMPARE(changed.last().at(1).toInt(), n);
        QVERIFY(centred(0));
        QTest::keyClick(&w, Qt::Key_F3);
        QCOMPARE(w.currentMatch(), 1);
        QVERIFY(centred(1));
        QTest::keyClick(&w, Qt::Key_F3, Qt::ShiftModifier);
        QCOMPARE(w.currentMatch(), 0);
        QTest::keyClick(&w, Qt::Key_F3, Qt::ShiftModifier); // wraps to the last
        QCOMPARE(w.currentMatch(), n - 1);
        QTest::keyClick(&w, Qt::Key_Return); // Enter walks on (wrapping to the first)
        QCOMPARE(w.currentMatch(), 0);
        // A host event match: its lane row is scrolled into view and the event is on screen.
        int host = -1;
        for (int i = 0; i < n && host < 0; ++i)
            if (m[static_cast<std::size_t>(i)].kind == Match::Kind::HostEvent) host = i;
        QVERIFY(host >= 0);
        w.showMatch(host);
        QCOMPARE(w.currentMatch(), host);
        QVERIFY(centred(host));
        const QPoint at = w.hostEventPosition(m[static_cast<std::size_t>(host)].index);
        QVERIFY(w.rect().contains(at));
        const QImage img = shoot(w, QStringLiteral("t04_search_cast_host_match.png"));
        // The current match is outlined in the match colour's dark outline around the event.
        QVERIFY(img.pixelColor(at).red() > 150 || img.pixelColor(at).lightness() < 80);
    }

    // 4. Flows.
    void theSelectedKernelsLaunchArrowRunsFromItsHostOp() {
        TimelineWidget w;
        w.resize(1400, 900);
        w.setModel(profile, analysis);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.flowLinkCount() >= 2160); // every async_npu launch of the sample
        const int k = kernelWithLaunch(w, *profile);
        QVERIFY(k >= 0);
        const auto& kk = profile->kernels[static_cast<std::size_t>(k)];
        // The same host op MainWindow::showKernel names: the 'f' at the kernel's start, its 's', the
        // innermost host event on the 's' lane around it (brute force here).
        const auto& fl = profile->flows;
        const bs::FlowEvent* f = nullptr;
        for (const auto& x : fl)
            if (x.phase == 'f' && x.ts == kk.start && profile->lanes[x.lane].kind == bs::LaneKind::Device &&
                static_cast<int>(profile->lanes[x.lane].tid) == kk.stream) {
                f = &x;
                break;
            }
        QVERIFY(f);
        const bs::FlowEvent* s = nullptr;
        for (const auto& x : fl)
            if (x.phase == 's' && x.id == f->id) s = &x;
        QVERIFY(s);
        int best = -1;
        for (std::size_t i = 0; i < profile->hostEvents.size(); ++i) {
            const auto& e = profile->hostEvents[i];
            if (e.lane == s->lane && e.ts <= s->ts && e.end() >= s->ts &&
                (best < 0 || e.dur < profile->hostEvents[static_cast<std::size_t>(best)].dur))
                best = static_cast<int>(i);
        }
        QCOMPARE(w.launchingHostEvent(k), best);
        QCOMPARE(*w.launchLatency(k), kk.start - s->ts);
        QVERIFY(*w.launchLatency(k) > 0);
        // Geometry: from the host op's row at the flow start to the kernel's row at its start.
        w.setView(s->ts - (kk.end() - s->ts), kk.end() + (kk.end() - s->ts));
        w.setSelectedKernel(k);
        const auto line = w.flowArrowFor(k);
        QVERIFY(line);
        const double ks = w.labelWidth() + timeToX(kk.start, w.viewStart(), w.viewEnd(), w.width() - w.labelWidth());
        const double ss = w.labelWidth() + timeToX(s->ts, w.viewStart(), w.viewEnd(), w.width() - w.labelWidth());
        QVERIFY(std::abs(line->p2().x() - ks) < 0.5);
        QVERIFY(std::abs(line->p1().x() - ss) < 0.5);
        const QPoint host = w.hostEventPosition(static_cast<std::size_t>(best));
        const QPoint kern = w.kernelPosition(static_cast<std::size_t>(k));
        QVERIFY(std::abs(line->p1().y() - host.y()) <= 12); // the host row's edge
        QVERIFY(std::abs(line->p2().y() - kern.y()) <= 12); // the stream row's edge
        QVERIFY(line->p1().y() > line->p2().y());           // host lanes are below the streams
        shoot(w, QStringLiteral("t05_flow_selected_kernel.png"));
        // The tooltip over the kernel names the host op and the launch latency.
        const QString tip = tooltipAt(w, kern);
        QVERIFY2(tip.contains(QStringLiteral("launch latency")), qPrintable(tip));
        QVERIFY2(tip.contains(QString::fromStdString(std::string(profile->str(profile->hostEvents[static_cast<std::size_t>(best)].name))).toHtmlEscaped()),
                 qPrintable(tip));
        // A click near the arrow's host end selects the host op and centres it.
        QSignalSpy hostClicked(&w, &TimelineWidget::hostEventClicked);
        QTest::mouseClick(&w, Qt::LeftButton, Qt::NoModifier, line->p1().toPoint() + QPoint(2, -1));
        QCOMPARE(hostClicked.count(), 1);
        QCOMPARE(w.selectedHostEvent(), best);
        const auto& he = profile->hostEvents[static_cast<std::size_t>(best)];
        QVERIFY(w.viewStart() <= he.ts && w.viewEnd() >= he.end());
        QVERIFY(std::llabs((w.viewStart() + w.viewEnd()) / 2 - (he.ts + he.end()) / 2) < (w.viewEnd() - w.viewStart()) / 20);
        // Every flow in view: drawn (bounded) at a step's zoom.
        w.setShowAllFlowsInView(true);
        const auto& st = analysis->steps.steps[analysis->steps.steps.size() / 2];
        w.setView(st.start, st.start + (st.end - st.start) / 6);
        QVERIFY(w.renderOnceMs() >= 0);
        shoot(w, QStringLiteral("t06_all_flows_in_view.png"));
        // A kernel without a launch has no arrow.
        QVERIFY(!w.flowArrowFor(-1));
    }

    // 5. Legend.
    void theLegendListsWhatTheModelDraws() {
        TimelineWidget w;
        w.resize(1400, 700);
        w.setModel(profile, analysis);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(!w.isLegendVisible());
        QVERIFY(w.legendRect().isEmpty());
        const QStringList labels = w.legendLabels();
        bool comm = !profile->hcclEvents.empty(), aicpu = false, sync = false;
        for (const auto& k : profile->kernels) {
            comm |= k.cls == bs::TaskClass::Comm;
            aicpu |= k.cls == bs::TaskClass::AiCpu;
        }
        for (const auto& e : profile->hostEvents)
            sync |= profile->str(e.name).find("Synchronize") != std::string_view::npos || profile->str(e.name) == "aten::item";
        QCOMPARE(labels.contains(QStringLiteral("Communication")), comm);
        QCOMPARE(labels.contains(QStringLiteral("AI CPU")), aicpu);
        QCOMPARE(labels.contains(QStringLiteral("Host sync / copy")), sync);
        bool scopes[4] = {};
        for (const auto& win : analysis->anomaly.windows)
            scopes[static_cast<int>(win.scope)] = true;
        QCOMPARE(labels.contains(QStringLiteral("Bubble: step-internal")), scopes[0]);
        QCOMPARE(labels.contains(QStringLiteral("Bubble: prelaunch")), scopes[1]);
        QCOMPARE(labels.contains(QStringLiteral("Bubble: tail")), scopes[2]);
        QCOMPARE(labels.contains(QStringLiteral("Bubble: global")), scopes[3]);
        w.setLegendVisible(true);
        const QRectF r = w.legendRect();
        QVERIFY(!r.isEmpty());
        QVERIFY(QRectF(w.rect()).contains(r));
        QVERIFY(r.left() > w.labelWidth());
        const QImage img = shoot(w, QStringLiteral("t07_legend.png"));
        QCOMPARE(img.pixelColor(r.center().toPoint()).alpha(), 255);
        qInfo("legend: %s", qPrintable(labels.join(QStringLiteral(", "))));
    }

    // 6. Orientation.
    void theLabelColumnResizesByDraggingItsEdgeAndCutNamesAreInTooltips() {
        TimelineWidget w;
        w.resize(1400, 900);
        w.setModel(profile, analysis);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.labelWidth(), 190);
        int cut = -1;
        for (int t = 0; t < w.trackCount() && cut < 0; ++t)
            if (w.isTrackLabelCut(t) && w.trackRowTop(t) > 26) cut = t;
        QVERIFY(cut >= 0);
        const int y = w.trackRowTop(cut) + 5;
        QCOMPARE(tooltipAt(w, QPoint(40, y)), w.trackLabelText(cut));
        shoot(w, QStringLiteral("t08_labels_190.png"));
        QTest::mousePress(&w, Qt::LeftButton, Qt::NoModifier, QPoint(191, 300));
        sendMove(w, QPoint(420, 300), Qt::LeftButton);
        QTest::mouseRelease(&w, Qt::LeftButton, Qt::NoModifier, QPoint(420, 300));
        QCOMPARE(w.labelWidth(), 420);
        QVERIFY(!w.isTrackLabelCut(cut));
        shoot(w, QStringLiteral("t09_labels_420.png"));
        w.setLabelWidth(10);
        QCOMPARE(w.labelWidth(), 80); // never narrower than 80 px, never wider than half the widget
        w.setLabelWidth(5000);
        QCOMPARE(w.labelWidth(), 700);
    }
    void aCutStepLabelKeepsItsNumber() {
        QFont f;
        const QFontMetricsF fm(f);
        const QString label = QStringLiteral("ProfilerStep#50");
        QCOMPARE(fitStepLabel(label, fm.horizontalAdvance(label) + 1, fm), label);
        QCOMPARE(fitStepLabel(label, fm.horizontalAdvance(QStringLiteral("#50")) + 2, fm), QStringLiteral("#50"));
        QCOMPARE(fitStepLabel(QStringLiteral("whole capture"), fm.horizontalAdvance(QStringLiteral("whole")), fm).right(1),
                 QStringLiteral("…"));
    }
    void topFiveBadgesNeverOverlapNorClipAtFit() {
        TimelineWidget w;
        w.resize(1400, 700);
        w.setModel(profile, analysis);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        checkBadgesApart(w, bubblesInViewAmongTopFive(w, *analysis));
        // Narrow, and scrolled so that the device tracks start above the plot: still apart and inside.
        w.resize(420, 400);
        w.fit();
        checkBadgesApart(w, bubblesInViewAmongTopFive(w, *analysis));
        shoot(w, QStringLiteral("t10_badges_narrow.png"));
    }
    void topFiveBadgesNeverOverlapOnTheRealLevel1Rank0() {
        const Loaded L = loadFolder(QStringLiteral(BS_REALDATA_DIR "/torch_npu_resnet_ddp/level1/rank0_ascend_pt"));
        QVERIFY(L.profile);
        TimelineWidget w;
        w.resize(1400, 900);
        w.setModel(L.profile, L.analysis);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(L.analysis->anomaly.windows.size() >= 5);
        checkBadgesApart(w, bubblesInViewAmongTopFive(w, *L.analysis));
        QCOMPARE(static_cast<int>(w.badgeRects().size()), 5);
        w.setLegendVisible(true);
        shoot(w, QStringLiteral("t11_real_l1_rank0_fit.png"));
        // Zoomed onto the largest window: its badge stays inside the right edge whatever the pan.
        const auto& b = L.analysis->anomaly.windows[0];
        w.setView(b.span.a + b.span.length() / 2, b.span.b + b.span.length() * 4);
        checkBadgesApart(w, bubblesInViewAmongTopFive(w, *L.analysis));
        w.setView(b.span.a - b.span.length() * 4, b.span.a + b.span.length() / 3);
        checkBadgesApart(w, bubblesInViewAmongTopFive(w, *L.analysis));
    }
    // A picture of a window folds the lane groups idle in it: around the real rank's 17.9 ms prelaunch gap
    // (b0001) the eight HCCL planes and the group lane hold nothing, the host threads do; at fit nothing folds.
    void aPictureFoldsTheLaneGroupsIdleInItsView() {
        const Loaded L = loadFolder(QStringLiteral(BS_REALDATA_DIR "/torch_npu_resnet_ddp/level1/rank0_ascend_pt"));
        QVERIFY(L.profile);
        TimelineWidget w;
        w.resize(1400, 560);
        w.setModel(L.profile, L.analysis);
        QVERIFY(w.foldGroupsEmptyInView().isEmpty()); // the whole capture: every group has items
        QVERIFY(!w.isGroupCollapsed(QStringLiteral("HCCL")));
        w.selectBubble(0);
        const auto& b = L.analysis->anomaly.windows[0];
        QCOMPARE(b.id, std::string("b0001"));
        // No HCCL event overlaps the view the picture shows (checked on the model, not the widget).
        for (const auto& e : L.profile->hcclEvents)
            QVERIFY(!(e.ts < w.viewEnd() && e.end() > w.viewStart()));
        QCOMPARE(w.foldGroupsEmptyInView(), QStringList{QStringLiteral("HCCL")});
        QVERIFY(w.isGroupCollapsed(QStringLiteral("HCCL")));
        QVERIFY(!w.isGroupCollapsed(QStringLiteral("Host")));
        shoot(w, QStringLiteral("t14_real_l1_b0001_idle_groups_folded.png"));
    }
    // Issue 46, item 10: L follows the launch flow from a kernel to its host op and back, off screen too.
    void lJumpsFromAKernelToTheHostOpThatLaunchedItAndBack() {
        TimelineWidget w;
        w.resize(1200, 320); // short: the host lanes start below the streams, out of sight
        w.setModel(profile, analysis);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const int k = kernelWithLaunch(w, *profile);
        QVERIFY(k >= 0);
        const int host = launchingHostOpFromFlows(*profile, static_cast<std::size_t>(k));
        QVERIFY(host >= 0);
        const auto& kk = profile->kernels[static_cast<std::size_t>(k)];
        const auto& he = profile->hostEvents[static_cast<std::size_t>(host)];
        // The kernel alone in a narrow view: its host op (earlier by the launch latency) is outside it.
        w.setView(kk.start, kk.start + std::max<bs::TimeNs>(kk.dur, 1000));
        QVERIFY(he.end() <= w.viewStart() || he.ts < w.viewStart());
        w.setSelectedKernel(k);
        QVERIFY(!shownInPlot(w, w.hostEventPosition(static_cast<std::size_t>(host))));
        QSignalSpy hostClicked(&w, &TimelineWidget::hostEventClicked);
        QSignalSpy kernelClicked(&w, &TimelineWidget::kernelClicked);
        QTest::keyClick(&w, Qt::Key_L);
        QCOMPARE(hostClicked.count(), 1);
        QCOMPARE(hostClicked.at(0).at(0).toInt(), host);
        QCOMPARE(w.selectedHostEvent(), host);
        const QPoint at = w.hostEventPosition(static_cast<std::size_t>(host));
        QVERIFY2(shownInPlot(w, at), qPrintable(QStringLiteral("host op at %1,%2").arg(at.x()).arg(at.y())));
        shoot(w, QStringLiteral("t15_flow_jump_to_host.png"));
        // L again: back to the kernel, shown.
        w.setView(he.ts - 10 * std::max<bs::TimeNs>(he.dur, 1000),
                  he.ts - 9 * std::max<bs::TimeNs>(he.dur, 1000));
        QTest::keyClick(&w, Qt::Key_L);
        QCOMPARE(kernelClicked.count(), 1);
        QCOMPARE(kernelClicked.at(0).at(0).toInt(), k);
        QCOMPARE(w.selectedKernel(), k);
        QVERIFY(shownInPlot(w, w.kernelPosition(static_cast<std::size_t>(k))));
        // Without a selection L does nothing.
        w.clearSelection();
        QTest::keyClick(&w, Qt::Key_L);
        QCOMPARE(hostClicked.count(), 1);
        QCOMPARE(kernelClicked.count(), 1);
    }
    // Issue 46, item 12: around the real rank's prelaunch gap the HCCL planes hold nothing; their lanes are
    // hidden behind one row (the lanes with no event in the view counted here from the profile's events).
    void lanesEmptyInTheViewAreHiddenBehindOneRowOnTheRealRank() {
        const Loaded L =
            loadFolder(QStringLiteral(BS_REALDATA_DIR "/torch_npu_resnet_ddp/level1/rank0_ascend_pt"));
        QVERIFY(L.profile);
        TimelineWidget w;
        w.resize(1400, 700);
        w.setModel(L.profile, L.analysis);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.hiddenEmptyLaneCount(QStringLiteral("HCCL")), 0); // at fit every plane has events
        w.selectBubble(0);
        const auto emptyLanes = [&](const std::vector<bs::TraceEvent>& evs) {
            std::set<std::uint32_t> all, busy;
            for (const auto& e : evs) {
                all.insert(e.lane);
                if (e.ts < w.viewEnd() && std::max(e.end(), e.ts + 1) > w.viewStart()) busy.insert(e.lane);
            }
            return static_cast<int>(all.size() - busy.size());
        };
        const int hccl = emptyLanes(L.profile->hcclEvents);
        QVERIFY2(hccl >= 8, qPrintable(QString::number(hccl))); // the eight planes at least
        QCOMPARE(w.hiddenEmptyLaneCount(QStringLiteral("HCCL")), hccl);
        QCOMPARE(w.hiddenEmptyLaneCount(QStringLiteral("Host")), emptyLanes(L.profile->hostEvents));
        int laidOut = 0;
        for (int t = 0; t < w.trackCount(); ++t)
            laidOut += w.isTrackLaidOut(t);
        w.setLegendVisible(true);
        shoot(w, QStringLiteral("t16_real_l1_b0001_empty_lanes_hidden.png"));
        // A click on the row shows them; a view holding their events shows them again by itself.
        const int rowTop = w.emptyLanesRowTop(QStringLiteral("HCCL"));
        QVERIFY(rowTop > 0);
        QTest::mouseClick(&w, Qt::LeftButton, Qt::NoModifier, QPoint(w.labelWidth() + 40, rowTop + 6));
        QCOMPARE(w.hiddenEmptyLaneCount(QStringLiteral("HCCL")), 0);
        int shown = 0;
        for (int t = 0; t < w.trackCount(); ++t)
            shown += w.isTrackLaidOut(t);
        QCOMPARE(shown, laidOut + hccl);
        // The row stays after the shown lanes, and a click on it hides them again.
        const int shownRowTop = w.emptyLanesRowTop(QStringLiteral("HCCL"));
        QVERIFY(shownRowTop > rowTop);
        shoot(w, QStringLiteral("t16b_real_l1_b0001_empty_lanes_shown.png"));
        QTest::mouseClick(&w, Qt::LeftButton, Qt::NoModifier, QPoint(w.labelWidth() + 40, shownRowTop + 6));
        QCOMPARE(w.hiddenEmptyLaneCount(QStringLiteral("HCCL")), hccl);
        QCOMPARE(w.emptyLanesRowTop(QStringLiteral("HCCL")), rowTop);
        w.setEmptyLanesShown(QStringLiteral("HCCL"), true);
        QCOMPARE(w.hiddenEmptyLaneCount(QStringLiteral("HCCL")), 0);
        w.setEmptyLanesShown(QStringLiteral("HCCL"), false);
        QCOMPARE(w.hiddenEmptyLaneCount(QStringLiteral("HCCL")), hccl);
        w.fit();
        QCOMPARE(w.hiddenEmptyLaneCount(QStringLiteral("HCCL")), 0);
    }
    // Issue 46, item 12: the legend has its own strip below the lanes, in the window (scrolled to the bottom
    // too) and in a bubble's picture; the picture's host lanes start below the outer Python frames.
    void theLegendHasItsOwnStripAndCoversNoLane() {
        TimelineWidget w;
        w.resize(1400, 500);
        w.setModel(profile, analysis);
        w.setLegendVisible(true);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        checkLegendCoversNoRow(w);
        for (int i = 0; i < 60; ++i) { // scrolled to the bottom: the last row ends above the strip
            QWheelEvent wheel(QPointF(600, 300), w.mapToGlobal(QPointF(600, 300)), QPoint(), QPoint(0, -240),
                              Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(&w, &wheel);
        }
        checkLegendCoversNoRow(w);
        const QImage img = shoot(w, QStringLiteral("t17_legend_strip_scrolled.png"));
        // Between the lanes and the legend box only the strip's background: no item leaks into it.
        const int y = (w.lanesArea().bottom() + 1 + static_cast<int>(w.legendRect().top())) / 2;
        const QColor strip = w.palette().color(QPalette::Window);
        for (int x = w.labelWidth() + 2; x < static_cast<int>(w.legendRect().left()) - 2; x += 7)
            QCOMPARE(img.pixelColor(x, y).rgb(), strip.rgb());

        const Loaded L =
            loadFolder(QStringLiteral(BS_REALDATA_DIR "/torch_npu_resnet_ddp/level1/rank0_ascend_pt"));
        QVERIFY(L.profile);
        TimelineWidget pic;
        prepareBubblePicture(pic, L.profile, L.analysis, 0, QSize(1600, 600));
        checkLegendCoversNoRow(pic);
        // The main thread's rows start where its ops part, not at <module>: every row above held one frame.
        int deepest = 0, firstShown = 0;
        for (int t = 0; t < pic.trackCount(); ++t)
            if (pic.hostDepthCount(t) > deepest) {
                deepest = pic.hostDepthCount(t);
                firstShown = pic.firstHostDepthShown(t);
            }
        QVERIFY2(firstShown >= 5, qPrintable(QString::number(firstShown)));
        QString error;
        const QByteArray png = timelinePicture(pic, QStringLiteral("png"), &error);
        QVERIFY2(!png.isEmpty(), qPrintable(error));
        QImage::fromData(png).save(shotPath(QStringLiteral("t18_real_l1_b0001_picture.png")));
        // 600 px cut the lanes below the main thread: the CANN thread's aclrtSynchronizeStreamWithTimeout behind the gap.
        // Without a height the picture is as tall as its rows, and that op is drawn.
        const auto& win = L.analysis->anomaly.windows[0];
        int sync = -1;
        for (std::size_t i = 0; i < L.profile->hostEvents.size() && sync < 0; ++i) {
            const auto& e = L.profile->hostEvents[i];
            if (L.profile->str(e.name) == "AscendCL@aclrtSynchronizeStreamWithTimeout" && e.ts < win.span.b && e.end() > win.span.a)
                sync = static_cast<int>(i);
        }
        QVERIFY(sync >= 0);
        QVERIFY(!pic.lanesArea().contains(pic.hostEventPosition(static_cast<std::size_t>(sync))));
        QVERIFY(pic.heightShowingEveryRow() > pic.height());
        TimelineWidget fitted;
        prepareBubblePicture(fitted, L.profile, L.analysis, 0, QSize(1600, 0));
        QCOMPARE(fitted.width(), 1600);
        QVERIFY2(fitted.heightShowingEveryRow() <= fitted.height() && fitted.height() >= 300,
                 qPrintable(QStringLiteral("%1 of %2").arg(fitted.height()).arg(fitted.heightShowingEveryRow())));
        QVERIFY(fitted.lanesArea().contains(fitted.hostEventPosition(static_cast<std::size_t>(sync))));
        checkLegendCoversNoRow(fitted);
        const QByteArray fittedPng = timelinePicture(fitted, QStringLiteral("png"), &error);
        QImage::fromData(fittedPng).save(shotPath(QStringLiteral("t18b_real_l1_b0001_picture_fitted.png")));
    }
    void wAndSZoomAroundTheMouseAndPanningStopsAtTheData() {
        TimelineWidget w;
        w.resize(1400, 700);
        w.setModel(profile, analysis);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const int plot = w.width() - w.labelWidth();
        const QPoint mouse(1100, 120);
        sendMove(w, mouse);
        const bs::TimeNs under = xToTime(mouse.x() - w.labelWidth(), w.viewStart(), w.viewEnd(), plot);
        QTest::keyClick(&w, Qt::Key_W);
        QTest::keyClick(&w, Qt::Key_W);
        const bs::TimeNs after = xToTime(mouse.x() - w.labelWidth(), w.viewStart(), w.viewEnd(), plot);
        const bs::TimeNs px = (w.viewEnd() - w.viewStart()) / plot;
        QVERIFY2(std::llabs(after - under) <= px + 1, qPrintable(QString::number(after - under)));
        QTest::keyClick(&w, Qt::Key_S);
        QVERIFY(std::llabs(xToTime(mouse.x() - w.labelWidth(), w.viewStart(), w.viewEnd(), plot) - under) <= 2 * px + 1);
        // Panning far left stops at the data less 5 %, keeping the span.
        const bs::TimeNs span = w.viewEnd() - w.viewStart(), pad = (w.dataEnd() - w.dataStart()) / 20;
        w.panByPixels(-1e7);
        QCOMPARE(w.viewStart(), w.dataStart() - pad);
        QCOMPARE(w.viewEnd() - w.viewStart(), span);
        w.panByPixels(1e7);
        QCOMPARE(w.viewEnd(), w.dataEnd() + pad);
        QCOMPARE(w.viewEnd() - w.viewStart(), span);
        // A drag past the end stops there too.
        QTest::mousePress(&w, Qt::LeftButton, Qt::NoModifier, QPoint(400, 200));
        sendMove(w, QPoint(300, 200), Qt::LeftButton);
        QTest::mouseRelease(&w, Qt::LeftButton, Qt::NoModifier, QPoint(300, 200));
        QCOMPARE(w.viewEnd(), w.dataEnd() + pad);
    }

    // 5. Steps, Layers and Device busy stay at the top while the lanes below scroll (the deep host lanes
    // of a real rank would otherwise push them out of sight).
    void stepsLayersAndBusyStayPinnedWhileTheLanesScroll() {
        const Loaded L = loadFolder(QStringLiteral(BS_REALDATA_DIR "/torch_npu_resnet_ddp/level1/rank0_ascend_pt"));
        QVERIFY(L.profile);
        TimelineWidget w;
        w.resize(1200, 500);
        w.setModel(L.profile, L.analysis);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QList<int> pinned, lanes;
        for (int t = 0; t < w.trackCount(); ++t) {
            const QString n = w.trackName(t);
            (n.startsWith(QStringLiteral("Steps")) || n.startsWith(QStringLiteral("Layers")) || n.startsWith(QStringLiteral("Device busy"))
                 ? pinned
                 : lanes) << t;
        }
        QCOMPARE(pinned.size(), 3);
        QList<int> before;
        for (int t : pinned)
            before << w.trackRowTop(t);
        const int pinnedBottom = *std::max_element(before.begin(), before.end()) + 20;
        // Scroll far down, as a wheel does.
        for (int i = 0; i < 40; ++i) {
            QWheelEvent wheel(QPointF(600, 300), w.mapToGlobal(QPointF(600, 300)), QPoint(), QPoint(0, -240), Qt::NoButton,
                              Qt::NoModifier, Qt::NoScrollPhase, false);
            QCoreApplication::sendEvent(&w, &wheel);
        }
        for (int i = 0; i < pinned.size(); ++i)
            QCOMPARE(w.trackRowTop(pinned[i]), before[i]);
        // The lanes did scroll: the first stream lane now starts above the pinned rows' bottom (scrolled
        // out, not drawn), and a host lane is in view below them.
        QVERIFY(w.trackRowTop(lanes.front()) < pinnedBottom);
        bool hostInView = false;
        for (int t : lanes)
            hostInView = hostInView || (w.trackName(t).contains(QStringLiteral("Thread")) && w.trackRowTop(t) >= pinnedBottom &&
                                        w.trackRowTop(t) < w.height());
        QVERIFY(hostInView);
        // What is drawn at the pinned rows' height is still the Steps lane's colour, not a host lane's.
        const QImage img = shoot(w, QStringLiteral("t13_pinned_after_scroll.png"));
        const QColor steps = img.pixelColor(w.width() - 60, before[0] + 6); // right of the step label
        QVERIFY2(steps.blue() > steps.red() && steps.value() < 140, qPrintable(steps.name())); // dark slate
    }

    // 7. Host call depth.
    void hostEventsAreDrawnOneRowPerCallDepth() {
        const Loaded L = loadFolder(QStringLiteral(BS_REALDATA_DIR "/torch_npu_resnet_ddp/level1/rank0_ascend_pt"));
        QVERIFY(L.profile);
        const auto& p = *L.profile;
        TimelineWidget w;
        w.resize(1400, 1000);
        w.setModel(L.profile, L.analysis);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // Every event deeper than 0 lies inside an event of its lane one level up.
        std::size_t nested = 0;
        std::size_t child = p.hostEvents.size();
        for (std::size_t i = 0; i < p.hostEvents.size(); ++i) {
            const int d = w.hostEventDepth(i);
            QVERIFY(d >= 0);
            if (d == 0) continue;
            const auto& e = p.hostEvents[i];
            bool parent = false;
            for (std::size_t j = 0; j < p.hostEvents.size() && !parent; ++j) {
                const auto& q = p.hostEvents[j];
                parent = j != i && q.lane == e.lane && w.hostEventDepth(j) == d - 1 && q.ts <= e.ts &&
                         std::max(q.end(), q.ts + 1) >= std::max(e.end(), e.ts + 1);
            }
            QVERIFY2(parent, qPrintable(QStringLiteral("host event %1 at depth %2 has no parent").arg(i).arg(d)));
            ++nested;
            if (child == p.hostEvents.size() && e.dur > 0 && p.str(e.name).rfind("ProfilerStep", 0) != 0) child = i;
        }
        QVERIFY(nested > 0);
        QVERIFY(child < p.hostEvents.size());
        // The child is drawn below its parent, on its depth's row; folded, both share the lane's row.
        const auto& ce = p.hostEvents[child];
        w.focusRange(ce.ts, ce.end());
        int parentIdx = -1;
        for (std::size_t j = 0; j < p.hostEvents.size(); ++j)
            if (p.hostEvents[j].lane == ce.lane && w.hostEventDepth(j) == w.hostEventDepth(child) - 1 &&
                p.hostEvents[j].ts <= ce.ts && p.hostEvents[j].end() >= ce.end())
                parentIdx = static_cast<int>(j);
        QVERIFY(parentIdx >= 0);
        w.setHighlightedHostEvents({child}); // scrolls its lane into view
        const QPoint c = w.hostEventPosition(child), par = w.hostEventPosition(static_cast<std::size_t>(parentIdx));
        QVERIFY(c.y() > par.y());
        QCOMPARE(c.y() - par.y(), 15);
        const QString tip = tooltipAt(w, c);
        QVERIFY2(tip.contains(QStringLiteral("depth: %1").arg(w.hostEventDepth(child))), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("thread: ")), qPrintable(tip));
        shoot(w, QStringLiteral("t12_real_l1_host_depth.png"));
        int track = -1;
        for (int t = 0; t < w.trackCount(); ++t)
            if (w.hostDepthCount(t) > 1 && w.trackRowTop(t, w.hostEventDepth(child)) == c.y() - 7) track = t;
        QVERIFY(track >= 0);
        // A click on the lane's label folds its depths into one row.
        QTest::mouseClick(&w, Qt::LeftButton, Qt::NoModifier, QPoint(40, w.trackRowTop(track, 0) + 5));
        QVERIFY(w.isHostDepthFolded(track));
        QCOMPARE(w.hostEventPosition(child).y(), w.hostEventPosition(static_cast<std::size_t>(parentIdx)).y());
        w.setHostDepthFolded(track, false);
        QVERIFY(!w.isHostDepthFolded(track));
    }

    // Issue 46 (item 8): a highlighted host op (a user line's events) and a found one keep their names: the
    // highlight's fill is drawn over the lane's own label, so the name is drawn again on it. Counted in the
    // picture: text-coloured pixels strictly inside the fill's span on the event's row.
    void highlightedAndFoundHostOpsKeepTheirNamesReadable() {
        TimelineWidget w;
        w.resize(1400, 900);
        w.setModel(profile, analysis);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // The longest host op that is not a step marker, named at least 8 characters.
        int h = -1;
        for (std::size_t i = 0; i < profile->hostEvents.size(); ++i) {
            const auto& e = profile->hostEvents[i];
            const auto n = profile->str(e.name);
            if (n.rfind("ProfilerStep", 0) == 0 || n.size() < 8) continue;
            if (h < 0 || e.dur > profile->hostEvents[static_cast<std::size_t>(h)].dur) h = static_cast<int>(i);
        }
        QVERIFY(h >= 0);
        const auto& e = profile->hostEvents[static_cast<std::size_t>(h)];
        w.setView(e.ts - e.dur / 4, e.end() + e.dur / 4); // the op spans two thirds of the plot
        // Inside the run of `fill` pixels on the event's row: how many pixels `isText` accepts.
        auto textInsideFill = [&](auto isFill, auto isText) {
            const QImage img = w.grab().toImage();
            const QPoint at = w.hostEventPosition(static_cast<std::size_t>(h));
            int x0 = -1, x1 = -1;
            for (int x = w.labelWidth(); x < img.width(); ++x)
                if (isFill(img.pixelColor(x, at.y() - 5))) {
                    if (x0 < 0) x0 = x;
                    x1 = x;
                }
            if (x0 < 0 || x1 - x0 < 100) return -1; // no fill found on the row
            int n = 0;
            for (int y = at.y() - 4; y <= at.y() + 4; ++y)
                for (int x = x0 + 2; x < x1 - 1; ++x)
                    n += isText(img.pixelColor(x, y));
            return n;
        };
        w.setHighlightedHostEvents({static_cast<std::size_t>(h)});
        w.setView(e.ts - e.dur / 4, e.end() + e.dur / 4);
        const int dark = textInsideFill(
            [](const QColor& c) { return c.red() == 255 && c.green() == 190 && c.blue() == 0; }, // the amber fill
            [](const QColor& c) { return c.lightness() < 90; });
        shoot(w, QStringLiteral("t20_highlighted_host_op_named.png"));
        QVERIFY2(dark > 30, qPrintable(QStringLiteral("%1 dark pixels inside the highlight").arg(dark)));
        w.setHighlightedHostEvents({});
        w.setSearchMatches({{Match::Kind::HostEvent, static_cast<std::uint32_t>(h)}});
        w.setView(e.ts - e.dur / 4, e.end() + e.dur / 4);
        const int light = textInsideFill(
            [](const QColor& c) { return c.red() == 236 && c.green() == 64 && c.blue() == 200; }, // the match fill
            [](const QColor& c) { return c.lightness() > 200; });
        shoot(w, QStringLiteral("t21_found_host_op_named.png"));
        QVERIFY2(light > 30, qPrintable(QStringLiteral("%1 light pixels inside the match").arg(light)));
    }
};

QTEST_MAIN(TstTimeline)
#include "tst_timeline.moc"
