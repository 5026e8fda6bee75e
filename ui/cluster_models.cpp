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
    case ClusterMetric::Cost:
        return tr("Lateness cost");
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
    case ClusterMetric::Cost:
        return tr("What the other ranks wait for this rank in the step, summed over its collectives.");
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
    case ClusterMetric::Cost:
        return 0; // a cluster figure: cellMetric
    }
    return 0;
}

std::optional<TimeNs> rankMetric(const RankSummary& rank, std::int64_t step, ClusterMetric m) {
    if (!rank.error.empty() || m == ClusterMetric::Cost) return std::nullopt;
    for (const auto& row : rank.steps)
        if (row.step == step) {
            if (m == ClusterMetric::CommWait && !row.commFromJson) return std::nullopt;
            return metricOf(row, m);
        }
    return std::nullopt;
}

std::optional<TimeNs> cellMetric(const ClusterResult& c, int rank, std::int64_t step, ClusterMetric m) {
    if (rank < 0 || rank >= static_cast<int>(c.ranks.size())) return std::nullopt;
    const RankSummary& r = c.ranks[static_cast<std::size_t>(rank)];
    if (m != ClusterMetric::Cost) return rankMetric(r, step, m);
    if (!r.error.empty()) return std::nullopt;
    const auto it = std::find(c.steps.begin(), c.steps.end(), step);
    if (it == c.steps.end()) return std::nullopt;
    const auto si = static_cast<std::size_t>(it - c.steps.begin());
    if (si >= c.stepCost.size()) return TimeNs{0};
    const auto& row = c.stepCost[si];
    return static_cast<std::size_t>(rank) < row.size() ? row[static_cast<std::size_t>(rank)] : TimeNs{0};
}

bool anyCost(const ClusterResult& c) {
    for (const auto& row : c.stepCost)
        for (TimeNs v : row)
            if (v > 0) return true;
    return false;
}

std::optional<TimeNs> clusterMedian(const ClusterResult& c, std::int64_t step, ClusterMetric m) {
    std::vector<TimeNs> v;
    for (int r = 0; r < static_cast<int>(c.ranks.size()); ++r)
        if (const auto x = cellMetric(c, r, step, m)) v.push_back(*x);
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

QString ClusterText::causeName(const std::string& lead) {
    if (lead == "step_start") return tr("step start");
    if (lead == "prelaunch") return tr("prelaunch");
    if (lead == "computing") return tr("computing");
    if (lead == "free") return tr("idle");
    if (lead == "comm_exposed") return tr("exposed communication");
    if (lead == "unexplained") return tr("unexplained");
    return coreText(lead);
}

TimeNs causeTerm(const SlowCause& k) {
    if (k.lead == "step_start") return k.stepStart;
    if (k.lead == "prelaunch") return k.prelaunch;
    if (k.lead == "computing") return k.computing;
    if (k.lead == "free") return k.free;
    if (k.lead == "comm_exposed") return k.commExposed;
    return k.rest;
}

void fillSlowRankModel(QStandardItemModel& model, const ClusterResult& c) {
    model.clear();
    model.setHorizontalHeaderLabels(
        {ClusterText::tr("Rank"), ClusterText::tr("Slow in"), ClusterText::tr("Cost per step (ms)"),
         ClusterText::tr("Expected gain (ms)"), ClusterText::tr("Cluster loss (ms)"), ClusterText::tr("Lateness (ms)"),
         ClusterText::tr("Collective"), ClusterText::tr("Cause"), ClusterText::tr("Cause term (ms)")});
    for (std::size_t i = 0; i < c.slowRanks.size(); ++i) {
        const SlowRank& e = c.slowRanks[i];
        const RankSummary& r = c.ranks[static_cast<std::size_t>(e.rank)];
        QList<QStandardItem*> row;
        row << textItem(ClusterText::rankName(r), e.rank);
        row.back()->setToolTip(ClusterText::rankFullName(r));
        row << numberItem(ClusterText::tr("slow in %1 of %2 steps").arg(e.steps.size()).arg(e.stepsCompared),
                          static_cast<double>(e.steps.size()), e.rank)
            << msItem(e.cost, e.rank)
            << (e.predicted ? msItem(e.predictedGain, e.rank) : numberItem(ClusterText::tr("none"), -1, e.rank))
            << msItem(e.clusterLoss, e.rank) << msItem(e.lateness, e.rank)
            << textItem(e.collective.empty()
                            ? QString()
                            : ClusterText::tr("%1 (%2)").arg(coreText(e.collective),
                                                             ClusterText::stepName(e.collectiveStep)),
                        e.rank)
            << textItem(e.cause.lead.empty() ? QString() : ClusterText::causeName(e.cause.lead), e.rank)
            << (e.cause.lead.empty() ? textItem(QString(), e.rank) : msItem(causeTerm(e.cause), e.rank));
        row[2]->setToolTip(
            ClusterText::tr("Per slow step: what the other ranks wait for this one (the median "
                            "rank's wait, summed over the step's collectives)."));
        row[3]->setToolTip(ClusterText::tr("Per slow step, if this rank arrived on time: the step time a waiting "
                                           "rank saves (the median over them), replayed on each one's own trace.") +
                           QLatin1Char('\n') + coreText(e.prediction));
        row[4]->setToolTip(ClusterText::tr("Per slow step: every other rank's wait for this one, summed."));
        row[5]->setToolTip(
            ClusterText::tr("At its costliest collective: its arrival after the earliest rank's "
                            "(aligned clocks)."));
        for (auto* it : row)
            it->setData(static_cast<int>(i), SlowIndexRole);
        model.appendRow(row);
    }
}

QString ClusterText::confidenceName(const std::string& confidence) {
    if (confidence == "high") return tr("high");
    if (confidence == "medium") return tr("medium");
    if (confidence == "undetermined") return tr("undetermined");
    return coreText(confidence);
}

QString ClusterText::severityName(const std::string& severity) {
    if (severity == "info") return tr("info");
    if (severity == "warning") return tr("warning");
    if (severity == "error") return tr("error");
    return coreText(severity);
}

void fillCollectiveModel(QStandardItemModel& model, const ClusterResult& c) {
    model.clear();
    model.setHorizontalHeaderLabels(
        {ClusterText::tr("Collective / rank"), ClusterText::tr("Step"), ClusterText::tr("Last arriver"),
         ClusterText::tr("Confidence"), ClusterText::tr("Lateness (ms)"),
         ClusterText::tr("Earliest rank's sync (ms)"), ClusterText::tr("Wait (ms)"),
         ClusterText::tr("Aligned start (ms)"), ClusterText::tr("Raw start (ms)"),
         ClusterText::tr("Sync (ms)"), ClusterText::tr("Transit (ms)"), ClusterText::tr("Elapse (ms)")});
    if (auto* h = model.horizontalHeaderItem(7))
        h->setToolTip(
            ClusterText::tr("The rank's start on the aligned clock, after the first aligned arrival."));
    if (auto* h = model.horizontalHeaderItem(8))
        h->setToolTip(ClusterText::tr("The rank's start on its own clock, after the earliest raw start."));
    for (const auto& cc : c.collectives) {
        const int lr = cc.lastArriver;
        const QString last = lr >= 0 ? ClusterText::rankName(c.ranks[static_cast<std::size_t>(lr)])
                                     : ClusterText::tr("undetermined");
        TimeNs firstRaw = cc.parts.empty() ? 0 : cc.parts.front().start;
        TimeNs firstAligned = cc.parts.empty() ? 0 : cc.parts.front().aligned, transit = 0;
        for (const auto& p : cc.parts) {
            firstRaw = std::min(firstRaw, p.start);
            firstAligned = std::min(firstAligned, p.aligned);
            transit = std::max(transit, p.transit);
        }
        QList<QStandardItem*> row;
        row << textItem(coreText(cc.key), lr)
            << numberItem(ClusterText::stepName(cc.step), static_cast<double>(cc.step), lr)
            << textItem(last, lr) << textItem(ClusterText::confidenceName(cc.confidence), lr)
            << msItem(cc.lateness, lr) << msItem(cc.earliestSync, lr) << msItem(cc.maxWait, lr)
            << textItem(QString(), lr) << textItem(QString(), lr) << textItem(QString(), lr)
            << msItem(transit, lr) << textItem(QString(), lr);
        row[0]->setToolTip(
            ClusterText::tr("%1 ranks have it; %2 shown.").arg(cc.ranksTotal).arg(cc.parts.size()));
        row[4]->setToolTip(
            ClusterText::tr("The last arrival after the earliest one, on the aligned clock; the "
                            "next latest arrives %1 ms before the last.")
                .arg(ms(cc.secondGap)));
        row[5]->setToolTip(
            ClusterText::tr("The earliest rank's synchronization time: how long it waited for the "
                            "others to arrive."));
        row[6]->setToolTip(ClusterText::tr("The largest wait of any rank at this collective."));
        row[10]->setToolTip(ClusterText::tr("The largest transit time of any rank at this collective."));
        for (const auto& p : cc.parts) {
            const RankSummary& r = c.ranks[static_cast<std::size_t>(p.rank)];
            QList<QStandardItem*> part;
            part << textItem(ClusterText::rankName(r), p.rank) << textItem(QString(), p.rank)
                 << textItem(p.rank == lr ? ClusterText::tr("arrives last") : QString(), p.rank)
                 << textItem(QString(), p.rank) << textItem(QString(), p.rank) << textItem(QString(), p.rank)
                 << msItem(p.wait, p.rank) << msItem(p.aligned - firstAligned, p.rank)
                 << msItem(p.start - firstRaw, p.rank) << msItem(p.sync, p.rank) << msItem(p.transit, p.rank)
                 << msItem(p.elapse, p.rank);
            part[0]->setToolTip(ClusterText::rankFullName(r));
            part[8]->setToolTip(ClusterText::tr("Raw start: %1 µs on the rank's own clock.")
                                    .arg(QString::number(static_cast<double>(p.start) / 1000.0, 'f', 3)));
            if (p.rank == lr)
                for (auto* it : part)
                    it->setData(true, LastArriverRole);
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
            const auto mine = cellMetric(c, rank, step, m);
            const auto other = mid >= 0 ? cellMetric(c, mid, step, m) : std::optional<TimeNs>{};
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
