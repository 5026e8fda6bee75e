#pragma once
#include <QMainWindow>

class QAction;
class QComboBox;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTableView;
class QTextBrowser;
class QTreeView;

namespace bs::ui {

class LoadFlow;
class TimelineWidget;
class ClusterView;
class ChartsPanel;
class FindBar;
class SummaryPanel;
class CompareView;
class BubbleTableModel;
class InspectorPanel;
class OpsPanel;
class HealthPanel;
class LayerTreeModel;

// The application window: timeline on top, panels below (summary, bubbles, layers, ops, charts,
// health, text report), exports in File ▸ Export. It makes the widgets and wires them; what they show of
// the loaded rank — and the load itself — is LoadFlow's.
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
    QTextBrowser* bubbleDetail() const;
    QTextBrowser* stackPane() const; // the clicked user line's events and stack
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
    void buildPanels(QWidget* central);
    void connectPanels();
    void connectLoading();
    void connectSelection();
    void connectFind();
    void connectLinks();
    void buildMenus();
    void retranslateUi();
    void open(const QString& path, int rankIndex, bool sample);
    void onOpenFolder();
    void onLoadFinished(bool ok);
    void updateViewTabs(); // the tab bar shows when Cluster or Compare is there
    // A bubble chosen (a table row, on the timeline, a Summary link): the timeline and the inspector show
    // it; `moveTimeline`: onto it even when it is the bubble selected already.
    void showBubble(int row, bool moveTimeline);
    void onExport(Export kind);
    void onExportAll();
    void updateRecentMenu();
    void addRecent(const QString& path);
    void showKernel(int kernelIndex);
    void showHostEvent(int index); // a clicked host op: thread, depth, category, times, call stack
    void onSearch(const QString& text);       // the find bar's text: matches on the timeline
    void fillMatchList();                     // the find bar's results list from the timeline's matches
    void showOpInstances(const QString& name); // an op's kernels as the matches
    void showRange(qint64 start, qint64 end);

    TimelineWidget* timeline_;
    QTabWidget* tabs_;
    QTabWidget* views_;
    QWidget* rankPage_; // the rank's timeline and panels, in views_
    ClusterView* clusterView_;
    CompareView* compareView_;
    bool severalRanks_ = false;
    SummaryPanel* summary_;
    FindBar* findBar_;
    QTableView* bubbleTable_;
    BubbleTableModel* bubbleModel_;
    InspectorPanel* inspector_;
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
    QMenu* recentMenu_ = nullptr;
    QMenu* exportMenu_ = nullptr;
    QAction* compareAction_ = nullptr;
    LoadFlow* flow_ = nullptr; // the loaded rank and what every panel shows of it
    bool retranslatePending_ = false;
};

} // namespace bs::ui
