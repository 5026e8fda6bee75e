#pragma once
// The analysis JSON: `steps`, `inventory`, `data_quality`, `profiler_crosscheck`. Stable key order
// and fixed rounding so the same input gives byte-identical output.
#include "analysis/analysis_run.h"

#include <string>

namespace bs {

std::string renderJson(const Profile& profile, const AnalysisResult& result);

} // namespace bs
