#pragma once
// A fixed pseudo-random sequence for generated test inputs (xorshift64): the same inputs on every run.
#include <cstdint>

namespace bstest {

struct XorShift {
    std::uint64_t x;
    std::uint64_t operator()() {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        return x;
    }
};

} // namespace bstest
