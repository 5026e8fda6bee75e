// AVX2 build of the element scanner's container scan. This file alone (with the element parser's
// haswell file) is compiled with -mavx2 -mpclmul (core/CMakeLists.txt); scanJsonValue calls it only after
// run-time detection. Its functions have internal linkage (json_value_scanner_kernel.inc), so no inline
// copy built with AVX2 can be taken by a portable caller.
#include "io/json_value_scanner.h"

#if defined(__x86_64__) && defined(__AVX2__) && defined(__PCLMUL__)
#define BS_SCAN_KERNEL scanContainerAvx2
#include "io/json_value_scanner_kernel.inc"

namespace bs::detail {
bool scanContainerAvx2Built() {
    return true;
}
} // namespace bs::detail
#else
namespace bs {
std::size_t scanContainerAvx2(const char*, std::size_t, std::size_t) {
    return kScanIncomplete; // never called: scanContainerAvx2Built() is false
}
namespace detail {
bool scanContainerAvx2Built() {
    return false;
}
} // namespace detail
} // namespace bs
#endif
