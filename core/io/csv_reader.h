#pragma once
// RFC-4180-ish CSV over a whole buffer: quoted fields, doubled quotes, multi-line quoted fields,
// CRLF or LF (mixed), an optional UTF-8 BOM. Fields are handed out as string_views; a field that
// needed unescaping points into a per-row scratch buffer valid until the next row.
#include "io/file_buffer.h"

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace bs {

class CsvReader {
  public:
    // `more`: the text is a chunk of a longer one (CsvFileReader). A record that reaches the chunk's end
    // (or ends in a CR that may be followed by an LF) is then not returned: next() returns false with
    // needsMore(), and resumeAt() is where that record starts in the chunk.
    // atFileStart: a byte-order mark at the start of text is skipped (not when text starts mid-file).
    explicit CsvReader(std::string_view text, bool more = false, bool atFileStart = true);
    // Reads the next record. Returns false at end of input. `line` is the 1-based physical line
    // on which the record starts.
    bool next(std::vector<std::string_view>& fields);
    std::uint64_t line() const { return recordLine_; }
    // The line on which the next record starts.
    std::uint64_t nextLine() const { return curLine_; }
    bool needsMore() const { return needsMore_; }
    std::size_t resumeAt() const { return resumeAt_; }
    // The next chunk, which starts with the bytes from resumeAt() on; the line count goes on.
    void refill(std::string_view text, bool more);
    // From now on, a record's fields from index `from` on may be handed out uncut: when the record goes on
    // past its field from-1 and the rest of it is plain text (no quote, no CR, ended within kMaxRawTail
    // bytes by an LF or a CR LF), that rest is the record's last view (so fields.size() == from + 1) and
    // rawTail() is true; its fields are the view cut at each ',', and the byte after it in the text is the
    // CR or LF that ends it. Any other record is cut as usual (rawTail() false). For a reader that parses
    // those fields straight from the text (the kernel table's PMU figures).
    void setRawTailFrom(std::size_t from) { tailFrom_ = from; }
    bool rawTail() const { return rawTail_; }
    static constexpr std::size_t kMaxRawTail = 4096;

  private:
    bool incomplete(std::size_t recordPos, std::uint64_t recordLine);

    static constexpr std::size_t kNoMask = static_cast<std::size_t>(-1) / 2; // no window: pos never in it
    std::string_view text_;
    std::size_t maskBase_ = kNoMask; // the delimiters of text_[maskBase_, maskBase_ + 64), and those of
    std::uint64_t delims_ = 0;       // them that end a run of unquoted fields
    std::uint64_t stops_ = 0;
    std::size_t pos_ = 0;
    std::uint64_t curLine_ = 1;
    std::uint64_t recordLine_ = 0;
    std::deque<std::string> scratch_; // deque: growing it never moves earlier fields
    std::size_t scratchUsed_ = 0;
    bool more_ = false, needsMore_ = false;
    std::size_t resumeAt_ = 0;
    std::size_t tailFrom_ = SIZE_MAX;
    bool rawTail_ = false;
};

// A CSV file read a chunk at a time into one reused buffer (grown only for a record longer than it):
// tables of hundreds of MB are parsed without a copy of the whole file in fresh memory. Records, fields
// and line numbers are those of CsvReader over the whole text.
class CsvFileReader {
  public:
    // Opens and checks the file as readWholeFile does (a regular file of at most maxBytes; with
    // rejectBinary, no NUL byte in its first 64 KiB); error() says why not.
    CsvFileReader(const std::string& path, std::uint64_t maxBytes, bool rejectBinary,
                  std::size_t chunkBytes = std::size_t(4) << 20);
    // The records from byte `from` on, a record start (a second reader over the same file); lines are
    // counted from 1 there, and no byte-order mark is looked for.
    CsvFileReader(const std::string& path, std::uint64_t maxBytes, std::uint64_t from,
                  std::size_t chunkBytes);
    ~CsvFileReader();
    CsvFileReader(const CsvFileReader&) = delete;
    CsvFileReader& operator=(const CsvFileReader&) = delete;
    // Why the file could not be opened, or a read error met by next() (then next() returns false).
    const std::string& error() const { return error_; }
    bool next(std::vector<std::string_view>& fields);
    std::uint64_t line() const { return csv_.line(); }
    // CsvReader::setRawTailFrom / rawTail, for every chunk.
    void setRawTailFrom(std::size_t from) { csv_.setRawTailFrom(from); }
    bool rawTail() const { return csv_.rawTail(); }
    // Lines in the file, estimated from the first chunk (exact when the file fits in it).
    std::uint64_t estimatedLines() const { return estimatedLines_; }
    std::uint64_t fileSize() const { return file_.size; }
    // Stops reading at byte `end`, as if the file went on past it unread: next() returns false at the
    // last record that ends by `end`. False (nothing changed) when the reader has already read past it.
    bool limitTo(std::uint64_t end);
    // After next() returned false at the limit: whether a record ended exactly there (then the records
    // after it are those of a reader started at `end`), and the line on which the next record starts.
    bool endedAtLimit() const { return limited_ && stoppedAt_ == limit_; }
    std::uint64_t nextLine() const { return csv_.nextLine(); }
    // Lifts the limit: next() goes on to the end of the file as if there had been none.
    void unlimit();
    // With a flag set from elsewhere (another thread), next() returns false before it reads more of the
    // file: a record longer than the buffer is no longer read to its end.
    void abandonWhen(const std::atomic<bool>* flag) { abandon_ = flag; }

  private:
    bool fill(); // reads until the buffer is full or the file (or the limit) ends; false on a read error
    bool moreAfterBuffer() const { return !eof_ || limited_; }
    std::string path_, error_;
    CheckedFile file_; // the open file (closed with the reader)
    std::vector<char> buf_;
    std::size_t filled_ = 0;
    std::uint64_t offset_ = 0;         // the file offset of buf_[0]
    std::uint64_t limit_ = UINT64_MAX; // bytes at or past it are not read
    std::uint64_t stoppedAt_ = 0;      // where next() stopped at the limit
    bool limited_ = false;
    bool eof_ = false;
    const std::atomic<bool>* abandon_ = nullptr;
    std::uint64_t estimatedLines_ = 0;
    CsvReader csv_{std::string_view()};
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
