// Rule table for ANALYSIS.md §11 (architecture: attention marker and its fallbacks, phases, passes,
// layers per pass, layer types, cross-verification, communication overlap), on hand-built kernel
// sequences. Times in the comments are µs after the fixture's origin.
#include "analysis/anomaly_model.h"
#include "architecture/architecture_analysis.h"
#include "architecture/structures.h"
#include "i18n/message.h"
#include "rules_fixture.h"
#include "test_support.h"

using rules::at;
using rules::Fixture;
using rules::us;

namespace {

// One layer starting at `t` (µs), kernels back to back; returns its end. `kind`: Dense, DFC, DFC2 (two
// DispatchFFNCombine), GATE2 (two routers + DFC), GMM, GMM-no-a2a (no all-to-all), Router (router only);
// "+sample" appends ArgMax.
// A Dense layer lasts fia + 20 + 30 + 10 + 30 = fia + 90 µs.
double layer(Fixture& f, double t, const QString& kind, double fia = 100,
             const char* marker = "FusedInferAttentionScore") {
    auto add = [&](const char* name, double dur, const char* type = "AI_CORE", int stream = 2) {
        f.k(name, t, dur, type, stream);
        t += dur;
    };
    add(marker, fia);
    add("MatMulV2", 20); // attention projection
    if (kind.startsWith(QLatin1String("Dense"))) {
        add("MatMul", 30);
        add("SwiGlu", 10);
        add("MatMul", 30);
    } else if (kind.startsWith(QLatin1String("DFC"))) {
        add("MoeGatingTopK", 10);
        add("DispatchFFNCombine", 50);
        if (kind.startsWith(QLatin1String("DFC2"))) add("DispatchFFNCombine", 50);
    } else if (kind.startsWith(QLatin1String("GATE2"))) {
        add("MoeGatingTopK", 10);
        add("MoeGatingTopK", 10);
        add("DispatchFFNCombine", 50);
    } else if (kind == QLatin1String("GMM") || kind.startsWith(QLatin1String("GMM+"))) {
        add("MoeGatingTopK", 10);
        add("hcom_alltoallv__1_0", 20, "HCCL", 6);
        add("GroupedMatmul", 30);
        add("GroupedMatmul", 30);
        add("hcom_alltoallv__2_0", 20, "HCCL", 6);
        add("MoeFinalizeRouting", 10);
    } else if (kind.startsWith(QLatin1String("GMM-no-a2a"))) {
        add("MoeGatingTopK", 10);
        add("GroupedMatmul", 30);
        add("GroupedMatmul", 30);
        add("MoeFinalizeRouting", 10);
    } else if (kind.startsWith(QLatin1String("Router"))) {
        add("MoeGatingTopK", 10);
        add("Add", 30);
    }
    if (kind.endsWith(QLatin1String("+sample"))) add("ArgMax", 5);
    return t;
}

bs::ArchitectureResult analyze(Fixture& f) {
    const auto& p = f.done();
    const auto steps = bs::detectSteps(p);
    return bs::analyzeArchitecture(p, steps, {}, bs::Rulebook{});
}

std::string types(const bs::ArchitectureResult& a) {
    std::vector<std::string> v;
    for (const auto& l : a.layers)
        v.push_back(l.type);
    return rules::joined(v);
}

} // namespace

class TstRulesArchitecture : public QObject {
    Q_OBJECT
  private slots:
    void layerTypesFollowTheirMoEKernels() {
        Fixture f;
        double t = 0;
        for (const char* kind : {"Dense", "Dense", "DFC", "GMM+sample"})
            t = layer(f, t, QString::fromLatin1(kind));
        const auto a = analyze(f);
        QCOMPARE(a.marker, std::string("FusedInferAttentionScore"));
        QCOMPARE(a.confidence, std::string("high"));
        QCOMPARE(types(a), std::string("Dense,Dense,MoE+DFC,MoE+GMM with sampling"));
        QCOMPARE(a.passes.size(), std::size_t(1));
        QCOMPARE(a.layersPerPass, 4);
        QVERIFY(a.passCountConsistent);
        QCOMPARE(a.crossCheckMismatches, std::size_t(0));
        QCOMPARE(a.types.size(), std::size_t(3));
        QCOMPARE(a.types[0].type, std::string("Dense"));
        QCOMPARE(a.types[0].count, std::size_t(2));
        QCOMPARE(a.types[0].ranges, (std::vector<std::pair<int, int>>{{0, 1}}));
        QCOMPARE(a.types[2].ranges, (std::vector<std::pair<int, int>>{{3, 3}}));
        // Layer i runs from marker i to marker i + 1: layer 0 = [0, 190).
        QCOMPARE(a.layers[0].span.a, at(0));
        QCOMPARE(a.layers[0].span.b, at(190));
        QCOMPARE(a.layers[2].dfc, std::size_t(1));
        QCOMPARE(a.layers[3].gmm, std::size_t(2));
        QCOMPARE(a.layers[3].allToAll, std::size_t(2));
    }
    void aRouterWithoutExpertKernelsIsNotCalledDense() {
        Fixture f;
        layer(f, layer(f, 0, QStringLiteral("Dense")), QStringLiteral("Router"));
        QCOMPARE(types(analyze(f)), std::string("Dense,MoE (no expert kernel)"));
    }
    void groupedMatmulWithoutAllToAllIsNotMoEGmm() {
        // §11: MoE+GMM needs GroupedMatmul *and* an all-to-all (and no DFC).
        Fixture f;
        layer(f, layer(f, 0, QStringLiteral("GMM")), QStringLiteral("GMM-no-a2a"));
        QCOMPARE(types(analyze(f)), std::string("MoE+GMM,MoE (no expert kernel)"));
    }
    void phasesSplitAtTenMillisecondsOrAtAFiveFoldJump_data() {
        QTest::addColumn<double>("first");   // attention kernel µs of the first two layers
        QTest::addColumn<double>("second");  // … of the last two
        QTest::addColumn<QString>("phases"); // per pass
        QTest::newRow("12 ms and 0.5 ms: prefill and decode")
            << 12000.0 << 500.0 << QStringLiteral("prefill,decode");
        QTest::newRow("2 ms and 0.4 ms: a 5.0x jump splits")
            << 2000.0 << 400.0 << QStringLiteral("prefill,decode");
        QTest::newRow("2 ms and 0.41 ms: a 4.9x jump does not")
            << 2000.0 << 410.0 << QStringLiteral("single");
    }
    void phasesSplitAtTenMillisecondsOrAtAFiveFoldJump() {
        QFETCH(double, first);
        QFETCH(double, second);
        QFETCH(QString, phases);
        Fixture f;
        double t = 0;
        for (double fia : {first, first, second, second})
            t = layer(f, t, QStringLiteral("Dense"), fia);
        const auto a = analyze(f);
        std::vector<std::string> v;
        for (const auto& ps : a.passes)
            v.push_back(ps.phase);
        QCOMPARE(QString::fromStdString(rules::joined(v)), phases);
    }
    void passesSplitWhereAMarkerGapExceedsFiveMedians_data() {
        QTest::addColumn<double>("idle"); // µs of device idle before layer 4
        QTest::addColumn<int>("passes");
        // Dense layers of 190 µs: the median marker gap is 190, the gap before layer 4 is 190 + idle.
        QTest::newRow("190 + 760 = 5.0 medians: one pass") << 760.0 << 1;
        QTest::newRow("190 + 761 > 5 medians: two passes") << 761.0 << 2;
    }
    void passesSplitWhereAMarkerGapExceedsFiveMedians() {
        QFETCH(double, idle);
        QFETCH(int, passes);
        Fixture f;
        double t = 0;
        for (int i = 0; i < 8; ++i)
            t = layer(f, t + (i == 4 ? idle : 0), QStringLiteral("Dense"));
        const auto a = analyze(f);
        QCOMPARE(static_cast<int>(a.passes.size()), passes);
        QCOMPARE(a.layersPerPass, 8 / passes);
        QVERIFY(a.passCountConsistent);
    }
    void passesSplitAtStepBoundaries() {
        // Two steps of three back-to-back Dense layers: no gap, yet two passes, one per step.
        Fixture f;
        f.step(1, 0, 570).step(2, 570, 570);
        double t = 0;
        for (int i = 0; i < 6; ++i)
            t = layer(f, t, QStringLiteral("Dense"));
        const auto a = analyze(f);
        QCOMPARE(a.passes.size(), std::size_t(2));
        QCOMPARE(a.passes[0].stepId, std::string("1"));
        QCOMPARE(a.passes[1].stepId, std::string("2"));
        QCOMPARE(a.passes[1].firstMarker, std::size_t(3));
        // The last layer of a pass ends at the pass end: the step's end, 570.
        QCOMPARE(a.layers[2].span.b, at(570));
    }
    void layersPerPassIsTheModeAndAShortPassIsAMismatch() {
        // Passes of 4, 4 and 3 Dense layers separated by 2 ms of idle: mode 4; 11 markers are not 3 × 4.
        Fixture f;
        double t = 0;
        for (int pass = 0; pass < 3; ++pass) {
            t += 2000;
            for (int i = 0; i < (pass == 2 ? 3 : 4); ++i)
                t = layer(f, t, QStringLiteral("Dense"));
        }
        const auto a = analyze(f);
        QCOMPARE(a.passes.size(), std::size_t(3));
        QCOMPARE(a.layersPerPass, 4);
        QVERIFY(!a.passCountConsistent);
        QCOMPARE(a.crossCheckMismatches, std::size_t(1));
        QVERIFY(a.crossCheck[2].mismatch);
        QVERIFY(bs::english(a.crossCheck[2].why).find("3 layers where most passes have 4") !=
                std::string::npos);
    }
    void crossVerificationCountsDfcAndRoutersAgainstLayerTypes_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("why");
        QTest::newRow("one DFC per MoE+DFC layer") << QStringLiteral("DFC") << QString();
        QTest::newRow("two DFC in one layer")
            << QStringLiteral("DFC2") << QStringLiteral("DispatchFFNCombine count 2 != MoE+DFC layers 1");
        QTest::newRow("two routers in one layer")
            << QStringLiteral("GATE2") << QStringLiteral("MoeGatingTopK count 2 != MoE layers 1");
    }
    void crossVerificationCountsDfcAndRoutersAgainstLayerTypes() {
        QFETCH(QString, kind);
        QFETCH(QString, why);
        Fixture f;
        layer(f, layer(f, 0, QStringLiteral("Dense")), kind);
        const auto a = analyze(f);
        QCOMPARE(a.crossCheck.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(bs::english(a.crossCheck[0].why)), why);
        QCOMPARE(a.crossCheckMismatches, std::size_t(why.isEmpty() ? 0 : 1));
    }
    void theAttentionMarkerFallsBackInOrderAndLowersConfidence_data() {
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<QString>("marker");
        QTest::addColumn<QString>("confidence");
        QTest::newRow("FusedInferAttentionScore")
            << QStringLiteral("FusedInferAttentionScore") << QStringLiteral("FusedInferAttentionScore")
            << QStringLiteral("high");
        QTest::newRow("FlashAttentionScore")
            << QStringLiteral("FlashAttentionScore") << QStringLiteral("FlashAttentionScore")
            << QStringLiteral("medium");
        QTest::newRow("PromptFlashAttention")
            << QStringLiteral("PromptFlashAttention") << QStringLiteral("PromptFlashAttention")
            << QStringLiteral("medium");
        QTest::newRow("a custom *FlashAttention* kernel")
            << QStringLiteral("MyFlashAttentionV3") << QStringLiteral("FlashAttention")
            << QStringLiteral("medium");
        QTest::newRow("no attention kernel")
            << QStringLiteral("Softmax") << QString() << QStringLiteral("low");
    }
    void theAttentionMarkerFallsBackInOrderAndLowersConfidence() {
        QFETCH(QString, kernel);
        QFETCH(QString, marker);
        QFETCH(QString, confidence);
        Fixture f;
        const std::string k = kernel.toStdString();
        double t = 0;
        for (int i = 0; i < 4; ++i)
            t = layer(f, t, QStringLiteral("Dense"), 100, k.c_str());
        f.k("FlashAttentionScoreGrad", t, 100); // a backward kernel is never a marker
        const auto a = analyze(f);
        QCOMPARE(QString::fromStdString(a.marker), marker);
        QCOMPARE(QString::fromStdString(a.confidence), confidence);
        QCOMPARE(a.markerCount, std::size_t(marker.isEmpty() ? 0 : 4));
        QCOMPARE(a.markerSource,
                 std::string(marker.isEmpty() ? "repeating kernel pattern" : "attention kernels"));
    }
    // Where a window sits against the layers (placeWindows), on hand-placed spans in ns: a prologue [0, 1000]
    // (not a layer), layers [10000, 20000] and [20500, 30000]; the tolerance is 1 µs.
    void windowsAreAtALayerStartInsideALayerOrOutside() {
        bs::ArchitectureResult arch;
        auto structure = [&](const char* type, bs::TimeNs a, bs::TimeNs b) {
            bs::Structure st;
            st.type = type;
            st.span = {a, b};
            arch.structures.push_back(st);
        };
        structure("prologue", 0, 1'000);
        structure("Dense", 10'000, 20'000);
        structure("Dense", 20'500, 30'000);
        auto window = [](const char* id, bs::TimeNs a, bs::TimeNs b, bs::WindowScope scope) {
            bs::BubbleWindow w;
            w.id = id;
            w.span = {a, b};
            w.scope = scope;
            return w;
        };
        const std::vector<bs::BubbleWindow> windows{
            window("touch", 8'000, 9'500, bs::WindowScope::StepInternal), // ends 0.5 µs before layer 1 starts
            window("inside", 12'000, 13'000, bs::WindowScope::StepInternal), // within layer 1
            window("tail", 29'000, 30'000, bs::WindowScope::Tail),           // a tail within layer 2's span
            window("early", 3'000, 4'000, bs::WindowScope::StepInternal),    // before every layer
            window("far", 7'000, 8'900, bs::WindowScope::StepInternal)};     // ends 1.1 µs before layer 1
        bs::placeWindows(windows, arch);
        QCOMPARE(arch.windowPlaces.size(), std::size_t(5));
        const char* expected[] = {"layer_start", "inside_layer", "outside_layers", "outside_layers",
                                  "outside_layers"};
        for (std::size_t i = 0; i < 5; ++i)
            QCOMPARE(arch.windowPlaces[i].position, std::string(expected[i]));
        QCOMPARE(arch.windowPlaces[0].structure, 1);
        QCOMPARE(arch.windowPlaces[1].structure, 1);
        const auto& b = arch.boundaryBubbles;
        QCOMPARE(b.layers, std::string("pattern structures")); // no attention marker
        QCOMPARE(b.windows, std::size_t(5));
        QCOMPARE(b.atLayerStart, std::size_t(1));
        QCOMPARE(b.insideLayers, std::size_t(1));
        QCOMPARE(b.outsideLayers, std::size_t(3));
        QCOMPARE(b.atLayerStartTime, bs::TimeNs(1'500));
        QCOMPARE(b.windowTime, bs::TimeNs(1'500 + 1'000 + 1'000 + 1'000 + 1'900));
        QCOMPARE(b.atLayerStartShare, 1'500.0 / 6'400.0);
    }

    void commOverlapShareIsCommunicationHiddenUnderCompute() {
        // Comm [0, 100) on stream 6 and [300, 400); compute [50, 150): hidden 50 of 200 → 0.25.
        Fixture f;
        f.k("hcom_allReduce__1", 0, 100, "HCCL", 6)
            .k("MatMul", 50, 100)
            .k("hcom_allReduce__2", 300, 100, "HCCL", 6);
        const auto a = analyze(f);
        QCOMPARE(a.commTotal, us(200));
        QCOMPARE(a.commHidden, us(50));
        QCOMPARE(a.commOverlapShare, 0.25);
    }
};

QTEST_APPLESS_MAIN(TstRulesArchitecture)
#include "tst_rules_architecture.moc"
