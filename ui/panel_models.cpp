#include "panel_models.h"
#include <algorithm>
#include "language.h"
#include "glossary.h"

#include "pipeline/analysis_run.h"
#include "analysis/step_groups.h"
#include "model/profile.h"

#include <QCoreApplication>
#include <QFont>
#include <QGuiApplication>
#include <QIcon>
#include <QPainter>
#include <QPalette>
#include <QPixmap>
#include <QPolygonF>

#include <map>
#include <unordered_map>

namespace bs::ui {

namespace {

QString ms(TimeNs ns, int prec = 3) {
    return QString::number(nsToMs(ns), 'f', prec);
}

} // namespace

BubbleTableModel::BubbleTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void BubbleTableModel::setAnalysis(std::shared_ptr<const Profile> profile,
                                   std::shared_ptr<const AnalysisResult> analysis) {
    beginResetModel();
    profile_ = std::move(profile);
    analysis_ = std::move(analysis);
    endResetModel();
}

int BubbleTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !analysis_) return 0;
    return static_cast<int>(analysis_->anomaly.windows.size());
}

int BubbleTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant BubbleTableModel::data(const QModelIndex& index, int role) const {
    if (!analysis_ || !index.isValid() || index.row() >= rowCount()) return {};
    const auto& w = analysis_->anomaly.windows[static_cast<std::size_t>(index.row())];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Rank:
            return coreText(w.id);
        case Step:
            return coreText(w.stepId);
        case Scope:
            return QString::fromLatin1(windowScopeName(w.scope)) + (w.boundary ? tr(" (edge)") : QString());
        case Start: {
            const TimeNs d = w.span.a - analysis_->anomaly.captureStart;
            return (d < 0 ? QStringLiteral("−") : QStringLiteral("+")) + ms(d < 0 ? -d : d);
        }
        case Duration:
            return ms(w.span.length());
        case Labels: {
            QStringList l;
            for (const auto& x : w.labels)
                l << coreText(x);
            return l.join(QStringLiteral(", "));
        }
        case Coverage:
            return w.evidence.hostTraceExists ? QString::number(w.evidence.coverage, 'f', 2)
                                              : QStringLiteral("n/a");
        default:
            return {};
        }
    }
    if (role == Qt::UserRole) return static_cast<qlonglong>(w.span.a);
    if (role == Qt::UserRole + 1) return static_cast<qlonglong>(w.span.b);
    if (role == Qt::TextAlignmentRole &&
        (index.column() == Duration || index.column() == Coverage || index.column() == Start))
        return static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant BubbleTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Rank:
        return tr("Bubble");
    case Step:
        return tr("Step");
    case Scope:
        return tr("Scope");
    case Start:
        return tr("Start (ms)");
    case Duration:
        return tr("Duration (ms)");
    case Labels:
        return tr("Candidate causes");
    case Coverage:
        return tr("Host coverage");
    default:
        return {};
    }
}

OpsTableModel::OpsTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void OpsTableModel::setAnalysis(std::shared_ptr<const AnalysisResult> analysis) {
    beginResetModel();
    analysis_ = std::move(analysis);
    endResetModel();
}

int OpsTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !analysis_) return 0;
    return static_cast<int>(analysis_->anomaly.ops.size());
}

int OpsTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OpsTableModel::data(const QModelIndex& index, int role) const {
    if (!analysis_ || !index.isValid() || index.row() >= rowCount()) return {};
    const auto& o = analysis_->anomaly.ops[static_cast<std::size_t>(index.row())];
    if (role == Qt::DisplayRole || role == Qt::UserRole) {
        const bool sort = role == Qt::UserRole;
        switch (index.column()) {
        case RankCost:
            return o.rankByAvgCost;
        case RankTotal:
            return o.rankByTotal;
        case Name:
            return coreText(o.name);
        case TaskType:
            return coreText(o.taskType);
        case Calls:
            return static_cast<qulonglong>(o.calls);
        case DurAvg:
            return sort ? QVariant(o.durAvgUs) : QVariant(QString::number(o.durAvgUs, 'f', 2));
        case WaitAvg:
            return sort ? QVariant(o.waitAvgUs) : QVariant(QString::number(o.waitAvgUs, 'f', 2));
        case CostAvg:
            return sort ? QVariant(o.totalCostAvgUs) : QVariant(QString::number(o.totalCostAvgUs, 'f', 2));
        case WaitRatio:
            return sort ? QVariant(o.waitRatio) : QVariant(QString::number(o.waitRatio, 'f', 2));
        case Total:
            return sort ? QVariant(nsToMs(o.durTotal)) : QVariant(ms(o.durTotal));
        case Flags: {
            QStringList f;
            if (o.falseHotspot)
                f << QStringLiteral("WAIT_ANCHOR_FALSE_HOTSPOT");
            else if (o.waitAnchor)
                f << tr("wait anchor");
            if (o.waitPollution) f << QStringLiteral("WAIT_POLLUTION_RISK");
            for (const auto& a : analysis_->anomaly.aicpuOps)
                if (a.name == o.name) f << coreText(a.cls);
            return f.join(QStringLiteral(", "));
        }
        case Pmu:
            return pmuVerdictText(o.pmuVerdict);
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == Flags) {
        // Each flag with its meaning.
        QStringList lines;
        if (o.falseHotspot) lines << QStringLiteral("WAIT_ANCHOR_FALSE_HOTSPOT: ") + glossaryDefinition(QStringLiteral("WAIT_ANCHOR_FALSE_HOTSPOT"));
        else if (o.waitAnchor) lines << tr("wait anchor") + QStringLiteral(": ") + glossaryDefinition(QStringLiteral("wait anchor"));
        if (o.waitPollution) lines << QStringLiteral("WAIT_POLLUTION_RISK: ") + glossaryDefinition(QStringLiteral("WAIT_POLLUTION_RISK"));
        for (const auto& a : analysis_->anomaly.aicpuOps)
            if (a.name == o.name) lines << coreText(a.cls) + QStringLiteral(": ") + tr("an AI CPU op (class as the analysis names it)");
        return lines.join(QLatin1Char('\n'));
    }
    if (role == Qt::ToolTipRole && index.column() == Pmu && !o.pmuVerdict.empty())
        return glossaryDefinition(QStringLiteral("PMU verdict"));
    if (role == Qt::TextAlignmentRole && index.column() != Name && index.column() != TaskType &&
        index.column() != Flags && index.column() != Pmu)
        return static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant OpsTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o == Qt::Horizontal && role == Qt::ToolTipRole) {
        switch (section) {
        case RankCost:
            return tr("Rank by average total cost (duration + wait) per call: 1 is the costliest call.");
        case RankTotal:
            return tr("Rank by total duration over all calls: 1 takes the most device time.");
        case WaitAvg:
            return tr("Average time a call waited before it ran (kernel_details' Wait): not its own work.");
        case CostAvg:
            return tr("Average duration + wait per call.");
        case WaitRatio:
            return tr("Wait / (duration + wait) over all calls.");
        case Total:
            return tr("Total duration over all calls (device time the op takes; the default order).");
        case Flags:
            return tr("Why the op's ranking may mislead (hover a cell for each flag's meaning).");
        case Pmu:
            return glossaryDefinition(QStringLiteral("PMU verdict"));
        default:
            return {};
        }
    }
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case RankCost:
        return tr("Rank (avg cost)");
    case RankTotal:
        return tr("Rank (total)");
    case Name:
        return tr("Op");
    case TaskType:
        return tr("Task type");
    case Calls:
        return tr("Calls");
    case DurAvg:
        return tr("Duration avg (µs)");
    case WaitAvg:
        return tr("Wait avg (µs)");
    case CostAvg:
        return tr("Total cost avg (µs)");
    case WaitRatio:
        return tr("Wait ratio");
    case Total:
        return tr("Total (ms)");
    case Flags:
        return tr("Flags");
    case Pmu:
        return tr("PMU verdict");
    default:
        return {};
    }
}

namespace {

// An op's type from its name alone: the name without its trailing instance digits (Conv2D7 → Conv2D,
// trans_TransData_6 → trans_TransData); a name that is nothing else is its own type.
QString typeFromName(const QString& name) {
    qsizetype end = name.size();
    while (end > 0 && name.at(end - 1).isDigit())
        --end;
    if (end == name.size()) return name;
    while (end > 0 && name.at(end - 1) == QLatin1Char('_'))
        --end;
    return end > 0 ? name.left(end) : name;
}

// The recorded op type of each op name (as the op analysis names ops: templateName), when kernels carry one.
std::unordered_map<std::string, std::string> recordedTypes(const Profile& p) {
    std::unordered_map<std::string, std::string> out;
    std::vector<char> seen(p.strings.size(), 0);
    for (const Kernel& k : p.kernels) {
        if (!k.opType || seen[k.name]) continue;
        seen[k.name] = 1;
        out.emplace(templateName(p.str(k.name), k.cls), std::string(p.str(k.opType)));
    }
    return out;
}

bool lessVariant(const QVariant& a, const QVariant& b) {
    if (a.typeId() == QMetaType::QString || b.typeId() == QMetaType::QString)
        return a.toString().compare(b.toString(), Qt::CaseInsensitive) < 0;
    return a.toDouble() < b.toDouble();
}

// The open / closed triangle of a tree's branch, in the palette's text colour.
QIcon branchIcon(bool expanded) {
    auto make = [](bool open) {
        QPixmap px(16, 16);
        px.fill(Qt::transparent);
        QPainter painter(&px);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(Qt::NoPen);
        painter.setBrush(QGuiApplication::palette().color(QPalette::Text));
        const QPolygonF shape = open ? QPolygonF({QPointF(3, 5), QPointF(13, 5), QPointF(8, 11)})
                                     : QPolygonF({QPointF(5, 3), QPointF(11, 8), QPointF(5, 13)});
        painter.drawPolygon(shape);
        return QIcon(px);
    };
    static const QIcon closed = make(false), open = make(true);
    return expanded ? open : closed;
}

QIcon indentIcon() { // an instance's name starts where its group's does after the arrow
    static const QIcon blank = [] {
        QPixmap px(16, 16);
        px.fill(Qt::transparent);
        return QIcon(px);
    }();
    return blank;
}

} // namespace

OpsGroupModel::OpsGroupModel(QObject* parent) : QAbstractTableModel(parent) {}

void OpsGroupModel::setAnalysis(std::shared_ptr<const AnalysisResult> analysis, const Profile* profile) {
    beginResetModel();
    groups_.clear();
    expanded_.clear();
    if (analysis) {
        const auto types = profile ? recordedTypes(*profile) : std::unordered_map<std::string, std::string>{};
        std::map<QString, std::size_t> byName; // group name → index, groups in first-seen op order
        const auto& ops = analysis->anomaly.ops;
        for (std::size_t i = 0; i < ops.size(); ++i) {
            const auto t = types.find(ops[i].name);
            const QString key = t != types.end() ? coreText(t->second) : typeFromName(coreText(ops[i].name));
            auto [it, added] = byName.emplace(key, groups_.size());
            if (added) groups_.push_back({key, {}});
            groups_[it->second].ops.push_back(static_cast<int>(i));
        }
    }
    flat_.setAnalysis(std::move(analysis));
    layRows();
    endResetModel();
}

void OpsGroupModel::setFilterText(const QString& text) {
    if (text == filter_) return;
    beginResetModel();
    filter_ = text;
    layRows();
    endResetModel();
}

void OpsGroupModel::setExpanded(int row, bool expanded) {
    if (row < 0 || row >= rowCount()) return;
    const Row r = rows_[static_cast<std::size_t>(row)];
    if (r.op >= 0 || groups_[static_cast<std::size_t>(r.group)].ops.size() < 2) return;
    const QString& name = groups_[static_cast<std::size_t>(r.group)].name;
    if (expanded_.contains(name) == expanded) return;
    beginResetModel();
    if (expanded)
        expanded_.insert(name);
    else
        expanded_.remove(name);
    layRows();
    endResetModel();
}

void OpsGroupModel::toggle(int row) {
    setExpanded(row, !index(row, 0).data(ExpandedRole).toBool());
}

void OpsGroupModel::sort(int column, Qt::SortOrder order) {
    beginResetModel();
    sortColumn_ = column;
    order_ = order;
    layRows();
    endResetModel();
}

bool OpsGroupModel::before(const Row& x, const Row& y) const {
    const QVariant a = cell(x, sortColumn_, true), b = cell(y, sortColumn_, true);
    return order_ == Qt::AscendingOrder ? lessVariant(a, b) : lessVariant(b, a);
}

void OpsGroupModel::layRows() {
    rows_.clear();
    auto matches = [this](const QString& name) { return filter_.isEmpty() || name.contains(filter_, Qt::CaseInsensitive); };
    std::vector<Row> tops;
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        const auto& grp = groups_[g];
        bool shown = matches(grp.name);
        for (int op : grp.ops)
            shown = shown || matches(flat_.index(op, OpsTableModel::Name).data().toString());
        if (shown) tops.push_back({static_cast<int>(g), grp.ops.size() == 1 ? grp.ops.front() : -1});
    }
    std::stable_sort(tops.begin(), tops.end(), [this](const Row& x, const Row& y) { return before(x, y); });
    for (const Row& top : tops) {
        rows_.push_back(top);
        if (top.op >= 0) continue;
        const auto& grp = groups_[static_cast<std::size_t>(top.group)];
        // Open when the user opened it, or when the filter matches some of its instances and not the group.
        const bool all = matches(grp.name);
        if (!expanded_.contains(grp.name) && (all || filter_.isEmpty())) continue;
        std::vector<Row> inst;
        for (int op : grp.ops)
            if (all || matches(flat_.index(op, OpsTableModel::Name).data().toString())) inst.push_back({top.group, op});
        std::stable_sort(inst.begin(), inst.end(), [this](const Row& x, const Row& y) { return before(x, y); });
        rows_.insert(rows_.end(), inst.begin(), inst.end());
    }
}

int OpsGroupModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int OpsGroupModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : OpsTableModel::ColumnCount;
}

// A group's cells: sums and call-weighted means of its instances; no PMU verdict or flags of its own
// (each instance has them); its rankings are its best instance's, for sorting only.
QVariant OpsGroupModel::groupData(const OpGroup& g, int column, bool sortKey) const {
    const auto& ops = flat_.analysis()->anomaly.ops;
    std::size_t calls = 0;
    TimeNs total = 0;
    double durUs = 0, waitUs = 0;
    int bestTotal = 0, bestCost = 0;
    QStringList taskTypes;
    for (int i : g.ops) {
        const auto& o = ops[static_cast<std::size_t>(i)];
        calls += o.calls;
        total = addSaturating(total, o.durTotal);
        durUs += o.durAvgUs * static_cast<double>(o.calls);
        waitUs += o.waitAvgUs * static_cast<double>(o.calls);
        bestTotal = bestTotal ? std::min(bestTotal, o.rankByTotal) : o.rankByTotal;
        bestCost = bestCost ? std::min(bestCost, o.rankByAvgCost) : o.rankByAvgCost;
        const QString t = coreText(o.taskType);
        if (!taskTypes.contains(t)) taskTypes << t;
    }
    const double n = calls ? static_cast<double>(calls) : 1.0;
    auto number = [sortKey](double v) { return sortKey ? QVariant(v) : QVariant(QString::number(v, 'f', 2)); };
    switch (column) {
    case OpsTableModel::Name:
        return g.name;
    case OpsTableModel::TaskType:
        return taskTypes.join(QStringLiteral(", "));
    case OpsTableModel::Total:
        return sortKey ? QVariant(nsToMs(total)) : QVariant(ms(total));
    case OpsTableModel::Calls:
        return static_cast<qulonglong>(calls);
    case OpsTableModel::DurAvg:
        return number(durUs / n);
    case OpsTableModel::WaitAvg:
        return number(waitUs / n);
    case OpsTableModel::CostAvg:
        return number((durUs + waitUs) / n);
    case OpsTableModel::WaitRatio:
        return number(durUs + waitUs > 0 ? waitUs / (durUs + waitUs) : 0.0);
    case OpsTableModel::RankTotal:
        return sortKey ? QVariant(bestTotal) : QVariant(QString());
    case OpsTableModel::RankCost:
        return sortKey ? QVariant(bestCost) : QVariant(QString());
    default:
        return QString();
    }
}

QVariant OpsGroupModel::cell(const Row& r, int column, bool sortKey) const {
    if (r.op >= 0) return flat_.index(r.op, column).data(sortKey ? Qt::UserRole : Qt::DisplayRole);
    return groupData(groups_[static_cast<std::size_t>(r.group)], column, sortKey);
}

QVariant OpsGroupModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || !flat_.analysis()) return {};
    const Row& r = rows_[static_cast<std::size_t>(index.row())];
    const auto& g = groups_[static_cast<std::size_t>(r.group)];
    const Kind kind = r.op < 0 ? Group : g.ops.size() == 1 ? Single : Instance;
    const int col = index.column();
    switch (role) {
    case KindRole:
        return kind;
    case NameRole:
        return cell(r, OpsTableModel::Name, false);
    case InstanceCountRole:
        return kind == Group ? static_cast<int>(g.ops.size()) : 1;
    case ExpandedRole:
        return kind == Group && index.row() + 1 < rowCount() && rows_[static_cast<std::size_t>(index.row()) + 1].op >= 0 &&
               rows_[static_cast<std::size_t>(index.row()) + 1].group == r.group;
    case Qt::DisplayRole:
        return cell(r, col, false);
    case Qt::UserRole:
        return cell(r, col, true);
    case Qt::DecorationRole:
        if (col != OpsTableModel::Name || kind == Single) return {};
        return kind == Group ? branchIcon(index.data(ExpandedRole).toBool()) : indentIcon();
    case Qt::FontRole:
        if (kind != Group) return {};
        {
            QFont f;
            f.setBold(true);
            return f;
        }
    case Qt::ToolTipRole:
        if (kind == Group && col == OpsTableModel::Name)
            return tr("Op type %1: %2 instances (a click on its name shows or hides them)").arg(g.name).arg(g.ops.size());
        return kind == Group ? QVariant() : flat_.index(r.op, col).data(role);
    case Qt::TextAlignmentRole: // a group's numbers line up with its instances'
        return flat_.index(kind == Group ? g.ops.front() : r.op, col).data(role);
    default:
        return kind == Group ? QVariant() : flat_.index(r.op, col).data(role);
    }
}

QVariant OpsGroupModel::headerData(int section, Qt::Orientation o, int role) const {
    return flat_.headerData(section, o, role);
}

} // namespace bs::ui
