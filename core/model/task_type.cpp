#include "model/task_type.h"

namespace bs {

bool isCommName(std::string_view n) {
    return n.rfind("hcom_", 0) == 0 || n.rfind("Hcom", 0) == 0 || n.rfind("hcom", 0) == 0;
}

TaskClass classifyTaskType(std::string_view t, std::string_view name) {
    if (t == "AI_CORE" || t == "AI_VECTOR_CORE" || t == "MIX_AIC" || t == "MIX_AIV" || t == "AIV" ||
        t == "AIC")
        return TaskClass::ComputeCore;
    if (t == "AI_CPU" || t == "AICPU") return TaskClass::AiCpu;
    if (t == "HCCL" || t == "COMMUNICATION") return TaskClass::Comm;
    if (isCommName(name)) return TaskClass::Comm;
    return TaskClass::Other;
}

const char* taskClassName(TaskClass c) {
    switch (c) {
    case TaskClass::ComputeCore:
        return "compute_core";
    case TaskClass::AiCpu:
        return "aicpu";
    case TaskClass::Comm:
        return "comm";
    case TaskClass::Other:
        return "other";
    }
    return "other";
}

} // namespace bs
