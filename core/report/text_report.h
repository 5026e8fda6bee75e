#pragma once
// Plain-text summary printed by `bubblescope analyze` (and shown by the GUI's shell).
#include "pipeline/analysis_run.h"

#include <cstddef>
#include <string>

namespace bs {

// Up to kTextStepRows steps, a row per step (and per step and figure for the cross-check); a longer capture is
// summarised per step group (P50 / P90 / P95), its communication as totals and its cross-check as each
// figure's largest difference and the steps that disagree. `allSteps`: every row whatever the length.
inline constexpr std::size_t kTextStepRows = 50;
std::string renderTextReport(const Profile& profile, const AnalysisResult& result, bool allSteps = false);

} // namespace bs
