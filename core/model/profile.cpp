#include "model/profile.h"

namespace bs {

const char* kernelSourceName(KernelSource s) {
    switch (s) {
    case KernelSource::None: return "none";
    case KernelSource::KernelDetails: return "kernel_details.csv";
    case KernelSource::OpSummary: return "op_summary.csv";
    case KernelSource::TaskTime: return "task_time.csv";
    case KernelSource::TraceDevice: return "trace device events";
    }
    return "none";
}

std::size_t Profile::modelBytes() const {
    return kernels.capacity() * sizeof(Kernel) + pmu.values.capacity() * sizeof(float) +
           lanes.capacity() * sizeof(Lane) + hostEvents.capacity() * sizeof(TraceEvent) +
           deviceEvents.capacity() * sizeof(TraceEvent) + hcclEvents.capacity() * sizeof(TraceEvent) +
           overlapEvents.capacity() * sizeof(TraceEvent) + flows.capacity() * sizeof(FlowEvent) + strings.bytes();
}

} // namespace bs
