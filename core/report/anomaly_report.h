#pragma once
// The anomaly report in Markdown (ANALYSIS.md §10.2). Facts in plain declaratives; causes only as
// possible / probable / insufficient evidence.
#include "analysis/analysis_run.h"

#include <string>

namespace bs {

std::string renderAnomalyReport(const Profile& profile, const AnalysisResult& result);
// Default file name: anomaly_report_<profiling dir name>.md
std::string defaultAnomalyReportName(const Profile& profile);

} // namespace bs
