// Anomaly discovery against ground truth: the planted anomalies of generated profiles (expected.json),
// a clean profile, real ResNet windows recomputed by hand, a capture without host trace, and rules.
#include "i18n/message.h"
#include "test_support.h"
#include "pipeline/analysis_run.h"
#include "analysis/host_evidence.h"
#include "io/profile_loader.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace {

struct Run {
    bs::LoadResult load;
    bs::AnalysisResult r;
};

Run analyze(const QString& path, const bs::Rulebook& rules = {}) {
    Run out;
    auto found = bs::discoverProfiles(path.toStdString());
    if (found.ranks.size() != 1) return out;
    out.load = bs::loadRank(found.ranks[0]);
    out.r = bs::analyzeProfile(*out.load.profile, rules);
    return out;
}

bool contains(const std::vector<std::string>& v, const char* s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

} // namespace

class TstAnomalyDiscovery : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    const QString sample = QStringLiteral(BS_SOURCE_DIR "/resources/sample");

  private slots:
    void everyPlantedAnomalyIsFoundWithItsLabelAndWindow() {
        const QJsonObject ex =
            QJsonDocument::fromJson(bstest::readFile(sample + QStringLiteral("/expected.json"))).object();
        auto run = analyze(sample + QStringLiteral("/sample_ascend_pt"));
        const auto& a = run.r.anomaly;
        int checked = 0;
        for (const auto& v : ex.value(QStringLiteral("anomalies")).toArray()) {
            const QJsonObject an = v.toObject();
            const std::string label = an.value(QStringLiteral("expected_label")).toString().toStdString();
            const QString kind = an.value(QStringLiteral("kind")).toString();
            if (kind == QStringLiteral("bubble")) {
                const qint64 s = an.value(QStringLiteral("start_ns")).toVariant().toLongLong();
                const qint64 e = an.value(QStringLiteral("end_ns")).toVariant().toLongLong();
                const bs::BubbleWindow* hit = nullptr;
                for (const auto& w : a.windows)
                    if (std::llabs(w.span.a - s) <= 1000 && std::llabs(w.span.b - e) <= 1000) hit = &w;
                QVERIFY2(hit, qPrintable(an.value(QStringLiteral("type")).toString()));
                QCOMPARE(QString::fromStdString(hit->stepId), an.value(QStringLiteral("step")).toString());
                QVERIFY2(contains(hit->labels, label.c_str()), label.c_str());
                QCOMPARE(hit->labels.size(), std::size_t(1)); // and nothing else
                ++checked;
            } else if (kind == QStringLiteral("op")) {
                const std::string op = an.value(QStringLiteral("op")).toString().toStdString();
                bool found = false;
                if (label.rfind("AICPU_", 0) == 0) {
                    for (const auto& ai : a.aicpuOps)
                        if (ai.name == op) found = ai.cls == label;
                } else {
                    for (const auto& o : a.ops)
                        if (o.name == op)
                            found = label == "WAIT_ANCHOR_FALSE_HOTSPOT" ? o.falseHotspot : o.waitPollution;
                }
                QVERIFY2(found, (op + " " + label).c_str());
                QVERIFY(contains(a.globalTags, label == "AICPU_EXPOSED_NOT_ALLOWED" ? "AICPU_EXPOSED_RISK"
                                               : label == "AICPU_MASKED_BUT_UNDESIRABLE"
                                                   ? "AICPU_EXPOSED_RISK"
                                                   : label.c_str()));
                ++checked;
            } else {
                // variable shapes: the group holding steps 2 and 3 carries the tag.
                bool tagged = false;
                for (const auto& g : a.groups)
                    if (g.steps.size() == 2 && contains(g.tags, label.c_str())) tagged = true;
                QVERIFY(tagged);
                ++checked;
            }
        }
        QCOMPARE(checked, 9);
        // Exactly the four planted windows are significant.
        QCOMPARE(a.windows.size(), std::size_t(4));
        QCOMPARE(a.confidence, std::string("high"));
        // The planted untraced window gets a "sample the host" recommendation, a host follow-up (issue 12
        // item 5: the flag follows the recommendations).
        QVERIFY(a.requiresHostFollowup);
    }
    void cleanProfileProducesNoLabelAndNoRisk() {
        QProcess p;
        p.start(QStringLiteral(BS_SYNTH),
                {QStringLiteral("--out"), tmp.filePath(QStringLiteral("clean")), QStringLiteral("--name"),
                 QStringLiteral("clean"), QStringLiteral("--anomalies"), QStringLiteral("none"),
                 QStringLiteral("--quiet")});
        QVERIFY(p.waitForFinished(60000) && p.exitCode() == 0);
        auto run = analyze(tmp.filePath(QStringLiteral("clean/clean_ascend_pt")));
        const auto& a = run.r.anomaly;
        QCOMPARE(a.windows.size(), std::size_t(0));
        QCOMPARE(a.softCauses.size(), std::size_t(0));
        QVERIFY(a.aicpuOps.empty());
        for (const char* t : {"HOST_ORIGINATED_RISK", "UNTRACED_HOST_BLOCKING_RISK",
                              "RECURRING_BUBBLE_PATTERN", "AICPU_EXPOSED_RISK", "WAIT_ANCHOR_FALSE_HOTSPOT",
                              "VARIABLE_SHAPE_SAME_TEMPLATE", "PARTIAL_CAPTURE_BOUNDARY"})
            QVERIFY2(!contains(a.globalTags, t), t);
        QVERIFY(!a.hiddenIssuePresent);
        QCOMPARE(a.groups.size(), std::size_t(1)); // three identical steps, one template
        QCOMPARE(a.groups[0].dominantIdlePattern, std::string("none"));
        QCOMPARE(a.answers.size(), std::size_t(5));
        QVERIFY(bs::english(a.answers[0]).rfind("Significant bubbles: no", 0) == 0);
    }
    void realResnetTopWindowsHaveNeighboursAndHandCheckedCoverage() {
        const QString rank = QStringLiteral(BS_REALDATA_DIR "/torch_npu_resnet_ddp/level1/rank0_ascend_pt");
        auto run = analyze(rank);
        const auto& a = run.r.anomaly;
        QVERIFY(a.windows.size() >= 5);
        // The real labels (ANALYSIS §5, §6): b0001 is step 50's prelaunch (sync markers over 41 % of it)
        // and b0002 its tail (sync 78 %), both inside the host trace, so ordinary windows:
        // possible_sync_or_h2d. b0003–b0005 are internal gaps fully covered by host events without sync or
        // communication markers: possible_host_launch_lag. Each has exactly that one label.
        const char* const expectedLabel[] = {"possible_sync_or_h2d", "possible_sync_or_h2d",
                                             "possible_host_launch_lag", "possible_host_launch_lag",
                                             "possible_host_launch_lag"};
        QCOMPARE(a.windows[0].scope, bs::WindowScope::Prelaunch);
        QCOMPARE(a.windows[1].scope, bs::WindowScope::Tail);
        for (std::size_t i = 0; i < 5; ++i) {
            const auto& w = a.windows[i];
            QVERIFY(w.span.length() >= 50000);
            QCOMPARE(w.labels, std::vector<std::string>{expectedLabel[i]});
            QVERIFY(w.evidence.hostTraceExists);
            QVERIFY(w.scope == bs::WindowScope::Prelaunch || !w.before.empty());
            // The last step's tail has nothing after it (the capture ends); every other window does.
            QVERIFY(w.scope == bs::WindowScope::Tail || !w.after.empty());
            QVERIFY(w.after.size() <= 3 && w.before.size() <= 3);
            if (!w.after.empty())
                QCOMPARE(w.after.front().start, w.span.b); // the window ends where the next kernel starts
            if (!w.before.empty()) QCOMPARE(w.before.front().start + w.before.front().dur, w.span.a);
        }
        // The first internal window (b0003) is the 1.319 ms after MaxPool's TransData.
        QCOMPARE(a.windows[2].scope, bs::WindowScope::StepInternal);
        QCOMPARE(a.windows[2].span.length(), Q_INT64_C(1318826));
        // b0009 (0.923 ms, internal) is only partly covered (0.94): recompute its host coverage here from
        // the raw trace with nlohmann: union of host X events clipped to the window, leaving out the step
        // marker and the frames that enclose the whole step. (b0003's coverage is 1.0, which a wrong
        // clipping would reproduce just as well.)
        const bs::BubbleWindow* w = nullptr;
        for (const auto& x : a.windows)
            if (x.id == "b0009") w = &x;
        QVERIFY(w);
        QCOMPARE(w->scope, bs::WindowScope::StepInternal);
        QCOMPARE(w->span.length(), Q_INT64_C(922778));
        QVERIFY2(w->evidence.coverage > 0.5 && w->evidence.coverage < 0.99,
                 qPrintable(QString::number(w->evidence.coverage)));
        const auto doc = nlohmann::json::parse(
            bstest::readFile(rank + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json")).toStdString());
        std::set<long long> hostPids;
        for (const auto& e : doc)
            if (e.value("ph", "") == "M" && e.value("name", "") == "process_name") {
                const std::string n = e["args"].value("name", "");
                if (n == "Python" || n == "CANN") hostPids.insert(e["pid"].get<long long>());
            }
        // Step window from the marker and the kernels: [S, E) as ANALYSIS §2 defines it. In exact integer
        // ns (a double holds these µs timestamps to 0.25 µs only, too coarse for a window partly covered).
        auto exactNs = [](const std::string& us) { // "1736408883686740.710" → 1736408883686740710
            const auto dot = us.find('.');
            std::string frac = dot == std::string::npos ? std::string() : us.substr(dot + 1);
            frac.resize(3, '0');
            return std::stoll(us.substr(0, dot)) * 1000 + std::stoll(frac.substr(0, 3));
        };
        const long long S = 1736408883686740710LL, E = S + 155985800LL; // no kernel ends after the marker
        const long long a0 = w->span.a, b0 = w->span.b;
        std::vector<std::pair<long long, long long>> iv;
        for (const auto& e : doc) {
            if (e.value("ph", "") != "X" || !hostPids.count(e["pid"].get<long long>())) continue;
            const std::string name = e.value("name", "");
            if (name.rfind("ProfilerStep#", 0) == 0) continue;
            const long long ts = exactNs(e["ts"].get<std::string>());
            const long long end = ts + std::llround(e["dur"].get<double>() * 1000.0);
            if (ts <= S && end >= E) continue;
            const long long lo = std::max(ts, a0), hi = std::min(end, b0);
            if (hi > lo) iv.emplace_back(lo, hi);
        }
        std::sort(iv.begin(), iv.end());
        long long covered = 0, curA = -1, curB = -1;
        for (const auto& [lo, hi] : iv) {
            if (lo > curB) {
                covered += curB - curA;
                curA = lo;
                curB = hi;
            } else {
                curB = std::max(curB, hi);
            }
        }
        covered += curB - curA;
        const double handCoverage = static_cast<double>(covered) / static_cast<double>(b0 - a0);
        QVERIFY2(
            std::abs(handCoverage - w->evidence.coverage) < 1e-6,
            qPrintable(QStringLiteral("hand %1 vs ours %2").arg(handCoverage).arg(w->evidence.coverage)));
    }
    void noHostTraceGivesInsufficientEvidenceAndFollowup() {
        // The sample's tables without its timeline: steps come from the Step Id column.
        const QString out = tmp.filePath(QStringLiteral("nohost_ascend_pt/ASCEND_PROFILER_OUTPUT"));
        QDir().mkpath(out);
        for (const char* f : {"kernel_details.csv", "step_trace_time.csv", "communication.json"})
            QVERIFY(QFile::copy(sample + QStringLiteral("/sample_ascend_pt/ASCEND_PROFILER_OUTPUT/") +
                                    QString::fromLatin1(f),
                                out + QLatin1Char('/') + QString::fromLatin1(f)));
        auto run = analyze(tmp.filePath(QStringLiteral("nohost_ascend_pt")));
        const auto& a = run.r.anomaly;
        QVERIFY(!a.windows.empty());
        for (const auto& w : a.windows) {
            QVERIFY(!w.evidence.hostTraceExists);
            if (w.boundary) continue;
            QVERIFY(contains(w.labels, "insufficient_evidence"));
            QVERIFY(contains(w.labels, "possible_untraced_host_blocking"));
        }
        QVERIFY(a.requiresHostFollowup);
        QCOMPARE(a.confidence, std::string("low"));
        QVERIFY(!a.softCauses.empty());
        QVERIFY(bs::english(a.answers[4]).find("evidence is insufficient because there is no host trace") !=
                std::string::npos);
    }
    void rulesChangeTheThresholds() {
        bs::Rulebook rules;
        const auto problems = rules.overrideFromJson("{\"bubble_min_us\": 800, \"top_windows\": 2}");
        QVERIFY(problems.empty());
        auto run = analyze(sample + QStringLiteral("/sample_ascend_pt"), rules);
        QCOMPARE(run.r.anomaly.windows.size(),
                 std::size_t(1)); // only the 1.006 ms untraced window is >= 800 µs
        QCOMPARE(run.r.anomaly.rules.top_windows, 2);
        bs::Rulebook bad;
        const auto errs = bad.overrideFromJson("{\"bubble_min_us\": \"fifty\", \"no_such_rule\": 1}");
        QCOMPARE(errs.size(), std::size_t(2));
        QCOMPARE(bad.bubble_min_us, 50.0);
    }
};

QTEST_GUILESS_MAIN(TstAnomalyDiscovery)
#include "tst_anomaly_discovery.moc"
