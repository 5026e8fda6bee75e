// The streaming trace reader: formats, metadata, phases, exact ts, and salvage of truncated files.
#include "i18n/message.h"
#include "io/json_value_scanner.h"
#include "io/trace_json_reader.h"
#include "test_support.h"
#include "tst_trace_json_fixtures.h"
#include "xorshift.h"

#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <atomic>
#include <set>
#include <tuple>

using bstest::writeFile;

namespace {

// Independent of the reader, one byte at a time: whether a byte is string text (its quotes included), a
// backslash escaping the next byte inside a string only.
struct StringBytes {
    bool inString = false, escaped = false;
    bool take(char c) {
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            return true;
        }
        return inString = c == '"';
    }
};

// Independent of the reader: a plain character state machine that lists [start, end) of each
// top-level array element.
std::vector<std::pair<std::size_t, std::size_t>> topLevelElements(const QByteArray& t) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    int depth = 0;
    StringBytes strings;
    std::size_t start = 0;
    for (int i = 0; i < t.size(); ++i) {
        char c = t[i];
        if (strings.take(c)) continue;
        if (c == '{' || c == '[') {
            if (depth == 1 && c == '{') start = static_cast<std::size_t>(i);
            ++depth;
        } else if (c == '}' || c == ']') {
            --depth;
            if (depth == 1 && c == '}') out.emplace_back(start, static_cast<std::size_t>(i) + 1);
        }
    }
    return out;
}

} // namespace

class TstTraceJson : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;

    bs::TraceReadResult read(const QString& path, bs::Profile& prof, bs::FindingSink& sink,
                             std::size_t chunk = 16u << 20) {
        bs::TraceReadOptions o;
        o.chunkBytes = chunk;
        return bs::readTraceJson(bstest::s(path), prof, sink, {}, o);
    }

  private slots:
    void bareArrayWithStringTsMetadataAndFlows() {
        const QString p = tmp.filePath("a/trace_view.json");
        writeFile(p, kTstTraceJsonFixture0);
        bs::Profile prof;
        bs::FindingSink sink;
        auto r = read(p, prof, sink);
        QVERIFY(!r.truncated);
        QCOMPARE(r.elements, std::size_t(10));
        QCOMPARE(prof.hostEvents.size(), std::size_t(1));
        QCOMPARE(prof.deviceEvents.size(), std::size_t(1));
        QCOMPARE(prof.hostEvents[0].ts, Q_INT64_C(1736408883686740710));
        QCOMPARE(prof.hostEvents[0].dur, Q_INT64_C(155985800));
        QVERIFY(prof.hostEvents[0].flags & bs::EvHasStack);
        const auto& d = prof.deviceEvents[0];
        QCOMPARE(d.dur, Q_INT64_C(840077));
        QCOMPARE(std::string(prof.str(d.taskType)), std::string("AI_CORE"));
        QCOMPARE(prof.lanes[d.lane].pid, Q_UINT64_C(3170820512));
        QCOMPARE(prof.lanes[d.lane].tid, Q_UINT64_C(2));
        QCOMPARE(prof.flows.size(), std::size_t(2));
        QCOMPARE(prof.flows[0].phase, 'f'); // f before s in time: kept, not "fixed"
        QCOMPARE(prof.flows[0].id, Q_UINT64_C(111669149696));
        QCOMPARE(prof.processes[3170820512ULL].labels, std::string("NPU"));
        const auto& th = prof.threads[std::make_pair(3170820512ULL, 2ULL)];
        QCOMPARE(th.name, std::string("Stream 2"));
        QCOMPARE(th.sortIndex, Q_INT64_C(2));
        QCOMPARE(prof.inventory.counterEventCount, std::size_t(1));
        QVERIFY(sink.findings().empty());
    }
    void traceEventsObjectNumericTsAndBeginEnd() {
        const QString p = tmp.filePath("b/trace.json");
        writeFile(p, kTstTraceJsonFixture1);
        bs::Profile prof;
        bs::FindingSink sink;
        auto r = read(p, prof, sink);
        QVERIFY(!r.truncated);
        QCOMPARE(prof.hostEvents.size(), std::size_t(3));
        QCOMPARE(std::string(prof.str(prof.hostEvents[0].name)), std::string("outer"));
        QCOMPARE(prof.hostEvents[0].ts, Q_INT64_C(100500));
        QCOMPARE(prof.hostEvents[0].dur, Q_INT64_C(9500));
        QCOMPARE(prof.hostEvents[1].dur, Q_INT64_C(1250));
        QCOMPARE(prof.hostEvents[2].dur, Q_INT64_C(0));
        QVERIFY(sink.findings().empty());
    }
    void invalidElementIsReportedWithItsOffsetAndTheRestIsRead() {
        const QString p = tmp.filePath("c/trace_view.json");
        const QByteArray text = kTstTraceJsonFixture2;
        writeFile(p, text);
        bs::Profile prof;
        bs::FindingSink sink;
        auto r = read(p, prof, sink);
        QCOMPARE(r.elements, std::size_t(2));
        QCOMPARE(r.badElements, std::size_t(1));
        QCOMPARE(sink.findings().size(), std::size_t(1));
        QCOMPARE(sink.findings()[0].id, std::string("trace_bad_event"));
        QCOMPARE(sink.findings()[0].byteOffset,
                 static_cast<long long>(text.indexOf("{\"ph\":\"X\",\"ts\":tru")));
    }
    void smallChunksGiveTheSameModelAsOneChunk() {
        QVERIFY(bstest::requireRealdata());
        const QString p = bstest::realdata(QStringLiteral(
            "torch_npu_resnet_ddp/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"));
        bs::Profile a, b;
        bs::FindingSink sa, sb;
        auto ra = read(p, a, sa);
        auto rb = read(p, b, sb, 4096); // forces carry-over and buffer growth for long events
        QCOMPARE(ra.elements, rb.elements);
        QCOMPARE(a.hostEvents.size(), b.hostEvents.size());
        QCOMPARE(a.deviceEvents.size(), b.deviceEvents.size());
        for (std::size_t i = 0; i < a.deviceEvents.size(); ++i) {
            QCOMPARE(a.deviceEvents[i].ts, b.deviceEvents[i].ts);
            QCOMPARE(a.deviceEvents[i].dur, b.deviceEvents[i].dur);
        }
    }
    void realTraceEventCountsMatchAnIndependentParser() {
        QVERIFY(bstest::requireRealdata());
        const char* files[] = {
            "torch_npu_resnet_ddp/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
            "torch_npu_resnet_ddp/level0/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json",
            "torch_npu_legacy_2024/timeline_advice/trace_view.json",
            "msprof_vllm_ascend/PROF_000001_20260823165326062_00625538CIGQAHCJ/mindstudio_profiler_output/"
            "msprof_20260823165334.json",
        };
        for (const char* rel : files) {
            const QString p = bstest::realdata(QString::fromLatin1(rel));
            auto doc = nlohmann::json::parse(bstest::readFile(p).toStdString());
            std::size_t x = 0, dev = 0;
            std::set<long long> devicePids;
            for (const auto& e : doc)
                if (e.value("ph", "") == "M" && e.value("name", "") == "process_name" &&
                    e["args"].value("name", "") == "Ascend Hardware")
                    devicePids.insert(e["pid"].get<long long>());
            for (const auto& e : doc) {
                if (e.value("ph", "") == "X") {
                    ++x;
                    if (devicePids.count(e["pid"].get<long long>())) ++dev;
                }
            }
            bs::Profile prof;
            bs::FindingSink sink;
            auto r = read(p, prof, sink);
            QCOMPARE(r.elements, doc.size());
            QCOMPARE(prof.deviceEvents.size(), dev);
            QCOMPARE(prof.hostEvents.size() + prof.deviceEvents.size() + prof.hcclEvents.size() +
                             prof.overlapEvents.size() <=
                         x,
                     true);
            QVERIFY2(sink.findings().empty(), rel);
        }
    }
    void truncatedTraceKeepsEveryCompleteEventAndNamesTheCut() {
        QVERIFY(bstest::requireRealdata());
        const QByteArray full = bstest::readFile(bstest::realdata(QStringLiteral(
            "torch_npu_resnet_ddp/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json")));
        QVERIFY(full.size() > 1000000);
        const auto elems = topLevelElements(full);
        QCOMPARE(elems.size(), std::size_t(10112));
        std::vector<std::size_t> offsets;
        for (int i = 1; i <= 60; ++i)
            offsets.push_back(static_cast<std::size_t>(full.size()) * i / 61);
        // Exactly at, just before and just after element boundaries.
        for (std::size_t k : {std::size_t(0), std::size_t(1), std::size_t(5000), elems.size() - 1}) {
            offsets.push_back(elems[k].second);
            offsets.push_back(elems[k].second - 1);
            offsets.push_back(elems[k].second + 1);
            offsets.push_back(elems[k].first);
        }
        offsets.push_back(1);
        offsets.push_back(static_cast<std::size_t>(full.size()) - 1); // only the closing ']' is missing
        int n = 0;
        for (std::size_t off : offsets) {
            if (off >= static_cast<std::size_t>(full.size())) continue; // that is the whole file
            const QString p = tmp.filePath(QStringLiteral("cut/%1.json").arg(n++));
            writeFile(p, full.left(static_cast<qsizetype>(off)));
            std::size_t complete = 0;
            std::size_t cut = off;
            for (const auto& e : elems) {
                if (e.second <= off)
                    ++complete;
                else {
                    if (e.first < off) cut = e.first;
                    break;
                }
            }
            bs::Profile prof;
            bs::FindingSink sink;
            auto r = read(p, prof, sink, 64 * 1024);
            QCOMPARE(r.elements, complete);
            QVERIFY(r.truncated);
            QCOMPARE(r.cutOffset, static_cast<std::uint64_t>(cut));
            bool named = false;
            for (const auto& f : sink.findings())
                if (f.id == "trace_truncated" && f.byteOffset == static_cast<long long>(cut) &&
                    bs::english(f.seen).find("byte " + std::to_string(cut)) != std::string::npos &&
                    f.docRef == "collection-problems.md#truncated-timeline")
                    named = true;
            QVERIFY2(named, qPrintable(QStringLiteral("offset %1").arg(off)));
        }
    }
    // The chunks are cut on a second thread ahead of the parse: findings still come in file order (a bad
    // event deep in the file before the cut at its end), each event and offset as one chunk gives, and a
    // cancel from the progress callback stops the read with both threads.
    void chunksReadAheadKeepTheOrderOfFindingsAndStopOnCancel() {
        const QString p = tmp.filePath("order/trace_view.json");
        QByteArray text = "[";
        long long badAt = -1;
        for (int i = 0; i < 3000; ++i) {
            if (i) text += ",\n";
            if (i == 2500) {
                badAt = text.size();
                text += "{\"ph\":\"X\",\"ts\":tru}";
                continue;
            }
            text += QByteArray("{\"ph\":\"X\",\"name\":\"op") + QByteArray::number(i % 7) +
                    "\",\"pid\":1,\"tid\":1,\"ts\":\"" + QByteArray::number(1000 + 10 * i) + "\",\"dur\":5}";
        }
        const long long cut = text.size() + 2; // the last event starts after ",\n" and is cut
        text += ",\n{\"ph\":\"X\",\"name\":\"la";
        writeFile(p, text);
        bs::Profile whole, chunked;
        bs::FindingSink sw, sc;
        const auto rw = read(p, whole, sw);
        const auto rc = read(p, chunked, sc, 4096);
        for (const auto* r : {&rw, &rc}) {
            QCOMPARE(r->elements, std::size_t(2999));
            QCOMPARE(r->badElements, std::size_t(1));
            QVERIFY(r->truncated);
            QCOMPARE(r->cutOffset, static_cast<std::uint64_t>(cut));
        }
        for (const auto* sink : {&sw, &sc}) {
            QCOMPARE(sink->findings().size(), std::size_t(2));
            QCOMPARE(sink->findings()[0].id, std::string("trace_bad_event"));
            QCOMPARE(sink->findings()[0].byteOffset, badAt);
            QCOMPARE(sink->findings()[1].id, std::string("trace_truncated"));
        }
        QCOMPARE(chunked.hostEvents.size(), std::size_t(2999));
        for (std::size_t i = 0; i < whole.hostEvents.size(); ++i) {
            QCOMPARE(chunked.hostEvents[i].ts, whole.hostEvents[i].ts);
            QCOMPARE(std::string(chunked.str(chunked.hostEvents[i].name)), std::string(whole.str(whole.hostEvents[i].name)));
        }
        std::atomic<bool> cancel{false};
        bs::LoadControl control;
        control.cancel = &cancel;
        std::uint64_t lastDone = 0;
        control.progress = [&](const std::string&, std::uint64_t done, std::uint64_t) {
            lastDone = done;
            if (done > 40000) cancel = true;
        };
        bs::Profile stopped;
        bs::FindingSink ss;
        bs::TraceReadOptions o;
        o.chunkBytes = 4096;
        const auto rs = bs::readTraceJson(bstest::s(p), stopped, ss, control, o);
        QVERIFY(rs.cancelled);
        QVERIFY(rs.elements < std::size_t(2999));
        QVERIFY(lastDone > 40000 && lastDone < static_cast<std::uint64_t>(text.size()));
    }
    // The elements of a chunk are parsed on parse threads side by side and built in file order here: with
    // 1, 2 or 3 parse threads and chunks of 4 KB (hundreds of chunks in flight one after the other) the
    // model is the one this test writes down while generating the text, string ids included (they are
    // handed out in order of first appearance, and the sorts break ties on them).
    void parseThreadsBuildTheModelInFileOrder() {
        const QString p = tmp.filePath("threads/trace_view.json");
        QByteArray text = "[";
        std::vector<long long> badAt;              // offsets of the elements that must be reported, in order
        std::vector<std::string> firstSeen;        // event names in order of first appearance
        std::set<std::string> seen;
        std::vector<std::pair<bs::TimeNs, bs::TimeNs>> spans; // (ts ns, dur ns) of every host event, file order
        std::size_t repaired = 0, cut = 0, unmatched = 0, flows = 0;
        const std::string longStack = [] {
            std::string s;
            for (int f = 0; s.size() <= 20 * 1024; ++f)
                s += "/m/model.py(" + std::to_string(f) + "): fwd;\\r\\n";
            return s;
        }();
        bstest::XorShift rng{20261202};
        auto add = [&](const QByteArray& e) {
            if (text.size() > 1) text += ",\n";
            text += e;
        };
        for (int i = 0; i < 6000; ++i) {
            const long long ts = 1000000 + 10 * i; // us, unique per element
            const std::string name = "op" + std::to_string(rng() % 97);
            const QByteArray q = QByteArray::fromStdString(name);
            const int kind = static_cast<int>(rng() % 20);
            if (kind == 0) { // not an object
                badAt.push_back(text.size() + (text.size() > 1 ? 2 : 0));
                add("12345");
            } else if (kind == 1) { // no plausible ts: reported, its name still interned
                badAt.push_back(text.size() + (text.size() > 1 ? 2 : 0));
                add("{\"ph\":\"X\",\"name\":\"" + q + "\",\"pid\":7,\"tid\":1,\"ts\":\"12x\",\"dur\":1}");
                if (seen.insert(name).second) firstSeen.push_back(name);
            } else if (kind == 2) { // a name that is not UTF-8 (GBK bytes): repaired, kept
                add("{\"ph\":\"X\",\"name\":\"" + q + "\xC4\xE3\",\"pid\":7,\"tid\":1,\"ts\":" +
                    QByteArray::number(ts) + ",\"dur\":2}");
                ++repaired;
                const std::string fixed = name + "\xEF\xBF\xBD\xEF\xBF\xBD";
                if (seen.insert(fixed).second) firstSeen.push_back(fixed);
                spans.emplace_back(ts * 1000, 2000);
            } else if (kind == 3) { // a B here, its E two elements on (maybe in the next chunk)
                add("{\"ph\":\"B\",\"name\":\"" + q + "\",\"pid\":\"host\",\"tid\":2,\"ts\":" + QByteArray::number(ts) + "}");
                add("{\"ph\":\"C\",\"name\":\"mem\",\"pid\":7,\"ts\":" + QByteArray::number(ts) + "}");
                add("{\"ph\":\"E\",\"pid\":\"host\",\"tid\":2,\"ts\":" + QByteArray::number(ts + 7) + "}");
                if (seen.insert(name).second) firstSeen.push_back(name);
                if (seen.insert("mem").second) firstSeen.push_back("mem");
                spans.emplace_back(ts * 1000, 7000);
            } else if (kind == 4) {
                add("{\"ph\":\"E\",\"pid\":\"host\",\"tid\":9,\"ts\":" + QByteArray::number(ts) + "}");
                ++unmatched;
            } else if (kind == 5) { // a stack longer than the bound: cut
                add("{\"ph\":\"X\",\"name\":\"" + q + "\",\"pid\":7,\"tid\":1,\"ts\":" + QByteArray::number(ts) +
                    ",\"dur\":3,\"args\":{\"Call stack\":\"" + QByteArray::fromStdString(longStack) + "\"}}");
                ++cut;
                if (seen.insert(name).second) firstSeen.push_back(name);
                spans.emplace_back(ts * 1000, 3000);
            } else if (kind == 6) {
                add("{\"ph\":\"s\",\"name\":\"HostToDevice1\",\"id\":\"" + QByteArray::number(i) +
                    "\",\"pid\":7,\"tid\":1,\"ts\":" + QByteArray::number(ts) + "}");
                ++flows;
            } else {
                const long long dur = 1 + static_cast<long long>(rng() % 50);
                add("{\"ph\":\"X\",\"name\":\"" + q + "\",\"pid\":7,\"tid\":" + QByteArray::number(1 + i % 3) +
                    ",\"ts\":" + QByteArray::number(ts) + ",\"dur\":" + QByteArray::number(dur) + "}");
                if (seen.insert(name).second) firstSeen.push_back(name);
                spans.emplace_back(ts * 1000, dur * 1000);
            }
        }
        text += "]";
        writeFile(p, text);
        QVERIFY(badAt.size() > 400 && repaired > 200 && cut > 200 && unmatched > 200);

        std::vector<std::unique_ptr<bs::Profile>> models;
        for (std::size_t threads : {1, 2, 3}) {
            for (std::size_t chunk : {std::size_t(4096), std::size_t(16) << 20}) {
                auto prof = std::make_unique<bs::Profile>();
                bs::FindingSink sink(static_cast<std::size_t>(-1)); // every finding kept, none capped
                bs::TraceReadOptions o;
                o.chunkBytes = chunk;
                o.parseThreads = threads;
                const auto r = bs::readTraceJson(bstest::s(p), *prof, sink, {}, o);
                QCOMPARE(r.badElements, badAt.size());
                QCOMPARE(prof->hostEvents.size(), spans.size());
                QCOMPARE(prof->flows.size(), flows);
                // Host events sorted by ts; the file's ts are unique and increasing: the file's order.
                for (std::size_t k = 0; k < spans.size(); ++k) {
                    QCOMPARE(prof->hostEvents[k].ts, spans[k].first);
                    QCOMPARE(prof->hostEvents[k].dur, spans[k].second);
                }
                // Names interned in order of first appearance.
                bs::StrId last = 0;
                for (const auto& n : firstSeen) {
                    bs::StrId id = 0;
                    QVERIFY2(prof->strings.find(n, id), n.c_str());
                    QVERIFY2(id > last, n.c_str());
                    last = id;
                }
                std::vector<long long> reported;
                std::size_t utf8 = 0, stacks = 0, ends = 0;
                for (const auto& f : sink.findings()) {
                    if (f.id == "trace_bad_event") reported.push_back(f.byteOffset);
                    const std::string seen = bs::english(f.seen);
                    if (f.id == "trace_invalid_utf8") utf8 = std::stoul(seen);
                    if (f.id == "trace_stacks_bounded") stacks = std::stoul(seen);
                    if (f.id == "trace_unbalanced_begin_end") ends = std::stoul(seen.substr(seen.find("and ") + 4));
                }
                QVERIFY(reported == badAt);
                QCOMPARE(utf8, repaired);
                QCOMPARE(stacks, cut);
                QCOMPARE(ends, unmatched);
                models.push_back(std::move(prof));
            }
        }
        // Every field of every event, flow and lane is the same whatever the threads and chunks.
        const bs::Profile& a = *models.front();
        for (const auto& m : models) {
            QCOMPARE(m->lanes.size(), a.lanes.size());
            for (std::size_t k = 0; k < a.lanes.size(); ++k) {
                QCOMPARE(m->lanes[k].pid, a.lanes[k].pid);
                QCOMPARE(m->lanes[k].tid, a.lanes[k].tid);
            }
            QCOMPARE(m->strings.size(), a.strings.size());
            for (std::size_t k = 0; k < a.hostEvents.size(); ++k) {
                const auto &x = m->hostEvents[k], &y = a.hostEvents[k];
                QVERIFY(x.ts == y.ts && x.dur == y.dur && x.lane == y.lane && x.name == y.name && x.cat == y.cat &&
                        x.flags == y.flags && x.stack == y.stack);
            }
            for (std::size_t k = 0; k < a.flows.size(); ++k)
                QVERIFY(m->flows[k].ts == a.flows[k].ts && m->flows[k].id == a.flows[k].id &&
                        m->flows[k].lane == a.flows[k].lane);
        }
    }
    // A stray '}' between events (a hand-edited or badly merged file) is one element that is no event: it
    // is reported at its byte and the events after it are read (the cut used to stop there for ever).
    void aStrayClosingBraceIsOneBadElement() {
        const QString p = tmp.filePath("stray/trace_view.json");
        const QByteArray e = "{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}";
        QByteArray text = "[" + e + ", }, " + e + ",}" + e + "]";
        writeFile(p, text);
        for (std::size_t chunk : {std::size_t(4096), std::size_t(1) << 20}) {
            bs::Profile prof;
            bs::FindingSink sink;
            const auto r = read(p, prof, sink, chunk);
            QCOMPARE(r.elements, std::size_t(3));
            QCOMPARE(r.badElements, std::size_t(2));
            QCOMPARE(prof.hostEvents.size(), std::size_t(3));
            QCOMPARE(sink.findings().size(), std::size_t(2));
            QCOMPARE(sink.findings()[0].byteOffset, static_cast<long long>(1 + e.size() + 2));
            QCOMPARE(sink.findings()[1].byteOffset, static_cast<long long>(1 + 2 * e.size() + 6));
        }
    }
    // Keys are matched in the input as the profiler writes them; a key written with escapes is the same
    // key, and a key that only starts like one of ours (or holds an escaped quote) is another key.
    void keysAreMatchedWhateverTheirEscapes() {
        const QString p = tmp.filePath("keys/trace_view.json");
        const QByteArray text =
            "[{\"p\\u0068\":\"X\",\"n\\u0061me\":\"esc\",\"pid\":1,\"tid\":1,\"t\\u0073\":5,\"dur\":2,"
            "\"args\":{\"Call st\\u0061ck\":\"a.py(1): f\",\"Input\\u0020Dims\":\"1,2\"}},"
            "{\"ph\":\"X\",\"phase\":\"Y\",\"name\":\"plain\",\"named\":\"no\",\"pid\":1,\"tid\":1,\"ts\":7,\"tsx\":9,"
            "\"ph\\\"\":\"B\",\"dur\":3,\"durr\":5,\"args\":{\"Call stacks\":\"x\",\"Input Dimsx\":\"y\"}}]";
        writeFile(p, text);
        bs::Profile prof;
        bs::FindingSink sink;
        const auto r = read(p, prof, sink);
        QCOMPARE(r.elements, std::size_t(2));
        QCOMPARE(prof.hostEvents.size(), std::size_t(2));
        const auto& a = prof.hostEvents[0];
        QCOMPARE(std::string(prof.str(a.name)), std::string("esc"));
        QCOMPARE(a.ts, bs::TimeNs(5000));
        QCOMPARE(a.dur, bs::TimeNs(2000));
        QVERIFY(a.flags & bs::EvHasStack);
        QCOMPARE(std::string(prof.str(a.stack)), std::string("a.py(1): f"));
        QVERIFY(a.flags & bs::EvHasShapes);
        const auto& b = prof.hostEvents[1];
        QCOMPARE(std::string(prof.str(b.name)), std::string("plain"));
        QCOMPARE(b.ts, bs::TimeNs(7000));
        QCOMPARE(b.dur, bs::TimeNs(3000));
        QVERIFY(!(b.flags & bs::EvHasStack) && !(b.flags & bs::EvHasShapes));
        QCOMPARE(b.stack, bs::StrId(0));
    }
    // The element cut's container kernels (SSE2, and AVX2 where this CPU has it) against a reading one byte
    // at a time written here: strings end at an unescaped quote, a backslash escapes the next byte inside a
    // string only, brackets count outside strings. 30 000 generated texts of brackets, quotes, runs of
    // backslashes and other bytes, 1-400 bytes long (so runs cross 64-byte blocks), whole and cut.
    void elementScanKernelsAgreeWithOneByteAtATime() {
        using bs::detail::ScanKernel;
        auto reference = [](const std::string& t, std::size_t start) -> std::size_t {
            long depth = 0;
            StringBytes strings;
            for (std::size_t i = start; i < t.size(); ++i) {
                const char c = t[i];
                if (strings.take(c)) continue;
                if (c == '{' || c == '[') {
                    ++depth;
                } else if ((c == '}' || c == ']') && --depth == 0) {
                    return i + 1;
                }
            }
            return bs::kScanIncomplete;
        };
        std::vector<ScanKernel> kernels{ScanKernel::Scalar};
        for (ScanKernel k : {ScanKernel::Sse2, ScanKernel::Avx2})
            if (bs::detail::scanKernelAvailable(k)) kernels.push_back(k);
        const char alphabet[] = {'{', '}', '[', ']', '"', '"', '\\', '\\', '\\', 'a', ' ', ',', ':', '1'};
        bstest::XorShift rng{777};
        std::size_t compared = 0, complete = 0;
        for (int n = 0; n < 30000; ++n) {
            std::string t = rng() % 2 ? "{" : "[";
            const std::size_t len = 1 + rng() % 400;
            while (t.size() < len) {
                if (rng() % 8 == 0) { // a run of backslashes, odd or even
                    t.append(1 + rng() % 5, '\\');
                    continue;
                }
                t += alphabet[rng() % sizeof alphabet];
            }
            for (std::size_t cut : {t.size(), t.size() / 2 + 1}) {
                const std::string u = t.substr(0, cut);
                std::string padded = u + std::string(64, '\0');
                for (std::size_t start : {std::size_t(0), u.find_first_of("{[", 1)}) {
                    if (start >= u.size()) continue;
                    const std::size_t want = reference(u, start);
                    complete += want != bs::kScanIncomplete;
                    for (ScanKernel k : kernels) {
                        const std::size_t got = bs::detail::scanJsonValueWith(k, padded.data(), start, u.size());
                        if (got != want)
                            QFAIL(qPrintable(QString("kernel %1, text %2, start %3: %4 instead of %5")
                                                 .arg(int(k)).arg(QString::fromStdString(u)).arg(start)
                                                 .arg(qlonglong(got)).arg(qlonglong(want))));
                        ++compared;
                    }
                }
            }
        }
        QVERIFY(complete > 5000 && compared > complete);
        qInfo("kernels compared: %zu (AVX2 %s), %zu scans, %zu of them complete values", kernels.size(),
              bs::detail::scanKernelAvailable(ScanKernel::Avx2) ? "yes" : "not on this CPU", compared, complete);
    }
    // sortFlows against std::sort with the order it documents (time, id, phase, lane, category): the trace's
    // shape (runs of starts a little out of order, runs of finishes interleaved with them in time), runs
    // that overlap their neighbours, phases alternating at every flow, one run, and many equal keys.
    void flowsAreSortedAsByOneSort() {
        auto less = [](const bs::FlowEvent& a, const bs::FlowEvent& b) {
            return std::tie(a.ts, a.id, a.phase, a.lane, a.cat) < std::tie(b.ts, b.id, b.phase, b.lane, b.cat);
        };
        bstest::XorShift rng{4242};
        std::size_t cases = 0;
        for (int shape = 0; shape < 6; ++shape) {
            for (int rep = 0; rep < 40; ++rep) {
                std::vector<bs::FlowEvent> flows;
                const std::size_t blocks = 1 + rng() % 30, per = 1 + rng() % 300;
                bs::TimeNs t = 1000;
                for (std::size_t b = 0; b < blocks; ++b) {
                    const bs::TimeNs start = t;
                    for (std::size_t i = 0; i < per; ++i) { // starts, pairs written out of order
                        const bs::TimeNs ts = t + static_cast<bs::TimeNs>(i % 2 ? 0 : 3) + static_cast<bs::TimeNs>(rng() % (shape == 5 ? 2 : 1));
                        flows.push_back({ts, shape == 5 ? rng() % 3 : 2 * i + b * 100000, static_cast<bs::StrId>(rng() % 3),
                                         static_cast<std::uint32_t>(rng() % 4), 's'});
                        t += 10;
                    }
                    const bs::TimeNs spread = shape == 2 ? (t - start) * 3 : t - start; // 2: into the next runs
                    for (std::size_t i = 0; i < per; ++i) {
                        flows.push_back({start + static_cast<bs::TimeNs>(rng() % static_cast<std::uint64_t>(spread + 1)),
                                         shape == 5 ? rng() % 3 : 2 * i + 1 + b * 100000,
                                         static_cast<bs::StrId>(rng() % 3), static_cast<std::uint32_t>(rng() % 4), 'f'});
                    }
                    if (shape != 2) std::sort(flows.end() - static_cast<std::ptrdiff_t>(per), flows.end(), less);
                }
                if (shape == 3) // phases alternating at every flow
                    for (std::size_t i = 0; i < flows.size(); ++i)
                        flows[i].phase = i % 2 ? 'f' : 's';
                if (shape == 4) // one run of starts in random order
                    for (auto& f : flows) {
                        f.phase = 's';
                        f.ts = static_cast<bs::TimeNs>(rng() % 100000);
                    }
                std::vector<bs::FlowEvent> want = flows;
                std::sort(want.begin(), want.end(), less);
                bs::sortFlows(flows);
                QCOMPARE(flows.size(), want.size());
                for (std::size_t i = 0; i < want.size(); ++i)
                    QVERIFY(!less(flows[i], want[i]) && !less(want[i], flows[i]));
                ++cases;
            }
        }
        QCOMPARE(cases, std::size_t(240));
    }
    void emptyAndNonJsonFilesAreReportedNotCrashed() {
        const QString e = tmp.filePath("d/empty.json");
        writeFile(e, "");
        const QString g = tmp.filePath("d/garbage.json");
        writeFile(g, "\x01\x02garbage");
        for (const QString& p : {e, g}) {
            bs::Profile prof;
            bs::FindingSink sink;
            auto r = read(p, prof, sink);
            QVERIFY(!r.ok);
            QCOMPARE(sink.findings().size(), std::size_t(1));
            QCOMPARE(sink.findings()[0].id, std::string("trace_not_chrome_format"));
        }
    }
};

QTEST_APPLESS_MAIN(TstTraceJson)
#include "tst_trace_json.moc"
