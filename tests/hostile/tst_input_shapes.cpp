// Input shapes that made a reader or the host evidence superlinear (issue 45, item 4), checked for their
// RESULT at a modest n: distinct TASK_PMU_INFO names (one per kernel), CONNECTION_IDS / connectionCats rows
// sharing one id, and a deep nest of host events on one thread ('X', B/E, PYTORCH_API). Their time and
// memory at n and 8n are bubblescope-bench-complexity's job (pmunames, sharedconn, sharedapi, nestx,
// nestbe, nestdb), never a unit test's. The semantics are in core/README.md, "Input shapes".
#include "pipeline/analysis_run.h"
#include "i18n/message.h"
#include "io/discovery.h"
#include "io/profile_loader.h"
#include "test_support.h"

#include "../bench/complexity_db_shapes.h"
#include "../bench/complexity_shapes.h"

#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace {

struct Run {
    bs::LoadResult load;
    bs::AnalysisResult r;
    const bs::Profile& p() const { return *load.profile; }
};

Run analyze(const std::string& rankDir) {
    Run run;
    const bs::DiscoveryResult found = bs::discoverProfiles(rankDir);
    if (found.ranks.size() != 1) return run;
    run.load = bs::loadRank(found.ranks[0]);
    if (run.load.profile) run.r = bs::analyzeProfile(*run.load.profile);
    return run;
}

// (phase, category) → how many flows of connection `id` have them.
std::map<std::pair<char, std::string>, std::size_t> flowsOf(const bs::Profile& p, std::uint64_t id) {
    std::map<std::pair<char, std::string>, std::size_t> n;
    for (const auto& f : p.flows)
        if (f.id == id) ++n[{f.phase, std::string(p.str(f.cat))}];
    return n;
}

} // namespace

class InputShapesTest : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    int n = 0;
    std::string root() { return bstest::s(tmp.filePath(QStringLiteral("shape%1").arg(++n))); }

    // Event i of the nest (i < events) spans [i, 2 events - i) µs: the windows' host evidence against a
    // ranking computed here from that definition (overlap, then the shorter, then the earlier).
    void checkNest(const Run& run, long long events) {
        QVERIFY(run.load.profile);
        const auto& host = run.p().hostEvents;
        QCOMPARE(host.size(), std::size_t(events));
        const bs::TimeNs base = shapes::kBaseNs;
        for (long long i = 0; i < events; ++i) { // the nest as written, whatever the source (B/E: a stack)
            const auto& e = host[static_cast<std::size_t>(i)];
            QCOMPARE(std::string(run.p().str(e.name)), "f" + std::to_string(i));
            QCOMPARE(e.ts, base + i * 1000);
            QCOMPARE(e.dur, (2 * events - 2 * i) * 1000);
        }
        const auto& windows = run.r.anomaly.windows;
        QVERIFY(windows.size() >= std::size_t(events / 64));
        std::size_t deep = 0;
        for (const auto& w : windows) {
            const bs::TimeNs a = w.span.a - base, b = w.span.b - base;
            std::vector<std::tuple<bs::TimeNs, bs::TimeNs, long long>> hits; // (-overlap, dur, i)
            for (long long i = 0; i < events; ++i) {
                const bs::TimeNs s = i * 1000, e = (2 * events - i) * 1000;
                const bs::TimeNs o = std::min(e, b) - std::max(s, a);
                if (o > 0) hits.emplace_back(-o, e - s, i);
            }
            std::sort(hits.begin(), hits.end());
            QCOMPARE(w.stacks.eventsInWindow, hits.size());
            QCOMPARE(w.evidence.topEvents.size(), std::min<std::size_t>(3, hits.size()));
            for (std::size_t k = 0; k < w.evidence.topEvents.size(); ++k) {
                QCOMPARE(w.evidence.topEvents[k].name, "f" + std::to_string(std::get<2>(hits[k])));
                QCOMPARE(w.evidence.topEvents[k].overlap, -std::get<0>(hits[k]));
            }
            if (hits.size() >= 3 && -std::get<0>(hits[2]) == b - a) ++deep; // three enclosing events at least
        }
        QVERIFY(deep >= windows.size() / 2);
    }

  private slots:
    // ---- TASK_PMU_INFO: many distinct names ----

    void eachKernelKeepsItsOwnPmuValuesAmongThousandsOfNames() {
        auto run = analyze(shapes::dbPmuNames(root(), 4000));
        QVERIFY(run.load.profile);
        const auto& p = run.p();
        const auto& pmu = p.pmu;
        QCOMPARE(p.kernels.size(), std::size_t(4000));
        // Columns in the order of their first value in a kernel's row: the shared one, then one per kernel.
        QCOMPARE(pmu.columns.size(), std::size_t(4001));
        QCOMPARE(pmu.columns[0], std::string("aic_mac_ratio"));
        QCOMPARE(pmu.columns[1], std::string("aic_x0"));
        QCOMPARE(pmu.columns[4000], std::string("aic_x3999"));
        // Kept per value, not as a names x kernels matrix (16 million slots here).
        QVERIFY(pmu.sparse());
        QCOMPARE(pmu.values.size(), std::size_t(8000));
        for (std::size_t i : {std::size_t(0), std::size_t(1234), std::size_t(3999)}) {
            const auto& k = p.kernels[i];
            QCOMPARE(k.start, shapes::kBaseNs + static_cast<bs::TimeNs>(i) * 10000);
            QVERIFY(k.pmuRow >= 0);
            const auto row = static_cast<std::size_t>(k.pmuRow);
            QCOMPARE(pmu.at(row, 0), 0.25f);
            QCOMPARE(pmu.at(row, *pmu.column("aic_x" + std::to_string(i))), static_cast<float>(i));
            QVERIFY(std::isnan(pmu.at(row, *pmu.column(i ? "aic_x0" : "aic_x1"))));
        }
        // The verdict reads them: aic_mac_ratio is the only pipe ratio there is.
        const bs::OpStats* matmul = nullptr;
        for (const auto& o : run.r.anomaly.ops)
            if (o.name == "MatMul") matmul = &o;
        QVERIFY(matmul);
        QCOMPARE(matmul->pmuVerdict, std::string("compute-bound"));
    }

    void pmuRowsKeepTheirOrderRepeatsAndGapsInADenseTable() {
        // Task 0: b, a, b again (the later value wins); task 1: c only; task 9 is no kernel. Every kernel has
        // most names, so the table stays dense (one slot per column).
        const std::string dir = shapes::rankDir(root(), "pmudense");
        {
            shapes::ShapeDb db(dir);
            db.commonStrings();
            const long long a = db.string(20, "aic_a"), b = db.string(21, "aic_b_time"),
                            c = db.string(22, "aic_c");
            db.kernel(0, 0, 5000, shapes::ShapeDb::kMatMul);
            db.kernel(1, 10000, 5000, shapes::ShapeDb::kMatMul);
            db.pmu(9, c, 7);
            db.pmu(0, b, 1);
            db.pmu(0, a, 2);
            db.pmu(0, b, 3);
            db.pmu(1, c, 5);
            db.pmu(1, a, 6);
            db.commit();
        }
        auto run = analyze(dir);
        QVERIFY(run.load.profile);
        const auto& pmu = run.p().pmu;
        QCOMPARE(pmu.columns, (std::vector<std::string>{"aic_b_time(us)", "aic_a", "aic_c"}));
        QVERIFY(!pmu.sparse());
        const auto& ks = run.p().kernels;
        QCOMPARE(pmu.at(static_cast<std::size_t>(ks[0].pmuRow), 0), 3.0f);
        QCOMPARE(pmu.at(static_cast<std::size_t>(ks[0].pmuRow), 1), 2.0f);
        QVERIFY(std::isnan(pmu.at(static_cast<std::size_t>(ks[0].pmuRow), 2)));
        QVERIFY(std::isnan(pmu.at(static_cast<std::size_t>(ks[1].pmuRow), 0)));
        QCOMPARE(pmu.at(static_cast<std::size_t>(ks[1].pmuRow), 1), 6.0f);
        QCOMPARE(pmu.at(static_cast<std::size_t>(ks[1].pmuRow), 2), 5.0f);
    }

    // ---- Flows: many rows sharing one id ----

    void opsSharingOneConnectionStartOneFlowEachAsWithFewerOps() {
        // 3000 ops launch one kernel's connection (connectionCats: 3000 rows, async_npu and HostToDevice)
        // and share a host-only connection (fwdbwd, 3000 rows): as for two ops, each op starts an async_npu
        // flow, the kernel ends it once, and the host-only connection runs from the earliest op through the
        // others.
        auto run = analyze(shapes::dbSharedConnection(root(), 3000));
        QVERIFY(run.load.profile);
        const auto& p = run.p();
        QCOMPARE(p.hostEvents.size(), std::size_t(3000));
        const auto device = static_cast<std::uint64_t>(shapes::kSharedConnection);
        const auto host = static_cast<std::uint64_t>(2 * shapes::kSharedConnection);
        using Key = std::pair<char, std::string>;
        QCOMPARE(flowsOf(p, device),
                 (std::map<Key, std::size_t>{{{'s', "async_npu"}, 3000}, {{'f', "async_npu"}, 1}}));
        QCOMPARE(flowsOf(p, host),
                 (std::map<Key, std::size_t>{{{'s', "fwdbwd"}, 1}, {{'f', "fwdbwd"}, 2999}}));
        QCOMPARE(p.flows.size(), std::size_t(6001));
        // Each op's start at its end; the host-only chain starts at the first op.
        std::size_t checked = 0;
        for (const auto& f : p.flows) {
            if (f.id == device && f.phase == 's') {
                QCOMPARE((f.ts - shapes::kBaseNs) % 10000, bs::TimeNs(5000));
                ++checked;
            }
            if (f.id == host && f.phase == 's') QCOMPARE(f.ts, shapes::kBaseNs);
            if (f.id == device && f.phase == 'f') QCOMPARE(f.ts, shapes::kBaseNs + 3000LL * 10000);
        }
        QCOMPARE(checked, std::size_t(3000));
    }

    void opsRepeatingOneApiIdLeaveItsConnectionsToTheFirst() {
        // 1000 ops carry API id 1, whose CONNECTION_IDS rows name 1000 kernels' connections. An API id is one
        // op's: the first op (table order) launches the 1000 kernels; the 999 others launch nothing and are
        // counted as bad values (rows x connections made a million flows).
        auto run = analyze(shapes::dbSharedApiId(root(), 2000));
        QVERIFY(run.load.profile);
        const auto& p = run.p();
        QCOMPARE(p.kernels.size(), std::size_t(1000));
        QCOMPARE(p.flows.size(), std::size_t(2000));
        for (const auto& f : p.flows) {
            QCOMPARE(std::string(p.str(f.cat)), std::string("async_npu"));
            QVERIFY(f.id >= 100 && f.id < 1100);
            const bs::TimeNs i = static_cast<bs::TimeNs>(f.id) - 100;
            QCOMPARE(f.ts, shapes::kBaseNs + (f.phase == 's' ? 5000 : i * 10000 + 7000));
        }
        const bs::Finding* bad = nullptr;
        for (const auto& f : run.r.findings)
            if (f.id == "db_bad_value" && bs::english(f.seen).find("PYTORCH_API") != std::string::npos)
                bad = &f;
        QVERIFY(bad);
        const std::string seen = bs::english(bad->seen);
        QVERIFY2(seen.rfind("999 row(s) of table PYTORCH_API", 0) == 0, seen.c_str());
        QVERIFY2(seen.find("column connectionId") != std::string::npos, seen.c_str());
        QVERIFY2(seen.find("id 1 is also an earlier row's") != std::string::npos, seen.c_str());
    }

    // ---- A deep nest of host events on one thread ----

    void aDeepNestOfXEventsGivesEachWindowItsInnermostEnclosingEvents() {
        checkNest(analyze(shapes::nestedTrace(root(), 2000, false)), 2000);
    }

    void aDeepNestOfBeginEndPairsIsPairedInnermostFirst() {
        checkNest(analyze(shapes::nestedTrace(root(), 2000, true)), 2000);
    }

    void aDeepNestOfPyTorchApiRowsGivesEachWindowItsInnermostEnclosingEvents() {
        checkNest(analyze(shapes::dbNested(root(), 2000)), 2000);
    }
};

QTEST_APPLESS_MAIN(InputShapesTest)
#include "tst_input_shapes.moc"
