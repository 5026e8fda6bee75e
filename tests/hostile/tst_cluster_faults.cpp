// The cluster path under faults (issue 45, item 7): a rank whose folder cannot be read is named with the
// real error and the run ends with exit 5, in `analyze PARENT`, `cluster PARENT` and the merge of
// summaries; a rank whose trace cannot be read says so in the cluster output too.
// Permissions are what a user meets; root is not stopped by them, so as root the binary runs as nobody
// (setpriv), from a copy in the test's folder (the build tree may not be reachable by nobody).
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

struct Run {
    int code = -1;
    QString out, err;
};

class ClusterFaultsTest : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    QString binary; // the binary nobody can run
    QString parent; // a copy of the real two-rank collection, rank1 to be broken per case

    Run run(const QStringList& args) {
        QProcess p;
        if (::geteuid() == 0)
            p.start(QStringLiteral("setpriv"),
                    QStringList{QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
                                QStringLiteral("--clear-groups"), binary} +
                        args);
        else
            p.start(binary, args);
        if (!p.waitForFinished(120000)) {
            p.kill();
            p.waitForFinished();
            return {};
        }
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
    }

    // Everything under `dir` readable (and its folders enterable and writable) by anyone.
    static void openUp(const QString& dir) {
        std::error_code ec;
        fs::permissions(dir.toStdString(), fs::perms::all, ec);
        for (auto it = fs::recursive_directory_iterator(dir.toStdString(), ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
            fs::permissions(it->path(), it->is_directory() ? fs::perms::all : fs::perms(0666), ec);
    }

    QString rank1() const { return parent + QStringLiteral("/rank1_ascend_pt"); }

  private slots:
    void initTestCase() {
        QVERIFY(tmp.isValid());
        QVERIFY(bstest::requireRealdata());
        const QString bin = tmp.filePath(QStringLiteral("bin"));
        QVERIFY(QDir().mkpath(bin));
        binary = bin + QStringLiteral("/bubblescope");
        QVERIFY(QFile::copy(QStringLiteral(BS_BINARY), binary));
        parent = tmp.filePath(QStringLiteral("job"));
        std::error_code ec;
        fs::copy(bstest::realdata(QStringLiteral("torch_npu_resnet_ddp/level1")).toStdString(),
                 parent.toStdString(), fs::copy_options::recursive, ec);
        QVERIFY(!ec);
        fs::permissions(bin.toStdString(), fs::perms(0755));
        QVERIFY(QFile::setPermissions(binary, QFileDevice::ReadOwner | QFileDevice::ExeOwner |
                                                  QFileDevice::ReadOther | QFileDevice::ExeOther |
                                                  QFileDevice::ReadGroup | QFileDevice::ExeGroup));
    }
    void init() {
        openUp(parent);
        fs::permissions(tmp.path().toStdString(), fs::perms::all);
    }

    void aRankFolderThatCannotBeListedIsNamedWithTheErrorAndExitFive() {
        QVERIFY(QFile::setPermissions(rank1(), {}));
        const QString denied =
            QStringLiteral("cannot open the folder ") + rank1() + QStringLiteral(": Permission denied");
        const Run analyze = run({QStringLiteral("analyze"), parent});
        QCOMPARE(analyze.code, 5);
        QVERIFY2(analyze.err.contains(denied), qPrintable(analyze.err));
        QVERIFY2(!analyze.err.contains(QStringLiteral("prof.step()")), qPrintable(analyze.err));
        QVERIFY2(analyze.out.contains(QStringLiteral("rank0_ascend_pt")),
                 qPrintable(analyze.out)); // the other rank
        const Run cluster = run({QStringLiteral("cluster"), parent});
        QCOMPARE(cluster.code, 5);
        QVERIFY2(cluster.err.contains(denied), qPrintable(cluster.err));
        // The job array's way: one summary per rank, then the merge.
        const QString sums = tmp.filePath(QStringLiteral("sums"));
        QVERIFY(QDir().mkpath(sums));
        fs::permissions(sums.toStdString(), fs::perms::all);
        const Run shard = run({QStringLiteral("analyze"), parent, QStringLiteral("--shard"),
                               QStringLiteral("1/2"), QStringLiteral("--summary"), sums});
        QCOMPARE(shard.code, 3); // its only rank could not be read
        QVERIFY2(shard.err.contains(denied), qPrintable(shard.err));
        QCOMPARE(run({QStringLiteral("analyze"), parent, QStringLiteral("--shard"), QStringLiteral("0/2"),
                      QStringLiteral("--summary"), sums})
                     .code,
                 0);
        const Run merged = run({QStringLiteral("cluster"), sums});
        QCOMPARE(merged.code, 5);
        QVERIFY2(merged.out.contains(denied), qPrintable(merged.out));
    }
    // A trace that cannot be read: the rank is analysed from its kernel table, and the cluster output says
    // what it was analysed without — directly and through the summaries, in the same words.
    void anUnreadableTraceIsADataQualityFindingOfTheCluster() {
        const QString trace = rank1() + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json");
        QVERIFY(QFile::setPermissions(trace, {}));
        const QString said = QStringLiteral("(rank1_ascend_pt) was analysed without part of its data: ") +
                             trace + QStringLiteral(": cannot open ") + trace +
                             QStringLiteral(": Permission denied");
        const QString json = tmp.filePath(QStringLiteral("direct.json"));
        const Run direct = run({QStringLiteral("analyze"), parent, QStringLiteral("--cluster-json"), json});
        QCOMPARE(direct.code, 0);
        QVERIFY2(direct.out.contains(said), qPrintable(direct.out.right(3000)));
        const QByteArray doc = bstest::readFile(json);
        QVERIFY2(doc.contains("\"rank_data_quality\""), doc.left(2000).constData());
        const QString sums = tmp.filePath(QStringLiteral("sums-trace"));
        QVERIFY(QDir().mkpath(sums));
        fs::permissions(sums.toStdString(), fs::perms::all);
        QCOMPARE(run({QStringLiteral("analyze"), parent, QStringLiteral("--summary"), sums}).code, 0);
        const QString merged = tmp.filePath(QStringLiteral("merged.json"));
        const Run merge = run({QStringLiteral("cluster"), sums, QStringLiteral("--json"), merged});
        QCOMPARE(merge.code, 0);
        QVERIFY2(merge.out.contains(said), qPrintable(merge.out.right(3000)));
        QCOMPARE(bstest::readFile(merged), doc); // the same bytes either way
    }
};

} // namespace

QTEST_GUILESS_MAIN(ClusterFaultsTest)
#include "tst_cluster_faults.moc"
