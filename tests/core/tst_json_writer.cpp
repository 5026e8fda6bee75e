// core/report/json_writer: the export's streamed arrays are byte for byte what nlohmann's dump(2, ' ', false,
// replace) writes for the same values (the golden text is nlohmann's, not the writer's): numbers, escapes,
// non-ASCII and invalid UTF-8, empty and nested containers, the depth the text is spliced at, and analysis
// messages rendered instead of carrying their marks.
#include "i18n/message.h"
#include "report/json_writer.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using json = nlohmann::ordered_json;

namespace {

std::string dumped(const json& j) {
    return j.dump(2, ' ', false, json::error_handler_t::replace);
}

const std::vector<double> kDoubles = {0.0,    -0.0,   1e-7,    0.1,     1736408883686758.8, 1e300, -2.5e-300,
                                      123.456, 1e15, 1e16, 0.001031, 4.9e-324, 301.493};
const std::vector<std::string> kStrings = {
    "",
    "plain ASCII name_1",
    "quote \" and back\\slash",
    "tab\tline\nfeed\rform\fback\b",
    std::string("nul\0and\x01\x1f", 9), // 9 characters, the NUL included
    "\x7f del",
    "\xe4\xb8\xad\xe6\x96\x87 MatMul",       // valid UTF-8
    "bad \xff\xfe bytes",                    // invalid UTF-8: U+FFFD
    "cut \xe4\xb8",                          // truncated sequence at the end
    "\xc0\xaf overlong",
};

} // namespace

class TstJsonWriter : public QObject {
    Q_OBJECT
  private slots:
    void scalarsAreWrittenAsTheDomDumpsThem() {
        for (double d : kDoubles) {
            std::string out;
            bs::JsonWriter(out, 0).value(d);
            QCOMPARE(out, dumped(json(d)));
        }
        for (double d : {std::nan(""), std::numeric_limits<double>::infinity()}) {
            std::string out;
            bs::JsonWriter(out, 0).value(d);
            QCOMPARE(out, std::string("null"));
            QCOMPARE(out, dumped(json(d)));
        }
        for (std::int64_t i : {std::int64_t{0}, std::int64_t{-1}, std::numeric_limits<std::int64_t>::min(),
                               std::int64_t{1736408883686758710}}) {
            std::string out;
            bs::JsonWriter(out, 0).value(i);
            QCOMPARE(out, dumped(json(i)));
        }
        {
            std::string out;
            bs::JsonWriter(out, 0).value(std::numeric_limits<std::uint64_t>::max());
            QCOMPARE(out, std::string("18446744073709551615"));
        }
        for (const auto& s : kStrings) {
            std::string out;
            bs::JsonWriter(out, 0).value(s);
            QCOMPARE(out, dumped(json(s)));
        }
        std::string t, f, n;
        bs::JsonWriter(t, 0).value(true);
        bs::JsonWriter(f, 0).value(false);
        bs::JsonWriter(n, 0).null();
        QCOMPARE(t + f + n, std::string("truefalsenull"));
    }

    void containersNestAndIndentAsTheDomDumpsThem() {
        json dom = json::array();
        std::string out;
        bs::JsonWriter w(out, 0);
        w.beginArray();
        for (std::size_t i = 0; i < kStrings.size(); ++i) {
            json o;
            o["name"] = kStrings[i];
            o["value"] = kDoubles[i % kDoubles.size()];
            o["count"] = static_cast<std::uint64_t>(i);
            o["none"] = nullptr;
            o["empty_object"] = json::object();
            o["empty_array"] = json::array();
            o["tags"] = std::vector<std::string>{kStrings[i], "TAG"};
            o["nested"] = {{"a", i % 2 == 0}, {kStrings[i], -static_cast<std::int64_t>(i)}};
            dom.push_back(o);
            w.beginObject()
                .member("name", kStrings[i])
                .member("value", kDoubles[i % kDoubles.size()])
                .member("count", static_cast<std::uint64_t>(i))
                .key("none")
                .null()
                .key("empty_object")
                .beginObject()
                .endObject()
                .key("empty_array")
                .beginArray()
                .endArray()
                .member("tags", std::vector<std::string>{kStrings[i], "TAG"})
                .key("nested")
                .beginObject()
                .member("a", i % 2 == 0)
                .member(kStrings[i], -static_cast<std::int64_t>(i))
                .endObject()
                .endObject();
        }
        w.endArray();
        QCOMPARE(out, dumped(dom));

        std::string empty;
        bs::JsonWriter(empty, 0).beginArray().endArray();
        QCOMPARE(empty, dumped(json::array()));
    }

    // Written at depth 1, the array is exactly the member's value in the dump of an object holding it.
    void anArrayWrittenAtDepthOneSplicesIntoItsParent() {
        json arr = json::array();
        arr.push_back({{"x", 1.5}, {"y", {1, 2}}});
        arr.push_back(json::object());
        json parent;
        parent["before"] = 1;
        parent["list"] = arr;
        std::string out;
        bs::JsonWriter w(out, 1);
        w.beginArray().beginObject().member("x", 1.5).key("y").beginArray().value(1).value(2).endArray().endObject();
        w.beginObject().endObject().endArray();
        const std::string whole = dumped(parent);
        const std::string prefix = "{\n  \"before\": 1,\n  \"list\": ";
        QVERIFY(whole.rfind(prefix, 0) == 0);
        QCOMPARE(out, whole.substr(prefix.size(), whole.size() - prefix.size() - 2));
        QCOMPARE(whole.substr(whole.size() - 2), std::string("\n}"));
    }

    void analysisMessagesAreRenderedNotWrittenWithTheirMarks() {
        const std::string m = bs::msg("{} of {} ranks took {:.1f} ms", 3, 8, 12.345);
        std::string out;
        bs::JsonWriter(out, 0).value(m);
        QCOMPARE(out, std::string("\"3 of 8 ranks took 12.3 ms\""));
    }
};

QTEST_APPLESS_MAIN(TstJsonWriter)
#include "tst_json_writer.moc"
