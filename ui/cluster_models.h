#pragma once
// What the Cluster view shows, taken from the core's ClusterResult: the heatmap metrics, the median per
// step, rank names, and the item models of the slow-rank list, the collectives and the median comparison.
// Formatting only: every figure and sentence comes from the core.
#include "model/time.h"

#include <QCoreApplication>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

class QStandardItemModel;

namespace bs {
struct ClusterResult;
struct RankStepRow;
struct RankSummary;
} // namespace bs

namespace bs::ui {

enum class ClusterMetric { Service, Computing, Underfeed, Free, Prelaunch, Tail, ExposedComm, CommWait };
inline constexpr ClusterMetric kClusterMetrics[] = {
    ClusterMetric::Service,   ClusterMetric::Computing, ClusterMetric::Underfeed,   ClusterMetric::Free,
    ClusterMetric::Prelaunch, ClusterMetric::Tail,      ClusterMetric::ExposedComm, ClusterMetric::CommWait};

// Item roles of the cluster models.
enum ClusterRole {
    RankIndexRole = 0x0100 + 40, // int: index into ClusterResult::ranks (-1: none)
    SortRole,                    // the number behind a cell
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
};

// A figure of one step row (the core's numbers; underfeed = service − device busy union).
TimeNs metricOf(const RankStepRow& row, ClusterMetric m);
// The rank's figure for `step`, or nothing when the rank has no such step (or was not analysed).
std::optional<TimeNs> rankMetric(const RankSummary& rank, std::int64_t step, ClusterMetric m);
// The median of the figure over the analysed ranks that have the step (the median slow-rank entries use).
std::optional<TimeNs> clusterMedian(const ClusterResult& c, std::int64_t step, ClusterMetric m);
// Index of the analysed rank whose total service over the steps is the median one (-1: none).
int medianRank(const ClusterResult& c);

void fillSlowRankModel(QStandardItemModel& model, const ClusterResult& c);
void fillCollectiveModel(QStandardItemModel& model, const ClusterResult& c);
// Rows (step, metric): the rank's figure, the cluster median, the difference.
void fillCompareModel(QStandardItemModel& model, const ClusterResult& c, int rank);

} // namespace bs::ui
