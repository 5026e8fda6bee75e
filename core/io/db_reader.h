#pragma once
// Reads the profiler's SQLite export (`export_type=db`) into the same Profile the text readers fill:
// torch_npu `ascend_pytorch_profiler_{rank}.db` + `analysis.db`, msprof `msprof_*.db` (the same table
// family, without the PyTorch tables and analysis.db). Tables and decisions: core/README.md, "SQLite export".
#include "io/load_control.h"
#include "model/profile.h"

#include <string>
#include <string_view>

namespace bs {

struct DbFiles {
    std::string profilerDb; // ascend_pytorch_profiler_*.db / msprof_*.db
    std::string analysisDb; // analysis.db ("" when absent)
};

struct DbReadResult {
    bool ok = false;        // the profiler database was opened and its schema read
    bool cancelled = false;
    std::size_t taskRows = 0, hostRows = 0;
};

// Appends to `prof` (kernels sorted by start, events sorted like the trace reader's, flows, step
// markers, comm ops, step_trace rows, PMU) and sets the inventory's source fields. Bad input becomes
// findings naming the file and table; whatever was read before stays.
DbReadResult readSqliteExport(const DbFiles& files, Profile& prof, FindingSink& sink,
                              const LoadControl& control = {});

// The profiler's own database among a folder's .db files (not analysis.db, not a user's other files).
bool isProfilerDbName(std::string_view fileName);

} // namespace bs
