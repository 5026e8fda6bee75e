#pragma once
// Readers for the small side files: step_trace_time.csv, communication.json, profiler_info_*.json /
// profiler_metadata.json, op_statistic.csv (statistics only, never intervals).
#include "model/profile.h"

#include <string>

namespace bs {

bool readStepTraceTime(const std::string& path, Profile& profile, FindingSink& sink);
// threads: 0 decides (sideFileThreads); 1 reads the file streamed, 2 in two halves at once.
bool readCommunicationJson(const std::string& path, Profile& profile, FindingSink& sink, int threads = 0);
// Fills inventory.profilerLevel / recordShapes / withStack / rankLabel when present.
bool readProfilerInfo(const std::string& path, Profile& profile, FindingSink& sink);
// Returns the number of op rows (statistics are not part of the interval model).
std::size_t readOpStatistic(const std::string& path, FindingSink& sink);

} // namespace bs
