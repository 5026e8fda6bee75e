#include "glossary.h"

#include "language.h"
#include "i18n/message.h"

#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QKeySequence>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace bs::ui {

namespace {
QString t(const char* s) {
    return QCoreApplication::translate("Glossary", s);
}

// One section of the glossary: its heading and its entries (key, term, definition; untranslated).
struct Raw {
    const char *key, *term, *definition;
};

void addSection(QVector<GlossaryEntry>& out, const char* heading, std::initializer_list<Raw> entries) {
    for (const Raw& e : entries)
        out.push_back({QString::fromUtf8(e.key), t(e.term), t(e.definition), t(heading)});
}

void bubbleTerms(QVector<GlossaryEntry>& out) {
    addSection(out, QT_TRANSLATE_NOOP("Glossary", "Bubbles and steps"), {
        {"bubble", QT_TRANSLATE_NOOP("Glossary", "bubble"), QT_TRANSLATE_NOOP("Glossary","A span where no device stream runs any kernel (the union of all streams is idle). Windows of "
                        "50 µs or more are significant and get an id (b0001, the longest first).")},
        {"internal bubble", QT_TRANSLATE_NOOP("Glossary", "internal bubble"), QT_TRANSLATE_NOOP("Glossary","An idle gap between two kernels inside a step (the profiler's Free).")},
        {"underfeed", QT_TRANSLATE_NOOP("Glossary", "underfeed"), QT_TRANSLATE_NOOP("Glossary","Step service minus device busy time: how long the device waited in the step. The underfeed "
                           "ratio divides it by the service.")},
        {"service", QT_TRANSLATE_NOOP("Glossary", "service"), QT_TRANSLATE_NOOP("Glossary","A step's wall time: from its start marker to its end.")},
        {"dominant group", QT_TRANSLATE_NOOP("Glossary", "dominant group"), QT_TRANSLATE_NOOP("Glossary","The step group with the most service time: steps that run the same kernel sequence "
                                "(the same template). Its figures are the ones compared and reported first.")},
        {"host coverage", QT_TRANSLATE_NOOP("Glossary", "host coverage"), QT_TRANSLATE_NOOP("Glossary","The share of a bubble covered by any host event (union over the host threads). Low "
                               "coverage: nothing traced explains the wait.")},
        {"parallelism", QT_TRANSLATE_NOOP("Glossary", "parallelism"), QT_TRANSLATE_NOOP("Glossary","How many host threads are busy at once inside a bubble, on average: above 1, threads "
                             "overlap.")},
        {"hidden issue", QT_TRANSLATE_NOOP("Glossary", "hidden issue"), QT_TRANSLATE_NOOP("Glossary","The steps look healthy on average, but a few windows hold most of the idle time: the "
                              "averages hide them.")},
    });
}

// Scopes: where a window lies, and what a recommendation concerns (core: windowScopeName, Recommendation::scope).
void scopes(QVector<GlossaryEntry>& out) {
    addSection(out, QT_TRANSLATE_NOOP("Glossary", "Scopes: where a window lies, what a recommendation concerns"), {
        {"step_internal", QT_TRANSLATE_NOOP("Glossary", "step_internal"), QT_TRANSLATE_NOOP("Glossary","A window between two kernels inside a step: an internal bubble.")},
        {"prelaunch", QT_TRANSLATE_NOOP("Glossary", "prelaunch"), QT_TRANSLATE_NOOP("Glossary","From the step's start to its first device work: the host prepares the step while the "
                           "device waits (the profiler's Preparing).")},
        {"tail", QT_TRANSLATE_NOOP("Glossary", "tail"), QT_TRANSLATE_NOOP("Glossary","From the step's last device work to the step's end.")},
        {"global", QT_TRANSLATE_NOOP("Glossary", "global"), QT_TRANSLATE_NOOP("Glossary","A window outside every step (before the first, after the last, between two steps); a "
                        "recommendation that concerns the whole capture or its collection.")},
        {"step_group", QT_TRANSLATE_NOOP("Glossary", "step_group"), QT_TRANSLATE_NOOP("Glossary","A recommendation that concerns one step group (g0 is the dominant group).")},
        {"structure", QT_TRANSLATE_NOOP("Glossary", "structure"), QT_TRANSLATE_NOOP("Glossary","A recommendation that concerns the model's structures (its layers, as the Layers tab shows "
                           "them).")},
        {"op", QT_TRANSLATE_NOOP("Glossary", "op"), QT_TRANSLATE_NOOP("Glossary","A recommendation that concerns one op.")},
    });
}

// Labels: candidate causes of one window (core/analysis/soft_attribution.cpp); several may apply, none is proven.
void labels(QVector<GlossaryEntry>& out) {
    addSection(out, QT_TRANSLATE_NOOP("Glossary", "Window labels: candidate causes, never a proven one"), {
        {"possible_sync_or_h2d", QT_TRANSLATE_NOOP("Glossary", "possible_sync_or_h2d"), QT_TRANSLATE_NOOP("Glossary","Host sync or copy markers (aten::to, aten::item, aclrtSynchronize*, aclrtMemcpy*, "
                            "HostToDevice…) cover at least 20 % of the window (default threshold): the device probably "
                            "waits for a synchronisation or a host-to-device copy.")},
        {"possible_comm_wait", QT_TRANSLATE_NOOP("Glossary", "possible_comm_wait"), QT_TRANSLATE_NOOP("Glossary","Communication markers (c10d*, *Hccl*, *hcom*, StreamWaitEvent, the HCCL lanes) cover at "
                            "least 20 % of the window: the device probably waits for a collective.")},
        {"possible_untraced_host_blocking", QT_TRANSLATE_NOOP("Glossary", "possible_untraced_host_blocking"), QT_TRANSLATE_NOOP("Glossary","Host events cover less than 5 % of the window: the host did something the trace does "
                            "not show (a lock, garbage collection, I/O, the data loader). Sample the host to see it.")},
        {"possible_host_launch_lag", QT_TRANSLATE_NOOP("Glossary", "possible_host_launch_lag"), QT_TRANSLATE_NOOP("Glossary","No sync or communication marker explains the window, but host events cover at least "
                            "10 % of it: the host was busy and launched the next kernel late.")},
        {"possible_python_serialization_or_lock", QT_TRANSLATE_NOOP("Glossary", "possible_python_serialization_or_lock"), QT_TRANSLATE_NOOP("Glossary","No rule above applies and the host threads barely overlap (parallelism under 1.2): "
                            "the host work runs one thread at a time, as under the Python GIL or a lock.")},
        {"insufficient_evidence", QT_TRANSLATE_NOOP("Glossary", "insufficient_evidence"), QT_TRANSLATE_NOOP("Glossary","Nothing recorded explains the window, or the capture itself may have made it (a "
                            "capture-boundary gap): no cause is named.")},
    });
}

// Tags of steps, step groups, ops, collectives and the capture (core/analysis: anomaly_discovery, comm_waits,
// op_analysis).
void tags(QVector<GlossaryEntry>& out) {
    addSection(out, QT_TRANSLATE_NOOP("Glossary", "Tags of steps, step groups and the capture"), {
        {"PRELAUNCH_GAP_HEAVY", QT_TRANSLATE_NOOP("Glossary", "PRELAUNCH_GAP_HEAVY"), QT_TRANSLATE_NOOP("Glossary","A step whose prelaunch is at least max(1 ms, 10 % of its service).")},
        {"TAIL_GAP_HEAVY", QT_TRANSLATE_NOOP("Glossary", "TAIL_GAP_HEAVY"), QT_TRANSLATE_NOOP("Glossary","A step whose tail is at least max(1 ms, 10 % of its service).")},
        {"INTERNAL_BUBBLE_HEAVY", QT_TRANSLATE_NOOP("Glossary", "INTERNAL_BUBBLE_HEAVY"), QT_TRANSLATE_NOOP("Glossary","A step whose largest internal bubble is at least max(1 ms, 10 % of its service).")},
        {"DEVICE_IDLE_GAP_HEAVY", QT_TRANSLATE_NOOP("Glossary", "DEVICE_IDLE_GAP_HEAVY"), QT_TRANSLATE_NOOP("Glossary","A step whose underfeed ratio is 0.30 or more, or that carries one of the three tags "
                            "above.")},
        {"RECURRING_BUBBLE_PATTERN", QT_TRANSLATE_NOOP("Glossary", "RECURRING_BUBBLE_PATTERN"), QT_TRANSLATE_NOOP("Glossary","In a group of two or more steps, at least 60 % of the steps have a significant bubble "
                            "and their largest one sits at the same place (after the same kernel).")},
        {"HOST_ORIGINATED_RISK", QT_TRANSLATE_NOOP("Glossary", "HOST_ORIGINATED_RISK"), QT_TRANSLATE_NOOP("Glossary","A step group with an underfeed ratio of 0.30 or more and a recurring bubble whose top "
                            "windows the host events cover (10 % or more): the idle most likely comes from the host.")},
        {"UNTRACED_HOST_BLOCKING_RISK", QT_TRANSLATE_NOOP("Glossary", "UNTRACED_HOST_BLOCKING_RISK"), QT_TRANSLATE_NOOP("Glossary","A step group with an underfeed ratio of 0.30 or more and a recurring bubble (or a "
                            "single step) whose top windows hold almost no host event (coverage under 5 %): the host "
                            "blocks on something the trace does not show; sample the host process.")},
        {"VARIABLE_SHAPE_SAME_TEMPLATE", QT_TRANSLATE_NOOP("Glossary", "VARIABLE_SHAPE_SAME_TEMPLATE"), QT_TRANSLATE_NOOP("Glossary","Steps of one group run the same kernel sequence with different input shapes (dynamic "
                            "shapes). Not evaluated when shapes were not recorded.")},
        {"PARTIAL_CAPTURE_BOUNDARY", QT_TRANSLATE_NOOP("Glossary", "PARTIAL_CAPTURE_BOUNDARY"), QT_TRANSLATE_NOOP("Glossary","The capture cuts a step, kernels ran before the first step marker, or the largest gap "
                            "lies at the capture's edge: such edge windows are never attributed to the host.")},
        {"COMM_SYNC_RISK", QT_TRANSLATE_NOOP("Glossary", "COMM_SYNC_RISK"), QT_TRANSLATE_NOOP("Glossary","A top window is at least 20 % communication markers, or an op's waits belong to a "
                            "collective (WAIT_POLLUTION_RISK): communication or synchronisation holds the device.")},
        {"COMM_WAIT_HEAVY", QT_TRANSLATE_NOOP("Glossary", "COMM_WAIT_HEAVY"), QT_TRANSLATE_NOOP("Glossary","A collective of communication.json spends more than 20 % of Wait + Transit waiting for "
                            "the other ranks: another rank arrives late.")},
        {"AICPU_EXPOSED_RISK", QT_TRANSLATE_NOOP("Glossary", "AICPU_EXPOSED_RISK"), QT_TRANSLATE_NOOP("Glossary","At least one AI CPU op is AICPU_EXPOSED_NOT_ALLOWED: the device's compute cores idle "
                            "while it runs.")},
    });
    addSection(out, QT_TRANSLATE_NOOP("Glossary", "Tags of ops"), {
        {"WAIT_ANCHOR_FALSE_HOTSPOT", QT_TRANSLATE_NOOP("Glossary", "WAIT_ANCHOR_FALSE_HOTSPOT"), QT_TRANSLATE_NOOP("Glossary","The op ranks high only through its wait time: ranking it as a hot spot "
                                           "would be wrong.")},
        {"WAIT_POLLUTION_RISK", QT_TRANSLATE_NOOP("Glossary", "WAIT_POLLUTION_RISK"), QT_TRANSLATE_NOOP("Glossary","The op's waits overlap a collective: its wait is the communication's, not its own.")},
        {"wait anchor", QT_TRANSLATE_NOOP("Glossary", "wait anchor"), QT_TRANSLATE_NOOP("Glossary","A kernel whose own 'wait' time is large because it waits for something before it (a "
                             "collective, a sync): its cost belongs to what it waits for.")},
        {"AICPU_MASKED_BUT_UNDESIRABLE", QT_TRANSLATE_NOOP("Glossary", "AICPU_MASKED_BUT_UNDESIRABLE"), QT_TRANSLATE_NOOP("Glossary","An AI CPU op that compute kernels overlap for 90 % or more of its time: it costs no "
                            "idle now, but AI CPU ops are slow and worth replacing.")},
        {"AICPU_PARTIALLY_EXPOSED", QT_TRANSLATE_NOOP("Glossary", "AICPU_PARTIALLY_EXPOSED"), QT_TRANSLATE_NOOP("Glossary","An AI CPU op that compute kernels overlap for 20 % to 90 % of its time: the rest is "
                            "device time nothing else uses.")},
        {"AICPU_EXPOSED_NOT_ALLOWED", QT_TRANSLATE_NOOP("Glossary", "AICPU_EXPOSED_NOT_ALLOWED"), QT_TRANSLATE_NOOP("Glossary","An AI CPU op that compute kernels overlap for less than 20 % of its time: the device "
                            "waits for it; run it on the AI Core instead.")},
        {"PMU verdict", QT_TRANSLATE_NOOP("Glossary", "PMU verdict"), QT_TRANSLATE_NOOP("Glossary","What the op's hardware counters say bounds it (compute, memory, or too few cores), when "
                             "the collection has PMU data.")},
    });
}

// Several ranks (core/cluster, issue 44).
void clusterTerms(QVector<GlossaryEntry>& out) {
    addSection(out, QT_TRANSLATE_NOOP("Glossary", "Several ranks (the Cluster view)"), {
        {"clock offset", QT_TRANSLATE_NOOP("Glossary", "clock offset"), QT_TRANSLATE_NOOP("Glossary","How far a rank's clock is from the reference rank's, measured on the ends of the "
                            "collectives they share (all ranks leave a collective together): the median of the "
                            "differences. Their spread (MAD) says how far it can be trusted.")},
        {"aligned clock", QT_TRANSLATE_NOOP("Glossary", "aligned clock"), QT_TRANSLATE_NOOP("Glossary","Every rank's times moved by its clock offset onto one clock, so that arrivals can be "
                            "compared across ranks. Raw clocks: each rank as it recorded.")},
        {"last arriver", QT_TRANSLATE_NOOP("Glossary", "last arriver"), QT_TRANSLATE_NOOP("Glossary","In a collective, the rank that reaches it last on the aligned clock (every rank's clock "
                              "aligned on the collectives' ends): the others wait for it.")},
        {"confidence", QT_TRANSLATE_NOOP("Glossary", "confidence (high / medium / undetermined)"), QT_TRANSLATE_NOOP("Glossary","How sure the last arriver is. Undetermined: fewer than two ranks have a start, or the "
                            "last two arrive closer together than the clocks can tell apart; no rank is named. High: at "
                            "least half of the other ranks' own sync times match their wait for it. Medium: fewer do.")},
        {"lateness cost", QT_TRANSLATE_NOOP("Glossary", "lateness cost"), QT_TRANSLATE_NOOP("Glossary","What the other ranks wait for a rank in a step: the median rank's wait for it, summed "
                            "over the step's collectives. A rank is named slow when its cost is at least max(0.1 ms, "
                            "0.5 % of the step's median service).")},
        {"imbalance", QT_TRANSLATE_NOOP("Glossary", "imbalance"), QT_TRANSLATE_NOOP("Glossary","A figure (computing, free, prelaunch or exposed communication time) that spreads across "
                            "the ranks by more than 5 % ((max − min) / mean) while no rank waits for the rank at the "
                            "extreme: an uneven load, not a slow rank.")},
    });
}

QString shortcutRow(const QString& keys, const QString& what) {
    return QStringLiteral("<tr><td style='padding-right:14px'><b>%1</b></td><td>%2</td></tr>")
        .arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
}

// Every binding of a standard key on this platform ("F3, Ctrl+G").
QString keys(QKeySequence::StandardKey k) {
    QStringList out;
    for (const QKeySequence& s : QKeySequence::keyBindings(k))
        out << s.toString(QKeySequence::NativeText);
    return out.join(QStringLiteral(", "));
}

QString s(const char* text) {
    return QCoreApplication::translate("Shortcuts", text);
}

void showHtml(QWidget* parent, const QString& title, const QString& html, const QString& name) {
    QDialog dialog(parent);
    dialog.setObjectName(name);
    dialog.setWindowTitle(title);
    auto* layout = new QVBoxLayout(&dialog);
    auto* text = new QTextBrowser(&dialog);
    text->setHtml(html);
    layout->addWidget(text);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    layout->addWidget(buttons);
    dialog.resize(760, 620);
    dialog.exec();
}
} // namespace

QVector<GlossaryEntry> glossary() {
    QVector<GlossaryEntry> out;
    bubbleTerms(out);
    scopes(out);
    labels(out);
    tags(out);
    clusterTerms(out);
    return out;
}

QString glossaryDefinition(const QString& key) {
    for (const auto& e : glossary())
        if (e.key.compare(key, Qt::CaseInsensitive) == 0) return e.definition;
    return {};
}

QString glossaryHtml() {
    QString h, section;
    for (const auto& e : glossary()) {
        if (e.section != section) {
            h += (section.isEmpty() ? QString() : QStringLiteral("</dl>")) +
                 QStringLiteral("<h3>%1</h3><dl>").arg(e.section.toHtmlEscaped());
            section = e.section;
        }
        h += QStringLiteral("<dt><b>%1</b></dt><dd>%2</dd>").arg(e.term.toHtmlEscaped(), e.definition.toHtmlEscaped());
    }
    return h + QStringLiteral("</dl>");
}

QString pmuVerdictText(const std::string& verdict) {
    static const std::pair<const char*, const char*> kVerdicts[] = {
        {"compute-bound", QT_TRANSLATE_NOOP("Glossary", "compute-bound")},
        {"memory-bound", QT_TRANSLATE_NOOP("Glossary", "memory-bound")},
        {"scalar-bound", QT_TRANSLATE_NOOP("Glossary", "scalar-bound")},
        {"mte1-bound", QT_TRANSLATE_NOOP("Glossary", "mte1-bound")},
        {"mte3-bound", QT_TRANSLATE_NOOP("Glossary", "mte3-bound")},
        {"fixpipe-bound", QT_TRANSLATE_NOOP("Glossary", "fixpipe-bound")},
        {"pmu_unavailable", QT_TRANSLATE_NOOP("Glossary", "pmu_unavailable")},
        {"not_applicable", QT_TRANSLATE_NOOP("Glossary", "not_applicable")},
    };
    for (const auto& [id, text] : kVerdicts) {
        const std::string_view v(verdict), i(id);
        // The id, then nothing or the message that follows it (which starts with a control mark or ", ").
        if (v.substr(0, i.size()) == i && (v.size() == i.size() || v[i.size()] == ',' || v[i.size()] == i18n_detail::kBegin))
            return t(text) + coreText(v.substr(i.size()));
    }
    return coreText(verdict);
}

void showGlossary(QWidget* parent) {
    showHtml(parent, t(QT_TRANSLATE_NOOP("Glossary", "Glossary")), glossaryHtml(), QStringLiteral("glossaryDialog"));
}

QString keyboardShortcutsHtml() {
    auto table = [](const char* heading, const QStringList& rows) {
        return QStringLiteral("<h3>%1</h3><table>%2</table>").arg(s(heading).toHtmlEscaped(), rows.join(QString()));
    };
    const QString window = table(
        QT_TRANSLATE_NOOP("Shortcuts", "Window"),
        {shortcutRow(keys(QKeySequence::Open), s(QT_TRANSLATE_NOOP("Shortcuts", "Open a profiling folder"))),
         shortcutRow(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O).toString(QKeySequence::NativeText),
                     s(QT_TRANSLATE_NOOP("Shortcuts", "Compare the open rank with another profile"))),
         shortcutRow(QKeySequence(Qt::CTRL | Qt::Key_0).toString(QKeySequence::NativeText),
                     s(QT_TRANSLATE_NOOP("Shortcuts", "Fit the timeline"))),
         shortcutRow(keys(QKeySequence::Quit), s(QT_TRANSLATE_NOOP("Shortcuts", "Quit")))});
    const QString find = table(
        QT_TRANSLATE_NOOP("Shortcuts", "Find"),
        {shortcutRow(keys(QKeySequence::Find) + QStringLiteral(", /"),
                     s(QT_TRANSLATE_NOOP("Shortcuts", "Find a kernel, a host op or a bubble id (/ on the timeline)"))),
         shortcutRow(keys(QKeySequence::FindNext) + QStringLiteral(", ") + s(QT_TRANSLATE_NOOP("Shortcuts", "Enter")),
                     s(QT_TRANSLATE_NOOP("Shortcuts", "Next match"))),
         shortcutRow(keys(QKeySequence::FindPrevious) + QStringLiteral(", ") + s(QT_TRANSLATE_NOOP("Shortcuts", "Shift+Enter")),
                     s(QT_TRANSLATE_NOOP("Shortcuts", "Previous match"))),
         shortcutRow(s(QT_TRANSLATE_NOOP("Shortcuts", "Esc")), s(QT_TRANSLATE_NOOP("Shortcuts", "Close the find bar (in the find bar)")))});
    const QString timeline = table(
        QT_TRANSLATE_NOOP("Shortcuts", "Timeline"),
        {shortcutRow(s(QT_TRANSLATE_NOOP("Shortcuts", "Ctrl+wheel, W / S, + / −")), s(QT_TRANSLATE_NOOP("Shortcuts", "Zoom (around the mouse)"))),
         shortcutRow(s(QT_TRANSLATE_NOOP("Shortcuts", "Drag, A / D, Shift+wheel")), s(QT_TRANSLATE_NOOP("Shortcuts", "Pan"))),
         shortcutRow(QStringLiteral("F"), s(QT_TRANSLATE_NOOP("Shortcuts", "Fit the whole capture"))),
         shortcutRow(QStringLiteral("N / P"), s(QT_TRANSLATE_NOOP("Shortcuts", "Next / previous bubble by size"))),
         shortcutRow(QStringLiteral("L"), s(QT_TRANSLATE_NOOP("Shortcuts", "From the selected kernel to the host op that launched it, and back"))),
         shortcutRow(s(QT_TRANSLATE_NOOP("Shortcuts", "Shift+drag")),
                     s(QT_TRANSLATE_NOOP("Shortcuts", "Select a range: its statistics (busy time, kernels, the top kernels) show in the detail pane"))),
         shortcutRow(s(QT_TRANSLATE_NOOP("Shortcuts", "Esc")),
                     s(QT_TRANSLATE_NOOP("Shortcuts", "Clear the selection: the kernel or host op, the range and its statistics, the find matches"))),
         shortcutRow(s(QT_TRANSLATE_NOOP("Shortcuts", "Click a group header")), s(QT_TRANSLATE_NOOP("Shortcuts", "Fold or unfold the group")))});
    const QString ranks = table(
        QT_TRANSLATE_NOOP("Shortcuts", "Cluster view, Ranks tab"),
        {shortcutRow(keys(QKeySequence::Find), s(QT_TRANSLATE_NOOP("Shortcuts", "Find a rank number or a collective"))),
         shortcutRow(s(QT_TRANSLATE_NOOP("Shortcuts", "Ctrl+wheel, W / S, + / −")), s(QT_TRANSLATE_NOOP("Shortcuts", "Zoom (around the mouse)"))),
         shortcutRow(s(QT_TRANSLATE_NOOP("Shortcuts", "Drag, A / D, ← / →, Shift+wheel")), s(QT_TRANSLATE_NOOP("Shortcuts", "Pan"))),
         shortcutRow(QStringLiteral("↑ / ↓"), s(QT_TRANSLATE_NOOP("Shortcuts", "Scroll the ranks"))),
         shortcutRow(QStringLiteral("F"), s(QT_TRANSLATE_NOOP("Shortcuts", "Fit the whole capture"))),
         shortcutRow(s(QT_TRANSLATE_NOOP("Shortcuts", "Double-click")), s(QT_TRANSLATE_NOOP("Shortcuts", "Open the rank's timeline at that instant")))});
    return window + find + timeline + ranks;
}

void showKeyboardShortcuts(QWidget* parent) {
    showHtml(parent, s(QT_TRANSLATE_NOOP("Shortcuts", "Keyboard shortcuts")), keyboardShortcutsHtml(),
             QStringLiteral("shortcutsDialog"));
}

} // namespace bs::ui
