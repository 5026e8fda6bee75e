#include "i18n/message.h"

#include <unordered_map>

namespace bs {

namespace {

using i18n_detail::kBegin;
using i18n_detail::kEnd;
using i18n_detail::kSep;

struct Entry {
    std::string_view en, zh;
};

const Entry kChinese[] = {
    {"", ""}, // keeps the array non-empty; skipped
#include "i18n/zh_CN_findings.inc"
#include "i18n/zh_CN_analysis.inc"
#include "i18n/zh_CN_report.inc"
};

const std::unordered_map<std::string_view, std::string_view>& chineseMap() {
    static const std::unordered_map<std::string_view, std::string_view> map = [] {
        std::unordered_map<std::string_view, std::string_view> m;
        m.reserve(std::size(kChinese));
        for (const Entry& e : kChinese)
            if (!e.en.empty()) m.emplace(e.en, e.zh);
        return m;
    }();
    return map;
}

// One replacement field of a template: the argument it shows and its format spec ("" or ":.1f").
struct Field {
    std::size_t begin = 0, end = 0; // [begin, end) in the template, braces included
    std::size_t arg = 0;
    std::string_view spec;
};

// Walks the template's literal text and fields; `literal(text)` and `field(Field)` in order.
template <typename Literal, typename OnField>
void walkTemplate(std::string_view t, Literal&& literal, OnField&& field) {
    std::size_t next = 0, i = 0, litStart = 0;
    while (i < t.size()) {
        const char c = t[i];
        if ((c == '{' || c == '}') && i + 1 < t.size() && t[i + 1] == c) {
            literal(t.substr(litStart, i - litStart + 1));
            i += 2;
            litStart = i;
            continue;
        }
        if (c != '{') {
            ++i;
            continue;
        }
        const std::size_t close = t.find('}', i);
        if (close == std::string_view::npos) break; // not a template fmt accepts: the rest is text
        literal(t.substr(litStart, i - litStart));
        std::string_view inner = t.substr(i + 1, close - i - 1);
        Field f;
        f.begin = i;
        f.end = close + 1;
        std::size_t digits = 0;
        while (digits < inner.size() && inner[digits] >= '0' && inner[digits] <= '9') ++digits;
        if (digits > 0) {
            std::size_t n = 0;
            for (std::size_t k = 0; k < digits; ++k) n = n * 10 + static_cast<std::size_t>(inner[k] - '0');
            f.arg = n;
        } else {
            f.arg = next++;
        }
        f.spec = inner.substr(digits);
        field(f);
        i = close + 1;
        litStart = i;
    }
    literal(t.substr(litStart));
}

// Splits "templ<sep>arg<sep>arg" (the inside of a message, without its begin and end marks) at the
// separators that are not inside a nested message.
std::vector<std::string_view> splitMessage(std::string_view inside) {
    std::vector<std::string_view> parts;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < inside.size(); ++i) {
        const char c = inside[i];
        if (c == kBegin) ++depth;
        else if (c == kEnd) --depth;
        else if (c == kSep && depth == 0) {
            parts.push_back(inside.substr(start, i - start));
            start = i + 1;
        }
    }
    parts.push_back(inside.substr(start));
    return parts;
}

void renderInto(std::string& out, std::string_view text, Language lang);

void renderMessage(std::string& out, std::string_view inside, Language lang) {
    const std::vector<std::string_view> parts = splitMessage(inside);
    const std::string_view en = parts.front();
    std::string_view templ = en;
    if (lang != Language::English) {
        if (const char* zh = findTranslation(en, lang)) templ = zh;
    }
    walkTemplate(
        templ, [&](std::string_view lit) { out += lit; },
        [&](const Field& f) {
            if (f.arg + 1 < parts.size()) renderInto(out, parts[f.arg + 1], lang);
        });
}

void renderInto(std::string& out, std::string_view text, Language lang) {
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t b = text.find(kBegin, i);
        if (b == std::string_view::npos) {
            out += text.substr(i);
            return;
        }
        out += text.substr(i, b - i);
        // The matching end mark.
        int depth = 0;
        std::size_t e = b;
        for (; e < text.size(); ++e) {
            if (text[e] == kBegin) ++depth;
            else if (text[e] == kEnd && --depth == 0) break;
        }
        if (e >= text.size()) {
            // Cut inside a message (a caller shortened the text): the fields it still has, the others empty.
            renderMessage(out, text.substr(b + 1), lang);
            return;
        }
        renderMessage(out, text.substr(b + 1, e - b - 1), lang);
        i = e + 1;
    }
}

} // namespace

bool parseLanguage(std::string_view name, Language* out) {
    auto starts = [&](std::string_view p) { return name.substr(0, p.size()) == p; };
    if (name == "en" || starts("en_") || starts("en-") || name == "C") {
        *out = Language::English;
        return true;
    }
    if (name == "zh" || name == "cn" || starts("zh_") || starts("zh-")) {
        *out = Language::Chinese;
        return true;
    }
    return false;
}

const char* languageName(Language lang) { return lang == Language::Chinese ? "zh_CN" : "en"; }

const char* findTranslation(std::string_view templ, Language lang) {
    if (lang != Language::Chinese) return nullptr;
    const auto& m = chineseMap();
    const auto it = m.find(templ);
    return it == m.end() ? nullptr : it->second.data();
}

std::vector<std::pair<std::string_view, std::string_view>> chineseCatalog() {
    std::vector<std::pair<std::string_view, std::string_view>> v;
    v.reserve(std::size(kChinese));
    for (const Entry& e : kChinese)
        if (!e.en.empty()) v.emplace_back(e.en, e.zh);
    return v;
}

std::string render(std::string_view text, Language lang) {
    if (text.find(kBegin) == std::string_view::npos) return std::string(text);
    std::string out;
    out.reserve(text.size());
    renderInto(out, text, lang);
    return out;
}

namespace {
thread_local Language tOutputLanguage = Language::English;
}

Language outputLanguage() { return tOutputLanguage; }
std::string render(std::string_view text) { return render(text, tOutputLanguage); }
ScopedLanguage::ScopedLanguage(Language lang) : previous_(tOutputLanguage) { tOutputLanguage = lang; }
ScopedLanguage::~ScopedLanguage() { tOutputLanguage = previous_; }

bool hasMessage(std::string_view text) { return text.find(kBegin) != std::string_view::npos; }

namespace i18n_detail {

std::vector<std::string> argumentFormats(std::string_view templ) {
    std::vector<std::string> formats;
    walkTemplate(
        templ, [](std::string_view) {},
        [&](const Field& f) {
            if (f.arg >= formats.size()) formats.resize(f.arg + 1);
            if (formats[f.arg].empty()) formats[f.arg] = "{" + std::string(f.spec) + "}";
        });
    for (std::string& f : formats)
        if (f.empty()) f = "{}";
    return formats;
}

} // namespace i18n_detail

} // namespace bs
