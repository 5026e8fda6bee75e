// Issue 20, from a bubble to the line of the user's code: the stack evidence of a window, checked on the
// real ResNet L1 rank 0 against a union computed here from the trace itself (nlohmann, not the reader
// under test), the "no call stacks collected" cases, and hostile stack text.
#include "pipeline/analysis_run.h"
#include "analysis/stack_evidence.h"
#include "io/profile_loader.h"
#include "report/anomaly_report.h"
#include "report/json_export.h"
#include "test_support.h"

#include <QDirIterator>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <regex>
#include <set>

namespace {

using nlohmann::json;

struct Outputs {
    bs::LoadResult load;
    bs::AnalysisResult r;
    json j;
    std::string md;
};

std::unique_ptr<Outputs> analyze(const QString& path, bs::DataSource source = bs::DataSource::Auto) {
    auto found = bs::discoverProfiles(path.toStdString());
    if (found.ranks.size() != 1) return nullptr;
    auto o = std::make_unique<Outputs>();
    bs::LoadControl control;
    control.source = source;
    o->load = bs::loadRank(found.ranks[0], control);
    if (!o->load.profile) return nullptr;
    o->r = bs::analyzeProfile(*o->load.profile, {});
    o->j = json::parse(bs::renderJson(*o->load.profile, o->r));
    o->md = bs::renderAnomalyReport(*o->load.profile, o->r);
    return o;
}

QString realRank(const char* rel) {
    return bstest::realdata(QStringLiteral("torch_npu_resnet_ddp/") + QString::fromLatin1(rel));
}

bool copyTree(const QString& from, const QString& to) {
    QDirIterator it(from, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString src = it.next();
        const QString dst = to + src.mid(from.size());
        QDir().mkpath(QFileInfo(dst).absolutePath());
        if (!QFile::copy(src, dst)) return false;
        QFile::setPermissions(dst,
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    }
    return true;
}

std::size_t count(const std::string& s, const std::string& part) {
    std::size_t n = 0;
    for (std::size_t at = s.find(part); at != std::string::npos; at = s.find(part, at + 1))
        ++n;
    return n;
}

std::size_t recsWithAction(const json& j, const std::string& part) {
    std::size_t n = 0;
    for (const auto& rc : j["recommendations"])
        if (rc["action"].get<std::string>().find(part) != std::string::npos) ++n;
    return n;
}

const json& window(const json& j, const std::string& id) {
    for (const auto& w : j["bubble_windows"])
        if (w["bubble_id"] == id) return w;
    static const json none;
    return none;
}

// A trace time in µs (a decimal string, or a number) as exact ns: the digits, not a double, for strings.
long long usToNs(const json& v) {
    if (v.is_number()) return std::llround(v.get<double>() * 1000.0);
    const std::string s = v.get<std::string>();
    const auto dot = s.find('.');
    std::string whole = s.substr(0, dot), frac = dot == std::string::npos ? "" : s.substr(dot + 1);
    frac = (frac + "000").substr(0, 3); // the real files carry at most three decimals (ns)
    return std::stoll(whole) * 1000 + std::stoll(frac);
}

// The test's own reading of a frame: library when under site-packages, the standard library
// (…/lib/python3.x/) or a pseudo-file like <string>; torch frames all sit under site-packages here.
bool libraryFrame(const std::string& f) {
    return f.find("/site-packages/") != std::string::npos || f.find("/lib/python3.") != std::string::npos ||
           f.rfind("<", 0) == 0;
}

std::string innermostUserFrame(const std::string& stack) {
    std::size_t pos = 0;
    while (pos < stack.size()) {
        auto end = stack.find(";\r\n", pos);
        const std::string frame = stack.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
        if (!libraryFrame(frame)) return frame;
        if (end == std::string::npos) break;
        pos = end + 3;
    }
    return {};
}

} // namespace

class TstStackEvidence : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;

  private slots:
    // The library rule, file by file: site-packages, dist-packages, the standard library, a torch or
    // torch_npu package folder (also a source checkout) and pseudo-files are library; the rest is user code.
    void theLibraryRuleNamesEachKindOfLibraryFile() {
        for (const char* lib : {"/home/u/miniconda3/lib/python3.9/site-packages/numpy/core/fromnumeric.py",
                                "/usr/lib/python3/dist-packages/numpy/core/fromnumeric.py",
                                "/srv/env/dist-packages/vllm/worker.py", // dist-packages outside lib/pythonX.Y
                                "/usr/lib/python3.10/threading.py",
                                "/home/u/src/pytorch/torch/nn/modules/module.py",
                                "/opt/ascend/torch_npu/utils/_step.py",
                                "<string>"})
            QVERIFY2(bs::isLibraryFile(lib), lib);
        for (const char* user : {"/home/u/imagenet_script/main.py", "/workspace/llm_bench/model.py",
                                 "/home/u/torchvision_tools/train.py", "/home/u/my_torch_npu_scripts/run.py"})
            QVERIFY2(!bs::isLibraryFile(user), user);
    }

    void initTestCase() {
        QVERIFY(bstest::requireRealdata());
        QVERIFY(tmp.isValid());
    }

    void realLevel1Rank0B0001IsUnderMainPy350WithTheTimeOfAnIndependentUnion() {
        auto o = analyze(realRank("level1/rank0_ascend_pt"));
        QVERIFY(o);
        const json& w = window(o->j, "b0001");
        QVERIFY(!w.is_null());
        QCOMPARE(w["scope"].get<std::string>(), std::string("prelaunch"));
        const long long a = w["start_ns"].get<long long>(), b = w["end_ns"].get<long long>();
        const json& st = w["stack_evidence"];
        QCOMPARE(st["call_stacks_collected"].get<bool>(), true);
        QVERIFY(st["note"].is_null());
        QVERIFY(!st["user_frames"].empty());
        const json& top = st["user_frames"][0];
        QCOMPARE(top["frame"].get<std::string>(), std::string("main.py:350 train"));
        QCOMPARE(top["frame_text"].get<std::string>(),
                 std::string("/home/z30057886/imagenet_script/main.py(350): train"));
        QCOMPARE(top["user_code"].get<bool>(), true);

        // The independent union: every host event of the trace whose stack's innermost user frame is
        // main.py(350), clipped to the window; per thread the union, summed; over all threads the union.
        const json trace = json::parse(
            bstest::readFile(realRank("level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"))
                .toStdString());
        std::map<std::pair<long long, long long>, std::vector<std::pair<long long, long long>>> perThread;
        std::vector<std::pair<long long, long long>> all;
        std::size_t events = 0;
        for (const auto& e : trace) {
            if (e.value("ph", "") != "X" || !e.contains("args") || !e["args"].contains("Call stack"))
                continue;
            if (innermostUserFrame(e["args"]["Call stack"].get<std::string>()) !=
                "/home/z30057886/imagenet_script/main.py(350): train")
                continue;
            const long long s = usToNs(e["ts"]), d = usToNs(e["dur"]);
            const long long lo = std::max(s, a), hi = std::min(s + d, b);
            if (hi <= lo) continue;
            ++events;
            perThread[{e["pid"].is_number() ? e["pid"].get<long long>() : 0,
                       e["tid"].is_number() ? e["tid"].get<long long>() : 0}]
                .push_back({lo, hi});
            all.push_back({lo, hi});
        }
        auto unionLength = [](std::vector<std::pair<long long, long long>> v) {
            std::sort(v.begin(), v.end());
            long long total = 0, curA = 0, curB = 0;
            bool open = false;
            for (const auto& [x, y] : v) {
                if (open && x <= curB) {
                    curB = std::max(curB, y);
                    continue;
                }
                if (open) total += curB - curA;
                curA = x, curB = y, open = true;
            }
            return open ? total + curB - curA : total;
        };
        long long hostTime = 0;
        for (auto& [thread, v] : perThread)
            hostTime += unionLength(v);
        const long long unionAll = unionLength(all);
        qInfo("b0001 [%lld, %lld) %lld ns; main.py(350): %zu events, host time %lld ns, union %lld ns; ours "
              "%.6f ms "
              "share %.6f",
              a, b, b - a, events, hostTime, unionAll, top["host_time_ms"].get<double>(),
              top["share_of_window"].get<double>());
        QVERIFY(events > 0);
        QVERIFY(hostTime > 0);
        QCOMPARE(top["events"].get<std::size_t>(), events);
        QCOMPARE(std::llround(top["host_time_ms"].get<double>() * 1e6), hostTime);
        QVERIFY(std::abs(top["share_of_window"].get<double>() - static_cast<double>(unionAll) / (b - a)) <
                1e-6);
        // Line 350 calls .to() itself (the host-to-device copy of the batch): no library frame between.
        QCOMPARE(top["path"].get<std::string>(), std::string("main.py:350 train → aten::to"));
        // Next: line 345, the data loader's __next__ (the loop over train_loader), then the forward (354).
        QVERIFY(st["user_frames"].size() >= 3);
        QCOMPARE(st["user_frames"][1]["frame"].get<std::string>(), std::string("main.py:345 train"));
        const std::string path345 = st["user_frames"][1]["path"].get<std::string>();
        QVERIFY2(path345.rfind("main.py:345 train → dataloader.py:", 0) == 0, path345.c_str());
        QCOMPARE(st["user_frames"][2]["frame"].get<std::string>(), std::string("main.py:354 train"));
        QVERIFY(st["user_frames"][1]["host_time_ms"].get<double>() <= top["host_time_ms"].get<double>());

        // The report and the label's evidence name the line.
        QVERIFY(o->md.find("| `main.py:350 train` |") != std::string::npos);
        bool labelNamesLine = false;
        for (const auto& why : w["label_evidence"])
            labelNamesLine |=
                why.get<std::string>().find("of the window under main.py:350 train (") != std::string::npos;
        QVERIFY(labelNamesLine);
        // The user-code rule is printed once; stacks exist, so no absence sentence.
        QCOMPARE(count(o->md, "is library code when its file is under a site-packages"), std::size_t(1));
        QCOMPARE(count(o->md, "No call stacks collected"), std::size_t(0));
        QCOMPARE(recsWithAction(o->j, "with_stack"), std::size_t(0));
    }

    void sqliteExportOfTheSameRankNamesTheSameLineFromPytorchCallchains() {
        auto o = analyze(bstest::realdata(QStringLiteral("torch_npu_resnet_ddp_db/level1/rank0_ascend_pt")));
        QVERIFY(o);
        QCOMPARE(o->j["inventory"]["source"].get<std::string>(), std::string("sqlite"));
        const json& w = window(o->j, "b0001");
        QVERIFY(!w.is_null());
        const json& st = w["stack_evidence"];
        QCOMPARE(st["call_stacks_collected"].get<bool>(), true);
        QVERIFY(!st["user_frames"].empty());
        qInfo("db b0001: %s %.6f ms share %.6f, %s", st["user_frames"][0]["frame"].get<std::string>().c_str(),
              st["user_frames"][0]["host_time_ms"].get<double>(),
              st["user_frames"][0]["share_of_window"].get<double>(),
              st["user_frames"][0]["path"].get<std::string>().c_str());
        QCOMPARE(st["user_frames"][0]["frame_text"].get<std::string>(),
                 std::string("/home/z30057886/imagenet_script/main.py(350): train"));
        // A separate run of the workload: its own figure. Worked out from the database with Python's sqlite3
        // (PYTORCH_API rows whose PYTORCH_CALLCHAINS innermost user frame is main.py(350), clipped to
        // b0001 = [1736410576386409710, 1736410576404465403)): aten::to ⊃ _to_copy ⊃ empty_strided,
        // empty_tensor, copy_, acl_memcpy_host_to_device on one thread, so the union is aten::to's 5015350
        // ns.
        QCOMPARE(w["start_ns"].get<long long>(), 1736410576386409710LL);
        QCOMPARE(w["end_ns"].get<long long>(), 1736410576404465403LL);
        QCOMPARE(st["user_frames"][0]["events"].get<std::size_t>(), std::size_t(6));
        QCOMPARE(std::llround(st["user_frames"][0]["host_time_ms"].get<double>() * 1e6), 5015350LL);
        QCOMPARE(st["user_frames"][0]["path"].get<std::string>(),
                 std::string("main.py:350 train → aten::to"));
    }

    void level0RankCollectedWithStackHasStacksAndAsksForNothing() {
        // Level0's profiler_info also says with_stack=True, and its trace carries the stacks.
        const QByteArray info = bstest::readFile(realRank("level0/rank0_ascend_pt/profiler_info_0.json"));
        QVERIFY(json::parse(info.toStdString())["config"]["common_config"]["with_stack"].get<bool>());
        auto o = analyze(realRank("level0/rank0_ascend_pt"));
        QVERIFY(o);
        QVERIFY(o->r.anomaly.stacksExist);
        QCOMPARE(window(o->j, "b0001")["stack_evidence"]["call_stacks_collected"].get<bool>(), true);
        QCOMPARE(recsWithAction(o->j, "with_stack"), std::size_t(0));
        QCOMPARE(count(o->md, "No call stacks collected"), std::size_t(0));
    }

    void withoutStacksTheReportSaysSoOnceAndAsksForWithStackOnlyWhenItWasNotSet() {
        const QString dir = tmp.filePath(QStringLiteral("nostack_ascend_pt"));
        QVERIFY(copyTree(realRank("level1/rank0_ascend_pt"), dir));
        const QString trace = dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/trace_view.json");
        QByteArray t = bstest::readFile(trace);
        QVERIFY(t.contains("\"Call stack\""));
        t.replace("\"Call stack\"", "\"Call_stack\"");
        bstest::writeFile(trace, t);
        auto check = [&](bool withStackSet) {
            auto o = analyze(dir);
            QVERIFY(o);
            QVERIFY(!o->r.anomaly.stacksExist);
            QCOMPARE(count(o->md, "No call stacks collected"), std::size_t(1));
            QVERIFY(!o->j["bubble_windows"].empty());
            for (const auto& w : o->j["bubble_windows"]) {
                QCOMPARE(w["stack_evidence"]["note"].get<std::string>(),
                         std::string("no call stacks collected"));
                QVERIFY(w["stack_evidence"]["user_frames"].empty());
            }
            QCOMPARE(recsWithAction(o->j, "Re-collect with with_stack=True"),
                     std::size_t(withStackSet ? 0 : 1));
            // One recommendation: one row of the recommendations table (the follow-up list repeats it).
            QCOMPARE(count(o->md, "| Re-collect with with_stack=True. |"), std::size_t(withStackSet ? 0 : 1));
        };
        check(true);
        if (QTest::currentTestFailed()) return;
        const QString infoPath = dir + QStringLiteral("/profiler_info_0.json");
        json info = json::parse(bstest::readFile(infoPath).toStdString());
        info["config"]["common_config"]["with_stack"] = false;
        bstest::writeFile(infoPath, QByteArray::fromStdString(info.dump(4)));
        check(false);
    }

    void everyPlantedBubbleWithHostWorkNamesItsPlantedUserLineFirst() {
        // Every planted host cause of the generator (launch lag, sync, comm wait, the first step's input copy,
        // the last step's output copy, the dispatch gaps) runs under its own user line, over library frames;
        // expected.json names it. Read from the trace and from the SQLite export (PYTORCH_CALLCHAINS).
        const QString dir = tmp.filePath(QStringLiteral("planted"));
        QProcess gen;
        gen.start(QStringLiteral(BS_SYNTH),
                  {QStringLiteral("--out"), dir, QStringLiteral("--name"), QStringLiteral("planted"),
                   QStringLiteral("--quiet"), QStringLiteral("--anomalies"), QStringLiteral("all"),
                   QStringLiteral("--first-prelaunch"), QStringLiteral("400"), QStringLiteral("--last-tail"),
                   QStringLiteral("300"), QStringLiteral("--dispatch-gap"), QStringLiteral("300"),
                   QStringLiteral("--db")});
        QVERIFY(gen.waitForFinished(120000) && gen.exitCode() == 0);
        const json expected = json::parse(bstest::readFile(dir + QStringLiteral("/expected.json")).toStdString());
        const QString rank = dir + QStringLiteral("/planted_ascend_pt");
        for (const auto source : {bs::DataSource::Text, bs::DataSource::Db}) {
            auto o = analyze(rank, source);
            QVERIFY(o);
            QCOMPARE(o->j["inventory"]["source"].get<std::string>(),
                     std::string(source == bs::DataSource::Db ? "sqlite" : "text"));
            std::set<std::string> types;
            std::size_t named = 0;
            for (const auto& a : expected["anomalies"]) {
                if (a["kind"] != "bubble") continue;
                if (!a.contains("user_line")) { // nothing traced on the host: no line to name
                    QCOMPARE(a["type"].get<std::string>(), std::string("untraced_bubble"));
                    continue;
                }
                const json* w = nullptr;
                for (const auto& x : o->j["bubble_windows"])
                    if (x["start_ns"] == a["start_ns"] && x["end_ns"] == a["end_ns"]) w = &x;
                QVERIFY2(w, a["type"].get<std::string>().c_str());
                const json& lines = (*w)["stack_evidence"]["user_frames"];
                QVERIFY2(!lines.empty(), a["type"].get<std::string>().c_str());
                QCOMPARE(lines[0]["frame_text"].get<std::string>(), a["user_frame"].get<std::string>());
                QCOMPARE(lines[0]["frame"].get<std::string>(), a["user_line"].get<std::string>());
                types.insert(a["type"].get<std::string>());
                ++named;
            }
            QCOMPARE(types, (std::set<std::string>{"host_launch_lag", "sync_bubble", "comm_wait_bubble",
                                                    "first_step_prelaunch", "last_step_tail",
                                                    "layer_dispatch_gap"}));
            QVERIFY(named >= types.size());
        }
        // The sync bubble's line reaches its op through a library frame: the path goes through it.
        auto o = analyze(rank);
        for (const auto& a : expected["anomalies"])
            if (a["type"] == "sync_bubble")
                for (const auto& x : o->j["bubble_windows"])
                    if (x["start_ns"] == a["start_ns"])
                        QCOMPARE(x["stack_evidence"]["user_frames"][0]["path"].get<std::string>(),
                                 std::string("sampler.py:81 check_stop → _device.py:77 __torch_function__ → aten::to"));
    }

    void aGeneratedGroupNamesTheUserLineOnTopOfItsWindowsInMostSteps() {
        // Six generated steps with host work (the user's attention.py(301): build_metadata) before each
        // attention kernel of the first decode pass: windows in every step. The group's aggregate (JSON
        // recurring_user_lines, the report's periodicity line) is checked against a count made here from
        // the windows: the steps of the group holding a (non-boundary) window whose top user frame is that
        // line, once per step however many windows the step has.
        const QString dir = tmp.filePath(QStringLiteral("sixsteps"));
        QProcess gen;
        gen.start(QStringLiteral(BS_SYNTH),
                  {QStringLiteral("--out"), dir, QStringLiteral("--name"), QStringLiteral("sixsteps"),
                   QStringLiteral("--quiet"), QStringLiteral("--steps"), QStringLiteral("6"),
                   QStringLiteral("--dispatch-gap"), QStringLiteral("300")});
        QVERIFY(gen.waitForFinished(120000) && gen.exitCode() == 0);
        auto o = analyze(dir);
        QVERIFY(o);
        const std::regex re(
            "- `([^`]+)` is the top user line behind a bubble window in ([0-9]+) of its ([0-9]+) steps");
        std::smatch m;
        QVERIFY2(std::regex_search(o->md, m, re), "no recurring user line in the report");
        const std::string line = m[1];
        const std::size_t n = std::stoul(m[2]), total = std::stoul(m[3]);
        const json& g = o->j["step_group_anomalies"][0];
        QCOMPARE(g["steps"].size(), total);
        std::set<std::string> steps;
        for (const auto& w : o->j["bubble_windows"])
            if (w["group_id"] == g["group_id"] && !w["capture_boundary"].get<bool>() &&
                !w["stack_evidence"]["user_frames"].empty() &&
                w["stack_evidence"]["user_frames"][0]["frame"] == line)
                steps.insert(w["step_id"].get<std::string>());
        QCOMPARE(steps.size(), n);
        QCOMPARE(line, std::string("attention.py:301 build_metadata"));
        QCOMPARE(n, std::size_t(6));
        QCOMPARE(total, std::size_t(6));
        // The JSON aggregate of the group: the same line, steps, its windows and their host time.
        std::size_t windows = 0;
        double hostMs = 0;
        for (const auto& w : o->j["bubble_windows"])
            if (w["group_id"] == g["group_id"] && !w["capture_boundary"].get<bool>() &&
                !w["stack_evidence"]["user_frames"].empty() &&
                w["stack_evidence"]["user_frames"][0]["frame"] == line)
                ++windows, hostMs += w["stack_evidence"]["user_frames"][0]["host_time_ms"].get<double>();
        const json& agg = g["recurring_user_lines"];
        QVERIFY(!agg.empty());
        QCOMPARE(agg[0]["frame"].get<std::string>(), line);
        QCOMPARE(agg[0]["frame_text"].get<std::string>(),
                 std::string("/workspace/llm_bench/attention.py(301): build_metadata"));
        QCOMPARE(agg[0]["steps"].get<std::size_t>(), n);
        QCOMPARE(agg[0]["of_steps"].get<std::size_t>(), total);
        QVERIFY(windows > n); // several windows a step, each step counted once
        QCOMPARE(agg[0]["windows"].get<std::size_t>(), windows);
        QVERIFY(std::abs(agg[0]["host_time_ms"].get<double>() - hostMs) < 1e-4);
        // The dominant group's "where" answer names it too.
        QVERIFY(o->md.find("`attention.py:301 build_metadata` is the top user line behind a window in 6 of its 6 "
                           "steps") != std::string::npos);
    }

    void framesAreSplitAndClassifiedAsUserOrLibrary() {
        const auto f =
            bs::splitStack("/u/.local/lib/python3.9/site-packages/torch/_utils.py(180): _rebuild_tensor;\r\n"
                           "/u/miniconda3/lib/python3.9/multiprocessing/queues.py(122): get;\r\n"
                           "/u/imagenet_script/main.py(345): train;\r\n"
                           "torch_npu/profiler/profiler.py(244): step;\r\n"
                           "/usr/lib/python3/dist-packages/x.py(1): y;\r\n"
                           "<string>(1): <module>;\r\n"
                           "run.py(88): main");
        QCOMPARE(f.size(), std::size_t(7));
        const bool user[] = {false, false, true, false, false, false, true};
        for (std::size_t i = 0; i < f.size(); ++i)
            QVERIFY2(f[i].user == user[i], std::string(f[i].text).c_str());
        QCOMPARE(f[2].line, 345L);
        QCOMPARE(std::string(f[2].function), std::string("train"));
        QCOMPARE(bs::frameLabel(f[2]), std::string("main.py:345 train"));
        QCOMPARE(bs::frameLabel(f[6]), std::string("run.py:88 main"));
    }

    void malformedAndHugeStacksAreBoundedNotFatal() {
        for (const char* text : {"", ";", ";;\r\n;\r\n", "no frame form at all", "a.py(: f", "a.py(12x): f",
                                 "a.py(99999999999999999999): f", "((((): ): ): ", ";\r\n;\r\nb.py(2): g"}) {
            const auto f = bs::splitStack(text);
            for (const auto& fr : f)
                QVERIFY(bs::frameLabel(fr).size() < 400);
        }
        QCOMPARE(bs::splitStack(";\r\n;\r\nb.py(2): g").size(), std::size_t(1));
        std::string huge;
        for (int i = 0; i < 100000; ++i)
            huge += "/site-packages/m.py(" + std::to_string(i) + "): f;\r\n";
        QCOMPARE(bs::splitStack(huge).size(), bs::kMaxFrames);
        const std::string longName(1 << 20, 'x');
        const std::string oneText = "a.py(1): " + longName; // named: the frames view into it
        const auto one = bs::splitStack(oneText);
        QCOMPARE(one.size(), std::size_t(1));
        QVERIFY(bs::frameLabel(one[0]).size() < 400);
    }
};

QTEST_GUILESS_MAIN(TstStackEvidence)
#include "tst_stack_evidence.moc"
