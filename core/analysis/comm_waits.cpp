#include "analysis/comm_waits.h"

#include "i18n/message.h"
#include "model/task_type.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace bs {

namespace {

// [a] minus [b], both merged (sorted, disjoint).
std::vector<Interval> subtract(const std::vector<Interval>& a, const std::vector<Interval>& b) {
    std::vector<Interval> out;
    std::size_t j = 0;
    for (const auto& x : a) {
        TimeNs cur = x.a;
        while (j < b.size() && b[j].b <= cur)
            ++j;
        for (std::size_t k = j; k < b.size() && b[k].a < x.b; ++k) {
            if (b[k].a > cur) out.push_back({cur, b[k].a});
            cur = std::max(cur, b[k].b);
        }
        if (cur < x.b) out.push_back({cur, x.b});
    }
    return out;
}

// "step50" → 50 (communication.json's step keys); nullopt for anything else.
std::optional<std::int64_t> stepKeyNumber(std::string_view key) {
    constexpr std::string_view kPrefix = "step";
    if (key.size() <= kPrefix.size() || key.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
    return parseInt(key.substr(kPrefix.size()));
}

// The step a collective belongs to: the one whose window holds its start (as for kernels, §2), else the
// step named by its key, else the only step. `byNumber` maps step numbers to indices (first of a number).
int stepOf(const CommOp& c, const StepSet& steps, const std::map<std::int64_t, int>& byNumber) {
    const auto& st = steps.steps;
    if (c.start > 0) {
        auto it = std::upper_bound(st.begin(), st.end(), c.start,
                                   [](TimeNs t, const Step& s) { return t < s.start; });
        if (it != st.begin() && c.start < std::prev(it)->end) return static_cast<int>(it - st.begin()) - 1;
    }
    if (auto n = stepKeyNumber(c.step))
        if (auto it = byNumber.find(*n); it != byNumber.end()) return it->second;
    return st.size() == 1 ? 0 : -1;
}

} // namespace

CommAnalysis measureCommunication(const Profile& p, const StepSet& steps, const std::vector<StepMetrics>& metrics,
                                  const Rulebook& rules) {
    CommAnalysis a;
    // Exposed communication: HCCL kernel time that no other kernel overlaps.
    std::vector<Interval> comm, other;
    for (const auto& k : p.kernels)
        (k.cls == TaskClass::Comm ? comm : other).push_back({k.start, k.end()});
    const auto exposed = subtract(mergeIntervals(std::move(comm)), mergeIntervals(std::move(other)));
    a.stepComm.assign(metrics.size(), StepComm{});
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        a.stepComm[i].exposed = intersectLength(exposed, {metrics[i].windowStart, metrics[i].windowEnd});
        a.stepComm[i].fromJson = p.hasCommunicationJson;
    }
    std::map<std::int64_t, int> byNumber;
    for (std::size_t i = 0; i < steps.steps.size(); ++i)
        byNumber.emplace(steps.steps[i].number, static_cast<int>(i));
    for (const auto& c : p.commOps) {
        if (c.name == "Total Op Info") continue; // the file's own per-step sum
        CollectiveWait w;
        w.name = c.name;
        w.kind = c.kind;
        w.stepKey = c.step;
        w.stepIndex = stepOf(c, steps, byNumber);
        w.start = c.start;
        w.elapse = c.elapse;
        w.wait = c.wait;
        w.transit = c.transit;
        w.sync = c.sync;
        w.idle = c.idle;
        const TimeNs moving = addSaturating(c.wait, c.transit);
        w.waitRatio = moving > 0 ? static_cast<double>(c.wait) / static_cast<double>(moving) : 0.0;
        if (w.waitRatio > rules.comm_wait_heavy_ratio) w.tags.emplace_back("COMM_WAIT_HEAVY");
        if (w.stepIndex >= 0 && static_cast<std::size_t>(w.stepIndex) < a.stepComm.size()) {
            StepComm& s = a.stepComm[static_cast<std::size_t>(w.stepIndex)];
            s.elapse = addSaturating(s.elapse, c.elapse);
            s.wait = addSaturating(s.wait, c.wait);
            s.transit = addSaturating(s.transit, c.transit);
            s.sync = addSaturating(s.sync, c.sync);
            s.idle = addSaturating(s.idle, c.idle);
            ++s.collectives;
            s.waitHeavy += !w.tags.empty();
        }
        a.collectives.push_back(std::move(w));
    }
    // By start; ops without a start (0) last, in file order.
    std::stable_sort(a.collectives.begin(), a.collectives.end(),
                     [](const CollectiveWait& x, const CollectiveWait& y) {
                         if ((x.start == 0) != (y.start == 0)) return y.start == 0;
                         return x.start < y.start;
                     });
    return a;
}

void addCommunication(AnomalyResult& a, CommAnalysis measured) {
    a.collectives = std::move(measured.collectives);
    a.stepComm = std::move(measured.stepComm);
    if (std::any_of(a.collectives.begin(), a.collectives.end(),
                    [](const CollectiveWait& w) { return !w.tags.empty(); }) &&
        std::find(a.globalTags.begin(), a.globalTags.end(), "COMM_WAIT_HEAVY") == a.globalTags.end())
        a.globalTags.emplace_back("COMM_WAIT_HEAVY");
}

void answerCommWaits(AnomalyResult& a, const StepSet& steps) {
    const CollectiveWait* top = nullptr;
    std::size_t heavy = 0;
    for (const auto& w : a.collectives) {
        if (w.tags.empty()) continue;
        ++heavy;
        if (!top || w.wait > top->wait) top = &w;
    }
    if (!top || a.answers.size() < 4) return;
    const std::string step =
        top->stepIndex >= 0 && steps.steps[static_cast<std::size_t>(top->stepIndex)].number >= 0
            ? msg(" (step {})", steps.steps[static_cast<std::size_t>(top->stepIndex)].number)
            : std::string();
    a.answers[3] += msg(
        " Communication: {} collective{} {} COMM_WAIT_HEAVY (Wait / (Wait + Transit) > {:.2f}); the largest "
        "wait is `{}`{}, which elapses {:.3f} ms: {:.3f} ms wait, {:.3f} ms transit and {:.3f} ms idle "
        "(communication.json's Idle Time: neither waiting nor transferring; wait ratio {:.2f}). "
        "The wait belongs to the slowest peer, not to this rank: compare the same collective on the other "
        "ranks (analyze their parent folder); the cluster section aligns their clocks and names who arrived last.",
        heavy, heavy == 1 ? "" : "s", heavy == 1 ? "is" : "are", a.rules.comm_wait_heavy_ratio, top->name,
        step, nsToMs(top->elapse), nsToMs(top->wait), nsToMs(top->transit), nsToMs(top->idle),
        top->waitRatio);
}

} // namespace bs
