// The replay model (ANALYSIS.md §15, issue 47): the self-check on every real rank of shared/realdata (text and
// SQLite exports), and the model's rules on hand-built profiles whose replays are computed by hand below.
#include "test_support.h"
#include "pipeline/analysis_run.h"
#include "pipeline/recommendations.h"
#include "i18n/message.h"
#include "analysis/steps.h"
#include "io/discovery.h"
#include "io/profile_loader.h"
#include "model/profile.h"
#include "replay/replay.h"
#include "cluster/cluster_analysis.h"

#include <QTest>

namespace {

constexpr bs::TimeNs us(double v) {
    return static_cast<bs::TimeNs>(v * 1000.0);
}

// A hand-built capture: one host thread (tid 7: a Python lane and a CANN lane, as torch_npu writes them),
// device streams as lanes, flows from host instants to kernel starts.
struct Builder {
    bs::Profile p;
    std::uint64_t nextFlow = 1;
    Builder() {
        p.lanes.push_back({1, 7, bs::LaneKind::Host}); // lane 0: Python, tid 7
        p.lanes.push_back({2, 7, bs::LaneKind::Host}); // lane 1: CANN, tid 7
        p.hasTrace = true;
    }
    std::uint32_t deviceLane(int stream) {
        for (std::uint32_t i = 0; i < p.lanes.size(); ++i)
            if (p.lanes[i].kind == bs::LaneKind::Device && p.lanes[i].tid == static_cast<std::uint64_t>(stream))
                return i;
        p.lanes.push_back({9, static_cast<std::uint64_t>(stream), bs::LaneKind::Device});
        return static_cast<std::uint32_t>(p.lanes.size() - 1);
    }
    void host(const char* name, bs::TimeNs ts, bs::TimeNs dur, std::uint32_t lane = 0) {
        bs::TraceEvent e;
        e.ts = ts;
        e.dur = dur;
        e.lane = lane;
        e.name = p.strings.intern(name);
        p.hostEvents.push_back(e);
    }
    // A kernel; launched at `launch` (a flow from the Python lane) unless launch < 0.
    std::size_t kernel(const char* name, int stream, bs::TimeNs start, bs::TimeNs dur, bs::TimeNs launch = -1,
                       std::uint32_t launchLane = 0) {
        bs::Kernel k;
        k.name = p.strings.intern(name);
        k.stream = stream;
        k.start = start;
        k.dur = dur;
        p.kernels.push_back(k);
        if (launch >= 0) {
            const std::uint64_t id = nextFlow++;
            p.flows.push_back({launch, id, 0, launchLane, 's'});
            p.flows.push_back({start, id, 0, deviceLane(stream), 'f'});
        }
        return p.kernels.size() - 1;
    }
    // A host flow (a hand-over) from one host lane to another.
    void handOver(std::uint32_t fromLane, bs::TimeNs s, std::uint32_t toLane, bs::TimeNs f) {
        const std::uint64_t id = nextFlow++;
        p.flows.push_back({s, id, 0, fromLane, 's'});
        p.flows.push_back({f, id, 0, toLane, 'f'});
    }
    // Sorts as the loaders do; steps from ProfilerStep markers.
    bs::StepSet finish() {
        std::stable_sort(p.kernels.begin(), p.kernels.end(), [](const bs::Kernel& a, const bs::Kernel& b) {
            return a.start != b.start ? a.start < b.start : a.stream < b.stream;
        });
        std::stable_sort(p.hostEvents.begin(), p.hostEvents.end(),
                         [](const bs::TraceEvent& a, const bs::TraceEvent& b) { return a.ts < b.ts; });
        return bs::detectSteps(p);
    }
};

} // namespace

class TstReplay : public QObject {
    Q_OBJECT

    // Every step of the rank replayed unchanged: the largest error.
    static double worstSelfCheck(const QString& rel, std::size_t* steps = nullptr, bs::ReplayStats* stats = nullptr) {
        auto found = bs::discoverProfiles(bstest::s(bstest::realdata(rel)));
        if (found.ranks.size() != 1) return -1;
        auto loaded = bs::loadRank(found.ranks[0]);
        if (!loaded.profile) return -1;
        const bs::StepSet set = bs::detectSteps(*loaded.profile);
        const bs::ReplayModel m(*loaded.profile, set);
        double worst = 0;
        for (std::size_t i = 0; i < m.stepCount(); ++i) {
            const bs::StepReplay r = m.replay(i);
            if (r.measured != set.steps[i].service()) return -2;
            worst = std::max(worst, r.errorPct);
        }
        if (steps) *steps = m.stepCount();
        if (stats) *stats = m.stats();
        return worst;
    }

    // One step (ProfilerStep#1 at T0, 10 µs): its service runs to the last kernel end.
    static constexpr bs::TimeNs T0 = 1000000000;

    // Kernel A (stream 2, 100 µs) and kernel B (stream 3, 50 µs) starting `gap` ns after A's end, neither launched:
    // the gain of A twice as fast.
    static double crossStreamGainUs(bs::TimeNs gap, bs::TimeNs bPredEnd = -1) {
        Builder b;
        b.host("ProfilerStep#1", T0, us(10));
        b.kernel("A", 2, T0 + us(100), us(100));
        if (bPredEnd >= 0) b.kernel("P", 3, T0 + us(150), bPredEnd - (T0 + us(150)));
        b.kernel("B", 3, T0 + us(200) + gap, us(50));
        const bs::StepSet set = b.finish();
        const bs::ReplayModel m(b.p, set);
        bs::ReplayEdit e;
        e.kind = bs::ReplayEditKind::OpSpeedup;
        e.op = "A";
        e.factor = 2;
        const bs::StepReplay base = m.replay(0), ed = m.replay(0, {e});
        if (base.errorPct != 0 || !ed.edited) return -1;
        return static_cast<double>(base.replayed - ed.replayed) / 1000.0;
    }

    // A (stream 2, T0+100, 100 µs, not launched) then C on the same stream `gap` ns after A's end, launched
    // 0.5 µs before its start (after A's end): the gain of A twice as fast, µs.
    static double queuedGainUs(bs::TimeNs gap) {
        Builder b;
        b.host("ProfilerStep#1", T0, us(5));
        b.kernel("A", 2, T0 + us(100), us(100));
        b.kernel("C", 2, T0 + us(200) + gap, us(10), T0 + us(200) + gap - 500);
        const bs::StepSet set = b.finish();
        const bs::ReplayModel m(b.p, set);
        bs::ReplayEdit e;
        e.kind = bs::ReplayEditKind::OpSpeedup;
        e.op = "A";
        e.factor = 2;
        if (m.replay(0).errorPct != 0) return -1;
        return static_cast<double>(m.replay(0).replayed - m.replay(0, {e}).replayed) / 1000.0;
    }
    // The dequeue thread of handOverGapFollowsItsSourceThread resumes `early` ns before the hand-over arrives:
    // the replayed service with the Python thread's sync op removed, µs.
    static double handOverReplayUs(bs::TimeNs early) {
        Builder b;
        b.p.lanes.push_back({3, 8, bs::LaneKind::Host});
        b.host("ProfilerStep#1", T0, us(10));
        b.host("t8_a", T0 + us(1), us(1), 2);
        b.host("t8_b", T0 + us(3), us(1), 2);
        b.host("t8_c", T0 + us(5), us(1), 2);
        b.host("aten::add", T0 + us(11), us(1));
        b.handOver(0, T0 + us(12), 2, T0 + us(12.5));
        b.host("Dequeue", T0 + us(12.5), us(1.5), 2);
        b.kernel("K0", 2, T0 + us(16), us(5), T0 + us(14), 2);
        b.host("aten::to", T0 + us(12), us(16));
        b.host("aten::mm", T0 + us(28), us(2));
        b.handOver(0, T0 + us(30), 2, T0 + us(40));
        b.host("Dequeue", T0 + us(40) - early, us(10) + early, 2);
        b.kernel("K", 2, T0 + us(55), us(100), T0 + us(50), 2);
        const bs::StepSet set = b.finish();
        const bs::ReplayModel m(b.p, set);
        bs::ReplayEdit rm;
        rm.kind = bs::ReplayEditKind::RemoveSyncOps;
        rm.windowStart = T0 + us(21);
        rm.windowEnd = T0 + us(55);
        if (m.replay(0).errorPct != 0) return -1;
        return static_cast<double>(m.replay(0, {rm}).replayed) / 1000.0;
    }

  private slots:
    // A kernel within 1 µs after its stream predecessor was queued behind it (999 / 1000 ns: it follows A, held
    // only by its launch, 0.5 µs gained); 1001 ns after it, launched after A's end, its launch held it: 0 gained.
    void queuedWithinOneMicrosecond() {
        QCOMPARE(queuedGainUs(999), 0.5);
        QCOMPARE(queuedGainUs(1000), 0.5);
        QCOMPARE(queuedGainUs(1001), 0.0);
    }
    // A thread that resumed within 1 µs before a hand-over arrived waited for it (999 / 1000 ns: it resumes at
    // T0+24 − early, launches K at T0+34 and K ends at 139, as in handOverGapFollowsItsSourceThread); 1001 ns
    // before: it did not wait for it, nothing moves (155 µs).
    void handOverWithinOneMicrosecond() {
        QCOMPARE(handOverReplayUs(999), 139.0);
        QCOMPARE(handOverReplayUs(1000), 139.0);
        QCOMPARE(handOverReplayUs(1001), 155.0);
    }
    // CutHostTime: the Python thread launches K1..K4 (stream 2, 3 µs each, 5 µs after their launches at T0+10,
    // 20, 30, 130), with 97 µs of traced host work before K4's launch. Consecutive launches are 10, 10 and 100 µs
    // apart: the median, 10 µs, is kept; 90 µs are cut: K4 starts at T0+45 instead of 135 and the step (to its end)
    // is 90 µs shorter.
    void cutHostTimeKeepsTheMedianLaunchGap() {
        Builder b;
        b.host("ProfilerStep#1", T0, us(5));
        const double at[] = {10, 20, 30, 130};
        std::size_t k4 = 0;
        for (double t : at) {
            b.host("aten::mm", T0 + us(t - 1), us(1));
            b.kernel(t < 100 ? "K" : "K4", 2, T0 + us(t + 5), us(3), T0 + us(t));
        }
        b.host("python_work", T0 + us(31), us(97));
        const bs::StepSet set = b.finish();
        for (std::size_t i = 0; i < b.p.kernels.size(); ++i)
            if (b.p.str(b.p.kernels[i].name) == "K4") k4 = i;
        const bs::ReplayModel m(b.p, set);
        QCOMPARE(m.replay(0).replayed, us(138));
        bs::ReplayEdit e;
        e.kind = bs::ReplayEditKind::CutHostTime;
        e.kernel = k4;
        e.windowStart = T0 + us(38);
        e.windowEnd = T0 + us(135);
        QVERIFY(m.unresolvable(e).empty());
        QCOMPARE(m.replay(0, {e}).replayed, us(48));
    }

    // FirstLaunchAtMedianPrelaunch: step 1 (T0 → T0+200) first launches at T0+100 after 80 µs of input copies; its
    // kernel starts at T0+105 (prelaunch 105 µs). With the others' median prelaunch of 25 µs, the 80 µs of host
    // time before the launch go: the host reaches the next step's marker 80 µs earlier.
    void firstLaunchAtTheOthersMedianPrelaunch() {
        Builder b;
        b.host("ProfilerStep#1", T0, us(5));
        b.host("aten::to", T0 + us(10), us(80));
        b.host("aten::mm", T0 + us(90), us(10));
        const std::size_t k = b.kernel("K", 2, T0 + us(105), us(20), T0 + us(100));
        b.host("ProfilerStep#2", T0 + us(200), us(5));
        b.kernel("K2", 2, T0 + us(230), us(20), T0 + us(225));
        b.host("aten::mm", T0 + us(215), us(10));
        const bs::StepSet set = b.finish();
        QCOMPARE(set.steps.size(), std::size_t{2});
        const bs::ReplayModel m(b.p, set);
        QCOMPARE(m.replay(0).replayed, us(200));
        bs::ReplayEdit e;
        e.kind = bs::ReplayEditKind::FirstLaunchAtMedianPrelaunch;
        e.kernel = k; // index 0: the first kernel
        e.amount = us(25);
        QCOMPARE(m.replay(0, {e}).replayed, us(120));
        // The wanted prelaunch at or above the measured one: nothing to cut.
        e.amount = us(105);
        QVERIFY(!m.replay(0, {e}).edited);
    }

    // Of two flows into one kernel the later one is its launch: K (T0+25) gets flows from T0+10 and T0+20; the
    // sync op between them (aten::to [T0+12, T0+18], waiting for nothing) removed, the launch comes 6 µs earlier.
    void theLaunchIsTheLatestFlow() {
        Builder b;
        b.host("ProfilerStep#1", T0, us(2));
        b.host("aten::add", T0 + us(5), us(5));
        b.host("aten::to", T0 + us(12), us(6));
        b.host("aten::mm", T0 + us(18), us(2));
        b.kernel("K", 2, T0 + us(25), us(10), T0 + us(20));
        b.p.flows.push_back({T0 + us(10), 999, 0, 0, 's'});
        b.p.flows.push_back({T0 + us(25), 999, 0, b.deviceLane(2), 'f'});
        const bs::StepSet set = b.finish();
        const bs::ReplayModel m(b.p, set);
        QCOMPARE(m.replay(0).replayed, us(35));
        bs::ReplayEdit rm;
        rm.kind = bs::ReplayEditKind::RemoveSyncOps;
        rm.windowStart = T0 + us(15);
        rm.windowEnd = T0 + us(25);
        QCOMPARE(m.replay(0, {rm}).replayed, us(29));
    }

    // A hand-over between host threads (torch_npu's task queue): the Python thread (tid 7) hands each op to the
    // dequeue thread (tid 8, lane 2), which launches it. The dequeue thread's wait for the second op [T0+14,
    // T0+40] ends at its arrival: removing the Python thread's sync op aten::to [T0+12, T0+28] (it waited for
    // K0, ending T0+21, and returned 7 µs later) hands the op over at T0+24 instead of 40; the launch follows
    // 10 µs later (34), K starts 5 µs after it (39) instead of 55: 16 µs gained. The dequeue thread's own
    // median gap (3.75 µs: gaps 1, 1, 6.5, 26) is no bound here (14 + 3.75 < 24).
    void handOverGapFollowsItsSourceThread() {
        Builder b;
        b.p.lanes.push_back({3, 8, bs::LaneKind::Host}); // lane 2: the dequeue thread
        b.host("ProfilerStep#1", T0, us(10));
        b.host("t8_a", T0 + us(1), us(1), 2);
        b.host("t8_b", T0 + us(3), us(1), 2);
        b.host("t8_c", T0 + us(5), us(1), 2);
        b.host("aten::add", T0 + us(11), us(1));
        b.handOver(0, T0 + us(12), 2, T0 + us(12.5));
        b.host("Dequeue", T0 + us(12.5), us(1.5), 2);
        b.kernel("K0", 2, T0 + us(16), us(5), T0 + us(14), 2);
        b.host("aten::to", T0 + us(12), us(16));
        b.host("aten::mm", T0 + us(28), us(2));
        b.handOver(0, T0 + us(30), 2, T0 + us(40));
        b.host("Dequeue", T0 + us(40), us(10), 2);
        b.kernel("K", 2, T0 + us(55), us(100), T0 + us(50), 2);
        const bs::StepSet set = b.finish();
        const bs::ReplayModel m(b.p, set);
        QCOMPARE(m.stats().queueWaitGaps, std::size_t{2});
        QCOMPARE(m.replay(0).replayed, us(155));
        QCOMPARE(m.replay(0).errorPct, 0.0);
        bs::ReplayEdit rm;
        rm.kind = bs::ReplayEditKind::RemoveSyncOps;
        rm.windowStart = T0 + us(21);
        rm.windowEnd = T0 + us(55);
        QCOMPARE(m.replay(0, {rm}).replayed, us(139));
        // The host work behind K's launch is the Python thread's (the dequeue thread only waited for it): an
        // untraced block is looked for there, and the Python thread has none — nothing is removed (the dequeue
        // thread's wait is no cause).
        bs::ReplayEdit un;
        un.kind = bs::ReplayEditKind::RemoveUntracedBlock;
        un.kernel = 1; // K0 is kernel 0, K kernel 1 (by start)
        un.windowStart = T0 + us(21);
        un.windowEnd = T0 + us(55);
        const bs::StepReplay u = m.replay(0, {un});
        QVERIFY(!u.edited);
        QCOMPARE(u.replayed, us(155));
    }
    // §15: a kernel that starts within 1 µs after another stream's kernel end (its stream idle) waited for it.
    // A 50 µs faster moves B by 50 µs at 999 / 1000 ns, not at 1001 ns (B then starts when it did).
    void crossStreamWaitWithinOneMicrosecond() {
        QCOMPARE(crossStreamGainUs(999), 50.0);
        QCOMPARE(crossStreamGainUs(1000), 50.0);
        QCOMPARE(crossStreamGainUs(1001), 0.0);
        QCOMPARE(crossStreamGainUs(0), 50.0);
    }
    // "On an idle stream": B's own predecessor P ended after A (at A's end + 0.5 µs): B waited for P, not A; B
    // follows P, which does not move. P ending at A's end exactly: the stream was idle, B waited for A — and
    // still cannot start before P's end: 1 µs (its 1 µs offset) gained.
    void crossStreamWaitNeedsAnIdleStream() {
        QCOMPARE(crossStreamGainUs(1000, T0 + us(200.5)), 0.0);
        QCOMPARE(crossStreamGainUs(1000, T0 + us(200)), 1.0);
    }

    // A rank analysed from its kernel table alone (its trace unreadable): no host lane, no launch. The device
    // still replays — A 40 µs shorter moves B queued behind it (0.5 µs after A) by 40 µs — and the host edits
    // find nothing to cut (no launch) instead of reading past the launch tables.
    void aCaptureWithoutHostReplaysItsDevice() {
        bs::Profile p;
        bs::Kernel a, b;
        a.name = p.strings.intern("hcom_allReduce__1_0_1");
        a.stream = 2, a.start = T0, a.dur = us(100);
        b.name = p.strings.intern("B");
        b.stream = 2, b.start = T0 + us(100.5), b.dur = us(50);
        p.kernels = {a, b};
        const bs::StepSet set = bs::detectSteps(p);
        QCOMPARE(set.steps.size(), std::size_t(1));
        const bs::ReplayModel m(p, set);
        QCOMPARE(m.stats().hostThreads, std::size_t(0));
        QCOMPARE(m.replay(0).replayed, us(150.5));
        bs::ReplayEdit shorter;
        shorter.kind = bs::ReplayEditKind::ShortenKernel;
        shorter.kernel = 0;
        shorter.amount = us(40);
        QCOMPARE(m.replay(0, {shorter}).replayed, us(110.5));
        for (const auto kind : {bs::ReplayEditKind::CutHostTime, bs::ReplayEditKind::RemoveUntracedBlock,
                                bs::ReplayEditKind::FirstLaunchAtMedianPrelaunch}) {
            bs::ReplayEdit e;
            e.kind = kind;
            e.kernel = 1;
            e.windowStart = T0 + us(100);
            e.windowEnd = T0 + us(100.5);
            const bs::StepReplay r = m.replay(0, {e});
            QVERIFY(!r.edited);
            QCOMPARE(r.replayed, us(150.5));
        }
    }

    // What a late peer costs this rank (core/cluster/README.md): each communication.json wait cut from its kernel,
    // the step replayed alone and all at once. Stream 5: C1 [100, 200) µs, C2 queued 0.5 µs after it [200.5,
    // 300.5); D on stream 2 starts 0.5 µs after C2's end (it waited for it), 50 µs: service 351 µs. C1 waited 40
    // µs for its peers, C2 30 µs. Alone: C1 40 µs shorter moves C2 and D by 40 µs; C2 30 µs shorter moves D by 30;
    // both 70. The file's start of C1 is 13 µs after its kernel's (as the database writes it): still its kernel.
    void aRankSummaryReplaysEachWaitAloneAndAllAtOnce() {
        Builder b;
        b.host("ProfilerStep#1", T0, us(10));
        const std::size_t c1 = b.kernel("hcom_allReduce__1_0_1", 5, T0 + us(100), us(100));
        const std::size_t c2 = b.kernel("hcom_allReduce__1_1_1", 5, T0 + us(200.5), us(100));
        b.kernel("D", 2, T0 + us(301), us(50));
        b.p.kernels[c1].cls = b.p.kernels[c2].cls = bs::TaskClass::Comm;
        b.p.hasCommunicationJson = true;
        bs::CommOp o1;
        o1.step = "step1", o1.kind = "collective", o1.name = "hcom_allReduce__1_0_1@7";
        o1.start = T0 + us(113), o1.elapse = us(100), o1.wait = o1.sync = us(40);
        bs::CommOp o2 = o1;
        o2.name = "hcom_allReduce__1_1_1@7", o2.start = T0 + us(200.5) + 63, o2.sync = o2.wait = us(30);
        bs::CommOp o3 = o1; // waited for nobody
        o3.name = "hcom_allReduce__1_2_1@7", o3.start = T0 + us(301), o3.sync = 0;
        b.p.commOps = {o1, o2, o3};
        b.finish();
        const bs::AnalysisResult r = bs::analyzeProfile(b.p);
        QCOMPARE(r.metrics.size(), std::size_t(1));
        QCOMPARE(r.metrics[0].service, us(351));
        const bs::RankSummary s = bs::summarizeRank(bs::RankFolder{"/nowhere/rank0_ascend_pt", "", "torch_npu", "rank0"},
                                                    b.p, r);
        QCOMPARE(s.collectives.size(), std::size_t(3));
        QCOMPARE(s.collectives[0].key, std::string("hcom_allReduce__1_0_1"));
        QCOMPARE(s.collectives[0].gain, us(40));
        QCOMPARE(s.collectives[1].gain, us(30));
        QCOMPARE(s.collectives[2].gain, bs::TimeNs(bs::kGainNotReplayed)); // no kernel of that name: not replayed
        QCOMPARE(s.steps.size(), std::size_t(1));
        QCOMPARE(s.steps[0].waitsGain, us(70));
        QCOMPARE(s.steps[0].waitsReplayed, std::uint32_t(2));
        QCOMPARE(s.steps[0].replayError, bs::TimeNs(0));
    }

    // On every real rank with communication data (text and database exports) each collective that waited for its
    // peers finds its kernel and is replayed: alone and in its step's all-at-once replay. (The database's
    // CommAnalyzerTime starts 13 µs after its kernel on rank 0, 21 µs before on rank 1; the trace's within 0.1 µs.)
    void everyRealWaitIsReplayed_data() {
        QTest::addColumn<QString>("rel");
        for (const char* r : {"torch_npu_resnet_ddp/level1/rank0_ascend_pt", "torch_npu_resnet_ddp/level1/rank1_ascend_pt",
                              "torch_npu_resnet_ddp_db/level1/rank0_ascend_pt",
                              "torch_npu_resnet_ddp_db/level1/rank1_ascend_pt"})
            QTest::newRow(r) << QString::fromLatin1(r);
    }
    void everyRealWaitIsReplayed() {
        QFETCH(QString, rel);
        QVERIFY(bstest::requireRealdata());
        auto found = bs::discoverProfiles(bstest::s(bstest::realdata(rel)));
        QCOMPARE(found.ranks.size(), std::size_t(1));
        auto loaded = bs::loadRank(found.ranks[0]);
        QVERIFY(loaded.profile && loaded.profile->hasCommunicationJson);
        const bs::AnalysisResult r = bs::analyzeProfile(*loaded.profile);
        const bs::RankSummary s = bs::summarizeRank(found.ranks[0], *loaded.profile, r);
        std::size_t waits = 0, replayedAlone = 0, replayed = 0;
        for (std::size_t i = 0; i < r.anomaly.collectives.size(); ++i) {
            const auto& c = r.anomaly.collectives[i];
            if (c.sync <= 0 || c.stepIndex < 0) continue;
            ++waits;
            replayedAlone += s.collectives[i].gain >= 0 ? 1 : 0;
            QVERIFY(s.collectives[i].gain <= c.sync); // never more than the wait removed
        }
        for (const auto& row : s.steps) {
            replayed += row.waitsReplayed;
            QCOMPARE(row.waitsGain >= 0, row.waitsReplayed > 0); // -1: nothing to replay in the step
            QCOMPARE(row.replayError, bs::TimeNs(0));
        }
        qInfo("%s: %zu waits, %zu replayed alone, %zu in the steps' all-at-once replays", qPrintable(rel), waits,
              replayedAlone, replayed);
        QVERIFY(waits > 0);
        QCOMPARE(replayedAlone, waits);
        QCOMPARE(replayed, waits);
    }

    // A sync op lasts until the kernel it waits for ends: host thread tid 7 launches A at T0+15 µs (starts T0+200,
    // 100 µs, stream 2), waits in aten::item [T0+20, T0+310] (A ends T0+300: 10 µs return), then launches D at
    // T0+320 (starts T0+325, 100 µs, stream 2). Service: T0 → D's end T0+425 µs.
    static Builder syncCapture() {
        Builder b;
        b.host("ProfilerStep#1", T0, us(10));
        b.host("aten::empty", T0 + us(12), us(3));
        b.kernel("A", 2, T0 + us(200), us(100), T0 + us(15));
        b.host("aten::item", T0 + us(20), us(290));
        b.host("aclrtSynchronizeStream", T0 + us(21), us(288), 1);
        b.host("aten::add", T0 + us(315), us(5));
        b.kernel("D", 2, T0 + us(325), us(100), T0 + us(320));
        return b;
    }
    void syncOpEndsWhenItsKernelEnds() {
        Builder b = syncCapture();
        const bs::StepSet set = b.finish();
        const bs::ReplayModel m(b.p, set);
        const bs::StepReplay base = m.replay(0);
        QCOMPARE(base.measured, us(425));
        QCOMPARE(base.replayed, us(425));
        QCOMPARE(m.stats().syncOpsWaiting, std::size_t{1});
        // A 50 µs faster: it ends at T0+250, the sync at 260 (+10 µs return), D is launched at 270, starts 275
        // (its 5 µs delay) and ends 375: 50 µs gained.
        bs::ReplayEdit fast;
        fast.kind = bs::ReplayEditKind::OpSpeedup;
        fast.op = "A";
        fast.factor = 2;
        QCOMPARE(m.replay(0, {fast}).replayed, us(375));
        // A 4x faster: it ends at T0+225, the sync at 235; D launched 245, starts 250 — after A (its stream
        // predecessor) — and ends 350.
        fast.factor = 4;
        QCOMPARE(m.replay(0, {fast}).replayed, us(350));
        // The sync removed (a window [T0+300, T0+325]): the host goes on at T0+20, launches D at T0+30 (the 5 µs
        // after the sync, 5 of aten::add) — D still waits for A on its stream: it starts at A's end T0+300 and
        // ends 400. The 290 µs sync was worth 25 µs.
        bs::ReplayEdit rm;
        rm.kind = bs::ReplayEditKind::RemoveSyncOps;
        rm.windowStart = T0 + us(300);
        rm.windowEnd = T0 + us(325);
        QVERIFY(m.unresolvable(rm).empty());
        const bs::StepReplay r = m.replay(0, {rm});
        QVERIFY(r.edited);
        QCOMPARE(r.replayed, us(400));
        // A window no sync op overlaps: nothing to remove.
        rm.windowStart = T0 + us(311);
        rm.windowEnd = T0 + us(314);
        QVERIFY(!m.unresolvable(rm).empty());
        QVERIFY(!m.replay(0, {rm}).edited);
    }
    // A sync op waits for every kernel ending inside it, whoever launched it: X (stream 3, launched at T0+22 µs
    // inside the sync, T0+250 → T0+305) ends last, 5 µs before the sync returns.
    void syncWaitsForEveryKernelEndingInIt() {
        Builder b = syncCapture();
        b.kernel("X", 3, T0 + us(250), us(55), T0 + us(22));
        const bs::StepSet set = b.finish();
        const bs::ReplayModel m(b.p, set);
        QCOMPARE(m.replay(0).errorPct, 0.0);
        QCOMPARE(m.stats().syncOpsWaiting, std::size_t{1});
        bs::ReplayEdit a, x;
        a.kind = x.kind = bs::ReplayEditKind::OpSpeedup;
        a.op = "A";
        x.op = "X";
        a.factor = x.factor = 2;
        // A faster: X still ends at T0+305, the sync at 310: nothing gained.
        QCOMPARE(m.replay(0, {a}).replayed, us(425));
        // X faster (ends 277.5): A ends last (300), the sync returns at 305, D launched 315, starts 320, ends 420.
        QCOMPARE(m.replay(0, {x}).replayed, us(420));
        // Both: the sync returns at 282.5, D launched 292.5, starts 297.5 (A ended at 250), ends 397.5.
        QCOMPARE(m.replay(0, {a, x}).replayed, us(397.5));
    }
    // §15 self-check on every real rank (issue 47 acceptance: <= 1 %).
    void selfCheckOnEveryRealRank_data() {
        QTest::addColumn<QString>("rank");
        for (const char* set : {"torch_npu_resnet_ddp", "torch_npu_resnet_ddp_db"})
            for (const char* level : {"level0", "level1"})
                for (const char* rank : {"rank0_ascend_pt", "rank1_ascend_pt"}) {
                    const QString rel = QStringLiteral("%1/%2/%3").arg(set, level, rank);
                    QTest::newRow(qPrintable(rel)) << rel;
                }
        QTest::newRow("msprof_vllm_ascend") << QStringLiteral("msprof_vllm_ascend");
    }
    void selfCheckOnEveryRealRank() {
        QVERIFY(bstest::requireRealdata());
        QFETCH(QString, rank);
        std::size_t steps = 0;
        bs::ReplayStats st;
        const double worst = worstSelfCheck(rank, &steps, &st);
        qInfo("%s: %zu step(s), self-check error %.4f %% (kernels %zu, launched %zu, cross-stream %zu, queued %zu, "
              "absolute %zu; host threads %zu, sync ops %zu (waiting %zu), gaps %zu (backpressure %zu, queue wait %zu))",
              qPrintable(rank), steps, worst, st.kernels, st.launched, st.crossStream, st.queued, st.absolute,
              st.hostThreads, st.syncOps, st.syncOpsWaiting, st.hostGaps, st.backpressureGaps, st.queueWaitGaps);
        QVERIFY(steps >= 1);
        QVERIFY2(worst >= 0 && worst <= 1.0, qPrintable(QStringLiteral("error %1 %").arg(worst)));
    }

    // §15's order of the recommendations, at its boundaries: the priority first; within one, the larger gain
    // first (equal gains: neither before the other, so the stable sort keeps §10's order; 1 ns of a ms apart:
    // the larger first); a recommendation without a prediction after every one with one, even a 0 ms gain.
    void recommendationsAreOrderedByGainWithinAPriority() {
        auto rec = [](const char* prio, std::optional<double> gain) {
            bs::Recommendation r;
            r.priority = prio;
            if (gain) {
                bs::ReplayPrediction p;
                p.gainMs = *gain;
                r.replay = p;
            }
            return r;
        };
        QVERIFY(bs::comesBefore(rec("P1", 0.0), rec("P2", 9.0)));
        QVERIFY(!bs::comesBefore(rec("P2", 9.0), rec("P1", 0.0)));
        QVERIFY(bs::comesBefore(rec("P2", 1.5), rec("P2", 1.499999)));
        QVERIFY(!bs::comesBefore(rec("P2", 1.499999), rec("P2", 1.5)));
        QVERIFY(!bs::comesBefore(rec("P2", 1.5), rec("P2", 1.5)));
        QVERIFY(bs::comesBefore(rec("P2", 0.0), rec("P2", std::nullopt)));
        QVERIFY(!bs::comesBefore(rec("P2", std::nullopt), rec("P2", 0.0)));
        QVERIFY(!bs::comesBefore(rec("P2", std::nullopt), rec("P2", std::nullopt)));
        // A stable sort of §10's order: the gains descending within P1, the unpredicted last, P2 after.
        std::vector<bs::Recommendation> v{rec("P2", 5.0), rec("P1", std::nullopt), rec("P1", 0.2), rec("P1", 1.5),
                                          rec("P1", 0.2)};
        v[2].action = "first 0.2";
        v[4].action = "second 0.2";
        std::stable_sort(v.begin(), v.end(), bs::comesBefore);
        QCOMPARE(v[0].replay->gainMs, 1.5);
        QCOMPARE(v[1].action, std::string("first 0.2"));
        QCOMPARE(v[2].action, std::string("second 0.2"));
        QVERIFY(!v[3].replay && v[3].priority == "P1");
        QCOMPARE(v[4].priority, std::string("P2"));
    }

    // The windows a prediction edited (what the inspector shows the gain on): on the real ResNet rank the sync
    // recommendation covers 17 windows; b0001, the prelaunch of the capture's only step, has no other step's
    // median prelaunch to start from and is not edited; the others are, as many as the edit names.
    void aPredictionListsTheWindowsItEdited() {
        QVERIFY(bstest::requireRealdata());
        const auto found = bs::discoverProfiles(bstest::realdata(QStringLiteral("torch_npu_resnet_ddp/level1/rank0_ascend_pt")).toStdString());
        QCOMPARE(found.ranks.size(), std::size_t(1));
        const auto load = bs::loadRank(found.ranks[0]);
        QVERIFY(load.profile);
        const bs::AnalysisResult r = bs::analyzeProfile(*load.profile);
        const bs::Recommendation* sync = nullptr;
        for (const auto& rc : r.anomaly.recommendations)
            if (rc.replayCause == "sync") sync = &rc;
        QVERIFY(sync && sync->replay);
        QCOMPARE(sync->replayWindows.size(), std::size_t(17));
        std::size_t prelaunch = SIZE_MAX;
        for (std::size_t i = 0; i < r.anomaly.windows.size(); ++i)
            if (r.anomaly.windows[i].id == "b0001") prelaunch = i;
        QVERIFY(r.anomaly.windows[prelaunch].scope == bs::WindowScope::Prelaunch);
        QVERIFY(std::find(sync->replayWindows.begin(), sync->replayWindows.end(), prelaunch) != sync->replayWindows.end());
        const auto& edited = sync->replay->windows;
        QCOMPARE(edited.size(), std::size_t(16));
        QVERIFY(std::find(edited.begin(), edited.end(), prelaunch) == edited.end());
        const std::string edit = bs::english(sync->replay->edit);
        QVERIFY2(edit.find("(in 16 windows: ") != std::string::npos, edit.c_str());
        for (std::size_t w : edited)
            QVERIFY(std::find(sync->replayWindows.begin(), sync->replayWindows.end(), w) != sync->replayWindows.end());
    }
};

QTEST_GUILESS_MAIN(TstReplay)
#include "tst_replay.moc"
