// Folder discovery: every way a user may point at profiling data.
#include "i18n/message.h"
#include "io/discovery.h"
#include "test_support.h"

#include <QTemporaryDir>

class TstDiscovery : public QObject {
    Q_OBJECT
    const QString l1 = QStringLiteral("torch_npu_resnet_ddp/level1");

    static QString rootOf(const bs::DiscoveryResult& r, std::size_t i = 0) {
        return i < r.ranks.size() ? QString::fromStdString(r.ranks[i].root) : QString();
    }

  private slots:
    void initTestCase() { QVERIFY(bstest::requireRealdata()); }
    void rankFolderOutputFolderAndAFileInsideAllResolveToTheRank() {
        const QString rank = bstest::realdata(l1 + QStringLiteral("/rank0_ascend_pt"));
        for (const QString& p : {rank, rank + QStringLiteral("/ASCEND_PROFILER_OUTPUT"),
                                 rank + QStringLiteral("/ASCEND_PROFILER_OUTPUT/kernel_details.csv"),
                                 rank + QStringLiteral("/profiler_info_0.json")}) {
            auto r = bs::discoverProfiles(bstest::s(p));
            QCOMPARE(r.ranks.size(), std::size_t(1));
            QCOMPARE(rootOf(r), rank);
            QCOMPARE(r.ranks[0].layout, std::string("torch_npu"));
            QCOMPARE(QString::fromStdString(r.ranks[0].outputDir),
                     rank + QStringLiteral("/ASCEND_PROFILER_OUTPUT"));
        }
    }
    void parentOfSeveralRanksListsEachRank() {
        auto r = bs::discoverProfiles(bstest::s(bstest::realdata(QStringLiteral("torch_npu_resnet_ddp"))));
        QCOMPARE(r.ranks.size(), std::size_t(4));
        QCOMPARE(r.ranks[0].label, std::string("level0/rank0_ascend_pt"));
        QCOMPARE(r.ranks[3].label, std::string("level1/rank1_ascend_pt"));
        // The whole of realdata holds at least the ranks of the sets named here (4 resnet + 1 msprof + 3
        // legacy folders), each under its own label; other sets may be added beside them.
        auto all = bs::discoverProfiles(bstest::s(bstest::realdata()));
        std::size_t named = 0;
        for (const char* set : {"torch_npu_resnet_ddp", "msprof_vllm_ascend", "torch_npu_legacy_2024"}) {
            auto one = bs::discoverProfiles(bstest::s(bstest::realdata(QString::fromLatin1(set))));
            named += one.ranks.size();
            for (const auto& rk : one.ranks) {
                bool seen = false;
                for (const auto& x : all.ranks)
                    seen = seen || x.root == rk.root;
                QVERIFY2(seen, rk.root.c_str());
            }
        }
        QCOMPARE(named, std::size_t(8));
        QVERIFY(all.ranks.size() >= named);
    }
    void msprofFolderAndItsOutputFolder() {
        const QString prof = bstest::realdata(
            QStringLiteral("msprof_vllm_ascend/PROF_000001_20260823165326062_00625538CIGQAHCJ"));
        for (const QString& p :
             {prof, prof + QStringLiteral("/mindstudio_profiler_output"),
              prof + QStringLiteral("/mindstudio_profiler_output/msprof_20260823165334.json")}) {
            auto r = bs::discoverProfiles(bstest::s(p));
            QCOMPARE(r.ranks.size(), std::size_t(1));
            QCOMPARE(rootOf(r), prof);
            QCOMPARE(r.ranks[0].layout, std::string("msprof"));
        }
        auto files = bs::listRankFiles(bs::discoverProfiles(bstest::s(prof)).ranks[0]);
        QCOMPARE(files.opSummary.size(), std::size_t(1));
        QCOMPARE(files.taskTime.size(), std::size_t(1));
        QCOMPARE(files.msprofJson.size(), std::size_t(1));
        QVERIFY(!files.opStatistic.empty());
    }
    void missingEmptyAndUnrelatedFoldersGiveOneClearSentence() {
        auto missing = bs::discoverProfiles("/nonexistent/bubblescope/path");
        QVERIFY(missing.ranks.empty());
        QVERIFY(bs::english(missing.error).find("does not exist") != std::string::npos);
        QTemporaryDir tmp;
        auto empty = bs::discoverProfiles(bstest::s(tmp.path()));
        QVERIFY(empty.ranks.empty());
        QVERIFY(bs::english(empty.error).find("holds no Ascend profiling data") != std::string::npos);
        bstest::writeFile(tmp.filePath(QStringLiteral("notes/readme.txt")), "hello");
        bstest::writeFile(tmp.filePath(QStringLiteral("data.csv")), "a,b\n1,2\n");
        auto unrelated = bs::discoverProfiles(bstest::s(tmp.path()));
        QVERIFY(unrelated.ranks.empty());
    }
    void rankFolderWithEmptyOutputIsStillARank() {
        QTemporaryDir tmp;
        QDir().mkpath(tmp.filePath(QStringLiteral("job_ascend_pt/ASCEND_PROFILER_OUTPUT")));
        auto r = bs::discoverProfiles(bstest::s(tmp.path()));
        QCOMPARE(r.ranks.size(), std::size_t(1));
        QCOMPARE(r.ranks[0].label, std::string("job_ascend_pt"));
    }
    void ranksAreListedInNaturalOrder() {
        QTemporaryDir tmp;
        for (const char* n : {"job_rank10_ascend_pt", "job_rank2_ascend_pt", "job_rank1_ascend_pt", "job_rank02b_ascend_pt"})
            QDir().mkpath(tmp.filePath(QString::fromLatin1(n) + QStringLiteral("/ASCEND_PROFILER_OUTPUT")));
        const auto r = bs::discoverProfiles(bstest::s(tmp.path()));
        std::vector<std::string> labels;
        for (const auto& x : r.ranks)
            labels.push_back(x.label);
        // 1 < 2 < 02b (same number, then "_" < "b" byte order) < 10; plain byte order would put rank10 second.
        const std::vector<std::string> want{"job_rank1_ascend_pt", "job_rank2_ascend_pt", "job_rank02b_ascend_pt",
                                            "job_rank10_ascend_pt"};
        QCOMPARE(labels, want);
    }
    void symlinkLoopsAreNotFollowed() {
        QTemporaryDir tmp;
        QDir().mkpath(tmp.filePath(QStringLiteral("a/b")));
        QVERIFY(QFile::link(tmp.filePath(QStringLiteral("a")), tmp.filePath(QStringLiteral("a/b/loop"))));
        auto r = bs::discoverProfiles(bstest::s(tmp.path()));
        QVERIFY(r.ranks.empty());
    }
};

QTEST_APPLESS_MAIN(TstDiscovery)
#include "tst_discovery.moc"
