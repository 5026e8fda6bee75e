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
inline constexpr int kRankSummaryFormat = 4; // 2: data_problems; 3: sync, steps' ops and windows, step start;
                                              // 4: the replayed gains of the waits (§15)

// `producer` is the writing program and version ("bubblescope 0.1.0"); the merge accepts only its own.
// `collection` is the folder of the whole collection the rank was found under (`analyze PARENT --shard`),
// empty when the rank was analysed on its own: the merge lists it to name ranks without a summary.
// `compareDigest` (renderCompareDigestJson, may be empty) becomes the "compare" member: `bubblescope compare
// SUMMARY NEW` compares against it.
std::string renderRankSummaryJson(const RankSummary& s, std::string_view producer, std::string_view collection = {},
                                  std::string_view compareDigest = {});

struct ParsedRankSummary {
    RankSummary summary;
    std::string producer;
    std::string collection; // the collection folder it records ("" when none)
    std::string error; // not a summary we can read: why (the summary is then empty)
};
// `file` only names the source in messages.
ParsedRankSummary parseRankSummaryJson(std::string_view text, const std::string& file);

// Merges summary files through ClusterBuilder (one file in memory at a time), in the order `analyze PARENT`
// takes the ranks (by label, folder by folder in natural order), whatever the order of `files`. A file is refused — named in
// a `summary_refused` finding, never silently dropped — when it is unreadable, of another format or
// producer, holds a value no analysis writes (a negative duration, a reversed capture, rank_id < -1, …), records
// another collection, or its capture does not overlap the time span most summaries share (core/cluster/README.md).
// `parentDir` as in ClusterBuilder::finish (empty: no cluster CSV cross-check).
ClusterResult mergeRankSummaryFiles(const std::vector<std::string>& files, std::string_view producer,
                                    const std::string& parentDir);

// The merge as `bubblescope cluster` runs it: it also names every rank of the collection that has no summary.
struct SummaryMergeOptions {
    std::string producer;
    // The collection folder: searched for the cluster CSV cross-check and listed for the ranks expected
    // (each must have a summary). Empty: the folder most summaries record (`collection`), when it exists here.
    std::string expectParent;
};
struct SummaryMerge {
    ClusterResult cluster;
    std::string collection;       // the folder listed for the expected ranks ("" when none could be)
    std::size_t merged = 0;       // summaries folded in
    std::vector<std::string> missing, refused; // labels without a summary; refusal messages
};
// A rank without a summary joins as not analysed ("no summary …", finding `summary_missing`), in its place; a
// summary of a rank the listed collection does not have is refused.
SummaryMerge mergeSummaries(const std::vector<std::string>& files, const SummaryMergeOptions& options);

// "bubblescope <version>": what this program writes as a summary's producer and accepts in a merge.
std::string summaryProducer();
// The summary files directly inside `dir` (*.summary.json), by name; empty when none or not a folder.
std::vector<std::string> summaryFilesIn(const std::string& dir);

// The file name a rank's summary gets in a summary folder: the label with every byte outside
// [A-Za-z0-9._-] written %XX, then ".summary.json" (unique per label, the same on every machine).
std::string summaryFileName(const std::string& label);
inline constexpr const char* kSummarySuffix = ".summary.json";

} // namespace bs
