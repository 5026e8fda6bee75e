#pragma once
// How much memory loading one rank will take, from the sizes of its files, so that a rank that would not
// fit is refused before anything is read (the loader) and the bench can print the estimate beside the
// measured peak. The factors and where they were measured: core/README.md, "Memory estimate".
#include <cstdint>

namespace bs {

struct RankFiles;
enum class DataSource;

struct MemoryEstimate {
    std::uint64_t traceBytes = 0, tableBytes = 0, sideBytes = 0, jsonBytes = 0, commBytes = 0, dbBytes = 0;
    std::uint64_t needBytes = 0; // the peak resident set the load and the analysis are expected to reach
};

MemoryEstimate estimateLoadMemory(const RankFiles& files, DataSource source);

} // namespace bs
