// The headless command as a user runs it: exit codes, messages, JSON content and determinism.
#include "cli_support.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

using bstest::Run;
using bstest::runBinary;

QString rd(const QString& rel) {
    return QDir::cleanPath(QStringLiteral(BS_REALDATA_DIR "/") + rel);
}

} // namespace

class TstAnalyzeCommand : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;

  private slots:
    void missingPathSaysWhatWasExpected() {
        auto r = runBinary({QStringLiteral("analyze"), QStringLiteral("/no/such/profile")});
        QCOMPARE(r.code, 3);
        QVERIFY(r.err.contains(QStringLiteral("does not exist; expected a profiling folder")));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1); // one sentence, one line
    }
    void emptyFolderAndUnrelatedFilesExitThree() {
        QDir().mkpath(tmp.filePath(QStringLiteral("empty")));
        auto r = runBinary({QStringLiteral("analyze"), tmp.filePath(QStringLiteral("empty"))});
        QCOMPARE(r.code, 3);
        QVERIFY(r.err.contains(QStringLiteral("holds no Ascend profiling data")));
        QDir().mkpath(tmp.filePath(QStringLiteral("other/sub")));
        QFile f(tmp.filePath(QStringLiteral("other/sub/notes.txt")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("unrelated");
        f.close();
        r = runBinary({QStringLiteral("analyze"), tmp.filePath(QStringLiteral("other"))});
        QCOMPARE(r.code, 3);
        QVERIFY(r.err.contains(QStringLiteral("expected a *_ascend_pt folder")));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
    }
    void emptyOutputFolderPointsToTheDocs() {
        QDir().mkpath(tmp.filePath(QStringLiteral("run_ascend_pt/ASCEND_PROFILER_OUTPUT")));
        auto r = runBinary({QStringLiteral("analyze"), tmp.filePath(QStringLiteral("run_ascend_pt"))});
        QCOMPARE(r.code, 3);
        QVERIFY(r.err.contains(QStringLiteral("prof.step() was never called")));
        QVERIFY(r.err.contains(QStringLiteral("collection-problems.md, \"Empty output folder\"")));
    }
    void garbageTraceAloneIsAnUnreadableTrace() {
        // A trace_view.json with nothing else: the message names the file, the byte where reading
        // stopped and what was expected, not "empty output folder".
        const QString out = tmp.filePath(QStringLiteral("garbage_ascend_pt/ASCEND_PROFILER_OUTPUT"));
        QDir().mkpath(out);
        QFile f(out + QStringLiteral("/trace_view.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("  \n\tPK\x03\x04 this is a zip, not a trace");
        f.close();
        auto r = runBinary({QStringLiteral("analyze"), tmp.filePath(QStringLiteral("garbage_ascend_pt"))});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains(out + QStringLiteral("/trace_view.json (byte 4) could not be read")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("does not start with '[' or '{' (Chrome trace format expected)")),
                 qPrintable(r.err));
        QVERIFY(!r.err.contains(QStringLiteral("Empty output folder")));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
    }
    void usageErrorsExitTwo() {
        QCOMPARE(runBinary({QStringLiteral("analyze")}).code, 2);
        QCOMPARE(runBinary({QStringLiteral("analyze"), rd(QStringLiteral("torch_npu_resnet_ddp")),
                            QStringLiteral("--bogus")})
                     .code,
                 2);
        QCOMPARE(runBinary({QStringLiteral("analyze"), rd(QStringLiteral("torch_npu_resnet_ddp")),
                            QStringLiteral("--format"), QStringLiteral("xml")})
                     .code,
                 2);
        QCOMPARE(runBinary({QStringLiteral("analyze"), rd(QStringLiteral("torch_npu_resnet_ddp")),
                            QStringLiteral("--json")})
                     .code,
                 2);
    }
    void textOutputHasInventoryHealthAndStepTable() {
        auto r = runBinary(
            {QStringLiteral("analyze"), rd(QStringLiteral("torch_npu_resnet_ddp/level0/rank0_ascend_pt"))});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains(QStringLiteral("== Inventory")));
        QVERIFY(r.out.contains(QStringLiteral("Kernel source: kernel_details.csv (Level0 header)")));
        QVERIFY(r.out.contains(QStringLiteral("level0_kernel_details")));
        QVERIFY(r.out.contains(QStringLiteral("== Steps (ms)")));
        // The whole row of step 50, not a substring that could match anywhere: internal bubbles 25.908 ms
        // (= Free 25908.102 µs), prelaunch 19.358 (= Preparing 19358.0 µs), 90 bubbles, 191 kernels.
        const QRegularExpression row(
            QStringLiteral("^ +50 +136\\.898 +90\\.343 +46\\.555 +0\\.3401 +19\\.358 +1\\.288 +25\\.908 "
                           "+1\\.260 +90 +191$"),
            QRegularExpression::MultilineOption);
        QVERIFY2(row.match(r.out).hasMatch(), qPrintable(r.out));
        // What to do next: the recommendations, by priority (P0 first).
        const auto next = r.out.indexOf(QStringLiteral("\n== What to do next\n"));
        QVERIFY(next > 0);
        const QRegularExpression rec(QStringLiteral("^  (P[0-3]) "), QRegularExpression::MultilineOption);
        QString last = QStringLiteral("P0");
        int count = 0;
        for (auto it = rec.globalMatch(r.out, next); it.hasNext(); ++count) {
            const QString p = it.next().captured(1);
            QVERIFY2(p >= last, qPrintable(p + QStringLiteral(" after ") + last));
            last = p;
        }
        QVERIFY(count >= 1);
    }
    // `bubblescope screenshot`: the timeline drawn off screen (no display), PNG of the asked size or SVG,
    // centred on a bubble; unknown ids, other extensions and a parent of several ranks are usage errors.
    void screenshotDrawsTheTimelineOffScreen() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        auto shot = [&](const QStringList& args) {
            return runBinary(QStringList{QStringLiteral("screenshot")} + args, env);
        };
        const QString rank = rd(QStringLiteral("torch_npu_resnet_ddp/level1/rank0_ascend_pt"));
        const QString png = tmp.filePath(QStringLiteral("b0002.png"));
        const Run r = shot({rank, QStringLiteral("--bubble"), QStringLiteral("b0002"), QStringLiteral("--size"),
                            QStringLiteral("800x300"), QStringLiteral("--out"), png});
        QCOMPARE(r.code, 0);
        QFile f(png);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray head = f.read(24);
        QVERIFY(head.startsWith("\x89PNG\r\n\x1a\n"));
        auto be32 = [&](int at) {
            return (quint32(quint8(head[at])) << 24) | (quint32(quint8(head[at + 1])) << 16) |
                   (quint32(quint8(head[at + 2])) << 8) | quint32(quint8(head[at + 3]));
        };
        QCOMPARE(be32(16), 800u); // IHDR width
        QCOMPARE(be32(20), 300u); // IHDR height
        const QString svg = tmp.filePath(QStringLiteral("whole.svg"));
        QCOMPARE(shot({rank, QStringLiteral("--out"), svg}).code, 0);
        QFile sf(svg);
        QVERIFY(sf.open(QIODevice::ReadOnly));
        const QByteArray svgText = sf.readAll();
        QVERIFY(svgText.contains("<svg"));
        // Without --size: 1600 wide and as tall as its lanes (tst_timeline checks that every row fits).
        const QRegularExpressionMatch box = QRegularExpression(QStringLiteral("viewBox=\"0 0 1600 (\\d+)\"")).match(QString::fromUtf8(svgText));
        QVERIFY(box.hasMatch());
        QVERIFY2(box.captured(1).toInt() >= 300 && box.captured(1).toInt() <= 4000, qPrintable(box.captured(1)));
        QVERIFY(svgText.contains("ProfilerStep#50")); // text stays text in the vector picture
        const Run unknown = shot({rank, QStringLiteral("--bubble"), QStringLiteral("b9999"), QStringLiteral("--out"), png});
        QCOMPARE(unknown.code, 2);
        QVERIFY2(unknown.err.contains(QStringLiteral("no bubble window b9999")) && unknown.err.contains(QStringLiteral("b0001, b0002")),
                 qPrintable(unknown.err));
        QCOMPARE(shot({rank, QStringLiteral("--out"), tmp.filePath(QStringLiteral("x.jpg"))}).code, 2);
        const Run parent = shot({rd(QStringLiteral("torch_npu_resnet_ddp/level1")), QStringLiteral("--out"), png});
        QCOMPARE(parent.code, 2);
        QVERIFY(parent.err.contains(QStringLiteral("holds 2 ranks")));
    }
    void jsonHasStepRowsWithTheSpecFieldNamesAndIsDeterministic() {
        const QString a = tmp.filePath(QStringLiteral("a.json")), b = tmp.filePath(QStringLiteral("b.json"));
        const QString rank = rd(QStringLiteral("torch_npu_resnet_ddp/level1/rank0_ascend_pt"));
        QCOMPARE(runBinary({QStringLiteral("analyze"), rank, QStringLiteral("--json"), a}).code, 0);
        QCOMPARE(runBinary({QStringLiteral("analyze"), rank, QStringLiteral("--json"), b,
                            QStringLiteral("--format"), QStringLiteral("json")})
                     .code,
                 0);
        QFile fa(a), fb(b);
        QVERIFY(fa.open(QIODevice::ReadOnly) && fb.open(QIODevice::ReadOnly));
        const QByteArray ja = fa.readAll();
        QCOMPARE(ja, fb.readAll());
        const QJsonObject root = QJsonDocument::fromJson(ja).object();
        const QJsonObject inventory = root.value(QStringLiteral("inventory")).toObject();
        QCOMPARE(inventory.value(QStringLiteral("kernel_source")).toString(),
                 QStringLiteral("kernel_details.csv"));
        QCOMPARE(inventory.value(QStringLiteral("kernel_count")).toInt(), 191);
        QCOMPARE(inventory.value(QStringLiteral("step_source")).toString(),
                 QStringLiteral("ProfilerStep#N markers"));
        // A complete Level1 collection: data_quality holds a findings array, and it is empty.
        const QJsonValue findings =
            root.value(QStringLiteral("data_quality")).toObject().value(QStringLiteral("findings"));
        QVERIFY(findings.isArray());
        QCOMPARE(findings.toArray().size(), 0);
        const QJsonArray steps = root.value(QStringLiteral("steps")).toArray();
        QCOMPARE(steps.size(), 1);
        const QJsonObject s = steps.at(0).toObject();
        for (const char* k : {"step_id", "service_ms", "device_busy_union_ms", "underfeed_ms",
                              "underfeed_ratio", "prelaunch_gap_ms", "tail_gap_ms",
                              "internal_bubble_total_ms", "largest_internal_bubble_ms", "bubble_count"})
            QVERIFY2(s.contains(QString::fromLatin1(k)), k);
        QCOMPARE(s.value(QStringLiteral("step_id")).toString(), QStringLiteral("50"));
        // step_trace_time.csv: Free 25744.05 µs, Preparing 17902.5 µs.
        QVERIFY(std::abs(s.value(QStringLiteral("internal_bubble_total_ms")).toDouble() - 25.74405) < 0.001);
        QVERIFY(std::abs(s.value(QStringLiteral("prelaunch_gap_ms")).toDouble() - 17.9025) < 0.001);
        QCOMPARE(s.value(QStringLiteral("bubble_count")).toInt(), 90);
    }
    void parentOfRanksWritesOneJsonPerRank() {
        const QString out = tmp.filePath(QStringLiteral("multi/analysis.json"));
        QDir().mkpath(tmp.filePath(QStringLiteral("multi")));
        auto r = runBinary({QStringLiteral("analyze"), rd(QStringLiteral("torch_npu_resnet_ddp/level1")),
                            QStringLiteral("--json"), out});
        QCOMPARE(r.code, 0);
        QVERIFY(r.err.contains(QStringLiteral("2 ranks found")));
        QVERIFY(QFile::exists(tmp.filePath(QStringLiteral("multi/analysis.rank0_ascend_pt.json"))));
        QVERIFY(QFile::exists(tmp.filePath(QStringLiteral("multi/analysis.rank1_ascend_pt.json"))));
    }
    void unwritableJsonTargetIsAClearError() {
        // A folder that does not exist cannot be written, even by root.
        const QString target = tmp.filePath(QStringLiteral("no-such-dir/x.json"));
        auto r = runBinary({QStringLiteral("analyze"),
                            rd(QStringLiteral("torch_npu_resnet_ddp/level1/rank0_ascend_pt")),
                            QStringLiteral("--json"), target});
        QCOMPARE(r.code, 4);
        QVERIFY(r.err.contains(QStringLiteral("the JSON was not written")));
        QVERIFY(!QFile::exists(target));
    }

    // Issue 46, item 14: up to 50 steps the text prints a row per step (and per step and figure for the
    // cross-check); from 51 steps on, the steps are summarised per step group and the cross-check as its worst
    // difference per figure, unless --all-steps. Generated captures of 50 and 51 small steps.
    void aLongCaptureIsSummarisedUnlessAllSteps_data() {
        QTest::addColumn<int>("steps");
        QTest::addColumn<bool>("allSteps");
        QTest::addColumn<bool>("everyRow");
        QTest::newRow("50 steps") << 50 << false << true;
        QTest::newRow("51 steps") << 51 << false << false;
        QTest::newRow("51 steps, --all-steps") << 51 << true << true;
    }
    void aLongCaptureIsSummarisedUnlessAllSteps() {
        QFETCH(int, steps);
        QFETCH(bool, allSteps);
        QFETCH(bool, everyRow);
        const QString name = QStringLiteral("long%1").arg(steps);
        const QString out = tmp.filePath(name);
        if (!QFileInfo::exists(out)) {
            QVERIFY(!bstest::generate(out,
                                      {QStringLiteral("--steps"), QString::number(steps),
                                       QStringLiteral("--dense"), QStringLiteral("1"),
                                       QStringLiteral("--dfc"), QStringLiteral("0"), QStringLiteral("--gmm"),
                                       QStringLiteral("0"), QStringLiteral("--prefill"), QStringLiteral("1"),
                                       QStringLiteral("--decode"), QStringLiteral("1")},
                                      name)
                         .isEmpty());
        }
        QStringList args{QStringLiteral("analyze"), out + QLatin1Char('/') + name + QStringLiteral("_ascend_pt")};
        if (allSteps) args << QStringLiteral("--all-steps");
        const Run r = runBinary(args);
        QCOMPARE(r.code, 0);
        // A step row starts with the step number right-aligned in 10 columns, then the service in ms.
        const QRegularExpression stepRow(QStringLiteral("^ {2,}\\d+ +\\d+\\.\\d{3} +\\d+\\.\\d{3} "),
                                         QRegularExpression::MultilineOption);
        const QString stepsSection = r.out.section(QStringLiteral("== Steps (ms)"), 1).section(QStringLiteral("\n== "), 0, 0);
        QCOMPARE(static_cast<int>(stepsSection.count(stepRow)), everyRow ? steps : 0);
        const QString cross = r.out.section(QStringLiteral("== Profiler cross-check"), 1).section(QStringLiteral("\n== "), 0, 0);
        // The profiler's own step_trace_time.csv has one row per step: three figures compared per step.
        QCOMPARE(static_cast<int>(cross.count(QStringLiteral("  step "))), everyRow ? 3 * steps : 0);
        if (everyRow) return;
        QVERIFY2(stepsSection.contains(QStringLiteral("%1 steps: per step group, P50 / P90 / P95 (--all-steps prints every step)").arg(steps)),
                 qPrintable(stepsSection));
        QVERIFY(stepsSection.contains(QStringLiteral("g0 (%1 steps: 1-%1;").arg(steps)));
        QVERIFY2(cross.contains(QStringLiteral("%1 steps compared: %1 agree, 0 disagree").arg(steps)), qPrintable(cross));
        QCOMPARE(static_cast<int>(cross.count(QStringLiteral("largest difference"))), 3);
        QVERIFY(r.out.count(QLatin1Char('\n')) < 100);
    }
};

QTEST_GUILESS_MAIN(TstAnalyzeCommand)
#include "tst_analyze_command.moc"
