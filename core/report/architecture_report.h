#pragma once
// The model architecture report (ANALYSIS.md §11): ten sections, each present even when degraded.
#include "pipeline/analysis_run.h"

#include <string>

namespace bs {

std::string renderArchitectureReport(const Profile& profile, const AnalysisResult& result);
// model_architecture_report_<profiling_dir_name>.md
std::string defaultArchitectureReportName(const Profile& profile);

} // namespace bs
