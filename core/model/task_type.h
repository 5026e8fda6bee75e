#pragma once
#include <string_view>

namespace bs {

// ANALYSIS.md §1.1 classes.
enum class TaskClass : unsigned char { ComputeCore, AiCpu, Comm, Other };

TaskClass classifyTaskType(std::string_view taskType, std::string_view kernelName);
const char* taskClassName(TaskClass c);
bool isCommName(std::string_view kernelName);

} // namespace bs
