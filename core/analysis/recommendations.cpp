#include "analysis/recommendations.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace bs {

namespace {

bool hasTag(const std::vector<std::string>& v, const char* t) {
    return std::find(v.begin(), v.end(), t) != v.end();
}
bool hasFinding(const std::vector<Finding>& f, const char* id) {
    return std::any_of(f.begin(), f.end(), [&](const Finding& x) { return x.id == id; });
}
std::size_t labelCount(const AnomalyResult& a, const char* label, std::size_t topN) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < topN && i < a.windows.size(); ++i)
        if (std::find(a.windows[i].labels.begin(), a.windows[i].labels.end(), label) !=
            a.windows[i].labels.end())
            ++n;
    return n;
}

} // namespace

void addRecommendations(AnomalyResult& a, const Profile& p, const std::vector<Finding>& findings) {
    auto rec = [&](const char* scope, std::string target, std::string action, std::string why, bool followup,
                   std::string gap, const char* prio) {
        a.recommendations.push_back(
            {scope, std::move(target), std::move(action), std::move(why), followup, std::move(gap), prio});
    };
    const std::size_t topN =
        std::min<std::size_t>(a.windows.size(), static_cast<std::size_t>(std::max(0, a.rules.top_windows)));
    const bool bubbles = !a.windows.empty();
    const std::string dom = a.groups.empty() ? std::string() : a.groups.front().id;
    if (hasTag(a.globalTags, "UNTRACED_HOST_BLOCKING_RISK"))
        rec("step_group", dom,
            "Sample the host during the bubbles (py-spy dump / perf record on the training or serving "
            "process) and "
            "look for locks, GC or blocking I/O.",
            "The device idles while the host trace shows almost nothing: the cause is possibly outside the "
            "traced code.",
            true, "host activity during the windows is not traced", "P0");
    if (hasTag(a.globalTags, "HOST_ORIGINATED_RISK"))
        rec("step_group", dom,
            "Reduce host work between launches at the recurring position (move Python bookkeeping off the "
            "critical path, batch small ops, enable graph mode / task queue).",
            "Recurring bubbles are covered by host activity without sync or communication markers: probable "
            "host launch lag.",
            false, "", "P0");
    // Single windows (no recurring risk tag) still deserve a look when their evidence points somewhere.
    for (std::size_t i = 0; i < topN; ++i) {
        const auto& w = a.windows[i];
        const auto has = [&](const char* l) {
            return std::find(w.labels.begin(), w.labels.end(), l) != w.labels.end();
        };
        const std::string after =
            w.after.empty() ? std::string("the next kernel") : "`" + w.after.front().name + "`";
        if (has("possible_untraced_host_blocking") && w.evidence.hostTraceExists &&
            !hasTag(a.globalTags, "UNTRACED_HOST_BLOCKING_RISK"))
            rec("step_group", w.groupId,
                fmt::format(
                    "Sample the host (py-spy / perf) around step {} before {}: nothing traced covers {}.",
                    w.stepId, after, w.id),
                fmt::format("{} ({:.3f} ms) has {:.0f} % host coverage.", w.id, nsToMs(w.span.length()),
                            w.evidence.coverage * 100),
                true, "host activity during the window is not traced", "P2");
        if (has("possible_host_launch_lag") && !hasTag(a.globalTags, "HOST_ORIGINATED_RISK"))
            rec("step_group", w.groupId,
                fmt::format("Look at the host work before {} in step {} ({}): the device waits for launches.",
                            after, w.stepId, w.id),
                fmt::format("{} ({:.3f} ms) is covered by host events without sync or communication markers.",
                            w.id, nsToMs(w.span.length())),
                false, "", "P2");
    }
    if (labelCount(a, "possible_sync_or_h2d", topN) > 0)
        rec("step_group", dom,
            "Remove host-device synchronisation from the step (.item(), .cpu(), .to() of results, blocking "
            "copies); "
            "use non_blocking copies and keep values on the device.",
            fmt::format("{} of the top {} windows are covered by sync/copy markers.",
                        labelCount(a, "possible_sync_or_h2d", topN), topN),
            false, "", "P1");
    if (labelCount(a, "possible_comm_wait", topN) > 0 || hasTag(a.globalTags, "COMM_SYNC_RISK"))
        rec("global", "",
            "Check the communication path: rank imbalance (compare the same step on other ranks), collective "
            "placement, "
            "and overlap of collectives with compute.",
            "Top windows are covered by communication markers or op waits overlap collectives.", true,
            "one rank's view cannot tell a slow peer from a slow link", "P1");
    // Only the ops whose cost is mostly wait (wait anchors) and whose wait overlaps a collective: the
    // ones a wait-sorted ranking would wrongly put on top. At most five, by average total cost.
    int polluted = 0;
    for (const auto& o : a.ops)
        if (o.waitPollution && o.waitAnchor && ++polluted <= 5)
            rec("op", o.name,
                "Do not rank this op by its wait time: re-check it on the communication / sync path that "
                "precedes it.",
                fmt::format("Its wait span overlaps a collective (wait {:.1f} us of {:.1f} us total cost): "
                            "wait_not_reliable_for_rootcause.",
                            o.waitAvgUs, o.totalCostAvgUs),
                false, "", "P2");
    for (const auto& ai : a.aicpuOps)
        if (ai.cls == "AICPU_EXPOSED_NOT_ALLOWED")
            rec("op", ai.name,
                "Replace the AI CPU kernel with an AI Core implementation or move it off the critical path.",
                fmt::format("{} calls, {:.3f} ms, {:.0f} % hidden under compute{}.", ai.calls,
                            nsToMs(ai.durTotal), ai.maskedRatio * 100,
                            ai.touchesBubble ? ", next to a significant bubble" : ""),
                false, "", ai.touchesBubble ? "P0" : "P1");
    if (bubbles && !a.stacksExist)
        rec("global", "", "Re-collect with with_stack=True.",
            "Bubbles exist but host events carry no Python call stacks, so the code "
            "behind a host-side cause cannot be located.",
            true, "no call stacks", "P1");
    if (!a.shapesExist)
        rec("global", "", "Re-collect with record_shapes=True.",
            "Shapes are missing: step grouping cannot tell shape changes from "
            "template changes and VARIABLE_SHAPE_SAME_TEMPLATE is skipped.",
            true, "no input shapes", a.groups.size() > 1 ? "P1" : "P3");
    if (hasTag(a.globalTags, "VARIABLE_SHAPE_SAME_TEMPLATE"))
        rec("step_group", dom,
            "Pad or bucket the input shapes (or compile per bucket) so steps of one template run the same "
            "kernels.",
            "Steps with the same kernel sequence ran with different input shapes.", false, "", "P2");
    if (hasFinding(findings, "first_step_compile"))
        rec("global", "",
            "Warm up (one prefill, one decode) before the profiler starts; compare steps from the second one "
            "on.",
            "The first step takes 10x or more the device time of the others: graph compilation is probably inside the capture (see collection-problems.md, \"Compilation inside the capture\").", false, "", "P1");
    if (hasFinding(findings, "level0_kernel_details") || !a.pmuExists)
        rec("global", "", "Collect with profiler_level=Level1 and aic_metrics=PipeUtilization.",
            "Without stream ids, shapes and PMU columns several analyses degrade (see collection-problems.md, \"Level0 kernel table\").", true,
            "no PMU / stream data", "P2");
    if (!a.hostTraceExists && bubbles)
        rec("global", "", "Collect the host activity (ProfilerActivity.CPU) together with the NPU.",
            "There is no host trace: every bubble cause is insufficient evidence.", true, "no host trace",
            "P0");
    if (hasTag(a.globalTags, "PARTIAL_CAPTURE_BOUNDARY"))
        rec("global", "",
            "Widen the capture by one step on each side (schedule warmup/active) so edge gaps can be judged.",
            "The largest gap or a step touches the capture edge; boundary gaps are not attributed.", false,
            "", "P3");
    std::stable_sort(
        a.recommendations.begin(), a.recommendations.end(),
        [](const Recommendation& x, const Recommendation& y) { return x.priority < y.priority; });
    (void)p;
}

void answerBubbleFirstQuestions(AnomalyResult& a, const StepSet& steps,
                                const std::vector<StepMetrics>& metrics) {
    const auto& r = a.rules;
    TimeNs total = 0, service = 0;
    // Saturating (time.h): windows of overlapping Step Id steps can together pass int64.
    for (const auto& w : a.windows)
        total = addSaturating(total, w.span.length());
    for (const auto& m : metrics)
        service = addSaturating(service, m.service);
    // 1. Significant bubbles?
    if (a.windows.empty()) {
        a.answers.push_back(fmt::format(
            "Significant bubbles: no — no device-idle window of {:.0f} us or more.", r.bubble_min_us));
    } else {
        const auto& w = a.windows.front();
        a.answers.push_back(
            fmt::format("Significant bubbles: yes — {} windows of {:.0f} us or more, {:.3f} ms in total "
                        "({:.1f} % of {:.3f} ms of step service time); "
                        "the largest is {} ({} in step {}, {:.3f} ms).",
                        a.windows.size(), r.bubble_min_us, nsToMs(total),
                        service ? 100.0 * static_cast<double>(total) / static_cast<double>(service) : 0.0,
                        nsToMs(service), w.id, windowScopeName(w.scope), w.stepId, nsToMs(w.span.length())));
    }
    // 2. Which group?
    if (a.groups.empty()) {
        a.answers.push_back("Which step group: none — there are no steps.");
    } else {
        const auto& g = a.groups.front();
        std::string stepsList;
        for (std::size_t i = 0; i < g.steps.size() && i < 8; ++i) {
            const auto& s = steps.steps[static_cast<std::size_t>(g.steps[i])];
            stepsList += (i ? ", " : "") + (s.number >= 0 ? std::to_string(s.number) : std::string("pseudo"));
        }
        if (g.steps.size() > 8) stepsList += ", …";
        // Which group holds the largest windows?
        std::map<std::string, TimeNs> bubbleByGroup;
        for (const auto& w : a.windows) {
            TimeNs& t = bubbleByGroup[w.groupId.empty() ? std::string("outside steps") : w.groupId];
            t = addSaturating(t, w.span.length()); // overlapping Step Id windows can pass int64
        }
        std::string holder;
        TimeNs most = 0;
        for (const auto& [gid, t] : bubbleByGroup)
            if (t > most) most = t, holder = gid;
        a.answers.push_back(fmt::format(
            "Which step group: dominant group {} ({} of {} steps: {}; {} kernels per step) — underfeed ratio "
            "avg {:.3f}, internal bubbles "
            "avg {:.3f} ms, largest internal bubble P95 {:.3f} ms; hidden issue {} (severity {}).{}",
            g.id, g.steps.size(), metrics.size(), stepsList, g.kernelCount, g.underfeedRatio.avg,
            g.internalTotal.avg, g.largestInternal.p95, a.hiddenIssuePresent ? "present" : "not present",
            a.severity,
            holder.empty()
                ? std::string()
                : fmt::format(" The significant windows are mostly in {} ({:.3f} ms of {:.3f} ms).", holder,
                              nsToMs(most), nsToMs(total))));
    }
    // 3. Where?
    if (!a.groups.empty()) {
        const auto& g = a.groups.front();
        a.answers.push_back(fmt::format(
            "Where the device idles in {}: {} — prelaunch avg {:.3f} ms, tail avg {:.3f} ms, internal "
            "bubbles avg {:.3f} ms, inter-step avg {:.3f} ms{}.",
            g.id, g.dominantIdlePattern, g.prelaunch.avg, g.tail.avg, g.internalTotal.avg, g.interStep.avg,
            g.recurring ? fmt::format("; the largest bubble recurs after `{}` in {:.0f} % of the steps",
                                      g.recurringPosition, g.recurringShare * 100)
                        : std::string()));
    } else {
        a.answers.push_back("Where the device idles: unknown — no steps.");
    }
    // 4. Host risk?
    const std::size_t topN =
        std::min<std::size_t>(a.windows.size(), static_cast<std::size_t>(std::max(0, r.top_windows)));
    std::map<std::string, int> labels;
    for (std::size_t i = 0; i < topN; ++i)
        for (const auto& l : a.windows[i].labels)
            ++labels[l];
    std::string lbl;
    for (const auto& [l, n] : labels)
        lbl += fmt::format("{}{} ({}/{})", lbl.empty() ? "" : ", ", l, n, topN);
    std::string risks;
    for (const char* t : {"HOST_ORIGINATED_RISK", "UNTRACED_HOST_BLOCKING_RISK", "COMM_SYNC_RISK"})
        if (std::find(a.globalTags.begin(), a.globalTags.end(), t) != a.globalTags.end())
            risks += std::string(risks.empty() ? "" : ", ") + t;
    if (topN == 0)
        a.answers.push_back("Host-side risk: none to judge — no significant window.");
    else
        a.answers.push_back(fmt::format("Host-side risk: {} — candidate causes over the top {} windows: {}. "
                                        "These are possible causes, not "
                                        "a verdict.",
                                        risks.empty() ? "no risk tag" : risks, topN, lbl));
    // 5. Evidence enough?
    std::vector<std::string> gaps;
    if (!a.hostTraceExists) gaps.push_back("there is no host trace");
    if (!a.stacksExist) gaps.push_back("host events carry no call stacks");
    if (!a.shapesExist) gaps.push_back("input shapes were not recorded");
    if (steps.source == StepSource::Pseudo) gaps.push_back("there are no step markers (one pseudo-step)");
    std::size_t boundary = 0, insufficient = 0;
    for (std::size_t i = 0; i < topN; ++i) {
        boundary += a.windows[i].boundary;
        insufficient += std::find(a.windows[i].labels.begin(), a.windows[i].labels.end(),
                                  "insufficient_evidence") != a.windows[i].labels.end();
    }
    if (boundary)
        gaps.push_back(fmt::format("{} of the top {} windows touch the capture edge", boundary, topN));
    if (insufficient && insufficient != boundary)
        gaps.push_back(fmt::format("{} of the top {} windows match no attribution rule", insufficient, topN));
    std::string gapText;
    for (std::size_t i = 0; i < gaps.size(); ++i)
        gapText += (i ? "; " : "") + gaps[i];
    if (gaps.empty())
        a.answers.push_back(fmt::format(
            "Is the evidence enough: yes for candidate causes (confidence {}): host trace, call stacks and "
            "shapes exist.",
            a.confidence));
    else
        a.answers.push_back(
            fmt::format("Is the evidence enough: {} (confidence {}) — evidence is insufficient because {}.",
                        a.confidence == "high" ? "mostly" : "no", a.confidence, gapText));
}

} // namespace bs
