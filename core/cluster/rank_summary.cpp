// What the cluster keeps of one analysed rank (its model is freed afterwards).
#include "pipeline/analysis_run.h"
#include "cluster/cluster_analysis.h"
#include "compare/compare.h"
#include "i18n/message.h"
#include "model/profile.h"
#include "replay/replay.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <string>
#include <system_error>
#include <unordered_map>

namespace bs {

namespace {

// a − b for sorted, disjoint interval lists.
std::vector<Interval> minus(const std::vector<Interval>& a, const std::vector<Interval>& b) {
    std::vector<Interval> out;
    std::size_t j = 0;
    for (Interval cur : a) {
        while (j < b.size() && b[j].b <= cur.a)
            ++j;
        for (std::size_t k = j; k < b.size() && b[k].a < cur.b; ++k) {
            if (b[k].a > cur.a) out.push_back({cur.a, b[k].a});
            cur.a = std::max(cur.a, b[k].b);
        }
        if (cur.b > cur.a) out.push_back(cur);
    }
    return out;
}

bool isReceive(std::string_view name) {
    std::string low(name);
    for (char& ch : low)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return low.find("receive") != std::string::npos || low.find("recv") != std::string::npos;
}

std::string stripAt(const std::string& name) {
    const auto at = name.find('@');
    return at == std::string::npos ? name : name.substr(0, at);
}

// The digits of "rank3", "rank3_ascend_pt", "…_3" (the last run of digits); -1 when none.
int trailingNumber(const std::string& s) {
    int end = static_cast<int>(s.size());
    while (end > 0 && !std::isdigit(static_cast<unsigned char>(s[end - 1])))
        --end;
    int begin = end;
    while (begin > 0 && std::isdigit(static_cast<unsigned char>(s[begin - 1])))
        --begin;
    if (begin == end || end - begin > 9) return -1;
    return std::stoi(s.substr(begin, end - begin));
}

// From the folder alone: msprof's PROF_<job>_<time>_<tag> holds device_<id>/ (the NPU the rank ran on; its
// own digits are a job id and a time stamp, never a rank), else the name's digits (rank1_ascend_pt → 1).
int rankIdFromFolder(const std::string& root) {
    std::string name = std::filesystem::path(root).filename().string();
    if (name.rfind("PROF_", 0) == 0) {
        int id = -1, devices = 0;
        std::error_code ec;
        for (std::filesystem::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string d = it->path().filename().string();
            std::error_code e2;
            if (d.rfind("device_", 0) != 0 || !it->is_directory(e2)) continue;
            const int n = trailingNumber(d.substr(7));
            if (n < 0 || std::to_string(n) != d.substr(7)) continue;
            id = n;
            ++devices;
        }
        return devices == 1 ? id : -1; // several devices in one PROF folder: no single rank id
    }
    if (const auto pos = name.find("_ascend_pt"); pos != std::string::npos) name = name.substr(0, pos);
    return trailingNumber(name);
}

int rankIdOf(const RankFolder& rank, const Profile& p) {
    // profiler_info_{rank}.json names the rank (its rank_id is the same number); otherwise the folder.
    for (const auto& f : p.inventory.files)
        if (f.role == "profiler_info") {
            const int id = trailingNumber(std::filesystem::path(f.path).stem().string());
            if (id >= 0) return id;
        }
    return rankIdFromFolder(rank.root);
}

void addSteps(RankSummary& s, const Profile& p, const AnalysisResult& r) {
    std::vector<Interval> comm, recv, other;
    for (const auto& k : p.kernels) {
        if (k.cls != TaskClass::Comm) {
            other.push_back({k.start, k.end()});
            continue;
        }
        comm.push_back({k.start, k.end()});
        if (isReceive(p.strings.view(k.name))) recv.push_back({k.start, k.end()});
    }
    const auto commU = mergeIntervals(std::move(comm));
    const auto otherU = mergeIntervals(std::move(other));
    const auto recvExposed = minus(mergeIntervals(std::move(recv)), otherU);
    for (std::size_t i = 0; i < r.metrics.size(); ++i) {
        const StepMetrics& m = r.metrics[i];
        const Interval w{m.windowStart, m.windowEnd};
        RankStepRow row;
        row.step = m.stepId;
        row.commNotOverlapped = i < r.anomaly.stepComm.size() ? r.anomaly.stepComm[i].exposed : 0;
        row.computing = m.busyUnion - row.commNotOverlapped;
        row.communication = intersectLength(commU, w);
        row.overlapped = row.communication - row.commNotOverlapped;
        row.free = m.internalBubbleTotal;
        row.stage = row.computing + row.commNotOverlapped + row.free;
        row.bubble = intersectLength(recvExposed, w);
        row.commNotOverlappedExclReceive = row.commNotOverlapped - row.bubble;
        row.preparing = m.prelaunchGap;
        row.service = m.service;
        row.tail = m.tailGap;
        row.start = m.windowStart;
        if (i < r.anomaly.stepComm.size() && r.anomaly.stepComm[i].fromJson) {
            row.commFromJson = true;
            row.commWait = r.anomaly.stepComm[i].wait;
            row.commTransit = r.anomaly.stepComm[i].transit;
        }
        s.steps.push_back(row);
    }
}

void addWindows(RankSummary& s, const AnalysisResult& r) {
    for (const auto& w : r.anomaly.windows) {
        if (s.topWindows.size() == 5) break;
        s.topWindows.push_back({w.id, windowScopeName(w.scope), w.stepId, w.span.a, w.span.length(), w.labels});
    }
}

std::string topUserLine(const BubbleWindow& w) {
    for (const auto& f : w.stacks.userFrames)
        if (f.user) return f.frame;
    return {};
}

// Per step: every compute op's calls and device time, and its largest windows at their positions (compare's
// placement: the kernel before, the kernel after, the occurrence), for the cause of a late arrival.
void addStepDetail(RankSummary& s, const Profile& p, const AnalysisResult& r) {
    std::map<std::int64_t, RankStepRow*> byStep;
    for (auto& row : s.steps)
        byStep[row.step] = &row;
    // One pass over the kernels: each goes to the step whose window holds its start (windows are disjoint,
    // in time order).
    const std::size_t n = std::min(r.metrics.size(), s.steps.size());
    std::vector<std::map<std::string_view, RankOpTotal>> ops(n);
    for (const auto& k : p.kernels) {
        if (k.cls == TaskClass::Comm) continue; // collectives are the symptom of waiting, not a cause
        const auto it = std::upper_bound(r.metrics.begin(), r.metrics.begin() + static_cast<std::ptrdiff_t>(n), k.start,
                                         [](TimeNs t, const StepMetrics& m) { return t < m.windowStart; });
        if (it == r.metrics.begin()) continue;
        const std::size_t i = static_cast<std::size_t>(it - r.metrics.begin()) - 1;
        if (k.start >= r.metrics[i].windowEnd) continue;
        auto& o = ops[i][p.strings.view(k.name)];
        ++o.calls;
        o.dur += k.dur;
    }
    for (std::size_t i = 0; i < n; ++i) {
        auto& out = s.steps[i].ops;
        out.reserve(ops[i].size());
        for (auto& [name, o] : ops[i]) {
            o.name = std::string(name);
            out.push_back(std::move(o));
        }
    }
    const CompareSide side = digestForCompare(p, r, s.label, s.folder, s.rankId);
    std::map<std::string, const BubbleWindow*> byId;
    for (const auto& w : r.anomaly.windows)
        byId[w.id] = &w;
    for (const CompareWindow& w : side.windows) { // longest first
        if (w.stepIndex < 0) continue;
        const auto at = byStep.find(w.step);
        if (at == byStep.end() || at->second->windows.size() >= kStepWindowsKept) continue;
        RankWindow rw{w.id, w.scope, std::to_string(w.step), w.start, w.dur, w.labels};
        rw.before = w.before;
        rw.after = w.after;
        rw.occurrence = static_cast<std::uint32_t>(w.occurrence);
        if (const auto b = byId.find(w.id); b != byId.end()) rw.userLine = topUserLine(*b->second);
        at->second->windows.push_back(std::move(rw));
    }
}

// The rank's device, merged, for the multi-rank timeline.
std::shared_ptr<const RankLanes> lanesOf(const Profile& p, const AnalysisResult& r) {
    std::vector<Interval> all, comm;
    all.reserve(p.kernels.size());
    for (const auto& k : p.kernels) {
        all.push_back({k.start, k.end()});
        if (k.cls == TaskClass::Comm) comm.push_back({k.start, k.end()});
    }
    auto lanes = std::make_shared<RankLanes>();
    for (const Interval& i : mergeIntervals(std::move(all)))
        lanes->busy.push_back({i.a, i.b});
    for (const Interval& i : mergeIntervals(std::move(comm)))
        lanes->comm.push_back({i.a, i.b});
    for (const StepMetrics& m : r.metrics)
        lanes->steps.push_back({m.stepId, {m.windowStart, m.windowEnd}});
    return lanes;
}

// Length of merged intervals before a time, in O(log n) (prefix sums over the intervals).
class CoveredBefore {
public:
    explicit CoveredBefore(std::vector<Interval> merged) : v_(std::move(merged)), sum_(v_.size() + 1, 0) {
        for (std::size_t i = 0; i < v_.size(); ++i)
            sum_[i + 1] = sum_[i] + v_[i].length();
    }
    TimeNs at(TimeNs t) const {
        const auto it = std::upper_bound(v_.begin(), v_.end(), t, [](TimeNs x, const Interval& i) { return x < i.b; });
        const std::size_t k = static_cast<std::size_t>(it - v_.begin()); // intervals wholly before t
        TimeNs n = sum_[k];
        if (it != v_.end() && it->a < t) n += t - it->a;
        return n;
    }
    TimeNs within(Interval w) const { return w.b > w.a ? at(w.b) - at(w.a) : 0; }

private:
    std::vector<Interval> v_;
    std::vector<TimeNs> sum_;
};

void addCollectives(RankSummary& s, const Profile& p, const AnalysisResult& r) {
    // The device from each step's first kernel up to a collective's start: compute-busy, idle and exposed
    // communication (ANALYSIS.md §13.3), from merged busy intervals and their prefix sums.
    std::vector<Interval> all, comm, other;
    for (const auto& k : p.kernels) {
        all.push_back({k.start, k.end()});
        (k.cls == TaskClass::Comm ? comm : other).push_back({k.start, k.end()});
    }
    const CoveredBefore busyU(mergeIntervals(std::move(all)));
    const CoveredBefore exposedU(minus(mergeIntervals(std::move(comm)), mergeIntervals(std::move(other))));
    for (const auto& c : r.anomaly.collectives) {
        RankCollective rc;
        rc.key = stripAt(c.name);
        int stepIndex = -1;
        if (c.stepIndex >= 0 && static_cast<std::size_t>(c.stepIndex) < r.metrics.size()) {
            stepIndex = c.stepIndex;
            rc.step = r.metrics[static_cast<std::size_t>(c.stepIndex)].stepId;
        } else if (c.stepKey.rfind("step", 0) == 0) {
            if (auto n = parseInt(c.stepKey.substr(4))) rc.step = *n;
        }
        rc.start = c.start;
        rc.elapse = c.elapse;
        rc.wait = c.wait;
        rc.transit = c.transit;
        rc.sync = c.sync;
        if (stepIndex >= 0 && c.start > 0) {
            const StepMetrics& m = r.metrics[static_cast<std::size_t>(stepIndex)];
            const TimeNs first = m.windowStart + m.prelaunchGap;
            if (c.start > first && c.start <= m.windowEnd) {
                const Interval before{first, c.start};
                const TimeNs busy = busyU.within(before);
                rc.beforeExposed = exposedU.within(before);
                rc.beforeComputing = busy - rc.beforeExposed;
                rc.beforeFree = before.length() - busy;
            }
        }
        s.collectives.push_back(std::move(rc));
    }
}

// A communication.json op's kernel: the device task of the same name (the op name without "@group") that starts
// in the op's step, the nearest to the op's start when there are several. Not by start alone: the files' starts
// are on another time base than the kernels' (the database's CommAnalyzerTime starts 13 us after its
// COMMUNICATION_OP on one real rank, 21 us before on the other; the trace's within 0.1 us). SIZE_MAX when none.
std::size_t kernelOf(const std::vector<std::size_t>* candidates, const Profile& p, TimeNs start, const Step& step) {
    if (!candidates) return SIZE_MAX;
    std::size_t best = SIZE_MAX;
    TimeNs bestD = 0;
    // Candidates are in kernel order, i.e. by start: only those of the step are looked at.
    auto it = std::lower_bound(candidates->begin(), candidates->end(), step.start,
                               [&](std::size_t i, TimeNs t) { return p.kernels[i].start < t; });
    for (; it != candidates->end() && p.kernels[*it].start < step.end; ++it) {
        const std::size_t i = *it;
        const Kernel& k = p.kernels[i];
        const TimeNs d = k.start > start ? k.start - start : start - k.start;
        if (best == SIZE_MAX || d < bestD) bestD = d, best = i;
    }
    return best;
}

// ANALYSIS.md §15 for §13.3 (core/cluster/README.md): what this rank's step would save if a late peer arrived
// on time. Each collective's wait for the peers (its Synchronization Time) is cut from its kernel and the step
// replayed: alone (RankCollective::gain; the kWaitReplaysPerStep longest waits of a step) and all of the
// step's waits at once (RankStepRow::waitsGain). The cluster, which knows who was late, adds them up.
void addWaitGains(RankSummary& s, const Profile& p, const AnalysisResult& r) {
    const std::size_t steps = std::min(r.steps.steps.size(), s.steps.size());
    if (steps == 0 || s.collectives.empty() || s.collectives.size() != r.anomaly.collectives.size()) return;
    std::unordered_map<std::string_view, std::vector<std::size_t>> comm;
    for (std::size_t i = 0; i < p.kernels.size(); ++i)
        if (p.kernels[i].cls == TaskClass::Comm) comm[p.strings.view(p.kernels[i].name)].push_back(i);
    // Per step: the collectives whose wait can be cut (index into s.collectives, the edit).
    std::vector<std::vector<std::pair<std::size_t, ReplayEdit>>> perStep(steps);
    for (std::size_t ci = 0; ci < s.collectives.size(); ++ci) {
        RankCollective& rc = s.collectives[ci];
        const CollectiveWait& c = r.anomaly.collectives[ci];
        if (c.stepIndex < 0 || static_cast<std::size_t>(c.stepIndex) >= steps) continue;
        const auto found = comm.find(std::string_view(rc.key));
        const std::size_t k = kernelOf(found == comm.end() ? nullptr : &found->second, p, c.start,
                                       r.steps.steps[static_cast<std::size_t>(c.stepIndex)]);
        if (k == SIZE_MAX) continue; // not in the step's kernels: kGainNotReplayed
        if (c.sync <= 0) {
            rc.gain = 0; // it waited for nobody
            continue;
        }
        ReplayEdit e;
        e.kind = ReplayEditKind::ShortenKernel;
        e.kernel = k;
        e.amount = std::min(c.sync, p.kernels[k].dur);
        perStep[static_cast<std::size_t>(c.stepIndex)].push_back({ci, e});
    }
    std::unique_ptr<ReplayModel> model;
    for (std::size_t si = 0; si < steps; ++si) {
        auto& list = perStep[si];
        if (list.empty()) continue;
        if (!model) model = std::make_unique<ReplayModel>(p, r.steps);
        const StepReplay base = model->replay(si);
        RankStepRow& row = s.steps[si];
        row.replayError = base.replayed > base.measured ? base.replayed - base.measured : base.measured - base.replayed;
        // A shorter wait never costs the step time; a negative difference (a model artefact) counts 0.
        const auto gainOf = [&](const std::vector<ReplayEdit>& edits) {
            return std::max<TimeNs>(0, base.replayed - model->replay(si, edits).replayed);
        };
        std::vector<ReplayEdit> all;
        for (const auto& [ci, e] : list)
            all.push_back(e);
        row.waitsGain = gainOf(all);
        row.waitsReplayed = static_cast<std::uint32_t>(all.size());
        // Alone: the longest waits first.
        std::stable_sort(list.begin(), list.end(),
                         [&](const auto& x, const auto& y) { return x.second.amount > y.second.amount; });
        for (std::size_t j = 0; j < list.size(); ++j)
            s.collectives[list[j].first].gain = list.size() == 1          ? row.waitsGain
                                                : j < kWaitReplaysPerStep ? gainOf({list[j].second})
                                                                          : kGainStepOnly;
    }
}

} // namespace

bool isRankFolder(const RankFolder& rank) {
    // The label is the path below the folder the user gave: a parent that happens to be called
    // "advisor…" still holds ranks.
    const std::string below = rank.label.empty() ? std::filesystem::path(rank.root).filename().string() : rank.label;
    for (const auto& part : std::filesystem::path(below)) {
        const std::string n = part.string();
        if (n == "cluster_analysis_output" || n.find("advisor") != std::string::npos) return false;
    }
    return true;
}

RankSummary summarizeRank(const RankFolder& rank, const Profile& p, const AnalysisResult& r, bool withLanes) {
    RankSummary s;
    s.label = rank.label;
    s.folder = rank.root;
    s.rankId = rankIdOf(rank, p);
    for (const auto& k : p.kernels) {
        if (s.captureStart == 0 && s.captureEnd == 0) s.captureStart = k.start, s.captureEnd = k.end();
        s.captureStart = std::min(s.captureStart, k.start);
        s.captureEnd = std::max(s.captureEnd, k.end());
    }
    const Inventory& inv = p.inventory;
    s.profilerLevel = inv.profilerLevel;
    s.aicMetrics = inv.aicMetrics;
    if (inv.activities) {
        std::vector<std::string> a = *inv.activities;
        std::sort(a.begin(), a.end());
        for (const auto& x : a)
            s.activities += (s.activities.empty() ? "" : ",") + x;
    }
    s.hasCommunicationJson = p.hasCommunicationJson;
    s.hiddenIssue = r.anomaly.hiddenIssuePresent;
    for (const auto& f : p.loadFindings)
        if (f.severity == Severity::Error && s.dataProblems.size() < kMaxDataProblems)
            s.dataProblems.push_back(f.file.empty() ? f.seen : msg("{}: {}", f.file, f.seen));
    for (const auto& row : r.crossCheck.rows)
        s.crossCheckRows += row.matched ? 1 : 0;
    s.crossCheckMismatches = r.crossCheck.mismatches;
    addSteps(s, p, r);
    addWindows(s, r);
    addStepDetail(s, p, r);
    addCollectives(s, p, r);
    addWaitGains(s, p, r);
    if (withLanes) s.lanes = lanesOf(p, r);
    return s;
}

RankSummary failedRank(const RankFolder& rank, std::string error) {
    RankSummary s;
    s.label = rank.label;
    s.folder = rank.root;
    s.rankId = rankIdFromFolder(rank.root);
    s.error = std::move(error);
    return s;
}

} // namespace bs
