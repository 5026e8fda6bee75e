#include "panel_models.h"
#include <algorithm>
#include <limits>
#include <map>
#include "language.h"
#include "glossary.h"

#include "analysis/analysis_run.h"
#include "architecture/architecture_analysis.h"
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
            return coreText(o.pmuVerdict);
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

LayerRows::~LayerRows() {
    for (const auto& row : rows)
        qDeleteAll(row);
}

void fillLayerModel(QStandardItemModel& model, const Profile& p, const AnalysisResult& r) {
    setLayerRows(model, buildLayerRows(p, r));
}

void setLayerRows(QStandardItemModel& model, LayerRows rows) {
    model.clear();
    model.setHorizontalHeaderLabels({QCoreApplication::translate("LayerTree", "Pass / layer / role / kernel"),
                                     QCoreApplication::translate("LayerTree", "Wall (ms)"),
                                     QCoreApplication::translate("LayerTree", "Share"),
                                     QCoreApplication::translate("LayerTree", "Stream")});
    for (const auto& row : rows.rows)
        model.appendRow(row);
    rows.rows.clear(); // the model owns them now
}

LayerRows buildLayerRows(const Profile& p, const AnalysisResult& r) {
    LayerRows out;
    const auto& a = r.architecture;
    auto row = [](const QString& name, const QString& wall, const QString& share, const QString& stream,
                  TimeNs s, TimeNs e) {
        QList<QStandardItem*> items{new QStandardItem(name), new QStandardItem(wall),
                                    new QStandardItem(share), new QStandardItem(stream)};
        for (auto* it : items) {
            it->setEditable(false);
            it->setData(static_cast<qlonglong>(s), Qt::UserRole);
            it->setData(static_cast<qlonglong>(e), Qt::UserRole + 1);
        }
        return items;
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
                auto items = row(QStringLiteral("%1 %2").arg(coreText(st->id), coreText(st->type)),
                                 ms(st->all.wall), share(own), QString::number(st->mainStream), st->span.a, st->span.b);
                if (own < st->span.length())
                    items[2]->setToolTip(QCoreApplication::translate("LayerTree", "%1 ms of its span overlap an earlier structure; "
                                                                                  "the share counts them once")
                                             .arg(ms(st->span.length() - own)));
                out.rows.push_back(items);
            }
            if (hasStep && service > covered) {
                const auto& step = r.steps.steps[static_cast<std::size_t>(stepIndex)];
                out.rows.push_back(row(QCoreApplication::translate("LayerTree", "step %1: in no structure").arg(coreText(step.label)),
                                    ms(service - covered), share(service - covered), QString(), step.start, step.end));
            }
        }
        return out;
    }
    for (const auto& ps : a.passes) {
        auto passRow = row(QCoreApplication::translate("LayerTree", "Pass %1 (%2, step %3)")
                               .arg(ps.index)
                               .arg(coreText(ps.phase), coreText(ps.stepId)),
                           ms(ps.span.length()), QString(), QString(), ps.span.a, ps.span.b);
        for (int li : ps.layers) {
            const auto& l = a.layers[static_cast<std::size_t>(li)];
            auto layerRow = row(
                QStringLiteral("L%1  %2").arg(l.index).arg(coreText(l.type)), ms(l.clocks.wall),
                ps.span.length() ? QString::number(100.0 * static_cast<double>(l.clocks.wall) /
                                                       static_cast<double>(ps.span.length()),
                                                   'f', 1) +
                                       QStringLiteral(" %")
                                 : QString(),
                l.structure >= 0 ? QString::number(a.structures[static_cast<std::size_t>(l.structure)].mainStream) : QString(),
                l.span.a, l.span.b);
            const auto kernels = layerKernels(p, l, a.marker);
            std::vector<std::pair<std::string, std::vector<const LayerKernel*>>> roles;
            for (const auto& k : kernels) {
                auto it = std::find_if(roles.begin(), roles.end(),
                                       [&](const auto& x) { return x.first == k.role; });
                if (it == roles.end())
                    roles.push_back({k.role, {&k}});
                else
                    it->second.push_back(&k);
            }
            for (const auto& [role, ks] : roles) {
                std::vector<Interval> iv;
                TimeNs s0 = ks.front()->start, e0 = 0;
                for (const auto* k : ks)
                    iv.push_back({k->start, k->start + k->dur}), e0 = std::max(e0, k->start + k->dur);
                const TimeNs wall = totalLength(mergeIntervals(iv));
                auto roleRow = row(coreText(role), ms(wall),
                                   l.clocks.wall ? QString::number(100.0 * static_cast<double>(wall) /
                                                                       static_cast<double>(l.clocks.wall),
                                                                   'f', 1) +
                                                       QStringLiteral(" %")
                                                 : QString(),
                                   QString::number(ks.front()->stream), s0, e0);
                for (const auto* k : ks)
                    roleRow.first()->appendRow(row(coreText(k->name),
                                                   QString::number(nsToMs(k->dur), 'f', 4), QString(),
                                                   QString::number(k->stream), k->start, k->start + k->dur));
                layerRow.first()->appendRow(roleRow);
            }
            passRow.first()->appendRow(layerRow);
        }
        // The pass's stream: the main stream most of its layers run on.
        std::map<int, int> streams;
        for (int li : ps.layers)
            if (const int st = a.layers[static_cast<std::size_t>(li)].structure; st >= 0)
                ++streams[a.structures[static_cast<std::size_t>(st)].mainStream];
        if (!streams.empty())
            passRow[3]->setText(QString::number(std::max_element(streams.begin(), streams.end(), [](const auto& x, const auto& y) {
                                                    return x.second < y.second;
                                                })->first));
        out.rows.push_back(passRow);
    }
    return out;
}

} // namespace bs::ui
