// Where `bubblescope analyze` writes (issue 19, items 1–5): devices, FIFOs and standard output are
// written straight, never replaced; files of the analysed profile are refused; several ranks get
// unique names; write errors (standard output included) are exit 4; unknown commands are exit 2.
// Every case runs the real binary.
#include "test_support.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace {

struct Run {
    int code = -1;
    QByteArray out;
    QString err;
};

struct RunOptions {
    QString stdoutFile;       // instead of a pipe
    QString workingDirectory; // default: the test's
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
};

Run run(const QStringList& args, const RunOptions& opt = {}) {
    QProcess p;
    p.setProcessEnvironment(opt.env);
    if (!opt.stdoutFile.isEmpty()) p.setStandardOutputFile(opt.stdoutFile, QIODevice::Append);
    if (!opt.workingDirectory.isEmpty()) p.setWorkingDirectory(opt.workingDirectory);
    p.start(QStringLiteral(BS_BINARY), args);
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            QString::fromUtf8(p.readAllStandardError())};
}

QStringList analyze(const QString& path, const QStringList& more = {}) {
    return QStringList{QStringLiteral("analyze"), path} + more;
}

const QString kRank = QStringLiteral("torch_npu_resnet_ddp/level1/rank0_ascend_pt");

// A writable copy of a real rank (the shared real data must never be the one at risk).
QString copyRank(const QString& to) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(to.toStdString()).parent_path(), ec);
    std::filesystem::copy(bstest::realdata(kRank).toStdString(), to.toStdString(),
                          std::filesystem::copy_options::recursive, ec);
    return ec ? QString() : to;
}

struct stat statOf(const QString& path, bool follow = true) {
    struct stat st {};
    const QByteArray p = QFile::encodeName(path);
    if ((follow ? ::stat(p.constData(), &st) : ::lstat(p.constData(), &st)) != 0) st = {};
    return st;
}

bool isJsonObject(const QByteArray& bytes) {
    QJsonParseError e{};
    const QJsonDocument d = QJsonDocument::fromJson(bytes, &e);
    return e.error == QJsonParseError::NoError && d.isObject();
}

QStringList leftovers(const QString& dir) {
    return QDir(dir).entryList({QStringLiteral("*.tmp-*"), QStringLiteral(".bs-*")},
                               QDir::Files | QDir::Hidden | QDir::System);
}


// A writable copy of the real two-rank collection (level1: rank0 and rank1).
QString copyCollection(const QString& to) {
    std::error_code ec;
    std::filesystem::create_directories(to.toStdString(), ec);
    std::filesystem::copy(bstest::realdata(QStringLiteral("torch_npu_resnet_ddp/level1")).toStdString(),
                          to.toStdString(), std::filesystem::copy_options::recursive, ec);
    return ec ? QString() : to;
}

// One writer of one command pointed at a profile's file: refused as a usage error before anything is
// written, the file byte for byte and inode for inode what it was.
void refusesAndKeeps(const QStringList& args, const QString& file, const QString& option) {
    const QByteArray before = bstest::readFile(file);
    const ino_t inode = statOf(file).st_ino;
    QVERIFY2(!before.isEmpty(), qPrintable(file));
    const Run r = run(args);
    QVERIFY2(r.code == 2, qPrintable(QString::number(r.code) + QLatin1Char(' ') + r.err));
    QVERIFY2(r.err.contains(option + QLatin1Char(' ')) && r.err.contains(QStringLiteral(" is a file of the profile ")),
             qPrintable(r.err));
    QCOMPARE(bstest::readFile(file), before);
    QCOMPARE(statOf(file).st_ino, inode);
}
} // namespace

class OutputPathsTest : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;

  private slots:
    void initTestCase() {
        QVERIFY(bstest::requireRealdata());
        QVERIFY(tmp.isValid());
    }

    // Item 1 -----------------------------------------------------------------------------------------
    void aDeviceAndDevStdoutAreWrittenStraightAndStayWhatTheyWere() {
        const struct stat fullBefore = statOf(QStringLiteral("/dev/full"), false);
        QVERIFY(S_ISCHR(fullBefore.st_mode));
        const struct stat stdoutLinkBefore = statOf(QStringLiteral("/dev/stdout"), false);
        QVERIFY(S_ISLNK(stdoutLinkBefore.st_mode));
        const Run r = run(
            analyze(bstest::realdata(kRank), {QStringLiteral("--json"), QStringLiteral("/dev/full"),
                                              QStringLiteral("--report"), QStringLiteral("/dev/stdout")}));
        QCOMPARE(r.code, 4);
        QVERIFY2(r.err.contains(QStringLiteral("cannot write /dev/full: No space left on device")),
                 qPrintable(r.err));
        QVERIFY2(r.out.startsWith("# Anomaly report"),
                 r.out.left(200).constData()); // the report, nothing else
        const struct stat fullAfter = statOf(QStringLiteral("/dev/full"), false);
        QVERIFY(S_ISCHR(fullAfter.st_mode));
        QCOMPARE(fullAfter.st_rdev, fullBefore.st_rdev);
        QCOMPARE(fullAfter.st_ino, fullBefore.st_ino);
        QVERIFY(S_ISLNK(statOf(QStringLiteral("/dev/stdout"), false).st_mode));
        QCOMPARE(leftovers(QStringLiteral("/dev")), QStringList());
    }
    void aFifoReceivesTheJsonAndStaysAFifo() {
        const QString fifo = tmp.filePath(QStringLiteral("out.fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0644), 0);
        QByteArray received;
        std::thread reader([&] {
            const int fd = ::open(QFile::encodeName(fifo).constData(), O_RDONLY);
            if (fd < 0) return;
            char buf[65536];
            for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) != 0;) {
                if (n < 0 && errno == EINTR) continue;
                if (n < 0) break;
                received.append(buf, n);
            }
            ::close(fd);
        });
        const Run r = run(analyze(bstest::realdata(kRank), {QStringLiteral("--json"), fifo}));
        // Unblock the reader if the binary never opened the FIFO (then the asserts below fail).
        if (const int w = ::open(QFile::encodeName(fifo).constData(), O_WRONLY | O_NONBLOCK); w >= 0)
            ::close(w);
        reader.join();
        QCOMPARE(r.code, 0);
        QVERIFY(isJsonObject(received));
        QVERIFY(S_ISFIFO(statOf(fifo, false).st_mode));
        QCOMPARE(leftovers(tmp.path()), QStringList());
    }
    void aDashIsStandardOutputAndReplacesTheTextSummary() {
        const Run r = run(analyze(bstest::realdata(kRank), {QStringLiteral("--json"), QStringLiteral("-")}));
        QCOMPARE(r.code, 0);
        QVERIFY2(isJsonObject(r.out), r.out.left(200).constData());
        QVERIFY(!QFile::exists(QStringLiteral("-")));
        // With --format given too, two things would claim standard output.
        QCOMPARE(run(analyze(bstest::realdata(kRank), {QStringLiteral("--json"), QStringLiteral("-"),
                                                       QStringLiteral("--format"), QStringLiteral("text")}))
                     .code,
                 2);
    }
    void devStdoutRedirectedToAFileIsWrittenInPlaceNotRenamedOver() {
        const QString file = tmp.filePath(QStringLiteral("redirected.json"));
        bstest::writeFile(file, {});
        const ino_t inode = statOf(file).st_ino;
        const Run r =
            run(analyze(bstest::realdata(kRank), {QStringLiteral("--json"), QStringLiteral("/dev/stdout")}),
                {file, {}, QProcessEnvironment::systemEnvironment()});
        QCOMPARE(r.code, 0);
        QCOMPARE(statOf(file).st_ino, inode);
        QVERIFY(isJsonObject(bstest::readFile(file)));
        // The same file named as --json while the shell sends standard output there: refused.
        bstest::writeFile(file, {});
        const Run twice = run(analyze(bstest::realdata(kRank), {QStringLiteral("--json"), file}),
                              {file, {}, QProcessEnvironment::systemEnvironment()});
        QCOMPARE(twice.code, 2);
        QVERIFY2(twice.err.contains(QStringLiteral("is also where standard output is redirected")),
                 qPrintable(twice.err));
    }

    // Item 2 -----------------------------------------------------------------------------------------
    void anOutputThatIsAFileOfTheAnalysedProfileIsRefused() {
        const QString rank = copyRank(tmp.filePath(QStringLiteral("own/rank0_ascend_pt")));
        QVERIFY(!rank.isEmpty());
        const QString trace = rank + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json");
        const QByteArray traceBytes = bstest::readFile(trace);
        const ino_t traceInode = statOf(trace).st_ino;
        Run r = run(analyze(rank, {QStringLiteral("--json"), trace}));
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--json ") + trace + QStringLiteral(" is a file of the profile ") + rank +
                                QStringLiteral("; choose another output.")),
                 qPrintable(r.err));
        // The same file under other names: a symbolic link, a hard link, a path through "..".
        const QString link = tmp.filePath(QStringLiteral("own/link.json"));
        const QString hard = tmp.filePath(QStringLiteral("own/hard.csv"));
        QVERIFY(QFile::link(trace, link));
        QCOMPARE(::link(QFile::encodeName(rank + QStringLiteral("/ASCEND_PROFILER_OUTPUT/kernel_details.csv"))
                            .constData(),
                        QFile::encodeName(hard).constData()),
                 0);
        QCOMPARE(run(analyze(rank, {QStringLiteral("--report"), link})).code, 2);
        QCOMPARE(
            run(analyze(rank + QStringLiteral("/ASCEND_PROFILER_OUTPUT"), {QStringLiteral("--arch"), hard}))
                .code,
            2);
        QCOMPARE(
            run(analyze(rank, {QStringLiteral("--json"),
                               rank + QStringLiteral("/ASCEND_PROFILER_OUTPUT/../profiler_info_0.json")}))
                .code,
            2);
        QCOMPARE(bstest::readFile(trace), traceBytes);
        QCOMPARE(statOf(trace).st_ino, traceInode);
        QVERIFY(S_ISLNK(statOf(link, false).st_mode));
    }
    void aNewFileInsideTheProfileFolderIsWrittenWhenNamed() {
        const QString rank = copyRank(tmp.filePath(QStringLiteral("inside/rank0_ascend_pt")));
        QVERIFY(!rank.isEmpty());
        const Run r = run(analyze(rank, {QStringLiteral("--json"), rank + QStringLiteral("/analysis.json")}));
        QCOMPARE(r.code, 0);
        QVERIFY(isJsonObject(bstest::readFile(rank + QStringLiteral("/analysis.json"))));
        // Our own output beside the profile is not the profile's: the same command runs again.
        const Run again = run(analyze(rank, {QStringLiteral("--json"), rank + QStringLiteral("/analysis.json")}));
        QCOMPARE(again.code, 0);
        // But the profiler's own files beside the output folder are: profiler_info_0.json is refused.
        const Run info = run(analyze(rank, {QStringLiteral("--json"), rank + QStringLiteral("/profiler_info_0.json")}));
        QCOMPARE(info.code, 2);
        QVERIFY2(info.err.contains(QStringLiteral("is a file of the profile ")), qPrintable(info.err));
    }

    // Item 3 -----------------------------------------------------------------------------------------
    void archFolderOverFourRanksWritesFourReportsOnce() {
        const QString out = tmp.filePath(QStringLiteral("arch4"));
        QVERIFY(QDir().mkpath(out));
        const Run r = run(analyze(
            bstest::realdata(QStringLiteral("torch_npu_resnet_ddp")),
            {QStringLiteral("--arch"), out, QStringLiteral("--json"), out + QStringLiteral("/a.json")}));
        QCOMPARE(r.code, 0);
        const QStringList files = QDir(out).entryList(QDir::Files, QDir::Name);
        QCOMPARE(files, QStringList({QStringLiteral("a.level0_rank0_ascend_pt.json"),
                                     QStringLiteral("a.level0_rank1_ascend_pt.json"),
                                     QStringLiteral("a.level1_rank0_ascend_pt.json"),
                                     QStringLiteral("a.level1_rank1_ascend_pt.json"),
                                     QStringLiteral("model_architecture_report_level0_rank0_ascend_pt.md"),
                                     QStringLiteral("model_architecture_report_level0_rank1_ascend_pt.md"),
                                     QStringLiteral("model_architecture_report_level1_rank0_ascend_pt.md"),
                                     QStringLiteral("model_architecture_report_level1_rank1_ascend_pt.md")}));
        for (const QString& f : files)
            QCOMPARE(
                r.err.count(QStringLiteral("wrote ") + out + QStringLiteral("/") + f + QStringLiteral("\n")),
                1);
        QCOMPARE(r.err.count(QStringLiteral("wrote ")), 8);
    }
    void rankNamesThatOnceCollidedGetDistinctFiles() {
        const QString parent = tmp.filePath(QStringLiteral("names"));
        for (const char* n : {"日本_ascend_pt", "中国_ascend_pt", "x/y_ascend_pt", "x_y_ascend_pt"})
            QVERIFY(!copyRank(parent + QStringLiteral("/") + QString::fromUtf8(n)).isEmpty());
        const QString out = tmp.filePath(QStringLiteral("names-out"));
        QVERIFY(QDir().mkpath(out));
        const Run r = run(analyze(parent, {QStringLiteral("--json"), out + QStringLiteral("/a.json")}));
        QCOMPARE(r.code, 0);
        QStringList files = QDir(out).entryList(QDir::Files);
        files.sort();
        QStringList expected{QStringLiteral("a.x_y_ascend_pt-2.json"), QStringLiteral("a.x_y_ascend_pt.json"),
                             QString::fromUtf8("a.中国_ascend_pt.json"),
                             QString::fromUtf8("a.日本_ascend_pt.json")};
        expected.sort();
        QCOMPARE(files, expected);
        for (const QString& f : files) {
            QVERIFY(isJsonObject(bstest::readFile(out + QStringLiteral("/") + f)));
            QCOMPARE(r.err.count(QStringLiteral("wrote ") + out + QStringLiteral("/") + f), 1);
        }
    }
    void theSameOutputTwiceOrAnEmptyNameIsAUsageError() {
        const QString rank = bstest::realdata(kRank);
        const QString a = tmp.filePath(QStringLiteral("twice.json"));
        for (const QStringList& more :
             {QStringList{QStringLiteral("--json"), a, QStringLiteral("--report"), a},
              QStringList{QStringLiteral("--json"), a, QStringLiteral("--arch"),
                          tmp.path() + QStringLiteral("/./twice.json")},
              QStringList{QStringLiteral("--json"), QStringLiteral("-"), QStringLiteral("--report"),
                          QStringLiteral("/dev/stdout")}}) {
            const Run r = run(analyze(rank, more));
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains(QStringLiteral("name the same output")), qPrintable(r.err));
            QVERIFY(r.out.isEmpty());
        }
        QVERIFY(!QFile::exists(a));
        const Run empty = run(analyze(rank, {QStringLiteral("--json"), QString()}));
        QCOMPARE(empty.code, 2);
        QVERIFY(empty.err.contains(QStringLiteral("--json needs a value, not an empty string")));
        // Over several ranks too, before anything is written.
        const QString out = tmp.filePath(QStringLiteral("twice-multi"));
        QVERIFY(QDir().mkpath(out));
        QCOMPARE(run(analyze(bstest::realdata(QStringLiteral("torch_npu_resnet_ddp")),
                             {QStringLiteral("--json"), out + QStringLiteral("/x.md"),
                              QStringLiteral("--report"), out + QStringLiteral("/x.md")}))
                     .code,
                 2);
        QCOMPARE(QDir(out).entryList(QDir::Files), QStringList());
    }
    void formatJsonOverSeveralRanksIsOneDocumentListingEveryRank() {
        const QString parent = tmp.filePath(QStringLiteral("doc"));
        QVERIFY(!copyRank(parent + QStringLiteral("/good_ascend_pt")).isEmpty());
        QVERIFY(QDir().mkpath(parent + QStringLiteral("/broken_ascend_pt/ASCEND_PROFILER_OUTPUT")));
        Run r = run(analyze(parent, {QStringLiteral("--format"), QStringLiteral("json")}));
        QCOMPARE(r.code, 5); // written, but a rank could not be analysed (issue 45, item 7)
        QJsonParseError e{};
        QJsonArray ranks =
            QJsonDocument::fromJson(r.out, &e).object().value(QStringLiteral("ranks")).toArray();
        QCOMPARE(e.error, QJsonParseError::NoError);
        QCOMPARE(ranks.size(), 2);
        QCOMPARE(ranks.at(0).toObject().value(QStringLiteral("label")).toString(),
                 QStringLiteral("broken_ascend_pt"));
        QVERIFY(ranks.at(0)
                    .toObject()
                    .value(QStringLiteral("error"))
                    .toString()
                    .contains(QStringLiteral("Empty output folder")));
        QVERIFY(!ranks.at(0).toObject().contains(QStringLiteral("analysis")));
        QVERIFY(ranks.at(1)
                    .toObject()
                    .value(QStringLiteral("analysis"))
                    .toObject()
                    .contains(QStringLiteral("steps")));
        // The four real ranks.
        r = run(analyze(bstest::realdata(QStringLiteral("torch_npu_resnet_ddp")),
                        {QStringLiteral("--format"), QStringLiteral("json")}));
        QCOMPARE(r.code, 0);
        ranks = QJsonDocument::fromJson(r.out, &e).object().value(QStringLiteral("ranks")).toArray();
        QCOMPARE(e.error, QJsonParseError::NoError);
        QCOMPARE(ranks.size(), 4);
        for (const auto& v : ranks)
            QVERIFY(v.toObject().value(QStringLiteral("analysis")).isObject());
        // A --json stream over several ranks receives the same document.
        r = run(analyze(bstest::realdata(QStringLiteral("torch_npu_resnet_ddp")),
                        {QStringLiteral("--json"), QStringLiteral("-")}));
        QCOMPARE(r.code, 0);
        QCOMPARE(QJsonDocument::fromJson(r.out).object().value(QStringLiteral("ranks")).toArray().size(), 4);
    }

    // Item 4 -----------------------------------------------------------------------------------------
    void aFullStandardOutputIsExitFour() {
        const Run r =
            run(analyze(bstest::realdata(kRank), {QStringLiteral("--format"), QStringLiteral("json")}),
                {QStringLiteral("/dev/full"), {}, QProcessEnvironment::systemEnvironment()});
        QCOMPARE(r.code, 4);
        QVERIFY2(r.err.contains(QStringLiteral("cannot write to standard output: No space left on device")),
                 qPrintable(r.err));
    }
    void standardOutputOnATinyFullFileSystemIsExitFour() {
        // A 16 KiB tmpfs in a private mount namespace (nothing outside sees or keeps it).
        const QString mnt = tmp.filePath(QStringLiteral("tiny"));
        QVERIFY(QDir().mkpath(mnt));
        QProcess p;
        p.start(
            QStringLiteral("unshare"),
            {QStringLiteral("-m"), QStringLiteral("sh"), QStringLiteral("-c"),
             QStringLiteral(
                 "mount -t tmpfs -o size=16k tmpfs \"$1\" || exit 99; \"$2\" analyze \"$3\" --format json "
                 "> \"$1/out.json\"; echo \"rc=$?\"; head -c 1 \"$1/out.json\""),
             QStringLiteral("sh"), mnt, QStringLiteral(BS_BINARY), bstest::realdata(kRank)});
        if (!p.waitForStarted()) QSKIP("no unshare here; aFullStandardOutputIsExitFour covers it");
        QVERIFY(p.waitForFinished(120000));
        if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
            QSKIP("no private tmpfs here (unshare/mount not permitted); aFullStandardOutputIsExitFour covers "
                  "it");
        const QByteArray out = p.readAllStandardOutput();
        QVERIFY2(out.startsWith("rc=4\n{"), out.constData()); // a truncated document, and the run says so
        QVERIFY(
            p.readAllStandardError().contains("cannot write to standard output: No space left on device"));
    }
    void anExistingFileKeepsItsModeAndANewOneFollowsTheUmask() {
        const QString old = tmp.filePath(QStringLiteral("private.json"));
        bstest::writeFile(old, "old");
        QVERIFY(QFile::setPermissions(old, QFile::ReadOwner | QFile::WriteOwner));
        QCOMPARE(run(analyze(bstest::realdata(kRank), {QStringLiteral("--json"), old})).code, 0);
        QCOMPARE(statOf(old).st_mode & 07777, mode_t(0600));
        QVERIFY(isJsonObject(bstest::readFile(old)));
        const mode_t mask = ::umask(022);
        ::umask(mask);
        const QString fresh = tmp.filePath(QStringLiteral("fresh.json"));
        QCOMPARE(run(analyze(bstest::realdata(kRank), {QStringLiteral("--json"), fresh})).code, 0);
        QCOMPARE(statOf(fresh).st_mode & 07777, mode_t(0666 & ~mask));
    }
    void aTwoHundredFiftyCharacterNameIsWrittenDespiteTheTempSuffix() {
        const QString dir = tmp.filePath(QStringLiteral("long"));
        QVERIFY(QDir().mkpath(dir));
        const QString name = QString(245, QLatin1Char('n')) + QStringLiteral(".json");
        QCOMPARE(name.size(), 250);
        const Run r = run(
            analyze(bstest::realdata(kRank), {QStringLiteral("--json"), dir + QStringLiteral("/") + name}));
        QCOMPARE(r.code, 0);
        QVERIFY(isJsonObject(bstest::readFile(dir + QStringLiteral("/") + name)));
        QCOMPARE(QDir(dir).entryList(QDir::Files | QDir::Hidden), QStringList{name});
        // Past NAME_MAX it is the name itself that cannot be: exit 4 before anything is written.
        const Run tooLong = run(
            analyze(bstest::realdata(kRank),
                    {QStringLiteral("--json"), dir + QStringLiteral("/") + QString(256, QLatin1Char('n'))}));
        QCOMPARE(tooLong.code, 4);
        QVERIFY2(tooLong.err.contains(QStringLiteral("the file name is longer than 255 bytes")),
                 qPrintable(tooLong.err));
        QVERIFY(tooLong.out.isEmpty());
    }


    // Issue 45, item 1: every writer of every command, one by one, on a profile's file ----------------
    void everyWriterOfEveryCommandRefusesAProfilesFile() {
        const QString parent = copyCollection(tmp.filePath(QStringLiteral("guard/job")));
        QVERIFY(!parent.isEmpty());
        const QString r0 = parent + QStringLiteral("/rank0_ascend_pt");
        const QString out0 = r0 + QStringLiteral("/ASCEND_PROFILER_OUTPUT");
        const QString trace = out0 + QStringLiteral("/trace_view.json");
        const QString kernels = out0 + QStringLiteral("/kernel_details.csv");
        const QString steps = out0 + QStringLiteral("/step_trace_time.csv");
        const QString comm = out0 + QStringLiteral("/communication.json");
        const QString a = QStringLiteral("analyze"), c = QStringLiteral("cluster");
        refusesAndKeeps({a, r0, QStringLiteral("--summary"), trace}, trace, QStringLiteral("--summary"));
        refusesAndKeeps({a, parent, QStringLiteral("--cluster-report"), kernels}, kernels, QStringLiteral("--cluster-report"));
        refusesAndKeeps({a, parent, QStringLiteral("--cluster-json"), comm}, comm, QStringLiteral("--cluster-json"));
        refusesAndKeeps({c, parent, QStringLiteral("--json"), trace}, trace, QStringLiteral("--json"));
        refusesAndKeeps({c, parent, QStringLiteral("--report"), steps}, steps, QStringLiteral("--report"));
        // A profile that is not the one being analysed is protected too: the guard knows profiles by their
        // shape, not by the command's inputs.
        const QString sample = QStringLiteral(BS_SOURCE_DIR "/resources/sample/sample_ascend_pt");
        refusesAndKeeps({a, sample, QStringLiteral("--json"), trace}, trace, QStringLiteral("--json"));
        refusesAndKeeps({a, sample, QStringLiteral("--report"), steps}, steps, QStringLiteral("--report"));
        refusesAndKeeps({a, sample, QStringLiteral("--arch"), kernels}, kernels, QStringLiteral("--arch"));
        // The merge of summaries, with --expect naming the collection, directly and through a symbolic link.
        const QString sums = tmp.filePath(QStringLiteral("guard/sums"));
        const Run wrote = run({a, parent, QStringLiteral("--summary"), sums});
        QVERIFY2(wrote.code == 0, qPrintable(wrote.err));
        refusesAndKeeps({c, sums, QStringLiteral("--expect"), parent, QStringLiteral("--json"), trace}, trace,
                        QStringLiteral("--json"));
        const QString link = tmp.filePath(QStringLiteral("guard/innocent.json"));
        QVERIFY(QFile::link(trace, link));
        refusesAndKeeps({c, sums, QStringLiteral("--expect"), parent, QStringLiteral("--report"), link}, trace,
                        QStringLiteral("--report"));
        // compare, onto a third profile's file.
        refusesAndKeeps({QStringLiteral("compare"), sample, parent + QStringLiteral("/rank1_ascend_pt"), QStringLiteral("--json"), comm}, comm,
                        QStringLiteral("--json"));
        // The window's picture: a file inside a rank folder, whatever its name.
        const QString picture = r0 + QStringLiteral("/FRAMEWORK/timeline.png");
        QVERIFY(QDir().mkpath(r0 + QStringLiteral("/FRAMEWORK")));
        { QFile f(picture); QVERIFY(f.open(QIODevice::WriteOnly)); f.write("not ours"); }
        refusesAndKeeps({QStringLiteral("screenshot"), sample, QStringLiteral("--out"), picture}, picture,
                        QStringLiteral("--out"));
        // The profiler's own files at the top of a rank folder: profiler_info.
        const QString info = r0 + QStringLiteral("/profiler_info_0.json");
        refusesAndKeeps({a, sample, QStringLiteral("--json"), info}, info, QStringLiteral("--json"));
        // A loose folder (the data files alone, in a folder named like nothing): its data files and their
        // neighbours, not its other files.
        const QString loose = tmp.filePath(QStringLiteral("guard/loose"));
        QVERIFY(QDir().mkpath(loose));
        for (const char* f : {"kernel_details.csv", "communication.json"})
            QVERIFY(QFile::copy(out0 + QLatin1Char('/') + QLatin1String(f), loose + QLatin1Char('/') + QLatin1String(f)));
        refusesAndKeeps({a, sample, QStringLiteral("--report"), loose + QStringLiteral("/communication.json")},
                        loose + QStringLiteral("/communication.json"), QStringLiteral("--report"));
        bstest::writeFile(loose + QStringLiteral("/notes.md"), "ours");
        QCOMPARE(run({a, sample, QStringLiteral("--report"), loose + QStringLiteral("/notes.md")}).code, 0);
    }
    void theMergeRefusesToWriteOverOneOfItsSummaries() {
        const QString parent = copyCollection(tmp.filePath(QStringLiteral("guard2/job")));
        QVERIFY(!parent.isEmpty());
        const QString sums = tmp.filePath(QStringLiteral("guard2/sums"));
        QCOMPARE(run({QStringLiteral("analyze"), parent, QStringLiteral("--summary"), sums}).code, 0);
        const QStringList files = QDir(sums).entryList({QStringLiteral("*.summary.json")}, QDir::Files);
        QCOMPARE(files.size(), 2);
        const QString victim = sums + QLatin1Char('/') + files.first();
        const QByteArray before = bstest::readFile(victim);
        const Run r = run({QStringLiteral("cluster"), sums, QStringLiteral("--json"), victim});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("is one of the files being read")), qPrintable(r.err));
        QCOMPARE(bstest::readFile(victim), before);
    }
    // Our own outputs beside a rank (not the profiler's) are still ours to replace, and a loose folder's
    // neighbours that are not profile files too.
    void ourOwnOutputsBesideAProfileAreReplacedAsBefore() {
        const QString parent = copyCollection(tmp.filePath(QStringLiteral("guard3/job")));
        QVERIFY(!parent.isEmpty());
        const QString sample = QStringLiteral(BS_SOURCE_DIR "/resources/sample/sample_ascend_pt");
        for (const QString& name : {parent + QStringLiteral("/cluster.json"), parent + QStringLiteral("/rank0_ascend_pt/analysis.json")}) {
            QCOMPARE(run({QStringLiteral("analyze"), sample, QStringLiteral("--json"), name}).code, 0);
            QCOMPARE(run({QStringLiteral("analyze"), sample, QStringLiteral("--json"), name}).code, 0);
            QVERIFY(isJsonObject(bstest::readFile(name)));
        }
    }

    // Item 5 -----------------------------------------------------------------------------------------
    void anUnknownCommandIsAUsageErrorWithoutTouchingTheDisplay() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"),
                   QStringLiteral("xcb")); // would abort if a window were made
        const Run r =
            run({QStringLiteral("frobnicate"), QStringLiteral("a"), QStringLiteral("b")}, {{}, tmp.path(), env});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("unknown command 'frobnicate'")), qPrintable(r.err));
        QVERIFY(r.err.contains(QStringLiteral("commands: analyze")));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
    }

    // Issue 45, item 5: the window starts only with no argument, one PATH, or Qt's own options. Without a
    // display and with the xcb platform forced, a window would abort: a usage error must come first.
    void optionsWithoutACommandAreAUsageErrorNotAWindow_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("said");
        const QString sample = QStringLiteral(BS_SOURCE_DIR "/resources/sample/sample_ascend_pt");
        QTest::newRow("-x") << QStringList{QStringLiteral("-x")} << QStringLiteral("unknown option '-x'");
        QTest::newRow("--frobnicate") << QStringList{QStringLiteral("--frobnicate")}
                                      << QStringLiteral("unknown option '--frobnicate'");
        QTest::newRow("-q") << QStringList{QStringLiteral("-q"), sample} << QStringLiteral("unknown option '-q'");
        QTest::newRow("--json without analyze")
            << QStringList{QStringLiteral("--json"), QStringLiteral("o.json"), sample}
            << QStringLiteral("bubblescope analyze PATH --json FILE");
        QTest::newRow("two paths") << QStringList{sample, sample} << QStringLiteral("the window opens one PATH");
        QTest::newRow("-style without its value") << QStringList{QStringLiteral("-style")}
                                                  << QStringLiteral("-style needs a value");
    }
    void optionsWithoutACommandAreAUsageErrorNotAWindow() {
        QFETCH(QStringList, args);
        QFETCH(QString, said);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
        const Run r = run(args, {{}, tmp.path(), env});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(said), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY(!QFile::exists(tmp.filePath(QStringLiteral("o.json"))));
    }
    // Issue 45, item 8: help, version and the rank list on a full standard output are a write failure.
    void helpVersionAndTheRankListOnAFullStandardOutputAreExitFour() {
        QVERIFY(QFile::exists(QStringLiteral("/dev/full")));
        const QString parent = copyCollection(tmp.filePath(QStringLiteral("full/job")));
        QVERIFY(!parent.isEmpty());
        const QList<QStringList> commands{{QStringLiteral("--help")}, {QStringLiteral("--version")},
                                          {QStringLiteral("analyze"), QStringLiteral("--help")},
                                          {QStringLiteral("cluster"), QStringLiteral("-h")},
                                          {QStringLiteral("analyze"), parent, QStringLiteral("--list-ranks")}};
        for (const QStringList& args : commands) {
            const Run r = run(args, {QStringLiteral("/dev/full"), {}, QProcessEnvironment::systemEnvironment()});
            QVERIFY2(r.code == 4, qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(": ") + QString::number(r.code)));
            QVERIFY2(r.err.contains(QStringLiteral("No space left on device")), qPrintable(r.err));
        }
    }
    void doubleDashEndsOptionsForAFolderNamedLikeAnOption() {
        QVERIFY(!copyRank(tmp.filePath(QStringLiteral("dash/-x"))).isEmpty());
        const RunOptions inDash{
            {}, tmp.filePath(QStringLiteral("dash")), QProcessEnvironment::systemEnvironment()};
        const Run r = run({QStringLiteral("analyze"), QStringLiteral("--format"), QStringLiteral("json"),
                           QStringLiteral("--"), QStringLiteral("-x")},
                          inDash);
        QCOMPARE(r.code, 0);
        QVERIFY(isJsonObject(r.out));
        const Run without = run({QStringLiteral("analyze"), QStringLiteral("-x")}, inDash);
        QCOMPARE(without.code, 2);
        QVERIFY(without.err.contains(QStringLiteral("unknown option '-x'")));
    }
};

QTEST_GUILESS_MAIN(OutputPathsTest)
#include "tst_output_paths.moc"
