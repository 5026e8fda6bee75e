#include "model/time.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace bs {

std::string_view trimFieldSlow(std::string_view t) {
    auto isWs = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!t.empty() && isWs(t.front()))
        t.remove_prefix(1);
    while (!t.empty() && isWs(t.back()))
        t.remove_suffix(1);
    while (t.size() >= 2 && t.front() == '"' && t.back() == '"') {
        t = t.substr(1, t.size() - 2);
        while (!t.empty() && isWs(t.front()))
            t.remove_prefix(1);
        while (!t.empty() && isWs(t.back()))
            t.remove_suffix(1);
    }
    return t;
}

std::optional<TimeNs> scaleDecimal(TimeMantissa mant, int exp10) {
    constexpr auto kMax = static_cast<TimeMantissa>(std::numeric_limits<TimeNs>::max());
    if (exp10 >= 0) {
        for (; exp10 > 0 && mant != 0; --exp10) {
            if (mant > kMax / 10) return std::nullopt;
            mant *= 10;
        }
    } else if (exp10 < -37) {
        mant = 0; // mant < 10^37: less than half of 10^38 (and 10^39 would not fit the type)
    } else {
        TimeMantissa div = 1;
        for (; exp10 < 0; ++exp10)
            div *= 10;
        const TimeMantissa q = mant / div, r = mant % div;
        mant = q + (r >= div - r ? 1 : 0); // half away from zero: r * 2 >= div, without overflow
    }
    if (mant > kMax) return std::nullopt;
    return static_cast<TimeNs>(mant);
}

namespace {

__extension__ typedef unsigned __int128 u128;

// Eight ASCII digits at once (SWAR, little-endian: the first character in the lowest byte). A timestamp
// in µs has 16 integer digits, two such words instead of 16 multiply-adds.
bool eightDigits(std::uint64_t w) {
    return ((w & 0xF0F0F0F0F0F0F0F0ULL) | (((w + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) >> 4)) ==
           0x3333333333333333ULL;
}
std::uint64_t valueOfEightDigits(std::uint64_t w) {
    w = ((w & 0x0F0F0F0F0F0F0F0FULL) * 2561) >> 8;          // pairs of digits: 10 * a + b
    w = ((w & 0x00FF00FF00FF00FFULL) * 6553601) >> 16;      // groups of four: 100 * ab + cd
    return ((w & 0x0000FFFF0000FFFFULL) * 42949672960001ULL) >> 32; // 10000 * abcd + efgh
}

// The digits at the start of s appended to v (v * 10^k + them), eight at a time while eight are left;
// how many were read. The caller bounds s so that v cannot overflow (19 digits at most).
std::size_t leadingDigits(std::string_view s, std::uint64_t& v) {
    const char* p = s.data();
    const std::size_t n = s.size();
    std::size_t i = 0;
    if constexpr (std::endian::native == std::endian::little) {
        for (std::uint64_t w; n - i >= 8; i += 8) {
            std::memcpy(&w, p + i, 8);
            if (!eightDigits(w)) break;
            v = v * 100000000 + valueOfEightDigits(w);
        }
    }
    for (; i < n && static_cast<unsigned>(p[i] - '0') < 10; ++i)
        v = v * 10 + static_cast<unsigned>(p[i] - '0');
    return i;
}

// Exact decimal → integer scaled by 10^scaleDigits (3 for µs→ns, 6 for ms→ns).
std::optional<TimeNs> parseScaled(std::string_view text, int scaleDigits) {
    // Fast path for the common shape: optional quotes, digits, optional '.' and at most scaleDigits
    // decimals, no sign, no exponent, at most 19 digits (exact in uint64; torch_npu writes 16 + 3).
    {
        std::size_t b = 0, e = text.size();
        auto ws = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
        while (b < e && ws(text[e - 1])) // kernel_details.csv writes "1736408883686758.710\t"
            --e;
        while (b < e && ws(text[b]))
            ++b;
        if (e - b >= 2 && text[b] == '"' && text[e - 1] == '"') ++b, --e;
        // Short figures (durations and waits, "60.610"): at most 12 characters, digits, then optionally
        // '.' and 1 to scaleDigits decimals. One loop, no word reads; the value is below 10^12 before
        // the scaling (at most 10^6), so it fits. Anything else takes the paths below.
        if (e - b <= 12 && e > b) {
            std::uint64_t v = 0;
            std::size_t i = b;
            while (i < e && static_cast<unsigned>(text[i] - '0') < 10)
                v = v * 10 + static_cast<unsigned>(text[i++] - '0');
            int decimals = 0;
            if (i > b && i + 1 < e && text[i] == '.') {
                const std::size_t frac = ++i;
                while (i < e && static_cast<unsigned>(text[i] - '0') < 10)
                    v = v * 10 + static_cast<unsigned>(text[i++] - '0');
                decimals = static_cast<int>(i - frac);
            }
            if (i > b && i == e && decimals <= scaleDigits) {
                static constexpr std::uint64_t kPow10[] = {1, 10, 100, 1000, 10000, 100000, 1000000};
                return static_cast<TimeNs>(v * kPow10[scaleDigits - decimals]);
            }
        }
        // The profilers' timestamp in µs, 16 digits '.' 3 digits: two words of eight digits and three
        // digits, no loop (at most 9999999999999999999 < 2^64 before the int64 check).
        if constexpr (std::endian::native == std::endian::little) {
            if (scaleDigits == 3 && e - b == 20 && text[b + 16] == '.') {
                std::uint64_t w1, w2;
                std::memcpy(&w1, text.data() + b, 8);
                std::memcpy(&w2, text.data() + b + 8, 8);
                const auto d = [&](std::size_t i) { return static_cast<unsigned>(text[i] - '0'); };
                if (eightDigits(w1) && eightDigits(w2) && d(b + 17) < 10 && d(b + 18) < 10 && d(b + 19) < 10) {
                    const std::uint64_t v = (valueOfEightDigits(w1) * 100000000 + valueOfEightDigits(w2)) * 1000 +
                                            d(b + 17) * 100 + d(b + 18) * 10 + d(b + 19);
                    if (v <= static_cast<std::uint64_t>(std::numeric_limits<TimeNs>::max()))
                        return static_cast<TimeNs>(v); // else past int64: refused below
                }
            }
        }
        std::uint64_t v = 0;
        const int digits = static_cast<int>(leadingDigits(text.substr(b, std::min<std::size_t>(e - b, 19)), v));
        std::size_t i = b + static_cast<std::size_t>(digits);
        int decimals = 0;
        bool ok = digits > 0 && digits < 19;
        if (ok && i < e && text[i] == '.') {
            ++i;
            for (; i < e && text[i] >= '0' && text[i] <= '9' && decimals < scaleDigits; ++i, ++decimals)
                v = v * 10 + static_cast<unsigned>(text[i] - '0');
        }
        constexpr std::uint64_t kTenth = std::numeric_limits<std::uint64_t>::max() / 10;
        for (int k = decimals; ok && k < scaleDigits; ++k) {
            ok = v <= kTenth;
            v *= 10;
        }
        if (ok && i == e && digits + decimals <= 19 &&
            v <= static_cast<std::uint64_t>(std::numeric_limits<TimeNs>::max()))
            return static_cast<TimeNs>(v);
    }
    std::string_view t = trimField(text);
    if (t.empty()) return std::nullopt;
    bool neg = false;
    std::size_t i = 0;
    if (t[i] == '+' || t[i] == '-') {
        neg = t[i] == '-';
        ++i;
    }
    // Collect up to 38 significant digits as mantissa + decimal exponent.
    u128 mant = 0;
    int exp10 = 0;
    bool anyDigit = false;
    int sigDigits = 0;
    bool roundUp = false; // first dropped digit >= 5
    bool dropped = false;
    for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) {
        anyDigit = true;
        if (sigDigits < 36) {
            mant = mant * 10 + static_cast<unsigned>(t[i] - '0');
            if (mant != 0) ++sigDigits;
        } else {
            ++exp10;
            if (!dropped) roundUp = t[i] >= '5';
            dropped = true;
        }
    }
    if (i < t.size() && t[i] == '.') {
        ++i;
        for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) {
            anyDigit = true;
            if (sigDigits < 36) {
                mant = mant * 10 + static_cast<unsigned>(t[i] - '0');
                if (mant != 0) ++sigDigits;
                --exp10;
            } else {
                if (!dropped) roundUp = t[i] >= '5';
                dropped = true;
            }
        }
    }
    if (!anyDigit) return std::nullopt;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        bool eneg = false;
        if (i < t.size() && (t[i] == '+' || t[i] == '-')) {
            eneg = t[i] == '-';
            ++i;
        }
        if (i >= t.size()) return std::nullopt;
        int e = 0;
        for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i) {
            if (e < 100000) e = e * 10 + (t[i] - '0');
        }
        exp10 += eneg ? -e : e;
    }
    if (i != t.size()) return std::nullopt;
    if (roundUp) mant += 1; // rounding of digits beyond the 36 kept (far below 1 ns in practice)
    const auto v = scaleDecimal(mant, exp10 + scaleDigits);
    if (!v) return std::nullopt;
    return neg ? -*v : *v;
}

} // namespace

std::optional<TimeNs> parseMicrosToNs(std::string_view text) {
    return parseScaled(text, 3);
}
std::optional<TimeNs> parseMillisToNs(std::string_view text) {
    return parseScaled(text, 6);
}

namespace {

// "[-]digits[.digits]" with at most 15 digits (parsePlainDecimal, with the sign): PMU columns are nearly
// all of this shape; false leaves the rest to from_chars.
bool shortDecimal(std::string_view t, double& out) {
    const bool neg = !t.empty() && t[0] == '-';
    if (!parsePlainDecimal(neg ? t.substr(1) : t, out)) return false;
    if (neg) out = -out;
    return true;
}

} // namespace

bool parseDouble(std::string_view text, double& out) {
    std::string_view t = trimField(text);
    if (t.empty() || t == "N/A") return false;
    if (t.front() == '+') t.remove_prefix(1);
    if (shortDecimal(t, out)) return true;
    double v = 0;
    auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || ptr != t.data() + t.size() || !std::isfinite(v)) return false;
    out = v;
    return true;
}

std::optional<double> parseDouble(std::string_view text) {
    double v = 0;
    if (!parseDouble(text, v)) return std::nullopt;
    return v;
}

std::optional<std::int64_t> parseInt(std::string_view text) {
    std::string_view t = trimField(text);
    if (t.empty()) return std::nullopt;
    // The usual id (a pid, tid or stream id of every trace event): 1-18 digits, no sign, so no overflow
    // to check; anything else is read again below.
    if (t.size() <= 18) {
        std::uint64_t v = 0;
        if (leadingDigits(t, v) == t.size()) return static_cast<std::int64_t>(v);
    }
    bool neg = false;
    std::size_t i = 0;
    if (t[0] == '-' || t[0] == '+') {
        neg = t[0] == '-';
        i = 1;
    }
    if (i >= t.size()) return std::nullopt;
    std::uint64_t v = 0;
    for (; i < t.size(); ++i) {
        if (t[i] < '0' || t[i] > '9') return std::nullopt;
        if (v > (std::numeric_limits<std::uint64_t>::max() - 9) / 10) return std::nullopt;
        v = v * 10 + static_cast<unsigned>(t[i] - '0');
    }
    if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
    return neg ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v);
}

std::string formatNsAsMicros(TimeNs ns) {
    bool neg = ns < 0;
    unsigned long long a =
        neg ? 0ULL - static_cast<unsigned long long>(ns) : static_cast<unsigned long long>(ns);
    std::string frac = std::to_string(a % 1000);
    while (frac.size() < 3)
        frac.insert(frac.begin(), '0');
    return (neg ? "-" : "") + std::to_string(a / 1000) + "." + frac;
}

} // namespace bs
