// Performance gates for CI (issue 48): --fail-if on analyze and compare, exit 6, the Gates section, "gates" in
// the JSON, --junit, a stored summary as compare's BASE. Hand-made analyses and comparisons pin the boundaries
// (> vs >= at the value itself and one step either side); generated pairs (a planted cause vs the same seed
// without it) gate every metric family both ways through the binary.
#include "pipeline/analysis_run.h"
#include "cluster/cluster_model.h"
#include "compare/compare.h"
#include "gate/gate.h"
#include "i18n/message.h"

#include "cli_support.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <cstdio>

// Doubles compared exactly (QCOMPARE is fuzzy for doubles): a boundary is pinned to the bit.
#define QEXACT(actual, expected)                                                                                       \
    QVERIFY2((actual) == (expected), qPrintable(QStringLiteral("%1 is %2, not %3")                                    \
                                                    .arg(QStringLiteral(#actual))                                      \
                                                    .arg(static_cast<double>(actual), 0, 'g', 17)                     \
                                                    .arg(static_cast<double>(expected), 0, 'g', 17)))

namespace {

using bstest::readJson;
using bstest::Run;
using bstest::runBinary;

// A threshold that parses back to exactly `v` (17 significant digits).
QString exact(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return QString::fromLatin1(buf);
}

std::string err;

bs::GateExpr gate(const std::string& text, bs::GateCommand c = bs::GateCommand::Analyze) {
    err.clear();
    const auto g = bs::parseGate(text, c, err);
    if (!g) qWarning("unexpected parse error: %s", err.c_str());
    return g ? *g : bs::GateExpr{};
}

// Eleven steps of one group whose service is 0, 1, …, 10 ms (in a shuffled order): P50 5, P90 9
// (numpy's linear rule: position 0.9 × 10 = 9 exactly), max 10. Largest internal bubble = step's index / 2 ms.
bs::AnalysisResult elevenSteps() {
    bs::AnalysisResult r;
    const int order[] = {3, 10, 0, 7, 5, 1, 9, 2, 8, 6, 4};
    bs::StepGroup g;
    g.id = "g0";
    for (int i = 0; i < 11; ++i) {
        bs::Step st;
        st.number = 100 + i;
        r.steps.steps.push_back(st);
        bs::StepMetrics m;
        m.windowStart = i * 20'000'000LL;
        m.windowEnd = m.windowStart + 20'000'000LL;
        m.service = order[i] * 1'000'000LL;
        m.largestInternalBubble = order[i] * 500'000LL;
        m.bubbleCount = static_cast<std::size_t>(order[i]);
        r.metrics.push_back(m);
        g.steps.push_back(i);
        bs::StepComm c;
        c.exposed = 250'000;
        c.fromJson = i != 4; // one step without communication.json: the wait is unknown
        r.anomaly.stepComm.push_back(c);
    }
    r.anomaly.groups.push_back(g);
    bs::BubbleWindow w;
    w.id = "b0001";
    w.scope = bs::WindowScope::StepInternal;
    w.stepIndex = 1;
    w.span = {1'000, 5'001'000};
    w.labels = {"possible_sync_or_h2d"};
    r.anomaly.windows.push_back(w);
    w.id = "b0002";
    w.span = {7'000'000, 7'400'000};
    r.anomaly.windows.push_back(w);
    r.anomaly.hiddenIssuePresent = true;
    return r;
}

bs::CompareSide side(double serviceP50, double serviceAvg, std::vector<bs::CompareWindow> windows) {
    bs::CompareSide s;
    s.label = "hand";
    s.hasData = true;
    s.groupId = "g0";
    s.groupSteps = {5};
    s.scope.stepNumbers = {5};
    s.figures.push_back({"service_ms", true, serviceAvg, serviceP50});
    s.figures.push_back({"comm_exposed_ms", true, 0, 0});
    s.figures.push_back({"comm_wait_ms", false, 0, 0});
    s.figures.push_back({"prelaunch_ms", true, 0, 0});
    s.windows = std::move(windows);
    return s;
}

bs::CompareWindow win(const std::string& id, const std::string& after, bs::TimeNs dur) {
    bs::CompareWindow w;
    w.id = id;
    w.scope = "step_internal";
    w.step = 5;
    w.stepIndex = 0;
    w.dominant = true;
    w.before = "MatMul";
    w.after = after;
    w.dur = dur;
    return w;
}

const bs::GateResult* only(const std::vector<bs::GateResult>& v) {
    return v.size() == 1 ? &v.front() : nullptr;
}

// The JUnit XML read back: suites' and cases' attributes, each failure's message.
struct JUnit {
    bool ok = false;
    QString error;
    int suitesTests = -1, suitesFailures = -1, suiteTests = -1, suiteFailures = -1;
    QStringList cases, classnames;
    QMap<QString, QString> failures; // case name → message
};

JUnit parseJUnit(const QByteArray& xml) {
    JUnit j;
    QXmlStreamReader r(xml);
    QString current;
    while (!r.atEnd()) {
        r.readNext();
        if (!r.isStartElement()) continue;
        const auto a = r.attributes();
        if (r.name() == QLatin1String("testsuites")) {
            j.suitesTests = a.value(QLatin1String("tests")).toInt();
            j.suitesFailures = a.value(QLatin1String("failures")).toInt();
        } else if (r.name() == QLatin1String("testsuite")) {
            j.suiteTests = a.value(QLatin1String("tests")).toInt();
            j.suiteFailures = a.value(QLatin1String("failures")).toInt();
        } else if (r.name() == QLatin1String("testcase")) {
            current = a.value(QLatin1String("name")).toString();
            j.cases << current;
            j.classnames << a.value(QLatin1String("classname")).toString();
        } else if (r.name() == QLatin1String("failure")) {
            j.failures[current] = a.value(QLatin1String("message")).toString();
        }
    }
    j.ok = !r.hasError();
    j.error = r.errorString();
    return j;
}

// xmllint --schema tests/gate/junit.xsd (Debian's libxml2-utils, in the README's apt line).
QString validateJUnit(const QString& file) {
    const QString xmllint = QStandardPaths::findExecutable(QStringLiteral("xmllint"));
    if (xmllint.isEmpty()) return QStringLiteral("xmllint not found");
    const Run r = bstest::runProgram(xmllint, {QStringLiteral("--noout"), QStringLiteral("--schema"),
                                               QStringLiteral(BS_SOURCE_DIR "/tests/gate/junit.xsd"), file});
    if (r.code == 0) return {};
    return r.err.isEmpty() ? QStringLiteral("xmllint exited with %1").arg(r.code) : r.err;
}

} // namespace

class TestGate : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    QString none, sync;          // one rank each, the same seed; sync has the planted sync bubble
    qint64 syncStart = 0, syncDur = 0; // its span (ns) from the generator's ground truth

    QString generate(const QString& name, const QStringList& extra) {
        return bstest::generate(
            tmp.filePath(name),
            QStringList{QStringLiteral("--seed"), QStringLiteral("7"), QStringLiteral("--steps"),
                        QStringLiteral("3"), QStringLiteral("--dense"), QStringLiteral("1"),
                        QStringLiteral("--dfc"), QStringLiteral("1"), QStringLiteral("--gmm"),
                        QStringLiteral("0"), QStringLiteral("--prefill"), QStringLiteral("1"),
                        QStringLiteral("--decode"), QStringLiteral("2")} +
                extra);
    }

    // The "gates" of a JSON output, always 8 entries long (missing ones are empty objects), so a test that
    // finds fewer fails on its comparisons instead of reading past the end.
    static QJsonArray gatesOf(const Run& r) {
        QJsonArray a = QJsonDocument::fromJson(r.out.toUtf8()).object()[QStringLiteral("gates")].toArray();
        if (a.isEmpty()) qWarning("no gates in: %s", qPrintable(r.out.right(300) + r.err));
        while (a.size() < 8)
            a.append(QJsonObject());
        return a;
    }
    static int gateCount(const Run& r) {
        return static_cast<int>(QJsonDocument::fromJson(r.out.toUtf8()).object()[QStringLiteral("gates")].toArray().size());
    }

  private slots:
    void initTestCase() {
        QVERIFY(tmp.isValid());
        const QString n = generate(QStringLiteral("none"), {QStringLiteral("--anomalies"), QStringLiteral("none")});
        const QString s = generate(QStringLiteral("sync"), {QStringLiteral("--anomalies"), QStringLiteral("sync")});
        QVERIFY(!n.isEmpty() && !s.isEmpty());
        none = n + QStringLiteral("/synth_ascend_pt");
        sync = s + QStringLiteral("/synth_ascend_pt");
        for (const auto& x : readJson(s + QStringLiteral("/expected.json"))[QStringLiteral("anomalies")].toArray()) {
            const QJsonObject o = x.toObject();
            if (o[QStringLiteral("type")].toString() != QStringLiteral("sync_bubble")) continue;
            syncStart = o[QStringLiteral("start_ns")].toInteger();
            syncDur = o[QStringLiteral("end_ns")].toInteger() - syncStart;
        }
        QVERIFY(syncDur > 0);
    }

    // --- parsing ------------------------------------------------------------------------------------------

    void parsesOperatorsReductionsAndSpaces() {
        bs::GateExpr g = gate("service_ms>120");
        QCOMPARE(g.metric, std::string("service_ms"));
        QVERIFY(g.stat == bs::GateStat::P50 && g.op == bs::GateOp::Greater && g.threshold == 120.0);
        g = gate("  p90:service_ms >= 1.5 ");
        QVERIFY(g.stat == bs::GateStat::P90 && g.op == bs::GateOp::GreaterEq && g.threshold == 1.5);
        g = gate("max:underfeed_ratio<0.25");
        QVERIFY(g.stat == bs::GateStat::Max && g.op == bs::GateOp::Less && g.threshold == 0.25);
        g = gate("significant_windows<=-1e-3");
        QVERIFY(g.stat == bs::GateStat::Plain && g.op == bs::GateOp::LessEq && g.threshold == -0.001);
        QCOMPARE(g.canonical(), std::string("significant_windows <= -0.001"));
        g = gate("avg:service_pct>+2", bs::GateCommand::Compare);
        QVERIFY(g.stat == bs::GateStat::Avg && g.threshold == 2.0);
        QCOMPARE(gate("new_windows>0", bs::GateCommand::Compare).canonical(), std::string("new_windows > 0"));
        QCOMPARE(gate("p50:underfeed_delta>0.01", bs::GateCommand::Compare).metric, std::string("underfeed_delta"));
    }

    void rejectsMalformedExpressionsNamingWhatIsAccepted_data() {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<bool>("compare");
        QTest::addColumn<QString>("says");
        QTest::newRow("no operator") << "service_ms" << false << "METRIC OP NUMBER";
        QTest::newRow("equals") << "service_ms=2" << false << "METRIC OP NUMBER";
        QTest::newRow("no number") << "service_ms>" << false << "is not a number";
        QTest::newRow("word") << "service_ms>abc" << false << "is not a number";
        QTest::newRow("trailing") << "service_ms>1x" << false << "is not a number";
        QTest::newRow("double op") << "service_ms>>1" << false << "is not a number";
        QTest::newRow("nan") << "service_ms>nan" << false << "is not a number";
        QTest::newRow("inf") << "service_ms<inf" << false << "is not a number";
        QTest::newRow("+-") << "service_ms>+-1" << false << "is not a number";
        QTest::newRow("unknown metric") << "servce_ms>1" << false << "accepted: service_ms, device_busy_union_ms";
        QTest::newRow("empty metric") << ">1" << false << "unknown metric ''";
        QTest::newRow("p95") << "p95:service_ms>1" << false << "accepted: p50:, p90:, max:";
        QTest::newRow("reduced count") << "max:significant_windows>1" << false << "takes no 'max:' reduction";
        QTest::newRow("compare metric on analyze") << "service_pct>2" << false << "unknown metric 'service_pct'";
        QTest::newRow("analyze metric on compare") << "service_ms>2" << true << "new_windows, grew_windows";
        QTest::newRow("p90 on compare") << "p90:service_pct>2" << true << "P50 and average deltas only";
        QTest::newRow("max on compare") << "max:service_pct>2" << true << "accepted: p50:, avg:";
        QTest::newRow("cluster on compare") << "slow_ranks>0" << true << "unknown metric 'slow_ranks'";
    }
    void rejectsMalformedExpressionsNamingWhatIsAccepted() {
        QFETCH(QString, expr);
        QFETCH(bool, compare);
        QFETCH(QString, says);
        std::string error;
        const auto g = bs::parseGate(expr.toStdString(), compare ? bs::GateCommand::Compare : bs::GateCommand::Analyze,
                                     error);
        QVERIFY(!g);
        QVERIFY2(QString::fromStdString(error).contains(says), error.c_str());
    }

    // --- boundaries, by hand --------------------------------------------------------------------------------

    void analysisGatesAtTheirBoundaries_data() {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<double>("value");
        QTest::addColumn<bool>("passed");
        // P50 of 0..10 ms is 5: '>' at the value passes, '>=' fails; one step (1 µs) either side.
        QTest::newRow("p50 > 5") << "service_ms>5" << 5.0 << true;
        QTest::newRow("p50 >= 5") << "service_ms>=5" << 5.0 << false;
        QTest::newRow("p50 > 4.999") << "service_ms>4.999" << 5.0 << false;
        QTest::newRow("p50 >= 5.001") << "service_ms>=5.001" << 5.0 << true;
        QTest::newRow("p50 < 5") << "service_ms<5" << 5.0 << true;
        QTest::newRow("p50 <= 5") << "service_ms<=5" << 5.0 << false;
        QTest::newRow("p50 < 5.001") << "service_ms<5.001" << 5.0 << false;
        QTest::newRow("p50 <= 4.999") << "service_ms<=4.999" << 5.0 << true;
        QTest::newRow("p90 > 9") << "p90:service_ms>9" << 9.0 << true;
        QTest::newRow("p90 >= 9") << "p90:service_ms>=9" << 9.0 << false;
        QTest::newRow("p90 > 8.999") << "p90:service_ms>8.999" << 9.0 << false;
        QTest::newRow("max > 10") << "max:service_ms>10" << 10.0 << true;
        QTest::newRow("max >= 10") << "max:service_ms>=10" << 10.0 << false;
        QTest::newRow("max >= 10.001") << "max:service_ms>=10.001" << 10.0 << true;
        QTest::newRow("largest max") << "max:largest_internal_bubble_ms>=5" << 5.0 << false;
        QTest::newRow("largest p90") << "p90:largest_internal_bubble_ms>4.5" << 4.5 << true;
        QTest::newRow("bubble_count p50") << "bubble_count>=5" << 5.0 << false;
        QTest::newRow("bubble_count p50 >6") << "bubble_count>=6" << 5.0 << true;
        QTest::newRow("comm exposed") << "comm_exposed_ms>=0.25" << 0.25 << false;
        QTest::newRow("windows 2 > 2") << "significant_windows>2" << 2.0 << true;
        QTest::newRow("windows 2 >= 2") << "significant_windows>=2" << 2.0 << false;
        QTest::newRow("windows 2 > 1") << "significant_windows>1" << 2.0 << false;
        QTest::newRow("windows 2 >= 3") << "significant_windows>=3" << 2.0 << true;
        QTest::newRow("hidden issue") << "hidden_issue>0" << 1.0 << false;
        QTest::newRow("hidden issue >1") << "hidden_issue>1" << 1.0 << true;
    }
    void analysisGatesAtTheirBoundaries() {
        QFETCH(QString, expr);
        QFETCH(double, value);
        QFETCH(bool, passed);
        const bs::AnalysisResult r = elevenSteps();
        const auto results = bs::evaluateAnalysisGates({gate(expr.toStdString())}, r);
        const bs::GateResult* g = only(results);
        QVERIFY(g && g->value);
        QEXACT(*g->value, value);
        QCOMPARE(g->passed, passed);
        QCOMPARE(bs::anyGateFailed(results), !passed);
    }

    void analysisGateNamesItsWindowOrOpAndSaysWhatItCannotMeasure() {
        bs::AnalysisResult r = elevenSteps();
        const auto largest = bs::evaluateAnalysisGates({gate("max:largest_internal_bubble_ms>1")}, r);
        // The longest window of the dominant group (b0001, 5.000 ms, step 101).
        QCOMPARE(QString::fromStdString(bs::english(largest[0].cause)),
                 QStringLiteral("top window b0001: 5.000 ms step_internal in step 101 (possible_sync_or_h2d)"));
        // comm_wait_ms needs communication.json in every step: not measured, so the gate fails, said.
        const auto wait = bs::evaluateAnalysisGates({gate("comm_wait_ms>100")}, r);
        QVERIFY(!wait[0].value);
        QVERIFY(!wait[0].passed);
        QVERIFY(bs::english(wait[0].cause).find("communication.json") != std::string::npos);
        // No group at all: every per-step gate is unmeasured, the plain ones are measured.
        r.anomaly.groups.clear();
        const auto noGroup = bs::evaluateAnalysisGates({gate("service_ms>1"), gate("significant_windows>5")}, r);
        QVERIFY(!noGroup[0].value && !noGroup[0].passed);
        QVERIFY(noGroup[1].value && *noGroup[1].value == 2.0 && noGroup[1].passed);
        // Cluster gates are not measured here.
        QVERIFY(bs::evaluateAnalysisGates({gate("slow_ranks>0")}, r).empty());
    }

    void clusterGatesCountSlowRanksAndTheirLargestCost() {
        bs::ClusterResult c;
        c.ranks.resize(3);
        c.ranks[1].label = "r1";
        c.ranks[2].label = "r2";
        bs::SlowRank a, b;
        a.rank = 1;
        a.cost = 2'000'000;
        b.rank = 2;
        b.cost = 3'000'000;
        b.collective = "hcom_allReduce__1_0_1";
        b.collectiveStep = 4;
        c.slowRanks = {a, b};
        const auto r = bs::evaluateClusterGates({gate("slow_ranks>=2"), gate("slow_ranks>2"), gate("cost_ms>3"),
                                                 gate("cost_ms>=3"), gate("cost_ms>2.999999")},
                                                &c);
        QCOMPARE(r.size(), std::size_t(5));
        QVERIFY(!r[0].passed && r[1].passed && r[2].passed && !r[3].passed && !r[4].passed);
        QEXACT(*r[3].value, 3.0);
        QCOMPARE(QString::fromStdString(bs::english(r[3].cause)),
                 QStringLiteral("slowest rank r2: 3.000 ms per slow step at hcom_allReduce__1_0_1 (step 4)"));
        c.slowRanks.clear();
        const auto none = bs::evaluateClusterGates({gate("cost_ms>0"), gate("slow_ranks>0")}, &c);
        QVERIFY(none[0].passed && *none[0].value == 0.0 && none[1].passed && *none[1].value == 0.0);
        // Not compared (fewer than two ranks analysed): not measured, failed; the per-rank gates are not its own.
        const auto notCompared = bs::evaluateClusterGates({gate("cost_ms>100"), gate("service_ms>1")}, nullptr);
        QCOMPARE(notCompared.size(), std::size_t(1));
        QVERIFY(!notCompared[0].value && !notCompared[0].passed);
        QCOMPARE(QString::fromStdString(bs::english(notCompared[0].scope)), QStringLiteral("cluster"));
    }

    void comparisonGatesAtTheirBoundaries() {
        // Service P50 8 → 10 ms (Δ 2 ms, +25 %), average 8 → 9 (Δ 1, +12.5 %); windows: one of the base grows
        // 1.0 → 1.5 ms (+50 %), one is removed, two are new (0.2 and 0.7 ms).
        bs::CompareSide b = side(8, 8, {win("b0001", "Add", 1'000'000), win("b0002", "Mul", 300'000)});
        bs::CompareSide n = side(10, 9, {win("b0001", "Add", 1'500'000), win("b0002", "Sub", 200'000),
                                         win("b0003", "Div", 700'000)});
        const bs::Comparison c = bs::compareSides(std::move(b), std::move(n));
        auto one = [&](const char* e) {
            const auto r = bs::evaluateComparisonGates({gate(e, bs::GateCommand::Compare)}, c);
            return r.size() == 1 ? r[0] : bs::GateResult{};
        };
        struct Case {
            const char* expr;
            double value;
            bool passed;
        } cases[] = {
            {"service_delta>2", 2, true},      {"service_delta>=2", 2, false},  {"service_delta>1.999", 2, false},
            {"service_delta>=2.001", 2, true}, {"service_pct>25", 25, true},    {"service_pct>=25", 25, false},
            {"service_pct>24.999", 25, false}, {"service_pct<25.001", 25, false}, {"avg:service_pct>12.5", 12.5, true},
            {"avg:service_pct>=12.5", 12.5, false}, {"avg:service_delta<=1", 1, false},
            {"new_windows>2", 2, true},        {"new_windows>=2", 2, false},    {"new_windows>1", 2, false},
            {"new_windows>=3", 2, true},       {"grew_windows>=1", 1, false},   {"grew_windows>1", 1, true},
            {"grew_ms>0.5", 0.5, true},        {"grew_ms>=0.5", 0.5, false},    {"grew_ms>0.499999", 0.5, false},
            {"removed_windows>=1", 1, false},  {"removed_windows>1", 1, true},  {"shrunk_windows>0", 0, true},
            {"comm_exposed_pct>0", 0, true}, // 0 → 0: no change, 0 %
        };
        for (const auto& k : cases) {
            const bs::GateResult r = one(k.expr);
            QVERIFY2(r.value, k.expr);
            QVERIFY2(*r.value == k.value, qPrintable(QStringLiteral("%1: %2").arg(k.expr).arg(*r.value, 0, 'g', 17)));
            QVERIFY2(r.passed == k.passed, k.expr);
        }
        // Unknown on a side (comm wait without communication.json): not measured, failed, said.
        const bs::GateResult wait = one("comm_wait_delta>100");
        QVERIFY(!wait.value && !wait.passed);
        QCOMPARE(QString::fromStdString(bs::english(wait.cause)), QStringLiteral("comm_wait_ms is not known on both sides"));
        // The cause of a window gate names the window that moved it.
        QCOMPARE(QString::fromStdString(bs::english(one("new_windows>0").cause)),
                 QStringLiteral("new window b0003 (0.700 ms step_internal, step 5, after MatMul)"));
        QCOMPARE(QString::fromStdString(bs::english(one("grew_ms>0").cause)),
                 QStringLiteral("window b0001 (1.000 ms step_internal, step 5, after MatMul) grew by 0.500 ms (+50.0 %), "
                                "b0001 in new"));
    }

    void percentOfAZeroBaseIsNotMeasured() {
        bs::CompareSide b = side(8, 8, {}), n = side(8, 8, {});
        n.figures[3] = {"prelaunch_ms", true, 0.5, 0.5}; // 0 → 0.5 ms
        const bs::Comparison c = bs::compareSides(std::move(b), std::move(n));
        const auto r = bs::evaluateComparisonGates(
            {gate("prelaunch_pct>1000", bs::GateCommand::Compare), gate("prelaunch_delta>=0.5", bs::GateCommand::Compare)}, c);
        QVERIFY(!r[0].value && !r[0].passed);
        QCOMPARE(QString::fromStdString(bs::english(r[0].cause)),
                 QStringLiteral("prelaunch_ms is 0 in the base: no per cent change"));
        QVERIFY(r[1].value && *r[1].value == 0.5 && !r[1].passed);
    }

    void outputsTextJsonAndJUnitWithEscapes() {
        bs::GateResult pass, fail;
        pass.expr = gate("service_ms>5");
        pass.value = 4.5;
        pass.passed = true;
        fail.expr = gate("significant_windows>=1");
        fail.scope = "rank<0>&\"1\"";
        fail.value = 3;
        fail.cause = bs::msg("top window {}: {} ms {} in step {} ({})", "b0001", "1.000", "prelaunch", "7",
                             std::string("k\x01<&>"));
        const std::vector<bs::GateResult> v{pass, fail};
        QCOMPARE(QString::fromStdString(bs::renderGatesText(v)),
                 QStringLiteral("Gates\n  pass  service_ms > 5  = 4.5\n"
                                "  FAIL  rank<0>&\"1\": significant_windows >= 1  = 3  (top window b0001: 1.000 ms "
                                "prelaunch in step 7 (k\\x01<&>))\n2 gates, 1 failed.\n"));
        const QJsonArray a = QJsonDocument::fromJson(QByteArray::fromStdString(bs::withGatesMember("{}", v)))
                                 .object()[QStringLiteral("gates")]
                                 .toArray();
        QCOMPARE(a.size(), 2);
        QCOMPARE(a[1].toObject()[QStringLiteral("expr")].toString(), QStringLiteral("significant_windows >= 1"));
        QEXACT(a[1].toObject()[QStringLiteral("value")].toDouble(), 3.0);
        QCOMPARE(a[1].toObject()[QStringLiteral("passed")].toBool(), false);
        QCOMPARE(a[0].toObject()[QStringLiteral("passed")].toBool(), true);
        // Appended as the last member of a document with members.
        const QJsonObject doc =
            QJsonDocument::fromJson(QByteArray::fromStdString(bs::withGatesMember("{\"a\": 1}\n", v))).object();
        QCOMPARE(doc[QStringLiteral("a")].toInt(), 1);
        QCOMPARE(doc[QStringLiteral("gates")].toArray().size(), 2);

        const std::string xml = bs::renderGatesJUnit(v, "bubblescope analyze");
        const JUnit j = parseJUnit(QByteArray::fromStdString(xml));
        QVERIFY2(j.ok, qPrintable(j.error));
        QCOMPARE(j.suitesTests, 2);
        QCOMPARE(j.suitesFailures, 1);
        QCOMPARE(j.suiteTests, 2);
        QCOMPARE(j.suiteFailures, 1);
        QCOMPARE(j.cases, (QStringList{QStringLiteral("service_ms > 5"),
                                       QStringLiteral("rank<0>&\"1\": significant_windows >= 1")}));
        QCOMPARE(j.classnames.at(0), QStringLiteral("bubblescope.analyze"));
        QCOMPARE(j.failures.size(), 1);
        QCOMPARE(j.failures.value(j.cases.at(1)),
                 QStringLiteral("significant_windows = 3, the gate is significant_windows >= 1; top window b0001: 1.000 "
                                "ms prelaunch in step 7 (k\\x01<&>)"));
        const QString file = tmp.filePath(QStringLiteral("escapes.xml"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(xml));
        f.close();
        const QString invalid = validateJUnit(file);
        QVERIFY2(invalid.isEmpty(), qPrintable(invalid));
    }

    // --- through the binary -------------------------------------------------------------------------------

    void malformedGatesAreUsageErrors() {
        Run r = runBinary({QStringLiteral("analyze"), none, QStringLiteral("--fail-if"), QStringLiteral("servce_ms>1")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("unknown metric 'servce_ms'; accepted: service_ms")), qPrintable(r.err));
        r = runBinary({QStringLiteral("compare"), none, sync, QStringLiteral("--fail-if"), QStringLiteral("new_windows>"),
                       QStringLiteral("-q")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("is not a number")), qPrintable(r.err));
        // --junit without a gate, a cluster gate on one rank, --junit on standard output.
        r = runBinary({QStringLiteral("compare"), none, sync, QStringLiteral("--junit"), tmp.filePath(QStringLiteral("x.xml"))});
        QCOMPARE(r.code, 2);
        QVERIFY(!QFile::exists(tmp.filePath(QStringLiteral("x.xml"))));
        r = runBinary({QStringLiteral("analyze"), none, QStringLiteral("--fail-if"), QStringLiteral("slow_ranks>0")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("measured on the cluster")), qPrintable(r.err));
        r = runBinary({QStringLiteral("analyze"), none, QStringLiteral("--fail-if"), QStringLiteral("service_ms>1"),
                       QStringLiteral("--junit"), QStringLiteral("-")});
        QCOMPARE(r.code, 2);
        // A file of the profile is refused as --junit, before anything is written.
        const QString own = none + QStringLiteral("/profiler_info_0.json");
        if (QFile::exists(own)) {
            const QByteArray before = [&] { QFile f(own); f.open(QIODevice::ReadOnly); return f.readAll(); }();
            r = runBinary({QStringLiteral("compare"), none, sync, QStringLiteral("--fail-if"), QStringLiteral("new_windows>0"),
                           QStringLiteral("--junit"), own});
            QCOMPARE(r.code, 2);
            QFile f(own);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(f.readAll(), before);
        }
    }

    void helpListsTheMetricsAndExitSix() {
        for (const QString& cmd : {QStringLiteral("analyze"), QStringLiteral("compare")}) {
            const Run r = runBinary({cmd, QStringLiteral("--help")});
            QCOMPARE(r.code, 0);
            QVERIFY2(r.out.contains(QStringLiteral("6 a --fail-if")), qPrintable(cmd));
            QVERIFY(r.out.contains(QStringLiteral("--junit FILE")));
            for (const auto& m : bs::gateMetrics(cmd == QStringLiteral("analyze") ? bs::GateCommand::Analyze
                                                                                   : bs::GateCommand::Compare))
                QVERIFY2(r.out.contains(QString::fromLatin1(m.name)), m.name);
        }
    }

    // analyze: the planted sync bubble is the largest internal bubble of its step, so max:largest_internal_bubble_ms
    // is its ground-truth duration; '>' at that value passes, '>=' fails, 1 ns either side; without it, it passes.
    void analyzeLargestBubbleGateBothWaysAndAtItsBoundary() {
        const double d = static_cast<double>(syncDur) / 1e6;
        auto run = [&](const QString& path, const QString& expr) {
            return runBinary({QStringLiteral("analyze"), path, QStringLiteral("-q"), QStringLiteral("--format"),
                              QStringLiteral("json"), QStringLiteral("--fail-if"), expr});
        };
        Run r = run(sync, QStringLiteral("max:largest_internal_bubble_ms>=") + exact(d));
        QCOMPARE(r.code, 6);
        const QJsonArray g = gatesOf(r);
        QCOMPARE(gateCount(r), 1);
        QEXACT(g[0].toObject()[QStringLiteral("value")].toDouble(), d);
        QCOMPARE(g[0].toObject()[QStringLiteral("passed")].toBool(), false);
        QVERIFY2(g[0].toObject()[QStringLiteral("cause")].toString().contains(
                     QStringLiteral("%1 ms step_internal").arg(d, 0, 'f', 3)),
                 qPrintable(g[0].toObject()[QStringLiteral("cause")].toString()));
        QCOMPARE(run(sync, QStringLiteral("max:largest_internal_bubble_ms>") + exact(d)).code, 0);
        QCOMPARE(run(sync, QStringLiteral("max:largest_internal_bubble_ms>") + exact(static_cast<double>(syncDur - 1) / 1e6)).code, 6);
        QCOMPARE(run(sync, QStringLiteral("max:largest_internal_bubble_ms>=") + exact(static_cast<double>(syncDur + 1) / 1e6)).code, 0);
        // Without the planted cause the same gate passes.
        r = run(none, QStringLiteral("max:largest_internal_bubble_ms>=") + exact(d));
        QCOMPARE(r.code, 0);
        QVERIFY(gatesOf(r)[0].toObject()[QStringLiteral("value")].toDouble() < d);
    }

    // significant_windows / hidden_issue / a P50 gate both ways, in the text output's Gates section.
    void analyzeTextEndsWithTheGatesSection() {
        // The sync capture has the planted window at least: significant_windows>0 fails there.
        const QString junit = tmp.filePath(QStringLiteral("analyze.xml"));
        Run r = runBinary({QStringLiteral("analyze"), sync, QStringLiteral("-q"), QStringLiteral("--fail-if"),
                           QStringLiteral("significant_windows>0"), QStringLiteral("--fail-if"), QStringLiteral("service_ms<0"),
                           QStringLiteral("--junit"), junit});
        QCOMPARE(r.code, 6);
        const int at = r.out.lastIndexOf(QStringLiteral("\nGates\n"));
        QVERIFY(at > 0);
        const QString section = r.out.mid(at + 1);
        QVERIFY2(section.contains(QStringLiteral("  FAIL  significant_windows > 0  = ")), qPrintable(section));
        QVERIFY2(section.contains(QStringLiteral("  pass  service_ms < 0  = ")), qPrintable(section));
        QVERIFY(section.endsWith(QStringLiteral("2 gates, 1 failed.\n")));
        QFile f(junit);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const JUnit j = parseJUnit(f.readAll());
        QVERIFY2(j.ok, qPrintable(j.error));
        QCOMPARE(j.suiteTests, 2);
        QCOMPARE(j.suiteFailures, 1);
        QVERIFY(j.failures.value(QStringLiteral("significant_windows > 0")).contains(QStringLiteral("top window b0")));
        const QString invalid = validateJUnit(junit);
        QVERIFY2(invalid.isEmpty(), qPrintable(invalid));
        // hidden_issue is 0 or 1, and a gate on it at 0.5 splits them.
        r = runBinary({QStringLiteral("analyze"), sync, QStringLiteral("-q"), QStringLiteral("--format"),
                       QStringLiteral("json"), QStringLiteral("--fail-if"), QStringLiteral("hidden_issue>0.5")});
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const bool hidden = doc[QStringLiteral("hidden_issue")].toObject()[QStringLiteral("present")].toBool();
        QCOMPARE(r.code, hidden ? 6 : 0);
        QCOMPARE(gateCount(r), 1);
        QEXACT(gatesOf(r)[0].toObject()[QStringLiteral("value")].toDouble(), hidden ? 1.0 : 0.0);
    }

    // compare: none → sync brings the planted window back (new_windows > 0 fails), none → none passes; the
    // JUnit names it; sync → none removes it.
    void compareWindowGatesBothWaysWithJUnit() {
        const QString junit = tmp.filePath(QStringLiteral("gate.xml"));
        Run r = runBinary({QStringLiteral("compare"), none, sync, QStringLiteral("-q"), QStringLiteral("--fail-if"),
                           QStringLiteral("new_windows>0"), QStringLiteral("--fail-if"), QStringLiteral("removed_windows>0"),
                           QStringLiteral("--junit"), junit});
        QCOMPARE(r.code, 6);
        QVERIFY(r.out.contains(QStringLiteral("  FAIL  new_windows > 0  = ")));
        QVERIFY(r.out.contains(QStringLiteral("  pass  removed_windows > 0  = 0\n")));
        QFile f(junit);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const JUnit j = parseJUnit(f.readAll());
        QVERIFY2(j.ok, qPrintable(j.error));
        QCOMPARE(j.suitesTests, 2);
        QCOMPARE(j.suitesFailures, 1);
        QCOMPARE(j.cases, (QStringList{QStringLiteral("new_windows > 0"), QStringLiteral("removed_windows > 0")}));
        QCOMPARE(j.classnames.at(1), QStringLiteral("bubblescope.compare"));
        const QString message = j.failures.value(QStringLiteral("new_windows > 0"));
        // The longest new window is the planted one, by its ground-truth duration.
        QVERIFY2(message.startsWith(QStringLiteral("new_windows = ")) &&
                     message.contains(QStringLiteral("new window b")) &&
                     message.contains(QStringLiteral("(%1 ms step_internal").arg(static_cast<double>(syncDur) / 1e6, 0, 'f', 3)),
                 qPrintable(message));
        const QString invalid = validateJUnit(junit);
        QVERIFY2(invalid.isEmpty(), qPrintable(invalid));

        r = runBinary({QStringLiteral("compare"), none, none, QStringLiteral("-q"), QStringLiteral("--fail-if"),
                       QStringLiteral("new_windows>0"), QStringLiteral("--fail-if"), QStringLiteral("removed_windows>0"),
                       QStringLiteral("--fail-if"), QStringLiteral("grew_windows>0"), QStringLiteral("--fail-if"),
                       QStringLiteral("grew_ms>0"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 0);
        const QJsonArray g = gatesOf(r);
        QCOMPARE(gateCount(r), 4);
        for (int i = 0; i < 4; ++i) {
            const QJsonValue x = g[i];
            QEXACT(x.toObject()[QStringLiteral("value")].toDouble(), 0.0);
            QVERIFY(x.toObject()[QStringLiteral("passed")].toBool());
        }

        r = runBinary({QStringLiteral("compare"), sync, none, QStringLiteral("-q"), QStringLiteral("--fail-if"),
                       QStringLiteral("removed_windows>=1"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.code, 6);
        const QJsonObject removed = gatesOf(r)[0].toObject();
        QVERIFY(removed[QStringLiteral("value")].toDouble() >= 1.0);
        QVERIFY2(removed[QStringLiteral("cause")].toString().startsWith(
                     QStringLiteral("removed window b")) &&
                     removed[QStringLiteral("cause")].toString().contains(
                         QStringLiteral("(%1 ms step_internal").arg(static_cast<double>(syncDur) / 1e6, 0, 'f', 3)),
                 qPrintable(removed[QStringLiteral("cause")].toString()));
    }

    // The step deltas: the planted bubble lengthens its step, so the average service grows (none → sync) and
    // shrinks back (sync → none); a capture against itself moves nothing.
    void compareStepDeltaGatesBothWays() {
        auto run = [&](const QString& a, const QString& b) {
            return runBinary({QStringLiteral("compare"), a, b, QStringLiteral("-q"), QStringLiteral("--format"),
                              QStringLiteral("json"), QStringLiteral("--fail-if"), QStringLiteral("avg:service_pct>0"),
                              QStringLiteral("--fail-if"), QStringLiteral("avg:internal_bubble_delta>0"),
                              QStringLiteral("--fail-if"), QStringLiteral("underfeed_delta<0")});
        };
        Run r = run(none, sync);
        QCOMPARE(r.code, 6);
        QJsonArray g = gatesOf(r);
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        // The values are the comparison's own deltas (its "steps" table, the same run).
        double servicePct = 0, internal = 0;
        for (const auto& x : doc[QStringLiteral("comparison")].toObject()[QStringLiteral("steps")].toArray()) {
            const QJsonObject o = x.toObject();
            if (o[QStringLiteral("metric")].toString() == QStringLiteral("service_ms"))
                servicePct = o[QStringLiteral("delta_avg_pct")].toDouble();
            if (o[QStringLiteral("metric")].toString() == QStringLiteral("internal_bubble_ms"))
                internal = o[QStringLiteral("delta_avg")].toDouble();
        }
        QVERIFY(servicePct > 0);
        QVERIFY(std::abs(g[0].toObject()[QStringLiteral("value")].toDouble() - servicePct) < 1e-6);
        QVERIFY(!g[0].toObject()[QStringLiteral("passed")].toBool());
        // The planted bubble is internal: the average internal bubble time grows by at least its third (3 steps).
        QVERIFY2(g[1].toObject()[QStringLiteral("value")].toDouble() >= static_cast<double>(syncDur) / 3e6 - 1e-9,
                 qPrintable(QString::number(internal)));
        QVERIFY(!g[1].toObject()[QStringLiteral("passed")].toBool());
        r = run(sync, none);
        QCOMPARE(r.code, 0);
        g = gatesOf(r);
        QVERIFY(g[0].toObject()[QStringLiteral("value")].toDouble() < 0);
        r = run(none, none);
        QCOMPARE(r.code, 0);
        QCOMPARE(gateCount(r), 3);
        const QJsonArray same = gatesOf(r);
        for (int i = 0; i < 3; ++i)
            QEXACT(same[i].toObject()[QStringLiteral("value")].toDouble(), 0.0);
    }

    // A stored baseline: analyze --summary writes the rank as compare needs it; compare SUMMARY NEW gives the same
    // step deltas, windows and gates as compare FOLDER NEW, and says once that layers are not compared.
    void storedSummaryGivesTheSameStepDeltasAsItsFolder() {
        const QString summary = tmp.filePath(QStringLiteral("baseline.summary.json"));
        QCOMPARE(runBinary({QStringLiteral("analyze"), none, QStringLiteral("-q"), QStringLiteral("--summary"), summary}).code, 0);
        const QStringList gates{QStringLiteral("--fail-if"), QStringLiteral("service_pct>2"), QStringLiteral("--fail-if"),
                                QStringLiteral("new_windows>0")};
        const Run fromFolder = runBinary(QStringList{QStringLiteral("compare"), none, sync, QStringLiteral("-q"),
                                                     QStringLiteral("--format"), QStringLiteral("json")} + gates);
        const Run fromSummary = runBinary(QStringList{QStringLiteral("compare"), summary, sync, QStringLiteral("-q"),
                                                      QStringLiteral("--format"), QStringLiteral("json")} + gates);
        QCOMPARE(fromFolder.code, 6);
        QCOMPARE(fromSummary.code, 6);
        const QJsonObject a = QJsonDocument::fromJson(fromFolder.out.toUtf8()).object();
        const QJsonObject b = QJsonDocument::fromJson(fromSummary.out.toUtf8()).object();
        const QJsonObject ca = a[QStringLiteral("comparison")].toObject(), cb = b[QStringLiteral("comparison")].toObject();
        QVERIFY(!ca[QStringLiteral("steps")].toArray().isEmpty());
        QCOMPARE(cb[QStringLiteral("steps")], ca[QStringLiteral("steps")]);
        QCOMPARE(cb[QStringLiteral("windows")], ca[QStringLiteral("windows")]);
        QCOMPARE(cb[QStringLiteral("ops")], ca[QStringLiteral("ops")]);
        QCOMPARE(cb[QStringLiteral("scope_warnings")], ca[QStringLiteral("scope_warnings")]);
        QCOMPARE(b[QStringLiteral("gates")], a[QStringLiteral("gates")]);
        int said = 0;
        for (const auto& n : cb[QStringLiteral("notes")].toArray())
            said += n.toString().contains(QStringLiteral("stored rank summary")) ? 1 : 0;
        QCOMPARE(said, 1);
        // NEW of several ranks against one rank's summary, a damaged summary: refused, said.
        Run r = runBinary({QStringLiteral("compare"), summary, tmp.filePath(QStringLiteral("none")) + QStringLiteral("/.."),
                           QStringLiteral("-q")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("is the summary of one rank")), qPrintable(r.err));
        // A summary is BASE only.
        r = runBinary({QStringLiteral("compare"), sync, summary, QStringLiteral("-q")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QStringLiteral("a summary is taken as BASE only")), qPrintable(r.err));
        const QString damaged = tmp.filePath(QStringLiteral("damaged.summary.json"));
        {
            QFile in(summary), out(damaged);
            QVERIFY(in.open(QIODevice::ReadOnly) && out.open(QIODevice::WriteOnly));
            QByteArray text = in.readAll();
            text.replace("\"compare\":", "\"kompare\":");
            out.write(text);
        }
        r = runBinary({QStringLiteral("compare"), damaged, sync, QStringLiteral("-q")});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains(QStringLiteral("holds no comparison digest")), qPrintable(r.err));
        // The summary itself is never an output.
        r = runBinary({QStringLiteral("compare"), summary, sync, QStringLiteral("-q"), QStringLiteral("--json"), summary});
        QCOMPARE(r.code, 2);
        QVERIFY(readJson(summary).contains(QStringLiteral("compare")));
    }

    // The real ResNet rank 0 (Level1 as BASE, Level0 as NEW): its summary (30 kB beside a 2.9 MB folder) gives the
    // comparison the folder gives — every member but the base's folder name and the one note about layers.
    void storedSummaryOfARealRankGivesTheSameComparison() {
        const QString l1 = QStringLiteral(BS_REALDATA_DIR "/torch_npu_resnet_ddp/level1/rank0_ascend_pt");
        const QString l0 = QStringLiteral(BS_REALDATA_DIR "/torch_npu_resnet_ddp/level0/rank0_ascend_pt");
        QVERIFY(QDir(l1).exists() && QDir(l0).exists());
        const QString summary = tmp.filePath(QStringLiteral("real.summary.json"));
        QCOMPARE(runBinary({QStringLiteral("analyze"), l1, QStringLiteral("-q"), QStringLiteral("--summary"), summary}).code, 0);
        const QStringList rest{QStringLiteral("-q"), QStringLiteral("--format"), QStringLiteral("json"),
                               QStringLiteral("--fail-if"), QStringLiteral("service_pct>2"), QStringLiteral("--fail-if"),
                               QStringLiteral("new_windows>0")};
        const Run a = runBinary(QStringList{QStringLiteral("compare"), l1, l0} + rest);
        const Run b = runBinary(QStringList{QStringLiteral("compare"), summary, l0} + rest);
        QCOMPARE(a.code, b.code);
        QJsonObject ca = QJsonDocument::fromJson(a.out.toUtf8()).object()[QStringLiteral("comparison")].toObject();
        QJsonObject cb = QJsonDocument::fromJson(b.out.toUtf8()).object()[QStringLiteral("comparison")].toObject();
        QVERIFY(!ca.isEmpty() && !cb.isEmpty());
        QCOMPARE(cb.keys(), ca.keys());
        for (const QString& k : ca.keys()) {
            if (k == QStringLiteral("base") || k == QStringLiteral("notes")) continue;
            QVERIFY2(ca[k] == cb[k], qPrintable(k));
        }
        QJsonObject ba = ca[QStringLiteral("base")].toObject(), bb = cb[QStringLiteral("base")].toObject();
        QCOMPARE(bb[QStringLiteral("folder")].toString(), summary);
        ba.remove(QStringLiteral("folder"));
        bb.remove(QStringLiteral("folder"));
        QCOMPARE(bb, ba);
        QJsonArray notes = cb[QStringLiteral("notes")].toArray();
        QCOMPARE(notes.last().toString(), QStringLiteral("Layers are not compared: BASE is a stored rank summary, which "
                                                         "holds no layers (the ops, steps and windows are compared)."));
        notes.removeLast();
        QCOMPARE(notes, ca[QStringLiteral("notes")].toArray());
        QCOMPARE(QJsonDocument::fromJson(b.out.toUtf8()).object()[QStringLiteral("gates")],
                 QJsonDocument::fromJson(a.out.toUtf8()).object()[QStringLiteral("gates")]);
        // Level1 → Level0: the service P50 of the one step falls (the Level0 capture's own step); the gate passes.
        QVERIFY(gatesOf(a)[0].toObject()[QStringLiteral("value")].toDouble() < 0);
    }

    // The cluster: rank 2 arrives 3 ms late at a collective, the others wait for it (the generator's plant):
    // slow_ranks and cost_ms fail their gates; the same collection without the slow rank passes them.
    void clusterGatesBothWays() {
        auto parent = [&](const QString& name, const QStringList& extra) {
            return bstest::generate(
                tmp.filePath(name),
                QStringList{QStringLiteral("--ranks"), QStringLiteral("4"), QStringLiteral("--steps"),
                            QStringLiteral("2"), QStringLiteral("--dense"), QStringLiteral("1"),
                            QStringLiteral("--dfc"), QStringLiteral("1"), QStringLiteral("--gmm"),
                            QStringLiteral("0"), QStringLiteral("--prefill"), QStringLiteral("1"),
                            QStringLiteral("--decode"), QStringLiteral("1")} +
                    extra);
        };
        const QString slow = parent(QStringLiteral("slow4"), {QStringLiteral("--slow-rank"), QStringLiteral("2"),
                                                             QStringLiteral("--slow-ms"), QStringLiteral("3")});
        const QString even = parent(QStringLiteral("even4"), {});
        QVERIFY(!slow.isEmpty() && !even.isEmpty());
        const QString junit = tmp.filePath(QStringLiteral("cluster.xml"));
        auto run = [&](const QString& p, const QString& costGate) {
            return runBinary({QStringLiteral("analyze"), p, QStringLiteral("-q"), QStringLiteral("--format"),
                              QStringLiteral("json"), QStringLiteral("--fail-if"), QStringLiteral("slow_ranks>0"),
                              QStringLiteral("--fail-if"), costGate, QStringLiteral("--junit"), junit});
        };
        Run r = run(slow, QStringLiteral("cost_ms>=3"));
        QCOMPARE(r.code, 6);
        QJsonArray g = gatesOf(r);
        QCOMPARE(gateCount(r), 2);
        QEXACT(g[0].toObject()[QStringLiteral("value")].toDouble(), 1.0);
        QCOMPARE(g[0].toObject()[QStringLiteral("scope")].toString(), QStringLiteral("cluster"));
        // The others wait the planted 3 ms for it: the cost is 3 ms; '>' at 3 passes, 1 ns below fails.
        QEXACT(g[1].toObject()[QStringLiteral("value")].toDouble(), 3.0);
        QVERIFY(!g[1].toObject()[QStringLiteral("passed")].toBool());
        QVERIFY(g[1].toObject()[QStringLiteral("cause")].toString().contains(QStringLiteral("rank2")));
        r = run(slow, QStringLiteral("cost_ms>3"));
        QCOMPARE(gatesOf(r)[1].toObject()[QStringLiteral("passed")].toBool(), true);
        r = run(slow, QStringLiteral("cost_ms>2.999999"));
        QCOMPARE(gatesOf(r)[1].toObject()[QStringLiteral("passed")].toBool(), false);
        QFile f(junit);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const JUnit j = parseJUnit(f.readAll());
        QVERIFY(j.ok);
        QCOMPARE(j.cases, (QStringList{QStringLiteral("cluster: slow_ranks > 0"), QStringLiteral("cluster: cost_ms > 2.999999")}));
        QCOMPARE(j.suiteFailures, 2);
        // A shared --json stream of several ranks ({"ranks": …}) ends with every gate, the cluster's too.
        r = runBinary({QStringLiteral("analyze"), slow, QStringLiteral("-q"), QStringLiteral("--json"), QStringLiteral("-"),
                       QStringLiteral("--fail-if"), QStringLiteral("slow_ranks>0"), QStringLiteral("--fail-if"),
                       QStringLiteral("service_ms<0")});
        QCOMPARE(r.code, 6);
        QCOMPARE(gateCount(r), 5); // four ranks' service_ms, then the cluster's slow_ranks
        QCOMPARE(gatesOf(r)[4].toObject()[QStringLiteral("expr")].toString(), QStringLiteral("slow_ranks > 0"));
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object()[QStringLiteral("ranks")].toArray().size(), 4);
                r = run(even, QStringLiteral("cost_ms>0"));
        QCOMPARE(r.code, 0);
        g = gatesOf(r);
        QEXACT(g[0].toObject()[QStringLiteral("value")].toDouble(), 0.0);
        QEXACT(g[1].toObject()[QStringLiteral("value")].toDouble(), 0.0);
        // A per-step gate on a parent: one result per rank, each named.
        r = runBinary({QStringLiteral("analyze"), even, QStringLiteral("-q"), QStringLiteral("--format"),
                       QStringLiteral("json"), QStringLiteral("--fail-if"), QStringLiteral("service_ms<0")});
        QCOMPARE(r.code, 0);
        g = gatesOf(r);
        QCOMPARE(gateCount(r), 4);
        QVERIFY(g[0].toObject()[QStringLiteral("scope")].toString().contains(QStringLiteral("rank0")));
    }
};

QTEST_GUILESS_MAIN(TestGate)
#include "tst_gate.moc"
