#pragma once
// Helpers shared by the tests that run the programs as a user does: bubblescope (BS_BINARY) and the generator
// bubblescope-synth (BS_SYNTH), each to its end, and a JSON file they wrote read back.
// A program that does not start, does not end within kRunTimeoutMs or crashes fails the calling test (and its
// Run has code -1, which no test expects). The timeout is far above what any run needs: it only stops a hung
// program, so no test depends on the machine's speed.
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTest>

namespace bstest {

inline constexpr int kRunTimeoutMs = 300000;

struct Run {
    int code = -1; // the exit code; -1 when the program did not start, did not end or crashed
    QString out, err;
};

// `program` with `args` to its end, in `env` when one is given (else this process's environment).
inline Run runProgram(const QString& program, const QStringList& args, const QProcessEnvironment& env = {}) {
    QProcess p;
    if (!env.isEmpty()) p.setProcessEnvironment(env);
    p.start(program, args);
    const bool ended = p.waitForFinished(kRunTimeoutMs);
    if (!ended) {
        p.kill();
        p.waitForFinished(kRunTimeoutMs);
    }
    Run r;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    if (ended && p.exitStatus() == QProcess::NormalExit) {
        r.code = p.exitCode();
        return r;
    }
    const QString why = p.error() == QProcess::FailedToStart ? QStringLiteral("did not start")
                        : !ended ? QStringLiteral("did not end within %1 s").arg(kRunTimeoutMs / 1000)
                                 : QStringLiteral("crashed");
    QTest::qFail(
        qPrintable(QStringLiteral("%1 %2 %3 (%4); stderr: %5")
                       .arg(program, args.join(QLatin1Char(' ')), why, p.errorString(), r.err.right(2000))),
        __FILE__, __LINE__);
    return r;
}

// A JSON file's top-level object; empty when the file cannot be read or is not a JSON object.
inline QJsonObject readJson(const QString& file) {
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// The generator `synth` with `args`, then --out OUT, --name NAME (when `name` is given) and --quiet. Returns
// `out`, or an empty string when the generator fails (the calling test fails with its error output).
inline QString generateWith(const QString& synth, const QString& out, const QStringList& args,
                            const QString& name = {}) {
    QStringList all = args;
    all << QStringLiteral("--out") << out;
    if (!name.isEmpty()) all << QStringLiteral("--name") << name;
    all << QStringLiteral("--quiet");
    const Run r = runProgram(synth, all);
    if (r.code == 0) return out;
    if (r.code != -1) // -1: runProgram has failed the test already
        QTest::qFail(qPrintable(QStringLiteral("%1 %2 exited with %3; stderr: %4")
                                    .arg(synth, all.join(QLatin1Char(' ')))
                                    .arg(r.code)
                                    .arg(r.err.right(2000))),
                     __FILE__, __LINE__);
    return {};
}

#ifdef BS_BINARY
inline Run runBinary(const QStringList& args, const QProcessEnvironment& env = {}) {
    return runProgram(QStringLiteral(BS_BINARY), args, env);
}
#endif

#ifdef BS_SYNTH
inline QString generate(const QString& out, const QStringList& args, const QString& name = {}) {
    return generateWith(QStringLiteral(BS_SYNTH), out, args, name);
}
#endif

} // namespace bstest
