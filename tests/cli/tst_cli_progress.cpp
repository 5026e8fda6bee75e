// The command line as Linux users expect it (issue 22): progress on a terminal and in logs, --quiet,
// Ctrl+C, the manual against --help, the bash completion, the shipped JSON schema.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <csignal>
#include <dirent.h>
#include <string>
#include <unistd.h>

namespace {

// Waits until process `pid` has its trace_view.json open, i.e. it is reading the trace. A signal sent then
// lands in the load whatever the machine's speed (a fixed delay did not: the 200 MB load got faster than it).
bool waitUntilReadingTheTrace(qint64 pid, int timeoutMs) {
    QElapsedTimer t;
    t.start();
    const std::string dir = "/proc/" + std::to_string(pid) + "/fd";
    while (t.elapsed() < timeoutMs) {
        if (DIR* d = ::opendir(dir.c_str())) {
            bool found = false;
            while (dirent* e = ::readdir(d)) {
                char target[4096];
                const ssize_t n = ::readlink((dir + "/" + e->d_name).c_str(), target, sizeof target - 1);
                if (n > 0 && std::string(target, static_cast<std::size_t>(n)).find("trace_view.json") != std::string::npos)
                    found = true;
            }
            ::closedir(d);
            if (found) return true;
        }
        QThread::msleep(1);
    }
    return false;
}

struct Run {
    int code = -1;
    QByteArray out, err;
};

Run run(const QString& program, const QStringList& args) {
    QProcess p;
    p.start(program, args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

Run analyze(const QStringList& args) { return run(QStringLiteral(BS_BINARY), QStringList{QStringLiteral("analyze")} + args); }

QString quoted(const QString& s) { return QLatin1Char('\'') + s + QLatin1Char('\''); }

// The progress clock is driven by the reader (BUBBLESCOPE_PROGRESS_TICK_MS): 5 ms per 512 KiB chunk, so
// the 205 MB trace reads in 2.05 s of that clock on any machine (~20 redraws at 10 a second), and what
// the terminal shows depends on the input only.
constexpr int kTickMs = 5;

// `bubblescope analyze ARGS` with BUBBLESCOPE_PROGRESS set to `progress` (unset when empty); standard
// output to /dev/null, standard error captured (in Run::err).
Run analyzeWithProgressVariable(const QString& progress, const QStringList& args) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("BUBBLESCOPE_PROGRESS"));
    env.insert(QStringLiteral("BUBBLESCOPE_PROGRESS_TICK_MS"), QString::number(kTickMs));
    if (!progress.isEmpty()) env.insert(QStringLiteral("BUBBLESCOPE_PROGRESS"), progress);
    p.setProcessEnvironment(env);
    p.setStandardOutputFile(QProcess::nullDevice());
    p.start(QStringLiteral(BS_BINARY), QStringList{QStringLiteral("analyze")} + args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, {}, p.readAllStandardError()};
}

// Whether script(1) can make a pseudo-terminal here: not in a chroot without /dev/pts (a fresh debootstrap
// with /dev bound but not /dev/pts). Any other failure of script counts as "yes", so that it shows.
bool pseudoTerminals() {
    static const bool yes = [] {
        const Run r = run(QStringLiteral("script"),
                          {QStringLiteral("-qec"), QStringLiteral("true"), QStringLiteral("/dev/null")});
        if (r.code == 0 || !(r.err + r.out).contains("pseudo-terminal")) return true;
        qInfo("script(1) cannot make a pseudo-terminal here (%s): what a terminal shows is taken with "
              "BUBBLESCOPE_PROGRESS=terminal instead; everything shown is checked, isatty's answer is not",
              (r.err + r.out).trimmed().constData());
        return false;
    }();
    return yes;
}

// `bubblescope analyze ARGS >/dev/null` under a pseudo-terminal (script(1)): what the terminal shows is
// standard error only. Without pseudo-terminals, the same run with BUBBLESCOPE_PROGRESS=terminal and its
// standard error as the terminal would show it (each LF as CR LF, the terminal's output translation).
Run analyzeOnTerminal(const QStringList& args) {
    if (!pseudoTerminals()) {
        Run r = analyzeWithProgressVariable(QStringLiteral("terminal"), args);
        r.out = r.err.replace("\n", "\r\n");
        r.err.clear();
        return r;
    }
    QString cmd = QStringLiteral("BUBBLESCOPE_PROGRESS_TICK_MS=%1 ").arg(kTickMs) + quoted(QStringLiteral(BS_BINARY)) +
                  QStringLiteral(" analyze");
    for (const auto& a : args)
        cmd += QLatin1Char(' ') + quoted(a);
    cmd += QStringLiteral(" >/dev/null");
    return run(QStringLiteral("script"), {QStringLiteral("-qec"), cmd, QStringLiteral("/dev/null")});
}

QSet<QString> optionsIn(const QString& text) {
    QSet<QString> found;
    static const QRegularExpression option(QStringLiteral("(?<![\\w-])(--?[a-z][a-z-]*)"));
    for (auto it = option.globalMatch(text); it.hasNext();)
        found.insert(it.next().captured(1));
    return found;
}

QStringList entries(const QString& dir) { return QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden); }

// `COMP_WORDS=(WORDS…)` with the cursor on the last word; what the completion offers.
QStringList complete(const QStringList& words, const QString& cwd) {
    QString arr;
    for (const auto& w : words)
        arr += quoted(w) + QLatin1Char(' ');
    const QString script = QStringLiteral("source %1 && COMP_WORDS=(%2) && COMP_CWORD=%3 && _bubblescope && "
                                          "printf '%s\\n' \"${COMPREPLY[@]}\"")
                               .arg(quoted(QStringLiteral(BS_SOURCE_DIR "/packaging/bubblescope")), arr)
                               .arg(words.size() - 1);
    QProcess p;
    p.setWorkingDirectory(cwd);
    p.start(QStringLiteral("bash"), {QStringLiteral("-c"), script});
    p.waitForFinished(10000);
    QStringList got = QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    got.sort();
    return got;
}

} // namespace

class TstCliProgress : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    QString big;   // ~200 MB trace: a few seconds of work
    QString small; // a small profile: the interruption sweep
    QString pair;  // two ranks

    QString out(const QString& name) { return tmp.filePath(name); }

  private slots:
    void initTestCase() {
        QVERIFY(tmp.isValid());
        const QString synth = QStringLiteral(BS_SYNTH);
        QCOMPARE(run(synth, {QStringLiteral("--out"), tmp.filePath(QStringLiteral("gen")), QStringLiteral("--name"),
                             QStringLiteral("big"), QStringLiteral("--dfc"), QStringLiteral("58"),
                             QStringLiteral("--trace-mb"), QStringLiteral("200")})
                     .code,
                 0);
        big = tmp.filePath(QStringLiteral("gen/big_ascend_pt"));
        QVERIFY(QFileInfo(big + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json")).size() > 190 << 20);
        QCOMPARE(run(synth, {QStringLiteral("--out"), tmp.filePath(QStringLiteral("small")), QStringLiteral("--name"),
                             QStringLiteral("s"), QStringLiteral("--dense"), QStringLiteral("2"), QStringLiteral("--steps"),
                             QStringLiteral("3")})
                     .code,
                 0);
        small = tmp.filePath(QStringLiteral("small/s_ascend_pt"));
        QCOMPARE(run(synth, {QStringLiteral("--out"), tmp.filePath(QStringLiteral("pair")), QStringLiteral("--name"),
                             QStringLiteral("job"), QStringLiteral("--ranks"), QStringLiteral("2"), QStringLiteral("--dense"),
                             QStringLiteral("2"), QStringLiteral("--steps"), QStringLiteral("3")})
                     .code,
                 0);
        pair = tmp.filePath(QStringLiteral("pair"));
    }

    void aTerminalSeesOneProgressLineRedrawnAndClearedAtTheEnd() {
        const QString json = out(QStringLiteral("tty.json"));
        const Run r = analyzeOnTerminal({QStringLiteral("--json"), json, big});
        QCOMPARE(r.code, 0);
        const QString shown = QString::fromUtf8(r.out);
        QVERIFY2(shown.contains(QRegularExpression(QStringLiteral("\rbubblescope: reading trace [1-9]\\d?% \\(\\d+ of 205 MB\\)"))),
                 qPrintable(shown.left(2000)));
        QVERIFY(shown.contains(QStringLiteral("bubblescope: analysing")));
        QVERIFY(shown.contains(QStringLiteral("\x1b[K")));
        // 2.05 s of the driven clock at one redraw per 100 ms: ~20 lines of the read; an estimate needs 0.3 s
        // of reading, so the later ones carry it.
        const qsizetype readDraws = shown.count(QStringLiteral("bubblescope: reading trace "));
        QVERIFY2(readDraws >= 15 && readDraws <= 25, qPrintable(QString::number(readDraws)));
        QVERIFY2(shown.contains(QRegularExpression(QStringLiteral(", ETA \\d+:\\d\\d"))), qPrintable(shown.left(2000)));
        QVERIFY(shown.contains(QStringLiteral("\r\x1b[Kbubblescope: wrote ") + json));
        // Cleared at the end: nothing visible after the last carriage return.
        const QString tail = shown.mid(shown.lastIndexOf(QLatin1Char('\r')));
        QVERIFY2(tail == QStringLiteral("\r\x1b[K") || tail == QStringLiteral("\r\n"), qPrintable(tail));
        // Throttled: at most ~10 redraws a second.
        QVERIFY(shown.count(QLatin1Char('\r')) < 200);
        QVERIFY(QJsonDocument::fromJson([&] { QFile f(json); f.open(QIODevice::ReadOnly); return f.readAll(); }()).isObject());
    }

    void withoutATerminalStandardErrorHoldsOnlyTheFinalLines() {
        const QString json = out(QStringLiteral("pipe.json"));
        const Run r = analyze({QStringLiteral("--json"), json, big});
        QCOMPARE(r.code, 0);
        QCOMPARE(QString::fromUtf8(r.err), QStringLiteral("bubblescope: wrote ") + json + QLatin1Char('\n'));
    }

    void quietPrintsNothingOnStandardErrorOnATerminalOrNot() {
        Run r = analyzeOnTerminal({QStringLiteral("--quiet"), QStringLiteral("--json"), out(QStringLiteral("q1.json")), big});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out, QByteArray());
        r = analyze({QStringLiteral("-q"), QStringLiteral("--json"), out(QStringLiteral("q2.json")), pair});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.err, QByteArray()); // no "2 ranks found" listing, no "wrote" lines
        QVERIFY(r.out.contains("Cluster"));
        QVERIFY(QFile::exists(out(QStringLiteral("q2.job_rank0_ascend_pt.json"))));
        // Errors still are printed.
        r = analyze({QStringLiteral("--quiet"), tmp.filePath(QStringLiteral("no-such-folder"))});
        QCOMPARE(r.code, 3);
        QVERIFY(r.err.contains("does not exist"));
    }

    void progressOptionWritesPlainLinesForBatchLogs() {
        const QString json = out(QStringLiteral("lines.json"));
        const Run r = analyze({QStringLiteral("--progress"), QStringLiteral("--json"), json, big});
        QCOMPARE(r.code, 0);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY(!err.contains(QLatin1Char('\x1b')));
        QVERIFY(!err.contains(QLatin1Char('\r')));
        const QStringList lines = err.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        for (const auto& l : lines)
            QVERIFY2(l.startsWith(QStringLiteral("bubblescope: ")), qPrintable(l));
        QCOMPARE(lines.first(), QStringLiteral("bubblescope: [0:00] discovering profiles under ") + big);
        const QStringList trace = lines.filter(QRegularExpression(QStringLiteral("^bubblescope: \\[\\d+:\\d\\d\\] reading trace \\d+% \\(\\d+ of 205 MB\\)$")));
        QVERIFY2(trace.size() >= 6 && trace.size() <= 11, qPrintable(err)); // every 10 %
        QVERIFY(lines.filter(QStringLiteral("] analysing")).size() == 1);
        QCOMPARE(lines.last(), QStringLiteral("bubblescope: wrote ") + json);
    }

    void progressNamesTheRankOfSeveral() {
        const Run r = analyze({QStringLiteral("--progress"), pair});
        QCOMPARE(r.code, 0);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.contains(QStringLiteral("] rank 1/2 job_rank0_ascend_pt: analysing")), qPrintable(err));
        QVERIFY(err.contains(QStringLiteral("] rank 2/2 job_rank1_ascend_pt: analysing")));
        QVERIFY(err.contains(QStringLiteral("] comparing 2 ranks")));
        QVERIFY(err.contains(QStringLiteral("bubblescope: 2 ranks found under ")));
    }

    void quietAndProgressTogetherAreAUsageError() {
        const Run r = analyze({QStringLiteral("--quiet"), QStringLiteral("--progress"), small});
        QCOMPARE(r.code, 2);
    }

    // SIGINT 0.5 s into a run on the 200 MB profile (~2-5 s of work on two shared cores; 1 GB would
    // take ~15 s just to generate).
    // BUBBLESCOPE_PROGRESS chooses when neither --quiet nor --progress does; standard error is a pipe here.
    void theProgressVariableChoosesWhenNoOptionDoes() {
        const QString json = out(QStringLiteral("env.json"));
        const QString wrote = QStringLiteral("bubblescope: wrote ") + json + QLatin1Char('\n');
        // terminal: the redrawn line without a terminal (the large profile: a few redraws), cleared before
        // the final line
        Run r =
            analyzeWithProgressVariable(QStringLiteral("terminal"), {QStringLiteral("--json"), json, big});
        QCOMPARE(r.code, 0);
        QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.startsWith(QStringLiteral("\rbubblescope: ")), qPrintable(err.left(200)));
        QVERIFY2(err.contains(QRegularExpression(
                     QStringLiteral("\rbubblescope: reading trace [1-9]\\d?% \\(\\d+ of 205 MB\\)"))),
                 qPrintable(err.left(2000)));
        QVERIFY(!err.contains(QLatin1Char('\n')) ||
                err.indexOf(QLatin1Char('\n')) == err.size() - 1); // one line
        QVERIFY2(err.endsWith(QStringLiteral("\r\x1b[K") + wrote), qPrintable(err.right(200)));
        // lines: as --progress
        r = analyzeWithProgressVariable(QStringLiteral("lines"), {QStringLiteral("--json"), json, small});
        QCOMPARE(r.code, 0);
        err = QString::fromUtf8(r.err);
        QVERIFY(!err.contains(QLatin1Char('\r')));
        QVERIFY2(err.startsWith(QStringLiteral("bubblescope: [0:00] discovering profiles under ") + small +
                                QLatin1Char('\n')),
                 qPrintable(err.left(300)));
        QVERIFY(err.contains(QStringLiteral("] analysing\n")));
        QVERIFY(err.endsWith(wrote));
        // off: the final lines only
        r = analyzeWithProgressVariable(QStringLiteral("off"), {QStringLiteral("--json"), json, small});
        QCOMPARE(r.code, 0);
        QCOMPARE(QString::fromUtf8(r.err), wrote);
        // the options win over it
        r = analyzeWithProgressVariable(QStringLiteral("terminal"),
                                        {QStringLiteral("-q"), QStringLiteral("--json"), json, small});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.err, QByteArray());
        r = analyzeWithProgressVariable(QStringLiteral("terminal"), {QStringLiteral("--progress"),
                                                                     QStringLiteral("--json"), json, small});
        QCOMPARE(r.code, 0);
        QVERIFY(!r.err.contains('\r'));
        QVERIFY(r.err.startsWith("bubblescope: [0:00] discovering profiles under "));
        // any other value: named, then ignored (standard error is not a terminal: no progress)
        r = analyzeWithProgressVariable(QStringLiteral("sideways"), {QStringLiteral("--json"), json, small});
        QCOMPARE(r.code, 0);
        QCOMPARE(QString::fromUtf8(r.err),
                 QStringLiteral(
                     "bubblescope: BUBBLESCOPE_PROGRESS=sideways is not one of terminal, lines, off; it is "
                     "ignored\n") +
                     wrote);
    }

    void ctrlCStopsWithinASecondLeavingNoFile_data() {
        QTest::addColumn<int>("sig");
        QTest::newRow("SIGINT") << int(SIGINT);
        QTest::newRow("SIGTERM") << int(SIGTERM);
    }
    void ctrlCStopsWithinASecondLeavingNoFile() {
        QFETCH(int, sig);
        const QString dir = out(QStringLiteral("int%1").arg(sig));
        QVERIFY(QDir().mkpath(dir));
        QProcess p;
        p.start(QStringLiteral(BS_BINARY), {QStringLiteral("analyze"), QStringLiteral("--json"), dir + QStringLiteral("/out.json"), big});
        QVERIFY(p.waitForStarted());
        QVERIFY(waitUntilReadingTheTrace(p.processId(), 10000));
        QThread::msleep(20); // well inside the read (it takes a few hundred ms)
        QCOMPARE(p.state(), QProcess::Running);
        QElapsedTimer t;
        t.start();
        ::kill(static_cast<pid_t>(p.processId()), sig);
        QVERIFY(p.waitForFinished(5000));
        const qint64 ms = t.elapsed();
        qInfo("exit %d, %lld ms after the signal", p.exitCode(), static_cast<long long>(ms));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 130);
        QVERIFY2(ms < 1000, qPrintable(QString::number(ms)));
        QCOMPARE(QString::fromUtf8(p.readAllStandardError()), QStringLiteral("bubblescope: interrupted\n"));
        QCOMPARE(entries(dir), QStringList()); // no output, no temporary file
    }

    // Signals across the whole run, the writing of the file included: the output is the old file or the
    // complete new one, never a temporary file left behind.
    void anInterruptionLeavesTheOldOrTheCompleteFile() {
        const QString dir = out(QStringLiteral("sweep"));
        QVERIFY(QDir().mkpath(dir));
        const QString json = dir + QStringLiteral("/out.json");
        QElapsedTimer t;
        t.start();
        QCOMPARE(analyze({QStringLiteral("--json"), json, QStringLiteral("--report"), dir + QStringLiteral("/r.md"), small}).code, 0);
        const qint64 full = std::max<qint64>(t.elapsed(), 20);
        int interrupted = 0, afterAWrite = 0;
        for (int i = 0; i < 12; ++i) {
            QFile old(json);
            QVERIFY(old.open(QIODevice::WriteOnly | QIODevice::Truncate));
            old.write("old");
            old.close();
            QFile::remove(dir + QStringLiteral("/r.md"));
            QProcess p;
            p.setReadChannel(QProcess::StandardError);
            p.start(QStringLiteral(BS_BINARY), {QStringLiteral("analyze"), QStringLiteral("--progress"), QStringLiteral("--json"),
                                                json, QStringLiteral("--report"), dir + QStringLiteral("/r.md"), small});
            QVERIFY(p.waitForReadyRead(10000)); // its first progress line: the handler is installed
            QThread::msleep(static_cast<unsigned long>(full * (6 + i) / 16)); // from a third of the run to past its end
            ::kill(static_cast<pid_t>(p.processId()), SIGINT);
            QVERIFY(p.waitForFinished(10000));
            QCOMPARE(p.exitStatus(), QProcess::NormalExit);
            QVERIFY2(p.exitCode() == 130 || p.exitCode() == 0, qPrintable(QString::number(p.exitCode())));
            interrupted += p.exitCode() == 130;
            QFile f(json);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray content = f.readAll();
            QVERIFY2(content == "old" || QJsonDocument::fromJson(content).isObject(), content.left(80).constData());
            afterAWrite += p.exitCode() == 130 && content != "old";
            for (const auto& e : entries(dir))
                QVERIFY2(e == QStringLiteral("out.json") || e == QStringLiteral("r.md"), qPrintable(e));
        }
        QVERIFY(interrupted > 0);
        qInfo("%d of 12 runs interrupted, %d of them once the JSON was written", interrupted, afterAWrite);
    }

    void theManualDocumentsEveryOptionOfHelpAndNoOther() {
        QFile man(QStringLiteral(BS_SOURCE_DIR "/packaging/bubblescope.1"));
        QVERIFY(man.open(QIODevice::ReadOnly));
        const QString roff = QString::fromUtf8(man.readAll()).replace(QStringLiteral("\\-"), QStringLiteral("-"));
        // The options the manual defines: the tag lines (after .TP) of its OPTIONS section.
        const qsizetype from = roff.indexOf(QStringLiteral("\n.SH OPTIONS")), to = roff.indexOf(QStringLiteral("\n.SH "), from + 1);
        QVERIFY(from > 0 && to > from);
        const QStringList lines = roff.mid(from, to - from).split(QLatin1Char('\n'));
        QSet<QString> documented;
        for (qsizetype i = 0; i + 1 < lines.size(); ++i)
            if (lines[i] == QStringLiteral(".TP")) documented += optionsIn(lines[i + 1]);
        const Run top = run(QStringLiteral(BS_BINARY), {QStringLiteral("--help")});
        const Run sub = analyze({QStringLiteral("--help")});
        const Run merge = run(QStringLiteral(BS_BINARY), {QStringLiteral("cluster"), QStringLiteral("--help")});
        const Run shot = run(QStringLiteral(BS_BINARY), {QStringLiteral("screenshot"), QStringLiteral("--help")});
        QCOMPARE(top.code, 0);
        QCOMPARE(sub.code, 0);
        QCOMPARE(merge.code, 0);
        const QSet<QString> inHelp = optionsIn(QString::fromUtf8(top.out)) + optionsIn(QString::fromUtf8(sub.out)) +
                                     optionsIn(QString::fromUtf8(merge.out)) + optionsIn(QString::fromUtf8(shot.out));
        QVERIFY(inHelp.contains(QStringLiteral("--quiet")) && inHelp.contains(QStringLiteral("--progress")));
        QVERIFY(inHelp.contains(QStringLiteral("--cluster-report")) && inHelp.contains(QStringLiteral("-v")));
        QCOMPARE(QStringList((inHelp - documented).values()), QStringList()); // in --help, not in the manual
        QCOMPARE(QStringList((documented - inHelp).values()), QStringList()); // in the manual, not in --help
        QVERIFY(inHelp.contains(QStringLiteral("--shard")) && inHelp.contains(QStringLiteral("--expect")));
        QCOMPARE(shot.code, 0);
        QVERIFY(inHelp.contains(QStringLiteral("--bubble")) && inHelp.contains(QStringLiteral("--size")));
        QCOMPARE(documented.size(), 28); // with --lang (analyze, cluster, compare), screenshot --ranks / --step, --all-steps,
                                         // --fail-if / --junit (analyze, compare)
        // Both say where the JSON schema is.
        const QString schema = QStringLiteral("/usr/share/doc/bubblescope/anomaly_discovery.schema.json");
        QVERIFY(roff.contains(schema));
        QVERIFY(QString::fromUtf8(sub.out).contains(schema));
        for (const char* status : {"\n.B 0\n", "\n.B 2\n", "\n.B 3\n", "\n.B 4\n", "\n.B 5\n", "\n.B 6\n", "\n.B 130\n", "BUBBLESCOPE_MEMORY_LIMIT_MB"})
            QVERIFY2(roff.contains(QLatin1String(status)), status);
    }

    void theShippedSchemaIsTheSpecsByteForByte() {
        QFile shipped(QStringLiteral(BS_SOURCE_DIR "/docs/anomaly_discovery.schema.json"));
        QFile spec(QStringLiteral(BS_SPEC_DIR "/anomaly_discovery.schema.json"));
        QVERIFY(shipped.open(QIODevice::ReadOnly));
        QVERIFY(spec.open(QIODevice::ReadOnly));
        const QByteArray a = shipped.readAll();
        QVERIFY(a.size() > 1000);
        QCOMPARE(a, spec.readAll());
    }

    void bashCompletesTheCommandItsOptionsAndTheirValues() {
        const QString cwd = tmp.path();
        QCOMPARE(complete({QStringLiteral("bubblescope"), QStringLiteral("ana")}, cwd), QStringList{QStringLiteral("analyze")});
        QCOMPARE(complete({QStringLiteral("bubblescope"), QStringLiteral("clu")}, cwd), QStringList{QStringLiteral("cluster")});
        QCOMPARE(complete({QStringLiteral("bubblescope"), QStringLiteral("cluster"), QStringLiteral("--ex")}, cwd),
                 QStringList{QStringLiteral("--expect")});
        QCOMPARE(complete({QStringLiteral("bubblescope"), QStringLiteral("analyze"), QStringLiteral("--sh")}, cwd),
                 QStringList{QStringLiteral("--shard")});
        QCOMPARE(complete({QStringLiteral("bubblescope"), QStringLiteral("analyze"), QStringLiteral("--fo")}, cwd),
                 QStringList{QStringLiteral("--format")});
        QCOMPARE(complete({QStringLiteral("bubblescope"), QStringLiteral("analyze"), QStringLiteral("--format"), QString()}, cwd),
                 (QStringList{QStringLiteral("json"), QStringLiteral("text")}));
        QCOMPARE(complete({QStringLiteral("bubblescope"), QStringLiteral("analyze"), QStringLiteral("--source"), QString()}, cwd),
                 (QStringList{QStringLiteral("db"), QStringLiteral("text")}));
        QCOMPARE(complete({QStringLiteral("bubblescope"), QStringLiteral("analyze"), QStringLiteral("--cluster-")}, cwd),
                 (QStringList{QStringLiteral("--cluster-json"), QStringLiteral("--cluster-report")}));
        QCOMPARE(complete({QStringLiteral("bubblescope"), QStringLiteral("analyze"), QStringLiteral("--json"), QStringLiteral("sm")}, cwd),
                 QStringList{QStringLiteral("small")});
        QCOMPARE(complete({QStringLiteral("bubblescope"), QStringLiteral("analyze"), QStringLiteral("pa")}, cwd),
                 QStringList{QStringLiteral("pair")});
        // Gates: the options, and the metrics of each command after --fail-if.
        QCOMPARE(complete({QStringLiteral("bubblescope"), QStringLiteral("analyze"), QStringLiteral("--fa")}, cwd),
                 QStringList{QStringLiteral("--fail-if")});
        QCOMPARE(complete({QStringLiteral("bubblescope"), QStringLiteral("compare"), QStringLiteral("--ju")}, cwd),
                 QStringList{QStringLiteral("--junit")});
        QCOMPARE(complete({QStringLiteral("bubblescope"), QStringLiteral("analyze"), QStringLiteral("--fail-if"),
                           QStringLiteral("largest")}, cwd),
                 QStringList{QStringLiteral("largest_internal_bubble_ms")});
        QCOMPARE(complete({QStringLiteral("bubblescope"), QStringLiteral("compare"), QStringLiteral("--fail-if"),
                           QStringLiteral("new")}, cwd),
                 QStringList{QStringLiteral("new_windows")});
        QCOMPARE(complete({QStringLiteral("bubblescope"), QStringLiteral("compare"), QStringLiteral("--junit"),
                           QStringLiteral("sm")}, cwd),
                 QStringList{QStringLiteral("small")});
    }
};

QTEST_GUILESS_MAIN(TstCliProgress)
#include "tst_cli_progress.moc"
