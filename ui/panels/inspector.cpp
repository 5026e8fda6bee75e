#include "inspector.h"

#include "report/gain_text.h"

#include "glossary.h"
#include "language.h"
#include "stack_text.h"
#include "range_stats.h"
#include "analysis/bubble_metrics.h"
#include "pipeline/analysis_run.h"
#include "analysis/intervals.h"
#include "model/profile.h"
#include "model/time.h"

#include <algorithm>
#include <functional>
#include <map>

namespace bs::ui {

namespace {

QString esc(const std::string& s) {
    return coreText(s).toHtmlEscaped();
}
QString msText(TimeNs ns) {
    return QString::number(nsToMs(ns), 'f', 3);
}
// "+1.234" / "−17.903" (U+2212), for times relative to the capture's start.
QString signedMsText(TimeNs ns) {
    return (ns < 0 ? QStringLiteral("\u2212") : QStringLiteral("+")) + msText(ns < 0 ? -ns : ns);
}

} // namespace

// The lines of the user's code behind a window (core stack evidence), shown first in the inspector. Each
// line is a link: clicking it highlights its host events on the timeline and shows the full stack below.
QString Inspector::userLinesHtml(const BubbleWindow& w, int chosenLine) {
    const auto& st = w.stacks;
    if (!w.evidence.hostTraceExists) return {};
    if (!st.collected)
        return QStringLiteral("<p><i>%1</i></p>")
            .arg(tr("No call stacks collected: the line of code behind this bubble is unknown."));
    if (st.userFrames.empty())
        return QStringLiteral("<p><i>%1</i></p>")
            .arg(tr("No user code in the call stacks of the %1 host events in this window (%2 carry a stack).")
                     .arg(st.eventsInWindow)
                     .arg(st.eventsWithStack));
    QString h = QStringLiteral("<p><b>%1</b> <small>%2</small></p><table border=1 cellspacing=0 cellpadding=2>"
                               "<tr><th>%3</th><th>%4</th><th>%5</th><th>%6</th></tr>")
                    .arg(tr("Your code behind this bubble:"),
                         tr("(click a line: its host events are highlighted on the timeline)"), tr("Line"),
                         tr("Share of window"), tr("Host time (ms)"), tr("Path to the op"));
    for (std::size_t i = 0; i < st.userFrames.size(); ++i) {
        const auto& l = st.userFrames[i];
        const bool chosen = static_cast<int>(i) == chosenLine;
        h += QStringLiteral("<tr%1><td><b><a href=\"line:%2\"><code>%3</code></a></b></td><td align=right>%4 %</td><td "
                            "align=right>%5</td><td><small>%6</small></td></tr>")
                 .arg(chosen ? QStringLiteral(" style='background:#ffe9a8'") : QString())
                 .arg(i)
                 .arg(esc(l.frame), QString::number(l.share * 100, 'f', 1), msText(l.hostTime), esc(l.path));
    }
    return h + QStringLiteral("</table>");
}

// The stack pane: the chosen user line's host events (highlighted on the timeline) and the full call stack
// of the largest of them, every frame as written.
QString Inspector::userLineStackHtml(const Profile& p, const BubbleWindow& w, int line) {
    const auto& st = w.stacks;
    if (line < 0 || static_cast<std::size_t>(line) >= st.userFrames.size()) return {};
    const auto& l = st.userFrames[static_cast<std::size_t>(line)];
    const auto& events = p.hostEvents;
    QString h = QStringLiteral("<p>%1</p>")
                    .arg(tr("%1 host events under <code>%2</code> are highlighted on the timeline (%3 ms of host "
                            "time in this window).")
                             .arg(l.eventIndices.size())
                             .arg(esc(l.frame), msText(l.hostTime)));
    if (l.pathEvent < events.size() && events[l.pathEvent].stack) {
        const auto& e = events[l.pathEvent];
        StackTextOptions full;
        full.maxFrames = 256;
        full.fullPaths = true;
        full.elideLibrary = false;
        h += QStringLiteral("<p><b>%1</b><br><small>%2</small></p>")
                 .arg(tr("Call stack of %1, the largest of them (innermost first, ● your code):")
                          .arg(QStringLiteral("<code>%1</code>").arg(esc(std::string(p.str(e.name))))),
                      stackHtml(p.str(e.stack), full));
    }
    return h;
}

QString Inspector::bubbleHtml(const AnalysisResult& r, const BubbleWindow& w, int chosenLine) {
    const TimeNs origin = r.anomaly.captureStart;
    QString h =
        QStringLiteral("<h3>%1 — %2 ms %3, %4 %5</h3>")
            .arg(coreText(w.id), msText(w.span.length()),
                 QString::fromLatin1(windowScopeName(w.scope)), tr("step"), coreText(w.stepId));
    // §15: what fixing its cause is worth — the replayed gain of each recommendation whose edit covers it.
    const auto index = static_cast<std::size_t>(&w - r.anomaly.windows.data());
    for (const auto& rc : r.anomaly.recommendations) {
        // Only where the replay edited this window (a prelaunch with no other step to take a median from is not).
        if (!rc.replay || std::find(rc.replay->windows.begin(), rc.replay->windows.end(), index) == rc.replay->windows.end())
            continue;
        const std::string gain = gainText(rc);
        h += QStringLiteral("<p style=\"background:#eef6ee\"><b>%1</b> %2<br><small>%3</small></p>")
                 .arg(tr("Fixing its cause (%1):").arg(esc(rc.priority)), esc(gain), esc(rc.replay->edit));
    }
    h += userLinesHtml(w, chosenLine);
    h += QStringLiteral(
             "<table border=1 cellspacing=0 "
             "cellpadding=2><tr><th>%1</th><th>%2</th><th>%3</th><th>%4</th><th>%5</th><th>%6</th></tr>")
             .arg(tr("Side"), tr("Kernel"), tr("Task type"), tr("Duration (µs)"), tr("Wait (µs)"),
                  tr("Stream"));
    auto kernelRow = [&](const QString& side, const NeighbourKernel& k) {
        h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td align=right>%4</td><td "
                            "align=right>%5</td><td>%6</td></tr>")
                 .arg(side, QStringLiteral("<a href=\"kernel:%1\">%2</a>").arg(k.kernel).arg(esc(k.name)), esc(k.taskType),
                      QString::number(nsToUs(k.dur), 'f', 1),
                      QString::number(nsToUs(k.wait), 'f', 1),
                      k.stream >= 0 ? QString::number(k.stream) : QStringLiteral("?"));
    };
    for (auto it = w.before.rbegin(); it != w.before.rend(); ++it)
        kernelRow(tr("before"), *it);
    h += QStringLiteral("<tr><td colspan=6 style='background:#fde2e2'><i>%1 %2 ms → %3 ms</i></td></tr>")
             .arg(tr("device idle"), signedMsText(w.span.a - origin), signedMsText(w.span.b - origin));
    for (const auto& k : w.after)
        kernelRow(tr("after"), k);
    h += QStringLiteral("</table>");
    const auto& e = w.evidence;
    if (e.hostTraceExists) {
        h += QStringLiteral("<p>%1 %2 · %3 %4 · %5 %6 · %7 %8</p>")
                 .arg(tr("Host coverage"), QString::number(e.coverage, 'f', 2), tr("sync"),
                      QString::number(e.syncRatio, 'f', 2), tr("comm"), QString::number(e.commRatio, 'f', 2),
                      tr("parallelism"),
                      e.parallelism ? QString::number(*e.parallelism, 'f', 2) : QStringLiteral("n/a"));
        if (!e.topEvents.empty()) {
            h += QStringLiteral("<p>%1</p><ul>").arg(tr("Host events in the window:"));
            for (const auto& t : e.topEvents)
                h += QStringLiteral("<li>%1 — %2 (%3 µs)</li>")
                         .arg(esc(t.name), esc(t.thread), QString::number(nsToUs(t.overlap), 'f', 1));
            h += QStringLiteral("</ul>");
        }
    } else {
        h += QStringLiteral("<p>%1</p>").arg(tr("There is no host trace: causes cannot be attributed."));
    }
    h += QStringLiteral("<p><b>%1</b></p><ul>").arg(tr("Candidate causes (possible, not a verdict):"));
    for (std::size_t i = 0; i < w.labels.size(); ++i)
        h += QStringLiteral("<li><code>%1</code> — %2</li>")
                 .arg(esc(w.labels[i]), i < w.labelEvidence.size() ? esc(w.labelEvidence[i]) : QString());
    h += QStringLiteral("</ul>");
    return h;
}

QString Inspector::kernelHtml(const Profile& p, const AnalysisResult& r, int kernelIndex, KernelLaunch launch) {
    if (kernelIndex < 0 || kernelIndex >= static_cast<int>(p.kernels.size())) return {};
    const Kernel& k = p.kernels[static_cast<std::size_t>(kernelIndex)];
    const QString name = coreText(std::string(p.str(k.name)));
    QString h = QStringLiteral("<h3>%1</h3><table>").arg(name.toHtmlEscaped());
    auto row = [&](const QString& a, const QString& b) {
        h += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(a, b.toHtmlEscaped());
    };
    row(tr("Op type"), coreText(std::string(p.str(k.opType))));
    row(tr("Task type"), coreText(std::string(p.str(k.taskType))));
    row(tr("Stream"), k.stream >= 0 ? QString::number(k.stream) : QStringLiteral("?"));
    // Relative to the capture's start, as the ruler; the profiler's epoch time beside it.
    row(tr("Start"), tr("%1 ms from the capture's start (epoch %2 µs)")
                         .arg(signedMsText(k.start - r.anomaly.captureStart),
                              coreText(formatNsAsMicros(k.start))));
    row(tr("Duration"), QString::number(nsToUs(k.dur), 'f', 3) + QStringLiteral(" µs"));
    row(tr("Wait"), QString::number(nsToUs(k.wait), 'f', 3) + QStringLiteral(" µs"));
    row(tr("Block dim"), QString::number(k.blockDim));
    row(tr("Input shapes"), coreText(std::string(p.str(k.inputShapes))));
    row(tr("Output shapes"), coreText(std::string(p.str(k.outputShapes))));
    for (const auto& o : r.anomaly.ops)
        if (o.name == std::string(p.str(k.name)) ||
            (k.cls == TaskClass::Comm && o.taskType == std::string(p.str(k.taskType)) &&
             name.startsWith(coreText(o.name.substr(0, 8))))) {
            row(tr("PMU verdict"), pmuVerdictText(o.pmuVerdict));
            if (o.falseHotspot) row(tr("Flag"), QStringLiteral("WAIT_ANCHOR_FALSE_HOTSPOT"));
            if (o.waitPollution) row(tr("Flag"), QStringLiteral("WAIT_POLLUTION_RISK"));
            break;
        }
    // The host op that launched it, as the timeline joined it (the flow arrow L follows): a link to it.
    if (launch.flow >= 0 && static_cast<std::size_t>(launch.flow) < p.flows.size()) {
        const FlowEvent& s = p.flows[static_cast<std::size_t>(launch.flow)];
        const QString by = launch.hostEvent >= 0 && static_cast<std::size_t>(launch.hostEvent) < p.hostEvents.size()
                               ? coreText(std::string(p.str(p.hostEvents[static_cast<std::size_t>(launch.hostEvent)].name)))
                               : tr("unknown host event");
        h += QStringLiteral("<tr><td><b>%1</b></td><td><a href=\"launcher:%2\">%3</a> (%4)</td></tr>")
                 .arg(tr("Launched by"))
                 .arg(kernelIndex)
                 .arg(by.toHtmlEscaped(), coreText(std::string(p.str(s.cat))).toHtmlEscaped());
    }
    if (k.pmuRow >= 0)
        for (std::size_t c = 0; c < p.pmu.columns.size(); ++c)
            row(coreText(p.pmu.columns[c]),
                QString::number(p.pmu.at(static_cast<std::size_t>(k.pmuRow), c)));
    h += QStringLiteral("</table>");
    return h;
}

QString Inspector::hostEventHtml(const Profile& p, const AnalysisResult& r, int index, int depth) {
    if (index < 0 || static_cast<std::size_t>(index) >= p.hostEvents.size()) return {};
    const auto& e = p.hostEvents[static_cast<std::size_t>(index)];
    QString h = QStringLiteral("<h3>%1</h3><table>").arg(esc(std::string(p.str(e.name))));
    auto row = [&](const QString& a, const QString& b) {
        h += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(a, b.toHtmlEscaped());
    };
    if (e.lane < p.lanes.size())
        row(tr("Process / thread"), QStringLiteral("%1 / %2").arg(p.lanes[e.lane].pid).arg(p.lanes[e.lane].tid));
    row(tr("Call depth"), QString::number(depth));
    row(tr("Category"), QString::fromUtf8(p.str(e.cat)));
    row(tr("Start"), tr("%1 ms from the capture's start").arg(signedMsText(e.ts - r.anomaly.captureStart)));
    row(tr("Duration"), QString::number(nsToUs(e.dur), 'f', 3) + QStringLiteral(" µs"));
    h += QStringLiteral("</table>");
    if (e.stack) {
        StackTextOptions full;
        full.maxFrames = 256;
        h += QStringLiteral("<p><b>%1</b><br><small>%2</small></p>")
                 .arg(tr("Call stack (innermost first, ● your code):"), stackHtml(p.str(e.stack), full));
    }
    return h;
}

QString Inspector::rangeHtml(const Profile& p, qint64 start, qint64 end, TimeNs* busyOut, std::size_t* countOut,
                             const RangeStats* stats) {
    TimeNs busy = 0;
    std::size_t count = 0;
    std::vector<std::pair<TimeNs, std::string>> top;
    if (stats) {
        RangeStats::Result r = stats->query(p, start, end);
        busy = r.busy;
        count = r.kernels;
        top.reserve(r.names.size());
        for (const auto& n : r.names)
            top.emplace_back(n.time, std::string(p.str(n.name)));
    } else {
        busy = totalLength(busySegments(p, {start, end}));
        std::map<std::string, TimeNs> byName;
        for (const auto& k : p.kernels) {
            if (k.start >= end) break;
            if (k.end() <= start) continue;
            ++count;
            byName[std::string(p.str(k.name))] +=
                std::min(k.end(), static_cast<TimeNs>(end)) - std::max(k.start, static_cast<TimeNs>(start));
        }
        for (const auto& [n, t] : byName)
            top.emplace_back(t, n);
    }
    // The eight largest, by time then name (both descending), as a full sort would give them.
    const std::size_t shown = std::min<std::size_t>(top.size(), 8);
    std::partial_sort(top.begin(), top.begin() + static_cast<std::ptrdiff_t>(shown), top.end(), std::greater<>());
    QString h = QStringLiteral("<h3>%1</h3><p>%2 %3 ms · %4 %5 ms · %6 %7 ms · %8 %9</p><ol>")
                    .arg(tr("Range statistics"), tr("span"), msText(end - start), tr("busy union"),
                         msText(busy), tr("idle"), msText(end - start - busy), tr("kernels"))
                    .arg(count);
    for (std::size_t i = 0; i < shown; ++i)
        h += QStringLiteral("<li>%1 — %2 ms</li>").arg(esc(top[i].second), msText(top[i].first));
    h += QStringLiteral("</ol>");
    if (busyOut) *busyOut = busy;
    if (countOut) *countOut = count;
    return h;
}

} // namespace bs::ui
