#include "io/json_value_scanner.h"

#include <cstdint>
#include <cstring>


namespace bs {

namespace {

constexpr std::size_t kNpos = kScanIncomplete;

bool isWs(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// Eight bytes at a time: does any byte of x equal the byte repeated in pattern?
inline bool hasByte(std::uint64_t x, std::uint64_t pattern) {
    const std::uint64_t v = x ^ pattern;
    return ((v - 0x0101010101010101ULL) & ~v & 0x8080808080808080ULL) != 0;
}

// The portable scanner: strings are skipped eight bytes at a time; outside strings only brackets and
// quotes matter.
std::size_t scanScalar(const char* b, std::size_t start, std::size_t len) {
    constexpr std::uint64_t kQuotes = 0x2222222222222222ULL, kSlashes = 0x5C5C5C5C5C5C5C5CULL;
    std::size_t p = start;
    const char c0 = b[p];
    auto skipString =
        [&](std::size_t q) -> std::size_t { // q: first byte inside the string; returns past the closing quote
        while (q < len) {
            while (q + 8 <= len) {
                std::uint64_t x;
                std::memcpy(&x, b + q, 8);
                if (hasByte(x, kQuotes) || hasByte(x, kSlashes)) break;
                q += 8;
            }
            while (q < len && b[q] != '"' && b[q] != '\\')
                ++q;
            if (q >= len) return kNpos;
            if (b[q] == '\\') {
                q += 2;
                continue;
            }
            return q + 1;
        }
        return kNpos;
    };
    if (c0 == '{' || c0 == '[') {
        long depth = 0;
        while (p < len) {
            const char c = b[p];
            if (c == '"') {
                p = skipString(p + 1);
                if (p == kNpos) return kNpos;
                continue;
            }
            if (c == '{' || c == '[') {
                ++depth;
            } else if (c == '}' || c == ']') {
                if (--depth == 0) return p + 1;
            }
            ++p;
        }
        return kNpos;
    }
    if (c0 == '"') {
        const std::size_t e = skipString(p + 1);
        return e > len ? kNpos : e;
    }
    while (p < len && b[p] != ',' && b[p] != ']' && b[p] != '}' && !isWs(b[p]))
        ++p;
    return p < len ? p : kNpos;
}

} // namespace

} // namespace bs

#if defined(__SSE2__)
#define BS_SCAN_KERNEL scanContainerSse2
#include "io/json_value_scanner_kernel.inc"
#endif

namespace bs {

namespace detail {

bool scanKernelAvailable(ScanKernel k) {
    switch (k) {
    case ScanKernel::Scalar: return true;
#if defined(__SSE2__)
    case ScanKernel::Sse2: return true;
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    case ScanKernel::Avx2:
        return scanContainerAvx2Built() && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("pclmul");
#endif
    default: return false;
    }
}

std::size_t scanJsonValueWith(ScanKernel k, const char* b, std::size_t start, std::size_t len) {
    if (start < len && (b[start] == '{' || b[start] == '[')) {
#if defined(__SSE2__)
        if (k == ScanKernel::Sse2) return scanContainerSse2(b, start, len);
#endif
        if (k == ScanKernel::Avx2) return scanContainerAvx2(b, start, len);
    }
    return scanScalar(b, start, len);
}

} // namespace detail

std::size_t scanJsonValue(const char* b, std::size_t start, std::size_t len) {
    using Kernel = std::size_t (*)(const char*, std::size_t, std::size_t);
    static const Kernel container = [] {
        using detail::ScanKernel;
        if (detail::scanKernelAvailable(ScanKernel::Avx2)) return Kernel(scanContainerAvx2);
#if defined(__SSE2__)
        return Kernel(scanContainerSse2);
#else
        return Kernel(scanScalar);
#endif
    }();
    if (start < len && (b[start] == '{' || b[start] == '[')) return container(b, start, len);
    return scanScalar(b, start, len);
}

} // namespace bs
