#pragma once
// Plain-text summary printed by `bubblescope analyze` (and shown by the GUI's shell).
#include "analysis/analysis_run.h"

#include <string>

namespace bs {

std::string renderTextReport(const Profile& profile, const AnalysisResult& result);

} // namespace bs
