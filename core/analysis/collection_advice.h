#pragma once
// What the collection lacks, read against what it asked for. profiler_info_*.json records the config
// (profiler level, aic_metrics, with_stack, record_shapes, activities): advice names the setting that is
// really missing, or — when the config already has it — the real cause (a file not exported, a cut trace),
// never "collect X" for an X that was collected.
#include "model/finding.h"
#include "model/profile.h"

#include <optional>
#include <string>
#include <vector>

namespace bs {

struct CollectionAdvice {
    std::string action; // what to do
    std::string why;    // what was seen, naming the config file and the real cause
    std::string gap;    // the evidence that is missing (short)
};

// The config file's name ("profiler_info_0.json"), or "" when there is none.
std::string profilerInfoName(const Profile& p);

// No host events at all: the host activity was not collected, or it was and the timeline is missing.
std::optional<CollectionAdvice> hostTraceAdvice(const Profile& p);
// Host events exist but none carries a Python call stack.
std::optional<CollectionAdvice> stackAdvice(const Profile& p);
// No kernel carries input shapes (nullopt when another advice — Level1, the kernel table — covers it).
std::optional<CollectionAdvice> shapeAdvice(const Profile& p);
// No usable PMU columns, or a Level0 kernel table (no streams, shapes, PMU).
std::optional<CollectionAdvice> pmuAdvice(const Profile& p, const std::vector<Finding>& findings,
                                          bool pmuExists);
// HCCL kernels without communication.json: the fix text of no_communication_json. It is written at Level1
// and above; when the config already says so, the export is what is missing.
std::string communicationJsonFix(const Profile& p);
// The trace is cut: the profiler stopped while writing it.
std::optional<CollectionAdvice> truncatedTraceAdvice(const Profile& p);

} // namespace bs
