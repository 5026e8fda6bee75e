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

// Bit i set when text[i] is ',', '\n' or '\r', for the 64 bytes at text (SSE2 on every x86-64).
std::uint64_t delimiterMask(const char* text) {
#if defined(__SSE2__)
    const __m128i comma = _mm_set1_epi8(','), lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
    std::uint64_t mask = 0;
    for (int j = 0; j < 4; ++j) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text + 16 * j));
        const __m128i hit =
            _mm_or_si128(_mm_cmpeq_epi8(v, comma), _mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)));
        mask |= static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm_movemask_epi8(hit))) << (16 * j);
    }
    return mask;
#else
    std::uint64_t mask = 0;
    for (int i = 0; i < 64; ++i)
        if (text[i] == ',' || text[i] == '\n' || text[i] == '\r') mask |= std::uint64_t(1) << i;
    return mask;
#endif
}

} // namespace

CsvReader::CsvReader(std::string_view text, bool more, bool atFileStart) : text_(text), more_(more) {
    if (atFileStart && text_.size() >= 3 && static_cast<unsigned char>(text_[0]) == 0xEF &&
        static_cast<unsigned char>(text_[1]) == 0xBB && static_cast<unsigned char>(text_[2]) == 0xBF)
        pos_ = 3;
}

// The delimiters of the 64-byte window of text_ that holds pos. Windows start at multiples of 64, so each
// byte is looked at once however short the fields; the last window is read from a zero-padded copy (the
// text has no padding of its own), and a zero byte is no delimiter.
void CsvReader::loadWindow(std::size_t pos) {
    maskBase_ = pos & ~std::size_t(63);
    if (maskBase_ + 64 <= text_.size()) {
        mask_ = delimiterMask(text_.data() + maskBase_);
    } else if (maskBase_ >= text_.size()) {
        mask_ = 0;
    } else {
        char tail[64] = {};
        std::memcpy(tail, text_.data() + maskBase_, text_.size() - maskBase_);
        mask_ = delimiterMask(tail);
    }
}

// The first ',', '\n' or '\r' at or after pos (text_.size() if none): a shift and a count of trailing zeros
// while pos stays in the window.
inline std::size_t CsvReader::endOfField(std::size_t pos) {
    for (;;) {
        const std::size_t off = pos - maskBase_; // huge (unsigned) when pos is before the window
        if (off < 64) {
            if (const std::uint64_t m = mask_ >> off) return pos + static_cast<std::size_t>(__builtin_ctzll(m));
            pos = maskBase_ + 64;
            if (pos >= text_.size()) return text_.size();
        }
        loadWindow(pos);
    }
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

bool CsvReader::next(std::vector<std::string_view>& fields) {
    fields.clear();
    scratchUsed_ = 0;
    needsMore_ = false;
    // Skip blank lines between records.
    while (pos_ < text_.size() && (text_[pos_] == '\n' || text_[pos_] == '\r')) {
        if (text_[pos_] == '\n') ++curLine_;
        ++pos_;
    }
    if (pos_ >= text_.size()) return more_ ? incomplete(pos_, curLine_) : false;
    recordLine_ = curLine_;
    const std::size_t recordPos = pos_;
    const std::uint64_t recordLine = curLine_;
    const std::size_t n = text_.size();
    while (true) {
        if (pos_ < n && text_[pos_] == '"') {
            // Quoted field: from quote to quote (memchr), a doubled quote standing for one.
            ++pos_;
            const char* t = text_.data();
            const std::size_t start = pos_;
            bool needsCopy = false;
            for (;;) {
                const void* q = std::memchr(t + pos_, '"', n - pos_);
                if (q == nullptr) { // unterminated: the field runs to the end of the text
                    pos_ = n;
                    break;
                }
                pos_ = static_cast<std::size_t>(static_cast<const char*>(q) - t);
                if (pos_ + 1 < n && t[pos_ + 1] == '"') {
                    needsCopy = true;
                    pos_ += 2;
                    continue;
                }
                break;
            }
            const std::size_t end = pos_;
            for (const char* lf = t + start;
                 (lf = static_cast<const char*>(std::memchr(lf, '\n', t + end - lf))) != nullptr; ++lf)
                ++curLine_;
            if (pos_ < n) ++pos_; // closing quote
            std::string_view raw = text_.substr(start, end - start);
            if (needsCopy && raw.size() >= 4 && raw.substr(0, 2) == "\"\"" && raw.substr(raw.size() - 2) == "\"\"" &&
                std::memchr(raw.data() + 2, '"', raw.size() - 4) == nullptr) {
                // The usual doubled quotes, around the whole value ("""8,2048""" is "8,2048" with its
                // quotes): the unquoted text is the raw one without its first and last byte, no copy.
                fields.push_back(raw.substr(1, raw.size() - 2));
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
                fields.emplace_back(s);
            } else {
                fields.push_back(raw);
            }
            // Anything between the closing quote and the delimiter (e.g. a trailing TAB) is dropped.
            if (pos_ < n) pos_ = endOfField(pos_);
        } else {
            // Unquoted fields one after the other, until one ends the record or the next is quoted.
            const char* t = text_.data();
            std::size_t start = pos_;
            for (;;) {
                const std::size_t e = endOfField(start);
                fields.emplace_back(t + start, e - start);
                pos_ = e;
                if (e + 1 >= n || t[e] != ',' || t[e + 1] == '"') break;
                start = e + 1;
            }
        }
        if (pos_ >= n) return more_ ? incomplete(recordPos, recordLine) : true;
        char c = text_[pos_];
        if (c == ',') {
            ++pos_;
            if (pos_ >= n) {
                if (more_) return incomplete(recordPos, recordLine);
                fields.emplace_back();
                return true;
            }
            continue;
        }
        // End of record: CR, LF or CRLF.
        if (c == '\r') {
            if (more_ && pos_ + 1 >= n) return incomplete(recordPos, recordLine); // an LF may follow
            ++pos_;
            if (pos_ < n && text_[pos_] == '\n') ++pos_;
        } else {
            ++pos_;
        }
        ++curLine_;
        return true;
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
