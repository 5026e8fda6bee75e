#pragma once
// Whole-file reads for the (small to medium) CSV/JSON side files, with zeroed padding so that
// simdjson can parse in place. Trace files are streamed in chunks instead (trace_json_reader).
#include <cstdint>
#include <string>
#include <vector>

namespace bs {

struct FileBuffer {
    std::vector<char> data; // size() == length + padding
    std::size_t length = 0;
    std::string error;      // non-empty when the read failed
    const char* begin() const { return data.data(); }
    std::string_view view() const { return std::string_view(data.data(), length); }
};

constexpr std::size_t kReadPadding = 64;

// Reads a file fully. Refuses files larger than maxBytes with a message (never an OOM).
FileBuffer readWholeFile(const std::string& path, std::uint64_t maxBytes = (4ULL << 30));

} // namespace bs
