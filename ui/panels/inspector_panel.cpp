#include "inspector_panel.h"

#include "pipeline/analysis_run.h"
#include "inspector.h"
#include "model/profile.h"

#include <QScrollBar>
#include <QTextBrowser>
#include <QUrl>

namespace bs::ui {

InspectorPanel::InspectorPanel(QWidget* parent) : QSplitter(Qt::Vertical, parent) {
    detail_ = new QTextBrowser(this);
    detail_->setObjectName(QStringLiteral("bubbleDetail"));
    detail_->setOpenExternalLinks(false);
    detail_->setOpenLinks(false); // "line:N" and "kernel:N" are handled here (onLink)
    stackPane_ = new QTextBrowser(this);
    stackPane_->setObjectName(QStringLiteral("stackPane"));
    stackPane_->setOpenExternalLinks(false);
    stackPane_->setVisible(false);
    setStretchFactor(0, 3);
    setStretchFactor(1, 2);
    connect(detail_, &QTextBrowser::anchorClicked, this, &InspectorPanel::onLink);
}

void InspectorPanel::setResults(std::shared_ptr<const Profile> profile,
                                std::shared_ptr<const AnalysisResult> analysis,
                                std::shared_ptr<const RangeStats> rangeStats) {
    profile_ = std::move(profile);
    analysis_ = std::move(analysis);
    rangeStats_ = std::move(rangeStats);
    showNothing();
}

void InspectorPanel::showNothing() {
    subject_ = {};
    detail_->clear();
    stackPane_->clear();
    stackPane_->hide();
}

void InspectorPanel::showBubble(int window, int userLine) {
    if (!profile_ || !analysis_ || window < 0 ||
        static_cast<std::size_t>(window) >= analysis_->anomaly.windows.size())
        return;
    const BubbleWindow& w = analysis_->anomaly.windows[static_cast<std::size_t>(window)];
    if (userLine >= static_cast<int>(w.stacks.userFrames.size())) userLine = -1;
    subject_ = {Subject::Kind::Bubble, window, userLine};
    const QString stack = Inspector::userLineStackHtml(*profile_, w, userLine);
    stackPane_->setVisible(!stack.isEmpty());
    stackPane_->setHtml(stack);
    stackPane_->verticalScrollBar()->setValue(0); // the count and the innermost frames first
    detail_->setHtml(Inspector::bubbleHtml(*analysis_, w, userLine));
}

void InspectorPanel::showKernel(int kernel) {
    if (!profile_ || !analysis_ || kernel < 0 || static_cast<std::size_t>(kernel) >= profile_->kernels.size())
        return;
    subject_ = {Subject::Kind::Kernel, kernel};
    stackPane_->hide(); // a user line's stack no longer applies
    detail_->setHtml(Inspector::kernelHtml(*profile_, *analysis_, kernel, launchOf_ ? launchOf_(kernel) : KernelLaunch{}));
}

void InspectorPanel::showHostEvent(int index, int depth) {
    if (!profile_ || !analysis_ || index < 0 ||
        static_cast<std::size_t>(index) >= profile_->hostEvents.size())
        return;
    subject_ = {Subject::Kind::HostEvent, index, -1, depth};
    stackPane_->hide();
    detail_->setHtml(Inspector::hostEventHtml(*profile_, *analysis_, index, depth));
}

void InspectorPanel::showRange(TimeNs start, TimeNs end, TimeNs* busy, std::size_t* kernels) {
    if (!profile_) return;
    subject_ = {Subject::Kind::Range, -1, -1, 0, start, end};
    stackPane_->hide();
    TimeNs b = 0;
    std::size_t n = 0;
    detail_->setHtml(Inspector::rangeHtml(*profile_, start, end, &b, &n, rangeStats_.get()));
    if (busy) *busy = b;
    if (kernels) *kernels = n;
}

void InspectorPanel::show(const Subject& s) {
    showNothing();
    switch (s.kind) {
    case Subject::Kind::Nothing:
        break;
    case Subject::Kind::Bubble:
        showBubble(s.index, s.userLine);
        break;
    case Subject::Kind::Kernel:
        showKernel(s.index);
        break;
    case Subject::Kind::HostEvent:
        showHostEvent(s.index, s.depth);
        break;
    case Subject::Kind::Range:
        showRange(s.start, s.end);
        break;
    }
}

void InspectorPanel::onLink(const QUrl& link) {
    bool ok = false;
    const int n = link.path().toInt(&ok);
    if (!ok || !profile_ || !analysis_) return;
    if (link.scheme() == QStringLiteral("kernel")) {
        if (n >= 0 && static_cast<std::size_t>(n) < profile_->kernels.size()) emit kernelLinkActivated(n);
        return;
    }
    if (link.scheme() == QStringLiteral("launcher")) { // "launcher:K": the host op that launched kernel K
        if (n >= 0 && static_cast<std::size_t>(n) < profile_->kernels.size()) emit launcherLinkActivated(n);
        return;
    }
    // "line:N" of the bubble shown: that line chosen, the table kept where it was scrolled to.
    if (link.scheme() != QStringLiteral("line") || subject_.kind != Subject::Kind::Bubble) return;
    const auto& lines =
        analysis_->anomaly.windows[static_cast<std::size_t>(subject_.index)].stacks.userFrames;
    if (n < 0 || static_cast<std::size_t>(n) >= lines.size()) return;
    const int scroll = detail_->verticalScrollBar()->value();
    showBubble(subject_.index, n);
    detail_->verticalScrollBar()->setValue(scroll);
    emit userLineChosen(lines[static_cast<std::size_t>(n)].eventIndices);
}

} // namespace bs::ui
