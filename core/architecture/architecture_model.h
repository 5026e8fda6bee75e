#pragma once
// Structures (ANALYSIS.md §9) and the reverse-engineered model architecture (§11): plain data for
// the JSON export, the reports and the GUI's layer tree.
#include "analysis/intervals.h"
#include "model/time.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bs {

// The four clocks, never only one (§9).
struct Clocks {
    TimeNs wall = 0, busyUnion = 0, kernelSum = 0, totalCost = 0;
    std::size_t kernels = 0;
};

struct Structure {
    std::string id;   // s<step>.<n>
    std::string type; // layer type (Dense, MoE+DFC, …) or "pattern block", "gap segment", "prologue"
    std::string stepId;
    int stepIndex = -1;
    int passIndex = -1; // architecture pass (sub-step) holding it, -1 when none
    int layerInPass = -1;
    std::size_t firstKernel = 0,
                lastKernel = 0; // index range [first, last) into Profile::kernels (start order)
    Interval span;
    Clocks all, block, side;
    int mainStream = -1;
    std::map<std::string, double> taskShares; // task-type class → share of kernel_sum
    double shareOfStep = 0;                   // wall / step service
    TimeNs gapBefore = 0;                     // device-idle time between the previous structure and this one
    TimeNs internalBubbles = 0; // device-idle time inside the span (no kernel of any stream runs)
    std::size_t internalBubbleCount = 0;
};

struct DrillDownItem {
    std::string windowId;
    std::string structureId; // the structure holding it, or the one after it for boundary gaps
    bool insideStructure = false;
    // inside / layer_start (it ends at the structure's first kernel) / prelaunch / tail / before (a gap
    // before the structure that is none of these)
    std::string position;
    TimeNs duration = 0;
    std::string kernelBefore, kernelAfter;
};

struct LayerKernel {
    std::string name, role, taskType;
    std::string display; // op type when recorded, else the kernel name: a name the profile holds
    TimeNs start = 0, dur = 0;
    int stream = -1;
    bool aicpu = false;
};

// One component (functional role) of a layer. `wall` partitions the layer: each instant of the layer span
// goes to exactly one component — the one whose kernel runs on the layer's main stream then, else the
// earliest-started kernel running on another stream — or to device idle, so Σ wall + idle = layer wall.
// `busy` is the component's own busy union, which may overlap other components.
struct ComponentTime {
    std::string role;
    TimeNs wall = 0, busy = 0;
    std::vector<int> streams;         // ascending, -1 = unknown
    std::vector<std::string> kernels; // display names, in first-seen order
};

// A device-idle interval inside a layer span, with the kernels around it.
struct IdleGap {
    Interval span;
    std::string before, after; // kernel names ("" at the span edge)
    std::string windowId;      // the significant bubble window it is, "" when none
};

struct LayerTiming {
    int layer = -1; // index into ArchitectureResult::layers
    int mainStream = -1;
    TimeNs wall = 0, idle = 0; // wall = the §11 layer span (marker to next marker / pass end)
    std::vector<ComponentTime> components;
    std::vector<IdleGap> gaps; // every idle interval of the span, in time order
};

struct ArchLayer {
    int pass = 0, index = 0; // index within the pass
    std::string type;
    int structure = -1; // index into ArchitectureResult::structures (the same span), -1 when none
    Interval span;
    Clocks clocks;
    std::size_t dfc = 0, gmm = 0, gating = 0, allToAll = 0;
    bool sampling = false;
    TimeNs markerDur = 0;
};

struct ArchPass {
    int index = 0;
    std::string phase; // prefill / decode / single
    std::string stepId;
    std::size_t firstMarker = 0, markerCount = 0;
    Interval span;
    std::size_t kernelCount = 0;
    double meanMarkerMs = 0;
    std::vector<int> layers; // indices into ArchitectureResult::layers
    Clocks clocks;           // the pass as a sub-step (§8): wall = span, busy union clipped to it
    TimeNs idle = 0, largestIdle = 0;
};

// §8 macro step: one marker step holding several forward passes, analysed as sub-steps.
struct MacroStep {
    std::string stepId;
    int stepIndex = -1;
    std::vector<int> passes; // indices into ArchitectureResult::passes, in time order
    std::size_t prefill = 0, decode = 0, single = 0;
};

struct CrossCheckRowArch {
    int pass = 0;
    std::size_t markers = 0, layers = 0, dfc = 0, dfcLayers = 0, gmm = 0, gmmLayers = 0, gating = 0,
                moeLayers = 0;
    std::string signature; // layer-type sequence
    bool mismatch = false;
    std::string why;
};

// What was seen across every layer of one type (not only the representative one).
struct LayerTypeAnomalies {
    struct Aicpu {
        std::string name;        // display name
        std::vector<int> layers; // indices into ArchitectureResult::layers holding it
        std::size_t kernels = 0;
        TimeNs total = 0;
    };
    // Layers whose kernel sequence differs from the modal one, grouped by what differs.
    struct Deviation {
        std::vector<std::string> extra, missing; // display names (empty both: same kernels, other order)
        std::size_t count = 0;                   // layers
        std::vector<int> layers;                 // the first few of them (indices into layers)
    };
    std::vector<Aicpu> aicpu;
    std::vector<Deviation> deviations; // most layers first
    std::size_t deviatingLayers = 0;
    std::vector<int> windows; // indices into ArchitectureResult::windowPlaces, largest first
    TimeNs windowTimeInside = 0, windowTimeAtStart = 0;
    int warmupLayer = -1; // the first layer of the type when it takes > 1.5x its phase's average
    double phaseAvgMs = 0;
};

struct LayerTypeSummary {
    std::string type;
    std::vector<std::pair<int, int>> ranges; // layer index ranges within a pass
    std::size_t count = 0;                   // layers of this type per modal pass
    std::size_t occurrences = 0;             // over all passes
    // Characteristics, from the modal kernel sequence of the type (display names; consecutive repeats
    // folded into a count): the FFN / MoE path, the collectives, the sampling tail.
    std::vector<std::pair<std::string, std::size_t>> ffnPath, collectives, sampling;
    std::size_t modalKernels = 0;      // kernels in the modal sequence
    std::size_t modalLayers = 0;       // layers of the type whose sequence is the modal one
    std::string characteristics;       // the same as one plain sentence, names in `backticks`
    int representative = -1;           // index into layers: modal sequence, median wall, representative phase
    std::vector<LayerKernel> sequence; // kernel sequence of the representative layer
    LayerTiming timing;                // timing breakdown of that layer
    int decodeRepresentative = -1;     // the same for decode, -1 when the type has no decode layer
    std::vector<LayerKernel> decodeSequence;
    LayerTiming decodeTiming;
    LayerTypeAnomalies anomalies;
    double wallMinMs = 0, wallAvgMs = 0, wallMaxMs = 0, wallStdMs = 0;
    std::string representativePhase;
};

// What one stream holds, by display name (op type, else kernel name).
struct StreamKernelUse {
    std::string name;
    std::string collective; // all-reduce / all-to-all / reduce-scatter / … for communication kernels, else ""
    std::size_t count = 0;
    TimeNs time = 0;
};

struct StreamRole {
    int stream = -1;
    std::string role;    // main compute / secondary compute / communication / AICPU / other tasks
    std::string purpose; // the role and what was seen on the stream, names in `backticks`
    std::vector<StreamKernelUse> uses; // by time, largest first
    std::size_t kernels = 0;
    TimeNs busy = 0;
    std::vector<int> overlapsWith;
};

// Where a significant bubble window sits relative to the layers (ANALYSIS.md §9 drill-down, §10).
struct WindowPlace {
    std::string windowId;
    Interval span;
    std::string position; // "layer_start" | "inside_layer" | "outside_layers"
    int structure = -1;   // the layer structure whose start it touches, or that holds it; -1 outside
    int layer = -1;       // index into ArchitectureResult::layers (attention-anchored layers), else -1
};

// A window is at a layer boundary when it contains or touches the start of a layer, within `tolerance`
// (1 µs); inside a layer when a layer span holds it (a step's tail window never is: it follows the step's
// last kernel); else outside every layer. Per profile, over every significant window.
struct LayerBoundaryBubbles {
    std::string layers; // what counts as a layer: "attention-anchored layers" / "pattern structures" / ""
    std::size_t windows = 0, atLayerStart = 0, insideLayers = 0, outsideLayers = 0;
    TimeNs windowTime = 0, atLayerStartTime = 0, insideLayersTime = 0, outsideLayersTime = 0;
    double atLayerStartShare = 0; // atLayerStartTime / windowTime (0 when there is no window)
    TimeNs tolerance = 1000;
};

struct ArchitectureResult {
    std::string marker; // FusedInferAttentionScore / FlashAttentionScore / … / "" (pattern fallback)
    std::string
        markerSource;       // "attention kernels" / "repeating kernel pattern" / "large device gaps" / "none"
    std::string confidence; // high / medium / low
    std::vector<std::string> notes;
    std::size_t markerCount = 0;
    std::string phaseRule; // how prefill/decode were told apart
    std::vector<ArchPass> passes;
    std::vector<ArchLayer> layers;
    int layersPerPass = 0; // mode of pass lengths
    bool passCountConsistent = true;
    std::vector<LayerTypeSummary> types;
    std::vector<CrossCheckRowArch> crossCheck;
    std::size_t crossCheckMismatches = 0;
    std::vector<StreamRole> streams;
    double commOverlapShare = 0; // |comm ∩ compute| / |comm|
    TimeNs commTotal = 0, commHidden = 0;
    TimeNs kernelSumAll = 0, wallAll = 0, busyAll = 0; // busyAll: union of every kernel
    std::vector<Structure> structures;
    std::vector<DrillDownItem> drillDown;
    std::vector<WindowPlace> windowPlaces; // one per significant window, in the windows' order
    LayerBoundaryBubbles boundaryBubbles;
    std::vector<MacroStep> macroSteps; // steps holding >= 2 forward passes
    bool hasDecode = false, hasPrefill = false;
};

} // namespace bs
