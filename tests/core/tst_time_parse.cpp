// Exact decimal → int64 ns parsing: the foundation of "our numbers match the profiler's".
#include "model/string_pool.h"
#include "model/time.h"
#include "xorshift.h"

#include <QTest>

#include <charconv>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

class TstTimeParse : public QObject {
    Q_OBJECT
  private slots:
    // The inline PMU parser takes only "digits[.digits]" of 1-15 digits, and gives for it what from_chars
    // (correctly rounded) gives; everything else is left to parseDouble.
    void plainDecimalsAreReadAsFromCharsReadsThem() {
        const struct {
            const char* text;
            double value; // from the text by hand; NaN: not taken by the inline parser
        } cases[] = {
            {"0", 0.0}, {"0.000", 0.0}, {"103643", 103643.0}, {"57.579", 57.579}, {"0.002", 0.002},
            {"00.5", 0.5}, {"123456789012345", 123456789012345.0}, {"1.23456789012345", 1.23456789012345},
            {"1234567890123456", NAN}, {"1.234567890123456", NAN}, {"", NAN}, {"1.", NAN}, {".5", NAN},
            {"-1.5", NAN}, {"+1.5", NAN}, {" 1.5", NAN}, {"1.5 ", NAN}, {"1e3", NAN}, {"N/A", NAN},
            {"1.2.3", NAN}, {"12345678901234567", NAN},
        };
        for (const auto& c : cases) {
            double v = -1;
            const bool taken = bs::parsePlainDecimal(c.text, v);
            QCOMPARE(taken, !std::isnan(c.value));
            if (!taken) continue;
            QCOMPARE(v, c.value);
            double ref = -2;
            QVERIFY(bs::parseDouble(c.text, ref));
            QCOMPARE(std::memcmp(&v, &ref, sizeof v), 0);
        }
        // 1-15 digit strings with the point anywhere, from a fixed sequence: the bits of from_chars and parseDouble.
        bstest::XorShift rnd{88172645463325252ULL};
        for (int i = 0; i < 200000; ++i) {
            const std::uint64_t x = rnd();
            const int digits = 1 + static_cast<int>(x % 15), point = static_cast<int>((x >> 8) % (digits + 1));
            std::string t;
            for (int d = 0; d < digits; ++d) {
                if (d == point && d > 0) t += '.';
                t += static_cast<char>('0' + (x >> (12 + 3 * d % 40)) % 10);
            }
            double v = -1, ref = -2, viaParseDouble = -3;
            QVERIFY2(bs::parsePlainDecimal(t, v), t.c_str());
            const auto r = std::from_chars(t.data(), t.data() + t.size(), ref);
            QVERIFY(r.ec == std::errc() && r.ptr == t.data() + t.size());
            QVERIFY2(bs::parseDouble(t, viaParseDouble), t.c_str());
            if (std::memcmp(&v, &ref, sizeof v) != 0 || std::memcmp(&v, &viaParseDouble, sizeof v) != 0)
                QFAIL(t.c_str());
        }
    }
    // Timestamps of 1-20 integer digits and 0-3 decimals, some with one character that is not a digit at
    // any place (the eight-digit words of the fast path stop there): each parses to the value summed here
    // digit by digit in 128 bits, or is refused when it is no decimal or does not fit int64 ns.
    void timestampsOfEveryLengthAreExactOrRefused() {
        __extension__ typedef unsigned __int128 u128;
        bstest::XorShift rnd{0x9E3779B97F4A7C15ULL};
        const char bad[] = {'a', '/', ':', ' ', '-', '.'};
        int refused = 0, fast = 0;
        for (int i = 0; i < 300000; ++i) {
            const int intDigits = 1 + static_cast<int>(rnd() % 20), decimals = static_cast<int>(rnd() % 4);
            std::string t;
            u128 ns = 0;
            for (int d = 0; d < intDigits; ++d) {
                const int digit = static_cast<int>(rnd() % 10);
                t += static_cast<char>('0' + digit);
                ns = ns * 10 + static_cast<unsigned>(digit);
            }
            if (decimals) t += '.';
            for (int d = 0; d < 3; ++d) {
                const int digit = d < decimals ? static_cast<int>(rnd() % 10) : 0;
                if (d < decimals) t += static_cast<char>('0' + digit);
                ns = ns * 10 + static_cast<unsigned>(digit);
            }
            bool valid = true;
            if (rnd() % 4 == 0) { // one character that breaks it, anywhere but the point
                std::size_t at = static_cast<std::size_t>(rnd() % t.size());
                if (t[at] == '.') at = 0;
                const char c = bad[rnd() % sizeof bad];
                // ' ' at either end, '-' in front and a first point are still a number: kept out.
                valid = false;
                if ((c == ' ' && (at == 0 || at + 1 == t.size())) || (c == '-' && at == 0) ||
                    (c == '.' && decimals == 0))
                    continue;
                t[at] = c;
            }
            const auto v = bs::parseMicrosToNs(t);
            const bool fits = ns <= static_cast<u128>(INT64_MAX);
            if (!valid || !fits) {
                if (v) QFAIL(("taken: " + t).c_str());
                ++refused;
                continue;
            }
            if (!v || static_cast<u128>(*v) != ns) QFAIL(("wrong value: " + t).c_str());
            fast += intDigits >= 8;
        }
        QVERIFY(refused > 70000);
        QVERIFY2(fast > 100000, qPrintable(QString::number(fast)));
    }
    void profilerTimestampRoundTripsExactly() {
        auto v = bs::parseMicrosToNs("1736408883686740.710");
        QVERIFY(v.has_value());
        QCOMPARE(*v, Q_INT64_C(1736408883686740710));
        QCOMPARE(bs::formatNsAsMicros(*v), std::string("1736408883686740.710"));
    }
    void aDoubleWouldHaveLostTheseDigits() {
        // Guard that the test above is meaningful: the same text read as a double (the project's own
        // parseDouble, used for ratios and PMU figures, never for times) is not exact; parseMicrosToNs is.
        const auto viaDouble = bs::parseDouble("1736408883686740.710");
        QVERIFY(viaDouble.has_value());
        const auto exact = bs::parseMicrosToNs("1736408883686740.710");
        QVERIFY(exact.has_value());
        QCOMPARE(*exact, Q_INT64_C(1736408883686740710));
        QVERIFY(static_cast<long long>(*viaDouble * 1000.0) != *exact);
    }
    void trailingTabsQuotesAndSpacesAreIgnored() {
        QCOMPARE(*bs::parseMicrosToNs("1736412474730135.222\t"), Q_INT64_C(1736412474730135222));
        QCOMPARE(*bs::parseMicrosToNs("\"1736413971558972.912\t\""), Q_INT64_C(1736413971558972912));
        QCOMPARE(*bs::parseMicrosToNs("  12  "), Q_INT64_C(12000));
    }
    void subNanosecondDigitsRoundHalfAwayFromZero() {
        QCOMPARE(*bs::parseMicrosToNs("2.30003125"), Q_INT64_C(2300));  // 2300.03125 ns
        QCOMPARE(*bs::parseMicrosToNs("840.07675"), Q_INT64_C(840077)); // .75 ns rounds up
        QCOMPARE(*bs::parseMicrosToNs("0.0005"), Q_INT64_C(1));
        QCOMPARE(*bs::parseMicrosToNs("0.0004999"), Q_INT64_C(0));
        QCOMPARE(*bs::parseMicrosToNs("-3.0005"), Q_INT64_C(-3001));
        QCOMPARE(*bs::parseMicrosToNs("8873.756000000001"), Q_INT64_C(8873756));
    }
    // The scaling every time read ends in (the CSV's digits, communication.json's doubles): mantissa ×
    // 10^exp10, half away from zero below 1, refused past int64. Values by hand.
    void scalingRoundsHalvesAwayAndStopsAtInt64() {
        using M = bs::TimeMantissa;
        auto pow10 = [](int k) {
            M v = 1;
            while (k-- > 0)
                v *= 10;
            return v;
        };
        QCOMPARE(*bs::scaleDecimal(1234, 0), Q_INT64_C(1234));
        QCOMPARE(*bs::scaleDecimal(1234, 3), Q_INT64_C(1234000));
        QCOMPARE(*bs::scaleDecimal(14, -1), Q_INT64_C(1));   // 1.4
        QCOMPARE(*bs::scaleDecimal(15, -1), Q_INT64_C(2));   // 1.5: away from zero
        QCOMPARE(*bs::scaleDecimal(25, -1), Q_INT64_C(3));   // 2.5: away from zero, not to even
        QCOMPARE(*bs::scaleDecimal(4999, -4), Q_INT64_C(0)); // 0.4999
        QCOMPARE(*bs::scaleDecimal(5000, -4), Q_INT64_C(1)); // 0.5
        QCOMPARE(*bs::scaleDecimal(1736408883686758710ULL, -3),
                 Q_INT64_C(1736408883686759)); // .710 rounds up
        // The smallest powers: 5 × 10^36 × 10^-37 is one half (rounds to 1); 10^37 - 1 × 10^-38 is below one
        // half (0), as is every mantissa the type is given for below 10^-38.
        QCOMPARE(*bs::scaleDecimal(5 * pow10(36), -37), Q_INT64_C(1));
        QCOMPARE(*bs::scaleDecimal(5 * pow10(36) - 1, -37), Q_INT64_C(0));
        QCOMPARE(*bs::scaleDecimal(pow10(37) - 1, -37), Q_INT64_C(1));
        QCOMPARE(*bs::scaleDecimal(pow10(37) - 1, -38), Q_INT64_C(0));
        QCOMPARE(*bs::scaleDecimal(pow10(37) - 1, -400), Q_INT64_C(0));
        QCOMPARE(*bs::scaleDecimal(pow10(36), -36), Q_INT64_C(1));
        QCOMPARE(*bs::scaleDecimal(15 * pow10(35), -36), Q_INT64_C(2)); // 1.5
        // int64's bound: INT64_MAX = 9223372036854775807.
        QCOMPARE(*bs::scaleDecimal(9223372036854775807ULL, 0), Q_INT64_C(9223372036854775807));
        QVERIFY(!bs::scaleDecimal(9223372036854775808ULL, 0));
        QCOMPARE(*bs::scaleDecimal(922337203685477580ULL, 1), Q_INT64_C(9223372036854775800));
        QVERIFY(!bs::scaleDecimal(922337203685477581ULL, 1));
        QCOMPARE(*bs::scaleDecimal(1, 18), Q_INT64_C(1000000000000000000));
        QVERIFY(!bs::scaleDecimal(1, 19));
        // INT64_MAX + 0.4 rounds down to it; INT64_MAX + 0.5 rounds past it.
        QCOMPARE(*bs::scaleDecimal(M(9223372036854775807ULL) * 10 + 4, -1), Q_INT64_C(9223372036854775807));
        QVERIFY(!bs::scaleDecimal(M(9223372036854775807ULL) * 10 + 5, -1));
        QCOMPARE(*bs::scaleDecimal(0, 400), Q_INT64_C(0)); // zero never overflows
        QCOMPARE(*bs::scaleDecimal(0, -400), Q_INT64_C(0));
    }
    // trimField: blanks (space, TAB, CR, LF) off both ends, then a pair of surrounding quotes and the blanks
    // inside them, again while there is a pair. By hand, then over 200 000 texts of 0-6 bytes from blanks,
    // quotes, '!' and '#' (either side of '"'), a control byte, a UTF-8 byte and letters, against those
    // rules written byte by byte.
    void fieldsLoseTheirBlanksAndSurroundingQuotes() {
        QCOMPARE(bs::trimField("60.610"), std::string_view("60.610"));
        QCOMPARE(bs::trimField("1736408883686758.710\t"), std::string_view("1736408883686758.710"));
        QCOMPARE(bs::trimField("\"2048,7168\""), std::string_view("2048,7168"));
        QCOMPARE(bs::trimField(" \" \"x\" \" "), std::string_view("x"));
        QCOMPARE(bs::trimField("\"x"), std::string_view("\"x"));
        QCOMPARE(bs::trimField("x\""), std::string_view("x\""));
        QCOMPARE(bs::trimField("!x!"), std::string_view("!x!"));
        QCOMPARE(bs::trimField("\x01x"), std::string_view("\x01x"));
        QCOMPARE(bs::trimField("\xCE\xBCs "), std::string_view("\xCE\xBCs"));
        QCOMPARE(bs::trimField(""), std::string_view(""));
        QCOMPARE(bs::trimField("\"\""), std::string_view(""));
        auto reference = [](std::string_view t) {
            auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
            auto strip = [&](std::string_view& v) {
                while (!v.empty() && blank(v.front()))
                    v.remove_prefix(1);
                while (!v.empty() && blank(v.back()))
                    v.remove_suffix(1);
            };
            strip(t);
            while (t.size() >= 2 && t.front() == '"' && t.back() == '"') {
                t = t.substr(1, t.size() - 2);
                strip(t);
            }
            return t;
        };
        const char bytes[] = {' ', '\t', '\r', '\n', '"', '!', '#', '\x01', '\xCE', 'a', '0'};
        bstest::XorShift rnd{0xD1B54A32D192ED03ULL};
        int trimmed = 0;
        for (int i = 0; i < 200000; ++i) {
            std::string t(rnd() % 7, ' ');
            for (char& c : t)
                c = bytes[rnd() % sizeof bytes];
            const std::string_view got = bs::trimField(t), want = reference(t);
            if (got.data() != want.data() || got.size() != want.size())
                QFAIL(qPrintable(QStringLiteral("trimField of text %1 differs").arg(i)));
            trimmed += got.size() != t.size();
        }
        QVERIFY(trimmed > 50000);
    }
    void exponentsAreExactToo() {
        QCOMPARE(*bs::parseMicrosToNs("1.5e3"), Q_INT64_C(1500000));
        QCOMPARE(*bs::parseMicrosToNs("1736408883686740710e-3"), Q_INT64_C(1736408883686740710));
        QCOMPARE(*bs::parseMillisToNs("79.08952021875"), Q_INT64_C(79089520));
    }
    void invalidTextIsRejectedNotGuessed() {
        QVERIFY(!bs::parseMicrosToNs("N/A"));
        QVERIFY(!bs::parseMicrosToNs(""));
        QVERIFY(!bs::parseMicrosToNs("abc"));
        QVERIFY(!bs::parseMicrosToNs("1.2.3"));
        QVERIFY(!bs::parseMicrosToNs("NaN"));
        QVERIFY(!bs::parseMicrosToNs("inf"));
        QVERIFY(!bs::parseMicrosToNs("1e300"));            // does not fit in int64 ns
        QVERIFY(!bs::parseMicrosToNs("9223372036854776")); // 9.2e18 ns + overflow
        QCOMPARE(*bs::parseMicrosToNs("1e-300"), Q_INT64_C(0));
    }
    // Regression (differential fuzz of the decimal fast path against the general parser): 17 integer digits
    // and a decimal in µs (14 and a decimal in ms) overflow 64 bits when scaled to ns; the fast path used to
    // wrap around — "99999999999999999.9" µs came back as 7766279631452241820 ns, a time that passes the
    // plausibility bound. Such values are out of range: rejected, as the general parser rejects them.
    void decimalsTooLargeForNanosecondsAreRejectedNotWrapped() {
        QVERIFY(!bs::parseMicrosToNs("99999999999999999.9"));
        QVERIFY(!bs::parseMicrosToNs("98765432109876543.2"));
        QVERIFY(!bs::parseMillisToNs("99999999999999.9"));
        QVERIFY(!bs::parseMicrosToNs("12345678901234567.8")); // 1.2e19 ns > int64 (rejected before too)
        // What fits stays exact, on the fast path: torch_npu's 16 + 3 digits with the CSV's trailing tab.
        QCOMPARE(*bs::parseMicrosToNs("1234567890123456.78"), Q_INT64_C(1234567890123456780));
        QCOMPARE(*bs::parseMicrosToNs("9223372036854775"), Q_INT64_C(9223372036854775000));
        QCOMPARE(*bs::parseMicrosToNs("1736408883686758.710\t"), Q_INT64_C(1736408883686758710));
    }
    // The PMU figure's float: every integer m below 2^24 over each power of ten up to 10^7 gives what the
    // double division rounded to float gives (the readers' value before), bit for bit.
    void pmuFloatsAreTheDoubleDivisionRoundedToFloat() {
        static const double pow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7};
        for (std::size_t k = 0; k < 8; ++k) {
            std::uint64_t wrong = 0;
            for (std::uint32_t m = 0; m < (1u << 24); ++m) {
                const float want = static_cast<float>(static_cast<double>(m) / pow10[k]);
                const float got = bs::decimalToFloat(m, k);
                std::uint32_t a, b;
                std::memcpy(&a, &want, 4);
                std::memcpy(&b, &got, 4);
                wrong += a != b;
            }
            QCOMPARE(wrong, std::uint64_t(0));
        }
        // A product in float (the reciprocal as a float) is not exact: the check above can tell.
        std::uint64_t wrongInFloat = 0;
        for (std::uint32_t m = 0; m < (1u << 24); ++m)
            wrongInFloat += static_cast<float>(m) * 1e-3f != static_cast<float>(static_cast<double>(m) / 1e3);
        QVERIFY(wrongInFloat > 0);
    }
    // The text side: "digits[.digits]" of up to 8 digits below 2^24 with at most 7 decimals is taken, with
    // the float of parsePlainDecimal's value; everything else is refused (and read as before).
    void pmuTextsAreTakenOnlyInTheirShape() {
        const struct {
            const char* text;
            bool taken;
        } cases[] = {
            {"0", true},           {"0.000", true},      {"57.579", true},    {"103643", true},
            {"16777215", true},    {"16777216", false},  {"1677721.5", true}, {"1677721.6", false},
            {"0.0000001", true},   {"0.00000001", false}, {"12345678", true}, {"123456789", false},
            {"", false},           {"1.", false},        {".5", false},       {"-1.5", false},
            {" 1.5", false},       {"1.5 ", false},      {"1e3", false},      {"N/A", false},
            {"1.2.3", false},      {"00000000.5", false}, {"0.5", true},      {"9.9999999", false},
        };
        for (const auto& c : cases) {
            float f = -1;
            const bool taken = bs::plainDecimalToFloat(c.text, f);
            QVERIFY2(taken == c.taken, c.text);
            if (!taken) continue;
            double v = -1;
            QVERIFY(bs::parsePlainDecimal(c.text, v));
            QCOMPARE(f, static_cast<float>(v));
        }
        bstest::XorShift rnd{0x9E3779B97F4A7C15ULL};
        int taken = 0;
        for (int i = 0; i < 300000; ++i) {
            const int digits = 1 + static_cast<int>(rnd() % 9);
            std::string t;
            for (int d = 0; d < digits; ++d)
                t += static_cast<char>('0' + rnd() % 10);
            if (rnd() % 3 != 0) t.insert(1 + rnd() % digits, ".");
            if (t.back() == '.') t += '5';
            float f = -1;
            double v = -1;
            const bool plain = bs::parsePlainDecimal(t, v);
            if (!bs::plainDecimalToFloat(t, f)) {
                // Refused only past 8 digits, 7 decimals or 2^24.
                std::string digitsOnly = t;
                std::erase(digitsOnly, '.');
                const std::size_t point = t.find('.');
                const std::size_t decimals = point == std::string::npos ? 0 : t.size() - point - 1;
                QVERIFY2(digitsOnly.size() > 8 || decimals > 7 || std::stoull(digitsOnly) >= (1u << 24),
                         t.c_str());
                continue;
            }
            ++taken;
            QVERIFY2(plain, t.c_str());
            QVERIFY2(f == static_cast<float>(v), t.c_str());
        }
        QVERIFY(taken > 100000);
    }
    // Texts of 1 to 10 bytes from digits, the point and bytes that are not digits on either side of them
    // ('/' and ':', a space, a sign, 'e', a byte past 0x7F, NUL): taken exactly when they read
    // "digits[.digits]" (a digit on each side of a point) of at most 9 bytes below 2^24 with at most 7
    // decimals, as checked here byte by byte, and then with parsePlainDecimal's value as a float.
    void pmuTextsOfAnyBytesAreTakenOnlyInTheirShape() {
        static constexpr char kBytes[] = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '5', '9', '.',
                                          '.', '/', ':', ' ', '-', 'e', '\xB7', '\xFE', '\0'};
        bstest::XorShift rnd{0xD1B54A32D192ED03ULL};
        int taken = 0, refusedOneByte = 0;
        for (int i = 0; i < 400000; ++i) {
            const std::size_t len = 1 + rnd() % 10;
            std::string t;
            // Mostly digits and points; one byte in four of any kind.
            for (std::size_t k = 0; k < len; ++k)
                t += rnd() % 4 ? kBytes[rnd() % 14] : kBytes[rnd() % sizeof kBytes];
            std::size_t intDigits = 0, fracDigits = 0, points = 0;
            bool shape = true;
            std::uint64_t m = 0;
            for (const char c : t) {
                if (c == '.') {
                    ++points;
                } else if (c >= '0' && c <= '9') {
                    (points ? fracDigits : intDigits)++;
                    m = m * 10 + static_cast<unsigned>(c - '0');
                } else {
                    shape = false;
                }
            }
            shape = shape && points <= 1 && intDigits > 0 && (points == 0 || fracDigits > 0);
            const bool expected = shape && len <= 9 && m < (1u << 24) && fracDigits <= 7;
            float f = -1;
            const bool got = bs::plainDecimalToFloat(t, f);
            QVERIFY2(got == expected, t.c_str());
            if (!got) {
                refusedOneByte += shape;
                continue;
            }
            ++taken;
            double v = -1;
            QVERIFY(bs::parsePlainDecimal(t, v));
            QVERIFY2(f == static_cast<float>(v), t.c_str());
        }
        QVERIFY(taken > 50000);
        QVERIFY(refusedOneByte > 1000); // in shape but too long or too large
    }
    void emptyNamesInternWithoutUndefinedBehaviour() {
        // Regression (fuzz_comm_json + the sanitizer pass): an empty string_view may carry a null data();
        // hashing it used memcpy from null. Under the UBSan build of .ci/run this aborts on the old code.
        bs::StringPool pool;
        QCOMPARE(pool.intern(std::string_view()), bs::StrId(0));
        QCOMPARE(pool.intern(std::string_view("", 0)), bs::StrId(0));
        const bs::StrId a = pool.intern("aten::to");
        QCOMPARE(pool.intern("aten::to"), a);
        QCOMPARE(pool.view(a), std::string_view("aten::to"));
    }
    // Interning against a map: texts of 0-40 bytes that share their first and last 8 bytes and differ
    // in one byte anywhere (the cache slot keeps both ends and compares the middle), in every order,
    // with enough of them to evict slots. Each text gets one id, distinct texts distinct ids, given in
    // order of first appearance, and the view is the text.
    void internedIdsAreThoseOfAMap() {
        bstest::XorShift rnd{0x2545F4914F6CDD1DULL};
        std::vector<std::string> texts;
        for (std::size_t len = 0; len <= 40; ++len) {
            const std::string base(len, 'a');
            texts.push_back(base);
            for (std::size_t at = 0; at < len; ++at)
                for (const char c : {'b', '\0', '\xff'}) {
                    std::string t = base;
                    t[at] = c;
                    texts.push_back(t);
                }
        }
        for (int i = 0; i < 20000; ++i) { // more texts than cache slots
            std::string t(1 + rnd() % 40, 'x');
            for (char& c : t)
                c = static_cast<char>('a' + rnd() % 3);
            texts.push_back(t);
        }
        bs::StringPool pool;
        std::map<std::string, bs::StrId> want{{std::string(), 0}};
        for (int i = 0; i < 400000; ++i) {
            const std::string& t = texts[rnd() % texts.size()];
            const auto it = want.find(t);
            const bs::StrId expected = it != want.end() ? it->second : static_cast<bs::StrId>(want.size());
            if (it == want.end()) want.emplace(t, expected);
            const bs::StrId got = pool.intern(t);
            if (got != expected) QFAIL(("wrong id for a text of " + std::to_string(t.size()) + " bytes").c_str());
            if (pool.view(got) != t) QFAIL("wrong view");
        }
        QCOMPARE(pool.size(), want.size());
    }
    // Integers of 1-20 digits, signed or not, some with one character that is no digit: the value summed
    // here digit by digit in 128 bits, or refused when it is no integer or does not fit int64.
    void integersOfEveryLengthAreExactOrRefused() {
        __extension__ typedef unsigned __int128 u128;
        bstest::XorShift rnd{0xD1B54A32D192ED03ULL};
        int taken = 0, refused = 0;
        for (int i = 0; i < 300000; ++i) {
            const int digits = 1 + static_cast<int>(rnd() % 20);
            const int sign = static_cast<int>(rnd() % 6); // 0: '-', 1: '+', else none
            std::string t = sign == 0 ? "-" : sign == 1 ? "+" : "";
            u128 v = 0;
            for (int d = 0; d < digits; ++d) {
                const int digit = static_cast<int>(rnd() % 10);
                t += static_cast<char>('0' + digit);
                v = v * 10 + static_cast<unsigned>(digit);
            }
            bool valid = v <= static_cast<u128>(INT64_MAX);
            if (rnd() % 4 == 0) {
                const std::size_t at = t.size() - 1 - static_cast<std::size_t>(rnd() % digits); // a digit
                t[at] = "a:/.-+ "[rnd() % 7];
                // A blank at an end is trimmed and a sign in front is a sign: other numbers, kept out.
                if ((t[at] == ' ' && (at + 1 == t.size() || at == 0)) ||
                    (at == 0 && (t[at] == '-' || t[at] == '+')))
                    continue;
                valid = false;
            }
            const auto got = bs::parseInt(t);
            if (!valid) {
                if (got) QFAIL(("taken: " + t).c_str());
                ++refused;
                continue;
            }
            const std::int64_t want = sign == 0 ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v);
            if (!got || *got != want) QFAIL(("wrong value: " + t).c_str());
            ++taken;
        }
        QVERIFY(taken > 150000);
        QVERIFY(refused > 70000);
    }
    void integersAndDoubles() {
        QCOMPARE(*bs::parseInt("4294967295"), Q_INT64_C(4294967295));
        QVERIFY(!bs::parseInt("N/A"));
        QVERIFY(!bs::parseInt("12x"));
        QCOMPARE(*bs::parseDouble("0.186"), 0.186);
        QVERIFY(!bs::parseDouble("N/A"));
    }
};

QTEST_APPLESS_MAIN(TstTimeParse)
#include "tst_time_parse.moc"
