#pragma once
// Item models of the panels: bubble windows, ops, layers. They read the core results; no parsing.
#include <QAbstractTableModel>
#include <QStandardItemModel>

#include <memory>
#include <vector>

namespace bs {
struct Profile;
struct AnalysisResult;
} // namespace bs

namespace bs::ui {

class BubbleTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { Rank, Step, Scope, Start, Duration, Labels, Coverage, ColumnCount };
    explicit BubbleTableModel(QObject* parent = nullptr);
    void setAnalysis(std::shared_ptr<const Profile> profile, std::shared_ptr<const AnalysisResult> analysis);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

  private:
    std::shared_ptr<const Profile> profile_;
    std::shared_ptr<const AnalysisResult> analysis_;
};

class OpsTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    // The op and what it costs first, the PMU verdict before the flags, the two rankings last.
    enum Column {
        Name,
        TaskType,
        Total,
        Calls,
        DurAvg,
        WaitAvg,
        CostAvg,
        WaitRatio,
        Pmu,
        Flags,
        RankTotal,
        RankCost,
        ColumnCount
    };
    explicit OpsTableModel(QObject* parent = nullptr);
    void setAnalysis(std::shared_ptr<const AnalysisResult> analysis);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

  private:
    std::shared_ptr<const AnalysisResult> analysis_;
};

// pass → layer (type, wall) → functional role → kernels; each item carries its span
// (Qt::UserRole = start ns, Qt::UserRole + 1 = end ns).
void fillLayerModel(QStandardItemModel& model, const Profile& profile, const AnalysisResult& analysis);

// The same in two steps: the top-level rows with their subtrees, built without a model (also off the GUI
// thread: items only, no QObject), then handed to the model on its thread (its headers set there).
struct LayerRows {
    std::vector<QList<QStandardItem*>> rows; // owned until setLayerRows takes them
    LayerRows() = default;
    LayerRows(LayerRows&& o) noexcept : rows(std::move(o.rows)) { o.rows.clear(); }
    LayerRows& operator=(LayerRows&&) = delete;
    LayerRows(const LayerRows&) = delete;
    ~LayerRows();
};
LayerRows buildLayerRows(const Profile& profile, const AnalysisResult& analysis);
void setLayerRows(QStandardItemModel& model, LayerRows rows);

} // namespace bs::ui
