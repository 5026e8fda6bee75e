#pragma once
// Finds where one JSON value ends without parsing it: the trace reader cuts the top-level array into its
// elements with it before simdjson parses them in batches.
#include <cstddef>

namespace bs {

constexpr std::size_t kScanIncomplete = static_cast<std::size_t>(-1);

// End (exclusive) of the JSON value starting at b[start], or kScanIncomplete if it is not complete in
// [start, len). Only brackets, quotes and backslashes inside strings matter (the value is not validated).
// b must be readable for 64 bytes past len, and those bytes must be zero.
std::size_t scanJsonValue(const char* b, std::size_t start, std::size_t len);

} // namespace bs
