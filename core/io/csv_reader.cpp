#include "io/csv_reader.h"

#include "i18n/message.h"
#include "io/file_buffer.h"
#include "model/time.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace bs {

namespace {

// The delimiters of 64 bytes of text, and among them those that end a run of unquoted fields (splitPlain):
// a line break, or a comma with a quote after it (the next field is quoted).
struct Masks {
    std::uint64_t delims; // bit i: text[i] is ',', '\n' or '\r'
    std::uint64_t stops;  // bit i: text[i] is '\n' or '\r', or ',' followed by '"'
};

// For the 64 bytes at text, which must have a 65th byte after them (SSE2 on every x86-64).
Masks windowMasks64(const char* text) {
#if defined(__SSE2__)
    const __m128i comma = _mm_set1_epi8(','), lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'),
                  quote = _mm_set1_epi8('"');
    std::uint64_t commas = 0, breaks = 0, quoteNext = 0;
#pragma GCC unroll 4
    for (int j = 0; j < 4; ++j) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text + 16 * j));
        const __m128i after = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text + 16 * j + 1));
        const auto bits = [](__m128i m) {
            return static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(m)));
        };
        commas |= bits(_mm_cmpeq_epi8(v, comma)) << (16 * j);
        breaks |= bits(_mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr))) << (16 * j);
        quoteNext |= bits(_mm_cmpeq_epi8(after, quote)) << (16 * j);
    }
    return {commas | breaks, breaks | (commas & quoteNext)};
#else
    Masks m{0, 0};
    for (int i = 0; i < 64; ++i) {
        const std::uint64_t bit = std::uint64_t(1) << i;
        if (text[i] == ',') {
            m.delims |= bit;
            if (text[i + 1] == '"') m.stops |= bit;
        } else if (text[i] == '\n' || text[i] == '\r') {
            m.delims |= bit;
            m.stops |= bit;
        }
    }
    return m;
#endif
}

// The masks of the 64-byte window of text that starts at base (a multiple of 64, so each byte is looked at
// once however short the fields). A window without a byte after it in the text is read from a zero-padded
// copy (the text has no padding of its own; a zero byte is no delimiter). Out of line: once per 64 bytes,
// and the field loops that call it keep their registers.
[[gnu::noinline]] Masks windowMasks(std::string_view text, std::size_t base) {
    if (base + 64 < text.size()) return windowMasks64(text.data() + base);
    if (base >= text.size()) return {0, 0};
    char tail[80] = {};
    std::memcpy(tail, text.data() + base, text.size() - base); // 1 to 64 bytes
    return windowMasks64(tail);
}

// The bytes before the first '\n', '\r' or '"' of text[0, len) (len if none): 16 bytes at a time, never
// past len.
std::size_t plainRun(const char* text, std::size_t len) {
    std::size_t i = 0;
#if defined(__SSE2__)
    const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'), quote = _mm_set1_epi8('"');
    for (; i + 16 <= len; i += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text + i));
        const __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(v, quote),
                                         _mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)));
        if (const int m = _mm_movemask_epi8(hit))
            return i + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(m)));
    }
#endif
    for (; i < len; ++i)
        if (text[i] == '\n' || text[i] == '\r' || text[i] == '"') return i;
    return len;
}

// The window splitPlain and endOfField move along the text: text[base, base + 64), base a multiple of 64.
struct Window {
    std::size_t base;
    Masks m;
    void moveTo(std::string_view text, std::size_t at) {
        base = at;
        m = windowMasks(text, at);
    }
};

// The first ',', '\n' or '\r' at or after p (the text's end if none), with the window moved on as needed:
// a shift and a count of trailing zeros while p stays in the window.
[[gnu::always_inline]] inline std::size_t endOfField(std::string_view text, std::size_t p, Window& w) {
    for (;;) {
        const std::size_t off = p - w.base; // huge (unsigned) when p is before the window
        if (off < 64) {
            if (const std::uint64_t m = w.m.delims >> off)
                return p + static_cast<std::size_t>(__builtin_ctzll(m));
            p = w.base + 64;
            if (p >= text.size()) return text.size();
        }
        w.moveTo(text, p & ~std::size_t(63));
    }
}

// A run of unquoted fields from start on, written to out (at most outEnd - out of them): each ends at the
// window's next delimiter. The run stops after a field that ends at a line break or at the text's end
// (after a ',' that is the text's last byte, with the empty field that follows it), before a quoted field,
// or when out is full; it returns the delimiter (or the text's end) after the last field and the end of the
// fields written. Whether a delimiter ends the run is one bit of the window's stops, not a look at the
// bytes around it. A function of its own, its arguments in registers and the window in locals: inside
// next(), with the record's other state live, the compiler kept part of the loop's state on the stack
// (~40 instructions a field; ~14 here).
struct RunEnd {
    std::size_t end;
    std::string_view* out;
};
[[gnu::noinline]] RunEnd splitPlain(const char* const t, const std::size_t n, std::size_t start, Window& w,
                                    std::string_view* out, std::string_view* const outEnd) {
    const std::string_view text(t, n);
    std::size_t base = w.base;
    Masks m = w.m;
    if (start - base >= 64) { // start is not in the window (an unsigned difference: nor before it)
        base = start & ~std::size_t(63);
        m = windowMasks(text, base);
    }
    std::uint64_t left = m.delims & (~std::uint64_t(0) << (start - base)); // the delimiters from start on
    for (;;) {
        while (left == 0) {
            if (base + 64 >= n) { // no delimiter before the text's end: the last field runs to it
                *out++ = std::string_view(t + start, n - start);
                w = {base, m};
                return {n, out};
            }
            base += 64;
            m = windowMasks(text, base);
            left = m.delims;
        }
        const std::uint64_t bit = left & (0 - left); // the next delimiter's
        const std::size_t e = base + static_cast<std::size_t>(__builtin_ctzll(left));
        *out++ = std::string_view(t + start, e - start);
        if ((m.stops & bit) != 0 || out == outEnd) {
            w = {base, m};
            return {e, out};
        }
        left ^= bit;
        start = e + 1;
    }
}

} // namespace

CsvReader::CsvReader(std::string_view text, bool more, bool atFileStart) : text_(text), more_(more) {
    if (atFileStart && text_.size() >= 3 && static_cast<unsigned char>(text_[0]) == 0xEF &&
        static_cast<unsigned char>(text_[1]) == 0xBB && static_cast<unsigned char>(text_[2]) == 0xBF)
        pos_ = 3;
}

void CsvReader::refill(std::string_view text, bool more) {
    text_ = text;
    maskBase_ = kNoMask;
    pos_ = 0;
    more_ = more;
    needsMore_ = false;
}

// The record that started at recordPos reached the chunk's end: it is read again from the next chunk.
bool CsvReader::incomplete(std::size_t recordPos, std::uint64_t recordLine) {
    pos_ = recordPos;
    curLine_ = recordLine;
    needsMore_ = true;
    resumeAt_ = recordPos;
    return false;
}

// The record is split with the window's mask, its position and the output in locals: fields are written
// through a pointer into `fields` kept at a size of at least the last record's (growing it value-
// initialises only the new elements) and cut to the record's count at the end. With members and
// push_back, every store of a field (a pointer and a size) could alias the reader's own members, which
// the compiler then read again for every field (~57 instructions a field; kernel_details.csv has 46 a row).
bool CsvReader::next(std::vector<std::string_view>& fields) {
    scratchUsed_ = 0;
    needsMore_ = false;
    rawTail_ = false;
    const char* const t = text_.data();
    const std::size_t n = text_.size();
    std::size_t pos = pos_;
    std::uint64_t line = curLine_;
    // Skip blank lines between records.
    while (pos < n && (t[pos] == '\n' || t[pos] == '\r')) {
        if (t[pos] == '\n') ++line;
        ++pos;
    }
    if (pos >= n) {
        pos_ = pos;
        curLine_ = line;
        fields.clear();
        return more_ ? incomplete(pos, line) : false;
    }
    recordLine_ = line;
    const std::size_t recordPos = pos;
    const std::uint64_t recordLine = line;
    if (fields.size() < 16) fields.resize(16);
    std::string_view* out = fields.data();
    std::size_t room = fields.size(), count = 0;
    auto grow = [&] {
        fields.resize(room * 2);
        out = fields.data();
        room = fields.size();
    };
    auto push = [&](std::string_view f) {
        if (count == room) grow();
        out[count++] = f;
    };
    Window win{maskBase_, {delims_, stops_}};
    // Leaves the record: the reader's state written back once.
    auto finish = [&](bool complete) {
        maskBase_ = win.base;
        delims_ = win.m.delims;
        stops_ = win.m.stops;
        if (!complete) {
            fields.resize(count);
            return incomplete(recordPos, recordLine);
        }
        pos_ = pos;
        curLine_ = line;
        fields.resize(count);
        return true;
    };
    while (true) {
        if (pos < n && t[pos] == '"') {
            // Quoted field: from quote to quote (memchr), a doubled quote standing for one.
            ++pos;
            const std::size_t start = pos;
            bool needsCopy = false;
            for (;;) {
                const void* q = std::memchr(t + pos, '"', n - pos);
                if (q == nullptr) { // unterminated: the field runs to the end of the text
                    pos = n;
                    break;
                }
                pos = static_cast<std::size_t>(static_cast<const char*>(q) - t);
                if (pos + 1 < n && t[pos + 1] == '"') {
                    needsCopy = true;
                    pos += 2;
                    continue;
                }
                break;
            }
            const std::size_t end = pos;
            for (const char* lf = t + start;
                 (lf = static_cast<const char*>(std::memchr(lf, '\n', t + end - lf))) != nullptr; ++lf)
                ++line;
            if (pos < n) ++pos; // closing quote
            std::string_view raw = text_.substr(start, end - start);
            if (needsCopy && raw.size() >= 4 && raw.substr(0, 2) == "\"\"" && raw.substr(raw.size() - 2) == "\"\"" &&
                std::memchr(raw.data() + 2, '"', raw.size() - 4) == nullptr) {
                // The usual doubled quotes, around the whole value ("""8,2048""" is "8,2048" with its
                // quotes): the unquoted text is the raw one without its first and last byte, no copy.
                push(raw.substr(1, raw.size() - 2));
            } else if (needsCopy) {
                if (scratchUsed_ >= scratch_.size()) scratch_.emplace_back();
                std::string& s = scratch_[scratchUsed_++];
                s.clear();
                for (std::size_t i = 0; i < raw.size();) { // up to each quote, which stands for two
                    const std::size_t q = raw.find('"', i);
                    if (q == std::string_view::npos) {
                        s.append(raw.substr(i));
                        break;
                    }
                    s.append(raw.substr(i, q + 1 - i));
                    i = q + 1;
                    if (i < raw.size() && raw[i] == '"') ++i;
                }
                push(s);
            } else {
                push(raw);
            }
            // Anything between the closing quote and the delimiter (e.g. a trailing TAB) is dropped.
            if (pos < n) pos = endOfField(text_, pos, win);
        } else {
            // Unquoted fields one after the other (splitPlain), until one ends the record, the next is
            // quoted or the room in `fields` is used up (then the loop comes back here after the comma).
            if (count == room) grow();
            // Before the raw tail's first field, the run stops at it (then a ',' follows, below).
            const std::size_t limit = count < tailFrom_ && tailFrom_ < room ? tailFrom_ : room;
            const RunEnd r = splitPlain(t, n, pos, win, out + count, out + limit);
            count = static_cast<std::size_t>(r.out - out);
            pos = r.end;
        }
        if (pos >= n) return finish(!more_);
        const char c = t[pos];
        if (c == ',') {
            ++pos;
            if (pos >= n) {
                if (more_) return finish(false);
                push({});
                return finish(true);
            }
            if (count == tailFrom_) {
                // The rest of the record uncut, if it is plain: its first '\n', '\r' or '"' within
                // kMaxRawTail bytes is a line feed, or a CR with a line feed after it (so the record is
                // complete in this text, and a file without such line ends costs at most that per record).
                const std::size_t at = pos + plainRun(t + pos, std::min(n - pos, kMaxRawTail));
                const std::size_t next = at < n && t[at] == '\r' ? at + 1 : at;
                if (next < n && t[next] == '\n') {
                    push(std::string_view(t + pos, at - pos));
                    pos = next + 1;
                    ++line;
                    rawTail_ = true;
                    return finish(true);
                }
            }
            continue;
        }
        // End of record: CR, LF or CRLF.
        if (c == '\r') {
            if (more_ && pos + 1 >= n) return finish(false); // an LF may follow
            ++pos;
            if (pos < n && t[pos] == '\n') ++pos;
        } else {
            ++pos;
        }
        ++line;
        return finish(true);
    }
}

CsvFileReader::CsvFileReader(const std::string& path, std::uint64_t maxBytes, bool rejectBinary,
                             std::size_t chunkBytes)
    : path_(path) {
    file_ = openCheckedFile(path, maxBytes, rejectBinary);
    if (file_.fd < 0) {
        error_ = std::move(file_.error);
        return;
    }
    const std::uint64_t fileSize = file_.size;
#ifdef POSIX_FADV_SEQUENTIAL
    (void)::posix_fadvise(file_.fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    // At least 4 bytes, so that the first chunk holds a whole byte-order mark when the file has one.
    buf_.resize(std::max<std::size_t>(chunkBytes, 4));
    if (!fill()) return;
    std::uint64_t lines = 0; // memchr: std::count here went byte by byte (7 instructions a byte)
    for (const char *p = buf_.data(), *e = p + filled_;
         (p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(e - p)))) != nullptr; ++p)
        ++lines;
    if (!eof_ && filled_ > 0) // scaled to the file's size, plus 1 % for lines shorter than the first chunk's
        lines = static_cast<std::uint64_t>(static_cast<double>(lines) * static_cast<double>(fileSize) /
                                           static_cast<double>(filled_) * 1.01);
    estimatedLines_ = lines + 1;
    csv_ = CsvReader(std::string_view(buf_.data(), filled_), !eof_);
}

CsvFileReader::CsvFileReader(const std::string& path, std::uint64_t maxBytes, std::uint64_t from,
                             std::size_t chunkBytes)
    : path_(path) {
    file_ = openCheckedFile(path, maxBytes, false);
    if (file_.fd < 0) {
        error_ = std::move(file_.error);
        return;
    }
    if (::lseek(file_.fd, static_cast<off_t>(from), SEEK_SET) < 0) {
        error_ = msg("read error on {}: {}", path_, std::strerror(errno));
        return;
    }
#ifdef POSIX_FADV_SEQUENTIAL
    (void)::posix_fadvise(file_.fd, static_cast<off_t>(from), 0, POSIX_FADV_SEQUENTIAL);
#endif
    offset_ = from;
    buf_.resize(std::max<std::size_t>(chunkBytes, 4));
    if (!fill()) return;
    csv_ = CsvReader(std::string_view(buf_.data(), filled_), !eof_, false);
}

CsvFileReader::~CsvFileReader() = default;

bool CsvFileReader::limitTo(std::uint64_t end) {
    if (eof_ || limited_ || end < offset_ + filled_) return false;
    limit_ = end;
    limited_ = true;
    return true;
}

void CsvFileReader::unlimit() {
    limit_ = UINT64_MAX;
    limited_ = false;
    eof_ = false;
}

bool CsvFileReader::fill() {
    while (filled_ < buf_.size() && !eof_) {
        std::size_t want = buf_.size() - filled_;
        const std::uint64_t at = offset_ + filled_;
        if (limit_ - at < want) want = static_cast<std::size_t>(limit_ - at);
        if (want == 0) {
            eof_ = true;
            break;
        }
        const ssize_t got = ::read(file_.fd, buf_.data() + filled_, want);
        if (got < 0) {
            if (errno == EINTR) continue;
            error_ = msg("read error on {}: {}", path_, std::strerror(errno));
            return false;
        }
        if (got == 0) eof_ = true;
        filled_ += static_cast<std::size_t>(got);
    }
    return true;
}

bool CsvFileReader::next(std::vector<std::string_view>& fields) {
    if (!error_.empty()) return false;
    while (!csv_.next(fields)) {
        if (!csv_.needsMore() || (abandon_ && abandon_->load(std::memory_order_relaxed))) return false;
        const std::size_t keep = csv_.resumeAt();
        if (limited_ && eof_) { // at the limit: stop before the record that reaches it (if any)
            stoppedAt_ = offset_ + keep;
            return false;
        }
        // Keep the unfinished record, read on after it; a record longer than the buffer doubles it.
        std::memmove(buf_.data(), buf_.data() + keep, filled_ - keep);
        filled_ -= keep;
        offset_ += keep;
        if (filled_ == buf_.size()) buf_.resize(buf_.size() * 2);
        if (!fill()) return false;
        csv_.refill(std::string_view(buf_.data(), filled_), moreAfterBuffer());
    }
    return true;
}

std::string CsvHeader::normalise(std::string_view s) {
    s = trimField(s);
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        // "μs" (U+03BC, UTF-8 CE BC) and "µs" (U+00B5, C2 B5) both become "us".
        if ((c == 0xCE && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xBC) ||
            (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xB5)) {
            out.push_back('u');
            ++i;
            continue;
        }
        if (c == ' ' || c == '_') continue;
        out.push_back(static_cast<char>(std::tolower(c)));
    }
    return out;
}

CsvHeader::CsvHeader(const std::vector<std::string_view>& fields) {
    for (auto f : fields) {
        names_.emplace_back(trimField(f));
        norm_.push_back(normalise(f));
    }
}

int CsvHeader::find(std::initializer_list<std::string_view> names) const {
    for (auto n : names) {
        std::string want = normalise(n);
        for (std::size_t i = 0; i < norm_.size(); ++i)
            if (norm_[i] == want) return static_cast<int>(i);
    }
    return -1;
}

} // namespace bs
