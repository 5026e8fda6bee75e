#pragma once
// The Compare tab: the rank open in the window (base) against another profile (new), before / after a
// change. Scope warnings and the verdict on top; the step metrics, the op diff (sortable, filterable) and
// the fate of every bubble in tabs; selecting a bubble shows both timelines stacked, base above new,
// aligned at the start of the window's step, the window selected in both. The comparison itself is the
// core's (core/compare); the new profile is loaded and analysed off the GUI thread.
#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;
class QTableWidget;
class QTabWidget;
class QTextBrowser;

namespace bs {
struct Profile;
struct AnalysisResult;
struct Comparison;
} // namespace bs

namespace bs::ui {

class TimelineWidget;
struct CompareOutcome;

class CompareView : public QWidget {
    Q_OBJECT
  public:
    explicit CompareView(QWidget* parent = nullptr);
    ~CompareView() override;
    // Compares the analysed `base` with the profile at `newPath` (a rank folder, a file inside one, or a
    // parent: then the rank with the base's label, else the first rank).
    void compare(std::shared_ptr<const Profile> baseProfile, std::shared_ptr<const AnalysisResult> baseAnalysis,
                 const QString& baseLabel, const QString& baseFolder, const QString& newPath);
    void cancel();
    bool isRunning() const;

    // Selects a row of the bubble fates (index into Comparison::matches): both timelines follow.
    void selectMatch(int match);

    // For tests and the screenshot tool.
    const Comparison* comparison() const { return comparison_.get(); }
    QTextBrowser* verdict() const { return verdict_; }
    QTableWidget* stepsTable() const { return steps_; }
    QTableView* opsTable() const { return ops_; }
    QLineEdit* opsFilter() const { return opsFilter_; }
    QTableWidget* bubblesTable() const { return bubbles_; }
    QTabWidget* tabs() const { return tabs_; }
    TimelineWidget* baseTimeline() const { return baseTimeline_; }
    TimelineWidget* newTimeline() const { return newTimeline_; }
    const AnalysisResult* baseAnalysis() const { return baseAnalysis_.get(); }
    const AnalysisResult* newAnalysis() const { return newAnalysis_.get(); }

  signals:
    void comparisonFinished(bool ok, const QString& message);

  protected:
    void changeEvent(QEvent* e) override; // LanguageChange: texts and the comparison again

  private:
    void retranslate();
    void onFinished(const CompareOutcome& outcome);
    void showComparison();
    void fillSteps();
    void fillOps();
    void fillBubbles();

    struct Job;
    std::unique_ptr<Job> job_;
    std::shared_ptr<const Comparison> comparison_;
    std::shared_ptr<const Profile> baseProfile_, newProfile_;
    std::shared_ptr<const AnalysisResult> baseAnalysis_, newAnalysis_;
    QTextBrowser* verdict_;
    QLabel* status_;
    QProgressBar* progress_;
    QPushButton* cancel_;
    QTabWidget* tabs_;
    QTableWidget* steps_;
    QTableView* ops_;
    QStandardItemModel* opsModel_;
    QSortFilterProxyModel* opsProxy_;
    QLineEdit* opsFilter_;
    QTableWidget* bubbles_;
    QLabel* baseLabel_;
    QLabel* newLabel_;
    TimelineWidget* baseTimeline_;
    TimelineWidget* newTimeline_;
};

} // namespace bs::ui
