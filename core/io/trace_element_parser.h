#pragma once
// Parses one trace event object into its raw fields. Two builds of the same code exist: one for
// CPUs with AVX2 (simdjson's haswell kernel) and a portable one; makeElementParser() picks at run time.
// Strings point into the parser's buffers and are valid until the next parse().
#include <memory>
#include <string>
#include <string_view>

namespace bs {

// Readable bytes the caller guarantees after every element (simdjson reads ahead).
constexpr std::size_t kElementPadding = 64;

struct RawEvent {
    char ph = 0;
    bool hasName = false;
    std::string_view name, cat, id, ts, dur, pid, tid; // id/ts/dur/pid/tid: raw JSON tokens
    std::string_view taskType, streamId, argName, argLabels, sortIndex;
    bool hasStack = false, hasShapes = false;
};

class ElementParser {
  public:
    virtual ~ElementParser() = default;
    // false with `error` set when the element is not a valid event object.
    virtual bool parse(const char* data, std::size_t len, RawEvent& out, const char*& error) = 0;
    virtual const char* kernelName() const = 0;
};

std::unique_ptr<ElementParser> makeElementParser();
std::unique_ptr<ElementParser> makeGenericElementParser();
std::unique_ptr<ElementParser> makeHaswellElementParser(); // nullptr when not built for this platform

} // namespace bs
