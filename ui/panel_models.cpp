#include "panel_models.h"
#include <algorithm>
#include "language.h"
#include "glossary.h"

#include "analysis/analysis_run.h"
#include "model/profile.h"

#include <QCoreApplication>

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

} // namespace bs::ui
