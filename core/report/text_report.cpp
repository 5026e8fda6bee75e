#include "report/text_report.h"

#include "pipeline/recommendations.h"
#include "report/gain_text.h"
#include "analysis/skipped_rows.h"
#include "i18n/escape.h"

#include "i18n/message.h"
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace bs {

namespace {

// ANALYSIS.md §1: per step the exposed communication time and what communication.json says it was made
// of; the collectives that mostly waited (COMM_WAIT_HEAVY), largest wait first.
std::string communicationText(const AnalysisResult& r) {
    const AnomalyResult& a = r.anomaly;
    const bool anyComm = std::any_of(a.stepComm.begin(), a.stepComm.end(),
                                     [](const StepComm& c) { return c.exposed > 0 || c.collectives > 0; });
    if (!anyComm && a.collectives.empty()) return {};
    std::string o = msg("\n== Communication (ms)\n");
    o += fmt::format("  {:>8} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11}\n", render(msg("step")),
                     render(msg("exposed")), render(msg("elapse")), render(msg("wait")), render(msg("transit")),
                     render(msg("sync")), render(msg("idle")), render(msg("collectives")));
    for (std::size_t i = 0; i < a.stepComm.size() && i < r.metrics.size(); ++i) {
        const auto& c = a.stepComm[i];
        auto file = [&](TimeNs v) {
            return c.fromJson ? fmt::format("{:.3f}", nsToMs(v)) : render(msg("n/a"));
        };
        o += fmt::format("  {:>8} {:>11.3f} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11}\n",
                         r.metrics[i].stepId < 0 ? std::string("-") : std::to_string(r.metrics[i].stepId),
                         nsToMs(c.exposed), file(c.elapse), file(c.wait), file(c.transit), file(c.sync),
                         file(c.idle), c.fromJson ? std::to_string(c.collectives) : render(msg("n/a")));
    }
    std::vector<const CollectiveWait*> heavy;
    for (const auto& c : a.collectives)
        if (!c.tags.empty()) heavy.push_back(&c);
    std::stable_sort(heavy.begin(), heavy.end(),
                     [](const CollectiveWait* x, const CollectiveWait* y) { return x->wait > y->wait; });
    for (std::size_t i = 0; i < heavy.size() && i < 5; ++i)
        o += msg("  COMM_WAIT_HEAVY {}: elapse {:.3f}, wait {:.3f}, transit {:.3f}, sync {:.3f}, "
                         "idle {:.3f}, wait "
                         "ratio {:.2f} (> {:.2f}): the wait belongs to the slowest peer\n",
                         term(heavy[i]->name), nsToMs(heavy[i]->elapse), nsToMs(heavy[i]->wait),
                         nsToMs(heavy[i]->transit), nsToMs(heavy[i]->sync), nsToMs(heavy[i]->idle),
                         heavy[i]->waitRatio, a.rules.comm_wait_heavy_ratio);
    if (heavy.size() > 5) o += msg("  … and {} more COMM_WAIT_HEAVY collectives\n", heavy.size() - 5);
    return o;
}

std::string stepHeader() {
    return fmt::format("  {:>8} {:>11} {:>11} {:>11} {:>8} {:>11} {:>11} {:>11} {:>11} {:>7} {:>8}\n", render(msg("step")),
                       render(msg("service")), "busy_union", render(msg("underfeed")), render(msg("ratio")),
                       render(msg("prelaunch")), render(msg("tail")), render(msg("internal")), render(msg("largest")),
                       render(msg("bubbles")), render(msg("kernels")));
}

std::string stepRow(const StepMetrics& m) {
    return fmt::format("  {:>8} {:>11.3f} {:>11.3f} {:>11.3f} {:>8.4f} {:>11.3f} {:>11.3f} {:>11.3f} "
                       "{:>11.3f} {:>7} {:>8}\n",
                       m.stepId < 0 ? std::string("-") : std::to_string(m.stepId), nsToMs(m.service),
                       nsToMs(m.busyUnion), nsToMs(m.underfeed), m.underfeedRatio, nsToMs(m.prelaunchGap),
                       nsToMs(m.tailGap), nsToMs(m.internalBubbleTotal), nsToMs(m.largestInternalBubble),
                       m.bubbleCount, m.kernelCount);
}

// Step numbers as ranges: "1-3470" or "1-5, 7, 9-12" (at most `limit` pieces, then "…").
std::string stepList(const std::vector<std::int64_t>& steps, std::size_t limit = 8) {
    std::string out;
    std::size_t pieces = 0;
    for (std::size_t i = 0; i < steps.size();) {
        std::size_t j = i;
        while (j + 1 < steps.size() && steps[j + 1] == steps[j] + 1)
            ++j;
        if (pieces == limit) {
            out += ", …";
            break;
        }
        out += (out.empty() ? "" : ", ") + (steps[i] < 0 ? std::string("-") : std::to_string(steps[i])) +
               (j > i ? "-" + std::to_string(steps[j]) : "");
        ++pieces;
        i = j + 1;
    }
    return out;
}

// A long capture: per step group, its steps and P50 / P90 / P95 of each figure (the group's own statistics).
std::string stepGroupsText(const AnalysisResult& r) {
    std::string o = msg("  {} steps: per step group, P50 / P90 / P95 ({} prints every step)\n", r.metrics.size(),
                        "--all-steps");
    std::vector<char> grouped(r.metrics.size(), 0);
    for (const auto& g : r.anomaly.groups) {
        std::vector<std::int64_t> numbers;
        for (int i : g.steps)
            if (i >= 0 && static_cast<std::size_t>(i) < r.metrics.size()) {
                numbers.push_back(r.metrics[static_cast<std::size_t>(i)].stepId);
                grouped[static_cast<std::size_t>(i)] = 1;
            }
        o += msg("  {} ({} steps: {}; {} kernels per step)\n", g.id, g.steps.size(), stepList(numbers), g.kernelCount);
        const auto row = [&](const std::string& label, const MetricStats& m, bool ratio) {
            o += ratio ? fmt::format("    {:<18} {:>11.4f} {:>11.4f} {:>11.4f}\n", label, m.median, m.p90, m.p95)
                       : fmt::format("    {:<18} {:>11.3f} {:>11.3f} {:>11.3f}\n", label, m.median, m.p90, m.p95);
        };
        o += fmt::format("    {:<18} {:>11} {:>11} {:>11}\n", "", "P50", "P90", "P95");
        row(render(msg("service")), g.service, false);
        row("busy_union", g.busy, false);
        row(render(msg("underfeed ratio")), g.underfeedRatio, true);
        row(render(msg("prelaunch")), g.prelaunch, false);
        row(render(msg("tail")), g.tail, false);
        row(render(msg("internal")), g.internalTotal, false);
        row(render(msg("largest")), g.largestInternal, false);
        row(render(msg("bubbles")), g.bubbleCount, false);
    }
    std::vector<std::int64_t> loose;
    for (std::size_t i = 0; i < r.metrics.size(); ++i)
        if (!grouped[i]) loose.push_back(r.metrics[i].stepId);
    if (!loose.empty()) o += msg("  in no group: {} steps ({})\n", loose.size(), stepList(loose));
    return o;
}

// A long capture's communication: the totals over the steps and the step with the most exposed time.
std::string communicationSummaryText(const AnalysisResult& r) {
    const AnomalyResult& a = r.anomaly;
    const StepComm* worst = nullptr;
    std::size_t worstStep = 0;
    TimeNs exposed = 0, wait = 0;
    std::size_t collectives = 0;
    bool json = false;
    for (std::size_t i = 0; i < a.stepComm.size() && i < r.metrics.size(); ++i) {
        const auto& c = a.stepComm[i];
        exposed += c.exposed, wait += c.wait, collectives += c.collectives, json = json || c.fromJson;
        if (!worst || c.exposed > worst->exposed) worst = &c, worstStep = i;
    }
    if (!worst || (exposed == 0 && collectives == 0)) return {};
    std::string o = msg("\n== Communication (ms)\n");
    o += msg("  over {} steps: exposed {:.3f} (the most in step {}: {:.3f}){}\n", r.metrics.size(), nsToMs(exposed),
             r.metrics[worstStep].stepId, nsToMs(worst->exposed),
             json ? msg("; communication.json: wait {:.3f} over {} collectives", nsToMs(wait), collectives) : "");
    return o;
}

std::string crossCheckText(const Profile& p, const AnalysisResult& r) {
    std::string o = msg("\n== Profiler cross-check ({}, us)\n", crossCheckSourceName(p.inventory));
    for (const auto& row : r.crossCheck.rows) {
        if (!row.matched) {
            o += msg("  step {}: no row in step_trace_time.csv\n", row.stepId);
            continue;
        }
        for (const auto& f : row.figures) {
            o += msg("  step {:<5} {:<24} ours {:>14.3f}   profiler {:>14} ({}){}\n", row.stepId, term(f.field),
                     f.oursUs, f.profilerUs ? fmt::format("{:.3f}", *f.profilerUs) : msg("n/a"),
                     term(f.profilerColumn), f.mismatch ? "  MISMATCH" : "");
        }
    }
    return o;
}

// A long capture's cross-check: per figure its largest difference, and the steps that disagree.
std::string crossCheckSummaryText(const Profile& p, const AnalysisResult& r) {
    std::string o = msg("\n== Profiler cross-check ({}, us)\n", crossCheckSourceName(p.inventory));
    struct Worst {
        double diff = -1;
        std::int64_t step = -1;
        const CrossCheckFigure* f = nullptr;
    };
    std::map<std::string, Worst> worst; // by field
    std::vector<std::int64_t> disagree, missing;
    std::size_t matched = 0;
    for (const auto& row : r.crossCheck.rows) {
        if (!row.matched) {
            missing.push_back(row.stepId);
            continue;
        }
        ++matched;
        bool bad = false;
        for (const auto& f : row.figures) {
            if (!f.profilerUs) continue;
            const double d = std::abs(f.oursUs - *f.profilerUs);
            Worst& w = worst[f.field];
            if (d > w.diff) w = {d, row.stepId, &f};
            bad = bad || f.mismatch;
        }
        if (bad) disagree.push_back(row.stepId);
    }
    o += msg("  {} steps compared: {} agree, {} disagree{}\n", matched, matched - disagree.size(), disagree.size(),
             disagree.empty() ? "" : msg(" (steps {})", stepList(disagree, 20)));
    for (const auto& [field, w] : worst)
        o += msg("  {:<24} largest difference {:.3f} us in step {} (ours {:.3f}, profiler {:.3f}, {})\n", term(field),
                 w.diff, w.step, w.f->oursUs, *w.f->profilerUs, term(w.f->profilerColumn));
    if (!missing.empty())
        o += msg("  {} steps have no row in step_trace_time.csv ({})\n", missing.size(), stepList(missing, 20));
    return o;
}

} // namespace

// Every string that comes from the profiling folder (names, paths, findings quoting them) is passed
// through term(): a name may hold terminal control sequences, and this text goes to stdout.
std::string renderTextReport(const Profile& p, const AnalysisResult& r, bool allSteps) {
    std::string o;
    const auto& inv = p.inventory;
    o +=
        msg("BubbleScope analysis — {}\n", term(inv.rankLabel.empty() ? inv.rankDir : inv.rankLabel));
    o += msg("Folder: {} ({} layout)\n\n", term(inv.rankDir), term(inv.layout));

    o += msg("== Inventory\n");
    for (const auto& f : inv.files)
        o += msg("  {:<44} {:>12} bytes {:>9} records  {}\n", term(f.role), f.bytes, f.records,
                         term(f.path));
    o += msg(
        "  Kernel source: {}{}{}\n", kernelSourceName(inv.kernelSource),
        inv.kernelDetailsLevel.empty() ? "" : msg(" ({} header)", term(inv.kernelDetailsLevel)),
        inv.kernelsWithoutStream
            ? msg("; {} kernels had no Stream ID, {} recovered from {}", inv.kernelsWithoutStream,
                          inv.streamsFromTrace, streamRecoverySource(inv))
            : std::string());
    if (inv.kernelsTaskTypeFromTrace)
        o += msg("  Task types taken from the trace for {} kernels (kernel table had none)\n",
                         inv.kernelsTaskTypeFromTrace);
    std::map<std::int32_t, std::size_t> streams;
    std::size_t cls[4] = {0, 0, 0, 0};
    for (const auto& k : p.kernels) {
        ++streams[k.stream];
        ++cls[static_cast<int>(k.cls)];
    }
    o += msg("  Kernels: {} (compute core {}, AICPU {}, communication {}, other {})\n",
                     p.kernels.size(), cls[0], cls[1], cls[2], cls[3]);
    std::string sl;
    for (const auto& [s, n] : streams)
        sl += fmt::format("{}{}: {}", sl.empty() ? "" : ", ",
                          s < 0 ? msg("unknown") : std::to_string(s), n);
    o += msg("  Streams: {}\n", sl.empty() ? msg("none") : sl);
    if (!p.kernels.empty()) {
        TimeNs end = 0;
        for (const auto& k : p.kernels)
            end = std::max(end, k.end());
        o += msg("  Device span: {} us → {} us ({:.3f} ms)\n",
                         formatNsAsMicros(p.kernels.front().start), formatNsAsMicros(end),
                         nsToMs(end - p.kernels.front().start));
    }
    if (p.hasTrace)
        o += msg(
            "  Trace: {} events ({} host, {} device, {} HCCL, {} overlap-analysis, {} flows, {} counters)\n",
            inv.traceEventCount, p.hostEvents.size(), p.deviceEvents.size(), p.hcclEvents.size(),
            p.overlapEvents.size(), p.flows.size(), inv.counterEventCount);
    if (!inv.traceTaskTypesCounted.empty() || !inv.traceTaskTypesSkipped.empty()) {
        auto list = [](const std::vector<std::pair<std::string, std::size_t>>& v) {
            std::string s;
            for (const auto& [type, n] : v)
                s += (s.empty() ? "" : ", ") + term(type) + " " + std::to_string(n);
            return s.empty() ? msg("none") : s;
        };
        o += msg("  Kernels from the trace: counted {}\n", list(inv.traceTaskTypesCounted));
        o += msg("  Left out (housekeeping, not kernels): {}\n", list(inv.traceTaskTypesSkipped));
    }
    o += msg("  Steps: {} from {}\n\n", r.steps.steps.size(), stepSourceName(r.steps.source));

    o += msg("== Health\n");
    if (r.findings.empty()) o += msg("  No findings: the collection looks complete.\n");
    for (const auto& f : r.findings) {
        o += fmt::format("  [{}] {}: {}\n", severityName(f.severity), term(f.id), term(f.seen));
        if (!f.file.empty())
            o += msg("      file: {}{}{}\n", term(f.file),
                             f.line > 0 ? msg(", line {}", f.line) : "",
                             f.byteOffset >= 0 ? msg(", byte {}", f.byteOffset) : "");
        if (!f.impact.empty()) o += msg("      effect: {}\n", term(f.impact));
        if (!f.fix.empty()) o += msg("      fix: {}\n", term(f.fix));
    }
    const bool everyStep = allSteps || r.metrics.size() <= kTextStepRows;
    o += msg("\n== Steps (ms)\n");
    if (everyStep) {
        o += stepHeader();
        for (const auto& m : r.metrics)
            o += stepRow(m);
    } else {
        o += stepGroupsText(r);
    }
    o += everyStep ? communicationText(r) : communicationSummaryText(r);
    if (r.crossCheck.available)
        o += everyStep ? crossCheckText(p, r) : crossCheckSummaryText(p, r);
    const auto& a = r.anomaly;
    o += msg("\n== Bubble windows (>= {:.0f} us): {}\n", a.rules.bubble_min_us, a.windows.size());
    const auto skipped = skippedRowsInWindows(p, r.findings, a.windows);
    if (a.hostTraceExists && !a.stacksExist && !a.windows.empty())
        o += msg("  no call stacks collected: no window can name the line of code behind it\n");
    for (std::size_t i = 0; i < a.windows.size() && i < static_cast<std::size_t>(a.rules.top_windows); ++i) {
        const auto& w = a.windows[i];
        std::string labels;
        for (const auto& l : w.labels)
            labels += (labels.empty() ? "" : ", ") + term(l);
        o += msg("  {} step {:<7} {:<13} {:>10.3f} ms  at {} us  coverage {}  [{}]\n", w.id, w.stepId,
                         windowScopeName(w.scope), nsToMs(w.span.length()), formatNsAsMicros(w.span.a),
                         w.evidence.hostTraceExists ? fmt::format("{:.2f}", w.evidence.coverage)
                                                    : msg("n/a"),
                         labels);
        if (!w.stacks.userFrames.empty()) {
            const auto& l = w.stacks.userFrames.front();
            o += msg("      user line {}: {:.1f} % of the window, {:.3f} ms host time ({})\n", term(l.frame),
                             l.share * 100, nsToMs(l.hostTime), term(l.path));
        }
        for (const auto& row : skipped[i])
            o += msg(
                "      bounded by a skipped malformed row: {}, line {} ({}): its kernel may fill part "
                "of this window\n",
                term(row.file), row.line, term(row.findingId));
    }
    if (!a.globalTags.empty()) {
        std::string t;
        for (const auto& x : a.globalTags)
            t += (t.empty() ? "" : ", ") + term(x);
        o += msg("  Tags: {}\n", t);
    }
    for (const auto& g : a.groups)
        if (!g.recurringUserLines.empty()) {
            const auto& l = g.recurringUserLines.front();
            o += msg("  {}: user line {} on top of a window in {} of its {} steps ({:.3f} ms host time)\n",
                             g.id, term(l.frame), l.steps, g.steps.size(), nsToMs(l.hostTime));
        }
    if (!a.groups.empty()) {
        std::string why;
        for (const auto& x : a.hiddenIssueReasons)
            why += (why.empty() ? msg(": ") : msg("; ")) + x;
        o += msg("  Hidden issue in {}: {} (severity {}){}\n", a.groups.front().id,
                         a.hiddenIssuePresent ? msg("present") : msg("not present"), a.severity, why);
    }
    std::string rules;
    for (const auto& [k, v] : a.rules.entries())
        rules += fmt::format("{}{}={}", rules.empty() ? "" : " ", k, v);
    o += msg("  Thresholds (override with --rules FILE): {}\n", rules);
    o += msg("\n== Bubble-first summary\n");
    const auto errors = dataErrorNames(r.findings);
    if (!errors.empty()) {
        std::string e;
        for (const auto& x : errors)
            e += (e.empty() ? "" : ", ") + term(x);
        o += msg(
            "  DATA ERRORS: {} — the analysis ran on incomplete data, which lowers the confidence "
            "(now {}).\n",
            e, a.confidence);
    }
    for (std::size_t i = 0; i < a.answers.size(); ++i)
        o += fmt::format("  {}. {}\n", i + 1, term(a.answers[i]));
    std::size_t host = 0, other = 0;
    for (const auto& rc : a.recommendations)
        isHostFollowup(rc) ? ++host : (rc.followupRequired ? ++other : 0);
    o += msg(
        "  Host follow-up: {}{}\n",
        a.requiresHostFollowup ? msg("required ({} recommendation{})", host, host == 1 ? "" : "s")
                               : msg("not required"),
        other ? msg("; other follow-ups (re-collect, other ranks): {}", other) : std::string());
    // What to do next: the recommendations in the core's order (by priority, then by replayed gain: comesBefore;
    // the window's Summary shows the same list).
    if (!a.recommendations.empty()) {
        o += msg("\n== What to do next\n");
        for (const auto& r : a.recommendations) {
            const Recommendation* rc = &r;
            o += msg("  {} {} ({}{}): {}\n      why: {}\n", term(rc->priority), term(rc->action), term(rc->scope),
                             rc->target.empty() ? std::string() : " " + term(rc->target),
                             rc->followupRequired ? msg("follow-up required") : msg("no follow-up needed"), term(rc->why));
            if (const std::string gain = gainText(*rc); !gain.empty()) o += msg("      {}\n", term(gain));
        }
    }
    return render(o);
}

} // namespace bs
