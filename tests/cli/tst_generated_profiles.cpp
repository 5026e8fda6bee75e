// Generated profiles: our loaders read every variant with exactly the planted findings, the
// generated step_trace_time.csv agrees with our metrics like the real profiler's does, expected.json
// describes windows that really are device-idle gaps, generation is deterministic, and the embedded
// sample is exactly what its documented command produces.
#include "test_support.h"
#include "pipeline/analysis_run.h"
#include "io/profile_loader.h"

#include "cli_support.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

} // namespace

class TstGeneratedProfiles : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;

    QString generate(const QString& name, const QStringList& args, const QString& dir = {}) {
        return bstest::generate(tmp.filePath(dir.isEmpty() ? name : dir), args, name);
    }
    static QStringList findingIds(const bs::AnalysisResult& r) {
        QStringList ids;
        for (const auto& f : r.findings)
            ids << QString::fromStdString(f.id);
        return ids;
    }
    static QStringList expectedFindings(const QJsonObject& ex) {
        QStringList ids;
        for (const auto& v : ex.value(QStringLiteral("findings")).toArray())
            ids << v.toObject().value(QStringLiteral("id")).toString();
        return ids;
    }
    struct Loaded {
        bs::LoadResult load;
        bs::AnalysisResult result;
        QJsonObject expected;
    };
    Loaded loadGenerated(const QString& out, const QString& name) {
        Loaded l;
        auto found = bs::discoverProfiles(
            (out + QLatin1Char('/') + name + QStringLiteral("_ascend_pt")).toStdString());
        if (found.ranks.size() != 1) return l;
        l.load = bs::loadRank(found.ranks[0]);
        l.result = bs::analyzeProfile(*l.load.profile);
        l.expected = QJsonDocument::fromJson(bstest::readFile(out + QStringLiteral("/expected.json"))).object();
        return l;
    }
    // Our figures against the generated step_trace_time.csv: same rule as for real data (§3.1).
    static void checkCrossCheck(const bs::AnalysisResult& r, std::size_t steps) {
        QCOMPARE(r.crossCheck.rows.size(), steps);
        for (const auto& row : r.crossCheck.rows) {
            QVERIFY(row.matched);
            for (const auto& f : row.figures) {
                QVERIFY(f.profilerUs.has_value());
                QVERIFY2(std::abs(f.oursUs - *f.profilerUs) <= 0.001, f.field.c_str());
            }
        }
    }

  private slots:
    void cleanProfileHasNoFindingAndMatchesItsStepTrace() {
        const QString out =
            generate(QStringLiteral("clean"), {QStringLiteral("--anomalies"), QStringLiteral("none")});
        QVERIFY(!out.isEmpty());
        auto l = loadGenerated(out, QStringLiteral("clean"));
        QVERIFY(l.load.hasAnyData);
        QCOMPARE(findingIds(l.result), QStringList());
        QCOMPARE(l.expected.value(QStringLiteral("anomalies")).toArray().size(), 0);
        QCOMPARE(l.result.metrics.size(), std::size_t(3));
        checkCrossCheck(l.result, 3);
        // No significant (>= 50 µs) device gap anywhere in a clean capture.
        for (const auto& m : l.result.metrics) {
            QVERIFY(m.largestInternalBubble < 50000);
            QVERIFY(m.prelaunchGap < 50000);
            QVERIFY(m.tailGap < 50000);
        }
        // Every kernel_details row found its device event: streams of HCCL rows recovered, task types kept.
        const auto& inv = l.load.profile->inventory;
        QCOMPARE(inv.streamsFromTrace, inv.kernelsWithoutStream);
        QCOMPARE(l.load.profile->kernels.size(), l.load.profile->deviceEvents.size());
    }
    void everyPlantedBubbleIsADeviceGapOfItsStep() {
        const QString out =
            generate(QStringLiteral("planted"), {QStringLiteral("--anomalies"), QStringLiteral("all")});
        QVERIFY(!out.isEmpty());
        auto l = loadGenerated(out, QStringLiteral("planted"));
        QCOMPARE(findingIds(l.result), expectedFindings(l.expected));
        QCOMPARE(findingIds(l.result), QStringList{QStringLiteral("first_step_compile")});
        checkCrossCheck(l.result, 3);
        int bubbles = 0;
        QStringList types;
        for (const auto& v : l.expected.value(QStringLiteral("anomalies")).toArray()) {
            const QJsonObject a = v.toObject();
            types << a.value(QStringLiteral("type")).toString();
            if (a.value(QStringLiteral("kind")).toString() != QStringLiteral("bubble")) continue;
            ++bubbles;
            const qint64 s = a.value(QStringLiteral("start_ns")).toVariant().toLongLong();
            const qint64 e = a.value(QStringLiteral("end_ns")).toVariant().toLongLong();
            QVERIFY(e - s > 500000); // every planted bubble is well above bubble_min_us
            bool found = false;
            for (const auto& m : l.result.metrics) {
                if (QString::number(m.stepId) != a.value(QStringLiteral("step")).toString()) continue;
                for (const auto& g : m.internalGaps)
                    if (g.a == s && g.b == e) found = true;
            }
            QVERIFY2(found, qPrintable(a.value(QStringLiteral("type")).toString()));
        }
        QCOMPARE(bubbles, 4);
        QCOMPARE(types, (QStringList{QStringLiteral("aicpu_exposed"), QStringLiteral("aicpu_masked"),
                                     QStringLiteral("wait_anchor"), QStringLiteral("wait_pollution"),
                                     QStringLiteral("host_launch_lag"), QStringLiteral("sync_bubble"),
                                     QStringLiteral("untraced_bubble"), QStringLiteral("comm_wait_bubble"),
                                     QStringLiteral("variable_shapes")}));
        // The variable-shape steps really differ in shapes while their compute kernel names are identical
        // (collectives carry a running op index in their names, as real hcom_* kernels do).
        const auto& p = *l.load.profile;
        std::vector<std::string> names2, names3, shapes2, shapes3;
        for (const auto& k : p.kernels) {
            if (k.cls == bs::TaskClass::Comm) continue;
            if (k.stepId == 2) names2.emplace_back(p.str(k.name)), shapes2.emplace_back(p.str(k.inputShapes));
            if (k.stepId == 3) names3.emplace_back(p.str(k.name)), shapes3.emplace_back(p.str(k.inputShapes));
        }
        QVERIFY(!names2.empty());
        QVERIFY(names2 == names3);
        QVERIFY(shapes2 != shapes3);
    }
    void level0AndTruncatedVariantsGiveExactlyTheirFindings() {
        const QString l0 = generate(QStringLiteral("lzero"), {QStringLiteral("--level0")});
        auto a = loadGenerated(l0, QStringLiteral("lzero"));
        QCOMPARE(a.load.profile->inventory.kernelDetailsLevel, std::string("Level0"));
        QCOMPARE(findingIds(a.result), expectedFindings(a.expected));
        QCOMPARE(findingIds(a.result), (QStringList{QStringLiteral("level0_kernel_details"),
                                                    QStringLiteral("no_communication_json")}));
        checkCrossCheck(a.result, 3);
        const QString tr =
            generate(QStringLiteral("cut"), {QStringLiteral("--truncate"), QStringLiteral("0.8")});
        auto b = loadGenerated(tr, QStringLiteral("cut"));
        QCOMPARE(findingIds(b.result), expectedFindings(b.expected));
        QCOMPARE(findingIds(b.result), QStringList{QStringLiteral("trace_truncated")});
        QVERIFY(b.load.profile->inventory.traceTruncated);
    }
    void sameSeedSameBytesOtherSeedOtherBytes() {
        QVERIFY(tmp.isValid());
        const QString a = generate(QStringLiteral("d1"), {QStringLiteral("--seed"), QStringLiteral("7"),
                                                          QStringLiteral("--steps"), QStringLiteral("2")});
        const QString b = generate(
            QStringLiteral("d1"),
            {QStringLiteral("--seed"), QStringLiteral("7"), QStringLiteral("--steps"), QStringLiteral("2")},
            QStringLiteral("again"));
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        for (const char* f :
             {"trace_view.json", "kernel_details.csv", "step_trace_time.csv", "communication.json"}) {
            const QString rel =
                QStringLiteral("/d1_ascend_pt/ASCEND_PROFILER_OUTPUT/") + QString::fromLatin1(f);
            QCOMPARE(bstest::readFile(a + rel), bstest::readFile(b + rel));
        }
        const QString c = generate(QStringLiteral("d3"), {QStringLiteral("--seed"), QStringLiteral("8"),
                                                          QStringLiteral("--steps"), QStringLiteral("2")});
        QVERIFY(bstest::readFile(c + QStringLiteral("/d3_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv")) !=
                bstest::readFile(a + QStringLiteral("/d1_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv")));
    }
    void embeddedSampleIsWhatItsDocumentedCommandWrites() {
        // resources/README.md: bubblescope-synth --out resources/sample --name sample --anomalies all
        const QString out =
            generate(QStringLiteral("sample"), {QStringLiteral("--anomalies"), QStringLiteral("all")});
        const QString shipped = QStringLiteral(BS_SOURCE_DIR "/resources/sample");
        int files = 0;
        QDirIterator it(shipped, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString p = it.next();
            const QString rel = p.mid(shipped.size());
            QVERIFY2(bstest::readFile(p) == bstest::readFile(out + rel), qPrintable(rel));
            ++files;
        }
        QCOMPARE(files, 8);
    }
};

QTEST_GUILESS_MAIN(TstGeneratedProfiles)
#include "tst_generated_profiles.moc"
