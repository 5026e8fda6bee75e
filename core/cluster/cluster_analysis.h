#pragma once
// Several ranks (the cluster view): each rank is loaded, analysed and reduced to a RankSummary one at a
// time, so memory holds one full model plus small summaries; the summaries are then compared.
#include "cluster/cluster_model.h"
#include "io/discovery.h"

namespace bs {

struct Profile;
struct AnalysisResult;
struct Rulebook;

// Whether a discovered folder is a rank: the profiler's cluster_analysis_output and advisor folders are not.
bool isRankFolder(const RankFolder& rank);

// What the cluster keeps of one analysed rank.
RankSummary summarizeRank(const RankFolder& rank, const Profile& profile, const AnalysisResult& result);
// A rank that could not be loaded or analysed: named with its error.
RankSummary failedRank(const RankFolder& rank, std::string error);

// Compares the ranks. `parentDir` is searched for cluster_analysis_output/cluster_step_trace_time.csv.
ClusterResult analyzeCluster(std::vector<RankSummary> ranks, const std::string& parentDir);

// Loads, analyses and summarizes every rank under `parentDir` one after another (bounded memory).
ClusterResult analyzeClusterFolder(const std::string& parentDir, const Rulebook& rules);

} // namespace bs
