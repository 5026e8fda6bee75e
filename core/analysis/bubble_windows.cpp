#include "analysis/bubble_windows.h"

#include "analysis/soft_attribution.h"
#include "analysis/stack_evidence.h"
#include "i18n/message.h"

#include <algorithm>
#include <fmt/format.h>

namespace bs {

const char* windowScopeName(WindowScope s) {
    switch (s) {
    case WindowScope::StepInternal:
        return "step_internal";
    case WindowScope::Prelaunch:
        return "prelaunch";
    case WindowScope::Tail:
        return "tail";
    case WindowScope::Global:
        return "global";
    }
    return "global";
}


namespace {

NeighbourKernel neighbour(const Profile& p, std::size_t i) {
    const Kernel& k = p.kernels[i];
    return {i, std::string(p.str(k.name)), std::string(p.str(k.taskType)), k.start, k.dur, k.wait, k.stream};
}

// ANALYSIS.md §6: is this a capture-boundary gap, one the capture itself may have produced? Only a global
// gap before the first step or after the last one, the first step's prelaunch when kernels ran before its
// marker or the host trace starts after it, and the last step's tail when the host trace ends before the
// step does. Every other prelaunch / tail window happened while the host was recorded: an ordinary window.
bool captureBoundary(WindowScope scope, int stepIndex, Interval span, const StepSet& steps,
                     const HostIndex& host, std::string& reason) {
    if (steps.steps.empty()) return false;
    const Step& first = steps.steps.front();
    const Step& last = steps.steps.back();
    if (scope == WindowScope::Global) {
        if (span.b <= first.start)
            reason = msg("a gap before the first step: the capture may have started inside the work");
        else if (span.a >= last.end)
            reason = msg("a gap after the last step: the capture may have stopped inside the work");
        return !reason.empty();
    }
    const auto i = static_cast<std::size_t>(stepIndex);
    const bool emptyStep = scope == WindowScope::Prelaunch && span.b == steps.steps[i].end;
    if (scope == WindowScope::Prelaunch && i == 0) {
        if (steps.kernelsBeforeFirst > 0)
            reason = msg("the first step's prelaunch, and {} kernel{} ran before its marker: the capture "
                         "began inside the work",
                         steps.kernelsBeforeFirst, steps.kernelsBeforeFirst == 1 ? "" : "s");
        else if (host.hostTraceExists() && host.traceStart() > first.start)
            reason = msg("the first step's prelaunch, and the host trace starts after the step does");
    }
    if (reason.empty() && (scope == WindowScope::Tail || emptyStep) && i + 1 == steps.steps.size() &&
        host.hostTraceExists() && host.traceEnd() < last.end)
        reason = msg("the last step's tail, and the host trace ends before the step does");
    return !reason.empty();
}

} // namespace

std::vector<BubbleWindow> findBubbleWindows(const Profile& p, const StepSet& steps,
                                            const std::vector<StepMetrics>& metrics, const HostIndex& host,
                                            const Rulebook& rules, Interval capture) {
    std::vector<BubbleWindow> out;
    const TimeNs minNs = static_cast<TimeNs>(rules.bubble_min_us * 1000.0);
    auto add = [&](WindowScope scope, int stepIndex, Interval span) {
        if (span.length() < minNs || span.length() <= 0) return;
        BubbleWindow w;
        w.scope = scope;
        w.stepIndex = stepIndex;
        w.stepId = stepIndex < 0
                       ? "global"
                       : (steps.steps[static_cast<std::size_t>(stepIndex)].number >= 0
                              ? std::to_string(steps.steps[static_cast<std::size_t>(stepIndex)].number)
                              : std::string("pseudo"));
        w.span = span;
        w.boundary = captureBoundary(scope, stepIndex, span, steps, host, w.boundaryReason);
        out.push_back(std::move(w));
    };
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        const auto& m = metrics[i];
        const int si = static_cast<int>(i);
        if (m.kernelCount == 0 && m.busyUnion == 0) {
            add(WindowScope::Prelaunch, si, {m.windowStart, m.windowEnd});
            continue;
        }
        add(WindowScope::Prelaunch, si, {m.windowStart, m.windowStart + m.prelaunchGap});
        for (const auto& g : m.internalGaps)
            add(WindowScope::StepInternal, si, g);
        add(WindowScope::Tail, si, {m.windowEnd - m.tailGap, m.windowEnd});
    }
    // Global: gaps of the whole device capture that lie outside every step window.
    if (!p.kernels.empty()) {
        auto seg = busySegments(p, capture);
        std::vector<Interval> stepWins;
        for (const auto& s : steps.steps)
            stepWins.push_back({s.start, s.end});
        stepWins = mergeIntervals(stepWins);
        for (std::size_t i = 1; i < seg.size(); ++i) {
            Interval g{seg[i - 1].b, seg[i].a};
            // Subtract the step windows from the gap. They are merged (sorted, disjoint), so only those
            // from the first one ending after the gap start can touch it: a binary search, not a scan of
            // every step for every gap (100 k steps: minutes).
            TimeNs cur = g.a;
            auto s = std::upper_bound(stepWins.begin(), stepWins.end(), cur,
                                      [](TimeNs t, const Interval& w) { return t < w.b; });
            for (; s != stepWins.end() && s->a < g.b; ++s) {
                if (s->a > cur) add(WindowScope::Global, -1, {cur, s->a});
                cur = std::max(cur, s->b);
            }
            if (cur < g.b) add(WindowScope::Global, -1, {cur, g.b});
        }
    }
    std::sort(out.begin(), out.end(), [](const BubbleWindow& x, const BubbleWindow& y) {
        if (x.span.length() != y.span.length()) return x.span.length() > y.span.length();
        return x.span.a < y.span.a;
    });
    if (out.empty()) return out;
    // Kernels by end (then index), for "the last kernels ending at the gap start": (end, index) pairs sort
    // without reaching into the kernels for every comparison.
    std::vector<std::pair<TimeNs, std::size_t>> byEnd(p.kernels.size());
    for (std::size_t i = 0; i < byEnd.size(); ++i)
        byEnd[i] = {p.kernels[i].end(), i};
    std::sort(byEnd.begin(), byEnd.end());
    const std::size_t n = static_cast<std::size_t>(std::max(0, rules.neighbour_kernels));
    const StackEvidenceBuilder stacks(p, host);
    std::vector<Interval> spans; // the host evidence of all windows at once (one sweep, host_evidence.h)
    spans.reserve(out.size());
    for (const auto& w : out)
        spans.push_back(w.span);
    std::vector<HostEvidence> evidence = host.evidence(spans);
    for (std::size_t i = 0; i < out.size(); ++i) {
        auto& w = out[i];
        w.id = fmt::format("b{:04}", i + 1);
        auto e = std::upper_bound(byEnd.begin(), byEnd.end(), w.span.a,
                                  [](TimeNs t, const std::pair<TimeNs, std::size_t>& k) { return t < k.first; });
        for (std::size_t k = 0; k < n && e != byEnd.begin(); ++k)
            w.before.push_back(neighbour(p, (--e)->second));
        auto s = std::lower_bound(p.kernels.begin(), p.kernels.end(), w.span.b,
                                  [](const Kernel& k, TimeNs t) { return k.start < t; });
        for (std::size_t k = 0; k < n && s != p.kernels.end(); ++k, ++s)
            w.after.push_back(neighbour(p, static_cast<std::size_t>(s - p.kernels.begin())));
        w.evidence = std::move(evidence[i]);
        w.stacks = stacks.evidence(w.span);
        attributeWindow(w, rules);
    }
    return out;
}

} // namespace bs
