// core/i18n: a sentence built with msg() renders in English exactly as fmt::format would, and in Chinese
// from the catalog, with its arguments (nested sentences included) in the fields the translation names.
#include "i18n/message.h"

#include <QTest>

#include <set>

class TstMessages : public QObject {
    Q_OBJECT
  private slots:
    void englishIsWhatFmtFormatGives() {
        const std::string m = bs::msg("{} of {} ranks took {:.1f} ms", 3, 8, 12.345);
        QVERIFY(bs::hasMessage(m));
        QCOMPARE(bs::english(m), std::string("3 of 8 ranks took 12.3 ms"));
        QCOMPARE(bs::english(bs::msg("no fields")), std::string("no fields"));
        QCOMPARE(bs::english(bs::msg("braces {{kept}} and {}", "x")), std::string("braces {kept} and x"));
        QCOMPARE(bs::english(bs::msg("{:>5}|{:<4}|", 42, "ab")), std::string("   42|ab  |"));
    }
    void nestedAndJoinedSentencesRender() {
        const std::string inner = bs::msg("file {} is cut at line {}", "a.json", 12);
        const std::string outer = bs::msg("{} Fix: {}", inner, "collect again");
        const std::string joined = outer + " / " + bs::msg("{} rows", 5);
        QCOMPARE(bs::english(joined), std::string("file a.json is cut at line 12 Fix: collect again / 5 rows"));
        QVERIFY(!bs::hasMessage(bs::english(joined)));
    }
    void textWithoutMessagesIsUnchanged() {
        const std::string plain = "MatMul \xe7\x9f\xa9\xe9\x98\xb5 {} 100 %";
        QCOMPARE(bs::render(plain, bs::Language::Chinese), plain);
        QVERIFY(!bs::hasMessage(plain));
    }
    void aCutMessageKeepsItsReadableText() {
        const std::string m = bs::msg("window {} is {} ms", "b0001", 3);
        const std::string cut = m.substr(0, m.size() - 4);
        const std::string r = bs::english(cut);
        QVERIFY(r.find('\x02') == std::string::npos && r.find('\x1f') == std::string::npos);
        QCOMPARE(r, std::string("window b000 is  ms")); // the fields it still has, the cut one empty
    }
    void chineseUsesTheCatalogAndReordersFields() {
        // Any catalog entry whose Chinese names its fields by position is rendered with the arguments where
        // it puts them; take the first entry with two or more fields and check the substitution by hand.
        const auto catalog = bs::chineseCatalog();
        QVERIFY2(catalog.size() > 100, "the zh_CN catalog is nearly empty");
        bool checked = false;
        for (const auto& [en, zh] : catalog) {
            const auto formats = bs::i18n_detail::argumentFormats(en);
            if (formats.size() != 2 || formats[0] != "{}" || formats[1] != "{}") continue;
            // Build the message through the runtime path the template macro uses.
            std::string m;
            m += '\x02';
            m += en;
            m += "\x1f" "AAA" "\x1f" "BBB" "\x03";
            const std::string r = bs::render(m, bs::Language::Chinese);
            std::string expected(zh);
            // Replace the fields of the Chinese text by hand: "{}" in order, "{0}"/"{1}" by position.
            std::string out;
            std::size_t next = 0;
            for (std::size_t i = 0; i < expected.size(); ++i) {
                if (expected[i] == '{' && i + 1 < expected.size() && expected[i + 1] == '{') {
                    out += '{';
                    ++i;
                } else if (expected[i] == '}' && i + 1 < expected.size() && expected[i + 1] == '}') {
                    out += '}';
                    ++i;
                } else if (expected[i] == '{') {
                    const std::size_t close = expected.find('}', i);
                    const std::string inner = expected.substr(i + 1, close - i - 1);
                    const std::size_t idx = (!inner.empty() && inner[0] >= '0' && inner[0] <= '9')
                                                ? static_cast<std::size_t>(inner[0] - '0')
                                                : next++;
                    out += idx == 0 ? "AAA" : "BBB";
                    i = close;
                } else {
                    out += expected[i];
                }
            }
            QCOMPARE(r, out);
            QVERIFY(r != bs::english(m));
            checked = true;
            break;
        }
        QVERIFY(checked);
    }
    void catalogEntriesAreUniqueAndKeepTheirFields() {
        std::set<std::string_view> seen;
        for (const auto& [en, zh] : bs::chineseCatalog()) {
            QVERIFY2(seen.insert(en).second, std::string(en).c_str());
            // The translation shows no argument the English does not have, and drops none but English
            // grammar ("s" of plurals is the only argument a translation may leave out).
            const auto enFormats = bs::i18n_detail::argumentFormats(en);
            const auto zhFormats = bs::i18n_detail::argumentFormats(zh);
            QVERIFY2(zhFormats.size() <= enFormats.size(), (std::string(en) + " | " + std::string(zh)).c_str());
            QVERIFY2(!zh.empty(), std::string(en).c_str());
        }
    }
    void languageNames() {
        bs::Language l = bs::Language::English;
        QVERIFY(bs::parseLanguage("zh_CN", &l) && l == bs::Language::Chinese);
        QVERIFY(bs::parseLanguage("cn", &l) && l == bs::Language::Chinese);
        QVERIFY(bs::parseLanguage("en", &l) && l == bs::Language::English);
        QVERIFY(!bs::parseLanguage("fr", &l));
        QCOMPARE(std::string(bs::languageName(bs::Language::Chinese)), std::string("zh_CN"));
    }
};

QTEST_APPLESS_MAIN(TstMessages)
#include "tst_messages.moc"
