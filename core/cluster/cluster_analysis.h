#pragma once
// Several ranks (the cluster view): each rank is loaded, analysed and reduced to a RankSummary one at a
// time, so memory holds one full model plus small summaries; the summaries are then compared.
#include "cluster/cluster_model.h"
#include "io/discovery.h"

#include <cstdint>
#include <memory>
#include <string_view>

namespace bs {

struct Profile;
struct AnalysisResult;
struct Rulebook;

// Whether a discovered folder is a rank: the profiler's cluster_analysis_output and advisor folders are not.
bool isRankFolder(const RankFolder& rank);

// What the cluster keeps of one analysed rank; `withLanes`: also its merged device lanes (the window's
// multi-rank timeline; never in a summary file).
RankSummary summarizeRank(const RankFolder& rank, const Profile& profile, const AnalysisResult& result,
                          bool withLanes = false);
// A rank that could not be loaded or analysed: named with its error.
RankSummary failedRank(const RankFolder& rank, std::string error);

// Folds the ranks in one at a time: each rank's collectives go into one cross-rank table at once (an entry
// per distinct collective holding running figures and a bounded list of parts) and leave its summary, so
// memory grows with the collectives of one rank plus small per-rank summaries, not with ranks × collectives.
class ClusterBuilder {
public:
    ClusterBuilder();
    ~ClusterBuilder();
    ClusterBuilder(ClusterBuilder&&) noexcept;
    ClusterBuilder& operator=(ClusterBuilder&&) noexcept;
    void add(RankSummary rank);
    std::size_t size() const;
    // The same in pieces, for readers that hold the collectives in another form (summary files): the rank
    // (its `collectives` left empty) gives its index; each op is then folded in by interned name.
    int beginRank(RankSummary rank);
    std::uint32_t collectiveKey(std::string_view key);
    // `op.key` is ignored: `key` stands for it.
    void addCollective(int rank, std::uint32_t key, const RankCollective& op);
    // Compares the ranks. `parentDir` is searched for cluster_analysis_output/cluster_step_trace_time.csv.
    ClusterResult finish(const std::string& parentDir);

    struct Table; // the cross-rank table (cluster_analysis.cpp)

private:
    std::unique_ptr<Table> t_;
};

// The same for summaries already in hand.
ClusterResult analyzeCluster(std::vector<RankSummary> ranks, const std::string& parentDir);

// After a rank's model is freed: returns the allocator's free pages to the system (glibc), so one rank after
// another does not creep up in peak memory through a fragmented heap.
void releaseFreedMemory();

// Loads, analyses and summarizes every rank under `parentDir` one after another (bounded memory).
// `withLanes`: every rank keeps its merged device lanes (RankSummary::lanes) for the multi-rank timeline.
ClusterResult analyzeClusterFolder(const std::string& parentDir, const Rulebook& rules, bool withLanes = false);

} // namespace bs
