#include "analysis/rulebook.h"

#include "i18n/message.h"
#include "i18n/escape.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace bs {

namespace {

struct Range {
    RuleKind kind;
    double min, max;
};
constexpr Range kCount1k{RuleKind::Count, 1, 1000};
constexpr Range kRatio{RuleKind::Ratio, 0, 1};

// The rule table: name, field, kind and accepted range (printed in "Thresholds used" and in every
// message about a bad value). Why these ranges (ANALYSIS.md sections in the header):
// - ratios, coverages and shares of §5–§8 are fractions of a window, a step or a cost: 0 to 1;
// - bubble_min_us ≥ 1 us (0 would make every gap between kernels a window), µs thresholds ≤ 1 s, the ms
//   floors of §6/§8 ≤ 1 min: beyond that they would only switch their rule off;
// - counts are list lengths a report still shows (top windows, wait list, ranks: 1–1000; the JSON window
//   list: up to 100 000; neighbour kernels each side: 1–50);
// - host parallelism (§4) is Σ per-thread union / union, so at least 1; 100 threads is already far out.
template <typename R, typename F> void forEachField(R& r, F&& f) {
    f("bubble_min_us", r.bubble_min_us, Range{RuleKind::DurationUs, 1, 1e6});
    f("top_windows", r.top_windows, kCount1k);
    f("window_list_cap", r.window_list_cap, Range{RuleKind::Count, 1, 100000});
    f("neighbour_kernels", r.neighbour_kernels, Range{RuleKind::Count, 1, 50});
    f("sync_ratio_min", r.sync_ratio_min, kRatio);
    f("comm_ratio_min", r.comm_ratio_min, kRatio);
    f("untraced_coverage_max", r.untraced_coverage_max, kRatio);
    f("launch_lag_coverage_min", r.launch_lag_coverage_min, kRatio);
    f("serialization_parallelism_max", r.serialization_parallelism_max, Range{RuleKind::Factor, 1, 100});
    f("heavy_gap_min_ms", r.heavy_gap_min_ms, Range{RuleKind::DurationMs, 0, 60000});
    f("heavy_gap_service_fraction", r.heavy_gap_service_fraction, kRatio);
    f("underfeed_heavy_ratio", r.underfeed_heavy_ratio, kRatio);
    f("recurring_step_fraction", r.recurring_step_fraction, kRatio);
    f("recurring_position_fraction", r.recurring_position_fraction, kRatio);
    f("host_risk_coverage_min", r.host_risk_coverage_min, kRatio);
    f("wait_pollution_min_us", r.wait_pollution_min_us, Range{RuleKind::DurationUs, 0, 1e6});
    f("comm_wait_heavy_ratio", r.comm_wait_heavy_ratio, kRatio);
    f("wait_anchor_wait_ratio", r.wait_anchor_wait_ratio, kRatio);
    f("wait_anchor_max_duration_us", r.wait_anchor_max_duration_us, Range{RuleKind::DurationUs, 0, 1e6});
    f("wait_anchor_max_rank", r.wait_anchor_max_rank, kCount1k);
    f("wait_list_ratio", r.wait_list_ratio, kRatio);
    f("wait_list_top", r.wait_list_top, kCount1k);
    f("aicpu_masked_min", r.aicpu_masked_min, kRatio);
    f("aicpu_partial_min", r.aicpu_partial_min, kRatio);
    f("pmu_mte2_hot", r.pmu_mte2_hot, kRatio);
    f("idle_none_ms", r.idle_none_ms, Range{RuleKind::DurationMs, 0, 60000});
    f("idle_none_service_fraction", r.idle_none_service_fraction, kRatio);
    f("idle_mixed_ratio", r.idle_mixed_ratio, kRatio);
    f("block_min_us", r.block_min_us, Range{RuleKind::DurationUs, 0, 1e6});
    f("soft_cause_high_share", r.soft_cause_high_share, kRatio);
    f("soft_cause_medium_share", r.soft_cause_medium_share, kRatio);
}

std::string acceptedText(const Range& r) {
    switch (r.kind) {
    case RuleKind::Count:
        return msg("an integer from {} to {}", r.min, r.max);
    case RuleKind::Ratio:
        return msg("a ratio from {} to {}", r.min, r.max);
    case RuleKind::DurationUs:
        return msg("a duration in us from {} to {}", r.min, r.max);
    case RuleKind::DurationMs:
        return msg("a duration in ms from {} to {}", r.min, r.max);
    case RuleKind::Factor:
        return msg("a factor from {} to {}", r.min, r.max);
    }
    return {};
}

// A value quoted in a message: short, and with no control byte that could reach the terminal.
std::string shown(std::string_view s) {
    constexpr std::size_t kMax = 40;
    return term(s.size() > kMax ? std::string(s.substr(0, kMax)) + "…" : std::string(s));
}

// One member of the rules object as written in the file.
struct Member {
    enum class Type { Number, Other } type = Type::Other;
    std::string key;
    double number = 0;
    std::string text; // the number as written, or what the value is ("\"fifty\"", "an array", "null")
};

// Reads the rules file with nlohmann's SAX interface rather than into a DOM: the literal text of each
// number survives (3e9 is reported as written) and a parse error knows which rule it was reading.
class RulesReader final : public nlohmann::json_sax<nlohmann::json> {
  public:
    explicit RulesReader(std::string_view text) : text_(text) {}

    std::vector<Member> members;
    bool rootIsObject = false;
    std::string rootIsInstead; // "an array", "a number", … when the document is not an object
    std::string error;

    bool null() override { return scalar(Member::Type::Other, 0, "null"); }
    bool boolean(bool v) override { return scalar(Member::Type::Other, 0, v ? "true" : "false"); }
    bool number_integer(number_integer_t v) override {
        return scalar(Member::Type::Number, static_cast<double>(v), std::to_string(v));
    }
    bool number_unsigned(number_unsigned_t v) override {
        return scalar(Member::Type::Number, static_cast<double>(v), std::to_string(v));
    }
    bool number_float(number_float_t v, const string_t& raw) override {
        return scalar(Member::Type::Number, v, shown(raw));
    }
    bool string(string_t& v) override {
        return scalar(
            Member::Type::Other, 0,
            shown(nlohmann::json(v).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
    }
    bool binary(binary_t&) override { return scalar(Member::Type::Other, 0, msg("binary data")); }
    bool start_object(std::size_t) override {
        if (depth_ == 0) rootIsObject = true;
        return open(msg("an object"));
    }
    bool end_object() override { return --depth_, true; }
    bool start_array(std::size_t) override { return open(msg("an array")); }
    bool end_array() override { return --depth_, true; }
    bool key(string_t& k) override {
        if (depth_ == 1) key_ = k, awaitingValue_ = true;
        return true;
    }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& ex) override {
        // `position` counts the bytes read, the failing one included.
        const std::size_t at = position > 0 ? std::min(position - 1, text_.size()) : 0;
        if (awaitingValue_ && depth_ == 1 && (ex.id == 406 || looksNonFinite(at)))
            error = rangeHint().empty() ? msg("rule \"{}\": value is not a finite number", shown(key_))
                                        : msg("rule \"{}\": value is not a finite number; expected {}",
                                              shown(key_), rangeHint());
        else
            error =
                msg("the rules file is not valid JSON at byte {}{}", at,
                    parserMessage(ex.what(), awaitingValue_ && depth_ == 1 ? " (rule \"" + shown(key_) + "\")"
                                                                           : std::string()));
        return false;
    }

  private:
    bool scalar(Member::Type type, double v, std::string text) {
        if (depth_ == 0)
            rootIsInstead = type == Member::Type::Number ? msg("a number") : text;
        else if (depth_ == 1 && awaitingValue_)
            members.push_back({type, key_, v, std::move(text)});
        awaitingValue_ = false;
        return true;
    }
    bool open(const std::string& what) {
        if (depth_ == 0 && !rootIsObject) rootIsInstead = what;
        if (depth_ == 1 && awaitingValue_) members.push_back({Member::Type::Other, key_, 0, what});
        awaitingValue_ = false;
        ++depth_;
        return true;
    }
    // NaN, Infinity, -inf… are not JSON: the lexer stops on their first letter.
    bool looksNonFinite(std::size_t at) const {
        std::size_t b = at;
        while (b > 0 && (std::isalnum(static_cast<unsigned char>(text_[b - 1])) || text_[b - 1] == '-' ||
                         text_[b - 1] == '+' || text_[b - 1] == '.'))
            --b;
        while (b < text_.size() && (text_[b] == '-' || text_[b] == '+'))
            ++b;
        std::string word;
        for (std::size_t i = b; i < text_.size() && i < b + 3; ++i)
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(text_[i])));
        return word == "nan" || word == "inf";
    }
    std::string rangeHint() const {
        std::string hint;
        Rulebook defaults;
        forEachField(defaults, [&](const char* name, auto&, const Range& r) {
            if (key_ == name) hint = acceptedText(r);
        });
        return hint;
    }
    // "[json.exception.parse_error.101] parse error at line 1, column 14: syntax error …" →
    // ", line 1, column 14<rule>: syntax error …" (it quotes the file: controls escaped, long tokens cut).
    static std::string parserMessage(const std::string& what, const std::string& rule) {
        constexpr std::string_view kAt = "parse error at ";
        const auto at = what.find(kAt);
        const auto colon = at == std::string::npos ? std::string::npos : what.find(": ", at);
        std::string rest =
            colon == std::string::npos
                ? rule + ": " + what
                : ", " + what.substr(at + kAt.size(), colon - at - kAt.size()) + rule + what.substr(colon);
        if (rest.size() > 300) rest = rest.substr(0, 300) + "…";
        return term(rest);
    }

    std::string_view text_;
    int depth_ = 0;
    bool awaitingValue_ = false;
    std::string key_;
};

// The problem with `m` as a value of a rule of range `r`, or "" when it is acceptable.
std::string checkValue(const Member& m, const Range& r) {
    const std::string key = shown(m.key);
    const std::string expected = acceptedText(r);
    if (m.type != Member::Type::Number)
        return msg("rule \"{}\": {} is not a number; expected {}", key, m.text, expected);
    if (!std::isfinite(m.number))
        return msg("rule \"{}\": value is not a finite number; expected {}", key, expected);
    if (r.kind == RuleKind::Count && std::floor(m.number) != m.number)
        return msg("rule \"{}\": {} is not an integer; expected {}", key, m.text, expected);
    if (m.number < r.min || m.number > r.max)
        return msg("rule \"{}\": {} is out of range; expected {}", key, m.text, expected);
    return {};
}

} // namespace

std::vector<std::string> Rulebook::overrideFromJson(const std::string& text) {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        return {msg("the rules file is empty; it must hold one JSON object such as {{\"top_windows\": 10}}")};
    RulesReader reader(text);
    nlohmann::json::sax_parse(text, &reader);
    if (!reader.error.empty()) return {reader.error};
    if (!reader.rootIsObject)
        return {msg("the rules file must hold one JSON object of rule names and values, such as "
                    "{{\"top_windows\": 10}}; it holds {}",
                    reader.rootIsInstead)};
    std::vector<std::string> problems;
    for (const Member& m : reader.members) {
        bool known = false;
        forEachField(*this, [&](const char* name, auto& field, const Range& r) {
            if (m.key != name) return;
            known = true;
            if (std::string problem = checkValue(m, r); !problem.empty())
                problems.push_back(std::move(problem));
            else // in range, so the conversion to int is exact
                field = static_cast<std::remove_reference_t<decltype(field)>>(m.number);
        });
        if (!known) problems.push_back(msg("unknown rule '{}'", shown(m.key)));
    }
    return problems;
}

std::vector<std::pair<std::string, double>> Rulebook::entries() const {
    std::vector<std::pair<std::string, double>> out;
    Rulebook copy = *this;
    forEachField(copy, [&](const char* name, auto& field, const Range&) {
        out.emplace_back(name, static_cast<double>(field));
    });
    return out;
}

std::vector<RuleInfo> Rulebook::table() const {
    std::vector<RuleInfo> out;
    Rulebook copy = *this;
    forEachField(copy, [&](const char* name, auto& field, const Range& r) {
        out.push_back({name, static_cast<double>(field), r.kind, r.min, r.max, acceptedText(r)});
    });
    return out;
}

} // namespace bs
