// AVX2 build of the element parser. This file alone is compiled with -mavx2 -mbmi -mpclmul -mlzcnt
// (core/CMakeLists.txt) and is only used after run-time detection (makeElementParser). It must stay
// last in the link order of bubblescope_core so that any inline function it shares with other files
// is taken from their portable copies.
#if defined(__x86_64__) && defined(__AVX2__)
#define BS_PARSER_CLASS HaswellElementParser
#include "io/trace_element_parser.inc"

namespace bs {
std::unique_ptr<ElementParser> makeHaswellElementParser() {
    return std::make_unique<HaswellElementParser>();
}
} // namespace bs
#else
#include "io/trace_element_parser.h"

namespace bs {
std::unique_ptr<ElementParser> makeHaswellElementParser() {
    return nullptr;
}
} // namespace bs
#endif
