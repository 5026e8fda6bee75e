#pragma once
// Several ranks of one collection (the cluster view): what is kept of each rank after its analysis —
// a summary, never the full model — and what the ranks say together. Plain data, no Qt.
#include "model/time.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bs {

// One step of one rank under msprof-analyze's cluster_step_trace_time.csv columns (all ns).
struct RankStepRow {
    std::int64_t step = -1; // step number (-1: the pseudo-step)
    TimeNs computing = 0;          // device busy not covered by exposed communication
    TimeNs commNotOverlapped = 0;  // HCCL time no other kernel overlaps
    TimeNs overlapped = 0;         // HCCL time another kernel overlaps
    TimeNs communication = 0;      // HCCL busy union
    TimeNs free = 0;               // internal bubbles
    TimeNs stage = 0;              // computing + comm not overlapped + free
    TimeNs bubble = 0;             // receive (p2p) time not overlapped
    TimeNs commNotOverlappedExclReceive = 0;
    TimeNs preparing = 0;          // prelaunch gap
    TimeNs service = 0, tail = 0;
    bool commFromJson = false;     // communication.json exists: wait / transit are known
    TimeNs commWait = 0, commTransit = 0;
};

struct RankWindow {
    std::string id, scope, step;
    TimeNs start = 0, dur = 0;
    std::vector<std::string> labels;
};

// One communication.json op of one rank (only until the rank is folded into the cluster: ClusterBuilder).
struct RankCollective {
    std::string key;       // the name without its "@…" suffix: what is matched across ranks
    std::int64_t step = -1;
    TimeNs start = 0, elapse = 0, wait = 0, transit = 0;
};

inline constexpr std::size_t kMaxDataProblems = 8;

struct RankSummary {
    std::string label, folder;
    int rankId = -1;    // from profiler_info's rank_id, else the folder name's digits
    bool idShared = false; // another folder has the same rank id: names carry the label
    std::string error;  // not analysed: why (the other fields are empty)
    // Collection config (profiler_info_*.json), empty when absent.
    std::string profilerLevel, aicMetrics, activities;
    std::vector<RankStepRow> steps;
    std::vector<RankWindow> topWindows; // largest first, at most 5
    std::vector<RankCollective> collectives;
    bool hasCommunicationJson = false;
    bool hiddenIssue = false;
    // Files the rank was analysed without (an error of its load: a trace that could not be read, where the
    // kernel table stood in): "FILE: what was seen", at most kMaxDataProblems. The cluster names each.
    std::vector<std::string> dataProblems;
    // The rank's own step_trace_time.csv figures beside ours: number of steps matched / mismatched.
    std::size_t crossCheckRows = 0, crossCheckMismatches = 0;
    // First kernel start and last kernel end (absolute ns): ranks of one collection overlap in time.
    TimeNs captureStart = 0, captureEnd = 0;
};

// One rank's part in a collective matched across ranks.
struct CollectivePart {
    int rank = -1; // index into ClusterResult::ranks
    TimeNs start = 0, elapse = 0, wait = 0, transit = 0;
};

inline constexpr std::size_t kCollectivePartsKept = 16;

struct ClusterCollective {
    std::string key;
    std::int64_t step = -1;
    std::size_t ranksTotal = 0;        // ranks that have it
    // One per rank that has it, by rank, when at most kCollectivePartsKept ranks have it; else the
    // kCollectivePartsKept / 2 smallest waits (the last arrivers) and as many largest (who waits for them).
    std::vector<CollectivePart> parts;
    int lastArriver = -1;              // rank index with the smallest wait (ties: the latest start)
    TimeNs skew = 0;                   // max start − min start
    TimeNs maxWait = 0;
    double waitRatio = 0;              // over all ranks: Σwait / (Σwait + Σtransit)
};

struct SlowRankEntry {
    int rank = -1; // index into ClusterResult::ranks
    std::int64_t step = -1;
    std::string metric;             // computing / free / prelaunch / comm_not_overlapped
    TimeNs value = 0, median = 0, excess = 0;
    double spread = 0;              // (max − min) / mean over ranks
    std::size_t lastAtCollectives = 0, collectivesInStep = 0;
    TimeNs othersWaitMax = 0;       // the largest wait of another rank at a collective it arrived last at
    std::string worstCollective;    // that collective
    bool corroborated = false;      // last arriver at ≥ 1 collective of the step (or no communication.json)
    std::vector<std::string> evidence; // sentences
    // evidence[0] restates the metric against the median; evidence[1], when present, says who waits for it at
    // which collective (or that no shared collective lets us check). Verdicts carry both, so reports that
    // print a verdict list only the sentences after them.
    std::size_t restatedEvidence = 0;
};

struct ClusterFinding {
    std::string id, severity, message;
};

// cluster_analysis_output/cluster_step_trace_time.csv beside our table.
struct ClusterCrossCheck {
    bool available = false;
    std::string file;
    std::size_t compared = 0, mismatches = 0; // figures compared / differing > 0.5 % and > 1 µs
    std::vector<std::string> mismatchNotes;   // first few
};

struct ClusterResult {
    std::vector<RankSummary> ranks; // discovery order, failed ranks included
    std::vector<std::int64_t> steps; // the majority's step numbers
    std::vector<ClusterCollective> collectives; // by largest wait, top 20
    std::size_t collectivesMatched = 0;
    std::vector<std::size_t> lastArriverCount; // per rank, over every matched collective
    std::vector<SlowRankEntry> slowRanks;
    std::vector<ClusterFinding> findings;
    ClusterCrossCheck crossCheck;
};

} // namespace bs
