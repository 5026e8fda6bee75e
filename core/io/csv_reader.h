#pragma once
// RFC-4180-ish CSV over a whole buffer: quoted fields, doubled quotes, multi-line quoted fields,
// CRLF or LF (mixed), an optional UTF-8 BOM. Fields are handed out as string_views; a field that
// needed unescaping points into a per-row scratch buffer valid until the next row.
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace bs {

class CsvReader {
  public:
    explicit CsvReader(std::string_view text);
    // Reads the next record. Returns false at end of input. `line` is the 1-based physical line
    // on which the record starts.
    bool next(std::vector<std::string_view>& fields);
    std::uint64_t line() const { return recordLine_; }

  private:
    std::string_view text_;
    std::size_t pos_ = 0;
    std::uint64_t curLine_ = 1;
    std::uint64_t recordLine_ = 0;
    std::deque<std::string> scratch_; // deque: growing it never moves earlier fields
    std::size_t scratchUsed_ = 0;
};

// Header lookup by name, tolerant to case, surrounding whitespace, "(us)"/"(μs)" spelling.
class CsvHeader {
  public:
    explicit CsvHeader(const std::vector<std::string_view>& fields);
    // Index of the first column whose normalised name equals any of the candidates; -1 if none.
    int find(std::initializer_list<std::string_view> names) const;
    const std::vector<std::string>& names() const { return names_; }
    std::size_t size() const { return names_.size(); }
    static std::string normalise(std::string_view s);

  private:
    std::vector<std::string> names_;
    std::vector<std::string> norm_;
};

} // namespace bs
