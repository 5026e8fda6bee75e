#include "health_panel.h"

#include "language.h"
#include "pipeline/analysis_run.h"

namespace bs::ui {

namespace {

QString esc(const std::string& s) {
    return coreText(s).toHtmlEscaped();
}

QString severityText(Severity s) {
    switch (s) {
    case Severity::Error:
        return HealthPanel::tr("error");
    case Severity::Warning:
        return HealthPanel::tr("warning");
    case Severity::Info:
        break;
    }
    return HealthPanel::tr("info");
}

} // namespace

HealthPanel::HealthPanel(QWidget* parent) : QTextBrowser(parent) {
    setOpenExternalLinks(false);
}

void HealthPanel::setResults(const AnalysisResult& r) {
    QString h;
    if (r.findings.empty())
        h = QStringLiteral("<p>%1</p>").arg(tr("No finding: the collection looks complete."));
    for (const auto& f : r.findings) {
        const QString color =
            f.severity == Severity::Error
                ? QStringLiteral("#b00020")
                : (f.severity == Severity::Warning ? QStringLiteral("#a65f00") : QStringLiteral("#2a5db0"));
        h += QStringLiteral("<p><b style='color:%1'>[%2] %3</b><br>%4")
                 .arg(color, severityText(f.severity), esc(f.id), esc(f.seen));
        if (!f.file.empty())
            h += QStringLiteral("<br><i>%1</i>")
                     .arg(esc(f.file) + (f.line > 0 ? QStringLiteral(":%1").arg(f.line) : QString()));
        if (!f.impact.empty()) h += QStringLiteral("<br>%1 %2").arg(tr("Effect:"), esc(f.impact));
        if (!f.fix.empty()) h += QStringLiteral("<br>%1 %2").arg(tr("Fix:"), esc(f.fix));
        h += QStringLiteral("</p>");
    }
    for (const auto& n : r.anomaly.notes)
        h += QStringLiteral("<p>%1</p>").arg(esc(n));
    setHtml(h);
}

QString HealthPanel::title(const AnalysisResult& r) {
    return r.findings.empty() ? tr("Health") : tr("Health (%1)").arg(r.findings.size());
}

} // namespace bs::ui
