#pragma once
// The Ops tab: the dominant step group's ops (ANALYSIS.md §8) grouped by op type, a group's instances
// beneath it (a click on its name opens it, Right / Left open and close it), sorted by total device time,
// with a name filter (a group or an instance); double-clicking an op asks for its kernels on the timeline.
#include <QWidget>

#include <memory>

class QLineEdit;
class QTableView;

namespace bs {
struct AnalysisResult;
struct Profile;
} // namespace bs

namespace bs::ui {

class OpsGroupModel;

class OpsPanel : public QWidget {
    Q_OBJECT
  public:
    explicit OpsPanel(QWidget* parent = nullptr);
    // With `profile`, ops group by their kernels' recorded op type; without, by name (op_analysis names).
    void setAnalysis(std::shared_ptr<const AnalysisResult> analysis, const Profile* profile = nullptr);
    void clear(); // no ops, no filter (a filter set on one profile is not the next one's)
    void filterTo(const QString& name); // the op's row only (the filter shows the name)
    QTableView* table() const { return table_; }
    QLineEdit* filter() const { return filter_; }

  signals:
    void instancesRequested(const QString& opName);

  protected:
    void changeEvent(QEvent* e) override; // LanguageChange
    bool eventFilter(QObject* watched, QEvent* e) override; // Right / Left open and close a group

  private:
    void toggleGroup(int row, int expand = -1); // expand: 1 open, 0 close, -1 the other way
    QLineEdit* filter_;
    QTableView* table_;
    OpsGroupModel* model_;
};

} // namespace bs::ui
