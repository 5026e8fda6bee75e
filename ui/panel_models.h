#pragma once
// Item models of the panels: bubble windows, ops (the Layers tree: layer_tree_model.h). They read the core results; no parsing.
#include <QAbstractTableModel>

#include <QSet>
#include <QString>

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
    const std::shared_ptr<const AnalysisResult>& analysis() const { return analysis_; }

  private:
    std::shared_ptr<const AnalysisResult> analysis_;
};

// The Ops tab's rows: ops grouped by op type (Conv2D1 … Conv2D9: one op, nine instances), a group row
// with the summed calls and time, its instances beneath it once expanded; an op alone in its type is a
// row of its own. A table of the same columns as OpsTableModel, sorted and filtered here (a proxy would
// part instances from their group): a group sorts among the top rows, its instances under it.
class OpsGroupModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Kind { Single, Group, Instance };
    enum Role {
        KindRole = Qt::UserRole + 1, // Kind
        NameRole,                    // the op's (or group's) name, without decoration
        InstanceCountRole,           // a group's instances (all of them, filtered or not); 1 for an op
        ExpandedRole                 // a group shows its instances
    };
    explicit OpsGroupModel(QObject* parent = nullptr);
    // The group of an op: its kernels' recorded op type when `profile` is given and has one, else its
    // name without the trailing instance digits. Nothing of `profile` is kept.
    void setAnalysis(std::shared_ptr<const AnalysisResult> analysis, const Profile* profile = nullptr);
    void setFilterText(const QString& text); // a group, or an instance, whose name contains it (any case)
    void setExpanded(int row, bool expanded);
    void toggle(int row);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

  private:
    struct OpGroup {
        QString name;
        std::vector<int> ops; // rows of flat_
    };
    struct Row {
        int group = -1, op = -1; // op -1: the group's own row
    };
    QVariant groupData(const OpGroup& g, int column, bool sortKey) const;
    QVariant cell(const Row& r, int column, bool sortKey) const;
    bool before(const Row& x, const Row& y) const;
    void layRows(); // rows_ from groups_, the filter, the order and what is expanded

    OpsTableModel flat_;
    std::vector<OpGroup> groups_;
    std::vector<Row> rows_;
    QSet<QString> expanded_;
    QString filter_;
    int sortColumn_ = OpsTableModel::Total;
    Qt::SortOrder order_ = Qt::DescendingOrder;
};

} // namespace bs::ui
