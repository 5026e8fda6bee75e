// One analysed profile reduced to what a before/after comparison needs (core/compare/README.md).
#include "compare/compare.h"

#include "pipeline/analysis_run.h"
#include "analysis/step_groups.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace bs {

namespace {

constexpr const char* kStepStart = "(step start)";
constexpr const char* kStepEnd = "(step end)";

// Kernel indices by end, for "the kernel ending at the gap start" (the rule of the analysis' neighbour
// kernels: the largest end ≤ the gap start, ties to the later kernel).
class Neighbours {
  public:
    explicit Neighbours(const Profile& p) : p_(p), byEnd_(p.kernels.size()) {
        for (std::size_t i = 0; i < byEnd_.size(); ++i)
            byEnd_[i] = i;
        std::sort(byEnd_.begin(), byEnd_.end(), [&](std::size_t x, std::size_t y) {
            const TimeNs ex = p.kernels[x].end(), ey = p.kernels[y].end();
            return ex < ey || (ex == ey && x < y);
        });
    }
    std::string before(TimeNs t) const {
        auto e = std::upper_bound(byEnd_.begin(), byEnd_.end(), t,
                                  [&](TimeNs v, std::size_t k) { return v < p_.kernels[k].end(); });
        return e == byEnd_.begin() ? std::string() : name(*--e);
    }
    std::string after(TimeNs t) const {
        auto s = std::lower_bound(p_.kernels.begin(), p_.kernels.end(), t,
                                  [](const Kernel& k, TimeNs v) { return k.start < v; });
        return s == p_.kernels.end() ? std::string() : name(static_cast<std::size_t>(s - p_.kernels.begin()));
    }
    std::string name(std::size_t k) const { return templateName(p_.str(p_.kernels[k].name), p_.kernels[k].cls); }

  private:
    const Profile& p_;
    std::vector<std::size_t> byEnd_;
};

struct Gap {
    WindowScope scope;
    Interval span;
};

// Every gap of one step in time order (prelaunch, internal, tail), as the step metrics define them.
std::vector<Gap> gapsOf(const StepMetrics& m) {
    std::vector<Gap> g;
    if (m.kernelCount == 0 && m.busyUnion == 0) {
        g.push_back({WindowScope::Prelaunch, {m.windowStart, m.windowEnd}});
        return g;
    }
    if (m.prelaunchGap > 0) g.push_back({WindowScope::Prelaunch, {m.windowStart, m.windowStart + m.prelaunchGap}});
    for (const auto& i : m.internalGaps)
        g.push_back({WindowScope::StepInternal, i});
    if (m.tailGap > 0) g.push_back({WindowScope::Tail, {m.windowEnd - m.tailGap, m.windowEnd}});
    return g;
}

using Key = std::tuple<std::string, std::string, std::string>; // scope, before, after

// Places each significant window of a step: its (scope, before, after) and the occurrence of that triple
// among all the step's gaps.
void placeStepWindows(const Neighbours& nb, const StepMetrics& m, std::vector<CompareWindow*>& inStep) {
    std::map<Key, std::size_t> seen;
    std::size_t w = 0;
    std::sort(inStep.begin(), inStep.end(), [](auto* a, auto* b) { return a->start < b->start; });
    for (const Gap& g : gapsOf(m)) {
        const std::string before = g.scope == WindowScope::Prelaunch ? kStepStart : nb.before(g.span.a);
        const std::string after = g.scope == WindowScope::Tail || (g.scope == WindowScope::Prelaunch &&
                                                                    g.span.b == m.windowEnd && m.kernelCount == 0)
                                      ? kStepEnd
                                      : nb.after(g.span.b);
        const Key key{windowScopeName(g.scope), before, after};
        const std::size_t occurrence = seen[key]++;
        while (w < inStep.size() && inStep[w]->start < g.span.a)
            ++w;
        if (w < inStep.size() && inStep[w]->start == g.span.a && inStep[w]->dur == g.span.length()) {
            inStep[w]->before = before;
            inStep[w]->after = after;
            inStep[w]->occurrence = occurrence;
            ++w;
        }
    }
}

void addFigures(CompareSide& s, const StepGroup& g, const AnalysisResult& r) {
    auto put = [&](const char* key, const MetricStats& m) { s.figures.push_back({key, true, m.avg, m.median}); };
    put("service_ms", g.service);
    put("busy_ms", g.busy);
    put("underfeed_ratio", g.underfeedRatio);
    put("prelaunch_ms", g.prelaunch);
    put("tail_ms", g.tail);
    put("internal_bubble_ms", g.internalTotal);
    put("largest_bubble_ms", g.largestInternal);
    put("bubble_count", g.bubbleCount);
    const double kernels = static_cast<double>(g.kernelCount); // every step of a group has the same kernels
    s.figures.push_back({"kernel_count", true, kernels, kernels});
    std::vector<double> exposed, wait;
    bool waitKnown = !g.steps.empty();
    for (int i : g.steps) {
        if (static_cast<std::size_t>(i) >= r.anomaly.stepComm.size()) {
            waitKnown = false;
            continue;
        }
        const StepComm& c = r.anomaly.stepComm[static_cast<std::size_t>(i)];
        exposed.push_back(nsToMs(c.exposed));
        wait.push_back(nsToMs(c.wait));
        waitKnown = waitKnown && c.fromJson;
    }
    put("comm_exposed_ms", statsOf(exposed));
    const MetricStats w = statsOf(wait);
    s.figures.push_back({"comm_wait_ms", waitKnown, waitKnown ? w.avg : 0, waitKnown ? w.median : 0});
}

void addLayers(CompareSide& s, const ArchitectureResult& a) {
    if (a.layers.empty()) return;
    s.architectureMarker = a.marker;
    std::map<std::pair<std::string, std::string>, std::pair<std::size_t, TimeNs>> byType;
    for (const auto& l : a.layers) {
        const std::string phase = l.pass >= 0 && static_cast<std::size_t>(l.pass) < a.passes.size()
                                      ? a.passes[static_cast<std::size_t>(l.pass)].phase
                                      : std::string("single");
        auto& [count, wall] = byType[{l.type, phase}];
        ++count;
        wall = addSaturating(wall, l.clocks.wall);
    }
    for (const auto& [k, v] : byType)
        s.layers.push_back({k.first, k.second, v.first, nsToMs(v.second) / static_cast<double>(v.first)});
}

} // namespace

const std::vector<FigureInfo>& compareFigureKeys() {
    static const std::vector<FigureInfo> keys{
        {"service_ms", "step service", "ms"},
        {"busy_ms", "device busy union", "ms"},
        {"underfeed_ratio", "underfeed ratio", ""},
        {"prelaunch_ms", "prelaunch gap", "ms"},
        {"tail_ms", "tail gap", "ms"},
        {"internal_bubble_ms", "internal bubbles", "ms"},
        {"largest_bubble_ms", "largest internal bubble", "ms"},
        {"bubble_count", "internal bubble count", "count"},
        {"kernel_count", "kernels per step", "count"},
        {"comm_exposed_ms", "exposed communication", "ms"},
        {"comm_wait_ms", "communication wait", "ms"},
    };
    return keys;
}

CompareSide digestForCompare(const Profile& p, const AnalysisResult& r, std::string label, std::string folder,
                             int rankId) {
    CompareSide s;
    s.label = std::move(label);
    s.folder = std::move(folder);
    const Inventory& inv = p.inventory;
    s.scope.profilerLevel = inv.profilerLevel;
    s.scope.aicMetrics = inv.aicMetrics;
    s.scope.withStack = inv.withStack;
    s.scope.recordShapes = inv.recordShapes;
    s.scope.activities = inv.activities;
    s.scope.profilerInfo = std::any_of(inv.files.begin(), inv.files.end(),
                                       [](const InventoryFile& f) { return f.role == "profiler_info"; });
    s.scope.kernelSource = inv.kernelSource == KernelSource::None ? "" : kernelSourceName(inv.kernelSource);
    s.scope.stepSource = stepSourceName(r.steps.source);
    for (const auto& st : r.steps.steps)
        s.scope.stepNumbers.push_back(st.number);
    s.scope.rankId = rankId;
    s.hasData = !p.kernels.empty();
    s.bubbleMinUs = r.anomaly.rules.bubble_min_us;
    s.hiddenIssue = r.anomaly.hiddenIssuePresent;
    s.confidence = r.anomaly.confidence;

    std::vector<char> dominantStep(r.steps.steps.size(), 0);
    if (!r.anomaly.groups.empty()) {
        const StepGroup& g = r.anomaly.groups.front();
        s.groupId = g.id;
        s.groupKernelCount = g.kernelCount;
        s.groupTemplate = g.templateHash;
        for (int i : g.steps) {
            if (i < 0 || static_cast<std::size_t>(i) >= r.steps.steps.size()) continue;
            dominantStep[static_cast<std::size_t>(i)] = 1;
            s.groupSteps.push_back(r.steps.steps[static_cast<std::size_t>(i)].number);
        }
        addFigures(s, g, r);
    }
    for (const auto& o : r.anomaly.ops)
        s.ops.push_back({o.name, o.taskType, o.calls, o.durTotal, o.durAvgUs, o.waitAvgUs});
    addLayers(s, r.architecture);

    // Windows, then their positions: steps holding a window get their gaps walked once.
    const Neighbours nb(p);
    std::map<int, std::vector<CompareWindow*>> byStep;
    s.windows.reserve(r.anomaly.windows.size());
    for (const auto& w : r.anomaly.windows) {
        CompareWindow c;
        c.id = w.id;
        c.scope = windowScopeName(w.scope);
        c.stepIndex = w.stepIndex;
        const bool inStep = w.stepIndex >= 0 && static_cast<std::size_t>(w.stepIndex) < r.metrics.size();
        c.step = inStep ? r.steps.steps[static_cast<std::size_t>(w.stepIndex)].number : -1;
        c.dominant = inStep && dominantStep[static_cast<std::size_t>(w.stepIndex)];
        c.start = w.span.a;
        c.dur = w.span.length();
        c.labels = w.labels;
        c.boundary = w.boundary;
        if (!inStep) {
            c.stepIndex = -1;
            c.before = w.before.empty() ? "" : nb.name(w.before.front().kernel);
            c.after = w.after.empty() ? "" : nb.name(w.after.front().kernel);
        }
        s.windows.push_back(std::move(c));
    }
    std::map<Key, std::size_t> globalSeen;
    std::vector<CompareWindow*> global;
    for (auto& c : s.windows)
        (c.stepIndex >= 0 ? byStep[c.stepIndex] : global).push_back(&c);
    for (auto& [step, list] : byStep)
        placeStepWindows(nb, r.metrics[static_cast<std::size_t>(step)], list);
    // Global windows: the occurrence among the significant global windows (their gaps are not kept).
    std::sort(global.begin(), global.end(), [](auto* a, auto* b) { return a->start < b->start; });
    for (auto* c : global)
        c->occurrence = globalSeen[Key{c->scope, c->before, c->after}]++;

    for (const auto& f : r.findings)
        s.findings.push_back({f.id, severityName(f.severity), f.seen, f.file});
    return s;
}

} // namespace bs
