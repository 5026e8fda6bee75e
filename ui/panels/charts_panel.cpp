#include "charts_panel.h"

#include "language.h"
#include "analysis/analysis_run.h"

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
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace bs::ui {

namespace {
constexpr int kStepLabels = 12; // at most this many step numbers under the per-step bars
}

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

void ChartsPanel::rebuild() {
    while (auto* item = charts_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    steps_.clear();
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
    // The steps on a value axis (bar i at x = i), labelled at a few steps only: one label per bar would
    // be elided to "…" past a few dozen bars, and each label is a text item the chart lays out and measures
    // on every resize (200 of them held the first paint of the tab for tens of ms).
    auto* axisX = new QCategoryAxis;
    axisX->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    const int shown = static_cast<int>(cats.size());
    axisX->setRange(-0.5, shown - 0.5);
    const int every = std::max(1, (shown + kStepLabels - 1) / kStepLabels);
    for (int i = 0; i < shown; i += every)
        axisX->append(cats[i], i);
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
