#include "i18n/escape.h"

#include "i18n/message.h"

#include <algorithm>

namespace bs {

namespace {

unsigned char byteAt(std::string_view s, std::size_t i) {
    return static_cast<unsigned char>(s[i]);
}

// Length of the well-formed UTF-8 sequence starting at s[i] (RFC 3629: no overlong forms, no surrogates,
// nothing above U+10FFFF), or 0 when the byte there does not start one.
std::size_t utf8Length(std::string_view s, std::size_t i) {
    const unsigned char c = byteAt(s, i);
    if (c < 0x80) return 1;
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF; // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c == 0xE0)
        n = 3, lo = 0xA0;
    else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF)
        n = 3;
    else if (c == 0xED)
        n = 3, hi = 0x9F;
    else if (c == 0xF0)
        n = 4, lo = 0x90;
    else if (c >= 0xF1 && c <= 0xF3)
        n = 4;
    else if (c == 0xF4)
        n = 4, hi = 0x8F;
    else
        return 0;
    if (i + n > s.size() || byteAt(s, i + 1) < lo || byteAt(s, i + 1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (byteAt(s, i + k) < 0x80 || byteAt(s, i + k) > 0xBF) return 0;
    return n;
}

// C0, DEL and C1 (U+0080–U+009F is 0xC2 0x80–0x9F in UTF-8), and the bidirectional controls (U+061C,
// U+200E–U+200F, U+202A–U+202E, U+2066–U+2069): an invisible U+202E reverses what follows it on a
// terminal or a rendered page, so a name could make a line read other than it is ("Trojan Source").
bool isControl(std::string_view unit) {
    const unsigned char c = byteAt(unit, 0);
    if (unit.size() == 1) return c < 0x20 || c == 0x7F;
    if (unit.size() == 2) return (c == 0xC2 && byteAt(unit, 1) <= 0x9F) || (c == 0xD8 && byteAt(unit, 1) == 0x9C);
    if (unit.size() != 3 || c != 0xE2) return false;
    const unsigned char b = byteAt(unit, 1), d = byteAt(unit, 2);
    return (b == 0x80 && (d == 0x8E || d == 0x8F || (d >= 0xAA && d <= 0xAE))) || (b == 0x81 && d >= 0xA6 && d <= 0xA9);
}

void appendHex(std::string& o, std::string_view bytes) {
    static const char digits[] = "0123456789abcdef";
    for (char ch : bytes) {
        const auto c = static_cast<unsigned char>(ch);
        o += "\\x";
        o += digits[c >> 4];
        o += digits[c & 0xF];
    }
}

// Walks `s` one character at a time. A printable character goes to onChar(unit, offset); a control or a
// byte that is not valid UTF-8 goes to onControl(bytes), which returns false to get the `\xNN` default.
template <typename OnChar, typename OnControl>
void walk(std::string_view s, std::string& o, OnChar&& onChar, OnControl&& onControl) {
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = utf8Length(s, i);
        const std::string_view unit = s.substr(i, n ? n : 1);
        if (n && !isControl(unit))
            onChar(unit, i);
        else if (!onControl(unit))
            appendHex(o, unit);
        i += unit.size();
    }
}

std::size_t longestBacktickRun(std::string_view s) {
    std::size_t best = 0, run = 0;
    for (char c : s) {
        run = c == '`' ? run + 1 : 0;
        best = std::max(best, run);
    }
    return best;
}

bool isAsciiAlnum(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// The character at the start of a line that would open a block (heading, quote, list, setext underline,
// ordered list "12." / "12)") gets a backslash; a leading space becomes an entity so that no indentation
// (an indented code block inside a list item) is seen.
std::string neutraliseLineStart(std::string_view s, std::string body) {
    if (s.empty()) return body;
    const char c = s.front();
    if (c == ' ') return "&#32;" + body.substr(1);
    if (c == '#' || c == '-' || c == '+' || c == '=') return "\\" + body;
    std::size_t digits = 0;
    while (digits < s.size() && digits < 10 && s[digits] >= '0' && s[digits] <= '9')
        ++digits;
    if (digits > 0 && digits < s.size() && (s[digits] == '.' || s[digits] == ')'))
        return body.insert(digits, "\\"); // digits are copied one byte each, so offsets agree
    return body;
}

} // namespace

std::string mdCode(std::string_view name, MdPlace place) {
    // A sentence of the analysis (core/i18n) is written in the output language first, then escaped.
    const std::string rendered = hasMessage(name) ? render(name) : std::string();
    if (!rendered.empty()) name = rendered;
    const bool cell = place == MdPlace::TableCell;
    std::string content;
    walk(
        name, content,
        [&](std::string_view unit, std::size_t at) {
            if (cell && unit == "|") content += "\\|";
            // GFM reads "\\|" as an escaped backslash followed by a cell delimiter: never emit it.
            else if (cell && unit == "\\" && at + 1 < name.size() && name[at + 1] == '|')
                content += "\\x5c";
            else
                content += unit;
        },
        [](std::string_view) { return false; });
    if (content.empty()) return "` `";
    const std::string fence(longestBacktickRun(content) + 1, '`');
    // CommonMark strips one space from each end when both ends have one; a backtick at an end would
    // otherwise merge with the fence. Padding on both sides covers both.
    const bool allSpaces = content.find_first_not_of(' ') == std::string::npos;
    const bool pad = content.front() == '`' || content.back() == '`' ||
                     (!allSpaces && content.front() == ' ' && content.back() == ' ');
    return pad ? fence + " " + content + " " + fence : fence + content + fence;
}

namespace {

// Escapes s[begin, end) as Markdown text; neighbours for the underscore rule are read from all of `s`.
void appendText(std::string& body, std::string_view s, std::size_t begin, std::size_t end) {
    walk(
        s.substr(begin, end - begin), body,
        [&](std::string_view unit, std::size_t rel) {
            const std::size_t at = begin + rel;
            if (unit.size() != 1) {
                body += unit;
                return;
            }
            switch (const char c = unit.front()) {
            case '<':
                body += "&lt;";
                break;
            case '>':
                body += "&gt;";
                break;
            case '&':
                body += "&amp;";
                break;
            case '\\':
            case '`':
            case '*':
            case '[':
            case ']':
            case '~':
            case '|':
                body += '\\';
                body += c;
                break;
            case '_': {
                // Inside a word (kernel_details.csv) an underscore never starts emphasis: keep it legible.
                const bool inWord =
                    at > 0 && at + 1 < s.size() && isAsciiAlnum(s[at - 1]) && isAsciiAlnum(s[at + 1]);
                body += inWord ? "_" : "\\_";
                break;
            }
            default:
                body += c;
            }
        },
        [&](std::string_view unit) {
            if (unit == "\n" || unit == "\r") {
                body += ' ';
                return true;
            }
            return false;
        });
}

// End of the single-backtick span that opens at `open` ("`name`", as the analyses quote names), or npos
// when that backtick does not open one: the closing backtick must be single too, and the name non-empty
// and on one line.
std::size_t quotedNameEnd(std::string_view s, std::size_t open) {
    if (open + 1 < s.size() && s[open + 1] == '`') return std::string_view::npos;
    if (open > 0 && s[open - 1] == '`') return std::string_view::npos;
    const std::size_t close = s.find('`', open + 1);
    if (close == std::string_view::npos || close == open + 1) return std::string_view::npos;
    if (close + 1 < s.size() && s[close + 1] == '`') return std::string_view::npos;
    if (s.substr(open + 1, close - open - 1).find_first_of("\r\n") != std::string_view::npos)
        return std::string_view::npos;
    return close;
}

} // namespace

std::string mdText(std::string_view s, MdPlace place) {
    // A sentence of the analysis (core/i18n) is written in the output language first, then escaped.
    const std::string rendered = hasMessage(s) ? render(s) : std::string();
    if (!rendered.empty()) s = rendered;
    // Texts of the analyses quote names as `name`: those become code spans (built by mdCode, so their
    // content is inert); everything else is escaped text, so any other backtick is literal.
    std::string body;
    std::size_t textStart = 0;
    for (std::size_t i = s.find('`'); i != std::string_view::npos; i = s.find('`', i + 1)) {
        const std::size_t close = quotedNameEnd(s, i);
        if (close == std::string_view::npos) continue;
        appendText(body, s, textStart, i);
        body += mdCode(s.substr(i + 1, close - i - 1), place);
        textStart = close + 1;
        i = close;
    }
    appendText(body, s, textStart, s.size());
    return neutraliseLineStart(s, std::move(body));
}

std::string mdFence(std::string_view content) {
    // A sentence of the analysis (core/i18n) is written in the output language first, then escaped.
    const std::string rendered = hasMessage(content) ? render(content) : std::string();
    if (!rendered.empty()) content = rendered;
    std::string body;
    walk(
        content, body, [&](std::string_view unit, std::size_t) { body += unit; },
        [&](std::string_view unit) {
            if (unit != "\n") return false;
            body += '\n';
            return true;
        });
    if (body.empty() || body.back() != '\n') body += '\n';
    const std::string fence(std::max<std::size_t>(3, longestBacktickRun(body) + 1), '`');
    return fence + "\n" + body + fence + "\n";
}

std::string term(std::string_view s) {
    // A sentence of the analysis (core/i18n) is written in the output language first, then escaped.
    const std::string rendered = hasMessage(s) ? render(s) : std::string();
    if (!rendered.empty()) s = rendered;
    std::string o;
    walk(
        s, o, [&](std::string_view unit, std::size_t) { o += unit; }, [](std::string_view) { return false; });
    return o;
}

} // namespace bs
