// Issue 19, items 7 and 14: hostile names never escape their Markdown construct nor reach a terminal as
// control bytes; every rule of --rules is type- and range-checked with a message naming rule, value and
// accepted range.
#include "analysis/rulebook.h"
#include "i18n/escape.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStringDecoder>
#include <QTemporaryDir>
#include <QTest>

#include <cctype>
#include <string>

using namespace std::string_literals;

namespace QTest {
// Failure messages show std::string values escaped, as for QByteArray.
template <> char* toString(const std::string& s) {
    return toString(QByteArray::fromStdString(s));
}
} // namespace QTest

namespace {

const QString kRank = QStringLiteral(BS_REALDATA_DIR "/torch_npu_resnet_ddp/level1/rank0_ascend_pt");

// A kernel name that tries every way out: backtick runs, HTML, a fence plus a heading, a cell
// delimiter (also after a backslash), OSC/CSI terminal sequences, BEL, C1 CSI and an invalid byte.
const QByteArray kHostileKernel = QByteArray("ev``il `<script>alert(1)</script>```\n# Injected"
                                             "\x1b]0;title\x07\x1b[2J|p\\|\xc2\x9b\xff");
// A host op name (from trace_view.json, so JSON escapes): NUL, CSI, HTML, a fence and a heading.
const QByteArray kHostileHostJson = "\\u0000\\u001b[2J<img src=x onerror=alert(1)>`` ```\\n# Injected host";

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

Run runBubblescope(const QStringList& args) {
    QProcess p;
    p.start(QStringLiteral(BS_BINARY), args);
    p.waitForFinished(240000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

bool copyTree(const QString& from, const QString& to) {
    QDir().mkpath(to);
    QDirIterator it(from, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString src = it.next();
        const QString dst = to + src.mid(from.size());
        QDir().mkpath(QFileInfo(dst).path());
        if (!QFile::copy(src, dst)) return false;
    }
    return true;
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeAll(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// Code spans replaced by a placeholder (CommonMark: a backtick run closes at the next run of the same
// length; a backslash-escaped backtick outside a span opens nothing).
QByteArray withoutCodeSpans(const QByteArray& line) {
    QByteArray out;
    qsizetype i = 0;
    const auto runAt = [&](qsizetype at) {
        qsizetype n = 0;
        while (at + n < line.size() && line[at + n] == '`')
            ++n;
        return n;
    };
    while (i < line.size()) {
        if (line[i] == '\\' && i + 1 < line.size()) {
            out += line.mid(i, 2);
            i += 2;
            continue;
        }
        if (line[i] != '`') {
            out += line[i++];
            continue;
        }
        const qsizetype n = runAt(i);
        qsizetype close = -1;
        for (qsizetype j = i + n; j < line.size();) {
            if (line[j] != '`') {
                ++j;
                continue;
            }
            const qsizetype m = runAt(j);
            if (m == n) {
                close = j;
                break;
            }
            j += m;
        }
        if (close < 0) {
            out += line.mid(i, n);
            i += n;
        } else {
            out += "CODE";
            i = close + n;
        }
    }
    return out;
}

// The lines of `md` outside fenced code blocks; `closed` tells whether every fence was closed.
QList<QByteArray> linesOutsideFences(const QByteArray& md, bool* closed) {
    QList<QByteArray> out;
    qsizetype fence = 0;
    for (const QByteArray& line : md.split('\n')) {
        const QByteArray t = line.trimmed();
        qsizetype run = 0;
        while (run < t.size() && t[run] == '`')
            ++run;
        if (fence == 0 && run >= 3 && !t.mid(run).contains('`'))
            fence = run;
        else if (fence > 0 && run >= fence && t.mid(run).trimmed().isEmpty())
            fence = 0;
        else if (fence == 0)
            out.push_back(line);
    }
    *closed = fence == 0;
    return out;
}

// Cell delimiters of a GFM table row: '|' not escaped by a backslash (code spans do not protect it).
int cellDelimiters(const QByteArray& row) {
    int n = 0;
    for (qsizetype i = 0; i < row.size(); ++i) {
        if (row[i] == '\\' && i + 1 < row.size() && std::ispunct(static_cast<unsigned char>(row[i + 1])))
            ++i;
        else if (row[i] == '|')
            ++n;
    }
    return n;
}

// Everything a Markdown renderer would interpret in a report stays inside the construct it was put in.
void checkMarkdownIsContained(const QByteArray& md, const char* what) {
    for (char c : md) {
        const auto u = static_cast<unsigned char>(c);
        QVERIFY2(u >= 0x20 || c == '\n' || c == '\t', qPrintable(QStringLiteral("%1: control byte 0x%2")
                                                                     .arg(QLatin1String(what))
                                                                     .arg(u, 2, 16, QLatin1Char('0'))));
        QVERIFY2(u != 0x7F, what);
    }
    QStringDecoder utf8(QStringDecoder::Utf8);
    const QString decoded = utf8(md);
    QVERIFY2(!utf8.hasError(), qPrintable(QStringLiteral("%1 is not valid UTF-8").arg(QLatin1String(what))));
    Q_UNUSED(decoded);

    bool fencesClosed = false;
    const QList<QByteArray> lines = linesOutsideFences(md, &fencesClosed);
    QVERIFY2(fencesClosed, what);
    int tableDelimiters = -1;
    for (const QByteArray& line : lines) {
        const QByteArray rendered = withoutCodeSpans(line).toLower();
        QVERIFY2(!rendered.contains("<img"), line.constData());
        QVERIFY2(!rendered.contains("<script"), line.constData());
        QVERIFY2(!line.trimmed().startsWith("# Injected"), line.constData());
        if (line.startsWith('|')) {
            if (tableDelimiters < 0) tableDelimiters = cellDelimiters(line);
            QVERIFY2(cellDelimiters(line) == tableDelimiters, line.constData());
        } else {
            tableDelimiters = -1;
        }
    }
}

} // namespace

class EscapingAndRulesTest : public QObject {
    Q_OBJECT

  private slots:
    // ------------------------------------------------------------------ mdCode
    void aCodeSpanFenceIsLongerThanAnyBacktickRunInside() {
        QCOMPARE(bs::mdCode("MatMulV2"), "`MatMulV2`"s);
        QCOMPARE(bs::mdCode("a`b"), "``a`b``"s);
        QCOMPARE(bs::mdCode("a``b```c"), "````a``b```c````"s);
        QCOMPARE(bs::mdCode("<img src=x onerror=alert(1)>"), "`<img src=x onerror=alert(1)>`"s);
    }
    void aCodeSpanIsPaddedWhenItsContentStartsOrEndsWithABacktick() {
        QCOMPARE(bs::mdCode("`x"), "`` `x ``"s);
        QCOMPARE(bs::mdCode("x`"), "`` x` ``"s);
        QCOMPARE(bs::mdCode(" x "), "`  x  `"s); // CommonMark strips one space per side
        QCOMPARE(bs::mdCode(""), "` `"s);
    }
    void aCodeSpanShowsNewlinesAndControlsAsHex() {
        QCOMPARE(bs::mdCode("```\n# heading"), "```` ```\\x0a# heading ````"s);
        QCOMPARE(bs::mdCode("a\0"s
                            "b"),
                 "`a\\x00b`"s);
        QCOMPARE(bs::mdCode("\x1b]0;title\x07"), "`\\x1b]0;title\\x07`"s);
        QCOMPARE(bs::mdCode("\x1b[2J\xc2\x9b\xff"), "`\\x1b[2J\\xc2\\x9b\\xff`"s);
    }
    void aCodeSpanInATableCellEscapesPipes() {
        QCOMPARE(bs::mdCode("a|b"), "`a|b`"s);
        QCOMPARE(bs::mdCode("a|b", bs::MdPlace::TableCell), "`a\\|b`"s);
        // "\\|" would be an escaped backslash followed by a cell delimiter.
        QCOMPARE(bs::mdCode("a\\|b", bs::MdPlace::TableCell), "`a\\x5c\\|b`"s);
    }

    // ------------------------------------------------------------------ mdText
    void textIsHtmlEscapedAndItsMarkdownSyntaxIsInert() {
        QCOMPARE(bs::mdText("<img src=x onerror=alert(1)>"), "&lt;img src=x onerror=alert(1)&gt;"s);
        QCOMPARE(bs::mdText("a & b"), "a &amp; b"s);
        QCOMPARE(bs::mdText("*x* _y_ [l](javascript:x) ~~s~~ a|b c\\d"),
                 "\\*x\\* \\_y\\_ \\[l\\](javascript:x) \\~\\~s\\~\\~ a\\|b c\\\\d"s);
        QCOMPARE(bs::mdText("kernel_details.csv"), "kernel_details.csv"s);
        QCOMPARE(bs::mdText("a ``` b"), "a \\`\\`\\` b"s);
    }
    void textNeutralisesBlockSyntaxAtItsStartAndJoinsLines() {
        QCOMPARE(bs::mdText("# heading"), "\\# heading"s);
        QCOMPARE(bs::mdText("- item"), "\\- item"s);
        QCOMPARE(bs::mdText("+ item"), "\\+ item"s);
        QCOMPARE(bs::mdText("12. item"), "12\\. item"s);
        QCOMPARE(bs::mdText("    code"), "&#32;   code"s);
        QCOMPARE(bs::mdText("line\n# Injected\r\n"), "line # Injected  "s);
        QCOMPARE(bs::mdText("x\x1b[2J\0"s), "x\\x1b\\[2J\\x00"s);
    }
    void textKeepsQuotedNamesAsInertCodeSpans() {
        QCOMPARE(bs::mdText("before `MatMul` ran"), "before `MatMul` ran"s);
        QCOMPARE(bs::mdText("before `<script>` ran"), "before `<script>` ran"s);
        QCOMPARE(bs::mdText("`a|b` c|d", bs::MdPlace::TableCell), "`a\\|b` c\\|d"s);
        // A quoted hostile name cannot pair its backticks with the quotes: all of them stay literal.
        QCOMPARE(bs::mdText("before `ev``il <x>` ran"), "before \\`ev\\`\\`il &lt;x&gt;\\` ran"s);
    }

    // ------------------------------------------------------------------ mdFence
    void aFenceIsLongerThanAnyBacktickRunInItsContent() {
        QCOMPARE(bs::mdFence("x\n"), "```\nx\n```\n"s);
        QCOMPARE(bs::mdFence("no newline"), "```\nno newline\n```\n"s);
        QCOMPARE(bs::mdFence("a ```` b\n"), "`````\na ```` b\n`````\n"s);
        QCOMPARE(bs::mdFence("```\n# Injected\n"), "````\n```\n# Injected\n````\n"s);
        QCOMPARE(bs::mdFence("a\x1b[2J\tb\n"), "```\na\\x1b[2J\\x09b\n```\n"s);
    }

    // ------------------------------------------------------------------ term
    void terminalTextShowsControlsAndInvalidUtf8AsHex() {
        QCOMPARE(bs::term("\x1b]0;title\x07"), "\\x1b]0;title\\x07"s);
        QCOMPARE(bs::term("\x1b[2J"), "\\x1b[2J"s);
        QCOMPARE(bs::term("a\xc2\x9b"
                          "b"),
                 "a\\xc2\\x9bb"s); // C1 CSI as UTF-8
        QCOMPARE(bs::term("a\x9b"
                          "b"),
                 "a\\x9bb"s); // C1 CSI as a bare byte
        QCOMPARE(bs::term("\xff"), "\\xff"s);
        QCOMPARE(bs::term("a\nb\tc\x7f"), "a\\x0ab\\x09c\\x7f"s);
        QCOMPARE(bs::term("\0"s), "\\x00"s);
        QCOMPARE(bs::term("\xe2\x82"), "\\xe2\\x82"s);          // truncated sequence
        QCOMPARE(bs::term("\xc0\xaf"), "\\xc0\\xaf"s);          // overlong '/'
        QCOMPARE(bs::term("\xed\xa0\x80"), "\\xed\\xa0\\x80"s); // UTF-16 surrogate
    }
    // Issue 45, item 8: bidirectional controls reorder a line on a terminal or a rendered page. Each one of
    // them, and its neighbours (U+061B, U+200D, U+2029, U+202F, U+2065, U+206A) that are not controls.
    void bidirectionalControlsAreShownAsHexEverywhere() {
        QCOMPARE(bs::term("a\xe2\x80\xae" "cod.exe"), "a\\xe2\\x80\\xaecod.exe"s); // U+202E
        for (const char* c : {"\xd8\x9c", "\xe2\x80\x8e", "\xe2\x80\x8f", "\xe2\x80\xaa", "\xe2\x80\xab",
                              "\xe2\x80\xac", "\xe2\x80\xad", "\xe2\x80\xae", "\xe2\x81\xa6", "\xe2\x81\xa7",
                              "\xe2\x81\xa8", "\xe2\x81\xa9"}) {
            const std::string raw(c);
            QVERIFY2(bs::term(raw).find('\\') == 0, c);
            QVERIFY2(bs::mdText(raw).find(raw) == std::string::npos, c);
            QVERIFY2(bs::mdCode(raw).find(raw) == std::string::npos, c);
            QVERIFY2(bs::mdFence(raw + "\n").find(raw) == std::string::npos, c);
        }
        for (const char* c : {"\xd8\x9b", "\xe2\x80\x8d", "\xe2\x80\xa9", "\xe2\x80\xaf", "\xe2\x81\xa5", "\xe2\x81\xaa"})
            QCOMPARE(bs::term(c), std::string(c));
    }
    void printableUnicodePassesUnchanged() {
        const std::string s = "aten::to 中文 é ✓ \xc2\xa0 😀 <b> `x`";
        QCOMPARE(bs::term(s), s);
    }

    // ------------------------------------------------------------------ rules
    void aBadRuleIsAUsageErrorNamingTheRuleTheValueAndTheRange_data() {
        QTest::addColumn<QByteArray>("rules");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("out of range") << QByteArray(R"({"top_windows": 3e9})")
                                      << QByteArray(R"(rule "top_windows": 3e9 is out of range; expected an )"
                                                    "integer from 1 to 1000");
        QTest::newRow("ratio above 1")
            << QByteArray(R"({"sync_ratio_min": 1.5})")
            << QByteArray(R"(rule "sync_ratio_min": 1.5 is out of range; expected a )"
                          "ratio from 0 to 1");
        QTest::newRow("negative duration")
            << QByteArray(R"({"block_min_us": -1})")
            << QByteArray(
                   R"(rule "block_min_us": -1 is out of range; expected a duration in us from 0 to 1000000)");
        QTest::newRow("fraction for an integer")
            << QByteArray(R"({"top_windows": 2.7})")
            << QByteArray(R"(rule "top_windows": 2.7 is not an integer; expected an integer from 1 to 1000)");
        QTest::newRow("string") << QByteArray(R"({"bubble_min_us": "fifty"})")
                                << QByteArray(R"(rule "bubble_min_us": "fifty" is not a number; expected a )"
                                              "duration in us from 1 to 1000000");
        QTest::newRow("boolean") << QByteArray(R"({"serialization_parallelism_max": true})")
                                 << QByteArray(
                                        R"(rule "serialization_parallelism_max": true is not a number; )"
                                        "expected a factor from 1 to 100");
        QTest::newRow("NaN") << QByteArray(R"({"bubble_min_us": NaN})")
                             << QByteArray(
                                    R"(rule "bubble_min_us": value is not a finite number; expected a )"
                                    "duration in us from 1 to 1000000");
        QTest::newRow("1e999") << QByteArray(R"({"top_windows": 2, "heavy_gap_min_ms": 1e999})")
                               << QByteArray(R"(rule "heavy_gap_min_ms": value is not a finite number; )"
                                             "expected a duration in ms from 0 to 60000");
        QTest::newRow("-Infinity") << QByteArray(R"({"idle_mixed_ratio": -Infinity})")
                                   << QByteArray(R"(rule "idle_mixed_ratio": value is not a finite number; )"
                                                 "expected a ratio from 0 to 1");
        QTest::newRow("syntax error")
            << QByteArray(R"({"top_windows": 3,})")
            << QByteArray("the rules file is not valid JSON at byte 18, line 1, column "
                          "19: syntax error while parsing object key - unexpected "
                          "'}'; expected string literal");
        QTest::newRow("not an object")
            << QByteArray("[1, 2]")
            << QByteArray(R"(the rules file must hold one JSON object of rule names and values, such as )"
                          R"({"top_windows": 10}; it holds an array)");
        QTest::newRow("unknown rule")
            << QByteArray(R"({"no_such_rule": 1})") << QByteArray("unknown rule 'no_such_rule'");
        QTest::newRow("control bytes in a name")
            << QByteArray("{\"x\\u001b[2J\": 1}") << QByteArray("unknown rule 'x\\x1b[2J'");
    }
    void aBadRuleIsAUsageErrorNamingTheRuleTheValueAndTheRange() {
        QFETCH(QByteArray, rules);
        QFETCH(QByteArray, message);
        QTemporaryDir tmp;
        const QString file = tmp.filePath(QStringLiteral("rules.json"));
        QVERIFY(writeAll(file, rules));
        const Run r = runBubblescope({QStringLiteral("analyze"), kRank, QStringLiteral("--rules"), file});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        const QByteArray expected = "bubblescope analyze: " + file.toUtf8() + ": " + message + "\n";
        QVERIFY2(r.err.contains(expected), r.err.constData());
        QVERIFY(!r.err.contains("not a JSON object"));
        QVERIFY(!r.err.contains('\x1b'));
    }
    void aRejectedValueLeavesItsRuleUnchanged() {
        bs::Rulebook rules;
        QCOMPARE(rules.overrideFromJson(R"({"top_windows": 2.7, "window_list_cap": 3e9})").size(),
                 std::size_t(2));
        QCOMPARE(rules.top_windows, 5);
        QCOMPARE(rules.window_list_cap, 200);
        QVERIFY(rules.overrideFromJson(R"({"top_windows": 7.0, "pmu_mte2_hot": 1})").empty());
        QCOMPARE(rules.top_windows, 7);
        QCOMPARE(rules.pmu_mte2_hot, 1.0);
    }
    void everyRuleHasAnAcceptedRangeThatHoldsItsDefault() {
        const bs::Rulebook rules;
        const auto table = rules.table();
        QCOMPARE(table.size(), rules.entries().size());
        for (const auto& r : table) {
            QVERIFY2(!r.accepted.empty(), r.name.c_str());
            QVERIFY2(r.min <= r.value && r.value <= r.max, r.name.c_str());
        }
    }
    void aValidOverrideTakesEffect() {
        QTemporaryDir tmp;
        const QString file = tmp.filePath(QStringLiteral("rules.json"));
        QVERIFY(writeAll(file, R"({"top_windows": 2, "bubble_min_us": 800})"));
        const QString report = tmp.filePath(QStringLiteral("r.md"));
        const Run r = runBubblescope({QStringLiteral("analyze"), kRank, QStringLiteral("--rules"), file,
                                      QStringLiteral("--report"), report});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("== Bubble windows (>= 800 us)"), r.out.constData());
        QVERIFY(r.out.contains(" top_windows=2 "));
        const QByteArray md = readAll(report);
        QVERIFY(md.contains("### Top 2 bubble windows"));
        QVERIFY(md.contains("| `top_windows` | 2 | an integer from 1 to 1000 |"));
        QVERIFY(md.contains("| `bubble_min_us` | 800 | a duration in us from 1 to 1000000 |"));
    }

    // ------------------------------------------------------------------ end to end
    void hostileNamesStayInsideTheirMarkdownAndNeverReachTheTerminal() {
        QVERIFY2(QFileInfo::exists(kRank), "the real data is required");
        QTemporaryDir tmp;
        const QString rank = tmp.filePath(QStringLiteral("<img src=x onerror=alert(1)>\x1b[2J_ascend_pt"));
        QVERIFY(copyTree(kRank, rank));

        const QString csv = rank + QStringLiteral("/ASCEND_PROFILER_OUTPUT/kernel_details.csv");
        QByteArray table = readAll(csv);
        const QByteArray field = ",\"" + QByteArray(kHostileKernel).replace("\"", "\"\"") + "\",";
        // One kernel of the first pattern structure (architecture report) and one neighbour of the
        // largest window and of the op ranking (anomaly report).
        for (const QByteArray& name :
             {QByteArray("aclnnMuls_MulAiCore_Mul"), QByteArray("trans_TransData_0")}) {
            QVERIFY(table.contains("," + name + ","));
            table.replace("," + name + ",", field);
        }
        QVERIFY(writeAll(csv, table));
        const QString trace = rank + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json");
        QByteArray json = readAll(trace);
        const QByteArray hostOp = "\"name\": \"aten::_to_copy\"";
        QVERIFY(json.contains(hostOp));
        json.replace(hostOp, "\"name\": \"" + kHostileHostJson + "\"");
        QVERIFY(writeAll(trace, json));

        const QString report = tmp.filePath(QStringLiteral("r.md")),
                      arch = tmp.filePath(QStringLiteral("a.md"));
        const Run r = runBubblescope({QStringLiteral("analyze"), rank, QStringLiteral("--report"), report,
                                      QStringLiteral("--arch"), arch});
        QCOMPARE(r.exitCode, 0);

        for (char c : r.out)
            QVERIFY2(static_cast<unsigned char>(c) >= 0x20 || c == '\n', "control byte on stdout");
        QVERIFY(r.out.contains("BubbleScope analysis — <img src=x onerror=alert(1)>\\x1b[2J_ascend_pt"));

        const QByteArray md = readAll(report), am = readAll(arch);
        checkMarkdownIsContained(md, "anomaly report");
        checkMarkdownIsContained(am, "architecture report");
        const QByteArray label = "&lt;img src=x onerror=alert(1)&gt;\\x1b\\[2J_ascend_pt\n";
        QVERIFY(md.startsWith("# Anomaly report — " + label));
        QVERIFY(am.startsWith("# Model architecture report — " + label));
        // The escaped forms are there, as text.
        const QByteArray shownKernel = "\\x0a# Injected\\x1b]0;title\\x07\\x1b[2J";
        QVERIFY(md.contains("````ev``il `<script>alert(1)</script>```" + shownKernel +
                            "\\|p\\x5c\\|\\xc2\\x9b\\xff````"));
        QVERIFY(am.contains("ev``il `<script>alert(1)</script>```" + shownKernel + "|p\\|\\xc2\\x9b\\xff  "));
        QVERIFY(md.contains("````\\x00\\x1b[2J<img src=x onerror=alert(1)>`` ```\\x0a# Injected host````"));
        // Issue 45, item 8: the vector picture is well-formed XML although names hold ESC and BEL (a thread
        // lane's label, drawn as text, included).
        QByteArray threaded = readAll(trace);
        const QByteArray threadName = "\"args\": {\"name\": \"Thread 3096504\"}";
        QVERIFY(threaded.contains(threadName));
        threaded.replace(threadName, "\"args\": {\"name\": \"T\\u001b[31m\\u0007red\"}");
        QVERIFY(writeAll(trace, threaded));
        const QString svg = tmp.filePath(QStringLiteral("p.svg"));
        QCOMPARE(runBubblescope({QStringLiteral("screenshot"), rank, QStringLiteral("--out"), svg}).exitCode, 0);
        const QByteArray picture = readAll(svg);
        for (char c : picture)
            QVERIFY2(static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\r' || c == '\t', "control byte in the SVG");
        QVERIFY2(picture.contains("T\xEF\xBF\xBD[31m\xEF\xBF\xBDred"), picture.left(400).constData());
        QProcess lint;
        lint.start(QStringLiteral("xmllint"), {QStringLiteral("--noout"), svg});
        QVERIFY(lint.waitForFinished(60000));
        QVERIFY2(lint.exitStatus() == QProcess::NormalExit && lint.exitCode() == 0, lint.readAllStandardError().constData());
    }
};

QTEST_GUILESS_MAIN(EscapingAndRulesTest)
#include "tst_escaping_and_rules.moc"
