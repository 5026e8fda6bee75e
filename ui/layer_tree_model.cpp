#include "layer_tree_model.h"

#include "language.h"

#include "pipeline/analysis_run.h"
#include "architecture/architecture_analysis.h"
#include "model/profile.h"

#include <QCoreApplication>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <vector>

namespace bs::ui {

// A row above the kernels: its four texts, the share's tooltip, its span, where it sits; a role row's
// kernels are a run of `leaves` (indices into Profile::kernels), other rows have child rows.
struct LayerTreeNode {
    std::array<QString, 4> text;
    QString shareTip;
    TimeNs start = 0, end = 0;
    int parent = -1, row = 0; // the parent node (-1: top level) and the row under it
    bool role = false;   // its rows are kernels
    bool direct = false; // its kernels are Profile::kernels[firstLeaf, firstLeaf + leafCount), not in `leaves`
    std::vector<int> children;
    std::uint32_t firstLeaf = 0, leafCount = 0;
};

struct LayerTree {
    std::vector<LayerTreeNode> nodes;
    std::vector<int> top;
    std::vector<std::uint32_t> leaves;
};

namespace {

QString ms(TimeNs ns, int prec = 3) {
    return QString::number(nsToMs(ns), 'f', prec);
}

} // namespace

std::shared_ptr<const LayerTree> buildLayerTree(const Profile& p, const AnalysisResult& r) {
    auto out = std::make_shared<LayerTree>();
    auto& nodes = out->nodes;
    const auto& a = r.architecture;
    // A node under `parent` (-1: top level).
    auto add = [&](int parent, const QString& name, const QString& wall, const QString& share, const QString& stream,
                   TimeNs s, TimeNs e) {
        LayerTreeNode n;
        n.text = {name, wall, share, stream};
        n.start = s;
        n.end = e;
        n.parent = parent;
        const int id = static_cast<int>(nodes.size());
        auto& siblings = parent < 0 ? out->top : nodes[static_cast<std::size_t>(parent)].children;
        n.row = static_cast<int>(siblings.size());
        siblings.push_back(id);
        nodes.push_back(std::move(n));
        return id;
    };
    if (a.passes.empty()) {
        // Structures without passes (a ResNet's prologue / blocks / epilogue): spans may overlap, so each
        // instant of a step counts once — for the earliest-starting structure holding it — and what no
        // structure holds is a row of its own: the shares of a step add up to 100 %.
        std::map<int, std::vector<const Structure*>> bySteps;
        for (const auto& st : a.structures)
            bySteps[st.stepIndex].push_back(&st);
        for (auto& [stepIndex, list] : bySteps) {
            std::stable_sort(list.begin(), list.end(), [](const Structure* x, const Structure* y) { return x->span.a < y->span.a; });
            const bool hasStep = stepIndex >= 0 && static_cast<std::size_t>(stepIndex) < r.steps.steps.size();
            const TimeNs service = hasStep ? r.steps.steps[static_cast<std::size_t>(stepIndex)].service() : 0;
            TimeNs covered = 0, reach = std::numeric_limits<TimeNs>::min();
            auto share = [&](TimeNs t) {
                return service > 0 ? QString::number(100.0 * static_cast<double>(t) / static_cast<double>(service), 'f', 1) +
                                         QStringLiteral(" %")
                                   : QString();
            };
            for (const Structure* st : list) {
                const TimeNs from = std::max(st->span.a, reach), own = std::max<TimeNs>(0, st->span.b - from);
                reach = std::max(reach, st->span.b);
                covered += own;
                const int id = add(-1, QStringLiteral("%1 %2").arg(coreText(st->id), coreText(st->type)), ms(st->all.wall),
                                   share(own), QString::number(st->mainStream), st->span.a, st->span.b);
                // Its kernels, as a layer's role lists them: the structure's own range of Profile::kernels.
                if (st->lastKernel > st->firstKernel) {
                    auto& n = nodes[static_cast<std::size_t>(id)];
                    n.role = n.direct = true;
                    n.firstLeaf = static_cast<std::uint32_t>(st->firstKernel);
                    n.leafCount = static_cast<std::uint32_t>(st->lastKernel - st->firstKernel);
                }
                if (own < st->span.length())
                    nodes[static_cast<std::size_t>(id)].shareTip =
                        QCoreApplication::translate("LayerTree", "%1 ms of its span overlap an earlier structure; the share counts them once")
                            .arg(ms(st->span.length() - own));
            }
            if (hasStep && service > covered) {
                const auto& step = r.steps.steps[static_cast<std::size_t>(stepIndex)];
                add(-1, QCoreApplication::translate("LayerTree", "step %1: in no structure").arg(coreText(step.label)), ms(service - covered),
                    share(service - covered), QString(), step.start, step.end);
            }
        }
        return out;
    }
    for (const auto& ps : a.passes) {
        const int pass = add(-1,
                             QCoreApplication::translate("LayerTree", "Pass %1 (%2, step %3)").arg(ps.index).arg(coreText(ps.phase), coreText(ps.stepId)),
                             ms(ps.span.length()), QString(), QString(), ps.span.a, ps.span.b);
        for (int li : ps.layers) {
            const auto& l = a.layers[static_cast<std::size_t>(li)];
            const int layer = add(
                pass, QStringLiteral("L%1  %2").arg(l.index).arg(coreText(l.type)), ms(l.clocks.wall),
                ps.span.length() ? QString::number(100.0 * static_cast<double>(l.clocks.wall) /
                                                       static_cast<double>(ps.span.length()),
                                                   'f', 1) +
                                       QStringLiteral(" %")
                                 : QString(),
                l.structure >= 0 ? QString::number(a.structures[static_cast<std::size_t>(l.structure)].mainStream) : QString(),
                l.span.a, l.span.b);
            // layerKernels: one entry per kernel of the layer's span, in kernel order.
            const auto kernels = layerKernels(p, l, a.marker);
            const std::size_t first = kernelIndexAt(p, l.span.a);
            std::vector<std::pair<const std::string*, std::vector<std::uint32_t>>> roles; // in first-seen order
            for (std::size_t j = 0; j < kernels.size(); ++j) {
                const auto& k = kernels[j];
                auto it = std::find_if(roles.begin(), roles.end(), [&](const auto& x) { return *x.first == k.role; });
                if (it == roles.end()) {
                    roles.push_back({&k.role, {}});
                    it = roles.end() - 1;
                }
                it->second.push_back(static_cast<std::uint32_t>(first + j));
            }
            for (const auto& [role, ks] : roles) {
                std::vector<Interval> iv;
                iv.reserve(ks.size());
                const Kernel& k0 = p.kernels[ks.front()];
                TimeNs e0 = 0;
                for (std::uint32_t ki : ks) {
                    const Kernel& k = p.kernels[ki];
                    iv.push_back({k.start, k.start + k.dur});
                    e0 = std::max(e0, k.start + k.dur);
                }
                const TimeNs wall = totalLength(mergeIntervals(iv));
                const int node = add(layer, coreText(*role), ms(wall),
                                     l.clocks.wall ? QString::number(100.0 * static_cast<double>(wall) /
                                                                         static_cast<double>(l.clocks.wall),
                                                                     'f', 1) +
                                                         QStringLiteral(" %")
                                                   : QString(),
                                     QString::number(k0.stream), k0.start, e0);
                auto& n = nodes[static_cast<std::size_t>(node)];
                n.role = true;
                n.firstLeaf = static_cast<std::uint32_t>(out->leaves.size());
                n.leafCount = static_cast<std::uint32_t>(ks.size());
                out->leaves.insert(out->leaves.end(), ks.begin(), ks.end());
            }
        }
        // The pass's stream: the main stream most of its layers run on.
        std::map<int, int> streams;
        for (int li : ps.layers)
            if (const int st = a.layers[static_cast<std::size_t>(li)].structure; st >= 0)
                ++streams[a.structures[static_cast<std::size_t>(st)].mainStream];
        if (!streams.empty())
            nodes[static_cast<std::size_t>(pass)].text[LayerTreeModel::Stream] =
                QString::number(std::max_element(streams.begin(), streams.end(), [](const auto& x, const auto& y) {
                                    return x.second < y.second;
                                })->first);
    }
    return out;
}

LayerTreeModel::LayerTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

LayerTreeModel::~LayerTreeModel() = default;

void LayerTreeModel::setTree(std::shared_ptr<const Profile> profile, std::shared_ptr<const LayerTree> tree) {
    beginResetModel();
    profile_ = std::move(profile);
    tree_ = std::move(tree);
    endResetModel();
}

void LayerTreeModel::setAnalysis(std::shared_ptr<const Profile> profile, const AnalysisResult& analysis) {
    auto tree = buildLayerTree(*profile, analysis);
    setTree(std::move(profile), std::move(tree));
}

// An index's internal id is its parent node + 1 (0: top level); a row under a role node is a kernel leaf.
int LayerTreeModel::nodeOf(const QModelIndex& index) const {
    const auto id = static_cast<std::size_t>(index.internalId());
    const auto row = static_cast<std::size_t>(index.row());
    if (id == 0) return tree_->top[row];
    const LayerTreeNode& p = tree_->nodes[id - 1];
    return p.role ? -1 : p.children[row];
}

QModelIndex LayerTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!tree_ || row < 0 || column < 0 || column >= ColumnCount || row >= rowCount(parent)) return {};
    if (!parent.isValid()) return createIndex(row, column, quintptr(0));
    return createIndex(row, column, quintptr(nodeOf(parent) + 1));
}

QModelIndex LayerTreeModel::parent(const QModelIndex& child) const {
    if (!tree_ || !child.isValid() || child.internalId() == 0) return {};
    const LayerTreeNode& p = tree_->nodes[static_cast<std::size_t>(child.internalId() - 1)];
    return createIndex(p.row, 0, quintptr(p.parent + 1));
}

int LayerTreeModel::rowCount(const QModelIndex& parent) const {
    if (!tree_) return 0;
    if (!parent.isValid()) return static_cast<int>(tree_->top.size());
    if (parent.column() != 0) return 0;
    const int n = nodeOf(parent);
    if (n < 0) return 0;
    const LayerTreeNode& node = tree_->nodes[static_cast<std::size_t>(n)];
    return node.role ? static_cast<int>(node.leafCount) : static_cast<int>(node.children.size());
}

int LayerTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

bool LayerTreeModel::hasChildren(const QModelIndex& parent) const {
    return rowCount(parent) > 0;
}

Qt::ItemFlags LayerTreeModel::flags(const QModelIndex& index) const {
    if (!index.isValid()) return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsSelectable | Qt::ItemIsEnabled;
    if (nodeOf(index) < 0) f |= Qt::ItemNeverHasChildren;
    return f;
}

QVariant LayerTreeModel::data(const QModelIndex& index, int role) const {
    if (!tree_ || !index.isValid()) return {};
    const int n = nodeOf(index);
    const int col = index.column();
    if (n >= 0) {
        const LayerTreeNode& node = tree_->nodes[static_cast<std::size_t>(n)];
        switch (role) {
        case Qt::DisplayRole:
        case Qt::EditRole:
            return node.text[static_cast<std::size_t>(col)];
        case Qt::ToolTipRole:
            return col == Share && !node.shareTip.isEmpty() ? QVariant(node.shareTip) : QVariant();
        case Qt::UserRole:
            return static_cast<qlonglong>(node.start);
        case Qt::UserRole + 1:
            return static_cast<qlonglong>(node.end);
        default:
            return {};
        }
    }
    // A kernel leaf: its texts from the profile.
    const LayerTreeNode& roleNode = tree_->nodes[static_cast<std::size_t>(index.internalId() - 1)];
    const std::uint32_t leaf = roleNode.firstLeaf + static_cast<std::uint32_t>(index.row());
    const Kernel& k = profile_->kernels[roleNode.direct ? leaf : tree_->leaves[leaf]];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        switch (col) {
        case Name:
            return coreText(profile_->str(k.name));
        case Wall:
            return QString::number(nsToMs(k.dur), 'f', 4);
        case Stream:
            return QString::number(k.stream);
        default:
            return QString();
        }
    case Qt::UserRole:
        return static_cast<qlonglong>(k.start);
    case Qt::UserRole + 1:
        return static_cast<qlonglong>(k.start + k.dur);
    default:
        return {};
    }
}

QVariant LayerTreeModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Name:
        return QCoreApplication::translate("LayerTree", "Pass / layer / role / kernel");
    case Wall:
        return QCoreApplication::translate("LayerTree", "Wall (ms)");
    case Share:
        return QCoreApplication::translate("LayerTree", "Share");
    case Stream:
        return QCoreApplication::translate("LayerTree", "Stream");
    default:
        return {};
    }
}

} // namespace bs::ui
