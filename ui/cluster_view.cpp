#include "cluster_view.h"

#include "cluster/cluster_model.h"
#include "cluster/cluster_report.h"
#include "cluster/summary_json.h"
#include "cluster_bars.h"
#include "cluster_heatmap.h"
#include "cluster_job.h"
#include "cluster_models.h"
#include "language.h"
#include "ranks_tab.h"
#include "ranks_timeline.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QEvent>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTreeView>
#include <QVBoxLayout>

namespace bs::ui {

namespace {

QString esc(const std::string& s) {
    return coreText(s).toHtmlEscaped();
}

QTreeView* makeTree(QWidget* parent, QStandardItemModel* model) {
    auto* t = new QTreeView(parent);
    t->setModel(model);
    t->setUniformRowHeights(true);
    t->setAlternatingRowColors(true);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->header()->setStretchLastSection(false);
    return t;
}

QGroupBox* box(const QString& title, QWidget* parent) {
    auto* g = new QGroupBox(title, parent);
    auto* l = new QVBoxLayout(g);
    l->setContentsMargins(4, 4, 4, 4);
    return g;
}

} // namespace

ClusterView::ClusterView(QWidget* parent) : QWidget(parent), job_(new ClusterJob(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    header_ = new QTextBrowser(this);
    header_->setObjectName(QStringLiteral("clusterSummary"));
    header_->setMaximumHeight(110);
    layout->addWidget(header_);

    auto* row = new QHBoxLayout;
    status_ = new QLabel(this);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(240);
    progress_->setVisible(false);
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setVisible(false);
    open_ = new QPushButton(tr("Open rank timeline"), this);
    open_->setToolTip(tr("Opens the selected rank in the timeline (or double-click a rank)."));
    compare_ = new QPushButton(tr("Compare with the median rank"), this);
    compare_->setToolTip(tr("Shows the selected rank's step metrics beside the cluster median."));
    open_->setEnabled(false);
    compare_->setEnabled(false);
    row->addWidget(status_, 1);
    row->addWidget(progress_);
    row->addWidget(cancel_);
    row->addWidget(open_);
    row->addWidget(compare_);
    layout->addLayout(row);

    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("clusterTabs"));
    tabs_->setDocumentMode(true);
    tabs_->addTab(buildOverview(), tr("Overview"));
    ranks_ = new RanksTab(tabs_);
    tabs_->addTab(ranks_, tr("Ranks"));
    layout->addWidget(tabs_, 1);

    connect(cancel_, &QPushButton::clicked, this, &ClusterView::cancel);
    connect(open_, &QPushButton::clicked, this, [this] {
        if (selected_ >= 0) emit rankActivated(selected_);
    });
    connect(compare_, &QPushButton::clicked, this, [this] { compareWithMedian(selected_); });
    connect(job_, &ClusterJob::ranksFound, this, [this](const QStringList& labels) {
        if (labels.size() > 1) status_->setText(tr("Analysing %1 ranks, one at a time…").arg(labels.size()));
        emit ranksFound(labels);
    });
    connect(job_, &ClusterJob::progress, this, [this](const QString& stage, int permille) {
        status_->setText(tr("Analysing %1…").arg(stage));
        progress_->setValue(permille);
    });
    connect(job_, &ClusterJob::finished, this, &ClusterView::onFinished);
    connect(heatmap_, &ClusterHeatmap::rankClicked, this, &ClusterView::selectRank);
    connect(bars_, &ClusterBars::rankClicked, this, &ClusterView::selectRank);
    connect(heatmap_, &ClusterHeatmap::rankActivated, this, &ClusterView::rankActivated);
    connect(bars_, &ClusterBars::rankActivated, this, &ClusterView::rankActivated);
    connect(ranks_, &RanksTab::rankClicked, this, &ClusterView::selectRank);
    connect(ranks_, &RanksTab::rankActivated, this, [this](int rank, qint64 at, qint64 span) {
        emit rankViewRequested(rank, at - span / 2, at + span / 2);
        emit rankActivated(rank);
    });
}

QWidget* ClusterView::buildOverview() {
    auto* split = new QSplitter(Qt::Vertical, this);
    auto* top = new QSplitter(Qt::Horizontal, split);
    top->addWidget(buildHeatmapBox());
    top->addWidget(buildBarsBox());
    auto* bottom = new QSplitter(Qt::Horizontal, split);
    bottom->addWidget(buildSlowBox());
    bottom->addWidget(buildCollectivesBox());
    bottom->setStretchFactor(0, 1);
    bottom->setStretchFactor(1, 1);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    return split;
}

bool ClusterView::activateFind() {
    if (tabs_->currentWidget() != ranks_ || !ranks_->showsTimeline()) return false;
    ranks_->activateFind();
    return true;
}

ClusterView::~ClusterView() = default;

QWidget* ClusterView::buildHeatmapBox() {
    auto* g = box(tr("Rank × step"), this);
    g->setObjectName(QStringLiteral("boxHeatmap"));
    auto* row = new QHBoxLayout;
    metric_ = new QComboBox(g);
    for (ClusterMetric m : kClusterMetrics)
        metric_->addItem(ClusterText::metricName(m), static_cast<int>(m));
    metricHelp_ = new QLabel(g);
    metricHelp_->setWordWrap(true);
    auto* metricLabel = new QLabel(tr("Metric:"), g);
    metricLabel->setObjectName(QStringLiteral("metricLabel"));
    row->addWidget(metricLabel);
    row->addWidget(metric_);
    row->addWidget(metricHelp_, 1);
    static_cast<QVBoxLayout*>(g->layout())->addLayout(row);
    heatmap_ = new ClusterHeatmap(g);
    g->layout()->addWidget(heatmap_);
    auto onMetric = [this] {
        const auto m = static_cast<ClusterMetric>(metric_->currentData().toInt());
        heatmap_->setMetric(m);
        metricHelp_->setText(ClusterText::metricHelp(m));
    };
    connect(metric_, &QComboBox::currentIndexChanged, this, onMetric);
    onMetric();
    return g;
}

QWidget* ClusterView::buildBarsBox() {
    auto* g = box(tr("Per rank: where the step time goes"), this);
    g->setObjectName(QStringLiteral("boxBars"));
    bars_ = new ClusterBars(g);
    g->layout()->addWidget(bars_);
    return g;
}

QWidget* ClusterView::buildSlowBox() {
    auto* g = box(tr("Slow ranks"), this);
    g->setObjectName(QStringLiteral("boxSlow"));
    auto* split = new QSplitter(Qt::Vertical, g);
    slowModel_ = new QStandardItemModel(this);
    slowView_ = makeTree(split, slowModel_);
    slowView_->setRootIsDecorated(false);
    evidence_ = new QTextBrowser(split);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    g->layout()->addWidget(split);
    connect(slowView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& i) {
                if (i.isValid()) selectRank(i.data(RankIndexRole).toInt());
                showEvidence();
            });
    connect(slowView_, &QTreeView::doubleClicked, this, [this](const QModelIndex& i) {
        if (i.isValid() && i.data(RankIndexRole).toInt() >= 0)
            emit rankActivated(i.data(RankIndexRole).toInt());
    });
    return g;
}

QWidget* ClusterView::buildCollectivesBox() {
    auto* g = box(tr("Collectives matched across ranks (latest arrival first)"), this);
    g->setObjectName(QStringLiteral("boxCollectives"));
    collModel_ = new QStandardItemModel(this);
    collView_ = makeTree(g, collModel_);
    collView_->setExpandsOnDoubleClick(false);
    g->layout()->addWidget(collView_);
    connect(collView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& i) {
                if (i.isValid() && i.data(RankIndexRole).toInt() >= 0)
                    selectRank(i.data(RankIndexRole).toInt());
            });
    connect(collView_, &QTreeView::doubleClicked, this, [this](const QModelIndex& i) {
        if (!i.isValid()) return;
        const QModelIndex first = i.siblingAtColumn(0);
        if (collModel_->hasChildren(first)) { // a collective: fold or unfold its ranks
            collView_->setExpanded(first, !collView_->isExpanded(first));
            return;
        }
        if (i.data(RankIndexRole).toInt() >= 0) emit rankActivated(i.data(RankIndexRole).toInt());
    });
    return g;
}

void ClusterView::analyse(const QString& path) {
    path_ = path;
    cluster_.reset();
    selected_ = -1;
    heatmap_->setCluster(nullptr);
    bars_->setCluster(nullptr);
    ranks_->setCluster(nullptr);
    slowModel_->clear();
    collModel_->clear();
    evidence_->clear();
    header_->clear();
    open_->setEnabled(false);
    compare_->setEnabled(false);
    status_->setText(tr("Looking for ranks in %1…").arg(path));
    progress_->setValue(0);
    progress_->setVisible(true);
    cancel_->setVisible(true);
    job_->start(path);
}

QString ClusterView::rankFolder(int rank) const {
    if (!cluster_ || rank < 0 || rank >= static_cast<int>(cluster_->ranks.size())) return {};
    return coreText(cluster_->ranks[static_cast<std::size_t>(rank)].folder);
}

bool ClusterView::hasRankFolder(const QString& folder) const {
    if (!cluster_) return false;
    for (const auto& r : cluster_->ranks)
        if (coreText(r.folder) == folder) return true;
    return false;
}

bool ClusterView::isSummaryFolder(const QString& path) {
    return !summaryFilesIn(path.toStdString()).empty();
}

void ClusterView::cancel() {
    job_->cancel();
}

void ClusterView::onFinished(const ClusterOutcome& outcome) {
    progress_->setVisible(false);
    cancel_->setVisible(false);
    if (outcome.cancelled) {
        status_->setText(tr("Cluster analysis cancelled."));
        emit analysisFinished(false);
        return;
    }
    if (!outcome.result) {
        status_->setText(outcome.rankLabels.size() < 2 ? tr("One rank: no cluster to compare.")
                                                       : outcome.error);
        emit analysisFinished(false);
        return;
    }
    cluster_ = outcome.result;
    showCluster();
    emit analysisFinished(true);
}

void ClusterView::showCluster() {
    const ClusterResult& c = *cluster_;
    // The heatmap opens on the lateness cost when a rank keeps others waiting, else on the service.
    metric_->setCurrentIndex(
        metric_->findData(static_cast<int>(anyCost(c) ? ClusterMetric::Cost : ClusterMetric::Service)));
    heatmap_->setCluster(cluster_);
    bars_->setCluster(cluster_);
    if (ranks_->timeline()->cluster() != cluster_)
        ranks_->setCluster(cluster_); // a language change keeps the view
    fillSlowRankModel(*slowModel_, c);
    fillCollectiveModel(*collModel_, c);
    for (int col = 0; col < slowModel_->columnCount(); ++col)
        slowView_->resizeColumnToContents(col);
    if (c.collectives.size() <= 8)
        collView_->expandAll();
    else if (collModel_->rowCount() > 0) // the largest wait: who arrived last, who waited
        collView_->expand(collModel_->index(0, 0));
    for (int col = 0; col < collModel_->columnCount(); ++col)
        collView_->resizeColumnToContents(col);

    std::size_t analysed = 0;
    for (const auto& r : c.ranks)
        analysed += r.error.empty() ? 1 : 0;
    status_->setText(tr("Ranks analysed: %1 of %2. Steps compared: %3. Collectives matched across ranks: %4.")
                         .arg(analysed)
                         .arg(c.ranks.size())
                         .arg(c.steps.size())
                         .arg(c.collectivesMatched));
    // The core's verdicts and findings, as written.
    QString h = QStringLiteral("<p><b>%1</b></p><ul>").arg(tr("Verdict"));
    for (const auto& v : clusterVerdicts(c))
        h += QStringLiteral("<li>%1</li>").arg(esc(v));
    h += QStringLiteral("</ul>");
    if (!c.findings.empty()) {
        h += QStringLiteral("<p><b>%1</b></p><ul>").arg(tr("Findings"));
        for (const auto& f : c.findings)
            h += QStringLiteral("<li><code>%1</code> (%2) — %3</li>")
                     .arg(esc(f.id), ClusterText::severityName(f.severity), esc(f.message));
        h += QStringLiteral("</ul>");
    }
    if (c.crossCheck.available)
        h += QStringLiteral("<p>%1</p>")
                 .arg(tr("%1: %2 figures compared with ours, %3 differ.")
                          .arg(esc(c.crossCheck.file))
                          .arg(c.crossCheck.compared)
                          .arg(c.crossCheck.mismatches));
    header_->setHtml(h);
    if (slowModel_->rowCount() > 0)
        slowView_->setCurrentIndex(slowModel_->index(0, 0));
    else
        showEvidence();
}

namespace {

QString msCell(TimeNs ns) {
    return QString::number(nsToMs(ns), 'f', 3);
}

QString signedMsCell(TimeNs ns) {
    return (ns > 0 ? QStringLiteral("+") : QString()) + msCell(ns);
}

} // namespace

void ClusterView::showEvidence() {
    const QModelIndex i = slowView_->currentIndex();
    if (!cluster_) return;
    const int k = i.isValid() ? i.data(SlowIndexRole).toInt() : -1;
    if (k < 0 || k >= static_cast<int>(cluster_->slowRanks.size())) {
        QString h;
        for (const auto& v : clusterVerdicts(*cluster_))
            h += QStringLiteral("<p>%1</p>").arg(esc(v));
        evidence_->setHtml(h);
        return;
    }
    const SlowRank& e = cluster_->slowRanks[static_cast<std::size_t>(k)];
    const SlowCause& cause = e.cause;
    QString h = QStringLiteral("<p><b>%1</b></p><p>%2</p>").arg(tr("Verdict"), esc(e.verdict));
    if (!cause.lead.empty()) {
        h += QStringLiteral("<p><b>%1</b></p>")
                 .arg(tr("Why it arrives %1 ms after the step's median rank").arg(msCell(cause.lateness)));
        const std::pair<QString, TimeNs> terms[] = {{tr("step start"), cause.stepStart},
                                                    {tr("prelaunch"), cause.prelaunch},
                                                    {tr("computing"), cause.computing},
                                                    {tr("idle"), cause.free},
                                                    {tr("exposed communication"), cause.commExposed},
                                                    {tr("rest"), cause.rest}};
        h += QStringLiteral("<table cellspacing=0 cellpadding=2>");
        const char* const leads[] = {"step_start", "prelaunch", "computing", "free", "comm_exposed"};
        std::size_t leadAt = 5; // unexplained: the rest
        for (std::size_t t = 0; t < std::size(leads); ++t)
            if (cause.lead == leads[t]) leadAt = t;
        for (std::size_t t = 0; t < std::size(terms); ++t) {
            const auto& [name, v] = terms[t];
            const bool lead = t == leadAt;
            h += QStringLiteral("<tr><td>%1</td><td align=right>%2 ms</td></tr>")
                     .arg(lead ? QStringLiteral("<b>%1</b>").arg(name.toHtmlEscaped()) : name.toHtmlEscaped(),
                          signedMsCell(v));
        }
        h += QStringLiteral("<tr><td><i>%1</i></td><td align=right><i>%2 ms</i></td></tr></table>")
                 .arg(tr("lateness (the sum)"), msCell(cause.lateness));
    }
    if (!cause.ops.empty()) {
        h += QStringLiteral("<p><b>%1</b></p><table cellspacing=0 cellpadding=2><tr><th align=left>%2</th>"
                            "<th align=right>%3</th><th align=right>%4</th></tr>")
                 .arg(tr("Ops that took longer"), tr("Op"), tr("Calls per step (median rank → this rank)"),
                      tr("Δ (ms)"));
        for (const auto& o : cause.ops)
            h += QStringLiteral(
                     "<tr><td><code>%1</code></td><td align=right>%2 → %3</td><td align=right>%4</td></tr>")
                     .arg(esc(o.name), QString::number(o.callsMedian, 'g', 4),
                          QString::number(o.callsRank, 'g', 4), signedMsCell(o.delta));
        h += QStringLiteral("</table>");
    }
    if (!cause.windows.empty()) {
        h +=
            QStringLiteral("<p><b>%1</b></p><table cellspacing=0 cellpadding=2><tr><th align=left>%2</th>"
                           "<th align=left>%3</th><th align=left>%4</th><th align=right>%5</th>"
                           "<th align=right>%6</th><th align=left>%7</th><th align=left>%8</th></tr>")
                .arg(tr("Windows the median rank lacks or has shorter"), tr("Step"), tr("Window"),
                     tr("Scope"), tr("Duration (ms)"), tr("Median rank (ms)"), tr("Labels"), tr("User line"));
        for (const auto& w : cause.windows) {
            QStringList labels;
            for (const auto& l : w.labels)
                labels << coreText(l);
            h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td align=right>%4</td>"
                                "<td align=right>%5</td><td>%6</td><td><code>%7</code></td></tr>")
                     .arg(QString::number(w.step), esc(w.id), esc(w.scope), msCell(w.dur),
                          w.medianDur >= 0 ? msCell(w.medianDur) : tr("none"),
                          labels.join(QStringLiteral(", ")).toHtmlEscaped(), esc(w.userLine));
        }
        h += QStringLiteral("</table>");
    }
    evidence_->setHtml(h);
}

void ClusterView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() != QEvent::LanguageChange) return;
    cancel_->setText(tr("Cancel"));
    open_->setText(tr("Open rank timeline"));
    open_->setToolTip(tr("Opens the selected rank in the timeline (or double-click a rank)."));
    compare_->setText(tr("Compare with the median rank"));
    compare_->setToolTip(tr("Shows the selected rank's step metrics beside the cluster median."));
    tabs_->setTabText(0, tr("Overview"));
    tabs_->setTabText(1, tr("Ranks"));
    const std::pair<const char*, QString> titles[] = {
        {"boxHeatmap", tr("Rank × step")},
        {"boxBars", tr("Per rank: where the step time goes")},
        {"boxSlow", tr("Slow ranks")},
        {"boxCollectives", tr("Collectives matched across ranks (latest arrival first)")}};
    for (const auto& [name, title] : titles)
        if (auto* g = findChild<QGroupBox*>(QLatin1String(name))) g->setTitle(title);
    if (auto* l = findChild<QLabel*>(QStringLiteral("metricLabel"))) l->setText(tr("Metric:"));
    for (int i = 0; i < metric_->count(); ++i)
        metric_->setItemText(i, ClusterText::metricName(static_cast<ClusterMetric>(metric_->itemData(i).toInt())));
    metricHelp_->setText(ClusterText::metricHelp(static_cast<ClusterMetric>(metric_->currentData().toInt())));
    // The results in the new language, the chosen metric and rank kept.
    if (cluster_ && !job_->isRunning()) {
        const int metric = metric_->currentIndex(), rank = selected_;
        showCluster();
        metric_->setCurrentIndex(metric);
        selectRank(rank);
    }
}

void ClusterView::selectRank(int rank) {
    if (!cluster_ || rank < 0 || rank >= static_cast<int>(cluster_->ranks.size())) return;
    selected_ = rank;
    heatmap_->setSelectedRank(rank);
    bars_->setSelectedRank(rank);
    ranks_->timeline()->setSelectedRank(rank);
    const QString name = ClusterText::rankName(cluster_->ranks[static_cast<std::size_t>(rank)]);
    open_->setText(tr("Open %1's timeline").arg(name));
    open_->setEnabled(true);
    compare_->setText(tr("Compare %1 with the median rank").arg(name));
    compare_->setEnabled(true);
}

QDialog* ClusterView::compareWithMedian(int rank) {
    if (!cluster_ || rank < 0 || rank >= static_cast<int>(cluster_->ranks.size())) return nullptr;
    const RankSummary& r = cluster_->ranks[static_cast<std::size_t>(rank)];
    auto* dlg = new QDialog(this);
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    dlg->setObjectName(QStringLiteral("compareWithMedian"));
    dlg->setWindowTitle(tr("%1 beside the cluster median").arg(ClusterText::rankName(r)));
    auto* l = new QVBoxLayout(dlg);
    auto* note = new QLabel(tr("%1: each step's figures beside the median over the analysed ranks, and the "
                               "median rank's own (the rank whose total service is the median).")
                                .arg(ClusterText::rankFullName(r)),
                            dlg);
    note->setWordWrap(true);
    l->addWidget(note);
    auto* model = new QStandardItemModel(dlg);
    fillCompareModel(*model, *cluster_, rank);
    auto* table = new QTableView(dlg);
    table->setModel(model);
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    l->addWidget(table, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dlg);
    connect(buttons, &QDialogButtonBox::rejected, dlg, &QDialog::close);
    l->addWidget(buttons);
    int w = 40;
    for (int col = 0; col < model->columnCount(); ++col)
        w += table->columnWidth(col);
    dlg->resize(std::max(w, 560),
                120 + std::min(model->rowCount(), 24) * table->verticalHeader()->defaultSectionSize());
    dlg->show();
    return dlg;
}

} // namespace bs::ui
