#pragma once
// The Ops tab: the dominant step group's ops (ANALYSIS.md §8), sorted by total device time, with a name
// filter; double-clicking an op asks for its kernels on the timeline.
#include <QWidget>

#include <memory>

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace bs {
struct AnalysisResult;
}

namespace bs::ui {

class OpsTableModel;

class OpsPanel : public QWidget {
    Q_OBJECT
  public:
    explicit OpsPanel(QWidget* parent = nullptr);
    void setAnalysis(std::shared_ptr<const AnalysisResult> analysis);
    void clear(); // no ops, no filter (a filter set on one profile is not the next one's)
    void filterTo(const QString& name); // the op's row only (the filter shows the name)
    QTableView* table() const { return table_; }
    QLineEdit* filter() const { return filter_; }

  signals:
    void instancesRequested(const QString& opName);

  protected:
    void changeEvent(QEvent* e) override; // LanguageChange

  private:
    QLineEdit* filter_;
    QTableView* table_;
    OpsTableModel* model_;
    QSortFilterProxyModel* proxy_;
};

} // namespace bs::ui
