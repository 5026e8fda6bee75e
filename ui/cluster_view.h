#pragma once
// The Cluster view, shown first when a folder holds several ranks: the rank × step heatmap with its
// metric picker, per-rank stacked bars, the slow-rank list with the core's evidence, the collectives
// matched across ranks. Double-click a rank anywhere to open its timeline; "Compare with the median
// rank" puts a rank's step metrics beside the cluster median. The Ranks tab shows every rank on one
// timeline (ranks_tab.h). The analysis runs in a ClusterJob.
#include <QWidget>

#include <memory>

class QComboBox;
class QDialog;
class QLabel;
class QProgressBar;
class QPushButton;
class QStandardItemModel;
class QTabWidget;
class QTextBrowser;
class QTreeView;

namespace bs {
struct ClusterResult;
} // namespace bs

namespace bs::ui {

class ClusterBars;
class ClusterHeatmap;
class ClusterJob;
class RanksTab;
struct ClusterOutcome;

class ClusterView : public QWidget {
    Q_OBJECT
  public:
    explicit ClusterView(QWidget* parent = nullptr);
    ~ClusterView() override;
    // Starts the analysis of `path` (the job finds out whether it holds several ranks).
    void analyse(const QString& path);
    void cancel();
    QString path() const { return path_; }
    std::shared_ptr<const ClusterResult> cluster() const { return cluster_; }
    // The folder of a rank of the cluster shown (as its summary records it), to open its timeline.
    QString rankFolder(int rank) const;
    bool hasRankFolder(const QString& folder) const; // a rank of the cluster shown lives there
    // Whether `path` is a folder of rank summaries (shown from them, no rank loaded).
    static bool isSummaryFolder(const QString& path);
    int selectedRank() const { return selected_; }
    void selectRank(int rank);
    // Opens the comparison of `rank` with the cluster median (non-modal); returns the dialog.
    QDialog* compareWithMedian(int rank);

    // For tests and the screenshot tool.
    ClusterHeatmap* heatmap() const { return heatmap_; }
    ClusterBars* bars() const { return bars_; }
    QComboBox* metricPicker() const { return metric_; }
    QTreeView* slowRankList() const { return slowView_; }
    QTreeView* collectiveTable() const { return collView_; }
    QTextBrowser* summary() const { return header_; }
    QTextBrowser* evidencePane() const { return evidence_; }
    QTabWidget* tabs() const { return tabs_; } // Overview, Ranks
    RanksTab* ranksTab() const { return ranks_; }
    // Ctrl+F while the Ranks tab shows: its find field (true); false when another tab shows.
    bool activateFind();

  signals:
    // The job discovered the folder's ranks (several: the window shows this view).
    void ranksFound(const QStringList& labels);
    void analysisFinished(bool ok);
    void rankActivated(int rank); // index into the core's rank list (the rank picker's order)
    // Sent just before rankActivated from the Ranks tab: the rank's timeline should show [start, end) of
    // its own clock.
    void rankViewRequested(int rank, qint64 start, qint64 end);

  protected:
    void changeEvent(QEvent* e) override; // LanguageChange: texts and results again

  private:
    QWidget* buildHeatmapBox();
    QWidget* buildBarsBox();
    QWidget* buildSlowBox();
    QWidget* buildCollectivesBox();
    QWidget* buildOverview();
    void onFinished(const ClusterOutcome& outcome);
    void showCluster();
    void showEvidence();

    ClusterJob* job_;
    QString path_;
    std::shared_ptr<const ClusterResult> cluster_;
    int selected_ = -1;
    QTextBrowser* header_;
    QLabel* status_;
    QProgressBar* progress_;
    QPushButton* cancel_;
    QPushButton* open_;
    QPushButton* compare_;
    QComboBox* metric_;
    QLabel* metricHelp_;
    ClusterHeatmap* heatmap_;
    ClusterBars* bars_;
    QTreeView* slowView_;
    QStandardItemModel* slowModel_;
    QTextBrowser* evidence_;
    QTreeView* collView_;
    QStandardItemModel* collModel_;
    QTabWidget* tabs_;
    RanksTab* ranks_;
};

} // namespace bs::ui
