#include "model/profile.h"

namespace bs {

const char* crossCheckSourceName(const Inventory& inv) {
    return inv.source == "sqlite" ? "analysis.db StepTraceTime" : "step_trace_time.csv";
}

const char* streamRecoverySource(const Inventory& inv) {
    return inv.source == "sqlite" ? "their TASK rows" : "the trace";
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
    return kernels.size() * sizeof(Kernel) + pmu.values.size() * sizeof(float) + lanes.size() * sizeof(Lane) +
           hostEvents.size() * sizeof(TraceEvent) + deviceEvents.size() * sizeof(TraceEvent) +
           hcclEvents.size() * sizeof(TraceEvent) + overlapEvents.size() * sizeof(TraceEvent) +
           flows.size() * sizeof(FlowEvent) + strings.bytes();
}

} // namespace bs
