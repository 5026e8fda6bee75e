#pragma once
// Several ranks of one collection (the cluster view): what is kept of each rank after its analysis —
// a summary, never the full model — and what the ranks say together. Plain data, no Qt.
#include "model/time.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bs {

// One op name's device time in one step of one rank (compute and communication kernels alike).
struct RankOpTotal {
    std::string name;
    std::uint32_t calls = 0;
    TimeNs dur = 0;
};

struct RankWindow {
    std::string id, scope, step;
    TimeNs start = 0, dur = 0;
    std::vector<std::string> labels;
    // Its position in the step, as compare matches windows (ANALYSIS.md §14): the kernel before, the kernel
    // after, the occurrence of that (scope, before, after) among the step's gaps. Empty for top windows.
    std::string before, after;
    std::uint32_t occurrence = 0;
    std::string userLine; // the top user line of the host activity behind it ("" when none)
};

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
    TimeNs start = 0;              // the step window's start (absolute, the rank's own clock)
    // ANALYSIS.md §15 for §13.3: the step time the rank saves when every wait for its peers of the step
    // (each collective's Synchronization Time, `waitsReplayed` of them) is removed at once, replayed; -1 when
    // not replayed (no communication.json, no collective's kernel in the trace); `replayError`: |replayed −
    // measured| service of the unchanged step (the self-check).
    TimeNs waitsGain = -1;
    std::uint32_t waitsReplayed = 0;
    TimeNs replayError = 0;
    std::vector<RankOpTotal> ops;  // every op name of the step, by name
    std::vector<RankWindow> windows; // the step's significant windows, longest first, at most kStepWindowsKept
};

inline constexpr std::size_t kStepWindowsKept = 8;

// One communication.json op of one rank (only until the rank is folded into the cluster: ClusterBuilder).
struct RankCollective {
    std::string key;       // the name without its "@…" suffix: what is matched across ranks
    std::int64_t step = -1;
    TimeNs start = 0, elapse = 0, wait = 0, transit = 0, sync = 0;
    // The rank's device from its step's first kernel to this op's start: compute-busy, idle, exposed
    // communication (the step's prelaunch comes before them). 0 when the op lies outside its step.
    TimeNs beforeComputing = 0, beforeFree = 0, beforeExposed = 0;
    // §15: the step time the rank saves when its wait for the peers here (sync) goes, replayed alone: 0 when
    // it did not wait; kGainStepOnly when its wait is only in the step's all-at-once replay (the step's replays
    // alone are used up: kWaitReplaysPerStep, the longest waits first); kGainNotReplayed when its kernel is not
    // in the trace (or lies in another step), or the rank has no communication.json.
    TimeNs gain = -2;
};

inline constexpr TimeNs kGainStepOnly = -1, kGainNotReplayed = -2;

inline constexpr std::size_t kWaitReplaysPerStep = 64;

inline constexpr std::size_t kMaxDataProblems = 8;

// A rank's device on one line, for the multi-rank timeline (never written to a summary file): the merged
// busy intervals, its communication kernels merged, its steps. Absolute times on the rank's own clock.
struct RankLanes {
    std::vector<std::pair<TimeNs, TimeNs>> busy, comm;
    std::vector<std::pair<std::int64_t, std::pair<TimeNs, TimeNs>>> steps; // step number, window
};

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
    // Filled only when the cluster is analysed for the window (ClusterOptions::lanes).
    std::shared_ptr<const RankLanes> lanes;
};

// One rank's part in a collective matched across ranks.
struct CollectivePart {
    int rank = -1; // index into ClusterResult::ranks
    TimeNs start = 0, elapse = 0, wait = 0, transit = 0, sync = 0;
    TimeNs aligned = 0; // start − the rank's clock offset (ANALYSIS.md §13.1)
    TimeNs gain = kGainNotReplayed; // RankCollective::gain
};

inline constexpr std::size_t kCollectivePartsKept = 16;
struct ClusterCollective;
// The parts the outputs list: all of them up to kCollectivePartsKept, else the latest and the earliest
// arrivals (kCollectivePartsKept / 2 each), by rank.
std::vector<CollectivePart> partsListed(const ClusterCollective& c);

// Per rank (ANALYSIS.md §13.1): its clock against the reference rank's.
struct ClockOffset {
    int rank = -1;       // index into ClusterResult::ranks
    int reference = -1;  // the rank its offset is counted from (itself for a reference)
    int via = -1;        // the rank it was chained through (-1: measured against the reference directly)
    TimeNs offset = 0;   // its clock − the reference's clock
    TimeNs spread = 0;   // median absolute deviation of the end differences
    std::size_t collectives = 0; // collectives whose ends were compared (0: no shared collective, offset 0)
};

struct ClusterCollective {
    std::string key;
    std::int64_t step = -1;
    std::size_t ranksTotal = 0;        // ranks that have it
    // One per rank that has it, by rank (the JSON lists at most kCollectivePartsKept: beyond that the
    // kCollectivePartsKept / 2 latest arrivals and as many earliest, partsListed()).
    std::vector<CollectivePart> parts;
    int lastArriver = -1;              // rank index, by aligned arrival; -1 when undetermined
    std::string confidence;            // high / medium / undetermined (§13.2)
    TimeNs lateness = 0;               // last arrival − earliest arrival (aligned)
    TimeNs secondGap = 0;              // last arrival − the next latest arrival
    TimeNs earliestSync = 0;           // the earliest arriver's synchronization (its wait when sync is absent)
    std::size_t corroborating = 0, others = 0; // other ranks whose synchronization agrees with their gap
    TimeNs skew = 0;                   // max − min aligned arrival
    TimeNs maxWait = 0;
    double waitRatio = 0;              // over all ranks: Σwait / (Σwait + Σtransit)
};

struct CauseOp {
    std::string name;
    double callsMedian = 0, callsRank = 0; // per step, averaged over the slow steps
    TimeNs delta = 0;                      // device time, the rank − the median rank, per step
};

struct CauseWindow {
    std::int64_t step = -1;
    std::string id, scope, userLine;
    TimeNs dur = 0, medianDur = -1; // the median rank's window at the same position (-1: it has none)
    std::vector<std::string> labels;
};

// The cause of a rank's lateness against the step's median rank (§13.3), averaged over its slow steps.
struct SlowCause {
    std::string lead; // step_start / prelaunch / computing / free / comm_exposed
    TimeNs stepStart = 0, prelaunch = 0, computing = 0, free = 0, commExposed = 0, rest = 0;
    TimeNs lateness = 0; // its arrival − the median rank's (the terms add up to it)
    std::vector<CauseOp> ops;         // computing: the ops that took longer, largest Δ first (at most 3)
    std::vector<CauseWindow> windows; // prelaunch / free: windows the median rank lacks or has shorter
};

struct SlowRank {
    int rank = -1; // index into ClusterResult::ranks
    std::vector<std::int64_t> steps; // the steps it is slow in
    std::size_t stepsCompared = 0;   // steps it was compared in
    TimeNs cost = 0;          // per slow step: Σ over its collectives of the others' median wait for it
    TimeNs clusterLoss = 0;   // per slow step: Σ over its collectives of every other rank's wait for it
    std::size_t ranksWaiting = 0;     // at its costliest collective
    std::string collective;           // its costliest collective
    std::int64_t collectiveStep = -1;
    TimeNs lateness = 0;              // at that collective
    SlowCause cause;
    // §15: what its arriving on time is worth, per slow step (averaged): the median over the ranks waiting for
    // it of the step time each saves (its waits for it removed, replayed on its own model), and their sum
    // (device time of the cluster). `predicted` false: `replayMissing` says why.
    bool predicted = false;
    TimeNs predictedGain = 0, predictedLoss = 0;
    double predictedGainPct = 0; // of the waiting ranks' median service in those steps
    double replayErrorPct = 0;   // the largest self-check error of the replays used
    bool lowConfidence = false;  // replayErrorPct over 2 % (ANALYSIS.md §15)
    std::size_t ranksPredicted = 0; // waiting ranks whose gain was replayed (in the steps counted)
    std::size_t ranksWaitingAll = 0; // ranks waiting for it (in those steps): the others' waits were not replayed
    std::string replayMissing;
    std::string prediction;           // the prediction in words (the verdict's last sentences)
    std::string verdict;              // one sentence
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
    std::vector<ClockOffset> clockOffsets; // per rank, by rank index (failed ranks: offset 0, 0 collectives)
    std::vector<ClusterCollective> collectives; // by lateness, top 20
    std::size_t collectivesMatched = 0;
    std::vector<std::size_t> lastArriverCount; // per rank, over every matched collective (determined ones)
    // Per step of `steps` × rank: what the others wait for the rank in that step (its cost, 0 when none).
    std::vector<std::vector<TimeNs>> stepCost;
    std::vector<SlowRank> slowRanks;
    std::vector<ClusterFinding> findings;
    ClusterCrossCheck crossCheck;
};

} // namespace bs
