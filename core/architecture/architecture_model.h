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
    TimeNs internalBubbles = 0;               // device-idle time inside the span
    std::size_t internalBubbleCount = 0;
};

struct DrillDownItem {
    std::string windowId;
    std::string structureId; // the structure holding it, or the one after it for boundary gaps
    bool insideStructure = false;
    TimeNs duration = 0;
    std::string kernelBefore, kernelAfter;
};

struct RoleTiming {
    std::string role;
    TimeNs wall = 0;  // busy union of the role's kernels
    double share = 0; // of the layer's wall
    std::string streams;
    std::vector<std::string> kernels; // distinct kernel names, in first-seen order
};

struct LayerKernel {
    std::string name, role, taskType;
    TimeNs start = 0, dur = 0;
    int stream = -1;
};

struct ArchLayer {
    int pass = 0, index = 0; // index within the pass
    std::string type;
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
};

struct CrossCheckRowArch {
    int pass = 0;
    std::size_t markers = 0, layers = 0, dfc = 0, dfcLayers = 0, gmm = 0, gmmLayers = 0, gating = 0,
                moeLayers = 0;
    std::string signature; // layer-type sequence
    bool mismatch = false;
    std::string why;
};

struct LayerTypeSummary {
    std::string type;
    std::vector<std::pair<int, int>> ranges; // layer index ranges within a pass
    std::size_t count = 0;                   // layers of this type per modal pass
    std::size_t occurrences = 0;             // over all passes
    std::string characteristics;
    std::vector<LayerKernel> sequence; // kernel sequence of a representative layer
    std::vector<RoleTiming> roles;     // timing breakdown of that layer
    double wallMinMs = 0, wallAvgMs = 0, wallMaxMs = 0, wallStdMs = 0;
    std::string representativePhase;
};

struct StreamRole {
    int stream = -1;
    std::string purpose;
    std::size_t kernels = 0;
    TimeNs busy = 0;
    std::vector<int> overlapsWith;
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
    TimeNs kernelSumAll = 0, wallAll = 0;
    std::vector<Structure> structures;
    std::vector<DrillDownItem> drillDown;
    bool hasDecode = false, hasPrefill = false;
};

} // namespace bs
