#include "model/profile.h"

#include "i18n/message.h"

namespace bs {

const char* crossCheckSourceName(const Inventory& inv) {
    return inv.source == "sqlite" ? "analysis.db StepTraceTime" : "step_trace_time.csv";
}

const char* streamRecoverySource(const Inventory& inv) {
    // Messages (core/i18n) kept for the program's life, so the pointers stay valid.
    static const std::string taskRows = msg("their TASK rows"), trace = msg("the trace");
    return inv.source == "sqlite" ? taskRows.c_str() : trace.c_str();
}

const char* kernelSourceName(KernelSource s) {
    switch (s) {
    case KernelSource::None:
        return "none";
    case KernelSource::KernelDetails:
        return "kernel_details.csv";
    case KernelSource::OpSummary:
        return "op_summary.csv";
    case KernelSource::TaskTime:
        return "task_time.csv";
    case KernelSource::TraceDevice:
        return "trace device events";
    case KernelSource::SqliteTasks:
        return "sqlite TASK + COMPUTE_TASK_INFO + COMMUNICATION_OP";
    }
    return "none";
}

std::size_t Profile::modelBytes() const {
    return kernels.size() * sizeof(Kernel) + pmu.values.size() * sizeof(float) +
           pmu.cellColumn.size() * sizeof(std::uint32_t) + pmu.rowStart.size() * sizeof(std::size_t) +
           lanes.size() * sizeof(Lane) + hostEvents.size() * sizeof(TraceEvent) +
           deviceEvents.size() * sizeof(TraceEvent) + hcclEvents.size() * sizeof(TraceEvent) +
           overlapEvents.size() * sizeof(TraceEvent) + flows.size() * sizeof(FlowEvent) + strings.bytes();
}

} // namespace bs
