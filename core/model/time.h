#pragma once
// Absolute time in BubbleScope is integer nanoseconds. Profiler timestamps are ~1.7e15 µs with
// sub-µs digits; a double cannot hold them, so every decimal is parsed exactly here.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bs {

using TimeNs = std::int64_t;

// mantissa × 10^exp10 as a non-negative integer (mantissa below 10^37), rounded half away from zero when
// exp10 < 0; nullopt past int64. The one scaling behind every time read: parseMicrosToNs's digits and the
// shortest digits of a double (communication.json's starts) both end here.
__extension__ typedef unsigned __int128 TimeMantissa;
std::optional<TimeNs> scaleDecimal(TimeMantissa mantissa, int exp10);

// Parses a decimal number written in microseconds ("1736408883686740.710", "-3.5", "12",
// "2.30003125", "1.5e3") into nanoseconds. Digits past the nanosecond are rounded half away
// from zero. Surrounding spaces, tabs, CR and double quotes are ignored. Returns nullopt for
// empty text, "N/A", NaN/inf, garbage, or values that do not fit in int64 ns.
std::optional<TimeNs> parseMicrosToNs(std::string_view text);

// Same, for a decimal written in milliseconds (communication.json "Elapse Time(ms)").
std::optional<TimeNs> parseMillisToNs(std::string_view text);

// Plain decimal to double for non-time values (ratios, PMU figures); nullopt for N/A/garbage.
std::optional<double> parseDouble(std::string_view text);
// The same, for loops over millions of fields: true with the value in out. (An optional<double> comes
// back through memory, its flag written as a byte and read as a word: a store-forwarding stall that
// cost more than the parse itself.)
bool parseDouble(std::string_view text, double& out);

// "digits[.digits]" (a digit on each side of a point, nothing around): true with the digits as one
// integer m and the count after the point. The caller bounds t's length so that m cannot overflow U.
template <class U>
inline bool plainDigits(std::string_view t, U& m, std::size_t& decimals) {
    const char* p = t.data();
    const char* const e = p + t.size();
    m = 0;
    while (p < e && static_cast<unsigned>(*p - '0') < 10)
        m = m * 10 + static_cast<unsigned>(*p++ - '0');
    if (p == t.data()) return false;
    decimals = 0;
    if (p < e) {
        if (*p != '.') return false;
        const char* const frac = ++p;
        while (p < e && static_cast<unsigned>(*p - '0') < 10)
            m = m * 10 + static_cast<unsigned>(*p++ - '0');
        decimals = static_cast<std::size_t>(p - frac);
        if (decimals == 0 || p != e) return false;
    }
    return true;
}

// The usual PMU figure, inline: "digits[.digits]" with 1 to 15 digits and nothing around it. True with
// the value parseDouble gives for it (the digits as an integer over an exact power of ten, which IEEE
// division rounds correctly); false for anything else, which parseDouble then reads.
inline bool parsePlainDecimal(std::string_view t, double& out) {
    static constexpr double kPow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
                                        1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    std::uint64_t m; // at most 16 characters: below 10^16
    std::size_t decimals;
    if (t.empty() || t.size() > 16 || !plainDigits(t, m, decimals)) return false;
    if (t.size() - (decimals > 0) > 15) return false; // the digits, without the point
    out = static_cast<double>(m) / kPow10[decimals];
    return true;
}

// A PMU figure as the float it is kept in: true, with out == static_cast<float>(v) for the v that
// parsePlainDecimal gives, when t is "digits[.digits]" whose digits make an integer m below 2^24 with at
// most 7 decimals; false for anything else (read then by parsePlainDecimal / parseDouble).
// decimalToFloat is the arithmetic: m times the double nearest 10^-k, rounded to float, with no division.
// The product is within 2^-52 (relative) of m / 10^k; rounding it to float can differ from rounding
// m / 10^k only when that lies within 2^-52 of a midpoint between two floats. It never does: a midpoint
// is a dyadic rational of 25 significant bits, and m / (2^k 5^k) is either a float itself (5^k divides m,
// leaving at most 24 bits) or more than 2^-42 (relative; m 5^k < 2^41) from every such midpoint. Rounding
// m / 10^k to double first (the division before) gives the same float for the same reason.
// tst_time_parse checks every m below 2^24 for each k against the double division, bit for bit.
inline float decimalToFloat(std::uint32_t m, std::size_t decimals) {
    static constexpr double kInv10[] = {1.0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7};
    return static_cast<float>(static_cast<double>(m) * kInv10[decimals]);
}
inline bool plainDecimalToFloat(std::string_view t, float& out) {
    std::uint32_t m; // at most 9 characters: below 10^9 < 2^32
    std::size_t decimals; // at most 7: a digit before the point, 9 characters
    if (t.empty() || t.size() > 9 || !plainDigits(t, m, decimals) || m >= (1u << 24)) return false;
    out = decimalToFloat(m, decimals);
    return true;
}

// Integer (stream ids, step ids); nullopt for N/A/garbage/out of range.
std::optional<std::int64_t> parseInt(std::string_view text);

// Trims spaces, tabs, CR/LF and surrounding double quotes. Inline for the usual field, which has
// nothing to trim (a kernel table row asks this of some 40 fields): every byte trimmed or stripped is at
// most '"' (0x22), so a field whose first byte is above '"' and last byte above ' ' is returned after two
// comparisons; any other field (a control byte, '!', a UTF-8 byte at either end) is settled by the slow path.
std::string_view trimFieldSlow(std::string_view text);
inline std::string_view trimField(std::string_view t) {
    if (!t.empty() && static_cast<unsigned char>(t.front()) > '"' &&
        static_cast<unsigned char>(t.back()) > ' ')
        return t;
    return trimFieldSlow(t);
}

// Plausibility bounds that keep every derived sum inside int64: absolute times between 1970 and ~2096,
// single durations up to 1000 s. Values outside are rejected by the readers as invalid.
constexpr TimeNs kMaxAbsoluteNs = 4'000'000'000'000'000'000LL;
constexpr TimeNs kMaxDurationNs = 1'000'000'000'000LL;
inline bool plausibleStart(TimeNs t) { return t >= 0 && t <= kMaxAbsoluteNs; }
inline bool plausibleDuration(TimeNs d) { return d >= 0 && d <= kMaxDurationNs; }

// Totals over many rows. Every addend is bounded by the readers (a duration or wait <= 1000 s = 1e12 ns),
// yet 9.3 million rows at that bound already pass INT64_MAX, and kernel tables of 10^8 rows fit in the
// 4 GB the reader accepts. A total that would overflow stays at the int64 limit (~292 years, which no
// report can mistake for a real figure) instead of wrapping negative; real captures never come near it.
inline TimeNs addSaturating(TimeNs a, TimeNs b) {
    TimeNs r;
    if (__builtin_add_overflow(a, b, &r)) return b > 0 ? INT64_MAX : INT64_MIN;
    return r;
}

inline double nsToMs(TimeNs ns) {
    return static_cast<double>(ns) / 1e6;
}
inline double nsToUs(TimeNs ns) {
    return static_cast<double>(ns) / 1e3;
}

// "1736408883686740.710" style: exact µs with three decimals, for messages and exports.
std::string formatNsAsMicros(TimeNs ns);

} // namespace bs
