#include "ranks_tab.h"

#include "cluster/cluster_model.h"
#include "cluster_models.h"
#include "ranks_timeline.h"
#include "timeline_image.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace bs::ui {

RanksTab::RanksTab(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* row = new QHBoxLayout;
    raw_ = new QCheckBox(this);
    raw_->setObjectName(QStringLiteral("rawClocks"));
    fit_ = new QPushButton(this);
    fit_->setObjectName(QStringLiteral("fitRanks"));
    stepLabel_ = new QLabel(this);
    step_ = new QComboBox(this);
    step_->setObjectName(QStringLiteral("ranksStep"));
    find_ = new QLineEdit(this);
    find_->setObjectName(QStringLiteral("ranksFind"));
    find_->setClearButtonEnabled(true);
    find_->setMinimumWidth(200);
    status_ = new QLabel(this);
    row->addWidget(raw_);
    row->addWidget(fit_);
    row->addWidget(stepLabel_);
    row->addWidget(step_);
    row->addSpacing(12);
    row->addWidget(find_);
    row->addWidget(status_, 1);
    layout->addLayout(row);
    legend_ = new QLabel(this);
    legend_->setTextFormat(Qt::RichText);
    legend_->setWordWrap(true); // a narrow window wraps it instead of growing
    layout->addWidget(legend_);
    stack_ = new QStackedWidget(this);
    timeline_ = new RanksTimeline(stack_);
    message_ = new QLabel(stack_);
    message_->setAlignment(Qt::AlignCenter);
    message_->setWordWrap(true);
    stack_->addWidget(timeline_);
    stack_->addWidget(message_);
    layout->addWidget(stack_, 1);
    retranslate();

    connect(raw_, &QCheckBox::toggled, timeline_, &RanksTimeline::setRawClocks);
    connect(fit_, &QPushButton::clicked, this, [this] {
        step_->setCurrentIndex(0);
        timeline_->fit();
    });
    connect(step_, &QComboBox::activated, this, [this](int i) {
        if (i <= 0)
            timeline_->fit();
        else
            timeline_->fitStep(step_->itemData(i).toLongLong());
    });
    connect(find_, &QLineEdit::returnPressed, this, &RanksTab::runFind);
    connect(find_, &QLineEdit::textChanged, this, [this](const QString& t) {
        if (t.trimmed().isEmpty()) status_->clear();
    });
    connect(timeline_, &RanksTimeline::findRequested, this, &RanksTab::activateFind);
    connect(timeline_, &RanksTimeline::rankClicked, this, &RanksTab::rankClicked);
    connect(timeline_, &RanksTimeline::rankActivated, this, &RanksTab::rankActivated);
}

RanksTab::~RanksTab() = default;

void RanksTab::setCluster(std::shared_ptr<const ClusterResult> cluster) {
    cluster_ = std::move(cluster);
    raw_->blockSignals(true);
    raw_->setChecked(false);
    raw_->blockSignals(false);
    find_->clear();
    status_->clear();
    timeline_->setCluster(cluster_);
    partsCut_ = false;
    if (cluster_)
        for (const auto& cc : cluster_->collectives)
            partsCut_ = partsCut_ || cc.ranksTotal > cc.parts.size();
    retranslate();
    fillSteps();
    stack_->setCurrentWidget(showsTimeline() ? static_cast<QWidget*>(timeline_) : message_);
    const bool on = showsTimeline();
    for (QWidget* w : {static_cast<QWidget*>(raw_), static_cast<QWidget*>(fit_), static_cast<QWidget*>(step_),
                       static_cast<QWidget*>(find_)})
        w->setEnabled(on);
}

bool RanksTab::showsTimeline() const {
    return cluster_ && timeline_->hasLanes();
}

void RanksTab::fillSteps() {
    step_->clear();
    step_->addItem(tr("all steps"), QVariant());
    if (!cluster_) return;
    for (std::int64_t s : cluster_->steps)
        step_->addItem(ClusterText::stepName(s), QVariant::fromValue<qlonglong>(s));
}

bool RanksTab::fitStep(std::int64_t step) {
    const int i = step_->findData(QVariant::fromValue<qlonglong>(step));
    if (i > 0) step_->setCurrentIndex(i);
    return timeline_->fitStep(step);
}

void RanksTab::activateFind() {
    find_->setFocus(Qt::ShortcutFocusReason);
    find_->selectAll();
}

void RanksTab::runFind() {
    const QString found = timeline_->find(find_->text());
    status_->setText(found.isEmpty() && !find_->text().trimmed().isEmpty()
                         ? tr("No rank or collective matches “%1”.").arg(find_->text().trimmed())
                         : found);
}

void RanksTab::retranslate() {
    raw_->setText(tr("Raw clocks"));
    raw_->setToolTip(
        tr("Each rank on its own clock, as it recorded; unchecked: every rank on the aligned clock "
           "(its clock offset from the collectives' ends taken off)."));
    fit_->setText(tr("Fit"));
    fit_->setToolTip(tr("Shows the whole capture (F)."));
    stepLabel_->setText(tr("Step:"));
    if (step_->count() > 0) step_->setItemText(0, tr("all steps"));
    for (int i = 1; i < step_->count(); ++i)
        step_->setItemText(i, ClusterText::stepName(step_->itemData(i).toLongLong()));
    find_->setToolTip(
        tr("A rank number selects that rank; part of a collective's name shows it across the ranks "
           "(Enter again: the next match)."));
    find_->setPlaceholderText(tr("Rank or collective (Ctrl+F)"));
    const auto swatch = [](const char* colour, const QString& text) {
        return QStringLiteral("<span style=\"color:%1\">■</span>&nbsp;%2")
            .arg(QLatin1String(colour), text.toHtmlEscaped());
    };
    const QString cut = partsCut_ ? QStringLiteral("&nbsp;&nbsp;&nbsp;") +
                                        tr("Each collective marks its %1 earliest and %1 latest ranks.")
                                            .arg(kCollectivePartsKept / 2)
                                            .toHtmlEscaped()
                                  : QString();
    legend_->setText(
        QStringList{swatch("#3b7dd8", tr("device busy")), swatch("#2a9d8f", tr("HCCL")),
                    swatch("#c9d3e0", tr("step")),
                    swatch("#222222", tr("arrival at a collective (grey: last arriver undetermined)")),
                    swatch("#d9453f", tr("the last arriver")),
                    swatch("#f09a28", tr("wait for the last arriver")), swatch("#c0281e", tr("slow rank"))}
            .join(QStringLiteral("&nbsp;&nbsp;&nbsp;")) +
        QStringLiteral("&nbsp;&nbsp;&nbsp;<i>%1</i>")
            .arg(tr("Ctrl+wheel, +/− zoom · drag, arrows pan · double-click opens a rank").toHtmlEscaped()) +
        cut);
    message_->setText(
        tr("The ranks' timelines are not available: this cluster was merged from rank summaries, "
           "which keep no device lanes. Open the parent folder of the ranks to see them."));
}

void RanksTab::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::LanguageChange) retranslate();
}

QByteArray ranksPicture(std::shared_ptr<const ClusterResult> cluster, std::int64_t step, bool useStep,
                        QSize size, const QString& format, QString* error) {
    RanksTab tab;
    tab.setAttribute(Qt::WA_DontShowOnScreen);
    tab.resize(size);
    tab.setCluster(std::move(cluster));
    if (!tab.showsTimeline()) {
        if (error)
            *error = QStringLiteral("the cluster carries no device lanes (a folder of rank summaries)");
        return {};
    }
    tab.show(); // lays the tab out at `size`, off screen
    tab.resize(size);
    if (useStep && !tab.fitStep(step)) {
        if (error) *error = QStringLiteral("no rank has step %1").arg(step);
        return {};
    }
    if (!useStep) tab.timeline()->fit();
    return widgetPicture(tab, format, QStringLiteral("BubbleScope ranks"), error);
}

} // namespace bs::ui
