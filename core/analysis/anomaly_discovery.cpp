#include "analysis/anomaly_discovery.h"

#include "analysis/bubble_windows.h"
#include "analysis/comm_waits.h"
#include "analysis/host_evidence.h"
#include "analysis/op_analysis.h"
#include "analysis/stack_evidence.h"
#include "analysis/step_groups.h"
#include "i18n/message.h"

#include <algorithm>
#include <future>
#include <fmt/format.h>
#include <map>
#include <set>
#include <thread>

namespace bs {

namespace {

bool has(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}
void addTag(std::vector<std::string>& v, const std::string& s) {
    if (!has(v, s)) v.push_back(s);
}

// Where a window sits, for recurrence: the kernel that precedes it (or the step start).
std::string positionOf(const BubbleWindow& w) {
    if (w.scope == WindowScope::Prelaunch) return "<step start>";
    return w.before.empty() ? "<none>" : templateName(w.before.front().name, TaskClass::Comm);
}

void groupRisks(AnomalyResult& a, const Profile& p, const StepSet& steps,
                const std::vector<StepMetrics>& metrics) {
    const Rulebook& r = a.rules;
    std::map<int, std::string> groupOfStep;
    for (const auto& g : a.groups)
        for (int s : g.steps)
            groupOfStep[s] = g.id;
    for (auto& w : a.windows)
        if (w.stepIndex >= 0) w.groupId = groupOfStep[w.stepIndex];
    const bool shapesRecorded =
        std::any_of(p.kernels.begin(), p.kernels.end(), [](const Kernel& k) { return k.inputShapes != 0; });
    // One pass over the windows for every group: each step's largest window (the first of equal
    // length, in window order) and each group's first top_windows windows. Scanning all windows per
    // step and per group was quadratic (100 k steps).
    std::vector<const BubbleWindow*> largestOfStep(steps.steps.size(), nullptr);
    std::map<std::string, std::size_t> groupIndex;
    for (std::size_t gi = 0; gi < a.groups.size(); ++gi)
        groupIndex.emplace(a.groups[gi].id, gi);
    std::vector<std::vector<const BubbleWindow*>> windowsOfGroup(a.groups.size());
    const auto topWindows = static_cast<std::size_t>(std::max(0, r.top_windows));
    for (const auto& w : a.windows) {
        if (w.stepIndex >= 0 && static_cast<std::size_t>(w.stepIndex) < largestOfStep.size()) {
            const BubbleWindow*& l = largestOfStep[static_cast<std::size_t>(w.stepIndex)];
            if (!l || w.span.length() > l->span.length()) l = &w;
        }
        auto gi = groupIndex.find(w.groupId);
        if (gi != groupIndex.end() && windowsOfGroup[gi->second].size() < topWindows)
            windowsOfGroup[gi->second].push_back(&w);
    }
    for (std::size_t gi = 0; gi < a.groups.size(); ++gi) {
        auto& g = a.groups[gi];
        // Recurrence: share of steps with a significant bubble, and where their largest one sits.
        std::map<std::string, int> positions;
        int withBubble = 0;
        const std::vector<const BubbleWindow*>& groupWindows = windowsOfGroup[gi];
        for (int s : g.steps) {
            const BubbleWindow* largest = s >= 0 && static_cast<std::size_t>(s) < largestOfStep.size()
                                              ? largestOfStep[static_cast<std::size_t>(s)]
                                              : nullptr;
            if (!largest) continue;
            ++withBubble;
            ++positions[positionOf(*largest)];
        }
        const double n = static_cast<double>(g.steps.size());
        std::string bestPos;
        int bestCount = 0;
        for (const auto& [pos, c] : positions)
            if (c > bestCount) bestCount = c, bestPos = pos;
        if (g.steps.size() >= 2 && withBubble >= r.recurring_step_fraction * n && withBubble > 0 &&
            bestCount >= r.recurring_position_fraction * withBubble) {
            g.recurring = true;
            g.recurringPosition = bestPos;
            g.recurringShare = static_cast<double>(bestCount) / n;
            addTag(g.tags, "RECURRING_BUBBLE_PATTERN");
        }
        double cov = 0;
        int covN = 0;
        for (const auto* w : groupWindows)
            if (w->evidence.hostTraceExists && !w->boundary) cov += w->evidence.coverage, ++covN;
        g.topWindowCoverageKnown = covN > 0;
        g.topWindowCoverageMean = covN ? cov / covN : 0;
        const bool underfed = g.underfeedRatio.avg >= r.underfeed_heavy_ratio;
        const bool recurringOrSingle = g.recurring || g.steps.size() == 1;
        if (underfed && g.recurring && g.topWindowCoverageKnown &&
            g.topWindowCoverageMean >= r.host_risk_coverage_min)
            addTag(g.tags, "HOST_ORIGINATED_RISK");
        if (underfed && recurringOrSingle && !groupWindows.empty() &&
            (!a.hostTraceExists ||
             (g.topWindowCoverageKnown && g.topWindowCoverageMean < r.untraced_coverage_max))) {
            addTag(g.tags, "UNTRACED_HOST_BLOCKING_RISK");
            g.requiresFollowup = true;
        }
        // Same template, different input shapes?
        if (!shapesRecorded) {
            g.variableShapes.reset();
        } else if (g.steps.size() >= 2) {
            std::set<std::uint64_t> shapeHashes;
            for (int s : g.steps) {
                const auto& st = steps.steps[static_cast<std::size_t>(s)];
                std::uint64_t h = 1469598103934665603ULL;
                auto it = std::lower_bound(p.kernels.begin(), p.kernels.end(), st.start,
                                           [](const Kernel& k, TimeNs t) { return k.start < t; });
                for (; it != p.kernels.end() && it->start < st.end; ++it)
                    h = (h ^ it->inputShapes) * 1099511628211ULL;
                shapeHashes.insert(h);
            }
            g.variableShapes = shapeHashes.size() > 1;
            if (*g.variableShapes) addTag(g.tags, "VARIABLE_SHAPE_SAME_TEMPLATE");
        } else {
            g.variableShapes = false;
        }
        for (int s : g.steps)
            for (const auto& t : a.stepTags[static_cast<std::size_t>(s)].tags)
                addTag(g.tags, t);
    }
    (void)metrics;
}

// PARTIAL_CAPTURE_BOUNDARY (§6): the largest gap is a capture-boundary gap (any window of the largest
// length, so that the order of equal windows decides nothing), a step is cut by the capture edge (a cut
// timeline), or kernels ran before the first step marker. The note says which.
void partialCapture(AnomalyResult& a, const Profile& p, const StepSet& steps) {
    std::vector<std::string> why;
    for (const auto& w : a.windows) {
        if (w.span.length() != a.windows.front().span.length()) break;
        if (!w.boundary) continue;
        why.push_back(msg("the largest window {} is a capture-boundary gap ({})", w.id, w.boundaryReason));
        break;
    }
    if (p.inventory.traceTruncated)
        why.push_back(msg("the trace is cut, so its last step is cut by the capture edge"));
    if (steps.kernelsBeforeFirst > 0)
        why.push_back(msg("{} kernel{} ran before the first step marker", steps.kernelsBeforeFirst,
                          steps.kernelsBeforeFirst == 1 ? "" : "s"));
    if (why.empty()) return;
    addTag(a.globalTags, "PARTIAL_CAPTURE_BOUNDARY");
    std::string reasons;
    for (std::size_t i = 0; i < why.size(); ++i)
        reasons += (i ? "; " : "") + why[i];
    a.notes.push_back(msg("PARTIAL_CAPTURE_BOUNDARY: {}.", reasons));
}

// Hidden-issue verdict on the dominant group (§6): present when its underfeed ratio avg reaches
// underfeed_heavy_ratio or any of its steps carries a prelaunch / tail / internal heavy tag (each step
// against its own X); hiddenIssueReasons names every condition that fired.
void hiddenIssueVerdict(AnomalyResult& a, const StepSet& steps, const std::vector<StepMetrics>& metrics) {
    const Rulebook& r = a.rules;
    if (a.groups.empty()) {
        a.severity = "none";
        return;
    }
    const StepGroup& g = a.groups.front();
    if (g.underfeedRatio.avg >= r.underfeed_heavy_ratio)
        a.hiddenIssueReasons.push_back(
            msg("underfeed ratio avg {:.3f} >= {:.2f}", g.underfeedRatio.avg, r.underfeed_heavy_ratio));
    const char* const heavyTags[] = {"PRELAUNCH_GAP_HEAVY", "TAIL_GAP_HEAVY", "INTERNAL_BUBBLE_HEAVY"};
    std::vector<std::vector<int>> heavySteps(3);
    for (int s : g.steps)
        for (const auto& t : a.stepTags[static_cast<std::size_t>(s)].tags)
            if (t == "PRELAUNCH_GAP_HEAVY" || t == "TAIL_GAP_HEAVY" || t == "INTERNAL_BUBBLE_HEAVY")
                heavySteps[static_cast<std::size_t>(std::find(std::begin(heavyTags), std::end(heavyTags), t) -
                                                    std::begin(heavyTags))]
                    .push_back(s);
    for (std::size_t k = 0; k < 3; ++k) {
        if (heavySteps[k].empty()) continue;
        const auto first = static_cast<std::size_t>(heavySteps[k].front());
        const StepMetrics& m = metrics[first];
        const TimeNs gap = k == 0 ? m.prelaunchGap : (k == 1 ? m.tailGap : m.largestInternalBubble);
        const double X = std::max(r.heavy_gap_min_ms, r.heavy_gap_service_fraction * nsToMs(m.service));
        const auto& st = steps.steps[first];
        const std::string stepNo = st.number >= 0 ? std::to_string(st.number) : std::string("pseudo");
        const char* plural = g.steps.size() == 1 ? "" : "s";
        if (k == 0)
            a.hiddenIssueReasons.push_back(msg(
                "{} on {} of {} step{} (step {}: prelaunch {:.3f} ms >= {:.3f} ms, the larger of {:g} ms and "
                "{:g} × its service {:.3f} ms)",
                heavyTags[k], heavySteps[k].size(), g.steps.size(), plural, stepNo, nsToMs(gap), X,
                r.heavy_gap_min_ms, r.heavy_gap_service_fraction, nsToMs(m.service)));
        else if (k == 1)
            a.hiddenIssueReasons.push_back(msg("{} on {} of {} step{} (step {}: tail {:.3f} ms >= {:.3f} ms, "
                                               "the larger of {:g} ms and {:g} × "
                                               "its service {:.3f} ms)",
                                               heavyTags[k], heavySteps[k].size(), g.steps.size(), plural,
                                               stepNo, nsToMs(gap), X, r.heavy_gap_min_ms,
                                               r.heavy_gap_service_fraction, nsToMs(m.service)));
        else
            a.hiddenIssueReasons.push_back(msg(
                "{} on {} of {} step{} (step {}: largest internal bubble {:.3f} ms >= {:.3f} ms, the larger "
                "of {:g} ms and {:g} × its service {:.3f} ms)",
                heavyTags[k], heavySteps[k].size(), g.steps.size(), plural, stepNo, nsToMs(gap), X,
                r.heavy_gap_min_ms, r.heavy_gap_service_fraction, nsToMs(m.service)));
    }
    a.hiddenIssuePresent = !a.hiddenIssueReasons.empty();
    a.severity = !a.hiddenIssuePresent ? "none" : (g.recurring ? "high" : "medium");
}

void stepTagsOf(AnomalyResult& a, const std::vector<StepMetrics>& metrics) {
    const Rulebook& r = a.rules;
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        const auto& m = metrics[i];
        StepTags t;
        t.stepIndex = static_cast<int>(i);
        const double X = std::max(r.heavy_gap_min_ms, r.heavy_gap_service_fraction * nsToMs(m.service));
        if (nsToMs(m.prelaunchGap) >= X) t.tags.push_back("PRELAUNCH_GAP_HEAVY");
        if (nsToMs(m.tailGap) >= X) t.tags.push_back("TAIL_GAP_HEAVY");
        if (nsToMs(m.largestInternalBubble) >= X) t.tags.push_back("INTERNAL_BUBBLE_HEAVY");
        if (m.underfeedRatio >= r.underfeed_heavy_ratio || !t.tags.empty())
            t.tags.insert(t.tags.begin(), "DEVICE_IDLE_GAP_HEAVY");
        a.stepTags.push_back(std::move(t));
    }
}

// soft_root_cause_summary (core/README.md, "Soft-cause confidence"): each label with the significant
// windows carrying it, their time and share of all significant bubble time, largest first; evidence from
// its three largest windows. Labels outside the top windows count too: a label on many small windows
// can hold more time than the top five.
void summarizeSoftCauses(AnomalyResult& a) {
    const Rulebook& r = a.rules;
    TimeNs total = 0;
    std::map<std::string, std::vector<const BubbleWindow*>> byLabel;
    for (const auto& w : a.windows) {
        total = addSaturating(total, w.span.length());
        for (const auto& l : w.labels)
            byLabel[l].push_back(&w);
    }
    for (const auto& [label, ws] : byLabel) {
        SoftCause c;
        c.label = label;
        c.windowCount = ws.size();
        std::set<std::string> groupsHit, stepsHit;
        for (const auto* w : ws) {
            c.duration = addSaturating(c.duration, w->span.length());
            groupsHit.insert(w->groupId);
            stepsHit.insert(w->stepId);
        }
        c.share = total > 0 ? static_cast<double>(c.duration) / static_cast<double>(total) : 0.0;
        const bool oneStep = stepsHit.size() == 1 && ws.front()->stepIndex >= 0;
        const bool oneGroup = groupsHit.size() == 1 && !ws.front()->groupId.empty();
        c.scope = oneStep ? "step" : (oneGroup ? "group" : "global");
        c.target = oneStep ? ws.front()->stepId : (oneGroup ? ws.front()->groupId : "");
        const bool high = ws.size() >= 3 && c.share >= r.soft_cause_high_share;
        const bool medium =
            c.share >= r.soft_cause_medium_share && (ws.size() >= 2 || c.share >= r.soft_cause_high_share);
        c.confidence = label == "insufficient_evidence" || a.confidence == "low"
                           ? "low"
                           : (high ? "high" : (medium ? "medium" : "low"));
        for (std::size_t i = 0; i < ws.size() && i < 3; ++i) {
            const auto* w = ws[i];
            const auto idx = static_cast<std::size_t>(std::find(w->labels.begin(), w->labels.end(), label) -
                                                      w->labels.begin());
            c.evidence.push_back(msg("{} (step {}, {:.3f} ms): {}", w->id, w->stepId,
                                     nsToMs(w->span.length()),
                                     idx < w->labelEvidence.size() ? w->labelEvidence[idx] : std::string()));
        }
        if (ws.size() > 3) {
            TimeNs rest = 0;
            for (std::size_t i = 3; i < ws.size(); ++i)
                rest = addSaturating(rest, ws[i]->span.length());
            c.evidence.push_back(msg("and {} more window{} ({:.3f} ms)", ws.size() - 3,
                                     ws.size() - 3 == 1 ? "" : "s", nsToMs(rest)));
        }
        a.softCauses.push_back(std::move(c));
    }
    std::stable_sort(a.softCauses.begin(), a.softCauses.end(), [](const SoftCause& x, const SoftCause& y) {
        return x.duration != y.duration ? x.duration > y.duration : x.windowCount > y.windowCount;
    });
}

} // namespace

AnomalyResult discoverAnomalies(const Profile& p, const StepSet& steps,
                                const std::vector<StepMetrics>& metrics, const Rulebook& rules,
                                bool firstStepIsCompile) {
    AnomalyResult a;
    a.rules = rules;
    const Rulebook& r = a.rules;
    a.hostTraceExists = !p.hostEvents.empty();
    a.stacksExist = std::any_of(p.hostEvents.begin(), p.hostEvents.end(),
                                [](const TraceEvent& e) { return e.flags & EvHasStack; });
    a.shapesExist =
        std::any_of(p.kernels.begin(), p.kernels.end(), [](const Kernel& k) { return k.inputShapes != 0; });
    a.pmuExists = pmuAvailable(p);

    // Capture: first device kernel start → last device kernel end (§10.1), widened to the step windows
    // for the boundary test.
    if (!p.kernels.empty()) {
        a.captureStart = p.kernels.front().start;
        for (const auto& k : p.kernels)
            a.captureEnd = std::max(a.captureEnd, k.end());
        auto seg = busySegments(p, {a.captureStart, a.captureEnd});
        a.globalBusy = totalLength(seg);
        std::vector<Interval> gaps;
        for (std::size_t i = 1; i < seg.size(); ++i)
            gaps.push_back({seg[i - 1].b, seg[i].a});
        std::sort(gaps.begin(), gaps.end(), [](const Interval& x, const Interval& y) {
            return x.length() != y.length() ? x.length() > y.length() : x.a < y.a;
        });
        if (!gaps.empty()) a.largestGap = gaps.front().length();
        for (std::size_t i = 0; i < gaps.size() && i < 5; ++i)
            a.topGlobalGaps.push_back(gaps[i]);
    }
    Interval capture{a.captureStart, a.captureEnd};
    for (const auto& s : steps.steps) {
        capture.a = std::min(capture.a, s.start);
        capture.b = std::max(capture.b, s.end);
    }
    // Host evidence + windows on one core, step groups + op statistics + collectives on the other: they are
    // independent.
    std::vector<StepGroup> groups;
    std::vector<OpStats> ops;
    CommAnalysis comm;
    // std::async: an exception on either side (out of memory) reaches the caller, after both have stopped.
    auto opsDone = std::async(std::launch::async, [&] {
        groups = groupSteps(p, steps, metrics, r, firstStepIsCompile);
        // Op level over the dominant group (whole capture for a pseudo-step).
        std::vector<Interval> domWindows;
        if (!groups.empty() && steps.source != StepSource::Pseudo)
            for (int s : groups.front().steps)
                domWindows.push_back({steps.steps[static_cast<std::size_t>(s)].start,
                                      steps.steps[static_cast<std::size_t>(s)].end});
        std::sort(domWindows.begin(), domWindows.end(),
                  [](const Interval& x, const Interval& y) { return x.a < y.a; });
        ops = analyzeOps(p, domWindows, r);
        comm = measureCommunication(p, steps, metrics, r); // §1: per-step comm time, COMM_WAIT_HEAVY collectives
    });
    {
        HostIndex host(p, steps);
        a.windows = findBubbleWindows(p, steps, metrics, host, r, capture);
    }
    opsDone.get();
    a.groups = std::move(groups);
    a.ops = std::move(ops);
    stepTagsOf(a, metrics);
    if (firstStepIsCompile && a.groups.size() > 1 && a.groups.back().steps == std::vector<int>{0})
        a.notes.push_back(
            msg("The compile-polluted first step forms its own group ({}) and is not taken as the "
                "dominant group.",
                a.groups.back().id));
    groupRisks(a, p, steps, metrics);
    aggregateGroupStackLines(a); // the user line on top of a group's windows (their groupId is set now)
    a.aicpuOps = analyzeAicpu(p, a.windows, r);

    // Global risks.
    const std::size_t topN =
        std::min<std::size_t>(a.windows.size(), static_cast<std::size_t>(std::max(0, r.top_windows)));
    bool commTop = false;
    for (std::size_t i = 0; i < topN; ++i)
        if (a.windows[i].evidence.hostTraceExists && !a.windows[i].boundary &&
            a.windows[i].evidence.commRatio >= r.comm_ratio_min)
            commTop = true;
    bool polluted = false, anchor = false;
    for (const auto& o : a.ops) {
        polluted |= o.waitPollution;
        anchor |= o.falseHotspot;
    }
    if (commTop || polluted) addTag(a.globalTags, "COMM_SYNC_RISK");
    if (polluted) addTag(a.globalTags, "WAIT_POLLUTION_RISK");
    if (anchor) addTag(a.globalTags, "WAIT_ANCHOR_FALSE_HOTSPOT");
    for (const auto& ai : a.aicpuOps)
        if (ai.cls == "AICPU_EXPOSED_NOT_ALLOWED") addTag(a.globalTags, "AICPU_EXPOSED_RISK");
    addCommunication(a, std::move(comm));
    partialCapture(a, p, steps);
    for (const auto& g : a.groups)
        for (const auto& t : g.tags)
            if (t == "HOST_ORIGINATED_RISK" || t == "UNTRACED_HOST_BLOCKING_RISK" ||
                t == "RECURRING_BUBBLE_PATTERN" || t == "VARIABLE_SHAPE_SAME_TEMPLATE")
                addTag(a.globalTags, t);
    if (!a.shapesExist)
        a.notes.push_back(
            msg("Input shapes were not recorded: VARIABLE_SHAPE_SAME_TEMPLATE was not evaluated."));
    if (!p.hasCommunicationJson)
        a.notes.push_back(msg("No communication.json: communication windows come from HCCL kernels only."));
    if (!a.hostTraceExists)
        a.notes.push_back(msg("No host trace: bubbles are facts, their causes cannot be attributed."));
    if (!a.pmuExists)
        a.notes.push_back(msg("No usable PMU columns: compute/memory-bound verdicts are pmu_unavailable (the "
                              "recommendations say what the collection lacks)."));

    hiddenIssueVerdict(a, steps, metrics);
    // requires_host_followup is settled from the recommendations (recommendations.cpp): one rule for the
    // JSON flag, the report's follow-up sentence and each recommendation's follow-up.

    // Confidence (§10.1).
    double topCov = 0;
    std::size_t topCovN = 0;
    for (std::size_t i = 0; i < topN; ++i)
        if (!a.windows[i].boundary) topCov += a.windows[i].evidence.coverage, ++topCovN;
    if (!a.hostTraceExists || steps.source == StepSource::Pseudo)
        a.confidence = "low";
    else if (a.stacksExist && a.shapesExist &&
             (topCovN == 0 || topCov / static_cast<double>(topCovN) >= 0.10))
        a.confidence = "high";
    else
        a.confidence = "medium";

    // Soft root-cause summary: every label over all significant windows, weighted by their time.
    summarizeSoftCauses(a);
    return a;
}

} // namespace bs
