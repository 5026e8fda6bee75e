// Before / after (issue 16, ANALYSIS.md §14): a generated pair whose differences are planted (the sync bubble
// removed, one op made 2x faster), a profile against itself, the real Level0 vs Level1 rank 0, outputs written
// atomically and never into a profile, bad inputs, rank by rank, and the matching rules on hand-made windows.
#include "pipeline/analysis_run.h"
#include "i18n/message.h"
#include "compare/compare.h"
#include "compare/compare_report.h"
#include "io/discovery.h"
#include "io/profile_loader.h"

#include "cli_support.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <cmath>
#include <map>
#include <memory>

namespace {

const char* kDfc = "aclnnDispatchFFNCombine_DispatchFFNCombine_DispatchFFNCombine";

QString rd(const QString& rel) {
    return QStringLiteral(BS_REALDATA_DIR "/") + rel;
}

struct Analysed {
    bs::RankFolder rank;
    std::unique_ptr<bs::Profile> profile;
    bs::AnalysisResult result;
};

Analysed analyse(const QString& path) {
    Analysed a;
    const bs::DiscoveryResult found = bs::discoverProfiles(path.toStdString());
    if (found.ranks.empty()) return a;
    a.rank = found.ranks.front();
    a.profile = bs::loadRank(a.rank).profile;
    if (a.profile) a.result = bs::analyzeProfile(*a.profile);
    return a;
}

bs::CompareSide sideOf(const Analysed& a) {
    return bs::digestForCompare(*a.profile, a.result, a.rank.label, a.rank.root, 0);
}

using bstest::readJson;
using bstest::Run;
using bstest::runBinary;

QByteArray readAll(const QString& file) {
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

const bs::FigureDelta* figure(const bs::Comparison& c, const std::string& key) {
    for (const auto& f : c.figures)
        if (f.key == key) return &f;
    return nullptr;
}

// The index of the side's window that starts at `start` and lasts `dur` (-1: none).
int windowAt(const bs::CompareSide& s, qint64 start, qint64 dur) {
    for (std::size_t i = 0; i < s.windows.size(); ++i)
        if (s.windows[i].start == start && s.windows[i].dur == dur) return static_cast<int>(i);
    return -1;
}

const bs::WindowMatch* matchOfBase(const bs::Comparison& c, int base) {
    for (const auto& m : c.matches)
        if (m.base == base) return &m;
    return nullptr;
}

// A hand-made window at a position.
bs::CompareWindow win(const std::string& id, std::string before, std::string after, std::size_t occurrence,
                      bs::TimeNs dur, bs::TimeNs start) {
    bs::CompareWindow w;
    w.id = id;
    w.scope = "step_internal";
    w.step = 5;
    w.stepIndex = 0;
    w.dominant = true;
    w.before = std::move(before);
    w.after = std::move(after);
    w.occurrence = occurrence;
    w.dur = dur;
    w.start = start;
    return w;
}

bs::CompareSide handSide(std::vector<bs::CompareWindow> windows) {
    bs::CompareSide s;
    s.label = "hand";
    s.scope.stepNumbers = {5};
    s.windows = std::move(windows);
    return s;
}

} // namespace

class TstCompare : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    QString before, after; // generated rank folders

    QString generate(const QString& name, const QStringList& args) {
        return bstest::generate(tmp.filePath(name),
                                args + QStringList{QStringLiteral("--seed"), QStringLiteral("7")});
    }

  private slots:
    void initTestCase() {
        QVERIFY(tmp.isValid());
        const QString b = generate(QStringLiteral("before"), {QStringLiteral("--anomalies"), QStringLiteral("all")});
        // All anomalies but the sync bubble, and DispatchFFNCombine twice as fast.
        const QString a = generate(
            QStringLiteral("after"),
            {QStringLiteral("--anomalies"),
             QStringLiteral("launch-lag,untraced,comm-wait,aicpu-exposed,aicpu-masked,wait-anchor,variable-shapes,compile"),
             QStringLiteral("--op-speedup"), QString::fromLatin1(kDfc) + QStringLiteral("=2")});
        QVERIFY(!b.isEmpty() && !a.isEmpty());
        before = b + QStringLiteral("/synth_ascend_pt");
        after = a + QStringLiteral("/synth_ascend_pt");
    }

    // Same seed, another --anomalies set: the generator's own ground truth keeps every other planted window.
    void removingSyncFromTheAnomaliesKeepsTheOtherPlantedWindows() {
        const QJsonArray b = readJson(tmp.filePath(QStringLiteral("before/expected.json")))[QStringLiteral("anomalies")].toArray();
        const QJsonArray a = readJson(tmp.filePath(QStringLiteral("after/expected.json")))[QStringLiteral("anomalies")].toArray();
        int compared = 0;
        for (const auto& x : b) {
            const QJsonObject o = x.toObject();
            if (o[QStringLiteral("kind")].toString() != QStringLiteral("bubble")) continue;
            const QString type = o[QStringLiteral("type")].toString();
            bool found = false;
            for (const auto& y : a) {
                const QJsonObject p = y.toObject();
                if (p[QStringLiteral("type")].toString() != type) continue;
                found = true;
                QCOMPARE(p[QStringLiteral("end_ns")].toInteger() - p[QStringLiteral("start_ns")].toInteger(),
                         o[QStringLiteral("end_ns")].toInteger() - o[QStringLiteral("start_ns")].toInteger());
                ++compared;
            }
            QCOMPARE(found, type != QStringLiteral("sync_bubble"));
        }
        QCOMPARE(compared, 3); // launch lag, untraced, comm wait
    }

    // ANALYSIS.md §15 through compare: the base's prediction for the planted untraced host block beside the
    // achieved change of the step service, when the after profile leaves out exactly that block (the same
    // seed, every other draw the same). Within 10 % or 0.1 ms, the same from the stored summary.
    void comparePutsTheBasePredictionBesideTheAchievedChange() {
        const QString b = generate(QStringLiteral("pred_before"), {QStringLiteral("--anomalies"), QStringLiteral("untraced")});
        const QString a = generate(QStringLiteral("pred_after"), {QStringLiteral("--anomalies"), QStringLiteral("untraced"),
                                                                  QStringLiteral("--leave-out"), QStringLiteral("untraced")});
        QVERIFY(!b.isEmpty() && !a.isEmpty());
        const QString bf = b + QStringLiteral("/synth_ascend_pt"), af = a + QStringLiteral("/synth_ascend_pt");
        const QString json = tmp.filePath(QStringLiteral("pred.json"));
        const Run r = runBinary({QStringLiteral("compare"), bf, af, QStringLiteral("--json"), json, QStringLiteral("-q")});
        QCOMPARE(r.code, 0);
        const QJsonObject j = readJson(json)[QStringLiteral("comparison")].toObject();
        QJsonObject pred;
        for (const auto& x : j[QStringLiteral("predictions")].toArray())
            if (x.toObject()[QStringLiteral("cause")].toString() == QStringLiteral("untraced")) pred = x.toObject();
        QVERIFY2(!pred.isEmpty(), qPrintable(QJsonDocument(j[QStringLiteral("predictions")].toArray()).toJson()));
        const double predicted = pred[QStringLiteral("predicted_gain_ms")].toDouble();
        const double achieved = pred[QStringLiteral("achieved_change_ms")].toDouble();
        // The achieved change is the dominant group's average service change (new − base), from the step table.
        double baseAvg = 0, newAvg = 0;
        for (const auto& x : j[QStringLiteral("steps")].toArray()) {
            const QJsonObject f = x.toObject();
            if (f[QStringLiteral("metric")].toString() != QStringLiteral("service_ms")) continue;
            baseAvg = f[QStringLiteral("base_avg")].toDouble();
            newAvg = f[QStringLiteral("new_avg")].toDouble();
        }
        QVERIFY(baseAvg > 0);
        QVERIFY(std::fabs(achieved - (newAvg - baseAvg)) < 1e-9);
        QVERIFY2(achieved < 0 && predicted > 0, qPrintable(QStringLiteral("%1 / %2").arg(predicted).arg(achieved)));
        QVERIFY2(std::fabs(predicted + achieved) <= std::max(0.1, 0.1 * std::fabs(achieved)),
                 qPrintable(QStringLiteral("predicted %1 ms, achieved %2 ms").arg(predicted).arg(achieved)));
        qInfo("untraced block: predicted %.3f ms per step, achieved %.3f ms", predicted, achieved);
        QVERIFY(pred[QStringLiteral("windows_fate")].toString().contains(QStringLiteral("removed")));
        bool said = false;
        for (const auto& v : j[QStringLiteral("verdict")].toArray())
            said |= v.toString().contains(QStringLiteral("predicted \u2212")) && v.toString().contains(QStringLiteral("achieved \u2212"));
        QVERIFY(said);
        // From the stored summary of the base: the same predictions.
        const QString sum = tmp.filePath(QStringLiteral("pred.summary.json"));
        QCOMPARE(runBinary({QStringLiteral("analyze"), bf, QStringLiteral("--summary"), sum, QStringLiteral("-q")}).code, 0);
        const QString json2 = tmp.filePath(QStringLiteral("pred2.json"));
        QCOMPARE(runBinary({QStringLiteral("compare"), sum, af, QStringLiteral("--json"), json2, QStringLiteral("-q")}).code, 0);
        QCOMPARE(readJson(json2)[QStringLiteral("comparison")].toObject()[QStringLiteral("predictions")],
                 j[QStringLiteral("predictions")]);
    }

    void generatedPairSyncRemovedOpTwiceAsFastOthersUnchanged() {
        const Analysed b = analyse(before), a = analyse(after);
        QVERIFY(b.profile && a.profile);
        const bs::Comparison c = bs::compareSides(sideOf(b), sideOf(a));
        QVERIFY2(c.warnings.empty(), c.warnings.empty() ? "" : bs::english(c.warnings.front().message).c_str());

        // Windows: the planted ones, found by their exact ground-truth spans on each side.
        const QJsonArray eb = readJson(tmp.filePath(QStringLiteral("before/expected.json")))[QStringLiteral("anomalies")].toArray();
        const QJsonArray ea = readJson(tmp.filePath(QStringLiteral("after/expected.json")))[QStringLiteral("anomalies")].toArray();
        auto planted = [](const QJsonArray& list, const QString& type) {
            for (const auto& x : list)
                if (x.toObject()[QStringLiteral("type")].toString() == type) return x.toObject();
            return QJsonObject();
        };
        auto spanOf = [](const QJsonObject& o) {
            const qint64 s = o[QStringLiteral("start_ns")].toInteger();
            return std::pair<qint64, qint64>{s, o[QStringLiteral("end_ns")].toInteger() - s};
        };
        const auto [syncStart, syncDur] = spanOf(planted(eb, QStringLiteral("sync_bubble")));
        const int sync = windowAt(c.base, syncStart, syncDur);
        QVERIFY2(sync >= 0, "the planted sync window is a window of the base");
        QCOMPARE(QString::fromStdString(matchOfBase(c, sync)->cls), QStringLiteral("removed"));
        for (const QString& type : {QStringLiteral("host_launch_lag"), QStringLiteral("untraced_bubble"),
                                   QStringLiteral("comm_wait_bubble")}) {
            const auto [bs0, bd] = spanOf(planted(eb, type));
            const auto [as0, ad] = spanOf(planted(ea, type));
            const int wb = windowAt(c.base, bs0, bd), wa = windowAt(c.next, as0, ad);
            QVERIFY2(wb >= 0 && wa >= 0, qPrintable(type));
            const bs::WindowMatch* m = matchOfBase(c, wb);
            QVERIFY(m);
            QCOMPARE(QString::fromStdString(m->cls), QStringLiteral("unchanged"));
            QCOMPARE(m->next, wa); // matched to the same planted window of the new side
        }

        // The op: Δ total equals the planted change over the dominant group's steps within 1 %.
        qint64 planted2 = 0, without = 0;
        for (const auto& x : ea) {
            const QJsonObject o = x.toObject();
            if (o[QStringLiteral("type")].toString() != QStringLiteral("op_speedup")) continue;
            const std::int64_t step = o[QStringLiteral("step")].toInteger();
            if (std::find(c.base.groupSteps.begin(), c.base.groupSteps.end(), step) == c.base.groupSteps.end()) continue;
            planted2 += o[QStringLiteral("dur_total_ns")].toInteger() - o[QStringLiteral("dur_total_without_ns")].toInteger();
            without += o[QStringLiteral("dur_total_without_ns")].toInteger();
        }
        QVERIFY(planted2 < 0);
        const bs::OpDelta* op = nullptr;
        for (const auto& o : c.ops)
            if (o.name == kDfc) op = &o;
        QVERIFY(op);
        QCOMPARE(QString::fromStdString(op->status), QStringLiteral("changed"));
        QVERIFY2(std::fabs(static_cast<double>(op->deltaTotal - planted2)) <= 0.01 * std::fabs(static_cast<double>(planted2)),
                 qPrintable(QStringLiteral("delta %1 ns, planted %2 ns").arg(op->deltaTotal).arg(planted2)));
        QVERIFY(std::fabs(static_cast<double>(op->baseTotal - without)) <= 0.01 * static_cast<double>(without));
        QVERIFY(std::fabs(*op->deltaTotalPct + 50.0) < 0.5);
        QCOMPARE(&c.ops.front(), op); // the largest |Δ total|

        // The step figures: Δ is exactly the difference of the two analyses' own dominant-group statistics.
        const bs::StepGroup& gb = b.result.anomaly.groups.front();
        const bs::StepGroup& ga = a.result.anomaly.groups.front();
        const std::pair<const char*, std::pair<bs::MetricStats, bs::MetricStats>> own[] = {
            {"service_ms", {gb.service, ga.service}},
            {"busy_ms", {gb.busy, ga.busy}},
            {"underfeed_ratio", {gb.underfeedRatio, ga.underfeedRatio}},
            {"prelaunch_ms", {gb.prelaunch, ga.prelaunch}},
            {"tail_ms", {gb.tail, ga.tail}},
            {"internal_bubble_ms", {gb.internalTotal, ga.internalTotal}},
            {"largest_bubble_ms", {gb.largestInternal, ga.largestInternal}},
            {"bubble_count", {gb.bubbleCount, ga.bubbleCount}}};
        for (const auto& [key, stats] : own) {
            const bs::FigureDelta* f = figure(c, key);
            QVERIFY2(f && f->known, key);
            QVERIFY2(f->deltaAvg == stats.second.avg - stats.first.avg, key);
            QVERIFY2(f->deltaP50 == stats.second.median - stats.first.median, key);
            QVERIFY2(f->baseAvg == stats.first.avg && f->newAvg == stats.second.avg, key);
        }
        // The service shrank (sync gone, DispatchFFNCombine faster): the sign of Δ is new − base.
        QVERIFY(figure(c, "service_ms")->deltaAvg < 0);
        QVERIFY(*figure(c, "service_ms")->deltaAvgPct < 0);
        QCOMPARE(figure(c, "kernel_count")->deltaAvg, 0.0);

        // Verdict: the service line first, the sync window's fate when it is one of the top 5.
        QVERIFY(!c.verdict.empty());
        QVERIFY(QString::fromStdString(bs::english(c.verdict.front())).startsWith(QStringLiteral("step service \u2212")));
        if (sync < 5) {
            const QString fate = QString::fromStdString(c.base.windows[static_cast<std::size_t>(sync)].id) + QStringLiteral(" (");
            bool said = false;
            for (const auto& v : c.verdict)
                said |= QString::fromStdString(bs::english(v)).startsWith(fate) &&
                        QString::fromStdString(bs::english(v)).endsWith(QStringLiteral(" removed"));
            QVERIFY(said);
        }
    }

    void profileComparedWithItselfChangesNothing_data() {
        QTest::addColumn<QString>("path");
        QTest::newRow("generated") << QString();
        QTest::newRow("real L1 rank 0") << rd(QStringLiteral("torch_npu_resnet_ddp/level1/rank0_ascend_pt"));
    }
    void profileComparedWithItselfChangesNothing() {
        QFETCH(QString, path);
        const Analysed x = analyse(path.isEmpty() ? before : path);
        QVERIFY(x.profile);
        const bs::Comparison c = bs::compareSides(sideOf(x), sideOf(x));
        QVERIFY(c.warnings.empty());
        QVERIFY(c.notes.empty());
        QVERIFY(!c.figures.empty());
        for (const auto& f : c.figures) {
            if (!f.known) continue;
            QCOMPARE(f.deltaAvg, 0.0);
            QCOMPARE(f.deltaP50, 0.0);
        }
        QVERIFY(!c.ops.empty());
        for (const auto& o : c.ops) {
            QCOMPARE(o.deltaTotal, bs::TimeNs(0));
            QCOMPARE(QString::fromStdString(o.status), QStringLiteral("unchanged"));
        }
        QCOMPARE(c.opsUnchanged, c.ops.size());
        QVERIFY(!c.matches.empty());
        for (const auto& m : c.matches) {
            QCOMPARE(QString::fromStdString(m.cls), QStringLiteral("unchanged"));
            QCOMPARE(m.next, m.base);
            QCOMPARE(m.deltaDur, bs::TimeNs(0));
        }
        QCOMPARE(c.removed + c.added + c.shrunk + c.grew, std::size_t(0));
        for (const auto& l : c.layers)
            QCOMPARE(*l.deltaMs, 0.0);
        QCOMPARE(c.topFates.size(), std::min<std::size_t>(5, c.base.windows.size()));
    }

    // The real ResNet rank 0 at Level0 and at Level1: the warning names the level, the comparison still runs.
    void realLevel0AgainstLevel1WarnsAboutTheLevel() {
        const QString json = tmp.filePath(QStringLiteral("l0l1.json")), md = tmp.filePath(QStringLiteral("l0l1.md"));
        const Run r = runBinary({QStringLiteral("compare"), rd(QStringLiteral("torch_npu_resnet_ddp/level0/rank0_ascend_pt")),
                                 rd(QStringLiteral("torch_npu_resnet_ddp/level1/rank0_ascend_pt")), QStringLiteral("--json"),
                                 json, QStringLiteral("--report"), md, QStringLiteral("-q")});
        QCOMPARE(r.code, 0);
        const QJsonObject c = readJson(json)[QStringLiteral("comparison")].toObject();
        const QJsonArray warnings = c[QStringLiteral("scope_warnings")].toArray();
        QJsonObject level;
        for (const auto& w : warnings)
            if (w.toObject()[QStringLiteral("what")].toString() == QStringLiteral("profiler_level")) level = w.toObject();
        QCOMPARE(level[QStringLiteral("base")].toString(), QStringLiteral("Level0"));
        QCOMPARE(level[QStringLiteral("new")].toString(), QStringLiteral("Level1"));
        QVERIFY(level[QStringLiteral("message")].toString().contains(QStringLiteral("profiler level")));
        // Still compared: one step (50) on each side, figures, ops and verdict.
        QCOMPARE(c[QStringLiteral("base")].toObject()[QStringLiteral("steps")].toArray().size(), 1);
        QVERIFY(!c[QStringLiteral("steps")].toArray().isEmpty());
        QVERIFY(c[QStringLiteral("ops")].toObject()[QStringLiteral("compared")].toInt() > 0);
        QVERIFY(!c[QStringLiteral("verdict")].toArray().isEmpty());
        // Level0 takes task types from the trace: op names that changed task type are said to have.
        bool retyped = false;
        for (const auto& n : c[QStringLiteral("notes")].toArray())
            retyped |= n.toString().contains(QStringLiteral("under another task type on each side"));
        QVERIFY(retyped);
        // The step figures are the two analyses' own.
        const Analysed b = analyse(rd(QStringLiteral("torch_npu_resnet_ddp/level0/rank0_ascend_pt")));
        const Analysed n = analyse(rd(QStringLiteral("torch_npu_resnet_ddp/level1/rank0_ascend_pt")));
        const QJsonObject service = c[QStringLiteral("steps")].toArray().first().toObject();
        QCOMPARE(service[QStringLiteral("metric")].toString(), QStringLiteral("service_ms"));
        QCOMPARE(service[QStringLiteral("base_avg")].toDouble(), b.result.anomaly.groups.front().service.avg);
        QCOMPARE(service[QStringLiteral("delta_avg")].toDouble(),
                 n.result.anomaly.groups.front().service.avg - b.result.anomaly.groups.front().service.avg);
        // The report: the warning comes before the verdict.
        const QString report = QString::fromUtf8(readAll(md));
        const auto warnAt = report.indexOf(QStringLiteral("**Warning:** The profiler level differs: Level0 in base, Level1 in new."));
        QVERIFY(warnAt > 0);
        QVERIFY(warnAt < report.indexOf(QStringLiteral("## Verdict")));
    }

    // Outputs: through a temporary file and a rename (a new inode, the old permission bits kept, nothing left
    // beside it); a file of either profile is refused before anything is read or written.
    void outputsAreAtomicAndNeverInsideAProfile() {
        const QString dir = tmp.filePath(QStringLiteral("out"));
        QVERIFY(QDir().mkpath(dir));
        const QString json = dir + QStringLiteral("/c.json");
        {
            QFile f(json);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("old");
        }
        QVERIFY(::chmod(json.toLocal8Bit().constData(), 0640) == 0);
        struct stat st0 {};
        QVERIFY(::stat(json.toLocal8Bit().constData(), &st0) == 0);
        const Run r = runBinary({QStringLiteral("compare"), before, after, QStringLiteral("--json"), json,
                                 QStringLiteral("--report"), dir + QStringLiteral("/c.md"), QStringLiteral("-q")});
        QCOMPARE(r.code, 0);
        struct stat st1 {};
        QVERIFY(::stat(json.toLocal8Bit().constData(), &st1) == 0);
        QVERIFY(st1.st_ino != st0.st_ino);
        QCOMPARE(st1.st_mode & 07777, mode_t(0640));
        QVERIFY(readJson(json).contains(QStringLiteral("comparison")));
        QCOMPARE(QDir(dir).entryList(QDir::Files | QDir::Hidden).size(), 2);
        QVERIFY(QString::fromUtf8(readAll(dir + QStringLiteral("/c.md"))).startsWith(QStringLiteral("# Before / after: ")));

        for (const QString& target : {before + QStringLiteral("/ASCEND_PROFILER_OUTPUT/kernel_details.csv"),
                                      after + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json")}) {
            const QByteArray was = readAll(target);
            for (const QString& option : {QStringLiteral("--json"), QStringLiteral("--report")}) {
                const Run x = runBinary({QStringLiteral("compare"), before, after, option, target, QStringLiteral("-q")});
                QCOMPARE(x.code, 2);
                // The guard every output passes (issue 45) names the profile the file belongs to.
                const QString owner = target.startsWith(before) ? before : after;
                QVERIFY2(x.err.contains(option + QLatin1Char(' ') + target + QStringLiteral(" is a file of the profile ") + owner),
                         qPrintable(x.err));
                QCOMPARE(readAll(target), was);
            }
        }
        const Run full = runBinary({QStringLiteral("compare"), before, after, QStringLiteral("--json"), QStringLiteral("/dev/full"),
                                    QStringLiteral("-q")});
        QCOMPARE(full.code, 4);
        // The generated folders hold only what the generator wrote.
        QVERIFY(!QFileInfo::exists(before + QStringLiteral("/c.json")));
    }

    void standardOutputFormats() {
        const Run text = runBinary({QStringLiteral("compare"), before, after, QStringLiteral("-q")});
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.startsWith(QStringLiteral("Before / after: ")));
        const Run json = runBinary({QStringLiteral("compare"), before, after, QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("-q")});
        QCOMPARE(json.code, 0);
        QVERIFY(QJsonDocument::fromJson(json.out.toUtf8()).object().contains(QStringLiteral("comparison")));
    }

    void badInputsSayWhichSideAndExit3() {
        const QString empty = tmp.filePath(QStringLiteral("empty_ascend_pt"));
        QVERIFY(QDir().mkpath(empty + QStringLiteral("/ASCEND_PROFILER_OUTPUT")));
        Run r = runBinary({QStringLiteral("compare"), before, empty, QStringLiteral("-q")});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains(QStringLiteral("new has no profiling data")), qPrintable(r.err));
        r = runBinary({QStringLiteral("compare"), empty, before, QStringLiteral("-q")});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains(QStringLiteral("base has no profiling data")), qPrintable(r.err));
        r = runBinary({QStringLiteral("compare"), tmp.filePath(QStringLiteral("missing")), before, QStringLiteral("-q")});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains(QStringLiteral("BASE")), qPrintable(r.err));
        r = runBinary({QStringLiteral("compare"), before});
        QCOMPARE(r.code, 2);
        r = runBinary({QStringLiteral("compare"), before, after, QStringLiteral("--format"), QStringLiteral("xml")});
        QCOMPARE(r.code, 2);
        // Nothing to compare in process either: two empty sides give an empty comparison, not a crash.
        const bs::Comparison c = bs::compareSides(bs::CompareSide{}, bs::CompareSide{});
        QVERIFY(c.figures.empty());
        QVERIFY(!bs::renderComparisonMarkdown(c).empty());
    }

    // Two parents of two ranks each: compared rank by rank, matched by rank id.
    void parentsAreComparedRankByRank() {
        const QString json = tmp.filePath(QStringLiteral("ranks.json"));
        const Run r = runBinary({QStringLiteral("compare"), rd(QStringLiteral("torch_npu_resnet_ddp/level0")),
                                 rd(QStringLiteral("torch_npu_resnet_ddp/level1")), QStringLiteral("--json"), json,
                                 QStringLiteral("-q")});
        QCOMPARE(r.code, 0);
        const QJsonArray ranks = readJson(json)[QStringLiteral("comparison")].toObject()[QStringLiteral("ranks")].toArray();
        QCOMPARE(ranks.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const QJsonObject o = ranks[i].toObject();
            QCOMPARE(o[QStringLiteral("rank")].toString(), QStringLiteral("rank %1").arg(i));
            QCOMPARE(o[QStringLiteral("base")].toString(), QStringLiteral("rank%1_ascend_pt").arg(i));
            const QJsonObject c = o[QStringLiteral("comparison")].toObject();
            QCOMPARE(c[QStringLiteral("base")].toObject()[QStringLiteral("rank")].toInt(), i);
            QCOMPARE(c[QStringLiteral("new")].toObject()[QStringLiteral("rank")].toInt(), i);
        }
    }

    // |Δ| < 5 % of the base is unchanged; at 5 % it shrank or grew; Δ = new − base.
    void windowsAreClassedByTheirRelativeChange() {
        const bs::Comparison c = bs::compareSides(
            handSide({win("b1", "A", "B", 0, 100000, 1000), win("b2", "A", "C", 0, 100000, 2000),
                      win("b3", "A", "D", 0, 100000, 3000), win("b4", "A", "E", 0, 100000, 4000),
                      win("b5", "A", "F", 0, 100000, 5000)}),
            handSide({win("b1", "A", "B", 0, 104999, 1000), win("b2", "A", "C", 0, 105000, 2000),
                      win("b3", "A", "D", 0, 95001, 3000), win("b4", "A", "E", 0, 95000, 4000),
                      win("b6", "X", "Y", 0, 70000, 6000)}));
        const char* expected[] = {"unchanged", "grew", "unchanged", "shrunk", "removed", "new"};
        QCOMPARE(c.matches.size(), std::size_t(6));
        for (std::size_t i = 0; i < 6; ++i)
            QCOMPARE(QString::fromStdString(c.matches[i].cls), QString::fromLatin1(expected[i]));
        QCOMPARE(c.matches[1].deltaDur, bs::TimeNs(5000));
        QCOMPARE(c.matches[3].deltaDur, bs::TimeNs(-5000));
        QCOMPARE(*c.matches[3].deltaPct, -5.0);
        QCOMPARE(c.unchanged, std::size_t(2));
        QCOMPARE(c.grew, std::size_t(1));
        QCOMPARE(c.shrunk, std::size_t(1));
        QCOMPARE(c.removed, std::size_t(1));
        QCOMPARE(c.added, std::size_t(1));
        QCOMPARE(QString::fromStdString(bs::english(c.topFates[3].sentence)),
                 QStringLiteral("b4 (0.10 ms step_internal) shrunk to 0.10 ms (\u22125.0 %, b4 in new)"));
        QCOMPARE(QString::fromStdString(bs::english(c.topFates[4].sentence)), QStringLiteral("b5 (0.10 ms step_internal) removed"));
    }

    // The key is (scope, kernel before, kernel after, occurrence): a repeated pair matches occurrence to
    // occurrence, whatever the durations and start times; another pair or scope never matches.
    void windowsMatchByPairAndOccurrence() {
        bs::CompareWindow tailA = win("b3", "A", "B", 0, 300000, 9000);
        tailA.scope = "tail";
        const bs::Comparison c = bs::compareSides(
            handSide({win("b1", "A", "B", 1, 500000, 5000), win("b2", "A", "B", 0, 400000, 1000), tailA}),
            handSide({win("b1", "A", "B", 0, 400000, 1500), win("b2", "A", "B", 1, 500000, 4000),
                      win("b3", "B", "A", 0, 300000, 9000)}));
        QCOMPARE(c.matches.size(), std::size_t(4));
        QCOMPARE(c.matches[0].next, 1); // occurrence 1 ↔ occurrence 1
        QCOMPARE(c.matches[1].next, 0);
        QCOMPARE(QString::fromStdString(c.matches[0].cls), QStringLiteral("unchanged"));
        QCOMPARE(QString::fromStdString(c.matches[2].cls), QStringLiteral("removed")); // the tail has no match
        QCOMPARE(QString::fromStdString(c.matches[3].cls), QStringLiteral("new"));     // B → A is another pair
    }

    // The same pair eight times a step (--dispatch-gap: host work before every decode attention kernel): the k-th
    // planted window of a step in base is matched to the k-th of the same step in new, and grew by the change.
    void repeatedPairsMatchOccurrenceByOccurrence() {
        const QString d1 = generate(QStringLiteral("gap100"), {QStringLiteral("--dispatch-gap"), QStringLiteral("100")});
        const QString d3 = generate(QStringLiteral("gap300"), {QStringLiteral("--dispatch-gap"), QStringLiteral("300")});
        QVERIFY(!d1.isEmpty() && !d3.isEmpty());
        const Analysed b = analyse(d1 + QStringLiteral("/synth_ascend_pt")), a = analyse(d3 + QStringLiteral("/synth_ascend_pt"));
        const bs::Comparison c = bs::compareSides(sideOf(b), sideOf(a));
        auto spans = [](const QString& dir) {
            std::map<QString, std::vector<std::pair<qint64, qint64>>> byStep; // step → spans in time order
            for (const auto& x : readJson(dir + QStringLiteral("/expected.json"))[QStringLiteral("anomalies")].toArray()) {
                const QJsonObject o = x.toObject();
                if (o[QStringLiteral("type")].toString() != QStringLiteral("layer_dispatch_gap")) continue;
                const qint64 s = o[QStringLiteral("start_ns")].toInteger();
                byStep[o[QStringLiteral("step")].toString()].push_back({s, o[QStringLiteral("end_ns")].toInteger() - s});
            }
            return byStep;
        };
        const auto sb = spans(d1), sa = spans(d3);
        QCOMPARE(sb.size(), std::size_t(3));
        std::size_t checked = 0;
        for (const auto& [step, list] : sb) {
            QCOMPARE(list.size(), std::size_t(8));
            QCOMPARE(sa.at(step).size(), list.size());
            for (std::size_t k = 0; k < list.size(); ++k) {
                const int wb = windowAt(c.base, list[k].first, list[k].second);
                const int wa = windowAt(c.next, sa.at(step)[k].first, sa.at(step)[k].second);
                QVERIFY(wb >= 0 && wa >= 0);
                const bs::WindowMatch* m = matchOfBase(c, wb);
                QCOMPARE(m->next, wa);
                QCOMPARE(QString::fromStdString(m->cls), QStringLiteral("grew"));
                QCOMPARE(m->deltaDur, sa.at(step)[k].second - list[k].second);
                ++checked;
            }
        }
        QCOMPARE(checked, std::size_t(24));
    }

    // A window at the same kernels but of another scope is another position.
    void scopeIsPartOfThePosition() {
        bs::CompareWindow tail = win("b1", "A", "(step end)", 0, 200000, 9000);
        tail.scope = "tail";
        bs::CompareWindow internal = win("b1", "A", "(step end)", 0, 200000, 9000);
        const bs::Comparison c = bs::compareSides(handSide({tail}), handSide({internal}));
        QCOMPARE(c.matches.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(c.matches[0].cls), QStringLiteral("removed"));
        QCOMPARE(QString::fromStdString(c.matches[1].cls), QStringLiteral("new"));
    }

    // A step number that repeats in base (two ProfilerStep#5 markers) pairs both steps with new's step 5: the
    // new window at that position is matched once, the second base window is removed.
    void aNewWindowIsMatchedOnce() {
        bs::CompareWindow second = win("b2", "A", "B", 0, 100000, 50000);
        second.stepIndex = 1;
        bs::CompareSide b = handSide({win("b1", "A", "B", 0, 100000, 1000), second});
        b.scope.stepNumbers = {5, 5};
        const bs::Comparison c = bs::compareSides(b, handSide({win("b1", "A", "B", 0, 100000, 1000)}));
        QCOMPARE(c.matches.size(), std::size_t(2));
        QCOMPARE(c.matches[0].next, 0);
        QCOMPARE(QString::fromStdString(c.matches[1].cls), QStringLiteral("removed"));
        QCOMPARE(c.matches[1].next, -1);
    }

    // Op and figure deltas are new − base, with new and removed ops counted.
    void opDeltasAreNewMinusBase() {
        bs::CompareSide b = handSide({}), n = handSide({});
        b.ops = {{"MatMul", "AI_CORE", 10, 2000000, 200, 1}, {"Gone", "AI_CPU", 2, 50000, 25, 0},
                 {"Same", "AI_CORE", 4, 1000, 0.25, 0}};
        n.ops = {{"MatMul", "AI_CORE", 10, 1000000, 100, 1}, {"Fresh", "AI_VECTOR_CORE", 3, 30000, 10, 0},
                 {"Same", "AI_CORE", 4, 1000, 0.25, 0}};
        b.groupId = n.groupId = "g0";
        b.figures = {{"service_ms", true, 10.0, 9.0}};
        n.figures = {{"service_ms", true, 8.0, 9.5}};
        const bs::Comparison c = bs::compareSides(b, n);
        QCOMPARE(c.ops.size(), std::size_t(4));
        QCOMPARE(QString::fromStdString(c.ops[0].name), QStringLiteral("MatMul"));
        QCOMPARE(c.ops[0].deltaTotal, bs::TimeNs(-1000000));
        QCOMPARE(*c.ops[0].deltaTotalPct, -50.0);
        QCOMPARE(QString::fromStdString(c.ops[1].status), QStringLiteral("removed"));
        QCOMPARE(c.ops[1].deltaTotal, bs::TimeNs(-50000));
        QCOMPARE(QString::fromStdString(c.ops[2].status), QStringLiteral("new"));
        QCOMPARE(QString::fromStdString(c.ops[3].status), QStringLiteral("unchanged"));
        QCOMPARE(c.opsChanged + c.opsNew + c.opsRemoved + c.opsUnchanged, std::size_t(4));
        const bs::FigureDelta* s = figure(c, "service_ms");
        QVERIFY(s);
        QCOMPARE(s->deltaAvg, -2.0);
        QCOMPARE(*s->deltaAvgPct, -20.0);
        QCOMPARE(s->deltaP50, 0.5);
        QCOMPARE(QString::fromStdString(bs::english(c.verdict.front())),
                 QStringLiteral("step service \u221220.0 % (10.000 → 8.000 ms, dominant group average)"));
    }
};

QTEST_GUILESS_MAIN(TstCompare)
#include "tst_compare.moc"
