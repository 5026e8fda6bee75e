#pragma once
// Finds where one JSON value ends without parsing it: the trace reader cuts the top-level array into its
// elements with it before simdjson parses them in batches.
#include <cstddef>

namespace bs {

constexpr std::size_t kScanIncomplete = static_cast<std::size_t>(-1);

// End (exclusive) of the JSON value starting at b[start], or kScanIncomplete if it is not complete in
// [start, len). Only brackets, quotes and backslashes inside strings matter (the value is not validated).
// b must be readable for 64 bytes past len, and those bytes must be zero.
// Uses the AVX2 kernel where the CPU has AVX2 and PCLMUL, else SSE2 (every x86-64), else bytes one by one.
std::size_t scanJsonValue(const char* b, std::size_t start, std::size_t len);

// The container kernels (json_value_scanner_kernel.inc), for scanJsonValue and the tests.
std::size_t scanContainerSse2(const char* b, std::size_t start, std::size_t len);
std::size_t scanContainerAvx2(const char* b, std::size_t start, std::size_t len);

namespace detail {
enum class ScanKernel { Scalar, Sse2, Avx2 };
bool scanContainerAvx2Built();
bool scanKernelAvailable(ScanKernel k); // built for this platform and supported by this CPU
// scanJsonValue with the given kernel for containers (scalars are always read byte by byte).
std::size_t scanJsonValueWith(ScanKernel k, const char* b, std::size_t start, std::size_t len);
} // namespace detail

} // namespace bs
