#pragma once
// Escaping of data-derived strings (kernel, layer, thread and folder names, file paths, texts that quote
// them) for each sink a report writes to. Profiling folders are untrusted input: a name may hold
// backticks, HTML, newlines, terminal control sequences or invalid UTF-8.
//
// Shared rule of every escaper: C0 controls (U+0000–U+001F), DEL, C1 controls (U+0080–U+009F, i.e. UTF-8
// 0xC2 0x80–0x9F), the bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and
// every byte that is not part of valid UTF-8 are shown as the text `\xNN` (one per byte, lower-case hex),
// so no control byte ever reaches a file or a terminal and no name reorders the text around it. Printable text, including
// all other Unicode, passes unchanged.
#include <string>
#include <string_view>

namespace bs {

// Where a Markdown fragment is placed: inside a GFM table cell `|` must be escaped, even in code spans.
enum class MdPlace { Text, TableCell };

// An inline code span: its backtick fence is one longer than the longest backtick run inside, padded
// with a space when the content starts or ends with a backtick (or with a space on both sides).
// Newlines and controls become `\xNN`. In a table cell `|` becomes `\|`.
std::string mdCode(std::string_view name, MdPlace place = MdPlace::Text);

// Markdown text: `<`, `>`, `&` HTML-escaped; backslash, backtick, `*`, `_` (outside words), `[`, `]`,
// `~` and `|` backslash-escaped; block syntax at the start (`#`, `>`, `-`, `+`, `=`, `1.`, indentation)
// neutralised; newlines become spaces; controls become `\xNN`. A name quoted as `name` (single backticks,
// one line) becomes an mdCode span. Safe in paragraphs, list items, headings and table cells (`|` is
// escaped everywhere; pass TableCell so that quoted names escape it too).
std::string mdText(std::string_view s, MdPlace place = MdPlace::Text);

// A fenced code block around `content` (its lines end with '\n'): the fence is longer than any backtick
// run in the content, so no line of it can close the block. Controls other than '\n' become `\xNN`.
std::string mdFence(std::string_view content);

// For the text report / a terminal: controls (including newline and tab) and invalid UTF-8 become
// `\xNN`, so a name can neither move the cursor, set the title, clear the screen nor fake a line.
std::string term(std::string_view s);

} // namespace bs
