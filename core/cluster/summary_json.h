#pragma once
// One rank's summary as a file: what a Slurm array task (`analyze --summary`) writes and the merge
// (`bubblescope cluster`) reads. Versioned JSON, every time an exact int64 ns; the merge folds the files
// through the same ClusterBuilder as `analyze PARENT`, so both paths give the same cluster result.
#include "cluster/cluster_model.h"

#include <string>
#include <string_view>
#include <vector>

namespace bs {

// The "bubblescope_rank_summary" field: bumped whenever a field changes meaning.
inline constexpr int kRankSummaryFormat = 1;

// `producer` is the writing program and version ("bubblescope 0.1.0"); the merge accepts only its own.
std::string renderRankSummaryJson(const RankSummary& s, std::string_view producer);

struct ParsedRankSummary {
    RankSummary summary;
    std::string producer;
    std::string error; // not a summary we can read: why (the summary is then empty)
};
// `file` only names the source in messages.
ParsedRankSummary parseRankSummaryJson(std::string_view text, const std::string& file);

// Merges summary files through ClusterBuilder (one file in memory at a time), in the order `analyze PARENT`
// takes the ranks (by label, folder by folder in natural order), whatever the order of `files`. A file is refused — named in
// a `summary_refused` finding, never silently dropped — when it is unreadable, of another format or
// producer, or of another collection (its capture does not overlap the time span most summaries share).
// `parentDir` as in ClusterBuilder::finish (empty: no cluster CSV cross-check).
ClusterResult mergeRankSummaryFiles(const std::vector<std::string>& files, std::string_view producer,
                                    const std::string& parentDir);

} // namespace bs
