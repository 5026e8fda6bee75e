#include "pipeline/recommendations.h"

#include "analysis/collection_advice.h"
#include "architecture/architecture_model.h"
#include "i18n/message.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace bs {

namespace {

bool hasTag(const std::vector<std::string>& v, const char* t) {
    return std::find(v.begin(), v.end(), t) != v.end();
}
bool hasLabel(const BubbleWindow& w, const char* l) {
    return std::find(w.labels.begin(), w.labels.end(), l) != w.labels.end();
}
bool hasFinding(const std::vector<Finding>& f, const char* id) {
    return std::any_of(f.begin(), f.end(), [&](const Finding& x) { return x.id == id; });
}
bool groupHasTag(const AnomalyResult& a, const std::string& groupId, const char* tag) {
    for (const auto& g : a.groups)
        if (g.id == groupId) return hasTag(g.tags, tag);
    return false;
}

std::size_t topCount(const AnomalyResult& a) {
    return std::min<std::size_t>(a.windows.size(),
                                 static_cast<std::size_t>(std::max(0, a.rules.top_windows)));
}

TimeNs bubbleTime(const AnomalyResult& a) {
    TimeNs t = 0;
    // Saturating (time.h): windows of overlapping Step Id steps can together pass int64.
    for (const auto& w : a.windows)
        t = addSaturating(t, w.span.length());
    return t;
}

// The windows carrying a label, over all significant windows: "15 significant windows (4.782 ms, 10.6 %
// of the bubble time)".
std::string labelWindows(const AnomalyResult& a, const char* label, std::size_t* count = nullptr) {
    std::size_t n = 0;
    TimeNs t = 0;
    for (const auto& w : a.windows)
        if (hasLabel(w, label)) ++n, t = addSaturating(t, w.span.length());
    if (count) *count = n;
    const TimeNs total = bubbleTime(a);
    return msg("{} significant window{} ({:.3f} ms, {:.1f} % of the bubble time)", n, n == 1 ? "" : "s",
               nsToMs(t), total ? 100.0 * static_cast<double>(t) / static_cast<double>(total) : 0.0);
}

std::string baseName(const std::string& path) {
    const auto pos = path.find_last_of('/');
    return pos == std::string::npos ? path : path.substr(pos + 1);
}

// The user's line behind a window (stack evidence), for an action: " Start at main.py:350 train (74 % of
// b0001 under it: main.py:350 train → … → aten::to)." Empty without a user frame.
std::string lineHint(const BubbleWindow& w) {
    if (w.stacks.userFrames.empty()) return {};
    const auto& l = w.stacks.userFrames.front();
    return msg(" Start at {} ({:.0f} % of {} under it: {}).", l.frame, l.share * 100, w.id, l.path);
}

// The largest window carrying a label whose host events name a user line.
const BubbleWindow* largestWithLine(const AnomalyResult& a, const char* label) {
    for (const auto& w : a.windows)
        if (hasLabel(w, label) && !w.boundary && !w.stacks.userFrames.empty()) return &w;
    return nullptr;
}

// The significant windows carrying a label, in group `group` ("" = any group): indices into a.windows.
std::vector<std::size_t> windowsWith(const AnomalyResult& a, const std::string& group, const char* label) {
    std::vector<std::size_t> v;
    for (std::size_t i = 0; i < a.windows.size(); ++i)
        if (hasLabel(a.windows[i], label) && (group.empty() || a.windows[i].groupId == group)) v.push_back(i);
    return v;
}

// Appends recommendations; the follow-up flag follows from its kind (empty: none).
struct Recs {
    AnomalyResult& a;
    Recommendation& add(const char* scope, std::string target, std::string action, std::string why,
                        const char* followup, std::string gap, const char* prio) {
        Recommendation r;
        r.scope = scope;
        r.target = std::move(target);
        r.action = std::move(action);
        r.why = std::move(why);
        r.followupRequired = *followup != 0;
        r.followupKind = followup;
        r.evidenceGap = std::move(gap);
        r.priority = prio;
        a.recommendations.push_back(std::move(r));
        return a.recommendations.back();
    }
    // §15: the cause the replay removes and the windows it lies in.
    static void cause(Recommendation& r, const char* what, std::vector<std::size_t> windows) {
        r.replayCause = what;
        r.replayWindows = std::move(windows);
    }
    void add(const char* scope, const CollectionAdvice& c, const char* followup, const char* prio) {
        add(scope, "", c.action, c.why, followup, c.gap, prio);
    }
};

void hostRiskRecommendations(Recs& rec, const AnomalyResult& a) {
    for (const auto& g : a.groups) {
        if (hasTag(g.tags, "UNTRACED_HOST_BLOCKING_RISK"))
            Recs::cause(rec.add("step_group", g.id,
                    msg("Sample the host during the bubbles (py-spy dump / perf record on the training or "
                        "serving "
                        "process) and look for locks, GC or blocking I/O."),
                    a.hostTraceExists
                        ? msg("The device idles ({:.0f} % underfeed) while host events cover only {:.1f} % "
                              "of its largest windows: the cause is possibly outside the traced code.",
                              g.underfeedRatio.avg * 100, g.topWindowCoverageMean * 100)
                        : msg("The device idles ({:.0f} % underfeed) and there is no host trace: sampling "
                              "the host is the only evidence of what it did meanwhile.",
                              g.underfeedRatio.avg * 100),
                    "host",
                    a.hostTraceExists ? msg("host activity during the windows is not traced")
                                      : msg("no host trace"),
                    "P0"), "untraced", windowsWith(a, g.id, "possible_untraced_host_blocking"));
        if (hasTag(g.tags, "HOST_ORIGINATED_RISK"))
            Recs::cause(rec.add(
                "step_group", g.id,
                msg("Reduce host work between launches at the recurring position (move Python bookkeeping "
                    "off "
                    "the critical path, batch small ops, enable graph mode / task queue)."),
                msg("Recurring bubbles are covered by host activity without sync or communication markers: "
                    "probable host launch lag."),
                "", "", "P0"), "launch_lag", windowsWith(a, g.id, "possible_host_launch_lag"));
    }
}

// Single windows (no risk tag on their group) still deserve a look when their evidence points somewhere.
void windowRecommendations(Recs& rec, const AnomalyResult& a) {
    for (std::size_t i = 0; i < topCount(a); ++i) {
        const auto& w = a.windows[i];
        const std::string after = w.after.empty() ? msg("the next kernel") : "`" + w.after.front().name + "`";
        if (hasLabel(w, "possible_untraced_host_blocking") && w.evidence.hostTraceExists &&
            !groupHasTag(a, w.groupId, "UNTRACED_HOST_BLOCKING_RISK"))
            Recs::cause(rec.add(
                "step_group", w.groupId,
                msg("Sample the host (py-spy / perf) around step {} before {}: nothing traced covers {}.{}",
                    w.stepId, after, w.id, lineHint(w)),
                msg("{} ({:.3f} ms) has {:.1f} % host coverage.", w.id, nsToMs(w.span.length()),
                    w.evidence.coverage * 100),
                "host", msg("host activity during the window is not traced"), "P2"), "untraced", {i});
        if (hasLabel(w, "possible_host_launch_lag") && !groupHasTag(a, w.groupId, "HOST_ORIGINATED_RISK"))
            Recs::cause(rec.add("step_group", w.groupId,
                    msg("Look at the host work before {} in step {} ({}): the device waits for launches.{}",
                        after, w.stepId, w.id, lineHint(w)),
                    msg("{} ({:.3f} ms) is covered by host events without sync or communication markers.",
                        w.id, nsToMs(w.span.length())),
                    "", "", "P2"), "launch_lag", {i});
    }
}

// Sync and communication labels over all significant windows, by their time.
void labelRecommendations(Recs& rec, const AnomalyResult& a) {
    const std::string dom = a.groups.empty() ? std::string() : a.groups.front().id;
    std::size_t sync = 0, comm = 0;
    const std::string syncText = labelWindows(a, "possible_sync_or_h2d", &sync);
    const std::string commText = labelWindows(a, "possible_comm_wait", &comm);
    // Scoped to the dominant group only when every sync window lies in it; else the whole capture.
    const bool syncInDom = std::all_of(a.windows.begin(), a.windows.end(), [&](const BubbleWindow& w) {
        return !hasLabel(w, "possible_sync_or_h2d") || w.groupId == dom;
    });
    if (sync > 0)
        Recs::cause(rec.add(syncInDom ? "step_group" : "global", syncInDom ? dom : std::string(),
                msg("Remove host-device synchronisation from the step (.item(), .cpu(), .to() of results, "
                    "blocking copies); use non_blocking copies and keep values on the device.") +
                    (largestWithLine(a, "possible_sync_or_h2d")
                         ? lineHint(*largestWithLine(a, "possible_sync_or_h2d"))
                         : std::string()),
                msg("{} {} covered by sync/copy markers.", syncText, sync == 1 ? "is" : "are"), "", "", "P1"),
                    "sync", windowsWith(a, std::string(), "possible_sync_or_h2d"));
    const bool polluted = hasTag(a.globalTags, "WAIT_POLLUTION_RISK");
    if (comm > 0 || hasTag(a.globalTags, "COMM_SYNC_RISK")) {
        const char* isAre = comm == 1 ? "is" : "are";
        const std::string why =
            comm > 0 ? (polluted ? msg("{} {} covered by communication markers; op waits overlap collectives "
                                       "(WAIT_POLLUTION_RISK).",
                                       commText, isAre)
                                 : msg("{} {} covered by communication markers.", commText, isAre))
                     : (polluted ? msg("Op waits overlap collectives (WAIT_POLLUTION_RISK).")
                                 : msg("Top windows are covered by communication markers."));
        rec.add("global", "",
                msg("Check the communication path: rank imbalance (compare the same step on other ranks), "
                    "collective placement, and overlap of collectives with compute."),
                why, "other_ranks", msg("one rank's view cannot tell a slow peer from a slow link"), "P1");
    }
}

void opRecommendations(Recs& rec, const AnomalyResult& a) {
    // Only the ops whose cost is mostly wait (wait anchors) and whose wait overlaps a collective: the
    // ones a wait-sorted ranking would wrongly put on top. At most five, by average total cost.
    int polluted = 0;
    for (const auto& o : a.ops)
        if (o.waitPollution && o.waitAnchor && ++polluted <= 5)
            rec.add(
                "op", o.name,
                msg("Do not rank this op by its wait time: re-check it on the communication / sync path that "
                    "precedes it."),
                msg("Its wait span overlaps a collective (wait {:.1f} us of {:.1f} us total cost): "
                    "wait_not_reliable_for_rootcause.",
                    o.waitAvgUs, o.totalCostAvgUs),
                "", "", "P2");
    for (const auto& ai : a.aicpuOps)
        if (ai.cls == "AICPU_EXPOSED_NOT_ALLOWED")
            Recs::cause(rec.add("op", ai.name,
                    msg("Replace the AI CPU kernel with an AI Core implementation or move it off the "
                        "critical path."),
                    ai.touchesBubble
                        ? msg("{} calls, {:.3f} ms, {:.0f} % hidden under compute, next to a significant "
                              "bubble.",
                              ai.calls, nsToMs(ai.durTotal), ai.maskedRatio * 100)
                        : msg("{} calls, {:.3f} ms, {:.0f} % hidden under compute.", ai.calls,
                              nsToMs(ai.durTotal), ai.maskedRatio * 100),
                    "", "", ai.touchesBubble ? "P0" : "P1"), "op", {});
    if (hasTag(a.globalTags, "VARIABLE_SHAPE_SAME_TEMPLATE"))
        rec.add("step_group", a.groups.empty() ? std::string() : a.groups.front().id,
                msg("Pad or bucket the input shapes (or compile per bucket) so steps of one template run the "
                    "same "
                    "kernels."),
                msg("Steps with the same kernel sequence ran with different input shapes."), "", "", "P2");
}

// What the collection lacks, read against profiler_info_*.json (collection_advice.h).
void collectionRecommendations(Recs& rec, const AnomalyResult& a, const Profile& p,
                               const std::vector<Finding>& findings) {
    const bool bubbles = !a.windows.empty();
    if (bubbles)
        if (auto c = hostTraceAdvice(p)) rec.add("global", *c, "host", "P0");
    if (bubbles)
        if (auto c = stackAdvice(p)) rec.add("global", *c, "recollect", "P1");
    if (auto c = shapeAdvice(p)) rec.add("global", *c, "recollect", a.groups.size() > 1 ? "P1" : "P3");
    if (auto c = pmuAdvice(p, findings, a.pmuExists)) rec.add("global", *c, "recollect", "P2");
    if (auto c = truncatedTraceAdvice(p)) rec.add("global", *c, "recollect", "P1");
    if (hasFinding(findings, "first_step_compile"))
        rec.add(
            "global", "",
            msg("Warm up (one prefill, one decode) before the profiler starts; compare steps from the second "
                "one on."),
            msg("The first step takes 10x or more the device time of the others: graph compilation is "
                "probably "
                "inside the capture (see collection-problems.md, \"Compilation inside the capture\")."),
            "", "", "P1");
    // A cut trace has its own advice above; widening the capture helps only when an edge window is the cause.
    const bool edgeWindow = bubbles && a.windows.front().boundary;
    if (hasTag(a.globalTags, "PARTIAL_CAPTURE_BOUNDARY") && (edgeWindow || !p.inventory.traceTruncated))
        rec.add("global", "",
                msg("Widen the capture by one step on each side (schedule warmup/active) so edge gaps can be "
                    "judged."),
                msg("The largest gap or a step touches the capture edge; boundary gaps are not attributed."),
                "", "", "P3");
}

// What the layers of LayerBoundaryBubbles are, in a sentence (its `layers` stays the recommendation's
// target).
std::string layersName(const std::string& layers) {
    if (layers == "attention-anchored layers") return msg("attention-anchored layers");
    if (layers == "pattern structures") return msg("pattern structures");
    return layers;
}

// §10: inter-structure bubbles → host dispatch between layers. Raised when a significant window contains or
// touches a layer start; P1 when those windows hold at least half of the significant bubble time, else P2.
// Not a follow-up of its own: the labels of those windows (and their follow-ups above) say what the trace
// shows; this names where to look in the code.
void layerBoundaryRecommendation(Recs& rec, const LayerBoundaryBubbles& b) {
    if (b.windows == 0 || b.atLayerStart == 0 || b.layers.empty()) return;
    rec.add(
        "structure", b.layers,
        msg("Look at the host code that dispatches each layer (Python between layers, per-layer "
            "synchronisation or .item()/.cpu() calls, per-layer allocation): the device waits for the next "
            "layer's first kernel."),
        msg("{} of {} significant bubble windows ({:.3f} of {:.3f} ms, {:.1f} % of the bubble "
            "time) contain or touch the start of one of the {}.",
            b.atLayerStart, b.windows, nsToMs(b.atLayerStartTime), nsToMs(b.windowTime),
            b.atLayerStartShare * 100, layersName(b.layers)),
        "", "", b.atLayerStartShare >= 0.5 ? "P1" : "P2");
}

// requires_host_followup and each group's requires_followup, from the host follow-ups recommended.
void settleFollowup(AnomalyResult& a) {
    a.requiresHostFollowup = false;
    for (auto& g : a.groups) {
        g.requiresFollowup = false;
        for (const auto& r : a.recommendations)
            if (isHostFollowup(r) && (r.scope == "global" || (r.scope == "step_group" && r.target == g.id)))
                g.requiresFollowup = true;
    }
    for (const auto& r : a.recommendations)
        a.requiresHostFollowup |= isHostFollowup(r);
}

} // namespace

bool isHostFollowup(const Recommendation& r) {
    return r.followupRequired && r.followupKind == "host";
}

std::vector<std::string> dataErrorNames(const std::vector<Finding>& findings) {
    std::vector<std::string> out;
    for (const auto& f : findings) {
        if (f.severity != Severity::Error) continue;
        std::string where = f.file.empty() ? std::string() : msg(" in {}", baseName(f.file));
        if (f.line > 0) where += msg(" at line {}", f.line);
        if (f.byteOffset >= 0) where += msg(" at byte {}", f.byteOffset);
        out.push_back(f.id + where);
    }
    return out;
}

void lowerConfidenceForDataErrors(AnomalyResult& a, const std::vector<Finding>& findings) {
    if (dataErrorNames(findings).empty()) return;
    a.confidence = a.confidence == "high" ? "medium" : "low";
    if (a.confidence == "low")
        for (auto& c : a.softCauses)
            c.confidence = "low";
}

void addRecommendations(AnomalyResult& a, const Profile& p, const std::vector<Finding>& findings,
                        const LayerBoundaryBubbles* layerBoundaries) {
    Recs rec{a};
    hostRiskRecommendations(rec, a);
    windowRecommendations(rec, a);
    labelRecommendations(rec, a);
    opRecommendations(rec, a);
    if (layerBoundaries) layerBoundaryRecommendation(rec, *layerBoundaries);
    collectionRecommendations(rec, a, p, findings);
    std::stable_sort(
        a.recommendations.begin(), a.recommendations.end(),
        [](const Recommendation& x, const Recommendation& y) { return x.priority < y.priority; });
    settleFollowup(a);
}

namespace {

std::string answerSignificant(const AnomalyResult& a, const std::vector<StepMetrics>& metrics) {
    TimeNs service = 0;
    for (const auto& m : metrics)
        service = addSaturating(service, m.service);
    if (a.windows.empty())
        return msg("Significant bubbles: no — no device-idle window of {:.0f} us or more.",
                   a.rules.bubble_min_us);
    const TimeNs total = bubbleTime(a);
    const auto& w = a.windows.front();
    return msg("Significant bubbles: yes — {} windows of {:.0f} us or more, {:.3f} ms in total "
               "({:.1f} % of {:.3f} ms of step service time); the largest is {} ({} in step {}, {:.3f} ms).",
               a.windows.size(), a.rules.bubble_min_us, nsToMs(total),
               service ? 100.0 * static_cast<double>(total) / static_cast<double>(service) : 0.0,
               nsToMs(service), w.id, windowScopeName(w.scope), w.stepId, nsToMs(w.span.length()));
}

std::string answerGroup(const AnomalyResult& a, const StepSet& steps,
                        const std::vector<StepMetrics>& metrics) {
    if (a.groups.empty()) return msg("Which step group: none — there are no steps.");
    const auto& g = a.groups.front();
    std::string stepsList;
    for (std::size_t i = 0; i < g.steps.size() && i < 8; ++i) {
        const auto& s = steps.steps[static_cast<std::size_t>(g.steps[i])];
        stepsList += (i ? ", " : "") + (s.number >= 0 ? std::to_string(s.number) : std::string("pseudo"));
    }
    if (g.steps.size() > 8) stepsList += ", …";
    // Which group holds the largest windows?
    // Windows outside every step are keyed "outside steps" (the order of the map decides ties, as before).
    std::map<std::string, TimeNs> bubbleByGroup;
    for (const auto& w : a.windows) {
        TimeNs& t = bubbleByGroup[w.groupId.empty() ? std::string("outside steps") : w.groupId];
        t = addSaturating(t, w.span.length()); // overlapping Step Id windows can pass int64
    }
    std::string holder;
    TimeNs most = 0;
    for (const auto& [gid, t] : bubbleByGroup)
        if (t > most) most = t, holder = gid;
    const bool outside = holder == "outside steps"; // group ids are g0, g1, …
    const std::string mostly =
        holder.empty() ? std::string()
                       : msg(" The significant windows are mostly in {} ({:.3f} ms of {:.3f} ms).",
                             outside ? msg("outside steps") : holder, nsToMs(most), nsToMs(bubbleTime(a)));
    if (a.hiddenIssuePresent)
        return msg(
            "Which step group: dominant group {} ({} of {} steps: {}; {} kernels per step) — underfeed ratio "
            "avg {:.3f}, internal bubbles avg {:.3f} ms, largest internal bubble P95 {:.3f} ms; hidden "
            "issue present (severity {}).{}",
            g.id, g.steps.size(), metrics.size(), stepsList, g.kernelCount, g.underfeedRatio.avg,
            g.internalTotal.avg, g.largestInternal.p95, a.severity, mostly);
    return msg(
        "Which step group: dominant group {} ({} of {} steps: {}; {} kernels per step) — underfeed ratio "
        "avg {:.3f}, internal bubbles avg {:.3f} ms, largest internal bubble P95 {:.3f} ms; hidden "
        "issue not present (severity {}).{}",
        g.id, g.steps.size(), metrics.size(), stepsList, g.kernelCount, g.underfeedRatio.avg,
        g.internalTotal.avg, g.largestInternal.p95, a.severity, mostly);
}

std::string answerWhere(const AnomalyResult& a) {
    if (a.groups.empty()) return msg("Where the device idles: unknown — no steps.");
    const auto& g = a.groups.front();
    return msg(
        "Where the device idles in {}: {} — prelaunch avg {:.3f} ms, tail avg {:.3f} ms, internal bubbles "
        "avg "
        "{:.3f} ms, inter-step avg {:.3f} ms{}{}.",
        g.id, g.dominantIdlePattern, g.prelaunch.avg, g.tail.avg, g.internalTotal.avg, g.interStep.avg,
        g.recurring ? msg("; the largest bubble recurs after `{}` in {:.0f} % of the steps",
                          g.recurringPosition, g.recurringShare * 100)
                    : std::string(),
        g.recurringUserLines.empty()
            ? std::string()
            : msg("; `{}` is the top user line behind a window in {} of its {} steps",
                  g.recurringUserLines.front().frame, g.recurringUserLines.front().steps, g.steps.size()));
}

// Every label of soft_root_cause_summary, by its share of all significant bubble time.
std::string answerHostRisk(const AnomalyResult& a) {
    if (a.windows.empty()) return msg("Host-side risk: none to judge — no significant window.");
    std::string risks;
    for (const char* t : {"HOST_ORIGINATED_RISK", "UNTRACED_HOST_BLOCKING_RISK", "COMM_SYNC_RISK"})
        if (hasTag(a.globalTags, t)) risks += std::string(risks.empty() ? "" : ", ") + t;
    std::string labels;
    double shares = 0;
    for (const auto& c : a.softCauses) {
        labels += labels.empty() ? msg("{} {:.1f} % ({} window{})", c.label, c.share * 100, c.windowCount,
                                       c.windowCount == 1 ? "" : "s")
                                 : msg(", {} {:.1f} % ({} window{})", c.label, c.share * 100, c.windowCount,
                                       c.windowCount == 1 ? "" : "s");
        shares += c.share;
    }
    return msg("Host-side risk: {} — candidate causes over all {} significant windows ({:.3f} ms), by "
               "share of that time: {}{}. These are possible causes, not a verdict.",
               risks.empty() ? msg("no risk tag") : risks, a.windows.size(), nsToMs(bubbleTime(a)), labels,
               shares > 1.0005 ? msg(" (a window may carry several labels)") : std::string());
}

std::string answerEvidence(const AnomalyResult& a, const StepSet& steps,
                           const std::vector<Finding>& findings) {
    std::vector<std::string> gaps;
    const auto errors = dataErrorNames(findings);
    if (!errors.empty()) {
        std::string e;
        for (const auto& x : errors)
            e += (e.empty() ? "" : ", ") + x;
        gaps.push_back(msg("the data has {} error finding{} ({}), which lower{} the confidence",
                           errors.size(), errors.size() == 1 ? "" : "s", e, errors.size() == 1 ? "s" : ""));
    }
    if (!a.hostTraceExists) gaps.push_back(msg("there is no host trace"));
    if (a.hostTraceExists && !a.stacksExist) gaps.push_back(msg("host events carry no call stacks"));
    if (!a.shapesExist) gaps.push_back(msg("input shapes were not recorded"));
    if (steps.source == StepSource::Pseudo)
        gaps.push_back(msg("there are no step markers (one pseudo-step)"));
    const std::size_t topN = topCount(a);
    std::size_t boundary = 0, insufficient = 0, covN = 0;
    double cov = 0;
    for (std::size_t i = 0; i < topN; ++i) {
        const auto& w = a.windows[i];
        boundary += w.boundary;
        insufficient += hasLabel(w, "insufficient_evidence");
        if (!w.boundary) cov += w.evidence.coverage, ++covN;
    }
    // The same coverage condition as the confidence (§10.1).
    if (a.hostTraceExists && covN && cov / static_cast<double>(covN) < 0.10)
        gaps.push_back(msg("host events cover only {:.1f} % of the top windows on average",
                           100 * cov / static_cast<double>(covN)));
    if (boundary) gaps.push_back(msg("{} of the top {} windows touch the capture edge", boundary, topN));
    if (insufficient && insufficient != boundary)
        gaps.push_back(msg("{} of the top {} windows match no attribution rule", insufficient, topN));
    if (gaps.empty())
        return msg("Is the evidence enough: yes for candidate causes (confidence {}): host trace, call "
                   "stacks and shapes exist, the host trace covers the top windows and no data error was "
                   "found.",
                   a.confidence);
    std::string gapText;
    for (std::size_t i = 0; i < gaps.size(); ++i)
        gapText += (i ? "; " : "") + gaps[i];
    if (a.confidence == "high")
        return msg("Is the evidence enough: mostly (confidence {}) — evidence is insufficient because {}.",
                   a.confidence, gapText);
    return msg("Is the evidence enough: no (confidence {}) — evidence is insufficient because {}.",
               a.confidence, gapText);
}

} // namespace

void answerBubbleFirstQuestions(AnomalyResult& a, const StepSet& steps,
                                const std::vector<StepMetrics>& metrics,
                                const std::vector<Finding>& findings) {
    a.answers.push_back(answerSignificant(a, metrics));
    a.answers.push_back(answerGroup(a, steps, metrics));
    a.answers.push_back(answerWhere(a));
    a.answers.push_back(answerHostRisk(a));
    a.answers.push_back(answerEvidence(a, steps, findings));
}

bool comesBefore(const Recommendation& x, const Recommendation& y) {
    if (x.priority != y.priority) return x.priority < y.priority;
    if (x.replay.has_value() != y.replay.has_value()) return x.replay.has_value();
    return x.replay && x.replay->gainMs > y.replay->gainMs;
}

} // namespace bs
