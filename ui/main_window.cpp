#include "main_window.h"

#include "language.h"
#include "i18n/message.h"
#include "pipeline/analysis_run.h"
#include "load_flow.h"
#include "model/profile.h"
#include "panel_models.h"
#include "layer_tree_model.h"
#include "timeline_widget.h"
#include "cluster_view.h"
#include "compare_view.h"
#include "glossary.h"
#include "panels/charts_panel.h"
#include "panels/find_bar.h"
#include "panels/health_panel.h"
#include "panels/inspector.h"
#include "panels/inspector_panel.h"
#include "panels/ops_panel.h"
#include "panels/summary_panel.h"
#include "timeline_search.h"

#include <QAction>
#include <QApplication>
#include <QEvent>
#include <QTimer>
#include <QActionGroup>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHash>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace bs::ui {

namespace {

QString msText(TimeNs ns) {
    return QString::number(nsToMs(ns), 'f', 3);
}

} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("BubbleScope"));
    resize(1400, 900);
    setAcceptDrops(true);

    auto* central = new QWidget(this);
    buildPanels(central);
    setCentralWidget(central);

    status_ = new QLabel(tr("Ready"), this);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(240);
    progress_->setVisible(false);
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setVisible(false);
    statusBar()->addWidget(status_, 1);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);

    WindowPanels p;
    p.window = this;
    p.sampleBanner = sampleBanner_;
    p.rankLabel = rankLabel_;
    p.rankPicker = rankPicker_;
    p.status = status_;
    p.progress = progress_;
    p.cancel = cancel_;
    p.timeline = timeline_;
    p.findBar = findBar_;
    p.tabs = tabs_;
    p.summary = summary_;
    p.bubblesPage = bubbleTable_->parentWidget();
    p.bubbleTable = bubbleTable_;
    p.bubbleModel = bubbleModel_;
    p.inspector = inspector_;
    p.layerTree = layerTree_;
    p.layerModel = layerModel_;
    p.ops = ops_;
    p.charts = chartsTab_;
    p.health = health_;
    p.report = report_;
    p.views = views_;
    p.compare = compareView_;
    flow_ = new LoadFlow(p, this);

    buildMenus();
    connectPanels();
}

void MainWindow::buildPanels(QWidget* central) {
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    sampleBanner_ =
        new QLabel(tr("<b>Sample profile</b> — a generated 8-layer MoE capture with every planted anomaly. "
                      "Open your own profiling folder with File ▸ Open Folder… (Ctrl+O) or drop it here."),
                   central);
    sampleBanner_->setObjectName(QStringLiteral("sampleBanner"));
    sampleBanner_->setStyleSheet(
        QStringLiteral("QLabel { background: #fff4ce; color: #5c4400; border: 1px solid #e0c060; "
                       "padding: 6px; border-radius: 3px; }"));
    sampleBanner_->setVisible(false);
    layout->addWidget(sampleBanner_);
    auto* top = new QHBoxLayout;
    rankLabel_ = new QLabel(tr("Rank:"), central);
    rankPicker_ = new QComboBox(central);
    rankPicker_->setToolTip(tr("Rank to analyse"));
    rankPicker_->setObjectName(QStringLiteral("rankPicker"));
    rankPicker_->setSizeAdjustPolicy(QComboBox::AdjustToContents); // full rank names
    rankLabel_->setVisible(false);
    rankPicker_->setVisible(false);
    top->addWidget(rankLabel_);
    top->addWidget(rankPicker_);
    top->addStretch(1);
    layout->addLayout(top);

    auto* split = new QSplitter(Qt::Vertical, central);
    rankPage_ = split;
    // The timeline with the find bar above it (hidden until Ctrl+F or "/").
    auto* timelinePane = new QWidget(split);
    auto* paneLayout = new QVBoxLayout(timelinePane);
    paneLayout->setContentsMargins(0, 0, 0, 0);
    paneLayout->setSpacing(2);
    findBar_ = new FindBar(timelinePane);
    timeline_ = new TimelineWidget(timelinePane);
    paneLayout->addWidget(findBar_);
    paneLayout->addWidget(timeline_, 1);
    tabs_ = new QTabWidget(split);
    summary_ = new SummaryPanel(tabs_);
    tabs_->addTab(summary_, tr("Summary"));

    // The Bubbles tab: the table, and beside it the inspector (with the stack pane of a user line).
    auto* bubbles = new QSplitter(Qt::Horizontal, tabs_);
    bubbleTable_ = new QTableView(bubbles);
    bubbleModel_ = new BubbleTableModel(this);
    bubbleTable_->setModel(bubbleModel_);
    bubbleTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    bubbleTable_->setSelectionMode(QAbstractItemView::SingleSelection);
    bubbleTable_->horizontalHeader()->setStretchLastSection(true);
    bubbleTable_->verticalHeader()->hide();
    inspector_ = new InspectorPanel(bubbles);
    bubbles->setStretchFactor(0, 3);
    bubbles->setStretchFactor(1, 2);
    tabs_->addTab(bubbles, tr("Bubbles"));

    layerTree_ = new QTreeView(tabs_);
    layerModel_ = new LayerTreeModel(this);
    layerTree_->setModel(layerModel_);
    layerTree_->setUniformRowHeights(true);
    tabs_->addTab(layerTree_, tr("Layers"));

    ops_ = new OpsPanel(tabs_);
    tabs_->addTab(ops_, tr("Ops"));

    chartsTab_ = new ChartsPanel(tabs_);
    tabs_->addTab(chartsTab_, tr("Charts"));
    health_ = new HealthPanel(tabs_);
    tabs_->addTab(health_, tr("Health"));
    report_ = new QTextBrowser(tabs_);
    report_->setOpenExternalLinks(false);
    report_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    report_->setLineWrapMode(QTextEdit::NoWrap);
    tabs_->addTab(report_, tr("Text report"));
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({470, 400});
    // Several ranks: the Cluster view comes first, each rank's timeline in the second tab.
    views_ = new QTabWidget(central);
    clusterView_ = new ClusterView(views_);
    views_->addTab(clusterView_, tr("Cluster"));
    views_->addTab(split, tr("Rank timeline"));
    compareView_ = new CompareView(views_);
    views_->addTab(compareView_, tr("Compare"));
    views_->setTabVisible(2, false);
    views_->setTabVisible(0, false);
    views_->tabBar()->setVisible(false);
    views_->setCurrentIndex(1);
    layout->addWidget(views_, 1);
}

void MainWindow::connectPanels() {
    connectLoading();
    connectSelection();
    connectFind();
    connectLinks();
}

// Loads and their sources: the cancel button, the Cluster view's ranks, the rank picker, Compare.
void MainWindow::connectLoading() {
    connect(cancel_, &QPushButton::clicked, flow_, &LoadFlow::cancel);
    connect(cancel_, &QPushButton::clicked, clusterView_, &ClusterView::cancel);
    connect(flow_, &LoadFlow::finished, this, &MainWindow::onLoadFinished);
    connect(clusterView_, &ClusterView::ranksFound, this, [this](const QStringList& labels) {
        severalRanks_ = labels.size() > 1;
        updateViewTabs();
        views_->setCurrentIndex(severalRanks_ ? 0 : 1);
    });
    connect(compareView_, &CompareView::comparisonFinished, this, [this](bool ok, const QString& message) {
        status_->setText(ok ? tr("Compared: %1").arg(message) : message);
    });
    // From the Ranks tab: the rank's timeline opens on the instant double-clicked (its own clock).
    connect(clusterView_, &ClusterView::rankViewRequested, this, [this](int, qint64 start, qint64 end) {
        connect(
            this, &MainWindow::loadFinished, this,
            [this, start, end](bool ok) {
                if (ok) timeline_->setView(start, end);
            },
            Qt::SingleShotConnection);
    });
    connect(clusterView_, &ClusterView::rankActivated, this, [this](int rank) {
        views_->setCurrentIndex(1);
        // From summaries: the rank's own folder, as its summary records it.
        if (ClusterView::isSummaryFolder(clusterView_->path()))
            openPath(clusterView_->rankFolder(rank));
        else
            openPath(clusterView_->path(), rank);
    });
    connect(rankPicker_, &QComboBox::activated, this, [this](int index) { openPath(flow_->path(), index); });
}

// What is chosen, and the inspector beside the Bubbles table showing it.
void MainWindow::connectSelection() {
    // A bubble: a row of the table (also the row selected already, clicked again), or on the timeline.
    connect(bubbleTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& row) { showBubble(row.row(), false); });
    connect(bubbleTable_, &QTableView::clicked, this, [this](const QModelIndex& i) { showBubble(i.row(), false); });
    connect(timeline_, &TimelineWidget::bubbleSelected, this, [this](int i) {
        if (i < 0) return;
        if (bubbleTable_->currentIndex().row() != i)
            bubbleTable_->selectRow(i);
        else
            showBubble(i, false);
    });
    // The inspector: a kernel, a host op or a range chosen on the timeline; its own links.
    connect(timeline_, &TimelineWidget::kernelClicked, this, &MainWindow::showKernel);
    connect(timeline_, &TimelineWidget::hostEventClicked, this, &MainWindow::showHostEvent);
    connect(timeline_, &TimelineWidget::rangeSelected, this, &MainWindow::showRange);
    // Esc on the timeline clears the selection and the range: the range statistics close with it (the inspector
    // goes back to the selected bubble, or shows nothing).
    connect(timeline_, &TimelineWidget::selectionCleared, this, [this] {
        if (inspector_->subject().kind != InspectorPanel::Subject::Kind::Range) return;
        status_->clear();
        const int row = bubbleTable_->currentIndex().row();
        if (row >= 0)
            inspector_->showBubble(row);
        else
            inspector_->show({});
    });
    connect(inspector_, &InspectorPanel::kernelLinkActivated, this, [this](int k) {
        const Kernel& kn = flow_->profile()->kernels[static_cast<std::size_t>(k)];
        timeline_->setSelectedKernel(k);
        const TimeNs pad = std::max<TimeNs>(kn.dur * 4, 20'000);
        timeline_->setView(kn.start - pad, kn.end() + pad);
        showKernel(k);
    });
    connect(inspector_, &InspectorPanel::userLineChosen, timeline_, &TimelineWidget::setHighlightedHostEvents);
    connect(inspector_, &InspectorPanel::launcherLinkActivated, timeline_, &TimelineWidget::showLaunchingHostEvent);
    inspector_->setLaunchLookup([tl = timeline_](int k) { return KernelLaunch{tl->launchingFlow(k), tl->launchingHostEvent(k)}; });
}

void MainWindow::connectFind() {
    // Find: "/" on the timeline opens the bar too; typing searches the loaded model (names only).
    auto* slash = new QShortcut(QKeySequence(Qt::Key_Slash), timeline_, nullptr, nullptr, Qt::WidgetShortcut);
    connect(slash, &QShortcut::activated, findBar_, &FindBar::activate);
    connect(findBar_, &FindBar::searchChanged, this, &MainWindow::onSearch);
    connect(findBar_, &FindBar::next, timeline_, &TimelineWidget::nextMatch);
    connect(findBar_, &FindBar::previous, timeline_, &TimelineWidget::previousMatch);
    connect(findBar_, &FindBar::closed, this, [this] {
        timeline_->setSearchMatches({});
        findBar_->setMatchList(0, {});
        timeline_->setFocus();
    });
    connect(timeline_, &TimelineWidget::matchChanged, findBar_, &FindBar::setCurrent);
    connect(findBar_, &FindBar::matchChosen, timeline_, &TimelineWidget::showMatch);
    // A bubble found by its id is selected in the Bubbles table too (and the inspector shows it).
    connect(timeline_, &TimelineWidget::matchChanged, this, [this](int i, int) {
        const auto& all = timeline_->searchMatches();
        if (i < 0 || static_cast<std::size_t>(i) >= all.size()) return;
        const Match& m = all[static_cast<std::size_t>(i)];
        if (m.kind != Match::Kind::Bubble) return;
        const int row = static_cast<int>(m.index);
        tabs_->setCurrentWidget(bubbleTable_->parentWidget());
        if (bubbleTable_->currentIndex().row() != row) bubbleTable_->selectRow(row);
        showBubble(row, false);
    });
    // Ops: double-click an op to find its instances on the timeline.
    connect(ops_, &OpsPanel::instancesRequested, this, &MainWindow::showOpInstances);
}

// Named things that open each other: steps, the Summary's links, the Layers rows.
void MainWindow::connectLinks() {
    // Steps: a Summary link, a bar of the Charts, the Steps lane.
    auto focusStep = [this](int i, bool mark) {
        const auto& analysis = flow_->analysis();
        if (!analysis || i < 0 || static_cast<std::size_t>(i) >= analysis->steps.steps.size()) return;
        const auto& st = analysis->steps.steps[static_cast<std::size_t>(i)];
        timeline_->focusRange(st.start, st.end);
        if (mark) timeline_->markRange(st.start, st.end);
    };
    connect(chartsTab_, &ChartsPanel::stepActivated, this, [focusStep](int i) { focusStep(i, true); });
    connect(summary_, &SummaryPanel::stepActivated, this, [focusStep](int i) { focusStep(i, false); });
    connect(timeline_, &TimelineWidget::stepClicked, this, [this](int i) {
        const auto& analysis = flow_->analysis();
        if (!analysis || i < 0 || static_cast<std::size_t>(i) >= analysis->steps.steps.size()) return;
        const auto& st = analysis->steps.steps[static_cast<std::size_t>(i)];
        status_->setText(tr("%1: %2 ms").arg(coreText(st.label), msText(st.service())));
    });
    // The Summary's other links: a bubble (also the one selected already: shown again), an op.
    connect(summary_, &SummaryPanel::bubbleActivated, this, [this](int i) {
        tabs_->setCurrentWidget(bubbleTable_->parentWidget());
        if (bubbleTable_->currentIndex().row() != i) bubbleTable_->selectRow(i);
        showBubble(i, true);
    });
    connect(summary_, &SummaryPanel::opActivated, this, [this](const QString& name) {
        tabs_->setCurrentWidget(ops_);
        ops_->filterTo(name);
    });
    connect(layerTree_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& idx) {
                if (!idx.isValid()) return;
                const qint64 s = idx.data(Qt::UserRole).toLongLong(),
                             e = idx.data(Qt::UserRole + 1).toLongLong();
                if (e <= s) return;
                timeline_->focusRange(s, e);
                timeline_->markRange(s, e); // the layer / role / kernel's span, shaded
                // A kernel leaf (no children, under a role): that kernel is selected and outlined.
                const QModelIndex first = idx.sibling(idx.row(), 0);
                const auto& profile = flow_->profile();
                if (profile && !layerModel_->hasChildren(first) && first.parent().isValid() &&
                    first.parent().parent().isValid()) {
                    const std::string name = first.data().toString().toStdString();
                    const auto& ks = profile->kernels;
                    auto k = std::lower_bound(ks.begin(), ks.end(), s, [](const Kernel& x, qint64 t) { return x.start < t; });
                    for (; k != ks.end() && k->start == s; ++k)
                        if (profile->str(k->name) == name) {
                            timeline_->setSelectedKernel(static_cast<int>(k - ks.begin()));
                            break;
                        }
                }
            });
}

MainWindow::~MainWindow() = default;

QTextBrowser* MainWindow::health() const {
    return health_;
}

QTextBrowser* MainWindow::summary() const {
    return summary_;
}

QTextBrowser* MainWindow::bubbleDetail() const {
    return inspector_->detail();
}

QTextBrowser* MainWindow::stackPane() const {
    return inspector_->stackPane();
}

void MainWindow::changeEvent(QEvent* e) {
    QMainWindow::changeEvent(e);
    if (e->type() != QEvent::LanguageChange || retranslatePending_) return;
    // Installing Qt's and BubbleScope's translators sends two events: write the texts once, after both.
    retranslatePending_ = true;
    QTimer::singleShot(0, this, [this] {
        retranslatePending_ = false;
        retranslateUi();
    });
}

void MainWindow::retranslateUi() {
    sampleBanner_->setText(tr("<b>Sample profile</b> — a generated 8-layer MoE capture with every planted anomaly. "
                              "Open your own profiling folder with File ▸ Open Folder… (Ctrl+O) or drop it here."));
    rankLabel_->setText(tr("Rank:"));
    rankPicker_->setToolTip(tr("Rank to analyse"));
    cancel_->setText(tr("Cancel"));
    tabs_->setTabText(tabs_->indexOf(summary_), tr("Summary"));
    tabs_->setTabText(tabs_->indexOf(layerTree_), tr("Layers"));
    tabs_->setTabText(tabs_->indexOf(ops_), tr("Ops"));
    tabs_->setTabText(tabs_->indexOf(chartsTab_), tr("Charts"));
    tabs_->setTabText(tabs_->indexOf(report_), tr("Text report"));
    views_->setTabText(views_->indexOf(clusterView_), tr("Cluster"));
    views_->setTabText(views_->indexOf(rankPage_), tr("Rank timeline"));
    views_->setTabText(views_->indexOf(compareView_), tr("Compare"));

    // Menus: built again in the new language, with the states the user set.
    QHash<QString, bool> checked;
    for (QAction* a : menuBar()->findChildren<QAction*>())
        if (a->isCheckable() && a->objectName().startsWith(QLatin1String("view_"))) checked[a->objectName()] = a->isChecked();
    const QList<QMenu*> old = menuBar()->findChildren<QMenu*>(QString(), Qt::FindDirectChildrenOnly);
    menuBar()->clear();
    for (QMenu* m : old) m->deleteLater();
    buildMenus();
    for (QAction* a : menuBar()->findChildren<QAction*>())
        if (checked.contains(a->objectName())) a->setChecked(checked.value(a->objectName()));

    // What the analysis says, and the title and counts, in the new language: from the same result.
    flow_->retranslate();
}

QString MainWindow::reportText() const {
    return flow_->reportText();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    const auto urls = e->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile()) return;
    // Shift held: compare the open rank with the dropped folder instead of opening it.
    if ((e->modifiers() & Qt::ShiftModifier) && flow_->hasResults())
        compareWith(urls.first().toLocalFile());
    else
        openPath(urls.first().toLocalFile());
}

void MainWindow::updateViewTabs() {
    const bool comparing = views_->isTabVisible(2);
    views_->setTabVisible(0, severalRanks_);
    views_->tabBar()->setVisible(severalRanks_ || comparing);
}

void MainWindow::compareWith(const QString& path) {
    if (!flow_->hasResults()) {
        status_->setText(tr("Open a profile first: it is the base of the comparison."));
        return;
    }
    views_->setTabVisible(2, true);
    updateViewTabs();
    views_->setCurrentWidget(compareView_);
    status_->setText(tr("Comparing %1 with %2…").arg(flow_->rankLabel(), path));
    compareView_->compare(flow_->profile(), flow_->analysis(), flow_->rankLabel(), flow_->rankFolder(), path);
}

void MainWindow::onOpenFolder() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Profiling Folder"));
    if (!dir.isEmpty()) openPath(dir);
}

void MainWindow::openPath(const QString& path, int rankIndex) {
    open(path, rankIndex, false);
}

void MainWindow::openSample(const QString& path) {
    open(path, 0, true);
}

bool MainWindow::isShowingSample() const {
    return flow_->hasResults() && flow_->isSample();
}

void MainWindow::showMessage(const QString& text) {
    summary_->showMessage(text);
    status_->setText(text);
}

void MainWindow::open(const QString& path, int rankIndex, bool sample) {
    if (ClusterView::isSummaryFolder(path)) {
        // A job array's summaries: the Cluster tab from them; a rank's timeline opens from its folder.
        status_->setText(tr("Merging the rank summaries in %1…").arg(path));
        clusterView_->analyse(path);
        return;
    }
    flow_->start(path, rankIndex, sample);
    // A new folder: are there several ranks? (Not for a rank opened from a summaries folder's cluster.)
    if (path != clusterView_->path() && !(ClusterView::isSummaryFolder(clusterView_->path()) &&
                                          clusterView_->hasRankFolder(path)))
        clusterView_->analyse(path);
}

void MainWindow::onLoadFinished(bool ok) {
    // Exports and comparisons need a result; a cancelled load leaves the one shown before.
    exportMenu_->setEnabled(flow_->hasResults());
    compareAction_->setEnabled(flow_->hasResults());
    if (ok && !flow_->isSample()) addRecent(flow_->path());
    emit loadFinished(ok);
}

void MainWindow::showBubble(int row, bool moveTimeline) {
    if (!flow_->hasResults() || row < 0 || row >= bubbleModel_->rowCount()) return;
    if (moveTimeline || timeline_->selectedBubble() != row) timeline_->selectBubble(row);
    const InspectorPanel::Subject& shown = inspector_->subject();
    if (shown.kind == InspectorPanel::Subject::Kind::Bubble && shown.index == row) return; // with its user line
    // Another window: no user line chosen in it yet.
    if (!timeline_->highlightedHostEvents().empty()) timeline_->setHighlightedHostEvents({});
    inspector_->showBubble(row);
}

void MainWindow::onSearch(const QString& text) {
    const auto& profile = flow_->profile();
    const auto& analysis = flow_->analysis();
    if (!profile || !analysis) return;
    MatchCounts counts;
    std::vector<Match> matches = findMatches(*profile, *analysis, text, &counts);
    // The distinct names matched, most frequent first (the drop-down list).
    QHash<QString, int> byName;
    for (const Match& m : matches) {
        QString name;
        switch (m.kind) {
        case Match::Kind::Kernel:
            name = QString::fromUtf8(profile->str(profile->kernels[m.index].name));
            break;
        case Match::Kind::HostEvent:
            name = QString::fromUtf8(profile->str(profile->hostEvents[m.index].name));
            break;
        case Match::Kind::Bubble:
            name = coreText(analysis->anomaly.windows[m.index].id);
            break;
        }
        ++byName[name];
    }
    QVector<QPair<QString, int>> names;
    for (auto it = byName.cbegin(); it != byName.cend(); ++it)
        names.append({it.key(), it.value()});
    std::sort(names.begin(), names.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    if (names.size() > 30) names.resize(30);
    findBar_->setResults(counts.kernels, counts.hostEvents, counts.bubbles, names);
    const bool any = !matches.empty();
    timeline_->setSearchMatches(std::move(matches));
    fillMatchList();
    if (any) timeline_->showMatch(0);
}

// The find results list: a row per match the timeline holds, its texts read when shown.
void MainWindow::fillMatchList() {
    const auto profile = flow_->profile();
    const auto analysis = flow_->analysis();
    const int n = static_cast<int>(timeline_->searchMatches().size());
    if (!profile || !analysis || n == 0) {
        findBar_->setMatchList(0, {});
        return;
    }
    findBar_->setMatchList(n, [this, profile, analysis](int row, int column) -> QString {
        const auto& all = timeline_->searchMatches();
        if (row < 0 || static_cast<std::size_t>(row) >= all.size()) return {};
        const Match& m = all[static_cast<std::size_t>(row)];
        switch (column) {
        case 0:
            return m.kind == Match::Kind::Kernel ? tr("kernel") : m.kind == Match::Kind::HostEvent ? tr("host op") : tr("bubble");
        case 1:
            if (m.kind == Match::Kind::Kernel) return QString::fromUtf8(profile->str(profile->kernels[m.index].name));
            if (m.kind == Match::Kind::HostEvent) return QString::fromUtf8(profile->str(profile->hostEvents[m.index].name));
            return coreText(analysis->anomaly.windows[m.index].id);
        case 2:
            return QString::number(timeline_->matchStartMs(m), 'f', 3);
        default:
            return timeline_->matchLane(m);
        }
    });
}

void MainWindow::showOpInstances(const QString& name) {
    const auto& profile = flow_->profile();
    if (!profile) return;
    // Exactly this op's kernels (not every name containing it), walked with Enter / F3 on the timeline.
    const std::string n = name.toStdString();
    std::vector<Match> matches;
    for (std::size_t k = 0; k < profile->kernels.size(); ++k)
        if (profile->str(profile->kernels[k].name) == n) matches.push_back({Match::Kind::Kernel, static_cast<std::uint32_t>(k)});
    findBar_->activate();
    findBar_->edit()->blockSignals(true); // the exact op, not a substring search of its name
    findBar_->edit()->setText(name);
    findBar_->edit()->blockSignals(false);
    findBar_->setResults(matches.size(), 0, 0, {});
    const bool any = !matches.empty();
    timeline_->setSearchMatches(std::move(matches));
    fillMatchList();
    if (any) timeline_->showMatch(0);
}

void MainWindow::showKernel(int kernelIndex) {
    if (!flow_->hasResults()) return;
    inspector_->showKernel(kernelIndex);
    tabs_->setCurrentWidget(bubbleTable_->parentWidget());
}

void MainWindow::showHostEvent(int index) {
    const auto& profile = flow_->profile();
    if (!profile || index < 0 || static_cast<std::size_t>(index) >= profile->hostEvents.size()) return;
    inspector_->showHostEvent(index, timeline_->hostEventDepth(static_cast<std::size_t>(index)));
    tabs_->setCurrentWidget(bubbleTable_->parentWidget());
}

void MainWindow::showRange(qint64 start, qint64 end) {
    if (!flow_->hasResults()) return;
    TimeNs busy = 0;
    std::size_t count = 0;
    inspector_->showRange(start, end, &busy, &count);
    tabs_->setCurrentWidget(bubbleTable_->parentWidget());
    status_->setText(
        tr("Range: %1 ms, busy %2 ms, %3 kernels").arg(msText(end - start), msText(busy)).arg(count));
}

void MainWindow::buildMenus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open Folder…"), QKeySequence::Open, this, &MainWindow::onOpenFolder);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    compareAction_ = file->addAction(tr("&Compare with…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Compare the open rank (base) with…"));
        if (!dir.isEmpty()) compareWith(dir);
    });
    compareAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    compareAction_->setToolTip(tr("Before / after: compares the open rank with another profile (also: drop a folder with Shift held)."));
    compareAction_->setEnabled(flow_->hasResults());
    updateRecentMenu();
    exportMenu_ = file->addMenu(tr("&Export"));
    exportMenu_->addAction(tr("Anomaly &JSON…"), this, [this] { onExport(Export::AnomalyJson); });
    exportMenu_->addAction(tr("Anomaly &report (Markdown)…"), this,
                           [this] { onExport(Export::AnomalyReport); });
    exportMenu_->addAction(tr("&Architecture report (Markdown)…"), this,
                           [this] { onExport(Export::ArchitectureReport); });
    exportMenu_->addAction(tr("Timeline &image (PNG or SVG)…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export the timeline as it is shown"),
                                                          QStringLiteral("timeline.png"), tr("PNG (*.png);;SVG (*.svg)"));
        if (path.isEmpty()) return;
        const QString err = exportTimelineImage(path);
        if (!err.isEmpty())
            QMessageBox::critical(this, tr("Export failed"), tr("The file was not written; nothing was changed.\n\n%1").arg(err));
        else
            status_->setText(tr("Exported %1").arg(path));
    });
    exportMenu_->addAction(tr("Report with bubble &pictures…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Folder for the report and its pictures"));
        if (dir.isEmpty()) return;
        const QString err = exportReportWithPictures(dir);
        if (!err.isEmpty())
            QMessageBox::critical(this, tr("Export failed"), err);
        else
            status_->setText(tr("Exported the report with its pictures to %1").arg(dir));
    });
    exportMenu_->addSeparator();
    exportMenu_->addAction(tr("Export all to &folder…"), this, &MainWindow::onExportAll);
    exportMenu_->setEnabled(flow_->hasResults());
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    auto* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Fit timeline"), QKeySequence(Qt::CTRL | Qt::Key_0), this, [this] { timeline_->fit(); });
    view->addSeparator();
    view->addAction(tr("Fin&d…"), QKeySequence::Find, this, [this] {
        if (views_->currentWidget() == clusterView_ && clusterView_->activateFind())
            return; // the Ranks tab's find
        findBar_->activate();
    });
    view->addAction(tr("Find &next"), QKeySequence::FindNext, this, [this] { timeline_->nextMatch(); });
    view->addAction(tr("Find &previous"), QKeySequence::FindPrevious, this, [this] { timeline_->previousMatch(); });
    auto* legend = view->addAction(tr("Show the le&gend"));
    legend->setCheckable(true);
    legend->setObjectName(QStringLiteral("view_legend"));
    legend->setChecked(true);
    connect(legend, &QAction::toggled, this, [this](bool on) { timeline_->setLegendVisible(on); });
    timeline_->setLegendVisible(true);
    auto* flows = view->addAction(tr("Show all launch flo&ws in view"));
    flows->setCheckable(true);
    flows->setObjectName(QStringLiteral("view_flows"));
    connect(flows, &QAction::toggled, this, [this](bool on) { timeline_->setShowAllFlowsInView(on); });
    view->addSeparator();
    auto* host = view->addAction(tr("Show &host lanes"));
    host->setCheckable(true);
    host->setObjectName(QStringLiteral("view_host"));
    host->setChecked(true);
    connect(host, &QAction::toggled, this,
            [this](bool on) { timeline_->setGroupCollapsed(QStringLiteral("Host"), !on); });
    auto* overlap = view->addAction(tr("Show &Overlap Analysis lanes"));
    overlap->setCheckable(true);
    overlap->setObjectName(QStringLiteral("view_overlap"));
    connect(overlap, &QAction::toggled, this,
            [this](bool on) { timeline_->setGroupCollapsed(QStringLiteral("Overlap Analysis"), !on); });
    auto* lang = view->addMenu(tr("&Language"));
    auto* langGroup = new QActionGroup(lang);
    const std::pair<QString, QString> langs[] = {{tr("System default"), QString()},
                                                 {QStringLiteral("English"), QStringLiteral("en")},
                                                 {QStringLiteral("中文（简体）"), QStringLiteral("zh_CN")}};
    for (const auto& [label, code] : langs) {
        auto* a = lang->addAction(label);
        a->setCheckable(true);
        a->setActionGroup(langGroup);
        a->setObjectName(QStringLiteral("language_") + (code.isEmpty() ? QStringLiteral("system") : code));
        a->setChecked(QSettings().value(QStringLiteral("language")).toString() == code);
        // At once: the widgets get QEvent::LanguageChange and write their texts again (retranslateUi).
        connect(a, &QAction::triggered, this, [code = code] {
            QSettings().setValue(QStringLiteral("language"), code);
            applyLanguage(code);
        });
    }
    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Glossary"), this, [this] { showGlossary(this); });
    help->addAction(tr("&Keyboard shortcuts"), this, [this] { showKeyboardShortcuts(this); });
    help->addAction(tr("&About BubbleScope"), this, [this] {
        QMessageBox::about(this, tr("About BubbleScope"),
                           tr("BubbleScope %1 — device-idle bubble analysis for Ascend NPU profiles.")
                               .arg(QApplication::applicationVersion()));
    });
}

void MainWindow::updateRecentMenu() {
    recentMenu_->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recent")).toStringList();
    for (const QString& p : recent)
        recentMenu_->addAction(p, this, [this, p] { openPath(p); });
    recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::addRecent(const QString& path) {
    QStringList recent = QSettings().value(QStringLiteral("recent")).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > 10)
        recent.removeLast();
    QSettings().setValue(QStringLiteral("recent"), recent);
    updateRecentMenu();
}

} // namespace bs::ui
