#include "main_window.h"

#include "language.h"
#include "report/text_report.h"
#include "i18n/message.h"
#include "analysis/analysis_run.h"
#include "analysis/recommendations.h"
#include "load_job.h"
#include "model/profile.h"
#include "panel_models.h"
#include "layer_tree_model.h"
#include "report/anomaly_report.h"
#include "report/architecture_report.h"
#include "report/json_export.h"
#include "report/output_target.h"
#include "stack_text.h"
#include "timeline_widget.h"
#include "timeline_data.h"
#include "range_stats.h"
#include "cluster_view.h"
#include "compare_view.h"
#include "glossary.h"
#include "timeline_image.h"
#include "panels/charts_panel.h"
#include "panels/find_bar.h"
#include "panels/health_panel.h"
#include "panels/inspector.h"
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
#include <QDir>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
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
#include <QScrollBar>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>

#include <map>
#include <utility>

namespace bs::ui {

namespace {

QString msText(TimeNs ns) {
    return QString::number(nsToMs(ns), 'f', 3);
}

QTextBrowser* makeBrowser(QWidget* parent) {
    auto* b = new QTextBrowser(parent);
    b->setOpenExternalLinks(false);
    return b;
}

} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), job_(new LoadJob(this)) {
    setWindowTitle(tr("BubbleScope"));
    resize(1400, 900);
    setAcceptDrops(true);

    auto* central = new QWidget(this);
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

    auto* bubbles = new QSplitter(Qt::Horizontal, tabs_);
    bubbleTable_ = new QTableView(bubbles);
    bubbleModel_ = new BubbleTableModel(this);
    bubbleTable_->setModel(bubbleModel_);
    bubbleTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    bubbleTable_->setSelectionMode(QAbstractItemView::SingleSelection);
    bubbleTable_->horizontalHeader()->setStretchLastSection(true);
    bubbleTable_->verticalHeader()->hide();
    // The inspector, and under it the stack pane of the user line clicked in it.
    auto* inspector = new QSplitter(Qt::Vertical, bubbles);
    bubbleDetail_ = makeBrowser(inspector);
    bubbleDetail_->setOpenLinks(false); // "line:N" links select a user line (onUserLineClicked)
    stackPane_ = makeBrowser(inspector);
    stackPane_->setObjectName(QStringLiteral("stackPane"));
    stackPane_->setVisible(false);
    inspector->setStretchFactor(0, 3);
    inspector->setStretchFactor(1, 2);
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
    connect(chartsTab_, &ChartsPanel::stepActivated, this, [this](int i) {
        if (!analysis_ || i < 0 || static_cast<std::size_t>(i) >= analysis_->steps.steps.size()) return;
        const auto& st = analysis_->steps.steps[static_cast<std::size_t>(i)];
        timeline_->focusRange(st.start, st.end);
        timeline_->markRange(st.start, st.end);
    });
    health_ = new HealthPanel(tabs_);
    tabs_->addTab(health_, tr("Health"));
    report_ = makeBrowser(tabs_);
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
    buildMenus();

    connect(cancel_, &QPushButton::clicked, job_, &LoadJob::cancel);
    connect(cancel_, &QPushButton::clicked, clusterView_, &ClusterView::cancel);
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
    connect(job_, &LoadJob::progress, this, [this](const QString& stage, int permille) {
        // The core's reading stages, then the job's own phases after the last byte is read.
        if (stage == QLatin1String("analysing"))
            status_->setText(tr("Analysing…"));
        else if (stage == QLatin1String("report"))
            status_->setText(tr("Writing the text report…"));
        else
            status_->setText(tr("Loading %1…").arg(stage));
        progress_->setValue(permille);
    });
    connect(job_, &LoadJob::analysed, this, &MainWindow::onAnalysed);
    connect(job_, &LoadJob::finished, this, &MainWindow::onFinished);
    connect(rankPicker_, &QComboBox::activated, this, [this](int index) { openPath(currentPath_, index); });
    connect(bubbleTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &MainWindow::onBubbleRowChanged);
    connect(timeline_, &TimelineWidget::bubbleSelected, this, [this](int i) {
        if (i >= 0 && bubbleTable_->currentIndex().row() != i) bubbleTable_->selectRow(i);
    });
    connect(timeline_, &TimelineWidget::kernelClicked, this, &MainWindow::showKernel);
    // Find: "/" on the timeline opens the bar too; typing searches the loaded model (names only).
    auto* slash = new QShortcut(QKeySequence(Qt::Key_Slash), timeline_, nullptr, nullptr, Qt::WidgetShortcut);
    connect(slash, &QShortcut::activated, findBar_, &FindBar::activate);
    connect(findBar_, &FindBar::searchChanged, this, &MainWindow::onSearch);
    connect(findBar_, &FindBar::next, timeline_, &TimelineWidget::nextMatch);
    connect(findBar_, &FindBar::previous, timeline_, &TimelineWidget::previousMatch);
    connect(findBar_, &FindBar::closed, this, [this] {
        timeline_->setSearchMatches({});
        timeline_->setFocus();
    });
    connect(timeline_, &TimelineWidget::matchChanged, findBar_, &FindBar::setCurrent);
    // Ops: double-click an op to find its instances on the timeline.
    connect(ops_, &OpsPanel::instancesRequested, this, &MainWindow::showOpInstances);
    connect(bubbleDetail_, &QTextBrowser::anchorClicked, this, &MainWindow::onUserLineClicked);
    // The Summary's links: a bubble, a step, an op.
    connect(summary_, &SummaryPanel::bubbleActivated, this, [this](int i) {
        tabs_->setCurrentWidget(bubbleTable_->parentWidget());
        bubbleTable_->selectRow(i);
    });
    connect(summary_, &SummaryPanel::stepActivated, this, [this](int i) {
        if (!analysis_) return;
        const auto& st = analysis_->steps.steps[static_cast<std::size_t>(i)];
        timeline_->focusRange(st.start, st.end);
    });
    connect(summary_, &SummaryPanel::opActivated, this, [this](const QString& name) {
        tabs_->setCurrentWidget(ops_);
        ops_->filterTo(name);
    });
    // A kernel or a range shown in the inspector: the stack pane of a user line no longer applies.
    connect(timeline_, &TimelineWidget::kernelClicked, stackPane_, &QWidget::hide);
    connect(timeline_, &TimelineWidget::rangeSelected, stackPane_, &QWidget::hide);
    connect(timeline_, &TimelineWidget::rangeSelected, this, &MainWindow::showRange);
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
                if (profile_ && !layerModel_->hasChildren(first) && first.parent().isValid() &&
                    first.parent().parent().isValid()) {
                    const std::string name = first.data().toString().toStdString();
                    const auto& ks = profile_->kernels;
                    auto k = std::lower_bound(ks.begin(), ks.end(), s, [](const Kernel& x, qint64 t) { return x.start < t; });
                    for (; k != ks.end() && k->start == s; ++k)
                        if (profile_->str(k->name) == name) {
                            timeline_->setSelectedKernel(static_cast<int>(k - ks.begin()));
                            break;
                        }
                }
            });
    // A step clicked on the timeline: the status bar says which.
    connect(timeline_, &TimelineWidget::stepClicked, this, [this](int i) {
        if (!analysis_ || i < 0 || static_cast<std::size_t>(i) >= analysis_->steps.steps.size()) return;
        const auto& st = analysis_->steps.steps[static_cast<std::size_t>(i)];
        status_->setText(tr("%1: %2 ms").arg(coreText(st.label), msText(st.service())));
    });
    connect(timeline_, &TimelineWidget::hostEventClicked, this, &MainWindow::showHostEvent);
}

MainWindow::~MainWindow() = default;

QTextBrowser* MainWindow::health() const {
    return health_;
}

QTextBrowser* MainWindow::summary() const {
    return summary_;
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
    compareAction_->setEnabled(false);
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
    exportMenu_->setEnabled(false);
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
    help->addAction(tr("&Glossary"), this, [this] {
        QMessageBox box(QMessageBox::NoIcon, tr("Glossary"), glossaryHtml(), QMessageBox::Close, this);
        box.setTextFormat(Qt::RichText);
        box.exec();
    });
    help->addAction(tr("&Keyboard shortcuts"), this, [this] {
        QMessageBox::information(
            this, tr("Keyboard shortcuts"),
            tr("Timeline: Ctrl+wheel, W/S or +/− zoom; drag, A/D or horizontal wheel pan; F fit; "
               "N/P next/previous bubble by size; Shift+drag selects a range for statistics; "
               "click a group header to fold it."));
    });
    help->addAction(tr("&About BubbleScope"), this, [this] {
        QMessageBox::about(this, tr("About BubbleScope"),
                           tr("BubbleScope %1 — device-idle bubble analysis for Ascend NPU profiles.")
                               .arg(QApplication::applicationVersion()));
    });
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
    setWindowTitle(tr("BubbleScope"));
    sampleBanner_->setText(tr("<b>Sample profile</b> — a generated 8-layer MoE capture with every planted anomaly. "
                              "Open your own profiling folder with File ▸ Open Folder… (Ctrl+O) or drop it here."));
    rankLabel_->setText(tr("Rank:"));
    rankPicker_->setToolTip(tr("Rank to analyse"));
    cancel_->setText(tr("Cancel"));
    tabs_->setTabText(tabs_->indexOf(summary_), tr("Summary"));
    tabs_->setTabText(tabs_->indexOf(bubbleTable_->parentWidget()), tr("Bubbles"));
    tabs_->setTabText(tabs_->indexOf(layerTree_), tr("Layers"));
    tabs_->setTabText(tabs_->indexOf(ops_), tr("Ops"));
    tabs_->setTabText(tabs_->indexOf(chartsTab_), tr("Charts"));
    tabs_->setTabText(tabs_->indexOf(health_), tr("Health"));
    tabs_->setTabText(tabs_->indexOf(report_), tr("Text report"));
    views_->setTabText(views_->indexOf(clusterView_), tr("Cluster"));
    views_->setTabText(1, tr("Rank timeline"));
    views_->setTabText(views_->indexOf(compareView_), tr("Compare"));

    // Menus: built again in the new language, with the states the user set.
    QHash<QString, bool> checked;
    for (QAction* a : menuBar()->findChildren<QAction*>())
        if (a->isCheckable() && a->objectName().startsWith(QLatin1String("view_"))) checked[a->objectName()] = a->isChecked();
    const bool compareOn = compareAction_ && compareAction_->isEnabled();
    const bool exportOn = exportMenu_ && exportMenu_->isEnabled();
    const QList<QMenu*> old = menuBar()->findChildren<QMenu*>(QString(), Qt::FindDirectChildrenOnly);
    menuBar()->clear();
    for (QMenu* m : old) m->deleteLater();
    buildMenus();
    for (QAction* a : menuBar()->findChildren<QAction*>())
        if (checked.contains(a->objectName())) a->setChecked(checked.value(a->objectName()));
    compareAction_->setEnabled(compareOn);
    exportMenu_->setEnabled(exportOn);

    // What the analysis says, in the new language: the panels are filled again from the same results,
    // the timeline keeps its view.
    if (profile_ && analysis_) {
        {
            const ScopedLanguage language(currentLanguage());
            reportText_ = QString::fromStdString(renderTextReport(*profile_, *analysis_));
        }
        const TimeNs vs = timeline_->viewStart(), ve = timeline_->viewEnd();
        const int row = bubbleTable_->currentIndex().row();
        showResults();
        timeline_->setView(vs, ve);
        if (row >= 0) bubbleTable_->selectRow(row);
        status_->setText(tr("Loaded %1").arg(currentPath_));
    } else if (!job_->isRunning()) {
        status_->setText(tr("Ready"));
    }
}

QString MainWindow::reportText() const {
    return reportText_;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    const auto urls = e->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile()) return;
    // Shift held: compare the open rank with the dropped folder instead of opening it.
    if ((e->modifiers() & Qt::ShiftModifier) && profile_)
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
    if (!profile_ || !analysis_) {
        status_->setText(tr("Open a profile first: it is the base of the comparison."));
        return;
    }
    views_->setTabVisible(2, true);
    updateViewTabs();
    views_->setCurrentWidget(compareView_);
    status_->setText(tr("Comparing %1 with %2…").arg(currentRankLabel_, path));
    compareView_->compare(profile_, analysis_, currentRankLabel_, currentRankFolder_, path);
}

void MainWindow::onOpenFolder() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Profiling Folder"));
    if (!dir.isEmpty()) openPath(dir);
}

void MainWindow::openSample(const QString& path) {
    openPath(path);
    sampleBanner_->setVisible(true);
}

bool MainWindow::isShowingSample() const {
    return sampleBanner_->isVisible();
}

void MainWindow::showMessage(const QString& text) {
    summary_->setPlainText(text);
    status_->setText(text);
}

void MainWindow::openPath(const QString& path, int rankIndex) {
    sampleBanner_->setVisible(false);
    if (ClusterView::isSummaryFolder(path)) {
        // A job array's summaries: the Cluster tab from them; a rank's timeline opens from its folder.
        status_->setText(tr("Merging the rank summaries in %1…").arg(path));
        clusterView_->analyse(path);
        return;
    }
    currentPath_ = path;
    loadLanguage_ = static_cast<int>(currentLanguage());
    status_->setText(tr("Loading %1…").arg(path));
    progress_->setValue(0);
    progress_->setVisible(true);
    cancel_->setVisible(true);
    job_->start(path, rankIndex);
    // A new folder: are there several ranks? (Not for a rank opened from a summaries folder's cluster.)
    if (path != clusterView_->path() && !(ClusterView::isSummaryFolder(clusterView_->path()) &&
                                          clusterView_->hasRankFolder(path)))
        clusterView_->analyse(path);
}

void MainWindow::onAnalysed(const LoadOutcome& partial) {
    // The timeline's tracks are named in the job's language: a language changed meanwhile waits for
    // onFinished (which builds them again).
    if (!partial.rank || !partial.rank->timeline || loadLanguage_ != static_cast<int>(currentLanguage())) return;
    // The panels keep pointing into the results they show until onFinished fills them again.
    ++fillGeneration_; // a previous load's panels still being filled: not any more
    shownProfile_ = std::exchange(profile_, partial.rank->profile);
    shownAnalysis_ = std::exchange(analysis_, partial.rank->analysis);
    rangeStats_ = partial.rank->rangeStats;
    auto built = std::make_unique<TimelineData>(std::move(*partial.rank->timeline));
    partial.rank->timeline.reset();
    timeline_->setModel(profile_, analysis_, std::move(built));
    timelineShows_ = analysis_.get();
    // What the timeline selects (bubbles by row) must be this profile's too; the summary would name the
    // previous one's.
    bubbleModel_->setAnalysis(profile_, analysis_);
    summary_->clear();
    chartsTab_->clear(); // its bars are the previous profile's steps until the charts stage fills it again
}

void MainWindow::onFinished(const LoadOutcome& outcome) {
    progress_->setVisible(false);
    cancel_->setVisible(false);
    if (outcome.cancelled) {
        status_->setText(tr("Loading cancelled."));
        emit loadFinished(false);
        return;
    }
    if (!outcome.error.isEmpty()) {
        summary_->setPlainText(outcome.error);
        reportText_ = outcome.error;
        tabs_->setCurrentWidget(summary_);
        status_->setText(tr("Nothing loaded."));
        emit loadFinished(false);
        return;
    }
    const bool several = outcome.rankLabels.size() > 1;
    rankPicker_->setVisible(several);
    rankLabel_->setVisible(several);
    if (several) {
        rankPicker_->blockSignals(true);
        rankPicker_->clear();
        rankPicker_->addItems(outcome.rankLabels);
        rankPicker_->setCurrentText(outcome.rank->label);
        rankPicker_->blockSignals(false);
    }
    // The timeline shows this load already when onAnalysed took its tracks.
    const bool timelineShown = timelineShows_ && timelineShows_ == outcome.rank->analysis.get();
    profile_ = outcome.rank->profile;
    analysis_ = outcome.rank->analysis;
    rangeStats_ = outcome.rank->rangeStats;
    // The timeline's tracks, built by the job (named in the job's language: built again here if the
    // language changed meanwhile).
    std::unique_ptr<TimelineData> built;
    if (outcome.rank->timeline && loadLanguage_ == static_cast<int>(currentLanguage()))
        built = std::make_unique<TimelineData>(std::move(*outcome.rank->timeline));
    outcome.rank->timeline.reset();
    const std::shared_ptr<const LayerTree> layers = std::exchange(outcome.rank->layers, nullptr);
    currentRankLabel_ = outcome.rank->label;
    currentRankFolder_ = outcome.rank->folder;
    if (compareAction_) compareAction_->setEnabled(true);
    reportText_ = outcome.rank->text;
    if (loadLanguage_ != static_cast<int>(currentLanguage())) { // switched while loading: in the new language
        const ScopedLanguage language(currentLanguage());
        reportText_ = QString::fromStdString(renderTextReport(*profile_, *analysis_));
    }
    // The Layers rows: the same language test as the timeline's.
    std::shared_ptr<const LayerTree> rows = loadLanguage_ == static_cast<int>(currentLanguage()) ? layers : nullptr;
    ++fillGeneration_;
    const QString label = outcome.rank->label;
    showResults(std::move(built), std::move(rows), timelineShown, [this, label] {
        shownProfile_.reset();
        shownAnalysis_.reset();
        setWindowTitle(sampleBanner_->isVisible() ? tr("Sample profile — BubbleScope") : tr("%1 — BubbleScope").arg(label));
        status_->setText(tr("Loaded %1").arg(currentPath_));
        exportMenu_->setEnabled(true);
        if (!sampleBanner_->isVisible()) addRecent(currentPath_);
        emit loadFinished(true);
    });
}

void MainWindow::runStages(std::shared_ptr<std::vector<std::function<void()>>> stages, std::size_t next,
                           quint64 generation) {
    if (generation != fillGeneration_ || next >= stages->size()) return;
    (*stages)[next]();
    if (next + 1 < stages->size())
        QTimer::singleShot(0, this, [this, stages, next, generation] { runStages(stages, next + 1, generation); });
}

void MainWindow::showResults(std::unique_ptr<TimelineData> built, std::shared_ptr<const LayerTree> layers,
                             bool timelineShown, std::function<void()> then) {
    if (!built && !timelineShown) {
        status_->setText(tr("Building the timeline…"));
        status_->repaint(); // shown before the timeline is built on this thread
    }
    // Each stage reads profile_ / analysis_ when it runs (a staged fill stops when they change).
    auto tracks = std::make_shared<std::unique_ptr<TimelineData>>(std::move(built));
    auto stages = std::make_shared<std::vector<std::function<void()>>>();
    stages->push_back([this, tracks, timelineShown, layers = std::move(layers)]() mutable {
        if (!timelineShown) {
            timeline_->setModel(profile_, analysis_, std::move(*tracks));
            timelineShows_ = analysis_.get();
        }
        bubbleModel_->setAnalysis(profile_, analysis_);
        bubbleTable_->resizeColumnsToContents();
        ops_->setAnalysis(analysis_);
        if (layers)
            layerModel_->setTree(profile_, std::move(layers));
        else
            layerModel_->setAnalysis(profile_, *analysis_);
    });
    // A turn of its own. The first level is expanded while it shows at most kExpandedLayerRows rows under
    // it: every pass of a usual capture, the first passes of a long one (at 1 GB of trace, 891 passes
    // expanded laid out ~5 x 10^4 rows nobody scrolls through, in 24-29 ms, the longest stage of the load).
    stages->push_back([this] {
        constexpr int kExpandedLayerRows = 5000;
        int shown = 0;
        for (int row = 0; row < layerModel_->rowCount(); ++row) {
            const QModelIndex pass = layerModel_->index(row, 0);
            shown += layerModel_->rowCount(pass);
            if (row > 0 && shown > kExpandedLayerRows) break;
            layerTree_->expand(pass);
        }
        layerTree_->resizeColumnToContents(0);
    });
    stages->push_back([this] { report_->setPlainText(reportText_); });
    stages->push_back([this] { summary_->setResults(*profile_, *analysis_); });
    stages->push_back([this] {
        const auto& r = *analysis_;
        health_->setResults(r);
        tabs_->setTabText(tabs_->indexOf(health_), HealthPanel::title(r));
        tabs_->setTabText(tabs_->indexOf(bubbleTable_->parentWidget()), tr("Bubbles (%1)").arg(r.anomaly.windows.size()));
    });
    stages->push_back([this] { chartsTab_->setResults(*analysis_); });
    if (!then) {
        for (auto& stage : *stages)
            stage();
        return;
    }
    stages->push_back(std::move(then));
    runStages(stages, 0, fillGeneration_);
}

void MainWindow::onUserLineClicked(const QUrl& link) {
    const int row = bubbleTable_->currentIndex().row();
    if (!analysis_ || row < 0 || row >= static_cast<int>(analysis_->anomaly.windows.size())) return;
    const auto& lines = analysis_->anomaly.windows[static_cast<std::size_t>(row)].stacks.userFrames;
    bool ok = false;
    if (link.scheme() == QStringLiteral("kernel")) { // a neighbour kernel: selected and shown on the timeline
        const int k = link.path().toInt(&ok);
        if (!ok || !profile_ || k < 0 || static_cast<std::size_t>(k) >= profile_->kernels.size()) return;
        const Kernel& kn = profile_->kernels[static_cast<std::size_t>(k)];
        timeline_->setSelectedKernel(k);
        const TimeNs pad = std::max<TimeNs>(kn.dur * 4, 20'000);
        timeline_->setView(kn.start - pad, kn.end() + pad);
        showKernel(k);
        return;
    }
    const int i = link.scheme() == QStringLiteral("line") ? link.path().toInt(&ok) : -1;
    if (!ok || i < 0 || i >= static_cast<int>(lines.size())) return;
    userLine_ = i;
    userLineRow_ = row;
    timeline_->setHighlightedHostEvents(lines[static_cast<std::size_t>(i)].eventIndices);
    const int scroll = bubbleDetail_->verticalScrollBar()->value();
    onBubbleRowChanged();
    bubbleDetail_->verticalScrollBar()->setValue(scroll);
}

void MainWindow::onBubbleRowChanged() {
    const int row = bubbleTable_->currentIndex().row();
    if (!analysis_ || row < 0 || row >= static_cast<int>(analysis_->anomaly.windows.size())) return;
    if (timeline_->selectedBubble() != row) timeline_->selectBubble(row);
    // Another window (or a new profile, whose timeline starts without highlights): nothing chosen yet.
    if (row != userLineRow_ || timeline_->highlightedHostEvents().empty()) {
        userLine_ = userLineRow_ = -1;
        if (!timeline_->highlightedHostEvents().empty()) timeline_->setHighlightedHostEvents({});
    }
    const auto& w = analysis_->anomaly.windows[static_cast<std::size_t>(row)];
    const QString stack = Inspector::userLineStackHtml(*profile_, w, userLine_);
    stackPane_->setVisible(!stack.isEmpty());
    stackPane_->setHtml(stack);
    stackPane_->verticalScrollBar()->setValue(0); // the count and the innermost frames first
    const QString h = Inspector::bubbleHtml(*analysis_, w, userLine_);
    bubbleDetail_->setHtml(h);
}

void MainWindow::onSearch(const QString& text) {
    if (!profile_ || !analysis_) return;
    MatchCounts counts;
    std::vector<Match> matches = findMatches(*profile_, *analysis_, text, &counts);
    // The distinct names matched, most frequent first (the drop-down list).
    QHash<QString, int> byName;
    for (const Match& m : matches) {
        QString name;
        switch (m.kind) {
        case Match::Kind::Kernel:
            name = QString::fromUtf8(profile_->str(profile_->kernels[m.index].name));
            break;
        case Match::Kind::HostEvent:
            name = QString::fromUtf8(profile_->str(profile_->hostEvents[m.index].name));
            break;
        case Match::Kind::Bubble:
            name = coreText(analysis_->anomaly.windows[m.index].id);
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
    if (any) timeline_->showMatch(0);
}

void MainWindow::showOpInstances(const QString& name) {
    if (!profile_) return;
    // Exactly this op's kernels (not every name containing it), walked with Enter / F3 on the timeline.
    const std::string n = name.toStdString();
    std::vector<Match> matches;
    for (std::size_t k = 0; k < profile_->kernels.size(); ++k)
        if (profile_->str(profile_->kernels[k].name) == n) matches.push_back({Match::Kind::Kernel, static_cast<std::uint32_t>(k)});
    findBar_->activate();
    findBar_->edit()->blockSignals(true); // the exact op, not a substring search of its name
    findBar_->edit()->setText(name);
    findBar_->edit()->blockSignals(false);
    findBar_->setResults(matches.size(), 0, 0, {});
    const bool any = !matches.empty();
    timeline_->setSearchMatches(std::move(matches));
    if (any) timeline_->showMatch(0);
}

void MainWindow::showKernel(int kernelIndex) {
    if (!profile_ || kernelIndex < 0 || kernelIndex >= static_cast<int>(profile_->kernels.size())) return;
    const QString h = Inspector::kernelHtml(*profile_, *analysis_, kernelIndex);
    bubbleDetail_->setHtml(h);
    tabs_->setCurrentWidget(bubbleTable_->parentWidget());
}

void MainWindow::showHostEvent(int index) {
    if (!profile_ || index < 0 || static_cast<std::size_t>(index) >= profile_->hostEvents.size()) return;
    const QString h = Inspector::hostEventHtml(*profile_, *analysis_, index, timeline_->hostEventDepth(static_cast<std::size_t>(index)));
    bubbleDetail_->setHtml(h);
    stackPane_->hide();
    tabs_->setCurrentWidget(bubbleTable_->parentWidget());
}

void MainWindow::showRange(qint64 start, qint64 end) {
    if (!profile_) return;
    TimeNs busy = 0;
    std::size_t count = 0;
    const QString h = Inspector::rangeHtml(*profile_, start, end, &busy, &count, rangeStats_.get());
    bubbleDetail_->setHtml(h);
    tabs_->setCurrentWidget(bubbleTable_->parentWidget());
    status_->setText(
        tr("Range: %1 ms, busy %2 ms, %3 kernels").arg(msText(end - start), msText(busy)).arg(count));
}

QString MainWindow::defaultExportName(Export kind) const {
    if (!profile_) return {};
    switch (kind) {
    case Export::AnomalyJson:
        return QStringLiteral("anomaly_discovery_%1.json")
            .arg(QFileInfo(coreText(profile_->inventory.rankDir)).fileName());
    case Export::AnomalyReport:
        return coreText(defaultAnomalyReportName(*profile_));
    case Export::ArchitectureReport:
        return coreText(defaultArchitectureReportName(*profile_));
    }
    return {};
}

QString MainWindow::exportTo(Export kind, const QString& path) const {
    if (!profile_ || !analysis_) return tr("Nothing is loaded.");
    const ScopedLanguage language(currentLanguage()); // the export speaks the window's language
    std::string text;
    switch (kind) {
    case Export::AnomalyJson:
        text = renderJson(*profile_, *analysis_);
        break;
    case Export::AnomalyReport:
        text = renderAnomalyReport(*profile_, *analysis_);
        break;
    case Export::ArchitectureReport:
        text = renderArchitectureReport(*profile_, *analysis_);
        break;
    }
    return coreText(writeOutput(path.toStdString(), text));
}

QString MainWindow::exportTimelineImage(const QString& path) const {
    if (!profile_) return tr("Nothing is loaded.");
    QString err;
    const QByteArray bytes = timelinePicture(*timeline_, pictureFormatFor(path), &err);
    if (bytes.isEmpty()) return err;
    return coreText(writeOutput(path.toStdString(), std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size()))));
}

QString MainWindow::exportReportWithPictures(const QString& dir) const {
    if (!profile_ || !analysis_) return tr("Nothing is loaded.");
    const ScopedLanguage language(currentLanguage());
    // bubbles/<id>.png for the report's top windows (the five largest), each written whole or not at all.
    std::map<std::string, std::string> pictures;
    const auto& windows = analysis_->anomaly.windows;
    if (!QDir(dir).mkpath(QStringLiteral("bubbles"))) return tr("The folder %1/bubbles could not be made.").arg(dir);
    for (std::size_t i = 0; i < windows.size() && i < 5; ++i) {
        QString err;
        const QByteArray png = bubblePicture(profile_, analysis_, static_cast<int>(i), QSize(1400, 520), QStringLiteral("png"), &err);
        if (png.isEmpty()) return err;
        const std::string rel = "bubbles/" + windows[i].id + ".png";
        const std::string e = writeOutput((dir + QLatin1Char('/')).toStdString() + rel,
                                          std::string_view(png.constData(), static_cast<std::size_t>(png.size())));
        if (!e.empty()) return coreText(e);
        pictures[windows[i].id] = rel;
    }
    const std::string report = renderAnomalyReport(*profile_, *analysis_, [&](const std::string& id) {
        const auto it = pictures.find(id);
        return it == pictures.end() ? std::string() : it->second;
    });
    return coreText(writeOutput((dir + QLatin1Char('/') + defaultExportName(Export::AnomalyReport)).toStdString(), report));
}

void MainWindow::onExport(Export kind) {
    const QString filter = kind == Export::AnomalyJson ? tr("JSON (*.json)") : tr("Markdown (*.md)");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export"), defaultExportName(kind), filter);
    if (path.isEmpty()) return;
    const QString err = exportTo(kind, path);
    if (!err.isEmpty())
        QMessageBox::critical(this, tr("Export failed"),
                              tr("The file was not written; nothing was changed.\n\n%1").arg(err));
    else
        status_->setText(tr("Exported %1").arg(path));
}

void MainWindow::onExportAll() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export all to folder"));
    if (dir.isEmpty()) return;
    QStringList written;
    for (Export k : {Export::AnomalyJson, Export::AnomalyReport, Export::ArchitectureReport}) {
        const QString path = dir + QLatin1Char('/') + defaultExportName(k);
        const QString err = exportTo(k, path);
        if (!err.isEmpty()) {
            QMessageBox::critical(this, tr("Export failed"),
                                  tr("The file was not written; nothing was changed.\n\n%1").arg(err));
            return;
        }
        written << path;
    }
    status_->setText(tr("Exported %1 files to %2").arg(written.size()).arg(dir));
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
