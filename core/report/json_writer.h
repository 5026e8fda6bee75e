#pragma once
// A streaming JSON writer whose text is byte for byte what nlohmann's dump(2, ' ', false, replace) writes for
// the same values (core/README.md, Output, "JSON writer"): numbers through nlohmann's own shortest
// round-trip conversion, strings escaped by nlohmann whenever they hold anything but plain printable ASCII,
// analysis messages rendered in the output language first. Used for the export's large arrays, where
// building a DOM cost more than the analysis.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bs {

class JsonWriter {
public:
    // Writes into `out`; `depth` is the nesting depth of the value about to be written (0: top level).
    JsonWriter(std::string& out, int depth) : out_(out), baseDepth_(depth) {}

    JsonWriter& beginObject() { return open('{'); }
    JsonWriter& endObject() { return close('}'); }
    JsonWriter& beginArray() { return open('['); }
    JsonWriter& endArray() { return close(']'); }
    JsonWriter& key(std::string_view k);

    JsonWriter& value(std::string_view s);
    JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
    JsonWriter& value(const char* s) { return value(std::string_view(s)); }
    JsonWriter& value(double d);
    JsonWriter& value(bool b);
    JsonWriter& value(std::int64_t i);
    JsonWriter& value(std::uint64_t u);
    JsonWriter& value(int i) { return value(static_cast<std::int64_t>(i)); }
    JsonWriter& value(long long i) { return value(static_cast<std::int64_t>(i)); }
    JsonWriter& value(unsigned long long u) { return value(static_cast<std::uint64_t>(u)); }
    JsonWriter& null();
    JsonWriter& value(const std::vector<std::string>& strings);

    // key(k) then value(v).
    template <class T>
    JsonWriter& member(std::string_view k, const T& v) {
        key(k);
        return value(v);
    }

private:
    JsonWriter& open(char bracket);
    JsonWriter& close(char bracket);
    void beforeValue();
    void indent(std::size_t depth);
    void string(std::string_view s);

    std::string& out_;
    int baseDepth_;
    std::vector<std::size_t> counts_; // members / elements written so far in each open container
    bool afterKey_ = false;
};

} // namespace bs
