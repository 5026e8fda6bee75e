#pragma once
// Item models of the panels: bubble windows, ops (the Layers tree: layer_tree_model.h). They read the core results; no parsing.
#include <QAbstractTableModel>

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

} // namespace bs::ui
