#include "charts_panel.h"

#include "language.h"
#include "pipeline/analysis_run.h"

#include <QBarCategoryAxis>
#include <QCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QHorizontalBarSeries>
#include <QPercentBarSeries>
#include <QStackedBarSeries>
#include <QEvent>
#include <QFontMetrics>
#include <QSet>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace bs::ui {

namespace {
// The smallest of 1, 2, 5, 10, 20, 50, … that is at least n.
int niceStep(int n) {
    for (int base = 1;; base *= 10)
        for (int m : {1, 2, 5})
            if (m * base >= n) return m * base;
}
} // namespace

ChartsPanel::ChartsPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    shares_ = new QCheckBox(this);
    shares_->setChecked(true);
    idleOnly_ = new QCheckBox(this);
    retranslate();
    auto* options = new QHBoxLayout;
    options->addWidget(shares_);
    options->addWidget(idleOnly_);
    options->addStretch(1);
    layout->addLayout(options);
    charts_ = new QHBoxLayout;
    layout->addLayout(charts_, 1);
    connect(shares_, &QCheckBox::toggled, this, [this](bool on) {
        if (on) idleOnly_->setChecked(false);
        rebuild();
    });
    connect(idleOnly_, &QCheckBox::toggled, this, [this](bool on) {
        if (on) shares_->setChecked(false);
        rebuild();
    });
}

bool ChartsPanel::showsShares() const {
    return shares_->isChecked();
}

void ChartsPanel::setShowsShares(bool on) {
    shares_->setChecked(on);
}

void ChartsPanel::setIdleOnly(bool on) {
    idleOnly_->setChecked(on);
}

QVector<double> ChartsPanel::drawnValues(int kind) const {
    return kind >= 0 && kind < 4 ? values_[kind] : QVector<double>();
}

void ChartsPanel::setResults(const AnalysisResult& analysis) {
    analysis_ = &analysis;
    rebuild();
}

void ChartsPanel::clear() {
    analysis_ = nullptr;
    rebuild();
}

QStringList ChartsPanel::drawnStepLabels() const {
    return stepAxis_ ? stepAxis_->categoriesLabels() : QStringList();
}

// Every how many bars a step number fits under them: the per-step chart has half the panel's width, less
// its value axis and margins (~130 px); a label needs its text's width and a gap.
int ChartsPanel::labelEveryForWidth() const {
    if (cats_.isEmpty() || !stepAxis_) return 1;
    const int plot = std::max(120, width() / 2 - 130);
    const int fit = std::max(1, plot / (widestLabel_ + 16));
    return niceStep(static_cast<int>((cats_.size() + fit - 1) / fit));
}

// The step numbers at bars 0, every, 2 x every, … (the axis runs over bar indices, so a label sits under
// its bar's centre); labels already written are skipped (two steps may carry the same number).
void ChartsPanel::labelSteps() {
    if (!stepAxis_) return;
    labelEvery_ = labelEveryForWidth();
    for (const QString& label : stepAxis_->categoriesLabels())
        stepAxis_->remove(label);
    QSet<QString> written;
    for (int i = 0; i < cats_.size(); i += labelEvery_)
        if (!written.contains(cats_[i])) {
            written.insert(cats_[i]);
            stepAxis_->append(cats_[i], i);
        }
}

void ChartsPanel::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    if (stepAxis_ && labelEveryForWidth() != labelEvery_) labelSteps();
}

void ChartsPanel::rebuild() {
    while (auto* item = charts_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    steps_.clear();
    cats_.clear();
    stepAxis_ = nullptr;
    labelEvery_ = widestLabel_ = 0;
    for (auto& v : values_)
        v.clear();
    if (!analysis_) return;
    const auto& r = *analysis_;
    const auto& a = r.anomaly;
    const bool shares = shares_->isChecked(), idleOnly = idleOnly_->isChecked();
    // Per-step bars, at most 200 steps (evenly picked).
    auto* chart = new QChart;
    chart->setTitle(shares ? tr("Where each step's time goes (% of the step)")
                           : idleOnly ? tr("Device idle per step (ms)") : tr("Per-step device time (ms)"));
    QAbstractBarSeries* series = shares ? static_cast<QAbstractBarSeries*>(new QPercentBarSeries)
                                        : static_cast<QAbstractBarSeries*>(new QStackedBarSeries);
    const QStringList names = {tr("busy"), tr("prelaunch"), tr("internal bubbles"), tr("tail")};
    QBarSet* sets[4];
    for (int i = 0; i < 4; ++i)
        sets[i] = new QBarSet(names[i]);
    sets[0]->setColor(QColor(0x35, 0x4f, 0x6e));
    sets[1]->setColor(QColor(230, 120, 40));
    sets[2]->setColor(QColor(220, 40, 40));
    sets[3]->setColor(QColor(150, 90, 200));
    QStringList cats;
    const std::size_t n = r.metrics.size(), stride = std::max<std::size_t>(1, (n + 199) / 200);
    for (std::size_t i = 0; i < n; i += stride) {
        const auto& m = r.metrics[i];
        const double parts[4] = {nsToMs(m.busyUnion), nsToMs(m.prelaunchGap), nsToMs(m.internalBubbleTotal),
                                 nsToMs(m.tailGap)};
        double sum = 0;
        for (double p : parts)
            sum += p;
        for (int k = 0; k < 4; ++k) {
            *sets[k] << parts[k];
            values_[k] << (shares ? (sum > 0 ? 100.0 * parts[k] / sum : 0.0) : parts[k]);
        }
        steps_ << static_cast<int>(i);
        cats << (m.stepId >= 0 ? QString::number(m.stepId) : QStringLiteral("pseudo"));
    }
    for (int k = idleOnly ? 1 : 0; k < 4; ++k)
        series->append(sets[k]);
    if (idleOnly) delete sets[0];
    chart->addSeries(series);
    // The steps on a value axis (bar i at x = i), labelled at as many steps as fit (labelSteps): one label
    // per bar would be elided to "…" past a few dozen bars, and each label is a text item the chart lays
    // out and measures on every resize (200 of them held the first paint of the tab for tens of ms).
    auto* axisX = new QCategoryAxis;
    axisX->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    axisX->setRange(-0.5, static_cast<qreal>(cats.size()) - 0.5);
    stepAxis_ = axisX;
    cats_ = cats;
    const QFontMetrics fm(axisX->labelsFont()); // measured once: a resize only divides the width again
    for (const QString& c : cats_)
        widestLabel_ = std::max(widestLabel_, fm.horizontalAdvance(c));
    labelSteps();
    axisX->setTitleText(tr("step (click a bar to see it on the timeline)"));
    chart->addAxis(axisX, Qt::AlignBottom);
    series->attachAxis(axisX);
    auto* axisY = new QValueAxis;
    axisY->setTitleText(shares ? tr("% of the step") : tr("ms"));
    chart->addAxis(axisY, Qt::AlignLeft);
    series->attachAxis(axisY);
    // Round ticks once the series set the range (an axis without a range would get NaN bounds).
    if (!shares && axisY->max() > axisY->min()) axisY->applyNiceNumbers();
    connect(series, &QAbstractBarSeries::clicked, this, [this](int index, QBarSet*) {
        if (index >= 0 && index < steps_.size()) emit stepActivated(steps_[index]);
    });
    connect(series, &QAbstractBarSeries::hovered, this, [this, cats](bool on, int index, QBarSet* set) {
        if (!on || index < 0 || index >= steps_.size()) {
            QToolTip::hideText();
            return;
        }
        const auto& m = analysis_->metrics[static_cast<std::size_t>(steps_[index])];
        QToolTip::showText(QCursor::pos(), tr("step %1 — %2: %3 ms of %4 ms (%5 %)")
                                               .arg(cats.value(index), set->label())
                                               .arg(set->at(index), 0, 'f', 3)
                                               .arg(nsToMs(m.service), 0, 'f', 3)
                                               .arg(m.service > 0 ? 100.0 * set->at(index) / nsToMs(m.service) : 0.0, 0, 'f', 1));
    });
    auto* view = new QChartView(chart, this);
    view->setRenderHint(QPainter::Antialiasing);
    charts_->addWidget(view);

    // Top ops by total kernel time (dominant group).
    auto* opsChart = new QChart;
    opsChart->setTitle(tr("Top ops by total kernel time (ms)"));
    auto* opsSeries = new QHorizontalBarSeries;
    auto* opsSet = new QBarSet(tr("total"));
    opsSet->setColor(QColor(0x3b, 0x7d, 0xd8));
    std::vector<const OpStats*> byTotal;
    for (const auto& o : a.ops)
        byTotal.push_back(&o);
    std::sort(byTotal.begin(), byTotal.end(), [](const OpStats* x, const OpStats* y) { return x->rankByTotal > y->rankByTotal; });
    QStringList opNames;
    for (const auto* o : byTotal) {
        if (o->rankByTotal > 10) continue;
        *opsSet << nsToMs(o->durTotal);
        QString nm = coreText(o->name);
        if (nm.size() > 28) nm = nm.left(27) + QStringLiteral("…");
        opNames << nm;
    }
    opsSeries->append(opsSet);
    opsChart->addSeries(opsSeries);
    auto* opsAxisY = new QBarCategoryAxis;
    opsAxisY->append(opNames);
    QFont small = opsAxisY->labelsFont();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    opsAxisY->setLabelsFont(small);
    opsChart->addAxis(opsAxisY, Qt::AlignLeft);
    opsSeries->attachAxis(opsAxisY);
    auto* opsAxisX = new QValueAxis;
    opsChart->addAxis(opsAxisX, Qt::AlignBottom);
    opsSeries->attachAxis(opsAxisX);
    if (opsAxisX->max() > opsAxisX->min()) opsAxisX->applyNiceNumbers();
    opsChart->legend()->hide();
    auto* opsView = new QChartView(opsChart, this);
    opsView->setRenderHint(QPainter::Antialiasing);
    charts_->addWidget(opsView);
}

void ChartsPanel::retranslate() {
    shares_->setText(tr("Shares of each step (100 %): one long step does not hide the bubbles of the others"));
    idleOnly_->setText(tr("Idle time only (ms): prelaunch, internal bubbles and tail without the busy time"));
}

void ChartsPanel::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::LanguageChange) retranslate(); // the charts: MainWindow fills them again
}

} // namespace bs::ui
