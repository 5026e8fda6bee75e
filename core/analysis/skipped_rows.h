#pragma once
// Kernel-table rows skipped as malformed (wrong field count, unreadable time) next to a bubble window.
// The kernel of such a row is missing from the device timeline, so it may have filled part of a window:
// a window bounded by one is said to be, with the file and line (ANALYSIS.md §12: never a silent skip).
#include "analysis/anomaly_model.h"
#include "model/finding.h"
#include "model/profile.h"

#include <string>
#include <vector>

namespace bs {

struct SkippedRow {
    std::string file; // as in the finding (the kernel table's path)
    long long line = 0;
    std::string findingId; // csv_field_count, csv_bad_time, timestamp_scale_mixed
};

// For each window (same order as `windows`), the skipped rows whose kernel may lie inside it: a skipped
// line s whose nearest read lines s⁻ < s < s⁺ hold kernels starting before the window's end (s⁻) and
// after its start (s⁺) — the row sat between them in the file, so its kernel started between them too
// (kernel tables are sorted by start time, globally or per stream). Only rows a finding lists by line
// count (a file lists at most 20 per kind; the rest are counted in a "_more" finding).
std::vector<std::vector<SkippedRow>> skippedRowsInWindows(const Profile& p,
                                                          const std::vector<Finding>& findings,
                                                          const std::vector<BubbleWindow>& windows);

} // namespace bs
