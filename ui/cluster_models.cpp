#include "cluster_models.h"

#include "language.h"
#include "cluster/cluster_model.h"

#include <QStandardItemModel>

#include <algorithm>

namespace bs::ui {

namespace {

QString ms(TimeNs ns, int decimals = 3) {
    return QString::number(nsToMs(ns), 'f', decimals);
}

QStandardItem* textItem(const QString& text, int rank = -1) {
    auto* it = new QStandardItem(text);
    it->setEditable(false);
    it->setData(rank, RankIndexRole);
    it->setData(text, SortRole);
    return it;
}

QStandardItem* msItem(TimeNs ns, int rank = -1) {
    auto* it = textItem(ms(ns), rank);
    it->setData(static_cast<qlonglong>(ns), SortRole);
    it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return it;
}

QStandardItem* numberItem(const QString& text, double value, int rank = -1) {
    auto* it = textItem(text, rank);
    it->setData(value, SortRole);
    it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return it;
}

TimeNs medianOf(std::vector<TimeNs> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2; // the core's slow-rank median
}

QString metricLabel(const std::string& metric) {
    if (metric == "computing") return ClusterText::metricName(ClusterMetric::Computing);
    if (metric == "free") return ClusterText::metricName(ClusterMetric::Free);
    if (metric == "prelaunch") return ClusterText::metricName(ClusterMetric::Prelaunch);
    if (metric == "comm_not_overlapped") return ClusterText::metricName(ClusterMetric::ExposedComm);
    return coreText(metric);
}

} // namespace

QString ClusterText::metricName(ClusterMetric m) {
    switch (m) {
    case ClusterMetric::Service:
        return tr("Service");
    case ClusterMetric::Computing:
        return tr("Computing");
    case ClusterMetric::Underfeed:
        return tr("Underfeed");
    case ClusterMetric::Free:
        return tr("Free (internal bubbles)");
    case ClusterMetric::Prelaunch:
        return tr("Prelaunch");
    case ClusterMetric::Tail:
        return tr("Tail");
    case ClusterMetric::ExposedComm:
        return tr("Exposed communication");
    case ClusterMetric::CommWait:
        return tr("Communication wait");
    }
    return {};
}

QString ClusterText::metricHelp(ClusterMetric m) {
    switch (m) {
    case ClusterMetric::Service:
        return tr("The step's service window: first host launch to the step's last device work.");
    case ClusterMetric::Computing:
        return tr("Device busy time not covered by exposed communication.");
    case ClusterMetric::Underfeed:
        return tr("Service minus the device busy union: prelaunch + internal bubbles + tail.");
    case ClusterMetric::Free:
        return tr("Device-idle gaps inside the step (the profiler's Free).");
    case ClusterMetric::Prelaunch:
        return tr("From the step's start to its first device work (the profiler's Preparing).");
    case ClusterMetric::Tail:
        return tr("From the step's last device work to the end of its service window.");
    case ClusterMetric::ExposedComm:
        return tr("Communication that no computation overlaps.");
    case ClusterMetric::CommWait:
        return tr("Wait Time of the step's collectives in communication.json.");
    }
    return {};
}

QString ClusterText::rankName(const RankSummary& r) {
    const QString label = coreText(r.label);
    if (r.rankId < 0) return label;
    return r.idShared ? tr("rank %1 (%2)").arg(r.rankId).arg(label) : tr("rank %1").arg(r.rankId);
}

QString ClusterText::rankFullName(const RankSummary& r) {
    const QString label = coreText(r.label);
    if (r.rankId < 0) return label;
    return tr("rank %1 — %2").arg(r.rankId).arg(label);
}

QString ClusterText::stepName(std::int64_t step) {
    return step < 0 ? tr("whole capture") : tr("step %1").arg(step);
}

TimeNs metricOf(const RankStepRow& row, ClusterMetric m) {
    switch (m) {
    case ClusterMetric::Service:
        return row.service;
    case ClusterMetric::Computing:
        return row.computing;
    case ClusterMetric::Underfeed:
        return row.service - row.computing - row.commNotOverlapped;
    case ClusterMetric::Free:
        return row.free;
    case ClusterMetric::Prelaunch:
        return row.preparing;
    case ClusterMetric::Tail:
        return row.tail;
    case ClusterMetric::ExposedComm:
        return row.commNotOverlapped;
    case ClusterMetric::CommWait:
        return row.commWait;
    }
    return 0;
}

std::optional<TimeNs> rankMetric(const RankSummary& rank, std::int64_t step, ClusterMetric m) {
    if (!rank.error.empty()) return std::nullopt;
    for (const auto& row : rank.steps)
        if (row.step == step) {
            if (m == ClusterMetric::CommWait && !row.commFromJson) return std::nullopt;
            return metricOf(row, m);
        }
    return std::nullopt;
}

std::optional<TimeNs> clusterMedian(const ClusterResult& c, std::int64_t step, ClusterMetric m) {
    std::vector<TimeNs> v;
    for (const auto& r : c.ranks)
        if (const auto x = rankMetric(r, step, m)) v.push_back(*x);
    if (v.empty()) return std::nullopt;
    return medianOf(std::move(v));
}

int medianRank(const ClusterResult& c) {
    std::vector<std::pair<TimeNs, int>> totals;
    for (std::size_t i = 0; i < c.ranks.size(); ++i) {
        const auto& r = c.ranks[i];
        if (!r.error.empty()) continue;
        TimeNs t = 0;
        for (const auto& s : r.steps)
            if (std::find(c.steps.begin(), c.steps.end(), s.step) != c.steps.end()) t += s.service;
        totals.push_back({t, static_cast<int>(i)});
    }
    if (totals.empty()) return -1;
    std::sort(totals.begin(), totals.end());
    return totals[(totals.size() - 1) / 2].second;
}

void fillSlowRankModel(QStandardItemModel& model, const ClusterResult& c) {
    model.clear();
    model.setHorizontalHeaderLabels({ClusterText::tr("Rank"), ClusterText::tr("Step"),
                                     ClusterText::tr("Metric"), ClusterText::tr("Value (ms)"),
                                     ClusterText::tr("Median (ms)"), ClusterText::tr("Excess (ms)"),
                                     ClusterText::tr("Spread"), ClusterText::tr("Last at")});
    for (const auto& e : c.slowRanks) {
        const RankSummary& r = c.ranks[static_cast<std::size_t>(e.rank)];
        QList<QStandardItem*> row;
        row << textItem(ClusterText::rankName(r), e.rank);
        row.back()->setToolTip(ClusterText::rankFullName(r));
        row << numberItem(ClusterText::stepName(e.step), static_cast<double>(e.step), e.rank)
            << textItem(metricLabel(e.metric), e.rank) << msItem(e.value, e.rank) << msItem(e.median, e.rank)
            << msItem(e.excess, e.rank)
            << numberItem(QStringLiteral("%1 %").arg(e.spread * 100, 0, 'f', 1), e.spread, e.rank)
            << numberItem(
                   ClusterText::tr("%1 of %2 collectives").arg(e.lastAtCollectives).arg(e.collectivesInStep),
                   static_cast<double>(e.lastAtCollectives), e.rank);
        QStringList evidence;
        for (const auto& s : e.evidence)
            evidence << coreText(s);
        for (auto* it : row)
            it->setData(evidence, Qt::UserRole);
        model.appendRow(row);
    }
}

void fillCollectiveModel(QStandardItemModel& model, const ClusterResult& c) {
    model.clear();
    model.setHorizontalHeaderLabels({ClusterText::tr("Collective / rank"), ClusterText::tr("Step"),
                                     ClusterText::tr("Last arriver"), ClusterText::tr("Wait (ms)"),
                                     ClusterText::tr("Transit (ms)"),
                                     ClusterText::tr("Start (ms after first)"),
                                     ClusterText::tr("Elapse (ms)"), ClusterText::tr("Wait ratio")});
    for (const auto& cc : c.collectives) {
        const QString last = cc.lastArriver >= 0
                                 ? ClusterText::rankName(c.ranks[static_cast<std::size_t>(cc.lastArriver)])
                                 : ClusterText::tr("none (tied)");
        TimeNs first = cc.parts.empty() ? 0 : cc.parts.front().start, transit = 0;
        for (const auto& p : cc.parts) {
            first = std::min(first, p.start);
            transit = std::max(transit, p.transit);
        }
        QList<QStandardItem*> row;
        row << textItem(coreText(cc.key), cc.lastArriver)
            << numberItem(ClusterText::stepName(cc.step), static_cast<double>(cc.step), cc.lastArriver)
            << textItem(last, cc.lastArriver) << msItem(cc.maxWait, cc.lastArriver)
            << msItem(transit, cc.lastArriver) << msItem(cc.skew, cc.lastArriver)
            << textItem(QString(), cc.lastArriver)
            << numberItem(QString::number(cc.waitRatio, 'f', 3), cc.waitRatio, cc.lastArriver);
        row[3]->setToolTip(ClusterText::tr("The largest wait of any rank at this collective."));
        row[4]->setToolTip(ClusterText::tr("The largest transit time of any rank at this collective."));
        row[5]->setToolTip(ClusterText::tr("Skew: the last rank's start after the first one's."));
        for (const auto& p : cc.parts) {
            const RankSummary& r = c.ranks[static_cast<std::size_t>(p.rank)];
            QList<QStandardItem*> part;
            part << textItem(ClusterText::rankName(r), p.rank) << textItem(QString(), p.rank)
                 << textItem(p.rank == cc.lastArriver ? ClusterText::tr("arrives last") : QString(), p.rank)
                 << msItem(p.wait, p.rank) << msItem(p.transit, p.rank) << msItem(p.start - first, p.rank)
                 << msItem(p.elapse, p.rank) << textItem(QString(), p.rank);
            part[0]->setToolTip(ClusterText::rankFullName(r));
            row.front()->appendRow(part);
        }
        model.appendRow(row);
    }
}

void fillCompareModel(QStandardItemModel& model, const ClusterResult& c, int rank) {
    model.clear();
    if (rank < 0 || rank >= static_cast<int>(c.ranks.size())) return;
    const RankSummary& r = c.ranks[static_cast<std::size_t>(rank)];
    const int mid = medianRank(c);
    std::size_t analysed = 0;
    for (const auto& x : c.ranks)
        analysed += x.error.empty() ? 1 : 0;
    model.setHorizontalHeaderLabels(
        {ClusterText::tr("Step"), ClusterText::tr("Metric"),
         ClusterText::rankName(r) + ClusterText::tr(" (ms)"),
         ClusterText::tr("Median of %1 ranks (ms)").arg(analysed), ClusterText::tr("Difference (ms)"),
         mid >= 0 ? ClusterText::tr("Median rank: %1 (ms)")
                        .arg(ClusterText::rankName(c.ranks[static_cast<std::size_t>(mid)]))
                  : ClusterText::tr("Median rank (ms)")});
    for (std::int64_t step : c.steps) {
        for (ClusterMetric m : kClusterMetrics) {
            const auto median = clusterMedian(c, step, m);
            if (!median) continue; // no rank has the figure (comm wait without communication.json)
            const auto mine = rankMetric(r, step, m);
            const auto other = mid >= 0 ? rankMetric(c.ranks[static_cast<std::size_t>(mid)], step, m)
                                        : std::optional<TimeNs>{};
            QList<QStandardItem*> row;
            row << numberItem(ClusterText::stepName(step), static_cast<double>(step), rank)
                << textItem(ClusterText::metricName(m), rank);
            row << (mine ? msItem(*mine, rank) : textItem(ClusterText::tr("—"), rank))
                << msItem(*median, rank);
            if (mine) {
                auto* diff = msItem(*mine - *median, rank);
                if (*mine > *median) diff->setText(QLatin1Char('+') + diff->text());
                row << diff;
            } else {
                row << textItem(QString(), rank);
            }
            row << (other ? msItem(*other, mid) : textItem(ClusterText::tr("—"), mid));
            model.appendRow(row);
        }
    }
}

} // namespace bs::ui
