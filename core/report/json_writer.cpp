#include "report/json_writer.h"

#include "i18n/message.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>

#include <fmt/format.h>

namespace bs {

void JsonWriter::indent(std::size_t depth) {
    out_.append(depth * 2, ' ');
}

// Inside an array a new element starts on its own line; after a key the value follows on the same line.
void JsonWriter::beforeValue() {
    if (afterKey_) {
        afterKey_ = false;
        return;
    }
    if (counts_.empty()) return;
    out_ += counts_.back()++ ? ",\n" : "\n";
    indent(static_cast<std::size_t>(baseDepth_) + counts_.size());
}

JsonWriter& JsonWriter::open(char bracket) {
    beforeValue();
    out_ += bracket;
    counts_.push_back(0);
    return *this;
}

JsonWriter& JsonWriter::close(char bracket) {
    const std::size_t n = counts_.back();
    counts_.pop_back();
    if (n) {
        out_ += '\n';
        indent(static_cast<std::size_t>(baseDepth_) + counts_.size());
    }
    out_ += bracket;
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
    out_ += counts_.back()++ ? ",\n" : "\n";
    indent(static_cast<std::size_t>(baseDepth_) + counts_.size());
    string(k);
    out_ += ": ";
    afterKey_ = true;
    return *this;
}

void JsonWriter::string(std::string_view s) {
    bool plain = true;
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u >= 0x80 || c == '"' || c == '\\') {
            plain = false;
            break;
        }
    }
    if (plain) {
        out_ += '"';
        out_ += s;
        out_ += '"';
        return;
    }
    // Escapes, non-ASCII and invalid UTF-8 (replaced by U+FFFD): exactly as the DOM's dump writes them.
    out_ += nlohmann::ordered_json(std::string(s)).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

JsonWriter& JsonWriter::value(std::string_view s) {
    beforeValue();
    if (hasMessage(s))
        string(render(std::string(s)));
    else
        string(s);
    return *this;
}

JsonWriter& JsonWriter::value(double d) {
    beforeValue();
    if (!std::isfinite(d)) {
        out_ += "null";
        return *this;
    }
    std::array<char, 64> buf{};
    const char* end = nlohmann::detail::to_chars(buf.data(), buf.data() + buf.size(), d);
    out_.append(buf.data(), static_cast<std::size_t>(end - buf.data()));
    return *this;
}

JsonWriter& JsonWriter::value(bool b) {
    beforeValue();
    out_ += b ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::value(std::int64_t i) {
    beforeValue();
    fmt::format_to(std::back_inserter(out_), "{}", i);
    return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t u) {
    beforeValue();
    fmt::format_to(std::back_inserter(out_), "{}", u);
    return *this;
}

JsonWriter& JsonWriter::null() {
    beforeValue();
    out_ += "null";
    return *this;
}

JsonWriter& JsonWriter::value(const std::vector<std::string>& strings) {
    beginArray();
    for (const auto& s : strings)
        value(s);
    return endArray();
}

} // namespace bs
