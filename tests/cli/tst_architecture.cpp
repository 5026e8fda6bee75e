// Layers and architecture against generated profiles of known structure (expected.json), a corrupted
// profile, and the real ResNet captures (pattern fallback).
#include "pipeline/analysis_run.h"
#include "architecture/layer_types.h"
#include "i18n/message.h"
#include "io/profile_loader.h"
#include "report/architecture_report.h"
#include "test_support.h"

#include "cli_support.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <map>

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

    QString generate(const QString& name, const QStringList& args) {
        return bstest::generate(tmp.filePath(name), args, name);
    }
    Run analyzeDir(const QString& out, const QString& name) {
        Run run;
        auto found = bs::discoverProfiles(
            (out + QLatin1Char('/') + name + QStringLiteral("_ascend_pt")).toStdString());
        if (found.ranks.size() != 1) return run;
        run.load = bs::loadRank(found.ranks[0]);
        run.r = bs::analyzeProfile(*run.load.profile);
        run.expected =
            QJsonDocument::fromJson(bstest::readFile(out + QStringLiteral("/expected.json"))).object();
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
    // Layer types are summarised before the bubble windows exist; placing the windows afterwards gives each
    // gap of a representative layer the window overlapping it and each type the windows in its layers.
    // Hand-built: three layers (Dense, MoE, Dense), four windows (one outside every layer).
    void windowsArePlacedInTheLayerTypesSummarisedWithoutThem() {
        bs::ArchitectureResult a;
        a.layers.resize(3);
        a.layers[0].type = "Dense";
        a.layers[1].type = "MoE";
        a.layers[2].type = "Dense";
        auto gap = [](bs::TimeNs from, bs::TimeNs to) {
            bs::IdleGap g;
            g.span = {from, to};
            return g;
        };
        bs::LayerTypeSummary dense, moe, unscanned;
        dense.type = "Dense";
        dense.representative = 0;
        dense.timing.gaps = {gap(100, 200), gap(300, 350)};
        dense.decodeTiming.gaps = {gap(500, 600)};
        moe.type = "MoE";
        moe.representative = 1;
        moe.timing.gaps = {gap(700, 800)};
        unscanned.type = "MoE"; // no representative layer: left as summarised
        unscanned.timing.gaps = {gap(550, 560)};
        a.types = {dense, moe, unscanned};
        auto place = [](const char* id, bs::TimeNs from, bs::TimeNs to, int layer, const char* position) {
            bs::WindowPlace w;
            w.windowId = id;
            w.span = {from, to};
            w.layer = layer;
            w.position = position;
            return w;
        };
        a.windowPlaces = {place("b0001", 150, 180, 0, "inside_layer"), place("b0002", 320, 400, 2, "layer_start"),
                          place("b0003", 550, 560, 1, "inside_layer"), place("b0004", 900, 950, -1, "outside_layers")};
        for (int run = 0; run < 2; ++run) { // placing twice gives the same answer
            bs::placeWindowsInLayerTypes(a);
            const auto& d = a.types[0];
            QCOMPARE(d.timing.gaps[0].windowId, std::string("b0001"));
            QCOMPARE(d.timing.gaps[1].windowId, std::string("b0002")); // 320-350 of 300-350
            QCOMPARE(d.decodeTiming.gaps[0].windowId, std::string("b0003"));
            QCOMPARE(d.anomalies.windows, (std::vector<int>{0, 1}));
            QCOMPARE(d.anomalies.windowTimeInside, bs::TimeNs(30));
            QCOMPARE(d.anomalies.windowTimeAtStart, bs::TimeNs(80));
            const auto& m = a.types[1];
            QCOMPARE(m.timing.gaps[0].windowId, std::string()); // 700-800 meets no window
            QCOMPARE(m.anomalies.windows, (std::vector<int>{2}));
            QCOMPARE(m.anomalies.windowTimeInside, bs::TimeNs(10));
            QCOMPARE(m.anomalies.windowTimeAtStart, bs::TimeNs(0));
            QCOMPARE(a.types[2].timing.gaps[0].windowId, std::string());
            QVERIFY(a.types[2].anomalies.windows.empty());
        }
    }
    // Issue 46, item 7: every window is placed and drilled down into a structure of its OWN step. A step's
    // tail (the device idle after its last kernel) touches the next step's first layer start; it was placed
    // at that layer and drilled down under s<next step>.0. Generated: 4 steps, each ending in a tail window.
    void everyWindowIsPlacedInAStructureOfItsOwnStep() {
        const QString out = generate(QStringLiteral("tails"), {QStringLiteral("--steps"), QStringLiteral("4")});
        QVERIFY(!out.isEmpty());
        // Each step's tail is ~15 µs: significant from 10 µs on.
        auto found = bs::discoverProfiles((out + QStringLiteral("/tails_ascend_pt")).toStdString());
        QCOMPARE(found.ranks.size(), std::size_t(1));
        bs::LoadResult load = bs::loadRank(found.ranks[0]);
        QVERIFY(load.profile);
        bs::Rulebook rules;
        rules.bubble_min_us = 10;
        struct { bs::AnalysisResult r; } run{bs::analyzeProfile(*load.profile, rules)};
        const auto& a = run.r.architecture;
        QVERIFY(!a.structures.empty());
        std::map<std::string, const bs::Structure*> structures;
        for (const auto& s : a.structures)
            structures[s.id] = &s;
        std::map<std::string, const bs::BubbleWindow*> windows;
        for (const auto& w : run.r.anomaly.windows)
            windows[w.id] = &w;
        std::size_t tails = 0, checked = 0;
        for (const auto& w : run.r.anomaly.windows)
            tails += w.scope == bs::WindowScope::Tail ? 1 : 0;
        for (const auto& d : a.drillDown) {
            const bs::BubbleWindow* w = windows.at(d.windowId);
            if (d.structureId.empty()) continue;
            const bs::Structure* s = structures.at(d.structureId);
            if (w->stepIndex >= 0) {
                ++checked;
                QVERIFY2(s->stepIndex == w->stepIndex,
                         qPrintable(QStringLiteral("%1 (%2 of step index %3) drilled down under %4 of step index %5")
                                        .arg(QString::fromStdString(d.windowId), QString::fromStdString(d.position))
                                        .arg(w->stepIndex)
                                        .arg(QString::fromStdString(d.structureId))
                                        .arg(s->stepIndex)));
            }
        }
        for (const auto& p : a.windowPlaces) {
            if (p.structure < 0) continue;
            const bs::BubbleWindow* w = windows.at(p.windowId);
            if (w->stepIndex < 0) continue;
            ++checked;
            QCOMPARE(a.structures[static_cast<std::size_t>(p.structure)].stepIndex, w->stepIndex);
        }
        QVERIFY(checked > 0);
        QVERIFY(tails > 0);
        // A tail window of a step with structures is drilled down under that step's last structure.
        for (const auto& d : a.drillDown) {
            const bs::BubbleWindow* w = windows.at(d.windowId);
            if (w->scope != bs::WindowScope::Tail) continue;
            QCOMPARE(d.position, std::string("tail"));
            QVERIFY(!d.structureId.empty());
            const bs::Structure* s = structures.at(d.structureId);
            QVERIFY(s->span.a <= w->span.a); // it started before the tail (its span may reach the step end)
            for (const auto& o : a.structures)
                if (o.stepIndex == w->stepIndex)
                    QVERIFY2(o.span.a <= s->span.a, // the step's last structure
                             qPrintable(QStringLiteral("%1 [%2, %3] after %4 [%5, %6]; tail %7 [%8, %9]")
                                            .arg(QString::fromStdString(o.id)).arg(o.span.a).arg(o.span.b)
                                            .arg(QString::fromStdString(s->id)).arg(s->span.a).arg(s->span.b)
                                            .arg(QString::fromStdString(w->id)).arg(w->span.a).arg(w->span.b)));
        }
    }

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
                shown = c.pass == 0 &&
                        bs::english(c.why).find("DispatchFFNCombine count 3 where most passes have 4") !=
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
                // Internal bubbles are device idle: the structure's own kernels leave at least that much free
                // (a kernel of another structure, e.g. a collective still running, may fill some of the
                // rest).
                QVERIFY(s.all.wall - s.all.busyUnion >= s.internalBubbles);
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
    // The generator's cases for other tests (README "Generated profiles"): each planted truth is what the
    // generated data holds.
    void generatorPlantsTheCasesItDocuments() {
        const QString out = generate(QStringLiteral("cases"), {QStringLiteral("--dense"),
                                                               QStringLiteral("1"),
                                                               QStringLiteral("--dfc"),
                                                               QStringLiteral("2"),
                                                               QStringLiteral("--gmm"),
                                                               QStringLiteral("1"),
                                                               QStringLiteral("--prefill"),
                                                               QStringLiteral("1"),
                                                               QStringLiteral("--decode"),
                                                               QStringLiteral("2"),
                                                               QStringLiteral("--steps"),
                                                               QStringLiteral("2"),
                                                               QStringLiteral("--first-prelaunch"),
                                                               QStringLiteral("1500"),
                                                               QStringLiteral("--last-tail"),
                                                               QStringLiteral("2000"),
                                                               QStringLiteral("--dispatch-gap"),
                                                               QStringLiteral("300"),
                                                               QStringLiteral("--tiny-waits"),
                                                               QStringLiteral("--aicpu-layer"),
                                                               QStringLiteral("2")});
        QVERIFY(!out.isEmpty());
        auto run = analyzeDir(out, QStringLiteral("cases"));
        const auto& p = *run.load.profile;
        const auto& m = run.r.metrics;
        QCOMPARE(m.size(), std::size_t(2));
        QMap<QString, int> seen;
        for (const auto& v : run.expected.value(QStringLiteral("anomalies")).toArray()) {
            const QJsonObject e = v.toObject();
            const QString type = e.value(QStringLiteral("type")).toString();
            ++seen[type];
            const qint64 s = e.value(QStringLiteral("start_ns")).toVariant().toLongLong();
            const qint64 t = e.value(QStringLiteral("end_ns")).toVariant().toLongLong();
            if (type == QStringLiteral("first_step_prelaunch")) {
                // The first step's window start … its first kernel: the prelaunch gap, host-covered.
                QCOMPARE(e.value(QStringLiteral("scope")).toString(), QStringLiteral("prelaunch"));
                QCOMPARE(e.value(QStringLiteral("capture_boundary")).toBool(), false);
                QCOMPARE(s, m[0].windowStart);
                QCOMPARE(t - s, m[0].prelaunchGap);
                QVERIFY(t - s >= 1500000);
            } else if (type == QStringLiteral("last_step_tail")) {
                QCOMPARE(e.value(QStringLiteral("scope")).toString(), QStringLiteral("tail"));
                QCOMPARE(t, m[1].windowEnd);
                QCOMPARE(t - s, m[1].tailGap);
                QVERIFY(t - s >= 2000000);
            } else if (type == QStringLiteral("layer_dispatch_gap")) {
                // An internal gap of its step that ends at an attention kernel's start.
                bool gap = false, marker = false;
                for (const auto& st : m)
                    for (const auto& g : st.internalGaps)
                        gap |= g.a == s && g.b == t;
                for (const auto& k : p.kernels)
                    marker |= k.start == t &&
                              p.str(k.name).find("FusedInferAttentionScore") != std::string_view::npos;
                QVERIFY(gap && marker);
            } else if (type == QStringLiteral("tiny_wait_near_comm")) {
                // Every call waits ~1.5 µs (far below wait_pollution_min_us) with its wait span beside a
                // collective.
                int calls = 0, overlapping = 0;
                bs::TimeNs maxWait = 0;
                for (const auto& k : p.kernels) {
                    if (p.str(k.name) != "aclnnSlice_SliceAiCore_Slice") continue;
                    ++calls;
                    maxWait = std::max(maxWait, k.wait);
                    bool ov = false;
                    for (const auto& c : p.kernels)
                        ov |= c.cls == bs::TaskClass::Comm && c.start < k.start && c.end() > k.start - k.wait;
                    overlapping += ov;
                }
                QCOMPARE(calls, e.value(QStringLiteral("calls")).toInt());
                QCOMPARE(overlapping, e.value(QStringLiteral("calls_wait_overlapping_comm")).toInt());
                QCOMPARE(static_cast<double>(maxWait) / 1000.0,
                         e.value(QStringLiteral("wait_max_us")).toDouble());
                QVERIFY(maxWait < 20000);
                QCOMPARE(e.value(QStringLiteral("not_expected_label")).toString(),
                         QStringLiteral("WAIT_POLLUTION_RISK"));
            } else if (type == QStringLiteral("aicpu_in_layer")) {
                int n = 0;
                for (const auto& k : p.kernels)
                    n += p.str(k.name) == "UniqueConsecutive";
                QCOMPARE(n, e.value(QStringLiteral("layers_with_it")).toInt()); // one per prefill pass: 2
                QCOMPARE(n, 2);
            }
        }
        // 4 layers per pass: 4 dispatch gaps in each step's first decode pass, 2 steps.
        QCOMPARE(seen.value(QStringLiteral("layer_dispatch_gap")), 8);
        for (const char* t :
             {"first_step_prelaunch", "last_step_tail", "tiny_wait_near_comm", "aicpu_in_layer"})
            QCOMPARE(seen.value(QString::fromLatin1(t)), 1);
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
