// The window's File ▸ Export: the anomaly JSON and reports as the headless command writes them, the
// timeline as shown (PNG / SVG), the report with a picture of each top bubble — all from the loaded result.
#include "main_window.h"

#include "pipeline/analysis_run.h"
#include "i18n/message.h"
#include "language.h"
#include "load_flow.h"
#include "model/profile.h"
#include "report/anomaly_report.h"
#include "report/architecture_report.h"
#include "report/json_export.h"
#include "report/output_target.h"
#include "timeline_image.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>

#include <map>
#include <string>

namespace bs::ui {

QString MainWindow::defaultExportName(Export kind) const {
    if (!flow_->profile()) return {};
    switch (kind) {
    case Export::AnomalyJson:
        return QStringLiteral("anomaly_discovery_%1.json")
            .arg(QFileInfo(coreText(flow_->profile()->inventory.rankDir)).fileName());
    case Export::AnomalyReport:
        return coreText(defaultAnomalyReportName(*flow_->profile()));
    case Export::ArchitectureReport:
        return coreText(defaultArchitectureReportName(*flow_->profile()));
    }
    return {};
}

QString MainWindow::exportTo(Export kind, const QString& path) const {
    if (!flow_->profile() || !flow_->analysis()) return tr("Nothing is loaded.");
    const ScopedLanguage language(currentLanguage()); // the export speaks the window's language
    std::string text;
    switch (kind) {
    case Export::AnomalyJson:
        text = renderJson(*flow_->profile(), *flow_->analysis());
        break;
    case Export::AnomalyReport:
        text = renderAnomalyReport(*flow_->profile(), *flow_->analysis());
        break;
    case Export::ArchitectureReport:
        text = renderArchitectureReport(*flow_->profile(), *flow_->analysis());
        break;
    }
    return coreText(writeOutput(path.toStdString(), text));
}

QString MainWindow::exportTimelineImage(const QString& path) const {
    if (!flow_->profile()) return tr("Nothing is loaded.");
    QString err;
    const QByteArray bytes = timelinePicture(*timeline_, pictureFormatFor(path), &err);
    if (bytes.isEmpty()) return err;
    return coreText(writeOutput(path.toStdString(),
                                std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size()))));
}

QString MainWindow::exportReportWithPictures(const QString& dir) const {
    if (!flow_->profile() || !flow_->analysis()) return tr("Nothing is loaded.");
    const ScopedLanguage language(currentLanguage());
    // bubbles/<id>.png for the report's top windows (the five largest), each written whole or not at all.
    std::map<std::string, std::string> pictures;
    const auto& windows = flow_->analysis()->anomaly.windows;
    if (!QDir(dir).mkpath(QStringLiteral("bubbles")))
        return tr("The folder %1/bubbles could not be made.").arg(dir);
    for (std::size_t i = 0; i < windows.size() && i < 5; ++i) {
        QString err;
        const QByteArray png = bubblePicture(flow_->profile(), flow_->analysis(), static_cast<int>(i),
                                             QSize(1400, 0), QStringLiteral("png"), &err); // as tall as its lanes
        if (png.isEmpty()) return err;
        const std::string rel = "bubbles/" + windows[i].id + ".png";
        const std::string e =
            writeOutput((dir + QLatin1Char('/')).toStdString() + rel,
                        std::string_view(png.constData(), static_cast<std::size_t>(png.size())));
        if (!e.empty()) return coreText(e);
        pictures[windows[i].id] = rel;
    }
    const std::string report =
        renderAnomalyReport(*flow_->profile(), *flow_->analysis(), [&](const std::string& id) {
            const auto it = pictures.find(id);
            return it == pictures.end() ? std::string() : it->second;
        });
    return coreText(writeOutput(
        (dir + QLatin1Char('/') + defaultExportName(Export::AnomalyReport)).toStdString(), report));
}

void MainWindow::onExport(Export kind) {
    const QString filter = kind == Export::AnomalyJson ? tr("JSON (*.json)") : tr("Markdown (*.md)");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export"), defaultExportName(kind), filter);
    if (path.isEmpty()) return;
    const QString err = exportTo(kind, path);
    if (!err.isEmpty())
        QMessageBox::critical(this, tr("Export failed"),
                              tr("The file was not written; nothing was changed.\n\n%1").arg(err));
    else
        status_->setText(tr("Exported %1").arg(path));
}

void MainWindow::onExportAll() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export all to folder"));
    if (dir.isEmpty()) return;
    QStringList written;
    for (Export k : {Export::AnomalyJson, Export::AnomalyReport, Export::ArchitectureReport}) {
        const QString path = dir + QLatin1Char('/') + defaultExportName(k);
        const QString err = exportTo(k, path);
        if (!err.isEmpty()) {
            QMessageBox::critical(this, tr("Export failed"),
                                  tr("The file was not written; nothing was changed.\n\n%1").arg(err));
            return;
        }
        written << path;
    }
    status_->setText(tr("Exported %1 files to %2").arg(written.size()).arg(dir));
}

} // namespace bs::ui
