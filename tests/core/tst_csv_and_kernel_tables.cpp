// CSV quirks of FORMATS.md and every kernel-table header variant, columns looked up by name.
#include "i18n/message.h"
#include "io/csv_reader.h"
#include "io/kernel_table_reader.h"
#include "test_support.h"
#include "xorshift.h"

#include <QTemporaryDir>

#include <cmath>
#include <cstring>

using bstest::writeFile;

class TstCsv : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;

    std::vector<std::vector<std::string>> readAll(std::string_view text,
                                                  std::vector<std::uint64_t>* lines = nullptr) {
        bs::CsvReader r(text);
        std::vector<std::string_view> f;
        std::vector<std::vector<std::string>> out;
        while (r.next(f)) {
            out.emplace_back(f.begin(), f.end());
            if (lines) lines->push_back(r.line());
        }
        return out;
    }

  private slots:
    // Findings of a table read in two parts keep one reader's entries, counts and order, also past the
    // per-kind cap (20): the first part has 20 rows with a missing field; the second 21 rows with a bad
    // start and then one more with a missing field. One reader lists 20 of each, then goes over the cap
    // with the bad starts first ("csv_bad_time_more" before "csv_field_count_more", 1 more each).
    void findingsOfTwoPartsAreThoseOfOneReaderPastTheCap() {
        const int n = 200000;
        std::string text = "Step Id,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),"
                           "Input Shapes,aic_mac_ratio\n";
        for (int i = 0; i < n; ++i) {
            const bool shortRow = (i >= 1000 && i < 1020) || i == n - 1000;
            const bool badStart = i >= n - 1030 && i < n - 1009;
            text += "1,2,k" + std::to_string(i % 7) + ",MatMulV3,AI_CORE," +
                    (badStart ? std::string("bad") : std::to_string(1736408883000000LL + 10LL * i) + ".000") +
                    ",5.000,0.000,\"\"\"2048,7168;7168," + std::to_string(i % 13) + "\"\"\"" +
                    (shortRow ? std::string() : "," + std::to_string(i % 100) + ".0") + "\n";
        }
        QVERIFY(text.size() > (std::size_t(16) << 20));
        const QString path = tmp.filePath(QStringLiteral("findings_kernel_details.csv"));
        writeFile(path, QByteArray::fromStdString(text));
        std::string one;
        for (const int threads : {1, 2}) {
            bs::Profile p;
            bs::FindingSink sink;
            bs::readKernelTable(bstest::s(path), bs::KernelSource::KernelDetails, p, sink, nullptr, threads);
            QCOMPARE(p.kernels.size(), std::size_t(n - 21 - 21));
            const auto f = sink.take();
            QCOMPARE(f.size(), std::size_t(42));
            for (int k = 0; k < 20; ++k) {
                QCOMPARE(QString::fromStdString(f[k].id), QStringLiteral("csv_field_count"));
                QCOMPARE(f[k].line, 1002LL + k); // row i is on line i + 2
                QCOMPARE(QString::fromStdString(f[20 + k].id), QStringLiteral("csv_bad_time"));
                QCOMPARE(f[20 + k].line, static_cast<long long>(n - 1030 + 2 + k));
            }
            QCOMPARE(QString::fromStdString(f[40].id), QStringLiteral("csv_bad_time_more"));
            QCOMPARE(QString::fromStdString(f[41].id), QStringLiteral("csv_field_count_more"));
            QVERIFY(bs::english(f[40].seen).find("1 more finding") != std::string::npos);
            QVERIFY(bs::english(f[41].seen).find("1 more finding") != std::string::npos);
        }
    }

    // A table over 16 MB is read in two parts on two threads, the second from the first line start after
    // the middle. Every value below is worked out from how the rows are written: row i (line i + 2 of the
    // file) starts at 1736408883000000 + 10 i us, is named k<i % 7> (with a multi-line name at the middle in
    // the last run, so that the middle is no record start and one reader reads on), and carries
    // aic_mac_ratio i % 100 / 100. Rows 1000 and the last but 1000 have a bad start: one finding in each
    // part.
    void aLargeTableReadInTwoPartsIsTheTableReadInOne() {
        for (const int run : {0, 1, 2}) {
            const bool quotedMiddle = run == 2; // runs 0 and 2 on two threads, 1 on one
            const int n = 200000;
            std::vector<std::string> rows(n);
            std::size_t total = 0;
            for (int i = 0; i < n; ++i) {
                const std::string start = (i == 1000 || i == n - 1000)
                                              ? std::string("bad")
                                              : std::to_string(1736408883000000LL + 10LL * i) + ".000";
                // Rows of the last quarter are named late<i % 3>: strings first met in the second part.
                const std::string name = i >= n * 3 / 4 ? "late" + std::to_string(i % 3) : "k" + std::to_string(i % 7);
                rows[i] = "1,2," + name + ",MatMulV3,AI_CORE," + start +
                          ",5.000,0.000,\"\"\"2048,7168;7168," + std::to_string(i % 13) + "\"\"\"," +
                          std::to_string(i % 100) + ".0\n";
                total += rows[i].size();
            }
            // The multi-line name starts 200 bytes before the middle and reaches ~1800 bytes past it.
            long long middleRow = -1;
            if (quotedMiddle)
                for (std::size_t i = 0, at = 0; i < rows.size(); at += rows[i++].size())
                    if (at + rows[i].size() > total / 2 - 200) {
                        const std::string k = "k" + std::to_string(i % 7);
                        rows[i].replace(rows[i].find(k), k.size(),
                                        "\"multi\n" + std::string(2000, 'x') + "\nline\"");
                        middleRow = static_cast<long long>(i);
                        break;
                    }
            std::string text =
                "Step Id,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),"
                "Input Shapes,aic_mac_ratio\n";
            for (const auto& row : rows)
                text += row;
            QVERIFY(text.size() > (std::size_t(16) << 20));
            const QString path = tmp.filePath(QStringLiteral("large_kernel_details.csv"));
            writeFile(path, QByteArray::fromStdString(text));
            bs::Profile p;
            bs::FindingSink sink;
            const auto r = bs::readKernelTable(bstest::s(path), bs::KernelSource::KernelDetails, p, sink,
                                               nullptr, run == 1 ? 1 : 2);
            QVERIFY(r.ok);
            QCOMPARE(r.rows, std::size_t(n));
            QCOMPARE(r.kept, std::size_t(n - 2));
            QCOMPARE(p.kernels.size(), std::size_t(n - 2));
            // Row i sits at kernels[i - (number of bad rows before it)], on line i + 2 (+ the middle name's 2
            // line breaks after the middle row in the second run).
            auto lineOf = [&](long long i) { return i + 2 + (quotedMiddle && i > middleRow ? 2 : 0); };
            for (const long long i :
                 {0LL, 999LL, 1001LL, n / 2 - 1LL, n / 2LL, n / 2 + 1LL, n - 1001LL, n - 999LL, n - 1LL}) {
                const bs::Kernel& k = p.kernels[static_cast<std::size_t>(i - (i > 1000) - (i > n - 1000))];
                QCOMPARE(k.start, (1736408883000000LL + 10LL * i) * 1000);
                QCOMPARE(k.sourceLine, static_cast<std::uint32_t>(lineOf(i)));
                if (i != middleRow)
                    QCOMPARE(p.strings.view(k.name),
                             std::string_view(i >= n * 3 / 4 ? "late" + std::to_string(i % 3)
                                                             : "k" + std::to_string(i % 7)));
                QCOMPARE(
                    p.strings.view(k.inputShapes),
                    std::string_view("2048,7168;7168," + std::to_string(i % 13))); // outer quotes dropped
                QCOMPARE(p.pmu.at(static_cast<std::size_t>(k.pmuRow), 0), static_cast<float>(i % 100));
            }
            // Strings numbered as one reader meets them: "" then row 0's name, op type, task type, shapes.
            QCOMPARE(p.strings.view(1), std::string_view("k0"));
            QCOMPARE(p.strings.view(2), std::string_view("MatMulV3"));
            QCOMPARE(p.strings.view(3), std::string_view("AI_CORE"));
            QCOMPARE(p.strings.view(4), std::string_view("2048,7168;7168,0"));
            QCOMPARE(p.strings.view(5), std::string_view("k1"));
            // The last quarter's names come after every string of the first three quarters, in the order
            // one reader meets them: row 150000 (150000 % 3 = 0) first, then late1, late2.
            const bs::StrId late0 = p.kernels[150000 - 1].name, late1 = p.kernels[150001 - 1].name,
                            late2 = p.kernels[150002 - 1].name;
            QCOMPARE(p.strings.view(late0), std::string_view("late0"));
            QCOMPARE(p.strings.view(late1), std::string_view("late1"));
            QCOMPARE(late1, late0 + 1);
            QCOMPARE(late2, late0 + 2);
            QCOMPARE(static_cast<std::size_t>(late2) + 1, p.strings.size());
            // Read in two parts where asked, but not when the middle falls inside a quoted field.
            QCOMPARE(r.parts, run == 0 ? 2 : 1);
            // PMU rows follow the kernels.
            for (std::size_t j = 0; j < p.kernels.size(); ++j)
                if (p.kernels[j].pmuRow != static_cast<std::int32_t>(j)) QFAIL("PMU rows out of order");
            const auto findings = sink.take();
            QCOMPARE(findings.size(), std::size_t(2));
            QCOMPARE(findings[0].line, lineOf(1000));
            QCOMPARE(findings[1].line, lineOf(n - 1000));
            QVERIFY(bs::english(findings[1].seen).find("'bad'") != std::string::npos);
        }
    }
    // The ways a file can look at its middle, each read on one thread and on two: the same kernels (every
    // field), strings, PMU rows and findings. Variants: CRLF line ends; a BOM and CR-only line ends (the
    // split looks for an LF: with none near the middle it reads in one part); blank lines straddling the
    // middle; a table read after another whose PMU rows and strings are already in the profile (row
    // numbers and string ids go on from them); no final newline. Which of them are split is stated too.
    void largeTablesGiveTheSameModelOnOneThreadAndOnTwo() {
        struct Variant {
            const char* name;
            const char* eol;
            bool bom, blankMiddle, tableBefore, finalNewline;
            int parts; // on two threads
        };
        const Variant variants[] = {
            {"crlf", "\r\n", false, false, false, true, 2},  {"cr_bom", "\r", true, false, false, true, 1},
            {"blank", "\n", false, true, false, true, 2},     {"before", "\n", false, false, true, true, 2},
            {"no_final_eol", "\n", false, false, false, false, 2},
        };
        for (const Variant& v : variants) {
            const int n = 300000;
            std::string text = v.bom ? "\xEF\xBB\xBF" : "";
            text += std::string("Step Id,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),"
                                "Wait Time(us),Input Shapes,aic_mac_ratio,aiv_time(us)") + v.eol;
            std::size_t middle = 0;
            for (int i = 0; i < n; ++i) {
                if (v.blankMiddle && i == n / 2) {
                    middle = text.size();
                    text += std::string(v.eol) + v.eol + v.eol;
                }
                text += "1," + std::to_string(i % 3) + ",k" + std::to_string(i % 11) + ",T" + std::to_string(i % 5) +
                        ",AI_CORE," + (i % 9973 == 17 ? std::string("x") : std::to_string(1736408883000000LL + 7LL * i)) +
                        ".500,3.250,0.000,\"\"\"" + std::to_string(i % 17) + ",8\"\"\"," +
                        (i % 4999 == 3 ? std::string("-1") : std::to_string(i % 100) + ".5") + "," +
                        (i % 7 == 0 ? std::string("N/A") : std::to_string(i % 50) + ".25") +
                        (i + 1 < n || v.finalNewline ? v.eol : "");
            }
            QVERIFY(text.size() > (std::size_t(16) << 20));
            if (v.blankMiddle) QVERIFY(middle > text.size() / 2 - 4000 && middle < text.size() / 2 + 4000);
            const QString path = tmp.filePath(QStringLiteral("variant_%1.csv").arg(QLatin1String(v.name)));
            writeFile(path, QByteArray::fromStdString(text));
            const QString before = tmp.filePath(QStringLiteral("before.csv"));
            writeFile(before, "Name,Type,Accelerator Core,Start Time(us),Duration(us),aiv_time(us),aic_extra\n"
                              "b0,TB,AI_VECTOR_CORE,1736408882000000,1.0,2.5,9\nk3,TB,AI_CORE,1736408882000010,1.0,N/A,8\n");
            std::string model[2];
            bs::KernelTableResult res[2];
            for (const int threads : {1, 2}) {
                bs::Profile p;
                bs::FindingSink sink;
                if (v.tableBefore)
                    QVERIFY(bs::readKernelTable(bstest::s(before), bs::KernelSource::KernelDetails, p, sink, nullptr, 1).ok);
                res[threads - 1] =
                    bs::readKernelTable(bstest::s(path), bs::KernelSource::KernelDetails, p, sink, nullptr, threads);
                std::string& m = model[threads - 1];
                for (const bs::Kernel& k : p.kernels) {
                    m += std::to_string(k.start) + " " + std::to_string(k.dur) + " " + std::to_string(k.stream) + " " +
                         std::to_string(k.sourceLine) + " " + std::to_string(k.name) + ":" + p.strings.str(k.name) + " " +
                         std::to_string(k.opType) + " " + std::to_string(k.taskType) + " " + std::to_string(k.inputShapes) +
                         " " + std::to_string(k.pmuRow) + " [";
                    for (std::size_t c = 0; k.pmuRow >= 0 && c < p.pmu.columns.size(); ++c)
                        m += std::to_string(p.pmu.at(static_cast<std::size_t>(k.pmuRow), c)) + ",";
                    m += "]\n";
                }
                for (const auto& c : p.pmu.columns)
                    m += "column " + c + "\n";
                for (const auto& f : sink.take())
                    m += f.id + " " + std::to_string(f.line) + " " + bs::english(f.seen) + "\n";
            }
            QVERIFY2(res[0].ok && res[1].ok, v.name);
            QCOMPARE(res[0].parts, 1);
            QCOMPARE(res[1].parts, v.parts);
            QCOMPARE(res[1].kept, res[0].kept);
            // 31 bad starts (i % 9973 == 17: i = 17, 9990, ..., 299207), every other row kept; bad PMU values
            // only drop the value.
            QCOMPARE(res[0].kept, std::size_t(n - 31));
            if (model[0] != model[1]) {
                std::size_t at = 0;
                while (at < model[0].size() && at < model[1].size() && model[0][at] == model[1][at])
                    ++at;
                const std::size_t from = model[0].rfind('\n', at) == std::string::npos ? 0 : model[0].rfind('\n', at);
                QFAIL(qPrintable(QStringLiteral("%1: one thread / two differ at\n%2\n%3")
                                     .arg(QLatin1String(v.name),
                                          QString::fromStdString(model[0].substr(from, 200)),
                                          QString::fromStdString(model[1].substr(from, 200)))));
            }
        }
    }
    void quotedDoubledQuotesAndMultilineFields() {
        std::vector<std::uint64_t> lines;
        auto rows = readAll("a,b,c\r\n1,\"\"\"8,2048,16\"\"\",x\n2,\"line1\nline2\",y\r\n3,,\n", &lines);
        QCOMPARE(rows.size(), std::size_t(4));
        QCOMPARE(rows[1][1], std::string("\"8,2048,16\""));
        QCOMPARE(rows[2][1], std::string("line1\nline2"));
        QCOMPARE(rows[3].size(), std::size_t(3));
        QCOMPARE(rows[3][2], std::string());
        QCOMPARE(lines, (std::vector<std::uint64_t>{1, 2, 3, 5}));
    }
    // The reader finds delimiters 64 bytes at a time. Against the rules read one byte at a time (below,
    // written from the header's description), over generated texts whose fields, quotes, line ends and
    // blank lines fall anywhere about the 64-byte windows and the text's end: the same records, fields
    // and lines, on the whole text and in chunks.
    void theWindowedReaderGivesTheRecordsOfOneByteAtATime() {
        struct Record {
            std::vector<std::string> fields;
            std::uint64_t line;
            bool operator==(const Record&) const = default;
        };
        auto reference = [](const std::string& t) {
            std::vector<Record> out;
            std::size_t p = 0;
            std::uint64_t line = 1;
            for (;;) {
                while (p < t.size() && (t[p] == '\n' || t[p] == '\r'))
                    line += t[p++] == '\n';
                if (p >= t.size()) return out;
                Record r{{}, line};
                for (;;) {
                    std::string f;
                    if (t[p] == '"') {
                        for (++p; p < t.size(); ++p) {
                            if (t[p] == '"' && p + 1 < t.size() && t[p + 1] == '"') {
                                f += '"';
                                ++p;
                            } else if (t[p] == '"') {
                                ++p;
                                break;
                            } else {
                                line += t[p] == '\n';
                                f += t[p];
                            }
                        }
                        while (p < t.size() && t[p] != ',' && t[p] != '\n' && t[p] != '\r')
                            ++p; // after the closing quote: dropped
                    } else {
                        while (p < t.size() && t[p] != ',' && t[p] != '\n' && t[p] != '\r')
                            f += t[p++];
                    }
                    r.fields.push_back(f);
                    if (p >= t.size()) break;
                    if (t[p] == ',') {
                        if (++p == t.size()) {
                            r.fields.emplace_back();
                            break;
                        }
                        continue;
                    }
                    if (t[p] == '\r' && p + 1 < t.size() && t[p + 1] == '\n') ++p;
                    ++p;
                    ++line;
                    break;
                }
                out.push_back(r);
            }
        };
        const char* pieces[] = {"a", "12.5", "1736408883686758.710\t", ",", ",", ",", "\n", "\r\n", "\r",
                                "\"", "\"\"", "\"x,y\nz\"", " ", "N/A", "\"\"\"2048,7168;7168\"\"\"",
                                "\"\"\"a\"\"b\"\"\"", "\"\"\"\n\"\"\"", "\"\"\"\"",
                                "0123456789012345678901234567890123456789012345678901234567890123"};
        bstest::XorShift rnd{0x2545F4914F6CDD1DULL};
        int texts = 0, crossing = 0, rawTails = 0;
        for (int i = 0; i < 4000; ++i) {
            std::string t;
            const std::size_t len = rnd() % 400;
            while (t.size() < len)
                t += pieces[rnd() % (sizeof pieces / sizeof *pieces)];
            const auto want = reference(t);
            std::vector<Record> got;
            bs::CsvReader r(t, false, false);
            std::vector<std::string_view> f;
            while (r.next(f))
                got.push_back({{f.begin(), f.end()}, r.line()});
            if (got != want) QFAIL(qPrintable(QStringLiteral("whole text differs: %1").arg(QString::fromStdString(t))));
            // With the fields from `from` on handed out uncut when they are plain: a raw tail is the record's
            // fields from `from` on joined by ',', followed in the text by the CR or LF that ends it, and has
            // no quote, CR or LF in it; every other record is the one cut as usual.
            for (const std::size_t from : {std::size_t(1), std::size_t(2), std::size_t(4)}) {
                bs::CsvReader raw(t, false, false);
                raw.setRawTailFrom(from);
                std::size_t k = 0;
                while (raw.next(f)) {
                    if (k >= want.size() || raw.line() != want[k].line)
                        QFAIL("raw tail: records or lines differ");
                    Record rec{{f.begin(), f.end()}, raw.line()};
                    if (raw.rawTail()) {
                        ++rawTails;
                        const std::string_view tail = f.back();
                        const std::size_t at = static_cast<std::size_t>(tail.data() - t.data()) + tail.size();
                        if (f.size() != from + 1 || at >= t.size() || (t[at] != '\n' && t[at] != '\r') ||
                            tail.find_first_of("\"\r\n") != std::string_view::npos)
                            QFAIL(qPrintable(
                                QStringLiteral("raw tail not plain: %1").arg(QString::fromStdString(t))));
                        rec.fields.pop_back();
                        for (std::size_t a = 0;;) { // the tail cut at each ','
                            const std::size_t b = std::min(tail.find(',', a), tail.size());
                            rec.fields.emplace_back(tail.substr(a, b - a));
                            if (b == tail.size()) break;
                            a = b + 1;
                        }
                    }
                    if (rec != want[k])
                        QFAIL(qPrintable(QStringLiteral("raw tail from %1 differs: %2")
                                             .arg(from)
                                             .arg(QString::fromStdString(t))));
                    ++k;
                }
                if (k != want.size()) QFAIL("raw tail: records missing");
            }
            ++texts;
            crossing += t.size() > 64;
            if (i % 40 != 0) continue;
            const QString p = tmp.filePath(QStringLiteral("windows.csv"));
            writeFile(p, QByteArray(t.data(), static_cast<int>(t.size())));
            for (std::size_t chunk : {std::size_t(1), std::size_t(5), std::size_t(63), std::size_t(64),
                                      std::size_t(65), std::size_t(200)}) {
                bs::CsvFileReader fr(bstest::s(p), 1 << 20, false, chunk);
                if (chunk % 2 == 1) fr.setRawTailFrom(2); // a raw tail is the record's fields joined by ','
                std::vector<Record> chunked;
                while (fr.next(f)) {
                    chunked.push_back({{f.begin(), f.end()}, fr.line()});
                    if (!fr.rawTail()) continue;
                    auto& fields = chunked.back().fields;
                    const std::string tail = fields.back();
                    fields.pop_back();
                    for (std::size_t a = 0;;) {
                        const std::size_t b = std::min(tail.find(',', a), tail.size());
                        fields.push_back(tail.substr(a, b - a));
                        if (b == tail.size()) break;
                        a = b + 1;
                    }
                }
                // The file reader skips a byte-order mark and so may the text; these texts have none.
                if (chunked != want)
                    QFAIL(qPrintable(QStringLiteral("chunk %1 differs: %2").arg(chunk).arg(QString::fromStdString(t))));
            }
        }
        QCOMPARE(texts, 4000);
        QVERIFY(crossing > 3000);
        QVERIFY2(rawTails > 3000, qPrintable(QString::number(rawTails)));
    }
    // PMU columns after every column read as text are taken from the row's uncut rest (CsvReader's raw
    // tail); with a text column after them, from the cut fields. The two tables below hold the same rows
    // (table B adds a Type column at the end): figures of every shape (usual, past 2^24, more than 9
    // bytes, exponents, N/A, empty, signs, blanks, a quoted figure, out of range), rows too short, too long
    // or with a trailing comma, LF and CRLF. Both readings give the same kernels, the same PMU values bit
    // for bit (NaN where there is none) and the same findings.
    void pmuFiguresOfTheUncutRestAreThoseOfTheCutFields() {
        const char* figures[] = {
            "0",         "0.000",      "57.579",     "103643",    "16777215", "16777216",   "0.0000001",
            "1.5e3",     "N/A",        "",           " 1.5",      "1.",       ".5",         "-0.5",
            "123456789", "1234567890", "99999999.9", "1e40",      "abc",      "\"3.5\"",    "12.5\t",
            "4.32",      "00000001",   "1.2.3",      "3.4e38",    "1e9",      "1000000001", "0.0",
            "7",         "0.00000001", "0000000001", "1677721.5", "16777.216"};
        const std::string pmu =
            "aic_mac_ratio,aic_total_cycles,aiv_time(us),aicore_time(us),cube_utilization(%)";
        std::string a = "Name,Start Time(us),Duration(us)," + pmu + "\n";
        std::string b = "Name,Start Time(us),Duration(us)," + pmu + ",Type\n";
        bstest::XorShift rnd{0x9E3779B97F4A7C15ULL};
        const int n = 3000;
        for (int i = 0; i < n; ++i) {
            std::string head = "k" + std::to_string(i % 5) + "," +
                               std::to_string(1736408883000000LL + 10LL * i) + ".000,5.000";
            std::vector<std::string> figs;
            for (int c = 0; c < 5; ++c)
                figs.emplace_back(figures[rnd() % (sizeof figures / sizeof *figures)]);
            const unsigned shape =
                static_cast<unsigned>(rnd() % 20); // 0: one figure short; 1: one more field;
                                                   // 2: a trailing comma; else as the header
            if (shape == 0) figs.pop_back();
            std::string ra = head, rb = head;
            for (const auto& fig : figs) {
                ra += "," + fig;
                rb += "," + fig;
            }
            rb += ",MatMulV3";
            if (shape == 1) ra += ",7", rb += ",7";
            if (shape == 2) ra += ",", rb += ",";
            const char* end = rnd() % 3 == 0 ? "\r\n" : "\n";
            a += ra + end;
            b += rb + end;
        }
        const QString pa = tmp.filePath(QStringLiteral("tail_a.csv")),
                      pb = tmp.filePath(QStringLiteral("tail_b.csv"));
        writeFile(pa, QByteArray::fromStdString(a));
        writeFile(pb, QByteArray::fromStdString(b));
        bs::Profile A, B;
        bs::FindingSink sa(100000), sb(100000);
        QVERIFY(bs::readKernelTable(bstest::s(pa), bs::KernelSource::KernelDetails, A, sa, nullptr, 1).ok);
        QVERIFY(bs::readKernelTable(bstest::s(pb), bs::KernelSource::KernelDetails, B, sb, nullptr, 1).ok);
        QCOMPARE(A.kernels.size(), B.kernels.size());
        QVERIFY(A.kernels.size() > std::size_t(n * 8 / 10) && A.kernels.size() < std::size_t(n));
        QCOMPARE(A.pmu.columns, B.pmu.columns);
        QCOMPARE(A.pmu.columns.size(), std::size_t(5));
        for (std::size_t k = 0; k < A.kernels.size(); ++k) {
            const auto &x = A.kernels[k], &y = B.kernels[k];
            if (x.start != y.start || x.sourceLine != y.sourceLine || x.pmuRow != y.pmuRow)
                QFAIL(qPrintable(QStringLiteral("kernel %1 differs").arg(k)));
        }
        QCOMPARE(A.pmu.values.size(), B.pmu.values.size());
        QVERIFY(std::memcmp(A.pmu.values.data(), B.pmu.values.data(), A.pmu.values.size() * sizeof(float)) ==
                0);
        std::size_t values = 0, none = 0;
        for (const float v : A.pmu.values)
            std::isnan(v) ? ++none : ++values;
        QVERIFY(values > A.pmu.values.size() / 2 && none > A.pmu.values.size() / 10);
        const auto fa = sa.take(), fb = sb.take();
        QCOMPARE(fa.size(), fb.size());
        std::size_t outOfRange = 0, fieldCount = 0;
        for (std::size_t k = 0; k < fa.size(); ++k) {
            QCOMPARE(QString::fromStdString(fa[k].id), QString::fromStdString(fb[k].id));
            QCOMPARE(fa[k].line, fb[k].line);
            if (fa[k].id == "csv_field_count") {
                ++fieldCount; // "Row has 9 fields; the header has 8." against 10 and 9: the widths differ
                continue;
            }
            ++outOfRange;
            QCOMPARE(QString::fromStdString(bs::english(fa[k].seen)),
                     QString::fromStdString(bs::english(fb[k].seen)));
        }
        QVERIFY(outOfRange > 500 && fieldCount > 100);
        // Values by hand, from the uncut rest: the usual shape, an integer, N/A, an exponent, 2^24 (past the
        // inline float), a CRLF line end; the second row's rest is quoted (cut as usual).
        const QString ph = tmp.filePath(QStringLiteral("tail_hand.csv"));
        writeFile(ph, QByteArray::fromStdString("Name,Start Time(us),Duration(us)," + pmu + "\n" +
                                                "k,1.000,2.000,57.579,103643,N/A,1.5e3,16777216\r\n"
                                                "k,3.000,2.000,0.25,\"7\",0.0000001,0,12.5\n"));
        bs::Profile h;
        bs::FindingSink sh;
        const auto hr =
            bs::readKernelTable(bstest::s(ph), bs::KernelSource::KernelDetails, h, sh, nullptr, 1);
        QVERIFY(hr.ok);
        QVERIFY(!hr.pmuAllZero); // the figures that are not 0 are all in the rest
        QCOMPARE(h.kernels.size(), std::size_t(2));
        QCOMPARE(h.pmu.at(0, 0), 57.579f);
        QCOMPARE(h.pmu.at(0, 1), 103643.0f);
        QVERIFY(std::isnan(h.pmu.at(0, 2)));
        QCOMPARE(h.pmu.at(0, 3), 1500.0f);
        QCOMPARE(h.pmu.at(0, 4), 16777216.0f);
        QCOMPARE(h.pmu.at(1, 0), 0.25f);
        QCOMPARE(h.pmu.at(1, 1), 7.0f);
        QCOMPARE(h.pmu.at(1, 2), 1e-7f);
        QCOMPARE(h.pmu.at(1, 3), 0.0f);
        QCOMPARE(h.pmu.at(1, 4), 12.5f);
        QVERIFY(sh.take().empty());
        // Every figure 0 (as the usual shape, "0" and "0.000"): the PMU is all zero; one figure that is not,
        // in the rest: it is not.
        writeFile(ph, QByteArray::fromStdString("Name,Start Time(us),Duration(us)," + pmu + "\n" +
                                                "k,1.000,2.000,0,0.000,0.0,0,0\n"));
        bs::Profile z;
        QVERIFY(bs::readKernelTable(bstest::s(ph), bs::KernelSource::KernelDetails, z, sh, nullptr, 1)
                    .pmuAllZero);
        writeFile(ph,
                  QByteArray::fromStdString("Name,Start Time(us),Duration(us)," + pmu + "\n" +
                                            "k,1.000,2.000,0,0.000,0.0,0,0\nk,3.000,2.000,0,0,0.001,0,0\n"));
        bs::Profile nz;
        QVERIFY(!bs::readKernelTable(bstest::s(ph), bs::KernelSource::KernelDetails, nz, sh, nullptr, 1)
                     .pmuAllZero);
        // A PMU column named twice, once before the last text column and once after it: the later one's
        // figure is kept, as for any column named twice.
        writeFile(ph, "Name,Start Time(us),Duration(us),aic_x,Type,aic_x\n"
                      "k,1.000,2.000,1.5,MatMul,2.5\n"
                      "k,3.000,2.000,3.5,MatMul,N/A\n");
        bs::Profile d;
        QVERIFY(bs::readKernelTable(bstest::s(ph), bs::KernelSource::KernelDetails, d, sh, nullptr, 1).ok);
        QCOMPARE(d.pmu.columns.size(), std::size_t(1));
        QCOMPARE(d.pmu.at(0, 0), 2.5f);
        QCOMPARE(d.pmu.at(1, 0), 3.5f); // N/A writes nothing: the earlier figure stays
    }
    void bomIsSkipped() {
        auto rows = readAll("\xEF\xBB\xBFStep Id,Name\n1,x\n");
        QCOMPARE(rows[0][0], std::string("Step Id"));
    }
    void headerLookupIgnoresSpellingOfMicroseconds() {
        bs::CsvReader r("Start Time(\xCE\xBCs),Duration(us)\n");
        std::vector<std::string_view> f;
        QVERIFY(r.next(f));
        bs::CsvHeader h(f);
        QCOMPARE(h.find({"Start Time(us)"}), 0);
        QCOMPARE(h.find({"Duration(us)"}), 1);
        QCOMPARE(h.find({"Wait Time(us)"}), -1);
    }

    // Kernel tables are read a chunk at a time: every way a record can straddle a chunk's end (in a quoted
    // field, between CR and LF, at a trailing comma, in blank lines, in the byte-order mark) gives the
    // records and lines of the whole text, for every chunk size from 1 byte up.
    void aFileReadInChunksGivesTheRecordsAndLinesOfTheWholeText() {
        const std::string texts[] = {
            "\xEF\xBB\xBF"
            "a,b,c\r\n1,\"\"\"8,2048,16\"\"\",x\n2,\"line1\nline2\r\nline3\",y\r\n\r\n\n3,,\n"
            "4,\"q\"\t,z\r5,long field with, commas\n\n\r\n6,\"\",\"\"\"\"\n7,last,",
            "h1,h2\nv1,\"never closed\nstill, inside\r\n",
            "only,one,line",
            "",
            "\n\n\r\n",
        };
        // Hand-counted records of the first text: header, 1..7 (the CR alone ends record 4).
        std::vector<std::uint64_t> firstLines;
        const auto first = readAll(texts[0], &firstLines);
        QCOMPARE(first.size(), std::size_t(8));
        QCOMPARE(firstLines, (std::vector<std::uint64_t>{1, 2, 3, 8, 9, 10, 13, 14}));
        QCOMPARE(first[7], (std::vector<std::string>{"7", "last", ""}));
        QCOMPARE(first[2][1], std::string("line1\nline2\r\nline3"));
        int fileNo = 0;
        for (const auto& text : texts) {
            const QString p = tmp.filePath(QStringLiteral("chunks%1.csv").arg(fileNo++));
            writeFile(p, QByteArray(text.data(), static_cast<int>(text.size())));
            std::vector<std::uint64_t> wholeLines;
            const auto whole = readAll(text, &wholeLines);
            for (std::size_t chunk = 1; chunk <= text.size() + 1; ++chunk) {
                bs::CsvFileReader r(bstest::s(p), 1 << 20, true, chunk);
                QVERIFY2(r.error().empty(), r.error().c_str());
                std::vector<std::string_view> f;
                std::vector<std::vector<std::string>> rows;
                std::vector<std::uint64_t> lines;
                while (r.next(f)) {
                    rows.emplace_back(f.begin(), f.end());
                    lines.push_back(r.line());
                }
                const QByteArray where =
                    QStringLiteral("text %1, chunk %2").arg(fileNo - 1).arg(chunk).toUtf8();
                QVERIFY2(r.error().empty(), where.constData());
                QVERIFY2(rows == whole, where.constData());
                QVERIFY2(lines == wholeLines, where.constData());
            }
        }
    }
    void aBinaryKernelTableIsRefusedAsAWholeWithItsReason() {
        const QString p = tmp.filePath("binary/kernel_details.csv");
        writeFile(p, QByteArray("Name,Start Time(us),Duration(us)\nk,1,2\n") + QByteArray(10, '\0'));
        bs::Profile prof;
        bs::FindingSink sink;
        auto r = bs::readKernelTable(bstest::s(p), bs::KernelSource::KernelDetails, prof, sink);
        QVERIFY(!r.ok);
        QCOMPARE(prof.kernels.size(), std::size_t(0));
        QCOMPARE(sink.findings().size(), std::size_t(1));
        QCOMPARE(sink.findings()[0].id, std::string("file_unreadable"));
        const std::string seen = bs::english(sink.findings()[0].seen);
        QCOMPARE(seen, bstest::s(p) +
                           " holds NUL bytes in its first 49 bytes: it is binary or a sparse/corrupt "
                           "file, not text");
    }

    void level1RowsWithTrailingTabsQuotesAndNA() {
        const QString p = tmp.filePath("l1/kernel_details.csv");
        writeFile(
            p,
            "Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start "
            "Time(us),Duration(us),"
            "Wait Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,Input Formats,"
            "Output Shapes,Output Data Types,Output Formats,Context "
            "ID,aicore_time(us),aic_mac_ratio,aiv_mte2_ratio\r\n"
            "50,4294967295,11051,2,trans_TransData_0,TransData,dynamic,AI_VECTOR_CORE,1736408883704643.212\t,"
            "53.741,0,32,0,NO,"
            "\"\"\"32,3,224,224\"\"\",FLOAT,NCHW,\"\"\"32,1,224,224,8\"\"\",FLOAT,NC1HWC0,N/"
            "A,0.0,0.0,0.667\r\n"
            "50,4294967295,N/A,N/A,hcom_allReduce__586_0_1,hcom_allReduce_,N/"
            "A,HCCL,\"1736408883732241.500\t\",79089.52,5.646633,0,0,N/A,"
            "N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A\n");
        bs::Profile prof;
        bs::FindingSink sink;
        auto r = bs::readKernelTable(bstest::s(p), bs::KernelSource::KernelDetails, prof, sink);
        QVERIFY(r.ok);
        QCOMPARE(r.level, std::string("Level1/2"));
        QCOMPARE(prof.kernels.size(), std::size_t(2));
        const auto& k0 = prof.kernels[0];
        QCOMPARE(k0.start, Q_INT64_C(1736408883704643212));
        QCOMPARE(k0.dur, Q_INT64_C(53741));
        QCOMPARE(k0.stream, 2);
        QCOMPARE(std::string(prof.str(k0.inputShapes)), std::string("32,3,224,224")); // quoting removed
        QCOMPARE(std::string(prof.str(k0.taskType)), std::string("AI_VECTOR_CORE"));
        QVERIFY(k0.cls == bs::TaskClass::ComputeCore);
        const auto& k1 = prof.kernels[1];
        QCOMPARE(k1.start, Q_INT64_C(1736408883732241500));
        QCOMPARE(k1.wait, Q_INT64_C(5647)); // 5.646633 µs
        QCOMPARE(k1.stream, -1);
        QVERIFY(k1.cls == bs::TaskClass::Comm);
        auto col = prof.pmu.column("aiv_mte2_ratio");
        QVERIFY(col.has_value());
        QCOMPARE(prof.pmu.at(static_cast<std::size_t>(k0.pmuRow), *col), 0.667f);
        QVERIFY(sink.findings().empty());
    }
    void level0HeaderIsRecognisedAndRowsRead() {
        const QString p = tmp.filePath("l0/kernel_details.csv");
        writeFile(p,
                  "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\r\n"
                  "50,trans_TransData_0,N/A,N/A,1736405443881410.320\t,50.621,0,0\r\n"
                  "50,hcom_allReduce__868_0_1,N/A,HCCL,1736405443909176.934\t,72994.438,320.026,0\r\n");
        bs::Profile prof;
        bs::FindingSink sink;
        auto r = bs::readKernelTable(bstest::s(p), bs::KernelSource::KernelDetails, prof, sink);
        QCOMPARE(r.level, std::string("Level0"));
        QVERIFY(!r.hasStream && !r.hasShapes && !r.hasPmu);
        QCOMPARE(prof.kernels.size(), std::size_t(2));
        QCOMPARE(prof.kernels[0].stepId, 50);
        QCOMPARE(std::string(prof.str(prof.kernels[0].taskType)), std::string()); // N/A counts as empty
        QVERIFY(prof.kernels[1].cls == bs::TaskClass::Comm);
    }
    void deviceIdFirstAndTaskTypeColumnAreAccepted() {
        const QString p = tmp.filePath("fx/kernel_details.csv");
        writeFile(p, "Device_id,Step ID,Stream ID,Name,Type,Task Type,Start "
                     "Time(\xCE\xBCs),Duration(\xCE\xBCs),Wait Time(\xCE\xBCs)\n"
                     "0,3,7,MatMul_1,MatMul,AI_CORE,100.5,2.25,1\n"
                     "0,3,7,ArgMax_2,ArgMax,AI_CPU,103.000,4,0\n");
        bs::Profile prof;
        bs::FindingSink sink;
        bs::readKernelTable(bstest::s(p), bs::KernelSource::KernelDetails, prof, sink);
        QCOMPARE(prof.kernels.size(), std::size_t(2));
        QCOMPARE(prof.kernels[0].start, Q_INT64_C(100500));
        QCOMPARE(prof.kernels[0].stepId, 3);
        QCOMPARE(prof.kernels[0].stream, 7);
        QVERIFY(prof.kernels[1].cls == bs::TaskClass::AiCpu);
    }
    void rowWithWrongFieldCountIsReportedWithFileAndLineAndReadingGoesOn() {
        const QString p = tmp.filePath("short/kernel_details.csv");
        writeFile(p,
                  "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\n"
                  "1,a,N/A,N/A,10,1,0,0\n"
                  "1,b,N/A,N/A,12,1,0\n"
                  "1,c,N/A,N/A,14,1,0,0\n");
        bs::Profile prof;
        bs::FindingSink sink;
        bs::readKernelTable(bstest::s(p), bs::KernelSource::KernelDetails, prof, sink);
        QCOMPARE(prof.kernels.size(), std::size_t(2));
        QCOMPARE(sink.findings().size(), std::size_t(1));
        const auto& f = sink.findings()[0];
        QCOMPARE(f.id, std::string("csv_field_count"));
        QCOMPARE(f.line, 3LL);
        QCOMPARE(f.file, bstest::s(p));
        QVERIFY(bs::english(f.seen).find("7 fields; the header has 8") != std::string::npos);
    }
    void msprofOpSummaryAndTaskTimeColumns() {
        const QString a = tmp.filePath("ms/op_summary_1.csv");
        writeFile(a, "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,Task Start "
                     "Time(us),Task Duration(us),"
                     "Task Wait Time(us),Block Num\n"
                     "0,4294967295,1,46,aclnnInplaceOne_OnesLikeAiCore_OnesLike,OnesLike,dynamic,AI_VECTOR_"
                     "CORE,1787504007006637.951\t,8.060,765.149000,40\n");
        const QString b = tmp.filePath("ms/task_time_1.csv");
        writeFile(
            b,
            "Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),task_stop(us)\n"
            "0,N/A,PROFILING_ENABLE,49,3,0.020,1787504006851852.778\t,1787504006851852.798\t\n");
        bs::Profile prof;
        bs::FindingSink sink;
        bs::readKernelTable(bstest::s(a), bs::KernelSource::OpSummary, prof, sink);
        bs::readKernelTable(bstest::s(b), bs::KernelSource::TaskTime, prof, sink);
        QCOMPARE(prof.kernels.size(), std::size_t(2));
        QCOMPARE(prof.kernels[0].wait, Q_INT64_C(765149));
        QCOMPARE(prof.kernels[0].blockDim, 40u);
        QCOMPARE(std::string(prof.str(prof.kernels[1].name)), std::string("PROFILING_ENABLE"));
        QCOMPARE(prof.kernels[1].dur, Q_INT64_C(20));
        QCOMPARE(prof.kernels[1].stream, 49);
    }
    void realKernelDetailsFilesAllRead() {
        QVERIFY(bstest::requireRealdata());
        struct Case {
            const char* rel;
            std::size_t rows;
            const char* level;
        };
        const Case cases[] = {
            {"torch_npu_resnet_ddp/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv", 191,
             "Level0"},
            {"torch_npu_resnet_ddp/level1/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv", 191,
             "Level1/2"},
            {"torch_npu_legacy_2024/advisor_backend_compute_advice/kernel_details.csv", 591, "2023"},
            {"torch_npu_legacy_2024/compute_advice_data/kernel_details.csv", 29, "Level1/2"},
        };
        for (const auto& c : cases) {
            bs::Profile prof;
            bs::FindingSink sink;
            auto r = bs::readKernelTable(bstest::s(bstest::realdata(QString::fromLatin1(c.rel))),
                                         bs::KernelSource::KernelDetails, prof, sink);
            QCOMPARE(r.kept, c.rows);
            QCOMPARE(r.level, std::string(c.level));
            QVERIFY2(sink.findings().empty(), c.rel);
        }
    }
};

QTEST_APPLESS_MAIN(TstCsv)
#include "tst_csv_and_kernel_tables.moc"
