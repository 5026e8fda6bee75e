// Layers and architecture against generated profiles of known structure (expected.json), a corrupted
// profile, and the real ResNet captures (pattern fallback).
#include "test_support.h"
#include "analysis/analysis_run.h"
#include "io/profile_loader.h"
#include "report/architecture_report.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run {
    bs::LoadResult load;
    bs::AnalysisResult r;
    QJsonObject expected;
};

} // namespace

class TstArchitecture : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;

    QString generate(const QString& name, QStringList args) {
        const QString out = tmp.filePath(name);
        args << QStringLiteral("--out") << out << QStringLiteral("--name") << name
             << QStringLiteral("--quiet");
        QProcess p;
        p.start(QStringLiteral(BS_SYNTH), args);
        if (!p.waitForFinished(120000) || p.exitCode() != 0) return {};
        return out;
    }
    Run analyzeDir(const QString& out, const QString& name) {
        Run run;
        auto found = bs::discoverProfiles(
            (out + QLatin1Char('/') + name + QStringLiteral("_ascend_pt")).toStdString());
        if (found.ranks.size() != 1) return run;
        run.load = bs::loadRank(found.ranks[0]);
        run.r = bs::analyzeProfile(*run.load.profile);
        run.expected = QJsonDocument::fromJson(bstest::readFile(out + QStringLiteral("/expected.json"))).object();
        return run;
    }
    // The recovered structure equals the generator's: layers per pass, pass count, types and ranges.
    void checkAgainstExpected(const Run& run) {
        const auto& a = run.r.architecture;
        const QJsonObject m = run.expected.value(QStringLiteral("model")).toObject();
        QCOMPARE(a.marker, std::string("FusedInferAttentionScore"));
        QCOMPARE(a.layersPerPass, m.value(QStringLiteral("layers_per_pass")).toInt());
        QCOMPARE(static_cast<int>(a.passes.size()), m.value(QStringLiteral("passes_total")).toInt());
        QVERIFY(a.passCountConsistent);
        for (const auto& ps : a.passes)
            QCOMPARE(static_cast<int>(ps.markerCount), a.layersPerPass);
        const QJsonArray types = m.value(QStringLiteral("layer_types")).toArray();
        QCOMPARE(static_cast<int>(a.types.size()), static_cast<int>(types.size()));
        for (int i = 0; i < types.size(); ++i) {
            const QJsonObject t = types.at(i).toObject();
            QCOMPARE(QString::fromStdString(a.types[static_cast<std::size_t>(i)].type),
                     t.value(QStringLiteral("type")).toString());
            QCOMPARE(a.types[static_cast<std::size_t>(i)].ranges.size(), std::size_t(1));
            QCOMPARE(a.types[static_cast<std::size_t>(i)].ranges[0].first,
                     t.value(QStringLiteral("first")).toInt());
            QCOMPARE(a.types[static_cast<std::size_t>(i)].ranges[0].second,
                     t.value(QStringLiteral("last")).toInt());
            QCOMPARE(static_cast<int>(a.types[static_cast<std::size_t>(i)].count),
                     t.value(QStringLiteral("count")).toInt());
        }
        QCOMPARE(a.crossCheckMismatches, std::size_t(0));
        int prefill = 0, decode = 0;
        for (const auto& ps : a.passes)
            (ps.phase == "prefill" ? prefill : decode)++;
        const int steps = m.value(QStringLiteral("steps")).toInt();
        QCOMPARE(prefill, steps * m.value(QStringLiteral("prefill_passes_per_step")).toInt());
        QCOMPARE(decode, steps * m.value(QStringLiteral("decode_passes_per_step")).toInt());
    }

  private slots:
    void deepSeekLikeModelIsRecovered() {
        // 3 dense + 58 MoE+DFC + 1 MoE+GMM layers, prefill and decode passes.
        const QString out =
            generate(QStringLiteral("ds"),
                     {QStringLiteral("--dense"), QStringLiteral("3"), QStringLiteral("--dfc"),
                      QStringLiteral("58"), QStringLiteral("--gmm"), QStringLiteral("1"),
                      QStringLiteral("--prefill"), QStringLiteral("1"), QStringLiteral("--decode"),
                      QStringLiteral("3"), QStringLiteral("--steps"), QStringLiteral("2")});
        QVERIFY(!out.isEmpty());
        auto run = analyzeDir(out, QStringLiteral("ds"));
        checkAgainstExpected(run);
        QCOMPARE(run.r.architecture.layersPerPass, 62);
        // Communication overlap share equals the generator's construction (±1 %).
        const double expected = run.expected.value(QStringLiteral("comm_overlap_share")).toDouble();
        QVERIFY(expected > 0.05);
        QVERIFY2(
            std::abs(run.r.architecture.commOverlapShare - expected) <= 0.01,
            qPrintable(QStringLiteral("%1 vs %2").arg(run.r.architecture.commOverlapShare).arg(expected)));
        const std::string report = bs::renderArchitectureReport(*run.load.profile, run.r);
        for (int s = 1; s <= 10; ++s)
            QVERIFY2(report.find("## " + std::to_string(s) + ". ") != std::string::npos,
                     std::to_string(s).c_str());
        QVERIFY(report.find("| MoE+DFC | L3–L60 | 58 |") != std::string::npos);
        QVERIFY(report.find("├─") != std::string::npos && report.find("└─") != std::string::npos);
    }
    void otherShapesAreRecovered_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("dense-only") << QStringList{QStringLiteral("--dense"), QStringLiteral("4"),
                                                   QStringLiteral("--dfc"),   QStringLiteral("0"),
                                                   QStringLiteral("--gmm"),   QStringLiteral("0")};
        QTest::newRow("gmm-only") << QStringList{QStringLiteral("--dense"), QStringLiteral("0"),
                                                 QStringLiteral("--dfc"),   QStringLiteral("0"),
                                                 QStringLiteral("--gmm"),   QStringLiteral("3")};
        QTest::newRow("one-pass") << QStringList{QStringLiteral("--prefill"), QStringLiteral("1"),
                                                 QStringLiteral("--decode"),  QStringLiteral("0"),
                                                 QStringLiteral("--steps"),   QStringLiteral("1")};
        QTest::newRow("no-decode") << QStringList{QStringLiteral("--prefill"), QStringLiteral("2"),
                                                  QStringLiteral("--decode"), QStringLiteral("0")};
    }
    void otherShapesAreRecovered() {
        QFETCH(QStringList, args);
        const QString name = QStringLiteral("v") + QString::number(qHash(args.join(QLatin1Char(' '))));
        const QString out = generate(name, args);
        QVERIFY(!out.isEmpty());
        auto run = analyzeDir(out, name);
        checkAgainstExpected(run);
        const std::string report = bs::renderArchitectureReport(*run.load.profile, run.r);
        for (int s = 1; s <= 10; ++s)
            QVERIFY(report.find("## " + std::to_string(s) + ". ") != std::string::npos);
        if (!run.r.architecture.hasDecode) QVERIFY(report.find("no decode pass") != std::string::npos);
        if (run.r.architecture.passes.size() == 1) QVERIFY(report.find("one pass only") != std::string::npos);
    }
    void aMissingDfcKernelShowsAsMismatch() {
        const QString out =
            generate(QStringLiteral("corrupt"), {QStringLiteral("--steps"), QStringLiteral("2")});
        const QString csv =
            out + QStringLiteral("/corrupt_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv");
        QByteArray text = bstest::readFile(csv);
        const int at = text.indexOf("aclnnDispatchFFNCombine");
        QVERIFY(at > 0);
        const int lineStart = text.lastIndexOf('\n', at) + 1;
        const int lineEnd = text.indexOf('\n', at) + 1;
        text.remove(lineStart, lineEnd - lineStart);
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
        f.close();
        auto run = analyzeDir(out, QStringLiteral("corrupt"));
        const auto& a = run.r.architecture;
        QCOMPARE(a.crossCheckMismatches, std::size_t(1));
        bool shown = false;
        for (const auto& c : a.crossCheck)
            if (c.mismatch)
                shown = c.pass == 0 && c.why.find("DispatchFFNCombine count 3 where most passes have 4") !=
                                           std::string::npos;
        QVERIFY(shown);
        const std::string report = bs::renderArchitectureReport(*run.load.profile, run.r);
        QVERIFY(report.find("**MISMATCH**") != std::string::npos);
    }
    void fourClocksOfBlocksAndSides() {
        const QString out =
            generate(QStringLiteral("clocks"), {QStringLiteral("--anomalies"), QStringLiteral("launch-lag")});
        auto run = analyzeDir(out, QStringLiteral("clocks"));
        const auto& st = run.r.architecture.structures;
        QVERIFY(!st.empty());
        bool sumAboveWall = false, wallAboveBusy = false;
        for (const auto& s : st) {
            // kernel_sum > wall where communication on its own stream runs beside compute.
            if (s.all.kernelSum > s.all.wall && s.side.kernels > 0) sumAboveWall = true;
            // wall > busy union where the structure holds a bubble (the planted launch lag).
            if (s.internalBubbles > 500000) {
                QVERIFY(s.all.wall > s.all.busyUnion);
                QCOMPARE(s.all.wall - s.all.busyUnion, s.internalBubbles);
                wallAboveBusy = true;
            }
            QCOMPARE(s.all.kernels, s.block.kernels + s.side.kernels);
            QCOMPARE(s.all.kernelSum, s.block.kernelSum + s.side.kernelSum);
            QVERIFY(s.all.totalCost >= s.all.kernelSum);
            QVERIFY(s.all.busyUnion <= s.all.wall);
        }
        QVERIFY(sumAboveWall);
        QVERIFY(wallAboveBusy);
    }
    void realResnetFallsBackToPatternStructures() {
        for (const char* rank : {"level1/rank0_ascend_pt", "level0/rank1_ascend_pt"}) {
            auto found = bs::discoverProfiles(std::string(BS_REALDATA_DIR "/torch_npu_resnet_ddp/") + rank);
            QCOMPARE(found.ranks.size(), std::size_t(1));
            auto load = bs::loadRank(found.ranks[0]);
            auto r = bs::analyzeProfile(*load.profile);
            const auto& a = r.architecture;
            QVERIFY(a.marker.empty());
            QCOMPARE(a.markerSource, std::string("repeating kernel pattern"));
            std::size_t blocks = 0;
            for (const auto& s : a.structures)
                blocks += s.type == "pattern block";
            QVERIFY(blocks >= 3);
            const std::string rep = bs::renderArchitectureReport(*load.profile, r);
            for (int s = 1; s <= 10; ++s)
                QVERIFY(rep.find("## " + std::to_string(s) + ". ") != std::string::npos);
            const auto s2 = rep.substr(rep.find("## 2."), rep.find("## 3.") - rep.find("## 2."));
            const auto s4 = rep.substr(rep.find("## 4."), rep.find("## 5.") - rep.find("## 4."));
            QVERIFY(s2.find("pattern-based fallback") != std::string::npos);
            QVERIFY(s4.find("Pattern-based structures") != std::string::npos);
        }
    }
};

QTEST_GUILESS_MAIN(TstArchitecture)
#include "tst_architecture.moc"
