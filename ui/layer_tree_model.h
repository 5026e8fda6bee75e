#pragma once
// The Layers tree: pass → layer (type, wall) → functional role → kernels, or the flat structures of a
// capture without passes → their kernels. A lazy model over the core's architecture result: the rows above the kernels
// are built once (also off the GUI thread, buildLayerTree), each kernel leaf is only an index into the
// profile's kernels, its texts made when asked. Every row carries its span (Qt::UserRole = start ns,
// Qt::UserRole + 1 = end ns).
#include <QAbstractItemModel>

#include <memory>

namespace bs {
struct Profile;
struct AnalysisResult;
} // namespace bs

namespace bs::ui {

struct LayerTree; // the built rows (layer_tree_model.cpp)

// The rows of the tree in the current language; no QObject, so any thread.
std::shared_ptr<const LayerTree> buildLayerTree(const Profile& profile, const AnalysisResult& analysis);

class LayerTreeModel : public QAbstractItemModel {
    Q_OBJECT
  public:
    enum Column { Name, Wall, Share, Stream, ColumnCount };
    explicit LayerTreeModel(QObject* parent = nullptr);
    ~LayerTreeModel() override;
    // `tree` built from `profile` (whose kernels the leaves name); null: built here.
    void setTree(std::shared_ptr<const Profile> profile, std::shared_ptr<const LayerTree> tree);
    void setAnalysis(std::shared_ptr<const Profile> profile, const AnalysisResult& analysis);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

  private:
    int nodeOf(const QModelIndex& index) const; // the row's node, -1 for a kernel leaf
    std::shared_ptr<const Profile> profile_;
    std::shared_ptr<const LayerTree> tree_;
};

} // namespace bs::ui
