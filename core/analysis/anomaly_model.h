#pragma once
// Results of anomaly discovery (ANALYSIS.md §4–8, §10.1): plain data shared by the JSON export,
// the Markdown report, the text summary and the GUI.
#include "analysis/intervals.h"
#include "analysis/rulebook.h"
#include "model/time.h"

#include <optional>
#include <string>
#include <vector>

namespace bs {

enum class WindowScope { StepInternal, Prelaunch, Tail, Global };
const char* windowScopeName(WindowScope s);

struct NeighbourKernel {
    std::size_t kernel = 0; // index into Profile::kernels
    std::string name, taskType;
    TimeNs start = 0, dur = 0, wait = 0;
    int stream = -1;
};

struct HostEventOverlap {
    std::string name, thread;
    TimeNs overlap = 0;
};

struct HostEvidence {
    bool hostTraceExists = false; // ratios are null when false
    double coverage = 0, syncRatio = 0, commRatio = 0;
    std::optional<double> parallelism;       // undefined when coverage is 0
    std::vector<HostEventOverlap> topEvents; // top 3 by overlap
    // The sync / copy and communication markers behind syncRatio and commRatio: top 3 by overlap, one
    // per nest of frames on a thread.
    std::vector<HostEventOverlap> topSyncMarkers, topCommMarkers;
};

// One frame's part in a window (core/README.md, "Stack evidence"): the host time of the events whose
// call stack puts them under that frame.
struct StackLine {
    std::string frame;     // "main.py:350 train" (file name, line, function)
    std::string frameText; // as the stack writes it: "/home/u/main.py(350): train"
    bool user = false;     // user code, not a library (site-packages, the standard library, torch…)
    TimeNs hostTime = 0;   // Σ over threads of the union of its events ∩ window (nested events once)
    double share = 0;      // union over all threads of its events ∩ window / window length
    std::size_t events = 0;
    // From the frame to the op, through the library frames under it, the middle elided:
    // "main.py:350 train → dataloader.py:630 __next__ → … → _utils.py:180 _rebuild_tensor → aten::to".
    std::string path;
    // The host events counted under the frame (indices into Profile::hostEvents, by start) and the one whose
    // stack gave the path (the largest overlap): what the inspector highlights and whose stack it shows.
    std::vector<std::size_t> eventIndices;
    std::size_t pathEvent = 0;
};

struct StackEvidence {
    bool collected = false;        // some host event of the capture carries a call stack
    std::size_t eventsInWindow = 0; // host events taken as evidence overlapping the window
    std::size_t eventsWithStack = 0;
    std::vector<StackLine> userFrames;      // innermost user frame of each event, top 5 by hostTime
    std::vector<StackLine> innermostFrames; // innermost frame of each event, top 5 by hostTime
};

struct BubbleWindow {
    std::string id; // b0001…
    WindowScope scope = WindowScope::StepInternal;
    int stepIndex = -1;  // index into the step list, -1 for global
    std::string stepId;  // "50", "pseudo", "global"
    std::string groupId; // "" when none
    Interval span;
    // A capture-boundary gap (ANALYSIS.md §6): one the capture itself may have produced. Never attributed
    // to the host; boundaryReason says which condition made it one.
    bool boundary = false;
    std::string boundaryReason;
    std::vector<NeighbourKernel> before, after;
    HostEvidence evidence;
    StackEvidence stacks;
    std::vector<std::string> labels;
    std::vector<std::string> labelEvidence; // one sentence per label
};

// A user line on top of a step group's windows, counted once per step (core/README.md, "Stack evidence"):
// "main.py:350 train is the top user line behind a window in 9 of 10 steps".
struct RecurringStackLine {
    std::string frame, frameText; // as StackLine
    std::size_t steps = 0;        // steps of the group holding a window whose top user line it is
    std::size_t windows = 0;      // those windows
    TimeNs hostTime = 0;          // Σ of its host time in those windows
};

struct MetricStats {
    double avg = 0, median = 0, p90 = 0, p95 = 0;
};

struct StepGroup {
    std::string id;         // g0…
    std::vector<int> steps; // indices into the step list
    std::uint64_t templateHash = 0;
    std::size_t kernelCount = 0;
    TimeNs totalService = 0;
    MetricStats service, busy, underfeedRatio, prelaunch, tail, internalTotal, largestInternal, bubbleCount,
        interStep;
    std::string dominantIdlePattern; // prelaunch / tail / internal_bubble / inter_step / mixed / none
    bool recurring = false;
    std::string recurringPosition; // kernel name before the recurring largest bubble
    double recurringShare = 0;
    std::vector<std::string> tags;
    bool requiresFollowup = false;
    std::optional<bool> variableShapes; // nullopt: shapes not recorded
    double topWindowCoverageMean = 0;
    bool topWindowCoverageKnown = false;
    // User lines on top of the group's windows in at least 2 of its steps, most steps first (top 3).
    std::vector<RecurringStackLine> recurringUserLines;
};

struct StepTags {
    int stepIndex = 0;
    std::vector<std::string> tags;
};

struct OpStats {
    std::string name, taskType, shapes;
    std::size_t calls = 0;
    TimeNs durTotal = 0;
    double durAvgUs = 0, waitAvgUs = 0, totalCostAvgUs = 0, waitRatio = 0;
    int rankByAvgCost = 0, rankByTotal = 0;
    bool waitAnchor = false, falseHotspot = false, waitPollution = false;
    std::string pmuVerdict; // compute-bound / memory-bound / … / pmu_unavailable
    std::string pmuDetail;
    std::optional<double> cubeUtilization;
};

struct AicpuOp {
    std::string name;
    std::size_t calls = 0;
    TimeNs durTotal = 0;
    double maskedRatio = 0;
    std::string cls; // AICPU_MASKED_BUT_UNDESIRABLE / AICPU_PARTIALLY_EXPOSED / AICPU_EXPOSED_NOT_ALLOWED
    bool touchesBubble = false; // adjacent to a significant bubble window
};

// ANALYSIS.md §15: what removing a recommendation's cause would save, found by replaying the steps with the
// matching edit (core/replay). Per step of the group the cause lies in (steps without it gain 0).
struct ReplayPrediction {
    double gainMs = 0;   // mean over the group's steps of (replayed service − replayed service with the edit)
    double gainPct = 0;  // of the group's mean measured service
    double errorPct = 0; // self-check: the largest |replayed − measured| / measured service over those steps
    bool lowConfidence = false; // errorPct > 2 %
    std::string edit;           // what was edited, in words
    std::size_t steps = 0;      // steps replayed
    std::size_t stepsEdited = 0; // of those, steps where the edit changed something
    std::vector<std::size_t> windows; // the windows edited (indices into AnomalyResult::windows); the inspector
                                      // shows the gain on these only
};

struct Recommendation {
    std::string scope; // global / step_group / structure / side / op
    std::string target;
    std::string action;
    std::string why;
    bool followupRequired = false;
    // What the follow-up is (empty when none): "host" (sample the host process, or collect the host
    // activity the capture lacks — these make requires_host_followup true), "recollect" (a collection
    // setting or export), "other_ranks" (compare with the other ranks).
    std::string followupKind;
    std::string evidenceGap;
    std::string priority; // P0…P3
    // What the replay edits to remove the cause (§15): "sync", "launch_lag", "untraced", "prelaunch", "op"
    // (target = the op), "" when no edit matches; the significant windows (indices into
    // AnomalyResult::windows) it covers.
    std::string replayCause;
    std::vector<std::size_t> replayWindows;
    std::optional<ReplayPrediction> replay; // set by predictRecommendationGains (core/replay)
    std::string replayMissing;              // why there is no prediction, when replayCause is set
};

// One candidate label over all significant windows (not only the top ones), weighted by their time.
struct SoftCause {
    std::string label, confidence, scope, target;
    std::size_t windowCount = 0; // significant windows carrying the label
    TimeNs duration = 0;         // their total length
    double share = 0;            // of the total length of all significant windows
    std::vector<std::string> evidence;
};

// One communication.json op (ANALYSIS.md §1): its time split by what the collective was doing.
struct CollectiveWait {
    std::string name, kind, stepKey; // op name, collective / p2p, the file's step key ("step50")
    int stepIndex = -1;              // the step it belongs to (-1: none found)
    TimeNs start = 0;                // 0: not written
    TimeNs elapse = 0, wait = 0, transit = 0, sync = 0, idle = 0;
    double waitRatio = 0;          // Wait / (Wait + Transit), 0 when both are 0
    std::vector<std::string> tags; // COMM_WAIT_HEAVY
};

// Per step: device time spent in communication, and from communication.json what it was made of.
struct StepComm {
    TimeNs exposed = 0;    // HCCL busy time not overlapped by other kernels (Communication(Not Overlapped))
    bool fromJson = false; // communication.json exists (wait/transit/sync are known, 0 included)
    TimeNs elapse = 0, wait = 0, transit = 0, sync = 0, idle = 0;
    std::size_t collectives = 0, waitHeavy = 0;
};

struct AnomalyResult {
    Rulebook rules;
    std::vector<BubbleWindow> windows; // all significant windows, sorted by duration
    std::vector<StepTags> stepTags;
    std::vector<StepGroup> groups;
    std::vector<OpStats> ops; // dominant group (or whole capture), ranked by avg cost
    std::vector<AicpuOp> aicpuOps;
    std::vector<std::string> globalTags;
    std::vector<Recommendation> recommendations;
    std::vector<SoftCause> softCauses;
    // global_device_gap_analysis
    TimeNs captureStart = 0, captureEnd = 0, globalBusy = 0, largestGap = 0;
    std::vector<Interval> topGlobalGaps;
    bool hiddenIssuePresent = false;
    std::string severity;                        // none / medium / high
    std::vector<std::string> hiddenIssueReasons; // which §6 conditions made the verdict true
    std::vector<CollectiveWait> collectives;     // communication.json ops, by start
    std::vector<StepComm> stepComm;              // one per step
    bool requiresHostFollowup = false;
    std::string confidence; // high / medium / low
    bool hostTraceExists = false, stacksExist = false, shapesExist = false, pmuExists = false;
    std::vector<std::string> answers; // the five Bubble-first questions, answered
    std::vector<std::string> notes;   // degradations said out loud
};

} // namespace bs
