#include "load_flow.h"

#include "pipeline/analysis_run.h"
#include "i18n/message.h"
#include "language.h"
#include "layer_tree_model.h"
#include "load_job.h"
#include "model/profile.h"
#include "panel_models.h"
#include "panels/charts_panel.h"
#include "panels/find_bar.h"
#include "panels/health_panel.h"
#include "panels/inspector_panel.h"
#include "panels/ops_panel.h"
#include "panels/summary_panel.h"
#include "report/text_report.h"
#include "timeline_data.h"
#include "timeline_widget.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeView>

#include <utility>

namespace bs::ui {

namespace {

// The window's own words (its title, status line and tab counts), translated as the window's.
struct W {
    Q_DECLARE_TR_FUNCTIONS(bs::ui::MainWindow)
};

} // namespace

LoadFlow::LoadFlow(const WindowPanels& panels, QObject* parent)
    : QObject(parent), p_(panels), job_(new LoadJob(this)) {
    connect(job_, &LoadJob::progress, this, &LoadFlow::onProgress);
    connect(job_, &LoadJob::analysed, this, &LoadFlow::onAnalysed);
    connect(job_, &LoadJob::finished, this, &LoadFlow::onFinished);
}

LoadFlow::~LoadFlow() = default;

void LoadFlow::start(const QString& path, int rankIndex, bool sample) {
    pendingPath_ = path;
    pendingRank_ = rankIndex;
    pendingSample_ = sample;
    loadLanguage_ = static_cast<int>(currentLanguage());
    p_.status->setText(W::tr("Loading %1…").arg(path));
    p_.progress->setValue(0);
    p_.progress->setVisible(true);
    p_.cancel->setVisible(true);
    job_->start(path, rankIndex);
}

void LoadFlow::cancel() {
    job_->cancel();
}

bool LoadFlow::isRunning() const {
    return job_->isRunning();
}

bool LoadFlow::loadSpeaksCurrentLanguage() const {
    return loadLanguage_ == static_cast<int>(currentLanguage());
}

void LoadFlow::onProgress(const QString& stage, int permille) {
    // The core's reading stages, then the job's own phases after the last byte is read.
    if (stage == QLatin1String("analysing"))
        p_.status->setText(W::tr("Analysing…"));
    else if (stage == QLatin1String("report"))
        p_.status->setText(W::tr("Writing the text report…"));
    else
        p_.status->setText(W::tr("Loading %1…").arg(stage));
    p_.progress->setValue(permille);
}

void LoadFlow::onAnalysed(const LoadOutcome& partial) {
    // The timeline's tracks are named in the job's language: a language changed meanwhile waits for
    // onFinished (which builds them again).
    if (!partial.rank || !partial.rank->timeline || !loadSpeaksCurrentLanguage()) return;
    reset();
    adopt(*partial.rank, partial.rankLabels);
    auto built = std::make_unique<TimelineData>(std::move(*partial.rank->timeline));
    partial.rank->timeline.reset();
    showTimeline(std::move(built));
}

void LoadFlow::onFinished(const LoadOutcome& outcome) {
    p_.progress->setVisible(false);
    p_.cancel->setVisible(false);
    if (outcome.cancelled) {
        // Cancelled before its results arrived: what was shown stays. After (another load's first results
        // are shown and its rest never comes): nothing half shown stays.
        if (!complete_) reset();
        p_.status->setText(W::tr("Loading cancelled."));
        emit finished(false);
        return;
    }
    if (!outcome.error.isEmpty()) {
        reset();
        showFailure(outcome.error, outcome.rankLabels);
        emit finished(false);
        return;
    }
    LoadedRank& rank = *outcome.rank;
    // The timeline shows this result already when onAnalysed took its tracks.
    const bool timelineShown = timelineShows_ && timelineShows_ == rank.analysis.get();
    if (!timelineShown) {
        reset();
        adopt(rank, outcome.rankLabels);
    }
    // Built by the job in its language: built again here when the language changed meanwhile.
    std::unique_ptr<TimelineData> built;
    if (rank.timeline && loadSpeaksCurrentLanguage())
        built = std::make_unique<TimelineData>(std::move(*rank.timeline));
    rank.timeline.reset();
    std::shared_ptr<const LayerTree> layers = std::exchange(rank.layers, nullptr);
    if (!loadSpeaksCurrentLanguage()) layers.reset();
    reportText_ = rank.text;
    if (!loadSpeaksCurrentLanguage()) {
        const ScopedLanguage language(currentLanguage());
        reportText_ = QString::fromStdString(renderTextReport(*profile_, *analysis_));
    }
    fill(std::move(built), std::move(layers), timelineShown, [this] {
        complete_ = true;
        p_.status->setText(W::tr("Loaded %1").arg(path_));
        emit finished(true);
    });
}

void LoadFlow::reset() {
    ++fillGeneration_; // a fill of the previous result still running stops
    whenFilled_ = {};
    profile_.reset();
    analysis_.reset();
    rangeStats_.reset();
    timelineShows_ = nullptr;
    rankLabel_.clear();
    rankFolder_.clear();
    reportText_.clear();
    sample_ = complete_ = failed_ = false;
    p_.sampleBanner->setVisible(false);
    showRanks({}, {});
    p_.timeline->clear();
    p_.timeline->selectBubble(-1);
    p_.timeline->markRange(0, 0);
    clearFind();
    p_.bubbleModel->setAnalysis(nullptr, nullptr);
    p_.inspector->clear();
    p_.layerModel->setTree(nullptr, nullptr);
    p_.ops->clear();
    p_.charts->clear();
    p_.health->clear();
    p_.summary->showMessage(QString());
    p_.report->clear();
    hideCompare();
    showTitles();
}

void LoadFlow::adopt(const LoadedRank& rank, const QStringList& rankLabels) {
    profile_ = rank.profile;
    analysis_ = rank.analysis;
    rangeStats_ = rank.rangeStats;
    path_ = pendingPath_;
    rankLabel_ = rank.label;
    rankFolder_ = rank.folder;
    sample_ = pendingSample_;
    p_.sampleBanner->setVisible(sample_);
    showRanks(rankLabels, rank.label);
    showTitles();
}

void LoadFlow::showFailure(const QString& error, const QStringList& rankLabels) {
    failed_ = true;
    path_ = pendingPath_;
    reportText_ = error;
    p_.summary->showMessage(error);
    p_.report->setPlainText(error);
    p_.tabs->setCurrentWidget(p_.summary);
    // The folder's other ranks stay reachable when one of them fails.
    showRanks(rankLabels, rankLabels.value(pendingRank_));
    p_.status->setText(W::tr("Nothing loaded."));
}

void LoadFlow::showRanks(const QStringList& labels, const QString& current) {
    const bool several = labels.size() > 1;
    const QSignalBlocker quiet(p_.rankPicker); // not a request to open a rank
    p_.rankPicker->clear();
    if (several) {
        p_.rankPicker->addItems(labels);
        p_.rankPicker->setCurrentText(current);
    }
    p_.rankPicker->setVisible(several);
    p_.rankLabel->setVisible(several);
}

void LoadFlow::showTitles() {
    if (!profile_)
        p_.window->setWindowTitle(W::tr("BubbleScope"));
    else
        p_.window->setWindowTitle(sample_ ? W::tr("Sample profile — BubbleScope")
                                          : W::tr("%1 — BubbleScope").arg(rankLabel_));
    QTabWidget* t = p_.tabs;
    t->setTabText(t->indexOf(p_.bubblesPage),
                  analysis_ ? W::tr("Bubbles (%1)").arg(analysis_->anomaly.windows.size())
                            : W::tr("Bubbles"));
    t->setTabText(t->indexOf(p_.health), analysis_ ? HealthPanel::title(*analysis_) : W::tr("Health"));
}

void LoadFlow::showTimeline(std::unique_ptr<TimelineData> built) {
    p_.timeline->setModel(profile_, analysis_, std::move(built)); // null: built here
    timelineShows_ = analysis_.get();
    // What the timeline selects (bubbles by row) and the inspector shows are this result's too.
    p_.bubbleModel->setAnalysis(profile_, analysis_);
    p_.bubbleTable->resizeColumnsToContents();
    p_.inspector->setResults(profile_, analysis_, rangeStats_);
}

void LoadFlow::clearFind() {
    FindBar* bar = p_.findBar;
    {
        const QSignalBlocker quiet(bar->edit()); // no search of the new result for the old text
        bar->edit()->clear();
    }
    bar->setResults(0, 0, 0, {});
    bar->setMatchList(0, {});
    bar->hide();
}

void LoadFlow::hideCompare() {
    QTabWidget* v = p_.views;
    const int compare = v->indexOf(p_.compare);
    if (!v->isTabVisible(compare)) return;
    const int rankPage = v->indexOf(p_.tabs->parentWidget());
    if (v->currentIndex() == compare) v->setCurrentIndex(rankPage);
    v->setTabVisible(compare, false);
    bool others = false; // the bar shows while there is a tab beside the rank's
    for (int i = 0; i < v->count(); ++i)
        others = others || (i != rankPage && v->isTabVisible(i));
    v->tabBar()->setVisible(others);
}

void LoadFlow::fill(std::unique_ptr<TimelineData> built, std::shared_ptr<const LayerTree> layers,
                    bool timelineShown, std::function<void()> then) {
    if (!built && !timelineShown) {
        p_.status->setText(W::tr("Building the timeline…"));
        p_.status->repaint(); // shown before the timeline is built on this thread
    }
    // Each stage reads profile_ / analysis_ when it runs (a staged fill stops when they change).
    auto stages = std::make_shared<std::vector<std::function<void()>>>();
    if (!timelineShown) {
        auto tracks = std::make_shared<std::unique_ptr<TimelineData>>(std::move(built));
        stages->push_back([this, tracks] { showTimeline(std::move(*tracks)); });
    }
    stages->push_back([this, layers = std::move(layers)]() mutable {
        p_.ops->setAnalysis(analysis_, profile_.get());
        if (layers)
            p_.layerModel->setTree(profile_, std::move(layers));
        else
            p_.layerModel->setAnalysis(profile_, *analysis_);
    });
    // A turn of its own. The first level is expanded while it shows at most kExpandedLayerRows rows under
    // it: every pass of a usual capture, the first passes of a long one (at 1 GB of trace, 891 passes
    // expanded laid out ~5 x 10^4 rows nobody scrolls through, in 24-29 ms, the longest stage of the load).
    stages->push_back([this] {
        constexpr int kExpandedLayerRows = 5000;
        int shown = 0;
        for (int row = 0; row < p_.layerModel->rowCount(); ++row) {
            const QModelIndex pass = p_.layerModel->index(row, 0);
            shown += p_.layerModel->rowCount(pass);
            if (row > 0 && shown > kExpandedLayerRows) break;
            p_.layerTree->expand(pass);
        }
        p_.layerTree->resizeColumnToContents(0);
    });
    stages->push_back([this] { p_.report->setPlainText(reportText_); });
    stages->push_back([this] { p_.summary->setResults(*profile_, *analysis_); });
    stages->push_back([this] { p_.health->setResults(*analysis_); });
    stages->push_back([this] { p_.charts->setResults(*analysis_); });
    if (!then) {
        for (auto& stage : *stages)
            stage();
        return;
    }
    whenFilled_ = std::move(then);
    stages->push_back([this] { std::exchange(whenFilled_, {})(); });
    runStages(stages, 0, fillGeneration_);
}

void LoadFlow::runStages(std::shared_ptr<std::vector<std::function<void()>>> stages, std::size_t next,
                         quint64 generation) {
    if (generation != fillGeneration_ || next >= stages->size()) return;
    (*stages)[next]();
    if (next + 1 < stages->size())
        QTimer::singleShot(0, this,
                           [this, stages, next, generation] { runStages(stages, next + 1, generation); });
}

void LoadFlow::retranslate() {
    showTitles();
    if (!hasResults()) {
        if (!job_->isRunning()) p_.status->setText(failed_ ? W::tr("Nothing loaded.") : W::tr("Ready"));
        return;
    }
    {
        const ScopedLanguage language(currentLanguage());
        reportText_ = QString::fromStdString(renderTextReport(*profile_, *analysis_));
    }
    const TimeNs viewStart = p_.timeline->viewStart(), viewEnd = p_.timeline->viewEnd();
    const int row = p_.bubbleTable->currentIndex().row();
    const InspectorPanel::Subject shown = p_.inspector->subject();
    // A staged fill still running is finished here, at once, in the new language.
    ++fillGeneration_;
    fill(nullptr, nullptr, false, {});
    if (row >= 0) p_.bubbleTable->selectRow(row); // the window shows that bubble
    if (shown.kind != InspectorPanel::Subject::Kind::Nothing) p_.inspector->show(shown); // what it showed
    using Kind = InspectorPanel::Subject::Kind;
    const InspectorPanel::Subject& now = p_.inspector->subject();
    if (now.kind == Kind::Bubble && now.userLine >= 0)
        p_.timeline->setHighlightedHostEvents(analysis_->anomaly.windows[static_cast<std::size_t>(now.index)]
                                                  .stacks.userFrames[static_cast<std::size_t>(now.userLine)]
                                                  .eventIndices);
    else if (now.kind == Kind::Kernel)
        p_.timeline->setSelectedKernel(now.index);
    else if (now.kind == Kind::HostEvent)
        p_.timeline->setSelectedHostEvent(now.index);
    else if (now.kind == Kind::Range)
        p_.timeline->markRange(now.start, now.end);
    p_.timeline->setView(viewStart, viewEnd);
    if (whenFilled_)
        std::exchange(whenFilled_, {})();
    else if (complete_)
        p_.status->setText(W::tr("Loaded %1").arg(path_));
}

} // namespace bs::ui
