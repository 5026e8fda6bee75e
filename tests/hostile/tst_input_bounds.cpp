// Input bounds and input shapes (issue 19, items 6 and 11). Every numeric input a reader turns into ns,
// a count or a float is bounded there: a value outside its range is a finding (file, line, column, value,
// what was expected, how to fix the collection) and the row keeps what is still true; sums over many rows
// saturate instead of wrapping. The shapes that once made a step quadratic are checked for their RESULT
// at a modest n here; their timing at n and 8n is bubblescope-bench-complexity's job, never a unit test's.
#include "i18n/message.h"
#include "pipeline/analysis_run.h"
#include "analysis/bubble_metrics.h"
#include "analysis/op_analysis.h"
#include "architecture/structures.h"
#include "io/discovery.h"
#include "io/kernel_checks.h"
#include "io/kernel_table_reader.h"
#include "io/profile_loader.h"
#include "io/side_file_readers.h"
#include "test_support.h"

#include "../bench/complexity_shapes.h"

#include <QTemporaryDir>

#include <cmath>
#include <functional>
#include <sys/stat.h>
#include <unistd.h>
#include <cstring>
#include <filesystem>
#include <limits>

using bstest::writeFile;

namespace {

struct Run {
    bs::LoadResult load;
    bs::AnalysisResult r;
    const bs::Profile& p() const { return *load.profile; }
    std::vector<const bs::Finding*> all(const char* id) const {
        std::vector<const bs::Finding*> out;
        for (const auto& f : r.findings)
            if (f.id == id) out.push_back(&f);
        return out;
    }
    const bs::Finding* get(const char* id) const {
        auto v = all(id);
        return v.empty() ? nullptr : v.front();
    }
    const bs::OpStats* op(const char* name) const {
        for (const auto& o : r.anomaly.ops)
            if (o.name == name) return &o;
        return nullptr;
    }
};

Run analyze(const std::string& rankDir) {
    Run run;
    run.load = bs::loadRank({rankDir, rankDir + "/ASCEND_PROFILER_OUTPUT", "torch_npu", "bounds"});
    run.r = bs::analyzeProfile(*run.load.profile);
    return run;
}

bool contains(const std::string& s, const char* part) {
    return s.find(part) != std::string::npos;
}

const char* kHeader =
    "Step Id,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us)\n";

} // namespace

class InputBoundsTest : public QObject {
    Q_OBJECT
    QTemporaryDir tmp;
    int n = 0;
    // A rank folder with the given files in ASCEND_PROFILER_OUTPUT/ (name → content).
    std::string rank(std::initializer_list<std::pair<const char*, QByteArray>> files) {
        const QString dir = tmp.filePath(QStringLiteral("r%1_ascend_pt").arg(++n));
        for (const auto& [name, content] : files)
            writeFile(dir + QStringLiteral("/ASCEND_PROFILER_OUTPUT/") + QString::fromUtf8(name), content);
        return bstest::s(dir);
    }
    std::string shapeRoot() { return bstest::s(tmp.filePath(QStringLiteral("shape%1").arg(++n))); }

  private slots:
    // ---- Item 6: bounds at the readers, safe sums in the analysis ----

    void aHugeWaitTimeIsAFindingAndTheWaitAverageStaysTrue() {
        // 9e15 µs = 9e18 ns fits int64 alone; summed with anything it wrapped to a negative average
        // ("Wait avg −23372036854775.809 us"). Now the row keeps its interval and its wait counts as 0.
        QByteArray csv(kHeader);
        csv += "1,2,A,A,AI_CORE," + QByteArray(shapes::us(100000).c_str()) + ",10,10\n";
        csv += "1,2,A,A,AI_CORE," + QByteArray(shapes::us(200000).c_str()) + ",10,20\n";
        csv += "1,2,A,A,AI_CORE," + QByteArray(shapes::us(300000).c_str()) + ",10,9e15\n";
        csv += "1,2,A,A,AI_CORE," + QByteArray(shapes::us(400000).c_str()) + ",10,-5\n";
        csv += "1,2,A,A,AI_CORE," + QByteArray(shapes::us(500000).c_str()) + ",10,N/A\n";
        auto run = analyze(rank({{"kernel_details.csv", csv}}));
        QCOMPARE(run.p().kernels.size(), std::size_t(5));
        const auto bad = run.all("csv_value_out_of_range");
        QCOMPARE(bad.size(), std::size_t(2)); // 9e15 and -5; N/A is "not measured", not out of range
        QCOMPARE(bad[0]->line, 4LL);
        QVERIFY(contains(bad[0]->file, "kernel_details.csv"));
        QVERIFY(contains(bs::english(bad[0]->seen), "Column 'Wait Time(us)' holds '9e15'"));
        QVERIFY(contains(bs::english(bad[0]->seen), "at most 1000 s"));
        QVERIFY(contains(bs::english(bad[0]->impact), "wait is counted as 0"));
        QVERIFY(contains(bs::english(bad[0]->fix), "re-export"));
        QCOMPARE(bad[1]->line, 5LL);
        QVERIFY(contains(bs::english(bad[1]->seen), "holds '-5'"));
        QCOMPARE(run.r.metrics.size(), std::size_t(1));
        QCOMPARE(run.r.metrics[0].kernelWaitSum, Q_INT64_C(30000)); // 10 + 20 µs
        QCOMPARE(run.r.metrics[0].kernelSum, Q_INT64_C(50000));
        const auto* a = run.op("A");
        QVERIFY(a);
        QCOMPARE(a->calls, std::size_t(5));
        QCOMPARE(a->waitAvgUs, 6.0); // (10 + 20 + 0 + 0 + 0) / 5
        QCOMPARE(a->durAvgUs, 10.0);
        for (const auto& s : run.r.architecture.structures)
            QVERIFY(s.all.totalCost >= 0);
    }

    void blockDimStreamAndStepIdsOutOfRangeAreFindings() {
        QByteArray csv("Step Id,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait "
                       "Time(us),Block Dim\n");
        csv += "1,2,A,A,AI_CORE," + QByteArray(shapes::us(0).c_str()) + ",10,0,48\n";
        csv += "1,2,B,B,AI_CORE," + QByteArray(shapes::us(20000).c_str()) + ",10,0,70000\n";
        csv += "1,99999999999,C,C,AI_CORE," + QByteArray(shapes::us(40000).c_str()) + ",10,0,1\n";
        csv += "-3,N/A,D,D,AI_CORE," + QByteArray(shapes::us(60000).c_str()) + ",10,0,N/A\n";
        auto run = analyze(rank({{"kernel_details.csv", csv}}));
        const auto& ks = run.p().kernels;
        QCOMPARE(ks.size(), std::size_t(4));
        QCOMPARE(ks[0].blockDim, 48u);
        QCOMPARE(ks[1].blockDim, 0u);
        QCOMPARE(ks[2].stream, -1);
        QCOMPARE(ks[3].stepId, -1);
        const auto bad = run.all("csv_value_out_of_range");
        QCOMPARE(bad.size(), std::size_t(3)); // block dim, stream id, step id; N/A stream is fine
        QVERIFY(
            contains(bs::english(bad[0]->seen),
                     "Column 'Block Dim' holds '70000'; expected an integer block count from 0 to 65535"));
        QVERIFY(contains(bs::english(bad[1]->seen), "Column 'Stream ID' holds '99999999999'"));
        QVERIFY(contains(bs::english(bad[2]->seen), "Column 'Step Id' holds '-3'"));
        QCOMPARE(bad[2]->line, 5LL);
    }

    void pmuValuesOutsideTheirRangeAreNotApplicable() {
        QByteArray csv("Step Id,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait "
                       "Time(us),aic_mac_ratio,"
                       "aic_mac_time(us),aic_cube_fops\n");
        csv += "1,2,A,A,AI_CORE," + QByteArray(shapes::us(0).c_str()) + ",10,0,0.5,3.5,665458606080\n";
        csv += "1,2,B,B,AI_CORE," + QByteArray(shapes::us(20000).c_str()) + ",10,0,1e39,2e9,-1\n";
        auto run = analyze(rank({{"kernel_details.csv", csv}}));
        const auto& p = run.p();
        QCOMPARE(p.pmu.columns.size(), std::size_t(3));
        QCOMPARE(p.pmu.at(0, 0), 0.5f);
        QCOMPARE(p.pmu.at(0, 1), 3.5f);
        QCOMPARE(p.pmu.at(0, 2), static_cast<float>(665458606080.0));
        for (std::size_t c = 0; c < 3; ++c)
            QVERIFY(std::isnan(p.pmu.at(1, c)));
        const auto bad = run.all("csv_value_out_of_range");
        QCOMPARE(bad.size(), std::size_t(3));
        QVERIFY(
            contains(bs::english(bad[0]->seen),
                     "'aic_mac_ratio' holds '1e39'; expected a non-negative PMU figure that fits a float"));
        QVERIFY(contains(
            bs::english(bad[1]->seen),
            "'aic_mac_time(us)' holds '2e9'; expected a non-negative PMU time in µs of at most 1000 s"));
        QVERIFY(contains(bs::english(bad[2]->seen), "'aic_cube_fops' holds '-1'"));
    }

    void communicationJsonTimesOutOfRangeAreFindings() {
        // Start 9e15 µs and Elapse 9e12 ms overflowed start + elapse in the communication windows.
        const QByteArray comm = R"json({"step1": {"collective": {
            "hcom_allReduce__1_0_1": {"Communication Time Info": {"Start Timestamp(us)": 9e15, "Elapse Time(ms)": 9e12,
                "Transit Time(ms)": 0.25, "Wait Time(ms)": -3, "Synchronization Time(ms)": 0.001, "Idle Time(ms)": -1e-9},
              "Communication Bandwidth Info": {"HCCS": {"Transit Size(MB)": -4}, "SIO": {"Transit Size(MB)": 2.5},
                                               "SDMA": {"Transit Size(MB)": 1e300}}},
            "hcom_allReduce__1_1_1": {"Communication Time Info": {"Start Timestamp(us)": 1736408883100000.5,
                "Elapse Time(ms)": 2.5, "Transit Time(ms)": 1.25, "Wait Time(ms)": 0.5}},
            "Total Op Info": {"Communication Time Info": {"Elapse Time(ms)": 2.5}}}}})json";
        QByteArray csv(kHeader);
        csv += "1,2,hcom_allReduce__1_1_1,N/A,HCCL," + QByteArray(shapes::us(100000).c_str()) + ",2500,100\n";
        csv += "1,2,A,A,AI_CORE," + QByteArray(shapes::us(103000).c_str()) + ",10,0\n";
        auto run = analyze(rank({{"kernel_details.csv", csv}, {"communication.json", comm}}));
        const auto& ops = run.p().commOps;
        QCOMPARE(ops.size(), std::size_t(3));
        const bs::CommOp* bad = nullptr;
        const bs::CommOp* good = nullptr;
        for (const auto& c : ops) {
            if (c.name == "hcom_allReduce__1_0_1") bad = &c;
            if (c.name == "hcom_allReduce__1_1_1") good = &c;
        }
        QVERIFY(bad && good);
        QCOMPARE(bad->start, Q_INT64_C(0));
        QCOMPARE(bad->elapse, Q_INT64_C(0));
        QCOMPARE(bad->wait, Q_INT64_C(0));
        QCOMPARE(bad->transit, Q_INT64_C(250000)); // what is still true is kept
        QCOMPARE(bad->sync, Q_INT64_C(1000));
        QCOMPARE(bad->idle, Q_INT64_C(0)); // -1e-9 ms is rounding noise, not a finding
        QCOMPARE(bad->transitSizeMB, 2.5); // SIO; HCCS -4 dropped; SDMA never counted
        QCOMPARE(good->start, Q_INT64_C(1736408883100000500));
        QCOMPARE(good->elapse, Q_INT64_C(2500000));
        const auto found = run.all("json_value_out_of_range");
        QCOMPARE(found.size(), std::size_t(4)); // start, elapse, wait, HCCS size
        QVERIFY(contains(bs::english(found[0]->seen),
                         "'step1 › collective › hcom_allReduce__1_0_1 › Start Timestamp(us)' is 9e+15"));
        QVERIFY(contains(bs::english(found[0]->impact), "marks no communication window"));
        QVERIFY(contains(bs::english(found[1]->seen),
                         "Elapse Time(ms)' is 9000000000000.0; expected a duration in ms from 0 to 1e6"));
        QVERIFY(contains(bs::english(found[2]->seen), "Wait Time(ms)' is -3"));
        QVERIFY(contains(bs::english(found[3]->seen), "HCCS › Transit Size(MB)' is -4"));
        QVERIFY(contains(bs::english(found[3]->fix), "communication.json"));
        // The analysis runs on what is left: the HCCL kernel's wait overlaps the good collective only.
        const auto* a = run.op("hcom_allReduce__#_#_#");
        QVERIFY(a);
        QCOMPARE(a->waitAvgUs, 100.0);
    }

    void stepTraceTimeValuesOutOfRangeAreDropped() {
        QByteArray csv(kHeader);
        csv += "1,2,A,A,AI_CORE," + QByteArray(shapes::us(0).c_str()) + ",10,0\n";
        csv += "1,2,B,B,AI_CORE," + QByteArray(shapes::us(30000).c_str()) + ",10,0\n";
        const QByteArray stt = "Step,Computing,Communication(Not Overlapped),Free,Preparing\n"
                               "1,20,-5,1e300,0\n";
        auto run = analyze(rank({{"kernel_details.csv", csv}, {"step_trace_time.csv", stt}}));
        const auto bad = run.all("csv_value_out_of_range");
        QCOMPARE(bad.size(), std::size_t(2));
        QVERIFY(contains(bs::english(bad[0]->seen), "Column 'Communication(Not Overlapped)' holds '-5'"));
        QVERIFY(contains(bs::english(bad[1]->seen), "Column 'Free' holds '1e300'; expected a per-step time in µs"));
        QCOMPARE(bad[1]->line, 2LL);
        const auto& row = run.p().stepTrace.at(0);
        QCOMPARE(row.values.size(), std::size_t(2)); // Computing and Preparing
        QCOMPARE(run.r.crossCheck.rows.size(), std::size_t(1));
        for (const auto& f : run.r.crossCheck.rows[0].figures) {
            if (f.field == "internal_bubble_total") QVERIFY(!f.profilerUs); // Free dropped
            if (f.field == "prelaunch_gap") QCOMPARE(*f.profilerUs, 0.0);
            if (f.field == "device_busy_union") QVERIFY(!f.profilerUs); // one of its two columns dropped
        }
    }

    void sumsOverManyRowsSaturateInsteadOfWrapping() {
        // A model built without the readers (as a fuzzer or a future reader might): waits near the int64
        // limit. Sums stay at the limit, never negative.
        QCOMPARE(bs::addSaturating(INT64_MAX - 5, 10), INT64_MAX);
        QCOMPARE(bs::addSaturating(INT64_MIN + 5, -10), INT64_MIN);
        QCOMPARE(bs::addSaturating(7, 8), Q_INT64_C(15));
        bs::Profile p;
        const bs::StrId name = p.strings.intern("A"), type = p.strings.intern("AI_CORE");
        for (int i = 0; i < 4; ++i) {
            bs::Kernel k;
            k.start = 1'000'000 + i * 1000;
            k.dur = 500;
            k.wait = 4'000'000'000'000'000'000LL;
            k.name = name;
            k.taskType = type;
            k.stream = 2;
            k.cls = bs::TaskClass::ComputeCore;
            p.kernels.push_back(k);
        }
        auto r = bs::analyzeProfile(p);
        QCOMPARE(r.metrics.at(0).kernelWaitSum, INT64_MAX);
        const bs::OpStats* a = nullptr;
        for (const auto& o : r.anomaly.ops)
            if (o.name == "A") a = &o;
        QVERIFY(a);
        QVERIFY(a->waitAvgUs > 0);
        for (const auto& s : r.architecture.structures)
            QCOMPARE(s.all.totalCost, INT64_MAX);
    }

    // ---- Item 11: the once-quadratic shapes give the right answer ----

    void manyPmuColumnsAreAllReadAndMappedByName() {
        auto run = analyze(shapes::pmuColumns(shapeRoot(), 3000));
        const auto& pmu = run.p().pmu;
        QCOMPARE(pmu.columns.size(), std::size_t(3000));
        QCOMPARE(pmu.columns[2999], std::string("aic_c2999"));
        QCOMPARE(pmu.values.size(), std::size_t(4 * 3000));
        QCOMPARE(pmu.at(3, 2999), 0.5f);
    }

    void aLaterTableMapsItsPmuColumnsByNameAndSkipsUnknownOnes() {
        // Two msprof op_summary files: the first defines the PMU columns; the second has them in another
        // order, one unknown, one twice. Each value must land under its own name.
        const std::string dir = shapeRoot();
        std::filesystem::create_directories(dir);
        const std::string a = dir + "/a.csv", b = dir + "/b.csv";
        shapes::write(a, std::string(kHeader).substr(0, std::strlen(kHeader) - 1) +
                             ",aic_x,aic_y\n1,2,A,A,AI_CORE," + shapes::us(0) + ",10,0,1,2\n");
        shapes::write(b, std::string(kHeader).substr(0, std::strlen(kHeader) - 1) +
                             ",aic_new,aic_y,aic_x,aic_y\n1,2,B,B,AI_CORE," + shapes::us(20000) +
                             ",10,0,9,8,7,6\n");
        bs::Profile p;
        bs::FindingSink sink;
        QVERIFY(bs::readKernelTable(a, bs::KernelSource::OpSummary, p, sink).ok);
        QVERIFY(bs::readKernelTable(b, bs::KernelSource::OpSummary, p, sink).ok);
        QCOMPARE(p.pmu.columns, (std::vector<std::string>{"aic_x", "aic_y"}));
        QCOMPARE(p.pmu.at(1, 0), 7.0f); // aic_x
        QCOMPARE(p.pmu.at(1, 1), 6.0f); // the last aic_y of the row
    }

    void rowsSharingOneStartTimeAreDeduplicatedByKey() {
        auto run = analyze(shapes::equalStarts(shapeRoot(), 2000));
        QCOMPARE(run.p().kernels.size(), std::size_t(1000));
        QVERIFY(bs::english(run.get("duplicate_kernel_rows")->seen).rfind("1000 kernel row(s) repeat", 0) == 0);
        QVERIFY(contains(bs::english(run.get("stream_overlap")->seen), "999 kernel(s) start more than 1 us before"));
        // The check itself, on a hand-made list: equal starts, keys that differ in one field each.
        bs::Profile p;
        const bs::StrId x = p.strings.intern("x"), y = p.strings.intern("y");
        auto k = [&](bs::TimeNs start, bs::TimeNs dur, bs::StrId name, int stream) {
            bs::Kernel kk;
            kk.start = start, kk.dur = dur, kk.name = name, kk.stream = stream;
            kk.cls = bs::TaskClass::ComputeCore;
            return kk;
        };
        p.kernels = {k(5, 1, x, 1), k(5, 2, x, 1), k(5, 1, y, 1), k(5, 1, x, 2),
                     k(5, 1, x, 1), k(5, 2, x, 1), k(6, 1, x, 1), k(6, 1, x, 1)};
        bs::FindingSink sink;
        bs::checkKernelTable(p, sink);
        QCOMPARE(p.kernels.size(), std::size_t(5)); // rows 4, 5 and 7 repeat rows 0, 1 and 6
        QCOMPARE(p.kernels[1].dur, bs::TimeNs(2));
        QCOMPARE(p.kernels[2].name, y);
        QCOMPARE(p.kernels[4].start, bs::TimeNs(6));
        QVERIFY(bs::english(sink.findings().at(0).seen).rfind("3 kernel row(s) repeat", 0) == 0);
    }

    void theTraceJoinPrefersTheSameStreamAmongManyEventsAtOneTime() {
        bs::Profile p;
        p.lanes.push_back({1, 7, bs::LaneKind::Device});
        const bs::StrId t1 = p.strings.intern("AI_CORE"), t2 = p.strings.intern("MIX_AIV");
        const bs::StrId n1 = p.strings.intern("k1"), n2 = p.strings.intern("k2");
        for (int s = 0; s < 500; ++s) { // 500 events at one ts, on streams 0..499
            bs::TraceEvent e;
            e.ts = 1000;
            e.dur = 10;
            e.streamArg = s;
            e.taskType = s == 321 ? t2 : t1;
            e.name = s == 400 ? n2 : n1;
            p.deviceEvents.push_back(e);
        }
        for (int i = 0; i < 1000; ++i) {
            bs::Kernel k;
            k.start = 1000;
            k.dur = 10;
            k.name = i % 2 ? n2 : n1;
            k.stream = i % 3 == 0 ? 321 : -1;
            p.kernels.push_back(k);
        }
        bs::joinKernelsWithTrace(p);
        for (int i = 0; i < 1000; ++i) {
            const auto& k = p.kernels[static_cast<std::size_t>(i)];
            if (i % 3 == 0) {
                QCOMPARE(k.stream, 321);
                QCOMPARE(k.taskType, t2);
            } else {
                QCOMPARE(k.stream, i % 2 ? 400 : 0); // same name, else the first event at that time
                QCOMPARE(k.taskType, t1);
            }
        }
        QCOMPARE(p.inventory.streamsFromTrace, std::size_t(666));
        QCOMPARE(p.inventory.kernelsTaskTypeFromTrace, std::size_t(1000));
    }

    void aLongRunOfOneOpTypeIsNotARepeatingPattern() {
        std::size_t off = 99;
        QCOMPARE(bs::shortestRepeatingPeriod(std::vector<std::uint32_t>(5000, 7), off), std::size_t(0));
        // One odd kernel, then (A B C) x 10, then a run of one symbol: the pattern is found where it is.
        std::vector<std::uint32_t> seq{9};
        for (int i = 0; i < 10; ++i)
            seq.insert(seq.end(), {1, 2, 3});
        seq.insert(seq.end(), 3000, 4);
        off = 99;
        QCOMPARE(bs::shortestRepeatingPeriod(seq, off), std::size_t(3));
        QCOMPARE(off, std::size_t(1));
        auto run = analyze(shapes::oneOpType(shapeRoot(), 3000));
        QVERIFY(!run.r.architecture.structures.empty());
        for (const auto& s : run.r.architecture.structures)
            QCOMPARE(s.type, std::string("gap segment"));
    }

    void eachStreamOverlapsOnlyItsNeighbours() {
        auto run = analyze(shapes::manyStreams(shapeRoot(), 400));
        const auto& streams = run.r.architecture.streams;
        QCOMPARE(streams.size(), std::size_t(400));
        for (const auto& s : streams) {
            std::vector<int> want;
            if (s.stream > 0) want.push_back(s.stream - 1);
            if (s.stream < 399) want.push_back(s.stream + 1);
            QCOMPARE(s.overlapsWith, want);
        }
    }

    void globalGapsBetweenManyStepsAreEachAWindow() {
        const std::string dir = shapes::manySteps(shapeRoot(), 300);
        // step_trace_time rows in reverse order, step 5 twice (the last row of a step is the one used).
        std::string stt = "Step,Computing,Communication(Not Overlapped),Free,Preparing\n";
        for (int s = 300; s >= 1; --s)
            stt += std::to_string(s) + ",90,0,10,0\n";
        stt += "5,90,0,20,0\n";
        shapes::write(dir + "/ASCEND_PROFILER_OUTPUT/step_trace_time.csv", stt);
        auto run = analyze(dir);
        QCOMPARE(run.r.steps.steps.size(), std::size_t(300));
        std::size_t global = 0;
        for (const auto& w : run.r.anomaly.windows) {
            QCOMPARE(w.scope, bs::WindowScope::Global);
            QCOMPARE(w.span.length(), bs::TimeNs(100000));
            ++global;
        }
        QCOMPARE(global, std::size_t(299));
        QCOMPARE(run.r.crossCheck.rows.size(), std::size_t(300));
        for (const auto& row : run.r.crossCheck.rows) {
            QVERIFY(row.matched);
            for (const auto& f : row.figures)
                if (f.field == "internal_bubble_total")
                    QCOMPARE(*f.profilerUs, row.stepId == 5 ? 20.0 : 10.0);
        }
        QCOMPARE(run.r.crossCheck.mismatches, std::size_t(1)); // step 5's 20 µs against our 10 µs
    }

    // Issue 45, item 8: a rank whose only data file is not a regular file is told so, by name and kind,
    // instead of being taken for an empty output folder (which blames the training script).
    void aDataFileThatIsNotARegularFileIsNamedWithItsKind() {
        QTemporaryDir tmp;
        struct Case {
            const char* name;
            std::function<bool(const std::string&)> make;
            const char* said;
        };
        const std::vector<Case> cases{
            {"zero", [](const std::string& p) { return ::symlink("/dev/zero", p.c_str()) == 0; },
             "is a character device, not a regular file"},
            {"fifo", [](const std::string& p) { return ::mkfifo(p.c_str(), 0600) == 0; }, "is a FIFO, not a regular file"},
            {"folder", [](const std::string& p) { return std::filesystem::create_directory(p); },
             "is a folder, not a regular file"},
            {"loop", [](const std::string& p) { return ::symlink(p.c_str(), p.c_str()) == 0; },
             "cannot be opened: Too many levels of symbolic links"},
            {"dangling", [](const std::string& p) { return ::symlink((p + ".gone").c_str(), p.c_str()) == 0; },
             "cannot be opened: No such file or directory"}};
        for (const Case& c : cases) {
            const std::string out = bstest::s(tmp.filePath(QString::fromLatin1(c.name))) + "/r_ascend_pt/ASCEND_PROFILER_OUTPUT";
            std::filesystem::create_directories(out);
            const std::string db = out + "/ascend_pytorch_profiler_0.db";
            QVERIFY2(c.make(db), c.name);
            const bs::DiscoveryResult found = bs::discoverProfiles(out);
            QCOMPARE(found.ranks.size(), std::size_t(1));
            const bs::LoadResult loaded = bs::loadRank(found.ranks[0]);
            QVERIFY(!loaded.hasAnyData);
            const std::string m = bs::english(bs::noDataMessage(found.ranks[0], loaded));
            QVERIFY2(m.find(db + " " + c.said) != std::string::npos, m.c_str());
            QVERIFY2(m.find("prof.step()") == std::string::npos, m.c_str());
        }
    }

    // Issue 45, item 8: a "Stream Id" outside int32 is a finding naming the count and the first byte; the
    // event stays, on its thread's lane. The bounds themselves are tested: 2^31 - 1 is a stream, 2^31 and
    // -1 are not.
    void aStreamIdOutsideInt32IsAFindingAtItsBoundary() {
        auto event = [](long long tsUs, const char* stream) {
            return QByteArray("{\"name\": \"k\", \"ph\": \"X\", \"pid\": 7, \"tid\": 3, \"ts\": \"") +
                   QByteArray::number(1736408883000000LL + tsUs) + ".000\", \"dur\": 1.0, \"args\": {\"Stream Id\": " +
                   stream + "}}";
        };
        const QByteArray trace = "[" + event(0, "2147483647") + ",\n" + event(10, "2147483648") + ",\n" +
                                 event(20, "-1") + ",\n" + event(30, "99999999999999999999") + "]";
        const std::string dir = rank({{"trace_view.json", trace}});
        const auto load = bs::loadRank({dir, dir + "/ASCEND_PROFILER_OUTPUT", "torch_npu", "bounds"});
        const bs::Finding* f = nullptr;
        for (const auto& x : load.profile->loadFindings)
            if (x.id == "trace_bad_stream_id") f = &x;
        QVERIFY(f);
        const std::string seen = bs::english(f->seen);
        QVERIFY2(contains(seen, "3 event(s) have a 'Stream Id'"), seen.c_str());
        QCOMPARE(f->byteOffset, static_cast<long long>(trace.indexOf(event(10, "2147483648"))));
        std::size_t onStream = 0;
        for (const auto& e : load.profile->deviceEvents)
            onStream += e.streamArg == 2147483647 ? 1 : 0;
        for (const auto& e : load.profile->hostEvents)
            onStream += e.streamArg == 2147483647 ? 1 : 0;
        QCOMPARE(onStream, std::size_t(1));
    }
};

QTEST_APPLESS_MAIN(InputBoundsTest)
#include "tst_input_bounds.moc"
