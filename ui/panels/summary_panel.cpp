#include "summary_panel.h"

#include "language.h"
#include "pipeline/analysis_run.h"
#include "pipeline/recommendations.h"
#include "report/gain_text.h"
#include "model/profile.h"

#include <QRegularExpression>
#include <QTextCharFormat>
#include <QUrl>

#include <algorithm>

namespace bs::ui {

namespace {

QString esc(const std::string& s) {
    return coreText(s).toHtmlEscaped();
}
QString msText(TimeNs ns) {
    return QString::number(nsToMs(ns), 'f', 3);
}

} // namespace

QString linkBubbleIds(const QString& escapedHtml) {
    static const QRegularExpression id(QStringLiteral("\\b(b\\d{4,})\\b"));
    QString out = escapedHtml;
    out.replace(id, QStringLiteral("<a href=\"bubble:\\1\">\\1</a>"));
    return out;
}

SummaryPanel::SummaryPanel(QWidget* parent) : QTextBrowser(parent) {
    setOpenLinks(false);
    setObjectName(QStringLiteral("summary"));
    connect(this, &QTextBrowser::anchorClicked, this, &SummaryPanel::onLink);
}

void SummaryPanel::onLink(const QUrl& url) {
    if (!analysis_) return;
    const QString what = url.scheme(), arg = url.path();
    if (what == QStringLiteral("bubble")) {
        const auto& ws = analysis_->anomaly.windows;
        for (std::size_t i = 0; i < ws.size(); ++i)
            if (coreText(ws[i].id) == arg) emit bubbleActivated(static_cast<int>(i));
    } else if (what == QStringLiteral("step")) {
        bool ok = false;
        const int i = arg.toInt(&ok);
        if (ok && i >= 0 && static_cast<std::size_t>(i) < analysis_->steps.steps.size()) emit stepActivated(i);
    } else if (what == QStringLiteral("op")) {
        emit opActivated(QUrl::fromPercentEncoding(arg.toUtf8()));
    }
}

void SummaryPanel::setResults(const Profile& profile, const AnalysisResult& r) {
    analysis_ = &r;
    setHtml(html(profile, r));
}

void SummaryPanel::showMessage(const QString& text) {
    analysis_ = nullptr;
    // setPlainText writes in the cursor's format: after a click on a link, the link's (href included).
    setCurrentCharFormat(QTextCharFormat());
    setPlainText(text);
}

QString SummaryPanel::html(const Profile& profile, const AnalysisResult& r, int rows) {
    const auto cap = static_cast<std::size_t>(std::max(rows, 0));
    const auto& a = r.anomaly;
    const QStringList questions = {tr("Are there significant bubbles?"), tr("Which step group holds them?"),
                                   tr("Prelaunch, tail, internal or inter-step?"),
                                   tr("Is there a host-side risk?"), tr("Is the evidence enough?")};
    QString html = QStringLiteral("<h3>%1</h3>").arg(tr("Bubble-first summary"));
    // Errors in the data come first: they lower the confidence of everything below (as in the reports).
    QStringList errors;
    for (const auto& e : bs::dataErrorNames(r.findings))
        errors << esc(e);
    if (!errors.isEmpty())
        html += QStringLiteral("<p style=\"color:#b00020\"><b>%1</b></p>")
                    .arg(tr("Data errors: %1. They lower the confidence (now %2); see the data-quality "
                            "findings in the report.")
                             .arg(errors.join(QStringLiteral("; ")), esc(a.confidence)));
    html += QStringLiteral("<ol>");
    for (int i = 0; i < static_cast<int>(a.answers.size()) && i < questions.size(); ++i)
        html += QStringLiteral("<li><b>%1</b> %2</li>")
                    .arg(questions[i], linkBubbleIds(esc(a.answers[static_cast<std::size_t>(i)])));
    html += QStringLiteral("</ol>");

    // What to do next: the recommendations by priority, each target a link when it names a bubble, an op
    // or a step group.
    if (!a.recommendations.empty()) {
        // In the core's order: by priority, then by replayed gain (comesBefore, core/pipeline).
        std::vector<const Recommendation*> recs;
        for (const auto& rc : a.recommendations)
            recs.push_back(&rc);
        html += QStringLiteral("<h3>%1</h3><table border=1 cellspacing=0 cellpadding=3><tr><th>%2</th><th>%3</th>"
                               "<th>%4</th><th>%5</th><th>%6</th></tr>")
                    .arg(tr("What to do next"), tr("Priority"), tr("Action"), tr("Target"), tr("Why"),
                         tr("Expected gain"));
        for (const Recommendation* rc : recs) {
            QString target = esc(rc->target);
            bool linked = false;
            for (const auto& o : a.ops)
                if (o.name == rc->target) {
                    target = QStringLiteral("<a href=\"op:%1\">%2</a>")
                                 .arg(QString::fromUtf8(QUrl::toPercentEncoding(coreText(rc->target))), target);
                    linked = true;
                    break;
                }
            for (const auto& g : a.groups)
                if (!linked && g.id == rc->target && !g.steps.empty()) {
                    target = QStringLiteral("<a href=\"step:%1\">%2</a>").arg(g.steps.front()).arg(target);
                    linked = true;
                }
            if (!linked) target = linkBubbleIds(target);
            const std::string gain = gainText(*rc);
            html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td><td>%3 <small>%4</small></td><td>%5</td>"
                                   "<td>%6</td></tr>")
                        .arg(esc(rc->priority), linkBubbleIds(esc(rc->action)), target,
                             rc->target.empty() ? esc(rc->scope) : QStringLiteral("(%1)").arg(esc(rc->scope)),
                             linkBubbleIds(esc(rc->why)),
                             gain.empty() ? QStringLiteral("\u2014")
                                          : rc->replay ? QStringLiteral("<b>%1</b>").arg(linkBubbleIds(esc(gain)))
                                                       : linkBubbleIds(esc(gain)));
        }
        html += QStringLiteral("</table>");
    }

    html += QStringLiteral("<h3>%1</h3><table border=1 cellspacing=0 cellpadding=3><tr>").arg(tr("Steps (ms)"));
    for (const QString& h : {tr("Step"), tr("Group"), tr("Service"), tr("Busy"), tr("Underfeed"), tr("Prelaunch"),
                             tr("Internal"), tr("Largest"), tr("Tail"), tr("Bubbles")})
        html += QStringLiteral("<th>%1</th>").arg(h);
    html += QStringLiteral("</tr>");
    const std::size_t stepRows = std::min<std::size_t>(r.metrics.size(), cap);
    for (std::size_t i = 0; i < stepRows; ++i) {
        const auto& m = r.metrics[i];
        QString gid;
        for (const auto& g : a.groups)
            if (std::find(g.steps.begin(), g.steps.end(), static_cast<int>(i)) != g.steps.end())
                gid = coreText(g.id);
        html += QStringLiteral("<tr><td><a href=\"step:%1\">%2</a></td><td>%3</td><td align=right>%4</td><td "
                               "align=right>%5</td><td align=right>%6</td><td align=right>%7</td>"
                               "<td align=right>%8</td><td align=right>%9</td>")
                    .arg(i)
                    .arg(m.stepId >= 0 ? QString::number(m.stepId) : QStringLiteral("pseudo"), gid, msText(m.service),
                         msText(m.busyUnion), QString::number(m.underfeedRatio, 'f', 3), msText(m.prelaunchGap),
                         msText(m.internalBubbleTotal), msText(m.largestInternalBubble));
        html += QStringLiteral("<td align=right>%1</td><td align=right>%2</td></tr>").arg(msText(m.tailGap)).arg(m.bubbleCount);
    }
    html += QStringLiteral("</table>");
    if (r.metrics.size() > stepRows)
        html += QStringLiteral("<p><i>%1</i></p>")
                    .arg(tr("… %1 more steps: every step is in the Charts tab and the Text report tab.")
                             .arg(r.metrics.size() - stepRows));
    if (r.crossCheck.available) {
        html += QStringLiteral("<h3>%1</h3><table border=1 cellspacing=0 "
                               "cellpadding=3><tr><th>%2</th><th>%3</th><th>%4</th><th>%5</th></tr>")
                    .arg(tr("Profiler cross-check (%1, µs)").arg(QString::fromUtf8(bs::crossCheckSourceName(profile.inventory))),
                         tr("Step"), tr("Figure"), tr("Ours"), tr("Profiler"));
        std::size_t shown = 0, mismatches = 0, more = 0;
        for (const auto& row : r.crossCheck.rows)
            for (const auto& f : row.figures) {
                if (shown >= cap && !(f.mismatch && mismatches < cap)) {
                    ++more;
                    continue;
                }
                if (shown < cap)
                    ++shown;
                else
                    ++mismatches;
                html += QStringLiteral("<tr><td>%1</td><td>%2</td><td align=right>%3</td><td align=right>%4%5</td></tr>")
                            .arg(row.stepId)
                            .arg(coreText(f.field) + QStringLiteral(" / ") + coreText(f.profilerColumn))
                            .arg(f.oursUs, 0, 'f', 3)
                            .arg(f.profilerUs ? QString::number(*f.profilerUs, 'f', 3) : QStringLiteral("n/a"),
                                 f.mismatch ? QStringLiteral(" <b style='color:#c00'>%1</b>").arg(tr("mismatch")) : QString());
            }
        html += QStringLiteral("</table>");
        if (more > 0)
            html += QStringLiteral("<p><i>%1</i></p>")
                        .arg(tr("… %1 more rows: every row is in the Text report tab and the exported JSON.").arg(more));
    }
    return html;
}

} // namespace bs::ui
