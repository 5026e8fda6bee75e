#pragma once
// Sentences in the user's language without Qt in core (core/i18n/README.md).
//
// A sentence the analysis writes for people is built with msg("English template {}", args…) instead of
// fmt::format. msg() returns a std::string that carries the template (the message id) and its arguments,
// each already formatted as the template's field says; the sentence can be stored, joined with others and
// passed as an argument of another msg(). Everything that leaves the program (reports, JSON, text output,
// the window) goes through render(text, language): English gives exactly what fmt::format would have
// given; Chinese takes the template's entry in the zh_CN catalog (zh_CN_*.inc) and puts the same
// arguments in its fields, which may name them by position ({1} before {0}).
#include <fmt/format.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bs {

enum class Language { English, Chinese };

// "en", "en_US", "zh", "zh_CN", "cn" (msprof-analyze's spelling); false for anything else.
bool parseLanguage(std::string_view name, Language* out);
const char* languageName(Language lang); // "en" / "zh_CN"

// The catalog entry of a template, or nullptr when it has none.
const char* findTranslation(std::string_view templ, Language lang);
// Every (English template, Chinese template) pair of the catalog, for the tests.
std::vector<std::pair<std::string_view, std::string_view>> chineseCatalog();

// The text with every message in it rendered in `lang`. Text without messages comes back unchanged.
std::string render(std::string_view text, Language lang);

// The language of what this thread writes (English unless a ScopedLanguage says otherwise): the report
// renderers and escapers render with it, so one ScopedLanguage around an export writes it in Chinese.
Language outputLanguage();
std::string render(std::string_view text); // in outputLanguage()
class ScopedLanguage {
  public:
    explicit ScopedLanguage(Language lang);
    ~ScopedLanguage();
    ScopedLanguage(const ScopedLanguage&) = delete;
    ScopedLanguage& operator=(const ScopedLanguage&) = delete;

  private:
    Language previous_;
};
inline std::string english(std::string_view text) { return render(text, Language::English); }
// True when the text holds a message (something render() changes).
bool hasMessage(std::string_view text);

namespace i18n_detail {
inline constexpr char kBegin = '\x02', kSep = '\x1f', kEnd = '\x03';
// For each argument of the template, the format of the first field that shows it, as "{}" or "{:.1f}"
// (fields without an index take the arguments in order, as in fmt).
std::vector<std::string> argumentFormats(std::string_view templ);
} // namespace i18n_detail

// A sentence in the user's language: `templ` is the English template and the message id.
template <typename... Args>
std::string msg(fmt::format_string<Args...> templ, Args&&... args) {
    const fmt::string_view sv = templ;
    const std::string_view t(sv.data(), sv.size());
    const std::vector<std::string> fields = i18n_detail::argumentFormats(t);
    std::string out;
    out += i18n_detail::kBegin;
    out += t;
    std::size_t i = 0;
    auto one = [&](const auto& a) {
        out += i18n_detail::kSep;
        if (i < fields.size()) out += fmt::format(fmt::runtime(fields[i]), a);
        ++i;
    };
    (one(args), ...);
    (void)one;
    out += i18n_detail::kEnd;
    return out;
}

} // namespace bs
