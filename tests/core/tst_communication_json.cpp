// communication.json has four readers that must give one answer: the reference (nlohmann DOM), the
// whole-document simdjson reader, the split reader (kinds or ops parsed one by one, on two threads) and
// the streamed reader (the split reader's cut, read through a window of the file: here the usual 4 MiB
// and 16 bytes, which makes every value cross the window's end and the window grow). Each case is read by
// all of them; the values asserted are worked out by hand from the text in the test.
#include "i18n/message.h"
#include "io/communication_json.h"
#include "io/file_buffer.h"
#include "io/side_file_readers.h"
#include "test_support.h"
#include "xorshift.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace {

using bs::commjson::FastPath;

struct Read {
    bool ok = false;
    bs::Profile profile;
    std::vector<bs::Finding> findings; // after take(): the per-id cap and its summary applied
};

enum class Reader { Reference, Whole, Split, Streamed, StreamedTiny };

Read readWith(const std::string& path, Reader how) {
    Read r;
    bs::FindingSink sink;
    const bs::FileBuffer fb = bs::readWholeFile(path, 1ULL << 30);
    if (how == Reader::Reference)
        r.ok = bs::commjson::readReference(path, fb, r.profile, sink);
    else if (how == Reader::Streamed || how == Reader::StreamedTiny)
        r.ok = bs::commjson::readStreamed(path, r.profile, sink,
                                          how == Reader::Streamed ? bs::commjson::kStreamWindowBytes : 16);
    else
        r.ok = bs::commjson::readFast(path, fb, r.profile, sink,
                                      how == Reader::Whole ? FastPath::Whole : FastPath::Split, 2);
    r.findings = sink.take();
    return r;
}

// Everything a reader hands on, one line per op and finding.
std::string dump(const Read& r) {
    std::string out = r.ok ? "ok\n" : "refused\n";
    for (const auto& c : r.profile.commOps)
        out += c.step + " | " + c.kind + " | " + c.name + " | " + std::to_string(c.start) + " " +
               std::to_string(c.elapse) + " " + std::to_string(c.transit) + " " + std::to_string(c.wait) +
               " " + std::to_string(c.sync) + " " + std::to_string(c.idle) + " " +
               std::to_string(c.transitSizeMB) + "\n";
    for (const auto& f : r.findings)
        out += f.id + ": " + bs::english(f.seen) + " / " + bs::english(f.impact) + "\n";
    return out;
}

} // namespace

class TstCommunicationJson : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    std::string file(const char* name, const QByteArray& text) {
        const QString p = dir_.filePath(QString::fromLatin1(name));
        bstest::writeFile(p, text);
        return bstest::s(p);
    }

    // The reference's answer, checked equal to every fast reader that accepts the file; returns it.
    void agree(const std::string& path, bool splitMustAccept, Read& ref) {
        ref = readWith(path, Reader::Reference);
        const Read whole = readWith(path, Reader::Whole);
        if (whole.ok) {
            const std::string w = dump(whole), r = dump(ref);
            QCOMPARE(QString::fromStdString(w), QString::fromStdString(r));
        }
        for (const Reader how : {Reader::Split, Reader::Streamed, Reader::StreamedTiny}) {
            const Read cut = readWith(path, how);
            if (cut.ok) {
                const std::string c = dump(cut), r = dump(ref);
                QCOMPARE(QString::fromStdString(c), QString::fromStdString(r));
            } else { // refused without a trace: nothing read, nothing said
                QVERIFY(cut.profile.commOps.empty());
                QVERIFY(cut.findings.empty());
            }
            QCOMPARE(cut.ok, splitMustAccept);
        }
    }

  private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // Keys out of order, a repeated op and a repeated time key (the last one counts, as in nlohmann's map), an escaped quote in a
    // name, whitespace everywhere, values the reader drops or bounds, and ops it skips.
    void theSplitReaderReadsTheNestedShapeAsTheReferenceDoes() {
        const auto path = file(
            "regular.json",
            " {\n"
            "  \"step2\" : {\"collective\": {\"hcom_b\": {\"Communication Time Info\": {\"Start "
            "Timestamp(us)\": 1736408883700598,\n"
            "      \"Elapse Time(ms)\": 9.0, \"Elapse Time(ms)\": 0.5, \"Transit Time(ms)\": \"N/A\", \"Wait Time(ms)\": null, \"Idle "
            "Time(ms)\": -5}}},\n"
            "    \"p2p\": {\"send_x\": {\"Communication Time Info\": {\"Elapse Time(ms)\": 3.0}},\n"
            "            \"Recv_y\": {\"Communication Time Info\": {\"Elapse Time(ms)\": 4.0}}}},\n"
            "  \"step1\": {\n"
            "    \"p2p\": {},\n"
            "    \"collective\": {\n"
            "      \"hcom_\\\"q\\\"\": {\"Communication Time Info\": {\"Start Timestamp(us)\": "
            "1.7364088837005985e+15, \"Elapse Time(ms)\": 1.0},\n"
            "                    \"Communication Bandwidth Info\": {\"PCIE\": {\"Transit Size(MB)\": 7.0}, "
            "\"HCCS\": {\"Transit Size(MB)\": 4.5}, \"PCIE\": {\"Transit Size(MB)\": 0.25}, "
            "\"SDMA\": {\"Transit Size(MB)\": 4.5},\n"
            "                                                     \"RDMA\": {\"Transit Size(MB)\": 2e9}}},\n"
            "      \"hcom_a\": {\"Communication Time Info\": {\"Elapse Time(ms)\": 1.0}},\n"
            "      \"hcom_a\": {\"Communication Time Info\": {\"Elapse Time(ms)\": 2.0, \"Wait Time(ms)\": "
            "0.25, \"Synchronization Time(ms)\": 0.125, \"Transit Time(ms)\": 0.5, \"Idle Time(ms)\": 1.0}},\n"
            "      \"no_info\": {\"Communication Bandwidth Info\": {}},\n"
            "      \"not_an_object\": [1, 2, {\"x\": \"y\"}]\n"
            "    }\n"
            "  }\n"
            "}\n"
            "");
        Read ref;
        agree(path, true, ref);
        if (QTest::currentTestFailed()) return;
        QVERIFY(ref.ok);
        // step1 before step2; within step1 "hcom_\"q\"" < "hcom_a" (0x22 < 0x61); skipped: no_info,
        // not_an_object.
        QCOMPARE(ref.profile.commOps.size(), std::size_t(5));
        const auto& q = ref.profile.commOps[0];
        QCOMPARE(QString::fromStdString(q.step + "/" + q.kind + "/" + q.name),
                 QStringLiteral("step1/collective/hcom_\"q\""));
        QCOMPARE(q.start, bs::TimeNs(1736408883700598500)); // 1.7364088837005985e+15 us
        QCOMPARE(q.elapse, bs::TimeNs(1000000));
        // HCCS and the second PCIE (the last of a repeated transport counts): SDMA repeats HCCS, RDMA's 2e9 MB
        // is out of range.
        QCOMPARE(q.transitSizeMB, 4.75);
        const auto& a = ref.profile.commOps[1];
        QCOMPARE(QString::fromStdString(a.name), QStringLiteral("hcom_a"));
        QCOMPARE(a.elapse, bs::TimeNs(2000000)); // the second hcom_a
        QCOMPARE(a.wait, bs::TimeNs(250000));
        QCOMPARE(a.sync, bs::TimeNs(125000));
        QCOMPARE(a.transit, bs::TimeNs(500000));
        QCOMPARE(a.idle, bs::TimeNs(1000000));
        QCOMPARE(a.start, bs::TimeNs(0));
        const auto& b = ref.profile.commOps[2];
        QCOMPARE(QString::fromStdString(b.step + "/" + b.name), QStringLiteral("step2/hcom_b"));
        QCOMPARE(b.start, bs::TimeNs(1736408883700598000));
        QCOMPARE(b.elapse, bs::TimeNs(500000)); // the second of two Elapse Time(ms)
        QCOMPARE(b.transit, bs::TimeNs(0)); // N/A
        QCOMPARE(b.idle, bs::TimeNs(0));    // -5 ms: out of range, counted as 0 with a finding
        // step2's p2p after its collective; "Recv_y" before "send_x" ('R' 0x52 < 's' 0x73).
        QCOMPARE(QString::fromStdString(ref.profile.commOps[3].kind + "/" + ref.profile.commOps[3].name),
                 QStringLiteral("p2p/Recv_y"));
        QCOMPARE(ref.profile.commOps[3].elapse, bs::TimeNs(4000000));
        QCOMPARE(QString::fromStdString(ref.profile.commOps[4].name), QStringLiteral("send_x"));
        QCOMPARE(ref.findings.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(ref.findings[0].id), QStringLiteral("json_value_out_of_range"));
        QVERIFY(bs::english(ref.findings[0].seen)
                    .find("step1 › collective › hcom_\"q\" › Communication Bandwidth Info › RDMA › Transit "
                          "Size(MB)") != std::string::npos);
        QVERIFY(bs::english(ref.findings[1].seen).find("step2 › collective › hcom_b › Idle Time(ms)") !=
                std::string::npos);
    }

    // A repeated step and a repeated kind: the last of each counts, as in nlohmann's map; the ops and the
    // findings of the earlier ones are dropped (the streamed reader reads them before it knows). An escaped
    // quote in a kind's key.
    void repeatedStepsAndKindsKeepTheLast() {
        const auto path =
            file("repeated.json",
                 "{\"s2\":{\"c\":{\"a\":{\"Communication Time Info\":{\"Elapse Time(ms)\":1.0}}},"
                 "\"c\":{\"b\":{\"Communication Time Info\":{\"Elapse Time(ms)\":2.0}}}},"
                 "\"s1\":{\"c\":{\"x\":{\"Communication Time Info\":{\"Elapse Time(ms)\":-7}}}},"
                 "\"s1\":{\"k\\\"q\":{\"y\":{\"Communication Time Info\":{\"Elapse Time(ms)\":3.0}}},"
                 "\"c\":{\"z\":{\"Communication Time Info\":{\"Elapse Time(ms)\":-4}}}}}");
        Read ref;
        agree(path, true, ref);
        if (QTest::currentTestFailed()) return;
        // s1 (the second) before s2; in it "c" (0x63) before "k\"q" (0x6B); in s2 the second "c".
        QCOMPARE(ref.profile.commOps.size(), std::size_t(3));
        const auto& o = ref.profile.commOps;
        QCOMPARE(o[0].step + "|" + o[0].kind + "|" + o[0].name, std::string("s1|c|z"));
        QCOMPARE(o[0].elapse, bs::TimeNs(0)); // -4 ms: out of range, counted as 0
        QCOMPARE(o[1].step + "|" + o[1].kind + "|" + o[1].name, std::string("s1|k\"q|y"));
        QCOMPARE(o[1].elapse, bs::TimeNs(3000000));
        QCOMPARE(o[2].step + "|" + o[2].kind + "|" + o[2].name, std::string("s2|c|b"));
        QCOMPARE(o[2].elapse, bs::TimeNs(2000000));
        QCOMPARE(ref.findings.size(), std::size_t(1)); // the dropped s1's -7 says nothing
        QVERIFY(bs::english(ref.findings[0].seen).find("s1 › c › z › Elapse Time(ms)") != std::string::npos);
    }

    // Over 1 MB of ops: the split reader's two threads each read half; their ops and findings are joined
    // in file order, and the per-id cap (20) applies to the whole file as in the reference. Step 2's kind
    // is over 1 MB (~1.2 MB), so the split reader cuts it into its ops; the other two (~0.9 MB) are each
    // read as one document.
    void twoThreadsGiveTheOrderAndTheFindingsOfOne() {
        QByteArray text = "{";
        int ops = 0;
        std::vector<qsizetype> kindBytes;
        for (int step = 1; step <= 3; ++step) {
            text += (step > 1 ? "," : "") + QByteArray("\"step") + QByteArray::number(step) +
                    "\":{\"collective\":{";
            const qsizetype kindBegin = text.size() - 1;
            for (int i = 0; i < (step == 2 ? 3500 : 2500); ++i, ++ops) {
                if (i) text += ',';
                // Every 97th op has a negative elapse (a finding); names sort as numbers padded to 5 digits.
                const QByteArray elapse =
                    ops % 97 == 0 ? "-1.5" : QByteArray::number(0.001 * (i % 1000 + 1), 'f', 3);
                text += "\"hcom_allReduce__" + QByteArray::number(10000 + i) +
                        "\":{\"Communication Time Info\":{"
                        "\"Start Timestamp(us)\":" +
                        QByteArray::number(1736408883000000LL + ops * 100LL) +
                        ",\"Elapse Time(ms)\":" + elapse +
                        ",\"Transit Time(ms)\":0.0,\"Wait Time(ms)\":0.0},"
                        "\"Communication Bandwidth Info\":{\"HCCS\":{\"Transit "
                        "Size(MB)\":1.5,\"Bandwidth(GB/s)\":17.14,"
                        "\"Size Distribution\":{\"1.5\":[1,0.01]}},\"RDMA\":{\"Transit Size(MB)\":0.0,"
                        "\"Size Distribution\":{}}}}";
            }
            kindBytes.push_back(text.size() + 1 - kindBegin);
            text += "}}";
        }
        text += "}";
        QVERIFY(text.size() > (1 << 20));
        QVERIFY(kindBytes[0] < (1 << 20) && kindBytes[1] > (1 << 20) && kindBytes[2] < (1 << 20));
        const auto path = file("large.json", text);
        Read ref;
        agree(path, true, ref);
        if (QTest::currentTestFailed()) return;
        QCOMPARE(ref.profile.commOps.size(), std::size_t(8500));
        QCOMPARE(ref.profile.commOps[2500].step, std::string("step2"));
        QCOMPARE(ref.profile.commOps[6000].step, std::string("step3"));
        QCOMPARE(ref.profile.commOps[8499].start, bs::TimeNs((1736408883000000LL + 8499 * 100LL) * 1000));
        QCOMPARE(ref.profile.commOps[1].elapse, bs::TimeNs(2000)); // op 1: 0.002 ms
        // ceil(8500 / 97) = 88 negative elapses: 20 kept, the rest counted in one summary finding.
        int kept = 0;
        for (const auto& f : ref.findings)
            kept += f.id == "json_value_out_of_range";
        QCOMPARE(kept, 20);
        QCOMPARE(ref.findings.size(), std::size_t(21));
        QVERIFY(bs::english(ref.findings.back().seen).find("68") != std::string::npos);
    }

    // Starts as the fast readers read them (grisu2's shortest digits of the double, scaled to ns without
    // printing them) against the reference (nlohmann's dump() re-read as text), over starts in every
    // printed form: fixed and exponent, quarter-µs profiler times, halves of a ns (rounded away from
    // zero), values far below 1 ns and past int64, zero and negatives (findings).
    void startsAreTheReferencesOverManyDoubles() {
        std::vector<std::string> starts = {"123.4565", "0.0005", "0.0015", "2.5e-3", "1.0000005e2", "1e-30",
                                           "1e300", "9.2233720368547e15", "9.3e15", "0", "0.0", "-0.0",
                                           "-1.5", "4e15", "4.0000001e15", "1.7364088837005985e+15"};
        bstest::XorShift rnd{0x2545F4914F6CDD1DULL};
        char buf[64];
        for (int i = 0; i < 3000; ++i) {
            double x;
            if (i % 3 == 0) // a profiler's time: µs since 1970 in quarters of a µs (a double's step there)
                x = 1736408883000000.0 + static_cast<double>(rnd() % 4000000) * 0.25;
            else if (i % 3 == 1) // any magnitude from 2^-30 to 2^56 µs
                x = std::ldexp(static_cast<double>(rnd() >> 11), static_cast<int>(rnd() % 87) - 83);
            else // few digits after the point, some of them half a ns
                x = static_cast<double>(rnd() % 100000000) / std::pow(10.0, static_cast<double>(rnd() % 9));
            std::snprintf(buf, sizeof buf, "%.*g", 15 + static_cast<int>(rnd() % 3), x);
            starts.emplace_back(buf);
        }
        QByteArray text = "{\"step1\":{\"collective\":{";
        for (std::size_t i = 0; i < starts.size(); ++i) {
            std::snprintf(buf, sizeof buf, "op%05zu", i);
            text += (i ? "," : "") + QByteArray("\"") + buf +
                    "\":{\"Communication Time Info\":{\"Start Timestamp(us)\":" + starts[i].c_str() + "}}";
        }
        text += "}}}";
        const auto path = file("starts.json", text);
        Read ref;
        agree(path, true, ref);
        if (QTest::currentTestFailed()) return;
        QCOMPARE(ref.profile.commOps.size(), starts.size());
        QCOMPARE(ref.profile.commOps[0].start, bs::TimeNs(123457)); // 123456.5 ns: half away from zero
        QCOMPARE(ref.profile.commOps[1].start, bs::TimeNs(1));      // 0.5 ns
        QCOMPARE(ref.profile.commOps[2].start, bs::TimeNs(2));      // 1.5 ns
        QCOMPARE(ref.profile.commOps[3].start, bs::TimeNs(3));      // 2.5 ns
        QCOMPARE(ref.profile.commOps[4].start, bs::TimeNs(100000));    // 100000.05 ns
        QCOMPARE(ref.profile.commOps[5].start, bs::TimeNs(0));
        QCOMPARE(ref.profile.commOps[13].start, bs::TimeNs(4000000000000000000));
        QCOMPARE(ref.profile.commOps[15].start, bs::TimeNs(1736408883700598500));
    }

    // A duration in ms to ns as llround does it (half away from zero), bounded to [0, 1000 s]; a small
    // negative (rounding noise of a difference, above -1 µs) is 0. Each product below is exact as written.
    void durationsRoundHalfAwayFromZero() {
        using bs::commjson::durationNs;
        QCOMPARE(2.5e-6 * 1e6, 2.5);
        QCOMPARE(durationNs(2.5e-6), std::optional<bs::TimeNs>(3));
        QCOMPARE(durationNs(1.5e-6), std::optional<bs::TimeNs>(2));
        QCOMPARE(durationNs(0.5e-6), std::optional<bs::TimeNs>(1));
        QCOMPARE(1000.0000005 * 1e6, 1000000000.5);
        QCOMPARE(durationNs(1000.0000005), std::optional<bs::TimeNs>(1000000001));
        QCOMPARE(4.999999999999999e-07 * 1e6, 0.4999999999999999);
        QCOMPARE(durationNs(4.999999999999999e-07), std::optional<bs::TimeNs>(0));
        QCOMPARE(durationNs(0.687542), std::optional<bs::TimeNs>(687542));
        QCOMPARE(durationNs(0.0), std::optional<bs::TimeNs>(0));
        QCOMPARE(durationNs(-0.0005), std::optional<bs::TimeNs>(0));
        QCOMPARE(durationNs(-0.001), std::optional<bs::TimeNs>());
        QCOMPARE(durationNs(1e6), std::optional<bs::TimeNs>(1000000000000));
        QCOMPARE(durationNs(1000000.000001), std::optional<bs::TimeNs>());
        QCOMPARE(durationNs(std::nan("")), std::optional<bs::TimeNs>());
    }

    // Files that are not valid JSON: the split reader refuses them (nothing read or said), and so does
    // the whole-document one; the reference says the file is not valid JSON.
    void brokenFilesAreRefusedByTheFastReaders() {
        const char*
            cases[] =
                {
                    "{\"step1\":{\"collective\":{\"a\":{\"Communication Time Info\":{}}}}} x", // trailing
                                                                                               // text
                    "{\"step1\":{\"collective\":{\"a\":{} \"b\":{}}}}",                        // no comma
                    "{\"step1\":{\"collective\":{\"a\":{\"Communication Time Info\":{\"Elapse "
                    "Time(ms)\":}}}}}",                                  // no value
                    "{\"step1\":{\"collective\":{\"a\":{\"x\":[1}]}}}}", // brackets crossed
                    "{\"step1\":{\"coll\xff\":{}}}",                     // bad UTF-8 in a key
                    "{\"step1\":{\"col\tlective\":{}}}",                 // control char in a key
                    "{\"step1\":{\"collective\":{\"a\":{}},}}",          // trailing comma
                    "{\"step1\":{\"collective\":{\"a\":{}}",             // cut short
                    "{\"step1\":{\"collective\":{\"a\":{\"x\":01}}}}",   // leading zero
                    // A repeated key's earlier value is not read (the last one counts) but must be valid:
                    "{\"s\":{\"c\":{\"a\":[1,,2],\"a\":{\"Communication Time Info\":{\"Elapse Time(ms)\":1}}}}}",
                    "{\"s\":{\"c\":{\"a\":01}},\"s\":{\"c\":{}}}", // in a repeated step
                    "{\"s\":{\"c\":{\"a\":{\"x\":tru}},\"c\":{}}}", // in a repeated kind
                };
        int n = 0;
        for (const char* c : cases) {
            const auto path = file(("broken" + std::to_string(n++) + ".json").c_str(), QByteArray(c));
            Read ref;
            agree(path, false, ref);
            if (QTest::currentTestFailed()) return;
            QVERIFY2(!ref.ok, c);
            QVERIFY2(!readWith(path, Reader::Whole).ok, c);
            QCOMPARE(QString::fromStdString(ref.findings.at(0).id), QStringLiteral("json_invalid"));
        }
        // A kind over 1 MB, cut into its ops, with no comma between two of them (the cut finds it).
        QByteArray large = "{\"s\":{\"c\":{";
        for (int i = 0; i < 14000; ++i)
            large += (i == 0      ? ""
                      : i == 7000 ? " "
                                  : ",") +
                     QByteArray("\"op") + QByteArray::number(i) +
                     "\":{\"Communication Time Info\":{\"Elapse Time(ms)\":1.0,\"Wait Time(ms)\":0.0}}";
        large += "}}}";
        QVERIFY(large.size() > (1 << 20));
        const auto path = file("broken_large.json", large);
        Read ref;
        agree(path, false, ref);
        if (QTest::currentTestFailed()) return;
        QVERIFY(!ref.ok);
    }

    // \u escapes (the two libraries differ on unpaired surrogates) anywhere, in a kind's key or an op's
    // name: the fast readers leave the file to the reference, which reads it.
    void escapedUnicodeGoesToTheReference() {
        const char* cases[] = {
            "{\"s\":{\"\\u0063oll\":{\"a\":{\"Communication Time Info\":{\"Elapse Time(ms)\":1.0}}}}}",
            "{\"s\":{\"coll\":{\"\\u0061\":{\"Communication Time Info\":{\"Elapse Time(ms)\":1.0}}}}}",
        };
        const char* kinds[] = {"coll", "coll"};
        const char* names[] = {"a", "a"};
        for (int n = 0; n < 2; ++n) {
            const auto path = file(("escaped" + std::to_string(n) + ".json").c_str(), QByteArray(cases[n]));
            Read ref;
            agree(path, false, ref);
            if (QTest::currentTestFailed()) return;
            QVERIFY(ref.ok);
            QCOMPARE(ref.profile.commOps.size(), std::size_t(1));
            QCOMPARE(ref.profile.commOps[0].kind, std::string(kinds[n]));
            QCOMPARE(ref.profile.commOps[0].name, std::string(names[n]));
            QCOMPARE(ref.profile.commOps[0].elapse, bs::TimeNs(1000000));
            bs::Profile p;
            bs::FindingSink sink;
            QVERIFY(bs::readCommunicationJson(path, p, sink));
            QCOMPARE(p.commOps.size(), std::size_t(1));
            QCOMPARE(p.commOps[0].kind, std::string(kinds[n]));
        }
    }

    // Valid files of another shape (a step that is not an object) are left to the whole-document reader,
    // which reads them as the reference does.
    void otherShapesGoToTheWholeDocumentReader() {
        const auto path =
            file("shape.json", "{\"step0\": 5, \"step1\":{\"collective\":{\"a\":{\"Communication Time "
                               "Info\":{\"Elapse Time(ms)\":0.5}}}}}");
        Read ref;
        agree(path, false, ref);
        if (QTest::currentTestFailed()) return;
        QVERIFY(ref.ok);
        QCOMPARE(ref.profile.commOps.size(), std::size_t(1));
        QCOMPARE(ref.profile.commOps[0].elapse, bs::TimeNs(500000));
        const Read whole = readWith(path, Reader::Whole);
        QVERIFY(whole.ok);
        bs::Profile p;
        bs::FindingSink sink;
        QVERIFY(bs::readCommunicationJson(path, p, sink));
        QCOMPARE(p.commOps.size(), std::size_t(1));
    }
};

QTEST_GUILESS_MAIN(TstCommunicationJson)
#include "tst_communication_json.moc"
