#pragma once
// The anomaly report in Markdown (ANALYSIS.md §10.2). Facts in plain declaratives; causes only as
// possible / probable / insufficient evidence.
#include "pipeline/analysis_run.h"

#include <functional>
#include <string>

namespace bs {

std::string renderAnomalyReport(const Profile& profile, const AnalysisResult& result);
// The same with a picture of each top window: `picture(windowId)` gives the image's path relative to the
// report ("" for none); it is shown under the window's heading, beside its evidence.
std::string renderAnomalyReport(const Profile& profile, const AnalysisResult& result,
                                const std::function<std::string(const std::string& windowId)>& picture);
// Default file name: anomaly_report_<profiling dir name>.md
std::string defaultAnomalyReportName(const Profile& profile);

} // namespace bs
