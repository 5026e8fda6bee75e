#include "io/json_value_scanner.h"

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

#if defined(__SSE2__)
// 64 bytes at a time (SSE2, part of every x86-64): masks of quotes, backslashes and brackets, the bytes
// inside strings from a prefix XOR of the quotes, then only the brackets outside strings are visited.
// simdjson's stage 1 does the same; a few hundred bytes per event make this the reader's second pass.
struct Block {
    std::uint64_t quote = 0, slash = 0, open = 0, close = 0;
};

Block classify(const char* s) {
    Block k;
    const __m128i quote = _mm_set1_epi8('"'), slash = _mm_set1_epi8('\\');
    const __m128i open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}'), lower = _mm_set1_epi8(0x20);
    for (int j = 0; j < 4; ++j) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16 * j));
        const __m128i folded = _mm_or_si128(v, lower); // '[' -> '{', ']' -> '}' (and only those)
        auto mask = [&](__m128i x, __m128i c) {
            return static_cast<std::uint64_t>(
                       static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, c))))
                   << (16 * j);
        };
        k.quote |= mask(v, quote);
        k.slash |= mask(v, slash);
        k.open |= mask(folded, open);
        k.close |= mask(folded, close);
    }
    return k;
}

std::uint64_t prefixXor(std::uint64_t x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

// The bytes escaped by a backslash (simdjson's branchless odd-run rule); `carry`: the block's first byte
// is escaped by the previous block's last backslash, and receives whether the next block's is.
std::uint64_t escapedBytes(std::uint64_t slash, std::uint64_t& carry) {
    if (!slash) {
        const std::uint64_t e = carry;
        carry = 0;
        return e;
    }
    constexpr std::uint64_t kEven = 0x5555555555555555ULL;
    slash &= ~carry;
    const std::uint64_t followsEscape = slash << 1 | carry;
    const std::uint64_t oddStarts = slash & ~kEven & ~followsEscape;
    std::uint64_t evenSequences = 0;
    carry = __builtin_add_overflow(oddStarts, slash, &evenSequences) ? 1 : 0;
    return (kEven ^ (evenSequences << 1)) & followsEscape;
}

struct ContainerScan {
    long depth = 0;
    bool inString = false;
    std::uint64_t carry = 0; // the next byte is escaped (only ever inside a string)

    // Byte by byte as scanScalar reads it: used for a block with a backslash outside strings (not JSON).
    std::size_t bytewise(const char* b, std::size_t p, std::size_t n) {
        bool escapeNext = carry != 0;
        for (std::size_t j = 0; j < n; ++j) {
            const char c = b[p + j];
            if (inString) {
                if (escapeNext)
                    escapeNext = false;
                else if (c == '\\')
                    escapeNext = true;
                else if (c == '"')
                    inString = false;
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                return p + j + 1;
            }
        }
        carry = escapeNext ? 1 : 0;
        return kNpos;
    }

    // The brackets outside strings of one block. When every backslash lies inside a string, taking each
    // backslash as an escape (simdjson's rule) reads the block exactly as scanScalar does; otherwise the
    // block is read byte by byte.
    std::size_t block(const char* b, const Block& k, std::size_t p, std::size_t n) {
        const std::uint64_t carryIn = carry;
        const std::uint64_t escaped = escapedBytes(k.slash, carry);
        const std::uint64_t inside = prefixXor(k.quote & ~escaped) ^ (inString ? ~0ULL : 0ULL);
        if (k.slash & ~inside) {
            carry = carryIn;
            return bytewise(b, p, n);
        }
        inString = (inside >> 63) != 0;
        std::uint64_t brackets = (k.open | k.close) & ~inside;
        if (n < 64) brackets &= (1ULL << n) - 1;
        for (; brackets; brackets &= brackets - 1) {
            const int j = __builtin_ctzll(brackets);
            if ((k.open >> j) & 1)
                ++depth;
            else if (--depth == 0)
                return p + static_cast<std::size_t>(j) + 1;
        }
        return kNpos;
    }
};

std::size_t scanContainer(const char* b, std::size_t start, std::size_t len) {
    ContainerScan scan;
    for (std::size_t p = start; p < len; p += 64) {
        const std::size_t n = len - p < 64 ? len - p : 64;
        const Block k = classify(b + p); // reads up to 63 bytes past len: the caller's zero padding
        const std::size_t end = scan.block(b, k, p, n);
        if (end != kNpos) return end;
    }
    return kNpos;
}
#endif

} // namespace

std::size_t scanJsonValue(const char* b, std::size_t start, std::size_t len) {
#if defined(__SSE2__)
    if (start < len && (b[start] == '{' || b[start] == '[')) return scanContainer(b, start, len);
#endif
    return scanScalar(b, start, len);
}

} // namespace bs
