#pragma once
// Reads device kernels from kernel_details.csv (every header variant), msprof op_summary_*.csv
// and task_time_*.csv. Columns are looked up by name.
#include "io/load_control.h"
#include "model/profile.h"

#include <string>

namespace bs {

struct KernelTableResult {
    bool ok = false;      // file read and header recognised
    std::size_t rows = 0; // data rows seen
    std::size_t kept = 0; // kernels appended
    bool hasStream = false, hasShapes = false, hasPmu = false, hasTaskTypeColumn = false, hasStepId = false;
    bool pmuAllZero = false;
    std::string level; // "Level0", "Level1/2", "2023", "msprof"
    bool cancelled = false;
    int parts = 1; // 2 when the second half was read on a second thread and kept
};

// Appends kernels to profile.kernels (unsorted) and findings to sink.
// threads: 2 reads a table of 16 MB or more in two parts at once, 1 in one; 0 decides (sideFileThreads).
KernelTableResult readKernelTable(const std::string& path, KernelSource kind, Profile& profile,
                                  FindingSink& sink, const LoadControl* control = nullptr, int threads = 0);

} // namespace bs
