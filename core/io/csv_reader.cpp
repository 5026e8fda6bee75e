#include "io/csv_reader.h"

#include "model/time.h"

#include <cctype>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace bs {

namespace {

// The first ',', '\n' or '\r' at or after pos (text.size() if none): sixteen bytes at a time while
// sixteen remain (SSE2, every x86-64), then byte by byte.
std::size_t endOfField(std::string_view text, std::size_t pos) {
    const std::size_t n = text.size();
#if defined(__SSE2__)
    const __m128i comma = _mm_set1_epi8(','), lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
    for (; pos + 16 <= n; pos += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + pos));
        const __m128i hit =
            _mm_or_si128(_mm_cmpeq_epi8(v, comma), _mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)));
        if (const int mask = _mm_movemask_epi8(hit)) return pos + static_cast<std::size_t>(__builtin_ctz(mask));
    }
#endif
    while (pos < n && text[pos] != ',' && text[pos] != '\n' && text[pos] != '\r')
        ++pos;
    return pos;
}

} // namespace

CsvReader::CsvReader(std::string_view text) : text_(text) {
    if (text_.size() >= 3 && static_cast<unsigned char>(text_[0]) == 0xEF &&
        static_cast<unsigned char>(text_[1]) == 0xBB && static_cast<unsigned char>(text_[2]) == 0xBF)
        pos_ = 3;
}

bool CsvReader::next(std::vector<std::string_view>& fields) {
    fields.clear();
    scratchUsed_ = 0;
    // Skip blank lines between records.
    while (pos_ < text_.size() && (text_[pos_] == '\n' || text_[pos_] == '\r')) {
        if (text_[pos_] == '\n') ++curLine_;
        ++pos_;
    }
    if (pos_ >= text_.size()) return false;
    recordLine_ = curLine_;
    const std::size_t n = text_.size();
    while (true) {
        if (pos_ < n && text_[pos_] == '"') {
            // Quoted field.
            ++pos_;
            std::size_t start = pos_;
            bool needsCopy = false;
            std::size_t end = pos_;
            while (pos_ < n) {
                char c = text_[pos_];
                if (c == '"') {
                    if (pos_ + 1 < n && text_[pos_ + 1] == '"') {
                        needsCopy = true;
                        pos_ += 2;
                        continue;
                    }
                    break;
                }
                if (c == '\n') ++curLine_;
                ++pos_;
            }
            end = pos_;
            if (pos_ < n) ++pos_; // closing quote
            std::string_view raw = text_.substr(start, end - start);
            if (needsCopy) {
                if (scratchUsed_ >= scratch_.size()) scratch_.emplace_back();
                std::string& s = scratch_[scratchUsed_++];
                s.clear();
                for (std::size_t i = 0; i < raw.size(); ++i) {
                    s.push_back(raw[i]);
                    if (raw[i] == '"' && i + 1 < raw.size() && raw[i + 1] == '"') ++i;
                }
                fields.emplace_back(s);
            } else {
                fields.push_back(raw);
            }
            // Anything between the closing quote and the delimiter (e.g. a trailing TAB) is dropped.
            while (pos_ < n && text_[pos_] != ',' && text_[pos_] != '\n' && text_[pos_] != '\r')
                ++pos_;
        } else {
            std::size_t start = pos_;
            pos_ = endOfField(text_, pos_);
            fields.push_back(text_.substr(start, pos_ - start));
        }
        if (pos_ >= n) return true;
        char c = text_[pos_];
        if (c == ',') {
            ++pos_;
            if (pos_ >= n) {
                fields.emplace_back();
                return true;
            }
            continue;
        }
        // End of record: CR, LF or CRLF.
        if (c == '\r') {
            ++pos_;
            if (pos_ < n && text_[pos_] == '\n') ++pos_;
        } else {
            ++pos_;
        }
        ++curLine_;
        return true;
    }
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
