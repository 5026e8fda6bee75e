#include "report/anomaly_report.h"

#include "analysis/collection_advice.h"
#include "pipeline/recommendations.h"
#include "report/gain_text.h"
#include "analysis/skipped_rows.h"
#include "analysis/stack_evidence.h"
#include "i18n/escape.h"

#include "i18n/message.h"
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace bs {

namespace {

// Every string that comes from the profiling folder (names, paths, texts quoting them) goes through one
// of these: text → esc (escCell in a table cell), a name → code (cell in a table cell).
std::string esc(std::string_view s) {
    return mdText(s);
}
std::string code(std::string_view s) {
    return mdCode(s);
}
std::string cell(std::string_view s) {
    return mdCode(s, MdPlace::TableCell);
}
std::string escCell(std::string_view s) {
    return mdText(s, MdPlace::TableCell);
}

// Said once above the windows: the user-code rule when stacks exist, their absence when they do not.
void stackRuleOrAbsence(std::string& o, const AnomalyResult& a) {
    if (a.hostTraceExists && !a.stacksExist)
        o += msg("No call stacks collected: no host event carries a Python call stack, so no window can name the "
            "line of code behind it (the recommendations say what the collection lacks).\n\n");
    else if (a.stacksExist)
        o += msg("Lines of code behind each window: every host event overlapping it is put under the innermost "
            "user frame of its call stack; {}. Host time is the union of those events inside the window on "
            "each thread (nested events counted once), summed over threads; the share is the union over all "
            "threads divided by the window.\n\n",
            esc(libraryRuleText()));
}

// The top user lines behind one window, with the library path under each.
void stackLines(std::string& o, const BubbleWindow& w) {
    if (!w.stacks.collected) return;
    if (w.stacks.userFrames.empty()) {
        if (w.stacks.eventsWithStack > 0)
            o += msg("\nNo user frame: the call stacks of the {} host event{} in the window hold library frames "
                "only.\n",
                w.stacks.eventsWithStack, w.stacks.eventsWithStack == 1 ? "" : "s");
        else if (w.stacks.eventsInWindow > 0)
            o += msg("\nNone of the {} host event{} in the window carries a call stack.\n", w.stacks.eventsInWindow,
                w.stacks.eventsInWindow == 1 ? "" : "s");
        return;
    }
    o += msg("\nLines of user code behind the window ({} of {} host events carry a call stack):\n\n",
        w.stacks.eventsWithStack, w.stacks.eventsInWindow);
    o += msg("| User line | Host time | Share of window | Events | Path |\n|---|---|---|---|---|\n");
    for (const auto& l : w.stacks.userFrames)
        o += fmt::format("| {} | {:.3f} ms | {:.1f} % | {} | {} |\n", cell(l.frame), nsToMs(l.hostTime), l.share * 100,
            l.events, escCell(l.path));
}
std::string yesNo(bool b) {
    return b ? msg("yes") : msg("no");
}
std::string ratioText(const HostEvidence& e, double v) {
    return e.hostTraceExists ? fmt::format("{:.2f}", v) : msg("n/a");
}
std::string join(const std::vector<std::string>& v, const char* sep = ", ") {
    std::string o;
    for (std::size_t i = 0; i < v.size(); ++i)
        o += (i ? sep : "") + v[i];
    return o;
}
std::string stepName(const StepSet& s, int i) {
    const auto& st = s.steps[static_cast<std::size_t>(i)];
    return st.number >= 0 ? std::to_string(st.number) : msg("pseudo");
}
// Relative time in ms from the capture start, easier to read than 16-digit µs.
std::string rel(TimeNs t, TimeNs origin) {
    const TimeNs d = t - origin;
    return fmt::format("{}{:.3f} ms", d < 0 ? "−" : "+", nsToMs(d < 0 ? -d : d));
}

// The user line that recurs behind a group's windows (StepGroup::recurringUserLines, counted once per step).
void recurringUserLine(std::string& o, const StepGroup& g) {
    if (g.recurringUserLines.empty()) return;
    const auto& l = g.recurringUserLines.front();
    o += msg(
                   "  - {} is the top user line behind a bubble window in {} of its {} steps ({:.3f} ms of host "
                   "time under it in those windows).\n",
                   code(l.frame), l.steps, g.steps.size(), nsToMs(l.hostTime));
}

// ANALYSIS.md §1: device time spent in communication per step, and the collectives that mostly waited —
// that waiting is the slowest peer's time, not this rank's.
void communicationSection(std::string& o, const AnalysisResult& r) {
    const AnomalyResult& a = r.anomaly;
    const bool anyComm = std::any_of(a.stepComm.begin(), a.stepComm.end(),
                                     [](const StepComm& c) { return c.exposed > 0 || c.collectives > 0; });
    if (!anyComm && a.collectives.empty()) return;
    o += msg("### Communication time\n\n");
    o += msg("Exposed = HCCL time not overlapped by other kernels; elapse, wait, transit, synchronization and "
         "idle "
         "come from communication.json (idle: inside the collective, neither waiting nor transferring).\n\n"
         "| Step | Exposed | Elapse | Wait | Transit | Sync | Idle | Collectives | COMM_WAIT_HEAVY |\n"
         "|---|---|---|---|---|---|---|---|---|\n");
    for (std::size_t i = 0; i < a.stepComm.size() && i < r.metrics.size(); ++i) {
        const auto& c = a.stepComm[i];
        auto file = [&](TimeNs v) {
            return c.fromJson ? fmt::format("{:.3f} ms", nsToMs(v)) : msg("n/a");
        };
        o += fmt::format("| {} | {:.3f} ms | {} | {} | {} | {} | {} | {} | {} |\n",
                         stepName(r.steps, static_cast<int>(i)), nsToMs(c.exposed), file(c.elapse),
                         file(c.wait), file(c.transit), file(c.sync), file(c.idle),
                         c.fromJson ? std::to_string(c.collectives) : msg("n/a"),
                         c.fromJson ? std::to_string(c.waitHeavy) : msg("n/a"));
    }
    std::vector<const CollectiveWait*> byWait;
    for (const auto& c : a.collectives)
        byWait.push_back(&c);
    std::stable_sort(byWait.begin(), byWait.end(),
                     [](const CollectiveWait* x, const CollectiveWait* y) { return x->wait > y->wait; });
    if (!byWait.empty()) {
        o += msg(
            "\nCollectives by wait (top {} of {}; wait ratio = Wait / (Wait + Transit), "
            "COMM_WAIT_HEAVY above {:.2f}):\n\n| Collective | Step | Elapse | Wait | Transit | Sync | Idle | "
            "Wait ratio | Tags |\n|---|---|---|---|---|---|---|---|---|\n",
            std::min<std::size_t>(byWait.size(), 10), byWait.size(), a.rules.comm_wait_heavy_ratio);
        for (std::size_t i = 0; i < byWait.size() && i < 10; ++i) {
            const auto& c = *byWait[i];
            o += fmt::format(
                "| {} | {} | {:.3f} ms | {:.3f} ms | {:.3f} ms | {:.3f} ms | {:.3f} ms | {:.2f} | {} |\n",
                cell(c.name), c.stepIndex >= 0 ? stepName(r.steps, c.stepIndex) : std::string("-"),
                nsToMs(c.elapse), nsToMs(c.wait), nsToMs(c.transit), nsToMs(c.sync), nsToMs(c.idle),
                c.waitRatio, c.tags.empty() ? std::string("-") : join(c.tags));
        }
    }
    if (std::any_of(a.collectives.begin(), a.collectives.end(),
                    [](const CollectiveWait& c) { return !c.tags.empty(); }))
        o += msg(
            "\nA COMM_WAIT_HEAVY collective spent most of its non-idle time waiting for its peers: that wait "
            "belongs to the slowest peer, not to this rank (its idle time is neither wait nor transfer). "
            "Compare the same collective on the other ranks "
            "(analyze their parent folder); the cluster section aligns their clocks and names who arrived last.\n");
    o += "\n";
}

// The Follow-up column: "yes — host" / "yes — re-collect" / "yes — other ranks" / "no".
std::string followupCell(const Recommendation& rc) {
    if (!rc.followupRequired) return msg("no");
    if (rc.followupKind == "host") return msg("yes — host");
    if (rc.followupKind == "recollect") return msg("yes — re-collect");
    if (rc.followupKind == "other_ranks") return msg("yes — other ranks");
    return msg("yes");
}

// The host follow-up sentence says what requires_host_followup says, and lists the recommendations that
// make it so; follow-ups of other kinds are listed apart, so "no host follow-up" never sits next to an
// unexplained "yes".
void followupSection(std::string& o, const AnomalyResult& a) {
    std::vector<const Recommendation*> host, other;
    for (const auto& rc : a.recommendations)
        if (isHostFollowup(rc))
            host.push_back(&rc);
        else if (rc.followupRequired)
            other.push_back(&rc);
    auto list = [&](const std::vector<const Recommendation*>& v) {
        for (const auto* rc : v)
            o += fmt::format("- {} ({}{}): {}\n", rc->priority, rc->scope,
                             rc->target.empty() ? "" : " " + code(rc->target), esc(rc->action));
    };
    if (a.requiresHostFollowup) {
        o += msg("Host follow-up is required ({} recommendation{} with follow-up \"yes — host\"): "
                         "the capture does not show what the host did during these windows.\n\n",
                         host.size(), host.size() == 1 ? "" : "s");
        list(host);
    } else {
        o += msg("No host follow-up is required: no recommendation asks to sample the host or to collect host "
             "activity.\n");
    }
    if (!other.empty()) {
        o += msg("\nOther follow-ups ({}, not on the host):\n\n", other.size());
        list(other);
    }
    o += "\n";
}

} // namespace

std::string defaultAnomalyReportName(const Profile& p) {
    return "anomaly_report_" + std::filesystem::path(p.inventory.rankDir).filename().string() + ".md";
}

std::string renderAnomalyReport(const Profile& p, const AnalysisResult& r) {
    return renderAnomalyReport(p, r, {});
}

std::string renderAnomalyReport(const Profile& p, const AnalysisResult& r,
                                const std::function<std::string(const std::string& windowId)>& picture) {
    const AnomalyResult& a = r.anomaly;
    const TimeNs origin = a.captureStart;
    std::string o;
    o += msg("# Anomaly report — {}\n\n", esc(p.inventory.rankLabel));
    o += msg("| Item | Value |\n|---|---|\n");
    o += msg("| Profiling folder | {} |\n", cell(p.inventory.rankDir));
    o += msg("| Kernel source | {}{} |\n", kernelSourceName(p.inventory.kernelSource),
        p.inventory.kernelDetailsLevel.empty() ? ""
                                               : msg(" ({} header)", escCell(p.inventory.kernelDetailsLevel)));
    o += msg("| Kernels | {} on the device |\n", p.kernels.size());
    o += msg("| Steps | {} ({}) |\n", r.steps.steps.size(), stepSourceName(r.steps.source));
    o += msg("| Capture (device) | {:.3f} ms, busy {:.3f} ms, idle {:.3f} ms ({:.1f} %) |\n",
        nsToMs(a.captureEnd - a.captureStart), nsToMs(a.globalBusy),
        nsToMs(a.captureEnd - a.captureStart - a.globalBusy),
        a.captureEnd > a.captureStart
            ? 100.0 * static_cast<double>(a.captureEnd - a.captureStart - a.globalBusy) /
                  static_cast<double>(a.captureEnd - a.captureStart)
            : 0.0);
    o += msg("| Host trace / call stacks / shapes / PMU | {} / {} / {} / {} |\n", yesNo(a.hostTraceExists),
        yesNo(a.stacksExist), yesNo(a.shapesExist), yesNo(a.pmuExists));
    o += msg("| Confidence | {} |\n", a.confidence);
    const auto errors = dataErrorNames(r.findings);
    if (!errors.empty()) {
        std::vector<std::string> named;
        for (const auto& e : errors)
            named.push_back(escCell(e));
        o += msg("| Data errors | {} (see Data quality) |\n", join(named));
    }
    o += "\n";
    o += msg("Times are relative to the first device kernel (+0.000 ms = {} us).\n\n", formatNsAsMicros(origin));

    // ---------------------------------------------------------------- Hidden Issue Discovery
    o += msg("## 1. Hidden Issue Discovery\n\n");
    if (a.groups.empty()) {
        o += msg("No step could be formed: there are no kernels.\n\n");
    } else {
        const auto& g = a.groups.front();
        std::vector<std::string> names;
        for (int s : g.steps)
            names.push_back(stepName(r.steps, s));
        o += msg("Dominant step group **{}**: {} of {} step{} ({} {}), {} kernels per step. Hidden issue: "
            "**{}** (severity {}){}.\n\n",
            g.id, g.steps.size(), r.metrics.size(), r.metrics.size() == 1 ? "" : "s",
            names.size() == 1 ? msg("step") : msg("steps"), join(names), g.kernelCount,
            a.hiddenIssuePresent ? msg("present") : msg("not present"), a.severity,
            a.hiddenIssueReasons.empty() ? "" : " — " + esc(join(a.hiddenIssueReasons, "; ")));
        o += msg("| Metric | avg | median | P90 | P95 |\n|---|---|---|---|---|\n");
        auto row = [&](const std::string& n, const MetricStats& m, const char* unit) {
            o += fmt::format("| {} | {:.3f} {} | {:.3f} {} | {:.3f} {} | {:.3f} {} |\n", n, m.avg, unit, m.median, unit,
                m.p90, unit, m.p95, unit);
        };
        row(msg("service"), g.service, "ms");
        row(msg("device busy union"), g.busy, "ms");
        row(msg("underfeed ratio"), g.underfeedRatio, "");
        row(msg("prelaunch gap"), g.prelaunch, "ms");
        row(msg("tail gap"), g.tail, "ms");
        row(msg("internal bubbles (total)"), g.internalTotal, "ms");
        row(msg("largest internal bubble"), g.largestInternal, "ms");
        row(msg("bubble count"), g.bubbleCount, "");
        row(msg("inter-step idle"), g.interStep, "ms");
        o += msg("\nDominant idle pattern: **{}**. Tags: {}.\n\n", g.dominantIdlePattern,
            g.tags.empty() ? msg("none") : join(g.tags));
    }
    const std::size_t topN =
        std::min<std::size_t>(a.windows.size(), static_cast<std::size_t>(std::max(0, a.rules.top_windows)));
    o += msg("### Top {} bubble windows (of {} of {:.0f} us or more)\n\n", topN, a.windows.size(),
        a.rules.bubble_min_us);
    if (topN == 0) {
        o += msg("There is no device-idle window of {:.0f} us or more.\n\n", a.rules.bubble_min_us);
    } else {
        o += msg("| Id | Step | Group | Scope | Start | Duration | Coverage | Sync | Comm | Parallelism | "
            "Candidate causes |\n");
        o += "|---|---|---|---|---|---|---|---|---|---|---|\n";
        for (std::size_t i = 0; i < topN; ++i) {
            const auto& w = a.windows[i];
            o += fmt::format("| {} | {} | {} | {}{} | {} | {:.3f} ms | {} | {} | {} | {} | {} |\n", w.id, w.stepId,
                w.groupId.empty() ? "-" : w.groupId, windowScopeName(w.scope),
                w.boundary ? msg(" (capture boundary)") : std::string(), rel(w.span.a, origin), nsToMs(w.span.length()),
                ratioText(w.evidence, w.evidence.coverage), ratioText(w.evidence, w.evidence.syncRatio),
                ratioText(w.evidence, w.evidence.commRatio),
                w.evidence.parallelism ? fmt::format("{:.2f}", *w.evidence.parallelism) : msg("n/a"),
                join(w.labels));
        }
        o += "\n";
        stackRuleOrAbsence(o, a);
        const auto skipped = skippedRowsInWindows(p, r.findings, a.windows);
        for (std::size_t i = 0; i < topN; ++i) {
            const auto& w = a.windows[i];
            o += msg("#### {} — {:.3f} ms {} gap in step {} ({} → {})\n\n", w.id, nsToMs(w.span.length()),
                windowScopeName(w.scope), w.stepId, rel(w.span.a, origin), rel(w.span.b, origin));
            if (picture)
                if (const std::string img = picture(w.id); !img.empty())
                    o += msg("![{} on the timeline: the window with the kernels and host activity around it]({})\n\n", w.id,
                        img);
            o += msg("Raw kernels around the window:\n\n| Side | Kernel | Task type | Start | Duration | Wait | "
                "Stream |\n|---|---|---|---|---|---|---|\n");
            for (auto it = w.before.rbegin(); it != w.before.rend(); ++it)
                o += msg("| before | {} | {} | {} | {:.3f} us | {:.3f} us | {} |\n", cell(it->name),
                    it->taskType.empty() ? "-" : escCell(it->taskType), rel(it->start, origin),
                    nsToUs(it->dur), nsToUs(it->wait), it->stream >= 0 ? std::to_string(it->stream) : "-");
            o += msg("| *window* | *device idle* | | {} | {:.3f} us | | |\n", rel(w.span.a, origin),
                nsToUs(w.span.length()));
            for (const auto& k : w.after)
                o += msg("| after | {} | {} | {} | {:.3f} us | {:.3f} us | {} |\n", cell(k.name),
                    k.taskType.empty() ? "-" : escCell(k.taskType), rel(k.start, origin), nsToUs(k.dur),
                    nsToUs(k.wait), k.stream >= 0 ? std::to_string(k.stream) : "-");
            if (!w.evidence.topEvents.empty()) {
                o += msg("\nHost events overlapping the window: ");
                std::vector<std::string> ev;
                for (const auto& h : w.evidence.topEvents)
                    ev.push_back(
                        msg("{} on {} ({:.1f} us)", code(h.name), esc(h.thread), nsToUs(h.overlap)));
                o += fmt::format("{}.\n", join(ev, msg("; ").c_str()));
            } else if (w.evidence.hostTraceExists) {
                o += msg("\nNo host event overlaps the window.\n");
            }
            stackLines(o, w);
            o += msg("\nEvidence chain:\n");
            for (std::size_t k = 0; k < w.labels.size(); ++k)
                o += fmt::format("- {} — {}.\n", code(w.labels[k]),
                    k < w.labelEvidence.size() ? esc(w.labelEvidence[k]) : std::string());
            for (const auto& row : skipped[i])
                o += msg("- Bounded by a skipped malformed row: {} line {} was skipped ({}); its kernel may fill "
                    "part of this window, so the window may be shorter or not exist.\n",
                    code(std::filesystem::path(row.file).filename().string()), row.line, code(row.findingId));
            o += "\n";
        }
    }
    o += msg("### Periodicity\n\n");
    for (const auto& g : a.groups) {
        if (g.recurring)
            o += msg("- {}: the largest bubble recurs after {} in {:.0f} % of its {} steps "
                "(RECURRING_BUBBLE_PATTERN).\n",
                g.id, code(g.recurringPosition), g.recurringShare * 100, g.steps.size());
        else
            o += msg("- {}: no recurring bubble position ({} step{}).\n", g.id, g.steps.size(),
                g.steps.size() == 1 ? "" : "s");
        recurringUserLine(o, g);
    }
    o += msg("\n### Host-evidence coverage\n\n");
    if (!a.hostTraceExists) {
        o += msg("There is no host trace: host coverage cannot be measured and every cause is insufficient "
            "evidence.\n\n");
    } else {
        for (const auto& g : a.groups)
            if (g.topWindowCoverageKnown)
                o += msg("- {}: mean host coverage of its largest windows {:.2f}.\n", g.id,
                    g.topWindowCoverageMean);
        o += "\n";
    }
    o += msg("### Candidate causes (soft attribution)\n\n");
    TimeNs bubbleTime = 0;
    for (const auto& w : a.windows)
        bubbleTime = addSaturating(bubbleTime, w.span.length());
    if (a.softCauses.empty()) o += msg("No window to attribute.\n\n");
    if (!a.softCauses.empty())
        o += msg("Over all {} significant windows ({:.3f} ms), by share of that time:\n\n", a.windows.size(),
            nsToMs(bubbleTime));
    for (const auto& c : a.softCauses) {
        o += msg("- {} — {} window{}, {:.3f} ms ({:.1f} % of the significant bubble time); confidence {}, "
            "scope {}{}:\n",
            code(c.label), c.windowCount, c.windowCount == 1 ? "" : "s", nsToMs(c.duration), c.share * 100,
            c.confidence, c.scope, c.target.empty() ? "" : " " + esc(c.target));
        for (const auto& e : c.evidence)
            o += fmt::format("  - {}\n", esc(e));
    }
    o += msg("\nThese are possible causes from the host evidence inside each window, never a single verdict.\n\n");
    o += msg("### Follow-up sampling\n\n");
    followupSection(o, a);
    communicationSection(o, r);

    // ---------------------------------------------------------------- Five questions
    o += msg("## 2. Bubble-first Summary\n\n");
    const std::string qs[] = {msg("Are there significant bubbles?"), msg("Which step group holds them?"),
                              msg("Prelaunch, tail, internal or inter-step?"), msg("Is there a host-side risk?"),
                              msg("Is the evidence enough?")};
    if (!errors.empty())
        o += msg("**Data errors: {}.** The analysis ran on incomplete data, which lowers the confidence (now {}; "
            "see Data quality).\n\n",
            esc(join(errors)), a.confidence);
    for (std::size_t i = 0; i < a.answers.size() && i < 5; ++i)
        o += fmt::format("{}. **{}** {}\n", i + 1, qs[i], esc(a.answers[i]));
    o += "\n";

    // ---------------------------------------------------------------- Drill-down
    o += msg("## 3. Structure-level drill-down\n\n### Steps\n\n");
    o += msg("| Step | Group | Service | Busy | Underfeed | Prelaunch | Internal | Largest | Tail | Windows | "
        "Tags |\n");
    o += "|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (std::size_t i = 0; i < r.metrics.size(); ++i) {
        const auto& m = r.metrics[i];
        std::string gid;
        for (const auto& g : a.groups)
            if (std::find(g.steps.begin(), g.steps.end(), static_cast<int>(i)) != g.steps.end()) gid = g.id;
        std::size_t nw = 0;
        for (const auto& w : a.windows)
            nw += w.stepIndex == static_cast<int>(i);
        o += fmt::format("| {} | {} | {:.3f} ms | {:.3f} ms | {:.3f} | {:.3f} ms | {:.3f} ms | {:.3f} ms | {:.3f} ms | {} "
            "| {} |\n",
            stepName(r.steps, static_cast<int>(i)), gid, nsToMs(m.service), nsToMs(m.busyUnion),
            m.underfeedRatio, nsToMs(m.prelaunchGap), nsToMs(m.internalBubbleTotal),
            nsToMs(m.largestInternalBubble), nsToMs(m.tailGap), nw, join(a.stepTags[i].tags));
    }
    const auto& arch = r.architecture;
    o += msg("\n### Structures ({})\n\n",
        arch.marker.empty() ? arch.structures.empty() ? msg("none") : msg("pattern-based: {}", esc(arch.markerSource))
                            : msg("layers anchored on {}", code(arch.marker)));
    if (arch.drillDown.empty()) {
        o += msg("No significant window to place in a structure.\n\n");
    } else {
        std::size_t inside = 0, atStart = 0, edge = 0;
        for (const auto& d : arch.drillDown) {
            inside += d.position == "inside";
            atStart += d.position == "layer_start";
            edge += d.position == "tail" || d.position == "prelaunch";
        }
        o += msg("Of the {} largest windows, {} lie inside a structure, {} end at a layer's first kernel (the "
            "idle "
            "is in the previous structure's wall: structures run from their first kernel to the next "
            "structure's), {} are a step's prelaunch or tail, {} lie before a structure.\n\n",
            arch.drillDown.size(), inside, atStart, edge, arch.drillDown.size() - inside - atStart - edge);
        o += msg("| Window | Duration | Structure | Type | Position | Kernel before | Kernel after "
            "|\n|---|---|---|---|---|---|---|\n");
        for (const auto& d : arch.drillDown) {
            std::string type;
            for (const auto& s : arch.structures)
                if (s.id == d.structureId) type = s.type;
            o += fmt::format("| {} | {:.3f} ms | {} | {} | {} | {} | {} |\n", d.windowId, nsToMs(d.duration),
                d.structureId.empty() ? "-" : d.structureId, type.empty() ? "-" : type,
                d.position == "inside"        ? msg("inside")
                : d.position == "layer_start" ? msg("at its start")
                : d.position == "tail"        ? msg("step tail (after the last kernel)")
                : d.position == "prelaunch"   ? msg("prelaunch (before the first kernel)")
                                              : msg("before it"),
                d.kernelBefore.empty() ? "-" : cell(d.kernelBefore),
                d.kernelAfter.empty() ? "-" : cell(d.kernelAfter));
        }
        o += msg("\nFour clocks of the structures holding these windows (block = main-stream compute kernels >= "
            "{:.0f} us, side = the rest):\n\n",
            a.rules.block_min_us);
        o += msg("| Structure | Part | Wall | Busy union | Kernel sum | Total cost | Internal bubbles | Gap "
            "before |\n|---|---|---|---|---|---|---|---|\n");
        std::vector<std::string> shown;
        for (const auto& d : arch.drillDown) {
            if (d.structureId.empty() ||
                std::find(shown.begin(), shown.end(), d.structureId) != shown.end() || shown.size() >= 8)
                continue;
            shown.push_back(d.structureId);
            for (const auto& s : arch.structures) {
                if (s.id != d.structureId) continue;
                o += msg("| {} | all | {:.3f} ms | {:.3f} ms | {:.3f} ms | {:.3f} ms | {:.3f} ms | {:.3f} ms |\n",
                    s.id, nsToMs(s.all.wall), nsToMs(s.all.busyUnion), nsToMs(s.all.kernelSum),
                    nsToMs(s.all.totalCost), nsToMs(s.internalBubbles), nsToMs(s.gapBefore));
                o += msg("| {} | block | {:.3f} ms | {:.3f} ms | {:.3f} ms | {:.3f} ms | | |\n", s.id,
                    nsToMs(s.block.wall), nsToMs(s.block.busyUnion), nsToMs(s.block.kernelSum),
                    nsToMs(s.block.totalCost));
                o += msg("| {} | side | {:.3f} ms | {:.3f} ms | {:.3f} ms | {:.3f} ms | | |\n", s.id,
                    nsToMs(s.side.wall), nsToMs(s.side.busyUnion), nsToMs(s.side.kernelSum),
                    nsToMs(s.side.totalCost));
            }
        }
        o += "\n";
    }
    o += msg("\n## 4. Op-level findings ({})\n\n", a.groups.empty() || r.steps.source == StepSource::Pseudo
                                                  ? msg("whole capture")
                                                  : msg("dominant group {}", a.groups.front().id));
    o += msg("Top ops by average total cost (duration + wait):\n\n| Rank | Op | Task type | Calls | Duration avg "
        "| Wait avg | Total cost avg | Wait ratio | Flags | PMU "
        "|\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (const auto& op : a.ops) {
        if (op.rankByAvgCost > 10) break;
        std::vector<std::string> flags;
        if (op.falseHotspot)
            flags.emplace_back("WAIT_ANCHOR_FALSE_HOTSPOT");
        else if (op.waitAnchor)
            flags.emplace_back(msg("wait anchor"));
        if (op.waitPollution) flags.emplace_back("WAIT_POLLUTION_RISK");
        o += fmt::format("| {} | {} | {} | {} | {:.3f} us | {:.3f} us | {:.3f} us | {:.2f} | {} | {} |\n",
            op.rankByAvgCost, cell(op.name), op.taskType.empty() ? "-" : escCell(op.taskType), op.calls,
            op.durAvgUs, op.waitAvgUs, op.totalCostAvgUs, op.waitRatio, flags.empty() ? "-" : join(flags),
            escCell(op.pmuVerdict));
    }
    std::vector<const OpStats*> byTotal;
    for (const auto& op : a.ops)
        byTotal.push_back(&op);
    std::sort(byTotal.begin(), byTotal.end(),
              [](const OpStats* x, const OpStats* y) { return x->rankByTotal < y->rankByTotal; });
    // Shares are of the device busy time of the steps the ops were counted in (the dominant group's, or
    // the whole capture's for a pseudo-step), not of the whole capture.
    TimeNs opBusy = a.globalBusy;
    if (!a.groups.empty() && r.steps.source != StepSource::Pseudo) {
        opBusy = 0;
        for (int st : a.groups.front().steps)
            opBusy = addSaturating(opBusy, r.metrics[static_cast<std::size_t>(st)].busyUnion);
    }
    o += msg("\nTop ops by total kernel duration (share of {:.3f} ms of device busy time in the same steps):\n\n"
        "| Rank | Op | Task type | Calls | Total | Share of busy | PMU verdict | Cube util. |\n"
        "|---|---|---|---|---|---|---|---|\n",
        nsToMs(opBusy));
    for (const auto* op : byTotal) {
        if (op->rankByTotal > 10) break;
        o += fmt::format("| {} | {} | {} | {} | {:.3f} ms | {:.1f} % | {} | {} |\n", op->rankByTotal, cell(op->name),
            op->taskType.empty() ? "-" : escCell(op->taskType), op->calls, nsToMs(op->durTotal),
            opBusy ? 100.0 * static_cast<double>(op->durTotal) / static_cast<double>(opBusy) : 0.0,
            escCell(op->pmuVerdict),
            op->cubeUtilization ? fmt::format("{:.1f} %", *op->cubeUtilization) : std::string("-"));
    }
    o += msg("\nWait anchors (wait ratio > {:.2f} among the top {} by average total cost): ",
        a.rules.wait_list_ratio, a.rules.wait_list_top);
    std::vector<std::string> anchors;
    for (const auto& op : a.ops)
        if (op.waitAnchor)
            anchors.push_back(msg("{} (wait ratio {:.2f}{}{})", code(op.name), op.waitRatio,
                                          op.falseHotspot ? msg(", false-hotspot risk") : std::string(),
                                          op.waitPollution ? msg(", wait overlaps communication") : std::string()));
    o += fmt::format("{}.\n\n", anchors.empty() ? msg("none") : join(anchors, msg("; ").c_str()));
    o += msg("AICPU ops (whole capture, all steps): ");
    std::vector<std::string> ai;
    for (const auto& x : a.aicpuOps)
        ai.push_back(msg("{} — {} calls, {:.3f} ms, masked {:.0f} %, {}{}", code(x.name), x.calls,
                                 nsToMs(x.durTotal), x.maskedRatio * 100, x.cls,
                                 x.touchesBubble ? msg(" (next to a significant bubble)") : std::string()));
    o += fmt::format("{}.\n\n", ai.empty() ? msg("none") : join(ai, msg("; ").c_str()));
    if (const auto pmu = pmuAdvice(p, r.findings, a.pmuExists); pmu && !a.pmuExists)
        o += fmt::format("PMU: pmu_unavailable — {} {}\n\n", esc(pmu->why), esc(pmu->action));

    // ---------------------------------------------------------------- Recommendations
    o += msg("## 5. Recommendations\n\nWithin a priority, the fix worth most comes first: its expected gain is the step "
             "time the replay of the steps saves with the cause edited out (not the bubble's duration).\n\n");
    o += msg("| Priority | Scope | Target | Action | Why | Expected gain | Follow-up | Evidence gap "
        "|\n|---|---|---|---|---|---|---|---|\n");
    for (const auto& rc : a.recommendations) {
        const std::string gain = gainText(rc);
        o += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", rc.priority, rc.scope,
            rc.target.empty() ? "-" : cell(rc.target), escCell(rc.action), escCell(rc.why),
            gain.empty() ? "-" : escCell(gain), followupCell(rc), rc.evidenceGap.empty() ? "-" : escCell(rc.evidenceGap));
    }
    if (a.recommendations.empty()) o += msg("| - | - | - | No action suggested by the evidence. | | | | |\n");

    // ---------------------------------------------------------------- Data quality
    o += msg("\n## 6. Data quality\n\n");
    if (r.findings.empty()) o += msg("No finding: the collection looks complete.\n");
    for (const auto& f : r.findings) {
        // Where it was seen, as in the text output: file, line or byte offset.
        std::string where;
        if (!f.file.empty())
            where = " (" + mdCode(f.file) + (f.line > 0 ? msg(", line {}", f.line) : "") +
                    (f.byteOffset >= 0 ? msg(", byte {}", f.byteOffset) : "") + ")";
        o += fmt::format("- **{}** `{}`{}: {} {} {}\n", severityName(f.severity), f.id, where, esc(f.seen),
            f.impact.empty() ? "" : msg("Effect: {}", esc(f.impact)), f.fix.empty() ? "" : msg("Fix: {}", esc(f.fix)));
    }
    for (const auto& n : a.notes)
        o += fmt::format("- {}\n", esc(n));
    if (r.crossCheck.available) {
        o += msg("\nProfiler cross-check ({}): {} mismatch(es) over {} step(s).\n",
            crossCheckSourceName(p.inventory), r.crossCheck.mismatches, r.crossCheck.rows.size());
    }
    o += msg("\nLimitations: CANN documents a kernel's Wait Time as the gap since the previous task on its "
        "stream, so a large wait "
        "marks where a stream waited, not what it waited for; ops whose waits overlap collectives are "
        "flagged and demoted.\n");
    o += msg("\n## 7. Thresholds used\n\n| Rule | Value | Accepted |\n|---|---|---|\n");
    for (const auto& rule : a.rules.table())
        o += fmt::format("| `{}` | {} | {} |\n", rule.name, rule.value, rule.accepted);
    return render(o);
}

} // namespace bs
