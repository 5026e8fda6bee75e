// The window: loads off the GUI thread, shows the analysis or the error in the window, selecting a
// bubble row moves the timeline onto it, and menu exports write the bytes the headless command writes.
#include "i18n/message.h"
#include "test_support.h"
#include "load_job.h"
#include "main_window.h"
#include "panels/inspector.h"
#include "panels/inspector_panel.h"
#include "range_stats.h"
#include "ui_test_support.h"
#include "timeline_widget.h"
#include "glossary.h"
#include "panel_models.h"
#include "panels/charts_panel.h"
#include "panels/find_bar.h"
#include "panels/ops_panel.h"
#include "language.h"
#include "timeline_search.h"

#include "pipeline/analysis_run.h"
#include "io/profile_loader.h"
#include "model/profile.h"

#include <QApplication>
#include <QComboBox>
#include <QFileInfo>
#include <QChartView>
#include <QPercentBarSeries>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QToolTip>
#include <QTreeView>
#include <QAbstractItemModelTester>

#include <optional>
#include <set>

namespace {

const QString kRank =
    QDir::cleanPath(QStringLiteral(BS_REALDATA_DIR "/torch_npu_resnet_ddp/level1/rank0_ascend_pt"));

using bstest::clickLink;

// The test's own reading of a rank folder, through the core (not the window's job): what the window must show.
struct Reference {
    std::size_t ranks = 0;
    bs::LoadResult loaded;
    bs::AnalysisResult r;
};
Reference reference(const QString& folder) {
    Reference x;
    const auto found = bs::discoverProfiles(folder.toStdString());
    x.ranks = found.ranks.size();
    if (found.ranks.empty()) return x;
    x.loaded = bs::loadRank(found.ranks[0]);
    if (x.loaded.profile) x.r = bs::analyzeProfile(*x.loaded.profile);
    return x;
}


// The test's own reading of a stack (not the core's splitter): frames end at ";" + CRLF, innermost first;
// library frames are under site-packages, the standard library (…/lib/python3.x/) or a pseudo-file.
std::string innermostUserFrame(std::string_view stack) {
    std::size_t pos = 0;
    while (pos < stack.size()) {
        const auto end = stack.find(";\r\n", pos);
        const std::string frame(stack.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos));
        const bool library = frame.find("/site-packages/") != std::string::npos ||
                             frame.find("/lib/python3.") != std::string::npos || frame.rfind("<", 0) == 0;
        if (!library) return frame;
        if (end == std::string_view::npos) break;
        pos = end + 3;
    }
    return {};
}


// Issue 46: what the window shows, as text and counts, to tell whether anything of a previous profile is
// left. A window that loaded A, then B, must show exactly what a window that loaded only B shows.
struct Shown {
    QString title;
    QStringList tabs;
    QString summary, health, report, detail, stack;
    bool stackShown = false;
    int bubbleRows = 0, bubbleCurrent = -1;
    QStringList bubbleCells; // the first rows' cells
    QString opsFilter;
    int opsRows = 0, opsNameWidth = 0;
    QStringList opsNames;
    int layerRows = 0;
    QStringList layerNames;
    QStringList tracks;
    qint64 dataStart = 0, dataEnd = 0;
    int selectedBubble = -1, selectedKernel = -1, selectedHostEvent = -1;
    std::pair<bs::TimeNs, bs::TimeNs> range;
    std::size_t matches = 0, highlighted = 0;
    QString findText;
    bool findShown = false;
    int chartSteps = 0;
    bool rankPickerShown = false;
};

bs::ui::OpsPanel* opsPanel(bs::ui::MainWindow& w) {
    return w.findChildren<bs::ui::OpsPanel*>().value(0);
}
QTreeView* layerTree(bs::ui::MainWindow& w) {
    for (auto* t : w.findChildren<QTreeView*>())
        if (t->model() && t->model()->headerData(0, Qt::Horizontal).toString().contains(QStringLiteral("kernel"))) return t;
    return nullptr;
}

Shown shownBy(bs::ui::MainWindow& w) {
    Shown s;
    s.title = w.windowTitle();
    for (int i = 0; i < w.tabs()->count(); ++i)
        s.tabs << w.tabs()->tabText(i);
    s.summary = w.summary()->toPlainText();
    s.health = w.health()->toPlainText();
    s.report = w.reportText();
    s.detail = w.bubbleDetail()->toPlainText();
    s.stack = w.stackPane()->toPlainText();
    s.stackShown = !w.stackPane()->isHidden();
    const QAbstractItemModel* bm = w.bubbleTable()->model();
    s.bubbleRows = bm->rowCount();
    s.bubbleCurrent = w.bubbleTable()->currentIndex().row();
    for (int r = 0; r < std::min(bm->rowCount(), 5); ++r)
        for (int c = 0; c < bm->columnCount(); ++c)
            s.bubbleCells << bm->index(r, c).data().toString();
    auto* ops = opsPanel(w);
    s.opsFilter = ops->filter()->text();
    s.opsRows = ops->table()->model()->rowCount();
    s.opsNameWidth = ops->table()->columnWidth(bs::ui::OpsTableModel::Name);
    for (int r = 0; r < std::min(s.opsRows, 5); ++r)
        s.opsNames << ops->table()->model()->index(r, bs::ui::OpsTableModel::Name).data().toString();
    auto* tree = layerTree(w);
    s.layerRows = tree->model()->rowCount();
    for (int r = 0; r < std::min(s.layerRows, 5); ++r)
        s.layerNames << tree->model()->index(r, 0).data().toString();
    auto* tl = w.timeline();
    for (int i = 0; i < tl->trackCount(); ++i)
        s.tracks << tl->trackName(i);
    s.dataStart = tl->dataStart();
    s.dataEnd = tl->dataEnd();
    s.selectedBubble = tl->selectedBubble();
    s.selectedKernel = tl->selectedKernel();
    s.selectedHostEvent = tl->selectedHostEvent();
    s.range = tl->rangeSelection();
    s.matches = tl->searchMatches().size();
    s.highlighted = tl->highlightedHostEvents().size();
    s.findText = w.findBar()->text();
    s.findShown = !w.findBar()->isHidden();
    s.chartSteps = static_cast<int>(w.charts()->drawnSteps().size());
    for (auto* c : w.findChildren<QComboBox*>())
        if (c->objectName() == QStringLiteral("rankPicker")) s.rankPickerShown = !c->isHidden();
    return s;
}

// Every field the same; the first that differs is the failure (QCOMPARE names it).
void compareShown(const Shown& got, const Shown& want) {
    QCOMPARE(got.title, want.title);
    QCOMPARE(got.tabs, want.tabs);
    QCOMPARE(got.detail, want.detail);
    QCOMPARE(got.stackShown, want.stackShown);
    QCOMPARE(got.stack, want.stack);
    QCOMPARE(got.bubbleRows, want.bubbleRows);
    QCOMPARE(got.bubbleCells, want.bubbleCells);
    QCOMPARE(got.bubbleCurrent, want.bubbleCurrent);
    QCOMPARE(got.opsFilter, want.opsFilter);
    QCOMPARE(got.opsRows, want.opsRows);
    QCOMPARE(got.opsNames, want.opsNames);
    QCOMPARE(got.opsNameWidth, want.opsNameWidth);
    QCOMPARE(got.layerRows, want.layerRows);
    QCOMPARE(got.layerNames, want.layerNames);
    QCOMPARE(got.tracks, want.tracks);
    QCOMPARE(got.dataStart, want.dataStart);
    QCOMPARE(got.dataEnd, want.dataEnd);
    QCOMPARE(got.selectedBubble, want.selectedBubble);
    QCOMPARE(got.selectedKernel, want.selectedKernel);
    QCOMPARE(got.selectedHostEvent, want.selectedHostEvent);
    QCOMPARE(got.range, want.range);
    QCOMPARE(got.matches, want.matches);
    QCOMPARE(got.highlighted, want.highlighted);
    QCOMPARE(got.findText, want.findText);
    QCOMPARE(got.findShown, want.findShown);
    QCOMPARE(got.chartSteps, want.chartSteps);
    QCOMPARE(got.rankPickerShown, want.rankPickerShown);
    QCOMPARE(got.summary, want.summary);
    QCOMPARE(got.health, want.health);
    QCOMPARE(got.report, want.report);
}

// Opens `path` and waits for the load to end (loadFinished); its ok, or nullopt when it never ended.
std::optional<bool> load(bs::ui::MainWindow& w, const QString& path) {
    QSignalSpy spy(&w, &bs::ui::MainWindow::loadFinished);
    w.openPath(path);
    if (!spy.wait(120000)) return std::nullopt;
    return spy.at(0).at(0).toBool();
}

const QString kSample = QStringLiteral(BS_SOURCE_DIR "/resources/sample/sample_ascend_pt");

// A kernel drawn on the timeline at its current view (-1 none).
int kernelInView(bs::ui::TimelineWidget* tl, const bs::Profile& p) {
    for (std::size_t k = 0; k < p.kernels.size(); ++k) {
        const QPoint at = tl->kernelPosition(k);
        if (at.x() > tl->labelWidth() + 2 && tl->rect().contains(at)) return static_cast<int>(k);
    }
    return -1;
}

// A is loaded; a bubble row, then a kernel on the timeline chosen; the Ops filter set to A's top op.
// Returns A's first bubble's heading in the inspector ("b0001 — 1.006 ms …") or empty on failure.
QString chooseThingsInA(bs::ui::MainWindow& w) {
    w.tabs()->setCurrentIndex(3);
    auto* ops = opsPanel(w);
    const QString op = ops->table()->model()->index(0, bs::ui::OpsTableModel::Name).data().toString();
    if (op.isEmpty()) return {};
    QTest::keyClicks(ops->filter(), op);
    if (ops->table()->model()->rowCount() < 1) return {};
    w.tabs()->setCurrentIndex(1);
    auto* table = w.bubbleTable();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier,
                      table->visualRect(table->model()->index(0, 1)).center());
    if (table->currentIndex().row() != 0) return {};
    return w.bubbleDetail()->toPlainText().section(QLatin1Char('\n'), 0, 0);
}

QString zhQmFile() {
    return QFileInfo(QStringLiteral(BS_BINARY)).absolutePath() + QStringLiteral("/bubblescope_zh_CN.qm");
}
} // namespace

class TstMainWindow : public QObject {
    Q_OBJECT
  private slots:
    // Range statistics from prefix sums (issue 18) say exactly what the walk over every kernel says: the
    // same busy union, kernel count and top list, for the whole capture, each step and ranges that cut
    // kernels at both ends, on the sample and a real rank.
    void rangeStatisticsFromPrefixSumsEqualTheWalk() {
        for (const QString& folder : {QStringLiteral(BS_SOURCE_DIR "/resources/sample/sample_ascend_pt"), kRank}) {
            const Reference ref = reference(folder);
            QVERIFY(ref.loaded.profile);
            const bs::Profile& p = *ref.loaded.profile;
            QVERIFY(p.kernels.size() > 100);
            const bs::ui::RangeStats stats(p);
            std::vector<std::pair<qint64, qint64>> ranges;
            const qint64 first = p.kernels.front().start;
            qint64 last = first;
            for (const auto& k : p.kernels) last = std::max<qint64>(last, k.end());
            ranges.push_back({first, last});
            ranges.push_back({first - 1000, last + 1000});
            for (const auto& st : ref.r.steps.steps) ranges.push_back({st.start, st.end});
            // Ranges whose ends fall inside kernels: a kernel's middle to another's middle.
            std::uint64_t x = 12345;
            for (int i = 0; i < 40; ++i) {
                x = x * 6364136223846793005ULL + 1442695040888963407ULL;
                const auto& a = p.kernels[(x >> 33) % p.kernels.size()];
                x = x * 6364136223846793005ULL + 1442695040888963407ULL;
                const auto& b = p.kernels[(x >> 33) % p.kernels.size()];
                const qint64 s = a.start + a.dur / 2, e = b.start + b.dur / 3;
                if (s < e) ranges.push_back({s, e});
                // Ends exactly on kernel edges: a kernel ending at the start, one starting at the end, overlap
                // nothing there.
                if (a.end() < b.start) ranges.push_back({a.end(), b.start});
                if (b.end() < a.start) ranges.push_back({b.end(), a.start});
            }
            for (const auto& [s, e] : ranges) {
                bs::TimeNs busyWalk = -1, busyFast = -2;
                std::size_t countWalk = 0, countFast = 1;
                const QString walk = bs::ui::Inspector::rangeHtml(p, s, e, &busyWalk, &countWalk);
                const QString fast = bs::ui::Inspector::rangeHtml(p, s, e, &busyFast, &countFast, &stats);
                QCOMPARE(busyFast, busyWalk);
                QCOMPARE(countFast, countWalk);
                QCOMPARE(fast, walk);
            }
            // The whole capture: every kernel counted, the busy union the analysis's.
            bs::TimeNs busy = 0;
            std::size_t count = 0;
            bs::ui::Inspector::rangeHtml(p, first, last, &busy, &count, &stats);
            QCOMPARE(count, p.kernels.size());
            QVERIFY(busy > 0 && busy <= last - first);
        }
    }
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
    void aProfileWhoseWindowDoesNotFitInTheMemoryLeftIsNotShown() {
        // BUBBLESCOPE_MEMORY_LIMIT_MB limits the whole process. This small rank's model fits under either limit
        // below (the core's guard lets it in); what the window needs beside it (windowBytes) fits under the
        // second only, 8 MB short of the first: nothing is shown then, and the message says how much is
        // missing and how to analyse the rank without the window.
        const Reference ref = reference(kRank);
        QVERIFY(ref.loaded.profile);
        const long long need = static_cast<long long>(bs::ui::windowBytes(*ref.loaded.profile) >> 20);
        QVERIFY(need >= 64); // the fixed 64 MB and the tracks of a few hundred kernels and a few thousand events
        auto residentMb = [] {
            QFile f(QStringLiteral("/proc/self/status"));
            if (!f.open(QIODevice::ReadOnly)) return -1LL;
            for (const QByteArray& line : f.readAll().split('\n'))
                if (line.startsWith("VmRSS:")) return line.mid(6).trimmed().split(' ').first().toLongLong() / 1024;
            return -1LL;
        };
        const long long rss = residentMb();
        QVERIFY(rss > 0);
        for (const long long above : {need - 8, need + 256}) {
            qputenv("BUBBLESCOPE_MEMORY_LIMIT_MB", QByteArray::number(rss + above));
            bs::ui::MainWindow w;
            QSignalSpy spy(&w, &bs::ui::MainWindow::loadFinished);
            w.openPath(kRank);
            const bool finished = spy.wait(60000);
            qunsetenv("BUBBLESCOPE_MEMORY_LIMIT_MB");
            QVERIFY(finished);
            if (above < need) {
                QCOMPARE(spy.at(0).at(0).toBool(), false);
                QVERIFY2(w.reportText().contains(QStringLiteral("needs about %1 MiB more").arg(need)),
                         qPrintable(w.reportText()));
                QVERIFY(w.reportText().contains(QStringLiteral("bubblescope analyze")));
            } else { // the same rank with room for the window: shown
                QCOMPARE(spy.at(0).at(0).toBool(), true);
                QCOMPARE(w.tabs()->tabText(1), QStringLiteral("Bubbles (88)"));
            }
        }
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
    // The Summary says what to do next (the recommendations by priority) and every named thing there is a
    // link: a bubble id selects the bubble, a step zooms the timeline onto it.
    void summaryListsWhatToDoNextAndItsLinksSelect() {
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QSignalSpy spy(&w, &bs::ui::MainWindow::loadFinished);
        w.openPath(kRank);
        QVERIFY(spy.wait(60000));
        const Reference ref = reference(kRank);
        QCOMPARE(ref.ranks, std::size_t(1));
        QVERIFY(ref.loaded.profile);
        const bs::AnalysisResult& r = ref.r;
        QVERIFY(!r.anomaly.recommendations.empty());
        const QString text = w.summary()->toPlainText();
        const auto next = text.indexOf(QStringLiteral("What to do next"));
        QVERIFY(next > 0);
        // Every recommendation's action is there, the P1s before the first P2.
        qsizetype lastP1 = -1, firstP2 = text.size();
        for (const auto& rc : r.anomaly.recommendations) {
            const auto at = text.indexOf(QString::fromStdString(bs::english(rc.action)), next);
            QVERIFY2(at > next, rc.action.c_str());
            if (rc.priority == "P1") lastP1 = std::max(lastP1, at);
            if (rc.priority == "P2") firstP2 = std::min(firstP2, at);
        }
        QVERIFY(lastP1 < firstP2);
        // b0001 in an answer or a recommendation: a link that selects it.
        const QString id = QString::fromStdString(r.anomaly.windows[0].id);
        QVERIFY(clickLink(w.summary(), QStringLiteral("bubble:") + id));
        QCOMPARE(w.tabs()->currentIndex(), 1);
        QCOMPARE(w.bubbleTable()->currentIndex().row(), 0);
        QCOMPARE(w.timeline()->selectedBubble(), 0);
        // A step number in the step table zooms the timeline onto that step.
        w.tabs()->setCurrentIndex(0);
        QVERIFY(clickLink(w.summary(), QStringLiteral("step:0")));
        const auto& st = r.steps.steps.front();
        QVERIFY(w.timeline()->viewStart() <= st.start && w.timeline()->viewEnd() >= st.end);
        QVERIFY(w.timeline()->viewEnd() - w.timeline()->viewStart() <= 2 * (st.end - st.start));
    }
    // Numbers and words: the Ops tab opens on the op with the most device time, its PMU verdict before the
    // flags and each flag explained; the inspector's times carry one sign; the glossary defines the jargon.
    void opsOpenByTotalTimeAndTimesHaveOneSign() {
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QSignalSpy spy(&w, &bs::ui::MainWindow::loadFinished);
        w.openPath(kRank);
        QVERIFY(spy.wait(60000));
        const Reference ref = reference(kRank);
        QVERIFY(ref.loaded.profile);
        const bs::AnalysisResult& r = ref.r;
        bs::TimeNs most = 0;
        std::string mostName;
        for (const auto& o : r.anomaly.ops)
            if (o.durTotal > most) most = o.durTotal, mostName = o.name;
        w.tabs()->setCurrentIndex(3);
        QTableView* table = nullptr;
        for (auto* t : w.findChildren<QTableView*>())
            if (t->model() && t->model()->columnCount() == bs::ui::OpsTableModel::ColumnCount) table = t;
        QVERIFY(table);
        QCOMPARE(table->model()->index(0, bs::ui::OpsTableModel::Name).data().toString(), QString::fromStdString(mostName));
        QVERIFY(bs::ui::OpsTableModel::Pmu < bs::ui::OpsTableModel::Flags);
        for (int row = 0; row < table->model()->rowCount(); ++row) {
            const QString flags = table->model()->index(row, bs::ui::OpsTableModel::Flags).data().toString();
            if (flags.contains(QStringLiteral("WAIT_POLLUTION_RISK")))
                QVERIFY(table->model()->index(row, bs::ui::OpsTableModel::Flags).data(Qt::ToolTipRole).toString()
                            .contains(QStringLiteral("WAIT_POLLUTION_RISK: ")));
        }
        // Every window's idle span in the inspector: "+x ms" or "−x ms", never "+-" or "+−".
        w.tabs()->setCurrentIndex(1);
        for (int row = 0; row < 5; ++row) {
            w.bubbleTable()->selectRow(row);
            const QString text = w.bubbleDetail()->toPlainText();
            QVERIFY2(text.contains(QStringLiteral("device idle")), qPrintable(text));
            QVERIFY2(!text.contains(QStringLiteral("+-")) && !text.contains(QStringLiteral("+\u2212")), qPrintable(text));
        }
        QVERIFY(bs::ui::glossaryDefinition(QStringLiteral("underfeed")).contains(QStringLiteral("service")));
        QVERIFY(bs::ui::glossaryHtml().contains(QStringLiteral("host coverage")));
    }
    // Pictures for reviews: the timeline as shown to PNG (its size) and SVG; the report with a picture of
    // each top bubble under its heading, the pictures beside it.
    void exportsTheTimelineAndAReportWithBubblePictures() {
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QSignalSpy spy(&w, &bs::ui::MainWindow::loadFinished);
        w.openPath(kRank);
        QVERIFY(spy.wait(60000));
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("t.png")), svg = dir.filePath(QStringLiteral("t.svg"));
        QCOMPARE(w.exportTimelineImage(png), QString());
        const QImage img(png);
        QCOMPARE(img.size(), w.timeline()->size() * w.timeline()->devicePixelRatioF());
        QCOMPARE(w.exportTimelineImage(svg), QString());
        QFile sf(svg);
        QVERIFY(sf.open(QIODevice::ReadOnly));
        QVERIFY(sf.readAll().contains("<svg"));
        QVERIFY(!w.exportTimelineImage(dir.filePath(QStringLiteral("t.bmp"))).isEmpty());
        QCOMPARE(w.exportReportWithPictures(dir.path()), QString());
        QFile rf(dir.filePath(w.defaultExportName(bs::ui::MainWindow::Export::AnomalyReport)));
        QVERIFY(rf.open(QIODevice::ReadOnly));
        const QString report = QString::fromUtf8(rf.readAll());
        for (const char* id : {"b0001", "b0002", "b0003", "b0004", "b0005"}) {
            const QString heading = QStringLiteral("#### %1 — ").arg(QLatin1String(id));
            const auto h = report.indexOf(heading);
            QVERIFY2(h >= 0, id);
            const auto pic = report.indexOf(QStringLiteral("](bubbles/%1.png)").arg(QLatin1String(id)), h);
            QVERIFY2(pic > h && pic < report.indexOf(QStringLiteral("Raw kernels around the window"), h), id);
            const QImage b(dir.filePath(QStringLiteral("bubbles/%1.png").arg(QLatin1String(id))));
            QCOMPARE(b.width(), 1400); // and as tall as its lanes
            QVERIFY2(b.height() >= 300 && b.height() <= 4000, qPrintable(QString::number(b.height())));
        }
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("bubbles/b0006.png"))));
    }
    // Find (Ctrl+F): type-ahead over kernels, host ops and bubble ids with counts; Enter / F3 walk the
    // matches on the timeline, Shift+F3 back; Esc closes and clears; an op's instances from the Ops tab.
    void findWalksTheMatchesOnTheTimeline() {
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowActive(&w) || true);
        QSignalSpy spy(&w, &bs::ui::MainWindow::loadFinished);
        w.openPath(kRank);
        QVERIFY(spy.wait(60000));
        const Reference ref = reference(kRank);
        QVERIFY(ref.loaded.profile);
        const bs::Profile& p = *ref.loaded.profile;
        // The test's own count: kernels and host events whose name holds "conv2d", any case.
        std::size_t kernels = 0, host = 0;
        for (const auto& k : p.kernels)
            kernels += QString::fromUtf8(p.str(k.name)).contains(QStringLiteral("conv2d"), Qt::CaseInsensitive);
        for (const auto& e : p.hostEvents)
            host += QString::fromUtf8(p.str(e.name)).contains(QStringLiteral("conv2d"), Qt::CaseInsensitive);
        QVERIFY(kernels > 10);
        w.timeline()->setFocus();
        QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier);
        auto* bar = w.findBar();
        QVERIFY(bar->isVisible());
        QVERIFY(bar->edit()->hasFocus());
        QTest::keyClicks(bar->edit(), QStringLiteral("conv2D"));
        QTRY_COMPARE(w.timeline()->searchMatches().size(), kernels + host);
        QVERIFY2(bar->status()->text().contains(QStringLiteral("%1 kernels · %2 host ops · 0 bubbles").arg(kernels).arg(host)),
                 qPrintable(bar->status()->text()));
        QCOMPARE(w.timeline()->currentMatch(), 0);
        QTest::keyClick(bar->edit(), Qt::Key_Return);
        QCOMPARE(w.timeline()->currentMatch(), 1);
        QTest::keyClick(bar->edit(), Qt::Key_F3);
        QCOMPARE(w.timeline()->currentMatch(), 2);
        QTest::keyClick(bar->edit(), Qt::Key_F3, Qt::ShiftModifier);
        QCOMPARE(w.timeline()->currentMatch(), 1);
        QVERIFY2(bar->status()->text().startsWith(QStringLiteral("2 / %1").arg(kernels + host)), qPrintable(bar->status()->text()));
        // The current match is in view.
        const auto span = bs::ui::matchSpan(p, bs::AnalysisResult{}, w.timeline()->searchMatches()[1]);
        QVERIFY(w.timeline()->viewStart() <= span.first && w.timeline()->viewEnd() >= span.second);
        // A bubble id finds the bubble.
        bar->setText(QStringLiteral("b0003"));
        QCOMPARE(w.timeline()->searchMatches().size(), std::size_t(1));
        QVERIFY(w.timeline()->searchMatches()[0].kind == bs::ui::Match::Kind::Bubble);
        QTest::keyClick(bar->edit(), Qt::Key_Escape);
        QVERIFY(!bar->isVisible());
        QVERIFY(w.timeline()->searchMatches().empty());
        // Ops: double-click an op → exactly its kernels.
        w.tabs()->setCurrentIndex(3);
        QTableView* table = nullptr;
        for (auto* t : w.findChildren<QTableView*>())
            if (t->model() && t->model()->columnCount() == bs::ui::OpsTableModel::ColumnCount) table = t;
        QVERIFY(table);
        const QString op = table->model()->index(0, bs::ui::OpsTableModel::Name).data().toString();
        std::size_t calls = 0;
        for (const auto& k : p.kernels)
            calls += QString::fromUtf8(p.str(k.name)) == op;
        QTest::mouseDClick(table->viewport(), Qt::LeftButton, Qt::NoModifier,
                           table->visualRect(table->model()->index(0, bs::ui::OpsTableModel::Name)).center());
        QCOMPARE(w.timeline()->searchMatches().size(), calls);
        QTest::qWait(300); // the find bar's pause: the exact list must not be replaced by a substring search
        QCOMPARE(w.timeline()->searchMatches().size(), calls);
    }
    // Every named thing selects itself: a layer tree kernel leaf outlines its kernel and shades its span, a
    // click on the Steps lane zooms onto the step, a neighbour kernel in the inspector is a link to it, a
    // clicked host op shows its details.
    void everyNamedThingSelectsItself() {
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QSignalSpy spy(&w, &bs::ui::MainWindow::loadFinished);
        w.openPath(kRank);
        QVERIFY(spy.wait(60000));
        const Reference ref = reference(kRank);
        QVERIFY(ref.loaded.profile);
        const bs::Profile& p = *ref.loaded.profile;
        const bs::AnalysisResult& r = ref.r;
        auto* tl = w.timeline();
        // Layers, on the sample (passes of layers; the ResNet rank's structures are flat): the first kernel
        // leaf (pass → layer → role → kernel).
        bs::ui::MainWindow sw;
        sw.resize(1400, 900);
        sw.show();
        QSignalSpy sampleSpy(&sw, &bs::ui::MainWindow::loadFinished);
        const QString sample = QStringLiteral(BS_SOURCE_DIR "/resources/sample/sample_ascend_pt");
        sw.openPath(sample);
        QVERIFY(sampleSpy.wait(60000));
        const Reference sref = reference(sample);
        const bs::LoadResult& sloaded = sref.loaded;
        sw.tabs()->setCurrentIndex(2);
        auto* stl = sw.timeline();
        QTreeView* tree = nullptr;
        for (auto* t : sw.findChildren<QTreeView*>())
            if (t->model() && t->model()->headerData(0, Qt::Horizontal).toString().contains(QStringLiteral("kernel"))) tree = t;
        QVERIFY(tree);
        QModelIndex leaf = tree->model()->index(0, 0);
        while (leaf.isValid() && tree->model()->hasChildren(leaf))
            leaf = tree->model()->index(0, 0, leaf);
        QVERIFY(leaf.isValid() && leaf.parent().parent().isValid());
        tree->setCurrentIndex(leaf);
        const qint64 ks = leaf.data(Qt::UserRole).toLongLong(), ke = leaf.data(Qt::UserRole + 1).toLongLong();
        QVERIFY(stl->selectedKernel() >= 0);
        const bs::Kernel& k = sloaded.profile->kernels[static_cast<std::size_t>(stl->selectedKernel())];
        QCOMPARE(k.start, ks);
        QCOMPARE(QString::fromUtf8(sloaded.profile->str(k.name)), leaf.data().toString());
        QCOMPARE(stl->rangeSelection(), std::make_pair(bs::TimeNs(ks), bs::TimeNs(ke)));
        QVERIFY(stl->viewStart() <= ks && stl->viewEnd() >= ke);
        // The Steps lane: a click on step 50 zooms onto it and marks it.
        tl->fit();
        int steps = -1;
        for (int i = 0; i < tl->trackCount(); ++i)
            if (tl->trackName(i).startsWith(QStringLiteral("Steps"))) steps = i;
        QVERIFY(steps >= 0);
        const auto& st = r.steps.steps.front();
        QSignalSpy stepSpy(tl, &bs::ui::TimelineWidget::stepClicked);
        const int x = tl->labelWidth() + static_cast<int>(bs::ui::timeToX((st.start + st.end) / 2, tl->viewStart(), tl->viewEnd(), tl->width() - tl->labelWidth()));
        QTest::mouseClick(tl, Qt::LeftButton, Qt::NoModifier, QPoint(x, tl->trackRowTop(steps) + 4));
        QCOMPARE(stepSpy.count(), 1);
        QCOMPARE(stepSpy.at(0).at(0).toInt(), 0);
        QCOMPARE(tl->rangeSelection(), std::make_pair(st.start, st.end));
        QVERIFY(tl->viewStart() <= st.start && tl->viewEnd() >= st.end);
        // The inspector's neighbour kernels are links to them.
        w.tabs()->setCurrentIndex(1);
        w.bubbleTable()->selectRow(2);
        const auto& before = r.anomaly.windows[2].before.front();
        QVERIFY(clickLink(w.bubbleDetail(), QStringLiteral("kernel:%1").arg(before.kernel)));
        QCOMPARE(tl->selectedKernel(), static_cast<int>(before.kernel));
        QVERIFY(tl->viewStart() <= before.start && tl->viewEnd() >= before.start + before.dur);
        QVERIFY(w.bubbleDetail()->toPlainText().startsWith(QString::fromStdString(before.name)));
        // A host op clicked on the timeline: its details.
        std::size_t host = p.hostEvents.size();
        for (std::size_t i = 0; i < p.hostEvents.size() && host == p.hostEvents.size(); ++i)
            if (tl->rect().contains(tl->hostEventPosition(i))) host = i;
        QVERIFY(host < p.hostEvents.size());
        QTest::mouseClick(tl, Qt::LeftButton, Qt::NoModifier, tl->hostEventPosition(host));
        QCOMPARE(tl->selectedHostEvent(), static_cast<int>(host));
        QVERIFY2(w.bubbleDetail()->toPlainText().contains(QStringLiteral("Call depth")), qPrintable(w.bubbleDetail()->toPlainText()));
        // Layers of the ResNet rank (structures, some overlapping): the shares of its one step add up to
        // 100 %, each instant counted once; every structure names its stream.
        QTreeView* flat = nullptr;
        for (auto* t : w.findChildren<QTreeView*>())
            if (t->model() && t->model()->headerData(0, Qt::Horizontal).toString().contains(QStringLiteral("kernel"))) flat = t;
        QVERIFY(flat);
        // The lazy Layers model passes Qt's model checks on flat structures too (tst_timeline: on passes).
        QAbstractItemModelTester flatTester(flat->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        double total = 0;
        const int rows = flat->model()->rowCount();
        QVERIFY(rows > 3);
        for (int i = 0; i < rows; ++i) {
            total += flat->model()->index(i, 2).data().toString().remove(QStringLiteral(" %")).toDouble();
            if (!flat->model()->index(i, 0).data().toString().contains(QStringLiteral("in no structure")))
                QVERIFY(!flat->model()->index(i, 3).data().toString().isEmpty());
        }
        QVERIFY2(std::fabs(total - 100.0) <= 0.05 * rows, qPrintable(QString::number(total)));
        // The sample's passes and layers name their stream too.
        QTreeView* passes = nullptr;
        for (auto* t : sw.findChildren<QTreeView*>())
            if (t->model() && t->model()->headerData(0, Qt::Horizontal).toString().contains(QStringLiteral("kernel"))) passes = t;
        const QModelIndex pass = passes->model()->index(0, 0);
        QVERIFY(!passes->model()->index(0, 3).data().toString().isEmpty());
        QVERIFY(!passes->model()->index(0, 3, pass).data().toString().isEmpty());
    }
    // Charts: each step as shares of itself (the sample's first step is a compile, ten times the others:
    // in ms it flattens them); a click on a bar zooms the timeline onto that step.
    void chartsShowStepSharesAndABarOpensItsStep() {
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QSignalSpy spy(&w, &bs::ui::MainWindow::loadFinished);
        const QString sample = QStringLiteral(BS_SOURCE_DIR "/resources/sample/sample_ascend_pt");
        w.openPath(sample);
        QVERIFY(spy.wait(60000));
        const Reference ref = reference(sample);
        QVERIFY(ref.loaded.profile);
        const bs::AnalysisResult& r = ref.r;
        auto* charts = w.charts();
        QVERIFY(charts->showsShares());
        QCOMPARE(charts->drawnSteps().size(), static_cast<int>(r.metrics.size()));
        for (int i = 0; i < charts->drawnSteps().size(); ++i) {
            const auto& m = r.metrics[static_cast<std::size_t>(charts->drawnSteps()[i])];
            const double parts = bs::nsToMs(m.busyUnion) + bs::nsToMs(m.prelaunchGap) + bs::nsToMs(m.internalBubbleTotal) +
                                 bs::nsToMs(m.tailGap);
            double sum = 0;
            for (int k = 0; k < 4; ++k)
                sum += charts->drawnValues(k)[i];
            QVERIFY(std::fabs(sum - 100.0) < 1e-6);
            QVERIFY(std::fabs(charts->drawnValues(2)[i] - 100.0 * bs::nsToMs(m.internalBubbleTotal) / parts) < 1e-9);
        }
        // Under the bars: the step numbers, each under its bar (three fit, so every bar has one).
        QCOMPARE(charts->stepLabelEvery(), 1);
        QCOMPARE(charts->drawnStepLabels(), (QStringList{QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3")}));
        QCOMPARE(r.metrics.size(), std::size_t(3));
        for (int i = 0; i < 3; ++i)
            QCOMPARE(r.metrics[static_cast<std::size_t>(i)].stepId, i + 1);
        charts->setShowsShares(false);
        QCOMPARE(charts->drawnValues(0)[0], bs::nsToMs(r.metrics[0].busyUnion));
        charts->setShowsShares(true);
        // A bar clicked: its step on the timeline, marked.
        QAbstractBarSeries* series = nullptr;
        for (auto* v : charts->findChildren<QChartView*>())
            for (auto* sr : v->chart()->series())
                if (auto* b = qobject_cast<QPercentBarSeries*>(sr)) series = b;
        QVERIFY(series);
        emit series->clicked(1, series->barSets().front());
        const auto& st = r.steps.steps[1];
        QCOMPARE(w.timeline()->rangeSelection(), std::make_pair(st.start, st.end));
        QVERIFY(w.timeline()->viewStart() <= st.start && w.timeline()->viewEnd() >= st.end);
    }
    void clickingAUserLineHighlightsItsHostEventsShowsItsStackAndHoverShowsAStack() {
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QSignalSpy spy(&w, &bs::ui::MainWindow::loadFinished);
        w.openPath(kRank);
        QVERIFY(spy.wait(60000));
        w.tabs()->setCurrentIndex(1);
        auto* table = w.bubbleTable();
        QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier,
                          table->visualRect(table->model()->index(0, 1)).center());
        QCOMPARE(table->currentIndex().row(), 0); // b0001, the largest window
        const qint64 s = table->model()->index(0, 0).data(Qt::UserRole).toLongLong();
        const qint64 e = table->model()->index(0, 0).data(Qt::UserRole + 1).toLongLong();
        auto* tl = w.timeline();
        QVERIFY(tl->highlightedHostEvents().empty());

        // The first user line (main.py:350) is a link; a click highlights its events and shows its stack.
        QVERIFY(clickLink(w.bubbleDetail(), QStringLiteral("line:0")));
        // The same events found here from the trace: host events overlapping the window whose stack's
        // innermost user frame is line 350 (step markers left out).
        auto found = bs::discoverProfiles(kRank.toStdString());
        QCOMPARE(found.ranks.size(), std::size_t(1));
        const auto load = bs::loadRank(found.ranks[0]);
        QVERIFY(load.profile);
        const auto& p = *load.profile;
        const std::string line350 = "/home/z30057886/imagenet_script/main.py(350): train";
        std::vector<std::size_t> expected;
        for (std::size_t i = 0; i < p.hostEvents.size(); ++i) {
            const auto& ev = p.hostEvents[i];
            if (!ev.stack || ev.ts >= e || ev.ts + ev.dur <= s || p.str(ev.name).rfind("ProfilerStep#", 0) == 0)
                continue;
            if (innermostUserFrame(p.str(ev.stack)) == line350) expected.push_back(i);
        }
        QVERIFY(!expected.empty());
        QCOMPARE(tl->highlightedHostEvents(), expected);
        // The stack pane under the inspector: how many events, and the full stack of the largest of them.
        QVERIFY(w.stackPane()->isVisible());
        const QString text = w.stackPane()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("%1 host events under main.py:350 train are highlighted on the timeline")
                                   .arg(expected.size())),
                 qPrintable(text));
        // The full stack of the largest of them, frame paths as written, the user frame marked.
        QVERIFY2(text.contains(QStringLiteral("● ") + QString::fromStdString(line350)), qPrintable(text));

        // Hovering a highlighted event on the timeline shows its call stack, user line marked.
        const QPoint at = tl->hostEventPosition(expected.front());
        QVERIFY(at.x() > 0 && at.y() > 0 && tl->rect().contains(at));
        QHelpEvent help(QEvent::ToolTip, at, tl->mapToGlobal(at));
        QApplication::sendEvent(tl, &help);
        const QString tip = QToolTip::text();
        qInfo("%zu host events under main.py:350; tooltip: %s", expected.size(), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("<b>● main.py:350 train</b>")), qPrintable(tip));
        QVERIFY(tip.contains(QStringLiteral("Call stack")));

        // Another window: nothing highlighted any more.
        QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier,
                          table->visualRect(table->model()->index(1, 1)).center());
        QCOMPARE(table->currentIndex().row(), 1);
        QVERIFY(tl->highlightedHostEvents().empty());
        QVERIFY(!w.stackPane()->isVisible());
    }
    // Issue 46 (items 1 and 2): after A (a bubble and its user line chosen, the Ops table filtered to A's
    // top op), B opens: the window shows exactly what a window that opened only B shows — no bubble detail
    // of A, no filter, the Op column as wide as its names.
    void aNewProfileShowsNothingOfThePreviousOne() {
        bs::ui::MainWindow fresh;
        fresh.resize(1400, 900);
        fresh.show();
        QCOMPARE(load(fresh, kRank), std::optional<bool>(true));
        const Shown b = shownBy(fresh);
        QVERIFY(b.bubbleRows > 0 && b.opsRows > 0 && !b.tracks.isEmpty());

        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QCOMPARE(load(w, kSample), std::optional<bool>(true));
        const QString heading = chooseThingsInA(w);
        QVERIFY2(heading.startsWith(QStringLiteral("b0001 — ")), qPrintable(heading));
        QVERIFY(clickLink(w.bubbleDetail(), QStringLiteral("line:0")));
        QVERIFY(!w.stackPane()->isHidden());
        QVERIFY(!w.timeline()->highlightedHostEvents().empty());
        const QString filterOfA = opsPanel(w)->filter()->text();
        QVERIFY(!filterOfA.isEmpty());

        QCOMPARE(load(w, kRank), std::optional<bool>(true));
        // Item 1: the inspector holds nothing of A (its first bubble, its kernels, its links).
        QVERIFY2(!w.bubbleDetail()->toPlainText().contains(heading), qPrintable(w.bubbleDetail()->toPlainText()));
        QCOMPARE(w.bubbleDetail()->toPlainText(), QString());
        QVERIFY(w.stackPane()->isHidden());
        // Item 2: no filter; every op of B listed, the Op column as wide as in a window that opened only B.
        QCOMPARE(opsPanel(w)->filter()->text(), QString());
        QCOMPARE(opsPanel(w)->table()->model()->rowCount(), b.opsRows);
        QCOMPARE(opsPanel(w)->table()->columnWidth(bs::ui::OpsTableModel::Name), b.opsNameWidth);
        // And everything else.
        compareShown(shownBy(w), b);
        if (QTest::currentTestFailed()) return;
    }
    // Issue 46 (item 2): the filter is gone, and the Op column is not squeezed once a user clears it.
    void theOpsFilterOfThePreviousProfileDoesNotSqueezeTheOpColumn() {
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QCOMPARE(load(w, kSample), std::optional<bool>(true));
        QVERIFY(!chooseThingsInA(w).isEmpty());
        QCOMPARE(load(w, kRank), std::optional<bool>(true));
        auto* ops = opsPanel(w);
        ops->filter()->clear(); // what a user does when the table is empty
        auto* table = ops->table();
        QVERIFY(table->model()->rowCount() > 10);
        const int shown = table->columnWidth(bs::ui::OpsTableModel::Name);
        table->resizeColumnToContents(bs::ui::OpsTableModel::Name); // as wide as its names need
        const int needed = table->columnWidth(bs::ui::OpsTableModel::Name);
        QVERIFY2(shown >= needed, qPrintable(QStringLiteral("Op column %1 px, its names need %2 px").arg(shown).arg(needed)));
    }
    // Issue 46 (item 3): A, then B, then a broken C (an empty folder; then a rank whose trace_view.json is
    // random bytes): the error and nothing else — no timeline, no counts, no title, no detail of A or B;
    // exactly what a window that opened only C shows.
    void aFailedOpenShowsTheFailureAndNothingOfWhatWasOpen() {
        QTemporaryDir tmp;
        const QString empty = tmp.filePath(QStringLiteral("empty"));
        QVERIFY(QDir().mkpath(empty));
        const QString noise = tmp.filePath(QStringLiteral("noise_ascend_pt"));
        QVERIFY(QDir().mkpath(noise + QStringLiteral("/ASCEND_PROFILER_OUTPUT")));
        {
            QFile f(noise + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json"));
            QVERIFY(f.open(QIODevice::WriteOnly));
            QByteArray bytes(64 * 1024, '\0');
            std::uint64_t x = 46;
            for (auto& c : bytes) {
                x = x * 6364136223846793005ULL + 1442695040888963407ULL;
                c = static_cast<char>(x >> 56);
            }
            bytes[0] = '\x9c'; // not '{' or '['
            f.write(bytes);
        }
        for (const QString& broken : {empty, noise}) {
            bs::ui::MainWindow fresh;
            fresh.resize(1400, 900);
            fresh.show();
            QCOMPARE(load(fresh, broken), std::optional<bool>(false));
            const Shown c = shownBy(fresh);
            QVERIFY(!c.summary.isEmpty()); // the error

            bs::ui::MainWindow w;
            w.resize(1400, 900);
            w.show();
            QCOMPARE(load(w, kSample), std::optional<bool>(true));
            QVERIFY(!chooseThingsInA(w).isEmpty());
            QCOMPARE(load(w, kRank), std::optional<bool>(true));
            const QString firstId = w.bubbleTable()->model()->index(0, 0).data().toString();
            QVERIFY(clickLink(w.summary(), QStringLiteral("bubble:") + firstId)); // a link of B's summary clicked
            w.tabs()->setCurrentIndex(1);
            w.bubbleTable()->selectRow(0);
            const QString bDetail = w.bubbleDetail()->toPlainText();
            QVERIFY(!bDetail.isEmpty());
            QCOMPARE(load(w, broken), std::optional<bool>(false));
            const Shown got = shownBy(w);
            QVERIFY2(got.title == QStringLiteral("BubbleScope"), qPrintable(got.title));
            QVERIFY2(!got.tabs.join(QLatin1Char(' ')).contains(QLatin1Char('(')), qPrintable(got.tabs.join(QLatin1Char(' '))));
            QCOMPARE(got.tracks, QStringList());
            QCOMPARE(got.bubbleRows, 0);
            QCOMPARE(got.detail, QString());
            compareShown(got, c);
            if (QTest::currentTestFailed()) return;
            // The error in plain letters, not in the format of a link or heading of what was shown before.
            QTextCursor first(w.summary()->document());
            first.movePosition(QTextCursor::NextCharacter);
            QVERIFY2(!first.charFormat().isAnchor() && !first.charFormat().fontUnderline(),
                     qPrintable(first.charFormat().anchorHref()));
            QCOMPARE(w.tabs()->currentWidget(), w.summary()); // where the error is
        }
    }
    // Issue 46 (item 4): the Summary's link to the bubble already selected moves the timeline back onto it
    // and the inspector shows it again (not the kernel clicked since).
    void aSummaryLinkToTheSelectedBubbleShowsItAgain() {
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QCOMPARE(load(w, kRank), std::optional<bool>(true));
        const Reference ref = reference(kRank);
        QVERIFY(ref.loaded.profile);
        w.tabs()->setCurrentIndex(1);
        auto* table = w.bubbleTable();
        QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier,
                          table->visualRect(table->model()->index(0, 1)).center());
        QCOMPARE(table->currentIndex().row(), 0);
        const QString id = QString::fromStdString(ref.r.anomaly.windows[0].id);
        QVERIFY(w.bubbleDetail()->toPlainText().startsWith(id + QStringLiteral(" — ")));
        auto* tl = w.timeline();
        const int k = kernelInView(tl, *ref.loaded.profile);
        QVERIFY(k >= 0);
        QTest::mouseClick(tl, Qt::LeftButton, Qt::NoModifier, tl->kernelPosition(static_cast<std::size_t>(k)));
        QCOMPARE(tl->selectedKernel(), k);
        const QString kernelName = QString::fromUtf8(ref.loaded.profile->str(ref.loaded.profile->kernels[static_cast<std::size_t>(k)].name));
        QVERIFY2(w.bubbleDetail()->toPlainText().startsWith(kernelName), qPrintable(w.bubbleDetail()->toPlainText()));
        tl->fit(); // the bubble out of sight (the whole capture)
        const qint64 s = table->model()->index(0, 0).data(Qt::UserRole).toLongLong();
        const qint64 e = table->model()->index(0, 0).data(Qt::UserRole + 1).toLongLong();
        QVERIFY(tl->viewEnd() - tl->viewStart() > 3 * (e - s));

        w.tabs()->setCurrentIndex(0);
        QVERIFY(clickLink(w.summary(), QStringLiteral("bubble:") + id));
        QCOMPARE(w.tabs()->currentIndex(), 1);
        QCOMPARE(table->currentIndex().row(), 0);
        QCOMPARE(tl->selectedBubble(), 0);
        QVERIFY2(tl->viewStart() < s && tl->viewEnd() > e && tl->viewEnd() - tl->viewStart() <= 3 * (e - s),
                 qPrintable(QStringLiteral("view %1..%2, bubble %3..%4").arg(tl->viewStart()).arg(tl->viewEnd()).arg(s).arg(e)));
        QVERIFY2(w.bubbleDetail()->toPlainText().startsWith(id + QStringLiteral(" — ")), qPrintable(w.bubbleDetail()->toPlainText()));
    }
    // Issue 46 (item 1, the language): after A's bubble and B's opening, a switch to Chinese leaves no English
    // bubble of A in the inspector; what it shows then (a kernel of B) is written again in each language
    // switched to, and the timeline keeps that kernel selected.
    void theInspectorSpeaksTheLanguageSwitchedTo() {
        bs::ui::setTranslationFile(zhQmFile());
        QVERIFY(QFile::exists(zhQmFile()));
        struct English { // the tests after this one speak English, also when this one fails
            ~English() { bs::ui::applyLanguage(QStringLiteral("en")); }
        } english;
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QCOMPARE(load(w, kSample), std::optional<bool>(true));
        const QString heading = chooseThingsInA(w);
        QVERIFY(heading.startsWith(QStringLiteral("b0001 — ")));
        QCOMPARE(load(w, kRank), std::optional<bool>(true));
        bs::ui::applyLanguage(QStringLiteral("zh_CN"));
        QTRY_COMPARE(w.tabs()->tabText(0), QStringLiteral("概览"));
        QVERIFY2(!w.bubbleDetail()->toPlainText().contains(heading), qPrintable(w.bubbleDetail()->toPlainText()));
        // A bubble of B, in Chinese.
        w.tabs()->setCurrentIndex(1);
        w.bubbleTable()->selectRow(0);
        QVERIFY2(w.bubbleDetail()->toPlainText().contains(QStringLiteral("设备空闲")), qPrintable(w.bubbleDetail()->toPlainText()));
        // A kernel of B: shown, then written again in English, then in Chinese, still selected.
        const Reference ref = reference(kRank);
        QVERIFY(ref.loaded.profile);
        auto* tl = w.timeline();
        const int k = kernelInView(tl, *ref.loaded.profile);
        QVERIFY(k >= 0);
        QTest::mouseClick(tl, Qt::LeftButton, Qt::NoModifier, tl->kernelPosition(static_cast<std::size_t>(k)));
        QCOMPARE(tl->selectedKernel(), k);
        const QString kernelName = QString::fromUtf8(ref.loaded.profile->str(ref.loaded.profile->kernels[static_cast<std::size_t>(k)].name));
        QVERIFY(w.bubbleDetail()->toPlainText().startsWith(kernelName));
        QVERIFY2(w.bubbleDetail()->toPlainText().contains(QStringLiteral("时长")), qPrintable(w.bubbleDetail()->toPlainText()));
        bs::ui::applyLanguage(QStringLiteral("en"));
        QTRY_COMPARE(w.tabs()->tabText(0), QStringLiteral("Summary"));
        const QString en = w.bubbleDetail()->toPlainText();
        QVERIFY2(en.startsWith(kernelName) && en.contains(QStringLiteral("Duration")) && !en.contains(QStringLiteral("时长")),
                 qPrintable(en));
        QCOMPARE(tl->selectedKernel(), k);
        bs::ui::applyLanguage(QStringLiteral("zh_CN"));
        QTRY_COMPARE(w.tabs()->tabText(0), QStringLiteral("概览"));
        QVERIFY2(w.bubbleDetail()->toPlainText().startsWith(kernelName) && w.bubbleDetail()->toPlainText().contains(QStringLiteral("时长")),
                 qPrintable(w.bubbleDetail()->toPlainText()));
        QVERIFY(w.windowTitle().startsWith(QStringLiteral("rank0_ascend_pt")));
        QCOMPARE(w.tabs()->tabText(1), QStringLiteral("气泡（88）"));
        bs::ui::applyLanguage(QStringLiteral("en"));
        QTRY_COMPARE(w.tabs()->tabText(0), QStringLiteral("Summary"));
        QCOMPARE(w.tabs()->tabText(1), QStringLiteral("Bubbles (88)"));
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
    // Issue 46 (item 9): the Ops tab groups ops by op type — Conv2D1 … Conv2D4 are one op, four instances,
    // under a group row with their summed calls and time — counted against the rank's kernel_details.csv.
    void opsAreGroupedByOpTypeWithTheirInstancesBeneath() {
        // The test's own reading of the CSV: op type (Type) → distinct kernel names, calls.
        QFile csv(kRank + QStringLiteral("/ASCEND_PROFILER_OUTPUT/kernel_details.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> header = csv.readLine().trimmed().split(',');
        const qsizetype nameCol = header.indexOf("Name"), typeCol = header.indexOf("Type");
        QVERIFY(nameCol >= 0 && typeCol >= 0);
        std::map<QString, std::set<QString>> namesOfType;
        std::map<QString, int> callsOfType;
        while (!csv.atEnd()) {
            const QList<QByteArray> f = csv.readLine().trimmed().split(',');
            if (f.size() <= std::max(nameCol, typeCol)) continue;
            namesOfType[QString::fromUtf8(f[typeCol])].insert(QString::fromUtf8(f[nameCol]));
            ++callsOfType[QString::fromUtf8(f[typeCol])];
        }
        QCOMPARE(namesOfType[QStringLiteral("Conv2D")].size(), std::size_t(4));

        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QCOMPARE(load(w, kRank), std::optional<bool>(true));
        w.tabs()->setCurrentWidget(opsPanel(w));
        auto* table = opsPanel(w)->table();
        auto* m = table->model();
        using G = bs::ui::OpsGroupModel;
        auto rowOf = [m](const QString& name) {
            for (int r = 0; r < m->rowCount(); ++r)
                if (m->index(r, 0).data(G::NameRole).toString() == name) return r;
            return -1;
        };
        const int conv = rowOf(QStringLiteral("Conv2D"));
        QVERIFY(conv >= 0);
        QCOMPARE(m->index(conv, 0).data(G::KindRole).toInt(), int(G::Group));
        QCOMPARE(m->index(conv, 0).data(G::InstanceCountRole).toInt(), 4);
        QVERIFY(!m->index(conv, 0).data(G::ExpandedRole).toBool());
        // A click on its name opens it: the four instances beneath, their calls adding up to the group's.
        const int rowsBefore = m->rowCount();
        QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier,
                          table->visualRect(m->index(conv, bs::ui::OpsTableModel::Name)).center());
        const int group = rowOf(QStringLiteral("Conv2D"));
        QVERIFY(m->index(group, 0).data(G::ExpandedRole).toBool());
        QCOMPARE(m->rowCount(), rowsBefore + 4);
        std::set<QString> instances;
        qulonglong calls = 0;
        for (int r = group + 1; r < m->rowCount() && m->index(r, 0).data(G::KindRole).toInt() == G::Instance; ++r) {
            instances.insert(m->index(r, bs::ui::OpsTableModel::Name).data().toString());
            calls += m->index(r, bs::ui::OpsTableModel::Calls).data().toULongLong();
        }
        QCOMPARE(instances, namesOfType[QStringLiteral("Conv2D")]);
        QCOMPARE(m->index(group, bs::ui::OpsTableModel::Calls).data().toULongLong(), calls);
        QCOMPARE(calls, qulonglong(callsOfType[QStringLiteral("Conv2D")]));
        // Left closes it again; sorting keeps instances under their group; the filter finds an instance.
        table->setCurrentIndex(m->index(group, 0));
        QTest::keyClick(table, Qt::Key_Left);
        QCOMPARE(m->rowCount(), rowsBefore);
        table->sortByColumn(bs::ui::OpsTableModel::Name, Qt::AscendingOrder);
        QTest::keyClicks(opsPanel(w)->filter(), QStringLiteral("conv2d3"));
        QCOMPARE(m->rowCount(), 2); // the group, opened, and its one matching instance
        QCOMPARE(m->index(0, 0).data(G::NameRole).toString(), QStringLiteral("Conv2D"));
        QCOMPARE(m->index(1, 0).data(G::NameRole).toString(), QStringLiteral("Conv2D3"));
        opsPanel(w)->filter()->clear();
        QCOMPARE(m->rowCount(), rowsBefore);

        // With the profile, the recorded op type groups: every type's instances are the CSV's names of
        // it that the op analysis keeps apart (collectives' running index is one op: hcom_allReduce__#_#_#).
        const Reference ref = reference(kRank);
        QVERIFY(ref.loaded.profile);
        bs::ui::OpsGroupModel typed;
        QAbstractItemModelTester tester(&typed, QAbstractItemModelTester::FailureReportingMode::QtTest);
        typed.setAnalysis(std::make_shared<bs::AnalysisResult>(ref.r), ref.loaded.profile.get());
        int checked = 0;
        for (int r = 0; r < typed.rowCount(); ++r) {
            const QString type = typed.index(r, 0).data(G::NameRole).toString();
            if (typed.index(r, 0).data(G::KindRole).toInt() != G::Group) continue;
            QCOMPARE(typed.index(r, 0).data(G::InstanceCountRole).toInt(), int(namesOfType[type].size()));
            ++checked;
        }
        const int transData = [&] {
            for (int r = 0; r < typed.rowCount(); ++r)
                if (typed.index(r, 0).data(G::NameRole).toString() == QStringLiteral("TransData")) return r;
            return -1;
        }();
        QVERIFY(transData >= 0);
        QCOMPARE(typed.index(transData, 0).data(G::InstanceCountRole).toInt(), 29);
        QVERIFY2(checked >= 5, qPrintable(QString::number(checked)));
    }
    // Issue 46 (item 11): a flat model (the ResNet rank: pattern structures, no passes) drills down to its
    // kernels in the Layers tab: each structure row opens to exactly its range of the profile's kernels.
    void aFlatModelsStructuresOpenToTheirKernels() {
        const Reference ref = reference(kRank);
        QVERIFY(ref.loaded.profile);
        const auto& a = ref.r.architecture;
        QVERIFY(a.passes.empty());
        QVERIFY(!a.structures.empty());
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QCOMPARE(load(w, kRank), std::optional<bool>(true));
        auto* tree = layerTree(w);
        QVERIFY(tree);
        w.tabs()->setCurrentWidget(tree);
        auto* m = tree->model();
        QAbstractItemModelTester tester(m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        std::size_t opened = 0, kernels = 0;
        for (const auto& st : a.structures) {
            const QString label = QString::fromStdString(st.id + " " + st.type);
            int row = -1;
            for (int r = 0; r < m->rowCount(); ++r)
                if (m->index(r, 0).data().toString() == label) row = r;
            QVERIFY2(row >= 0, qPrintable(label));
            const QModelIndex s = m->index(row, 0);
            const int n = static_cast<int>(st.lastKernel - st.firstKernel);
            QVERIFY(n > 0);
            QCOMPARE(m->rowCount(s), n);
            tree->collapse(s);
            tree->expand(s);
            QVERIFY(tree->isExpanded(s));
            const auto& p = *ref.loaded.profile;
            QCOMPARE(m->index(0, 0, s).data().toString(), QString::fromStdString(std::string(p.str(p.kernels[st.firstKernel].name))));
            QCOMPARE(m->index(n - 1, 0, s).data().toString(),
                     QString::fromStdString(std::string(p.str(p.kernels[st.lastKernel - 1].name))));
            QCOMPARE(m->index(0, 0, s).data(Qt::UserRole).toLongLong(), qlonglong(p.kernels[st.firstKernel].start));
            QVERIFY(!m->hasChildren(m->index(0, 0, s)));
            ++opened;
            kernels += static_cast<std::size_t>(n);
        }
        QCOMPARE(opened, a.structures.size());
        QVERIFY(kernels > 0);
    }

    // Issue 46 (item 8): the find results list has a row per match (kind, name, time on the ruler's clock,
    // lane), follows the walk (F3) and walks the timeline when a row is chosen; a bubble id found selects
    // its row of the Bubbles table, which the inspector then shows.
    void findListsEveryMatchAndABubbleIdSelectsItsRow() {
        const Reference ref = reference(kRank);
        QVERIFY(ref.loaded.profile);
        const bs::Profile& p = *ref.loaded.profile;
        QVERIFY(ref.r.anomaly.captureEnd > 0);
        const bs::TimeNs origin = ref.r.anomaly.captureStart;
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QCOMPARE(load(w, kRank), std::optional<bool>(true));
        auto* bar = w.findBar();
        QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier);
        QTest::keyClicks(bar->edit(), QStringLiteral("conv2D"));
        QTRY_VERIFY(!w.timeline()->searchMatches().empty());
        const auto matches = w.timeline()->searchMatches();
        auto* list = bar->results();
        QVERIFY(list->isVisible());
        QCOMPARE(list->model()->rowCount(), static_cast<int>(matches.size()));
        QAbstractItemModelTester tester(list->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Every row against the test's own reading of the match.
        for (std::size_t i = 0; i < matches.size(); ++i) {
            const auto& m = matches[i];
            const int row = static_cast<int>(i);
            auto cell = [&](int c) { return list->model()->index(row, c).data().toString(); };
            QVERIFY(m.kind != bs::ui::Match::Kind::Bubble);
            const bool kernel = m.kind == bs::ui::Match::Kind::Kernel;
            const bs::TimeNs start = kernel ? p.kernels[m.index].start : p.hostEvents[m.index].ts;
            QCOMPARE(cell(0), kernel ? QStringLiteral("kernel") : QStringLiteral("host op"));
            QCOMPARE(cell(1), QString::fromUtf8(p.str(kernel ? p.kernels[m.index].name : p.hostEvents[m.index].name)));
            QCOMPARE(cell(2), QString::number(static_cast<double>(start - origin) / 1e6, 'f', 3));
            if (kernel) QCOMPARE(cell(3), QStringLiteral("Stream %1").arg(p.kernels[m.index].stream));
            else QVERIFY2(!cell(3).isEmpty(), qPrintable(cell(1)));
            if (i > 0) { // time order
                const auto& b = matches[i - 1];
                const bs::TimeNs prev = b.kind == bs::ui::Match::Kind::Kernel ? p.kernels[b.index].start : p.hostEvents[b.index].ts;
                QVERIFY(prev <= start);
            }
        }
        // The walk moves the list's current row; a row chosen moves the walk and the view.
        QCOMPARE(w.timeline()->currentMatch(), 0);
        QCOMPARE(list->currentIndex().row(), 0);
        QTest::keyClick(bar->edit(), Qt::Key_F3);
        QCOMPARE(list->currentIndex().row(), 1);
        const int pick = static_cast<int>(matches.size()) - 2;
        list->scrollTo(list->model()->index(pick, 1));
        QTest::mouseClick(list->viewport(), Qt::LeftButton, Qt::NoModifier,
                          list->visualRect(list->model()->index(pick, 1)).center());
        QCOMPARE(w.timeline()->currentMatch(), pick);
        const auto span = bs::ui::matchSpan(p, ref.r, matches[static_cast<std::size_t>(pick)]);
        QVERIFY(w.timeline()->viewStart() <= span.first && w.timeline()->viewEnd() >= span.second);
        QVERIFY(bar->status()->text().startsWith(QStringLiteral("%1 / %2").arg(pick + 1).arg(matches.size())));
        // A bubble id: the Bubbles table selects it and the inspector shows it.
        int b2 = -1;
        for (std::size_t i = 0; i < ref.r.anomaly.windows.size(); ++i)
            if (ref.r.anomaly.windows[i].id == "b0002") b2 = static_cast<int>(i);
        QVERIFY(b2 >= 0);
        w.tabs()->setCurrentIndex(0);
        bar->setText(QStringLiteral("b0002"));
        QCOMPARE(w.timeline()->searchMatches().size(), std::size_t(1));
        QCOMPARE(list->model()->rowCount(), 1);
        QCOMPARE(list->model()->index(0, 0).data().toString(), QStringLiteral("bubble"));
        QCOMPARE(list->model()->index(0, 1).data().toString(), QStringLiteral("b0002"));
        QCOMPARE(list->model()->index(0, 3).data().toString(), QStringLiteral("Device busy"));
        QCOMPARE(w.bubbleTable()->currentIndex().row(), b2);
        QCOMPARE(w.tabs()->currentWidget(), w.bubbleTable()->parentWidget());
        QCOMPARE(w.timeline()->selectedBubble(), b2);
        auto* inspector = w.findChild<bs::ui::InspectorPanel*>();
        QVERIFY(inspector);
        QVERIFY(inspector->subject().kind == bs::ui::InspectorPanel::Subject::Kind::Bubble);
        QCOMPARE(inspector->subject().index, b2);
        QVERIFY2(w.bubbleDetail()->toPlainText().startsWith(QStringLiteral("b0002")), qPrintable(w.bubbleDetail()->toPlainText().left(80)));
        // Esc closes the bar and empties the list.
        QTest::keyClick(bar->edit(), Qt::Key_Escape);
        QCOMPARE(list->model()->rowCount(), 0);
    }
    // Issue 46 (item 10): a kernel's "Launched by" in the inspector is a link to the host op that launched it
    // (the one L goes to), selected and shown on the timeline.
    void theInspectorsLaunchedByIsALinkToTheHostOp() {
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QCOMPARE(load(w, kRank), std::optional<bool>(true));
        auto* tl = w.timeline();
        int k = -1;
        for (std::size_t i = 0; i < tl->flowLinkCount() * 4 && k < 0; ++i) // a kernel with a launch
            if (tl->launchingHostEvent(static_cast<int>(i)) >= 0) k = static_cast<int>(i);
        QVERIFY(k >= 0);
        const int host = tl->launchingHostEvent(k);
        tl->setSelectedKernel(k);
        emit tl->kernelClicked(k);
        const QString href = QStringLiteral("launcher:%1").arg(k);
        QVERIFY2(w.bubbleDetail()->toHtml().contains(href), qPrintable(w.bubbleDetail()->toPlainText()));
        // The name is the op the link goes to (one join: the timeline's), with the flow's category; the same
        // load of the folder read by the test gives the same indices.
        const Reference ref = reference(kRank);
        QVERIFY(ref.loaded.profile);
        const bs::Profile& prof = *ref.loaded.profile;
        QVERIFY(tl->launchingFlow(k) >= 0);
        const QString said = QString::fromUtf8(prof.str(prof.hostEvents[static_cast<std::size_t>(host)].name)) +
                             QStringLiteral(" (") +
                             QString::fromUtf8(prof.str(prof.flows[static_cast<std::size_t>(tl->launchingFlow(k))].cat)) +
                             QLatin1Char(')');
        QVERIFY2(w.bubbleDetail()->toPlainText().contains(said),
                 qPrintable(said + QStringLiteral(" | ") + w.bubbleDetail()->toPlainText()));
        QVERIFY(tl->selectedHostEvent() != host);
        QVERIFY(clickLink(w.bubbleDetail(), href));
        QCOMPARE(tl->selectedHostEvent(), host);
        const auto& e = w.findChild<bs::ui::InspectorPanel*>()->subject();
        QVERIFY(e.kind == bs::ui::InspectorPanel::Subject::Kind::HostEvent);
        QCOMPARE(e.index, host);
        const QPoint at = tl->hostEventPosition(static_cast<std::size_t>(host));
        QVERIFY(at.x() > tl->labelWidth() && tl->lanesArea().contains(at));
    }
    // Issue 46 (item 13): Esc on the timeline closes the range statistics (the inspector goes back to the
    // bubble selected, or to nothing).
    void escClosesTheRangeStatistics() {
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QCOMPARE(load(w, kRank), std::optional<bool>(true));
        auto* tl = w.timeline();
        auto* inspector = w.findChild<bs::ui::InspectorPanel*>();
        QVERIFY(inspector);
        tl->setFocus();
        const int y = tl->lanesArea().center().y();
        const QPoint a(tl->labelWidth() + 100, y), b(tl->labelWidth() + 400, y);
        QTest::mousePress(tl, Qt::LeftButton, Qt::ShiftModifier, a);
        QMouseEvent move(QEvent::MouseMove, QPointF(b), tl->mapToGlobal(QPointF(b)), Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
        QApplication::sendEvent(tl, &move);
        QTest::mouseRelease(tl, Qt::LeftButton, Qt::ShiftModifier, b);
        QVERIFY(inspector->subject().kind == bs::ui::InspectorPanel::Subject::Kind::Range);
        const QString shown = w.bubbleDetail()->toPlainText();
        QTest::keyClick(tl, Qt::Key_Escape);
        QVERIFY(inspector->subject().kind == bs::ui::InspectorPanel::Subject::Kind::Nothing);
        QVERIFY(w.bubbleDetail()->toPlainText() != shown);
        QCOMPARE(tl->rangeSelection().first, tl->rangeSelection().second);
        // With a bubble selected, Esc goes back to it.
        w.tabs()->setCurrentWidget(w.bubbleTable()->parentWidget());
        w.bubbleTable()->selectRow(1);
        QTest::mousePress(tl, Qt::LeftButton, Qt::ShiftModifier, a);
        QApplication::sendEvent(tl, &move);
        QTest::mouseRelease(tl, Qt::LeftButton, Qt::ShiftModifier, b);
        QVERIFY(inspector->subject().kind == bs::ui::InspectorPanel::Subject::Kind::Range);
        QTest::keyClick(tl, Qt::Key_Escape);
        QVERIFY(inspector->subject().kind == bs::ui::InspectorPanel::Subject::Kind::Bubble);
        QCOMPARE(inspector->subject().index, 1);
    }

    // Issue 47: the Summary's Expected gain column says each recommendation's replayed gain (the core's own
    // sentence, the numbers of the JSON fields) in the core's order; the inspector shows "Fixing its cause" on
    // exactly the windows the replay edited (a prelaunch of the capture's only step is not: no other step's
    // median to start from).
    void theSummaryAndTheInspectorShowTheReplayedGain() {
        const Reference ref = reference(kRank);
        QVERIFY(ref.loaded.profile);
        const auto& recs = ref.r.anomaly.recommendations;
        bs::ui::MainWindow w;
        w.resize(1400, 900);
        w.show();
        QCOMPARE(load(w, kRank), std::optional<bool>(true));
        const QString summary = w.summary()->toPlainText();
        QVERIFY(summary.contains(QStringLiteral("Expected gain")));
        int predicted = 0, at = 0;
        for (const auto& rc : recs) {
            if (!rc.replay) continue;
            ++predicted;
            const QString ms = rc.replay->gainMs >= 1.0 ? QString::number(rc.replay->gainMs, 'f', 2)
                                                        : QString::number(rc.replay->gainMs, 'f', 3);
            const QString gain = QStringLiteral("expected gain ≈ %1 ms per step (%2 % of service), replayed; replay error %3 %")
                                     .arg(ms, QString::number(rc.replay->gainPct, 'f', 1), QString::number(rc.replay->errorPct, 'f', 1));
            const int pos = summary.indexOf(gain, at);
            QVERIFY2(pos >= 0, qPrintable(gain));
            at = pos; // in order
        }
        QVERIFY(predicted >= 1);
        w.tabs()->setCurrentWidget(w.bubbleTable()->parentWidget());
        int withGain = 0, without = 0;
        for (int row = 0; row < 6 && row < static_cast<int>(ref.r.anomaly.windows.size()); ++row) {
            w.bubbleTable()->selectRow(row);
            bool edited = false;
            for (const auto& rc : recs)
                if (rc.replay && std::find(rc.replay->windows.begin(), rc.replay->windows.end(), static_cast<std::size_t>(row)) !=
                                     rc.replay->windows.end())
                    edited = true;
            const QString text = w.bubbleDetail()->toPlainText();
            QVERIFY2(text.startsWith(QString::fromStdString(ref.r.anomaly.windows[static_cast<std::size_t>(row)].id)), qPrintable(text.left(40)));
            QCOMPARE(text.contains(QStringLiteral("Fixing its cause")), edited);
            ++(edited ? withGain : without);
        }
        QVERIFY(withGain > 0 && without > 0); // b0001 (the only step's prelaunch) is not edited, b0002 is
    }
};

QTEST_MAIN(TstMainWindow)
#include "tst_main_window.moc"
