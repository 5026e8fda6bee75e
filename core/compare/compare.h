#pragma once
// Two analysed profiles side by side, before / after a change (ANALYSIS.md §14; decisions in
// core/compare/README.md). Each profile is first reduced to a CompareSide — what the comparison needs of
// it — so the caller can free one model before loading the other; two sides then give a Comparison.
#include "model/time.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bs {

struct Profile;
struct AnalysisResult;

// The collection settings and extent that make two captures comparable.
struct CompareScope {
    std::string profilerLevel, aicMetrics; // profiler_info_*.json ("" when absent)
    std::optional<bool> withStack, recordShapes;
    std::optional<std::vector<std::string>> activities;
    bool profilerInfo = false; // a profiler_info_*.json was read
    std::string kernelSource;  // kernel_details.csv / op_summary / … (inventory)
    std::string stepSource;    // ProfilerStep / Iteration / StepId / pseudo
    std::vector<std::int64_t> stepNumbers; // every step, in time order (-1: the pseudo-step)
    int rankId = -1;                       // -1: unknown
};

// A step-group figure: average and median over the dominant group's steps.
struct GroupFigure {
    std::string key;          // service_ms, underfeed_ratio, … (JSON names)
    bool known = true;        // false: the side lacks it (comm wait without communication.json)
    double avg = 0, p50 = 0;
};

// A device-idle window at its position: (scope, kernel before, kernel after, occurrence of that triple among
// the gaps of its step — all gaps, significant or not — in time order).
struct CompareWindow {
    std::string id;    // the analysis' b0001…
    std::string scope; // prelaunch / step_internal / tail / global
    std::int64_t step = -1; // step number (-1: pseudo-step or global)
    int stepIndex = -1;     // index into the side's steps (-1: global)
    bool dominant = false;  // its step belongs to the dominant group
    std::string before, after; // kernel names (collective digit runs masked), "(step start)" / "(step end)"
    std::size_t occurrence = 0;
    TimeNs start = 0, dur = 0;
    std::vector<std::string> labels;
    bool boundary = false; // a capture-boundary gap
};

struct CompareOp {
    std::string name, taskType;
    std::size_t calls = 0;
    TimeNs durTotal = 0;
    double durAvgUs = 0, waitAvgUs = 0;
};

struct CompareLayer {
    std::string type, phase; // the architecture's layer type; prefill / decode / single
    std::size_t count = 0;
    double wallAvgMs = 0;
};

struct CompareFinding {
    std::string id, severity, seen, file;
};

// A recommendation's replayed gain (ANALYSIS.md §15), kept so the comparison can put it beside what changed.
struct ComparePrediction {
    std::string priority, cause, edit;
    double gainMs = 0, gainPct = 0, errorPct = 0;
    bool lowConfidence = false;
    std::vector<std::string> windows; // the ids of the windows the edit removed
};

// What a comparison keeps of one analysed profile.
struct CompareSide {
    std::string label, folder;
    CompareScope scope;
    bool hasData = false;      // at least one step with kernels
    std::string groupId;       // the dominant group ("" when there is none)
    std::vector<std::int64_t> groupSteps; // its step numbers
    std::size_t groupKernelCount = 0;
    std::uint64_t groupTemplate = 0; // hash of its kernel-name sequence
    std::vector<GroupFigure> figures; // see compareFigureKeys()
    std::vector<CompareOp> ops;       // the dominant group's ops (all of them)
    std::vector<CompareLayer> layers; // per layer type and phase; empty without an architecture
    std::string architectureMarker;   // the layer marker ("" without attention-anchored layers)
    std::vector<CompareWindow> windows; // every significant window, longest first (the analysis' order)
    double bubbleMinUs = 0;             // the significance threshold the side was analysed with
    std::vector<CompareFinding> findings;
    bool hiddenIssue = false;
    std::string confidence;
    bool fromSummary = false; // read from a rank summary (analyze --summary): no layers
    std::vector<ComparePrediction> predictions; // the recommendations with a replayed gain, in their order
};

// The figures compared, in report order, with their display names and units ("ms", "", "count").
struct FigureInfo {
    const char* key;
    const char* name;
    const char* unit;
};
const std::vector<FigureInfo>& compareFigureKeys();

// `rankId`: the rank the profile belongs to (-1 unknown); the label and folder name it in the outputs.
CompareSide digestForCompare(const Profile& profile, const AnalysisResult& result, std::string label,
                             std::string folder, int rankId);

struct ScopeWarning {
    std::string what;        // profiler_level, with_stack, record_shapes, activities, steps, rank, kernel_source
    std::string base, next;  // the two values as text
    std::string message;     // one sentence
};

struct FigureDelta {
    std::string key, name, unit;
    bool known = true; // both sides have it
    double baseAvg = 0, newAvg = 0, deltaAvg = 0;
    std::optional<double> deltaAvgPct; // nullopt when the base is 0
    double baseP50 = 0, newP50 = 0, deltaP50 = 0;
    std::optional<double> deltaP50Pct;
};

struct OpDelta {
    std::string name, taskType;
    std::string status; // changed / unchanged / new / removed
    std::size_t baseCalls = 0, newCalls = 0;
    TimeNs baseTotal = 0, newTotal = 0, deltaTotal = 0;
    std::optional<double> deltaTotalPct;
    double baseAvgUs = 0, newAvgUs = 0, baseWaitAvgUs = 0, newWaitAvgUs = 0;
};

struct LayerDelta {
    std::string type, phase;
    std::size_t baseCount = 0, newCount = 0;
    std::optional<double> baseWallMs, newWallMs; // nullopt: the type / phase is absent on that side
    std::optional<double> deltaMs, deltaPct;
};

// removed / new / shrunk / grew / unchanged (|Δ| < 5 % of the base duration).
struct WindowMatch {
    std::string cls;
    int base = -1, next = -1; // indices into the sides' windows (-1: none)
    TimeNs deltaDur = 0;      // next − base (both present)
    std::optional<double> deltaPct;
    bool dominant = false; // the base window (or, for a new one, the new window) is in its dominant group
};

struct WindowFate {
    int base = -1;         // index into the base's windows (top 5: 0…4)
    std::size_t match = 0; // index into Comparison::matches
    std::string sentence;  // "b0001 (17.48 ms prelaunch, possible_sync_or_h2d) removed"
};

struct Comparison {
    CompareSide base, next;
    std::vector<ScopeWarning> warnings;
    std::vector<std::string> notes; // what the comparison could not do, said out loud
    std::vector<FigureDelta> figures;
    std::vector<OpDelta> ops; // every op of either dominant group, by |Δ total| (largest first)
    std::size_t opsChanged = 0, opsUnchanged = 0, opsNew = 0, opsRemoved = 0;
    bool layersCompared = false;
    std::vector<LayerDelta> layers;
    std::vector<WindowMatch> matches; // base windows in their order, then the new windows without a match
    // Over the matches of the dominant group: removed, new, shrunk, grew, unchanged.
    std::size_t removed = 0, added = 0, shrunk = 0, grew = 0, unchanged = 0;
    std::vector<WindowFate> topFates; // the base's top 5 windows
    // The base's predictions beside what was achieved (§15): the step service change of the dominant group
    // (new − base average, ms) and what became of the windows each edit removed.
    struct PredictionCheck {
        std::size_t prediction = 0;     // index into base.predictions
        std::optional<double> achievedMs; // nullopt: the step service is not known on both sides
        std::string windows;            // "b0001 removed, b0003 shrunk"
        std::string sentence;
    };
    std::vector<PredictionCheck> predictions;
    std::vector<std::string> verdict; // plain-word lines, facts only
};

// Relative change below which a matched window is `unchanged`.
inline constexpr double kWindowUnchangedFraction = 0.05;

// Parents of several ranks: one comparison per rank found on both sides (matched by rank id, else label).
struct ComparedPair {
    std::string name; // "rank 0", or the label when the rank id is unknown
    std::string baseLabel, newLabel, baseFolder, newFolder; // "" on the side that lacks the rank
    std::optional<Comparison> comparison;
    std::string error; // not compared: why
};

Comparison compareSides(CompareSide base, CompareSide next);

// A side as JSON, the "compare" member of a rank summary (analyze --summary): everything but the layers.
std::string renderCompareDigestJson(const CompareSide& side);
// True when `head` (the first bytes of a file) starts a rank summary ({"bubblescope_rank_summary": …).
bool looksLikeRankSummary(std::string_view head);
// The side a rank summary stores (`file` names it in messages and becomes the side's folder); nullopt with
// `error` when the text is no summary, records a rank that was not analysed, or lacks the "compare" member.
std::optional<CompareSide> compareSideFromSummary(std::string_view text, const std::string& file, std::string& error);

// "−12.3 %" / "+4.0 %" (U+2212 for minus), "n/a" without a value.
std::string formatPercent(std::optional<double> pct);

} // namespace bs
