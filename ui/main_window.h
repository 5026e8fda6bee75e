#pragma once
#include <QMainWindow>

#include <functional>
#include <memory>
#include <vector>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QTextBrowser;
class QTreeView;
class QUrl;

namespace bs {
struct Profile;
struct AnalysisResult;
struct BubbleWindow;
} // namespace bs

namespace bs::ui {

class LoadJob;
struct LoadOutcome;
class TimelineWidget;
class ClusterView;
class ChartsPanel;
class FindBar;
class SummaryPanel;
class CompareView;
class BubbleTableModel;
class OpsPanel;
class HealthPanel;
struct TimelineData;
struct LayerTree;
class LayerTreeModel;
class RangeStats;

// The application window: timeline on top, panels below (summary, bubbles, layers, ops, charts,
// health, text report), exports in File ▸ Export. Loading runs in a LoadJob off the GUI thread.
class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;
    void openPath(const QString& path, int rankIndex = 0);
    void openSample(const QString& path);
    void showMessage(const QString& text);
    bool isShowingSample() const;
    QString reportText() const;

    // For tests and the screenshot tool.
    TimelineWidget* timeline() const { return timeline_; }
    QTableView* bubbleTable() const { return bubbleTable_; }
    QTabWidget* tabs() const { return tabs_; }
    QTabWidget* views() const { return views_; } // Cluster | Rank timeline
    ClusterView* clusterView() const { return clusterView_; }
    CompareView* compareView() const { return compareView_; }
    // Compares the open rank (base) with the profile at `path` (new) in the Compare tab.
    void compareWith(const QString& path);
    QTextBrowser* summary() const; // the Summary panel
    QTextBrowser* health() const;
    QTextBrowser* bubbleDetail() const { return bubbleDetail_; }
    QTextBrowser* stackPane() const { return stackPane_; } // the clicked user line's events and stack
    FindBar* findBar() const { return findBar_; }
    ChartsPanel* charts() const { return chartsTab_; }
    // Writes the chosen export to `path` (atomically); returns an empty string or the error.
    enum class Export { AnomalyJson, AnomalyReport, ArchitectureReport };
    QString exportTo(Export kind, const QString& path) const;
    QString defaultExportName(Export kind) const;
    // The timeline as shown, to PNG or SVG by the file's extension; the anomaly report with a picture of
    // each top bubble (DIR/<report>.md and DIR/bubbles/<id>.png). Empty string or the error.
    QString exportTimelineImage(const QString& path) const;
    QString exportReportWithPictures(const QString& dir) const;

  signals:
    void loadFinished(bool ok);

  protected:
    void changeEvent(QEvent* e) override; // LanguageChange: retranslateUi
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

  private:
    void buildMenus();
    void retranslateUi();
    void onOpenFolder();
    void updateViewTabs(); // the tab bar shows when Cluster or Compare is there
    void onAnalysed(const LoadOutcome& partial); // the timeline first, while the job writes the rest
    void onFinished(const LoadOutcome& outcome);
    // Fills the timeline and the panels from profile_ / analysis_; `built` / `layers`: the timeline's
    // tracks and the Layers tree's rows when the load job built them already (else they are built here).
    // `timelineShown`: the timeline shows profile_ / analysis_ already (onAnalysed), left as it is.
    // With `then`: the panels are filled one per turn of the event loop (none blocks it long), then `then`
    // runs — unless another load's results arrive first (fillGeneration_). Without: all at once.
    void showResults(std::unique_ptr<TimelineData> built = nullptr, std::shared_ptr<const LayerTree> layers = nullptr,
                     bool timelineShown = false, std::function<void()> then = {});
    void runStages(std::shared_ptr<std::vector<std::function<void()>>> stages, std::size_t next, quint64 generation);
    void onBubbleRowChanged();
    void onUserLineClicked(const QUrl& link); // "line:N": highlight its host events, show its stack
    void onExport(Export kind);
    void onExportAll();
    void updateRecentMenu();
    void addRecent(const QString& path);
    void showKernel(int kernelIndex);
    void showHostEvent(int index); // a clicked host op: thread, depth, category, times, call stack
    void onSearch(const QString& text);       // the find bar's text: matches on the timeline
    void showOpInstances(const QString& name); // an op's kernels as the matches
    void showRange(qint64 start, qint64 end);

    LoadJob* job_;
    std::shared_ptr<const Profile> profile_;
    std::shared_ptr<const AnalysisResult> analysis_;
    std::shared_ptr<const RangeStats> rangeStats_; // prefix sums for the range statistics of profile_
    // Between onAnalysed and onFinished: the results the panels still show (they point into them).
    std::shared_ptr<const Profile> shownProfile_;
    std::shared_ptr<const AnalysisResult> shownAnalysis_;
    quint64 fillGeneration_ = 0; // a staged showResults stops when another load's results arrive
    const AnalysisResult* timelineShows_ = nullptr; // the analysis the timeline was given (identity only)
    int loadLanguage_ = -1;                        // the language the running load renders in
    TimelineWidget* timeline_;
    QTabWidget* tabs_;
    QTabWidget* views_;
    ClusterView* clusterView_;
    CompareView* compareView_;
    bool severalRanks_ = false;
    SummaryPanel* summary_;
    FindBar* findBar_;
    QTableView* bubbleTable_;
    BubbleTableModel* bubbleModel_;
    QTextBrowser* bubbleDetail_;
    QTextBrowser* stackPane_; // under the inspector, shown while a user line is chosen
    int userLine_ = -1, userLineRow_ = -1; // the user line clicked in the inspector, and its window row
    QTreeView* layerTree_;
    LayerTreeModel* layerModel_;
    OpsPanel* ops_;
    ChartsPanel* chartsTab_;
    HealthPanel* health_;
    QTextBrowser* report_;
    QLabel* sampleBanner_;
    QLabel* rankLabel_;
    QComboBox* rankPicker_;
    QProgressBar* progress_;
    QPushButton* cancel_;
    QLabel* status_;
    QMenu* recentMenu_;
    QMenu* exportMenu_;
    QString currentPath_;
    QString currentRankLabel_, currentRankFolder_;
    QAction* compareAction_ = nullptr;
    QString reportText_;
    bool retranslatePending_ = false;
};

} // namespace bs::ui
