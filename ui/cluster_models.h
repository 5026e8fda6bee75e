#pragma once
// What the Cluster view shows, taken from the core's ClusterResult: the heatmap metrics, the median per
// step, rank names, and the item models of the slow-rank list, the collectives and the median comparison.
// Formatting only: every figure and sentence comes from the core.
#include "model/time.h"

#include <QCoreApplication>
#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

class QStandardItemModel;

namespace bs {
struct ClusterResult;
struct RankStepRow;
struct RankSummary;
struct SlowCause;
} // namespace bs

namespace bs::ui {

// Cost: what the other ranks wait for the rank in the step (ClusterResult::stepCost), a cluster figure.
enum class ClusterMetric {
    Service,
    Computing,
    Underfeed,
    Free,
    Prelaunch,
    Tail,
    ExposedComm,
    CommWait,
    Cost
};
inline constexpr ClusterMetric kClusterMetrics[] = {
    ClusterMetric::Cost,      ClusterMetric::Service,     ClusterMetric::Computing,
    ClusterMetric::Underfeed, ClusterMetric::Free,        ClusterMetric::Prelaunch,
    ClusterMetric::Tail,      ClusterMetric::ExposedComm, ClusterMetric::CommWait};

// Item roles of the cluster models.
enum ClusterRole {
    RankIndexRole = 0x0100 + 40, // int: index into ClusterResult::ranks (-1: none)
    SortRole,                    // the number behind a cell
    SlowIndexRole,               // int: index into ClusterResult::slowRanks (the slow-rank list)
    LastArriverRole,             // bool: the collective's part of its last arriver
};

class ClusterText {
    Q_DECLARE_TR_FUNCTIONS(ClusterText)
  public:
    static QString metricName(ClusterMetric m);
    static QString metricHelp(ClusterMetric m);
    // "rank 1" (or the label when the rank has no id, "rank 1 (label)" when two folders share the id).
    static QString rankName(const RankSummary& r);
    // "rank 1 — level1/rank1_ascend_pt": the name with the folder in full.
    static QString rankFullName(const RankSummary& r);
    static QString stepName(std::int64_t step);
    // The lead of a slow rank's cause (SlowCause::lead) in words: "computing", "idle", …
    static QString causeName(const std::string& lead);
    static QString confidenceName(const std::string& confidence); // high / medium / undetermined
    static QString severityName(const std::string& severity);     // a finding's: info / warning / error
};

// The term of the cause its lead names (the rest when unexplained).
TimeNs causeTerm(const SlowCause& cause);

// A figure of one step row (the core's numbers; underfeed = service − device busy union).
TimeNs metricOf(const RankStepRow& row, ClusterMetric m);
// The rank's figure for `step`, or nothing when the rank has no such step (or was not analysed); nothing
// for Cost, a figure of the cluster (cellMetric).
std::optional<TimeNs> rankMetric(const RankSummary& rank, std::int64_t step, ClusterMetric m);
// The figure of rank `rank` (index into c.ranks) in `step`, Cost included.
std::optional<TimeNs> cellMetric(const ClusterResult& c, int rank, std::int64_t step, ClusterMetric m);
// Whether any rank has a lateness cost (the heatmap then opens on Cost).
bool anyCost(const ClusterResult& c);
// The median of the figure over the analysed ranks that have the step (the median slow-rank entries use).
std::optional<TimeNs> clusterMedian(const ClusterResult& c, std::int64_t step, ClusterMetric m);
// Index of the analysed rank whose total service over the steps is the median one (-1: none).
int medianRank(const ClusterResult& c);

void fillSlowRankModel(QStandardItemModel& model, const ClusterResult& c);
// Columns of the collectives table (a collective's row, its ranks' rows under it).
enum CollectiveColumn {
    kCollectiveNameColumn,
    kCollectiveStepColumn,
    kCollectiveLastColumn,
    kCollectiveConfidenceColumn,
    kCollectiveLatenessColumn,
    kCollectiveEarliestSyncColumn,
    kCollectiveWaitColumn,
    kCollectiveAlignedStartColumn,
    kCollectiveRawStartColumn,
    kCollectiveSyncColumn,
    kCollectiveTransitColumn,
    kCollectiveElapseColumn
};
void fillCollectiveModel(QStandardItemModel& model, const ClusterResult& c);
// Rows (step, metric): the rank's figure, the cluster median, the difference.
void fillCompareModel(QStandardItemModel& model, const ClusterResult& c, int rank);

} // namespace bs::ui
