// Portable build of the element parser (simdjson's compile-time kernel for the default target).
#define BS_PARSER_CLASS GenericElementParser
#include "io/trace_element_parser.inc"

namespace bs {

std::unique_ptr<ElementParser> makeGenericElementParser() {
    return std::make_unique<GenericElementParser>();
}

std::unique_ptr<ElementParser> makeElementParser() {
    // simdjson's run-time detection says whether this CPU has AVX2/BMI/PCLMUL (haswell or better).
    const std::string active = simdjson::get_active_implementation()->name();
    if (active == "haswell" || active == "icelake")
        if (auto p = makeHaswellElementParser()) return p;
    return makeGenericElementParser();
}

} // namespace bs
