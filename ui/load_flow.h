#pragma once
// The window's state has one owner (STYLE 18): the rank loaded, and what every panel shows of it. A load
// runs in a LoadJob; when its first results arrive (the analysis, before the text report), when it fails,
// or when it is cancelled half shown, reset() empties every panel in one place before anything new is
// shown — so no panel keeps a selection, a filter, a detail, a count or a title of the previous profile
// (hotspot's ResultsPage::clear()). The panels are then filled from the result one per turn of the event
// loop; a language switch fills them again from the same result, keeping what the user chose in it.
#include <QObject>
#include <QString>

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QMainWindow;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTableView;
class QTextBrowser;
class QTreeView;
class QWidget;

namespace bs {
struct Profile;
struct AnalysisResult;
} // namespace bs

namespace bs::ui {

class BubbleTableModel;
class ChartsPanel;
class FindBar;
class HealthPanel;
class InspectorPanel;
class LayerTreeModel;
class LoadJob;
class OpsPanel;
class RangeStats;
class SummaryPanel;
class TimelineWidget;
struct LayerTree;
struct LoadOutcome;
struct LoadedRank;
struct TimelineData;

// The widgets whose content is a function of the loaded result. The window makes and lays them out.
struct WindowPanels {
    QMainWindow* window = nullptr; // its title
    QLabel* sampleBanner = nullptr;
    QLabel* rankLabel = nullptr;
    QComboBox* rankPicker = nullptr;
    QLabel* status = nullptr;
    QProgressBar* progress = nullptr;
    QPushButton* cancel = nullptr;
    TimelineWidget* timeline = nullptr;
    FindBar* findBar = nullptr;
    QTabWidget* tabs = nullptr; // Summary, Bubbles, Layers, Ops, Charts, Health, Text report
    SummaryPanel* summary = nullptr;
    QWidget* bubblesPage = nullptr; // the Bubbles tab: the table and the inspector
    QTableView* bubbleTable = nullptr;
    BubbleTableModel* bubbleModel = nullptr;
    InspectorPanel* inspector = nullptr;
    QTreeView* layerTree = nullptr;
    LayerTreeModel* layerModel = nullptr;
    OpsPanel* ops = nullptr;
    ChartsPanel* charts = nullptr;
    HealthPanel* health = nullptr;
    QTextBrowser* report = nullptr;
    QTabWidget* views = nullptr; // Cluster | Rank timeline | Compare
    QWidget* compare = nullptr;  // the Compare tab, whose base is the loaded rank
};

class LoadFlow : public QObject {
    Q_OBJECT
  public:
    LoadFlow(const WindowPanels& panels, QObject* parent);
    ~LoadFlow() override;

    // Loads rank `rankIndex` of `path` (`sample`: the embedded sample). What is shown stays until the new
    // result (or the failure) arrives; a load started meanwhile replaces this one.
    void start(const QString& path, int rankIndex, bool sample);
    void cancel();
    bool isRunning() const;
    // Every panel again from the same result in the language now in effect; the timeline's view, the
    // bubble row, what the inspector shows and the timeline's selection that goes with it are kept.
    void retranslate();

    bool hasResults() const { return profile_ && analysis_; }
    const std::shared_ptr<const Profile>& profile() const { return profile_; }
    const std::shared_ptr<const AnalysisResult>& analysis() const { return analysis_; }
    QString path() const { return path_; } // of the last load that ended, loaded or failed
    QString rankLabel() const { return rankLabel_; }
    QString rankFolder() const { return rankFolder_; }
    QString reportText() const { return reportText_; }
    bool isSample() const { return sample_; }

  signals:
    // A load ended: every panel filled from its result (true), or it failed or was cancelled (false).
    void finished(bool ok);

  private:
    void onProgress(const QString& stage, int permille);
    void onAnalysed(const LoadOutcome& partial);
    void onFinished(const LoadOutcome& outcome);
    void reset(); // the one place: nothing shown, nothing held
    void adopt(const LoadedRank& rank, const QStringList& rankLabels); // the result's own state
    void showFailure(const QString& error, const QStringList& rankLabels);
    void showRanks(const QStringList& labels, const QString& current);
    void showTitles(); // the window's title, the Bubbles and Health tabs' counts
    void showTimeline(std::unique_ptr<TimelineData> built);
    void clearFind();
    void hideCompare();
    // The panels from profile_ / analysis_. `built` / `layers`: the timeline's tracks and the Layers rows
    // when the job built them (else built here); `timelineShown`: the timeline and the bubbles are shown
    // already. With `then`: one panel per turn of the event loop, then `then` (unless another result
    // arrives first); without: all at once.
    void fill(std::unique_ptr<TimelineData> built, std::shared_ptr<const LayerTree> layers,
              bool timelineShown, std::function<void()> then);
    void runStages(std::shared_ptr<std::vector<std::function<void()>>> stages, std::size_t next,
                   quint64 generation);
    bool loadSpeaksCurrentLanguage() const;

    WindowPanels p_;
    LoadJob* job_;
    std::shared_ptr<const Profile> profile_;
    std::shared_ptr<const AnalysisResult> analysis_;
    std::shared_ptr<const RangeStats> rangeStats_;
    QString path_, rankLabel_, rankFolder_, reportText_;
    bool sample_ = false;
    bool complete_ = false; // every panel filled (not between the first results and the rest)
    bool failed_ = false;   // the last load that ended failed
    // The load running: what it was asked, and the language its texts are rendered in.
    QString pendingPath_;
    bool pendingSample_ = false;
    int pendingRank_ = 0;
    int loadLanguage_ = -1;
    quint64 fillGeneration_ = 0;                    // a staged fill stops when another result arrives
    std::function<void()> whenFilled_;              // what the staged fill running does at its end
    const AnalysisResult* timelineShows_ = nullptr; // the analysis the timeline was given (identity only)
};

} // namespace bs::ui
