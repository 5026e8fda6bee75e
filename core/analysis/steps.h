#pragma once
// ANALYSIS.md §2: step markers → step windows.
#include "model/profile.h"

#include <string>
#include <vector>

namespace bs {

enum class StepSource { ProfilerStep, Iteration, StepIdColumn, Pseudo, None };
const char* stepSourceName(StepSource s);

struct Step {
    std::int64_t number = -1;  // N of ProfilerStep#N / Step Id; -1 for the pseudo-step
    std::string label;         // "ProfilerStep#50", "Step Id 3", "whole capture"
    TimeNs start = 0, end = 0; // window [start, end)
    TimeNs markerStart = 0, markerDur = 0;
    TimeNs service() const { return end - start; }
};

struct StepSet {
    StepSource source = StepSource::None;
    std::vector<Step> steps; // sorted by start
    std::size_t kernelsBeforeFirst = 0;
    std::size_t overlappingMarkers = 0; // marker pairs that overlap each other (reported)
};

StepSet detectSteps(const Profile& profile);

} // namespace bs
