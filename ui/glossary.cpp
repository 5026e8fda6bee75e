#include "glossary.h"

#include <QCoreApplication>

namespace bs::ui {

namespace {
QString t(const char* s) {
    return QCoreApplication::translate("Glossary", s);
}
} // namespace

QVector<GlossaryEntry> glossary() {
    return {
        {QStringLiteral("bubble"), t(QT_TRANSLATE_NOOP("Glossary", "bubble")), t(QT_TRANSLATE_NOOP("Glossary","A span where no device stream runs any kernel (the union of all streams is idle). Windows of "
                        "50 µs or more are significant and get an id (b0001, the longest first)."))},
        {QStringLiteral("prelaunch"), t(QT_TRANSLATE_NOOP("Glossary", "prelaunch")), t(QT_TRANSLATE_NOOP("Glossary","From the step's start to its first device work: the host prepares the step while the "
                           "device waits (the profiler's Preparing)."))},
        {QStringLiteral("tail"), t(QT_TRANSLATE_NOOP("Glossary", "tail")), t(QT_TRANSLATE_NOOP("Glossary","From the step's last device work to the step's end."))},
        {QStringLiteral("internal bubble"), t(QT_TRANSLATE_NOOP("Glossary", "internal bubble")), t(QT_TRANSLATE_NOOP("Glossary","An idle gap between two kernels inside a step (the profiler's Free)."))},
        {QStringLiteral("underfeed"), t(QT_TRANSLATE_NOOP("Glossary", "underfeed")), t(QT_TRANSLATE_NOOP("Glossary","Step service minus device busy time: how long the device waited in the step. The underfeed "
                           "ratio divides it by the service."))},
        {QStringLiteral("service"), t(QT_TRANSLATE_NOOP("Glossary", "service")), t(QT_TRANSLATE_NOOP("Glossary","A step's wall time: from its start marker to its end."))},
        {QStringLiteral("dominant group"), t(QT_TRANSLATE_NOOP("Glossary", "dominant group")), t(QT_TRANSLATE_NOOP("Glossary","The step group with the most service time: steps that run the same kernel sequence "
                                "(the same template). Its figures are the ones compared and reported first."))},
        {QStringLiteral("host coverage"), t(QT_TRANSLATE_NOOP("Glossary", "host coverage")), t(QT_TRANSLATE_NOOP("Glossary","The share of a bubble covered by any host event (union over the host threads). Low "
                               "coverage: nothing traced explains the wait."))},
        {QStringLiteral("parallelism"), t(QT_TRANSLATE_NOOP("Glossary", "parallelism")), t(QT_TRANSLATE_NOOP("Glossary","How many host threads are busy at once inside a bubble, on average: above 1, threads "
                             "overlap."))},
        {QStringLiteral("hidden issue"), t(QT_TRANSLATE_NOOP("Glossary", "hidden issue")), t(QT_TRANSLATE_NOOP("Glossary","The steps look healthy on average, but a few windows hold most of the idle time: the "
                              "averages hide them."))},
        {QStringLiteral("wait anchor"), t(QT_TRANSLATE_NOOP("Glossary", "wait anchor")), t(QT_TRANSLATE_NOOP("Glossary","A kernel whose own 'wait' time is large because it waits for something before it (a "
                             "collective, a sync): its cost belongs to what it waits for."))},
        {QStringLiteral("WAIT_ANCHOR_FALSE_HOTSPOT"), t(QT_TRANSLATE_NOOP("Glossary", "WAIT_ANCHOR_FALSE_HOTSPOT")), t(QT_TRANSLATE_NOOP("Glossary","The op ranks high only through its wait time: ranking it as a hot spot "
                                           "would be wrong."))},
        {QStringLiteral("WAIT_POLLUTION_RISK"), t(QT_TRANSLATE_NOOP("Glossary", "WAIT_POLLUTION_RISK")), t(QT_TRANSLATE_NOOP("Glossary","The op's waits overlap a collective: its wait is the communication's, not its own."))},
        {QStringLiteral("PMU verdict"), t(QT_TRANSLATE_NOOP("Glossary", "PMU verdict")), t(QT_TRANSLATE_NOOP("Glossary","What the op's hardware counters say bounds it (compute, memory, or too few cores), when "
                             "the collection has PMU data."))},
        {QStringLiteral("last arriver"), t(QT_TRANSLATE_NOOP("Glossary", "last arriver")), t(QT_TRANSLATE_NOOP("Glossary","In a collective, the rank that reaches it last on the aligned clock (every rank's clock "
                              "aligned on the collectives' ends): the others wait for it."))},
    };
}

QString glossaryDefinition(const QString& key) {
    for (const auto& e : glossary())
        if (e.key.compare(key, Qt::CaseInsensitive) == 0) return e.definition;
    return {};
}

QString glossaryHtml() {
    QString h = QStringLiteral("<dl>");
    for (const auto& e : glossary())
        h += QStringLiteral("<dt><b>%1</b></dt><dd>%2</dd>").arg(e.term.toHtmlEscaped(), e.definition.toHtmlEscaped());
    return h + QStringLiteral("</dl>");
}

} // namespace bs::ui
