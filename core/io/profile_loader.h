#pragma once
// Loads one rank folder into a Profile, choosing the kernel source by ANALYSIS.md §1 priority:
// kernel_details.csv → op_summary / task_time → device events of the trace.
#include "io/discovery.h"
#include "io/load_control.h"
#include "model/profile.h"

#include <memory>

namespace bs {

struct LoadResult {
    std::unique_ptr<Profile> profile;
    bool cancelled = false;
    bool hasAnyData = false; // false → nothing usable (empty output folder etc.)
    bool tooLarge = false;   // refused before loading: the model would not fit in memory
};

LoadResult loadRank(const RankFolder& rank, const LoadControl& control = {});

// Why a rank gave nothing usable (`!hasAnyData`), in one message: when files were there but could not be
// read, the first such file with its byte offset or line, what was seen and expected, and the fix; an
// empty output folder otherwise.
std::string noDataMessage(const RankFolder& rank, const LoadResult& loaded);

} // namespace bs
