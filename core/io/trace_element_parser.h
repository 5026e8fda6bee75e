#pragma once
// Parses one trace event object into its raw fields. Two builds of the same code exist: one for
// CPUs with AVX2 (simdjson's haswell kernel) and a portable one; makeElementParser() picks at run time.
// Strings point into the parser's buffers and are valid until the next parse().
#include <functional>
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
    std::string_view taskType, streamId, argName, argLabels, sortIndex, stack;
    bool hasStack = false, hasShapes = false;
};

class ElementParser {
  public:
    virtual ~ElementParser() = default;
    // false with `error` set when the element is not a valid event object.
    virtual bool parse(const char* data, std::size_t len, RawEvent& out, const char*& error) = 0;
    // Parses a run of complete event objects separated only by whitespace (the caller blanks the commas)
    // in one pass — far cheaper per event than parse(). Calls onEvent(offset within data, event) in order
    // and returns how many documents it delivered; it stops at the first document it cannot read, which
    // the caller then parses on its own with parse() to report it. maxDoc: size of the largest document.
    virtual std::size_t parseBatch(const char* data, std::size_t len, std::size_t maxDoc,
                                   const std::function<void(std::size_t, RawEvent&)>& onEvent) = 0;
    virtual const char* kernelName() const = 0;
};

std::unique_ptr<ElementParser> makeElementParser();
std::unique_ptr<ElementParser> makeGenericElementParser();
std::unique_ptr<ElementParser> makeHaswellElementParser(); // nullptr when not built for this platform

} // namespace bs
