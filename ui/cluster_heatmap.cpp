#include "cluster_heatmap.h"

#include "language.h"
#include "cluster/cluster_model.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace bs::ui {

namespace {

constexpr int kMargin = 8;
constexpr int kLegendBar = 14;
constexpr double kMaxCellH = 72;

const QColor kNeutral(0xf7, 0xf7, 0xf7); // white enough to read as "at the median", seen on a white page
const QColor kAbove(0xb2, 0x18, 0x2b);
const QColor kBelow(0x21, 0x66, 0xac);

QColor mix(const QColor& a, const QColor& b, double f) {
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * f),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * f),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * f));
}

// A diverging scale: t in [−1, 1], neutral at 0, through a light tint to the full colour at ±1.
QColor scale(double t) {
    static const QColor aboveMid(0xf4, 0xa5, 0x82), belowMid(0x92, 0xc5, 0xde);
    t = std::clamp(t, -1.0, 1.0);
    const double a = std::fabs(t);
    const QColor& mid = t >= 0 ? aboveMid : belowMid;
    const QColor& end = t >= 0 ? kAbove : kBelow;
    return a <= 0.5 ? mix(kNeutral, mid, a * 2) : mix(mid, end, (a - 0.5) * 2);
}

QString signedMsText(TimeNs ns) {
    return (ns > 0 ? QStringLiteral("+") : QString()) + QString::number(nsToMs(ns), 'f', 3);
}

bool dark(const QColor& c) {
    return 0.299 * c.redF() + 0.587 * c.greenF() + 0.114 * c.blueF() < 0.55;
}

QString msText(TimeNs ns) {
    return QString::number(nsToMs(ns), 'f', 3);
}

} // namespace

ClusterHeatmap::ClusterHeatmap(QWidget* parent) : RankChart(parent) {}

ClusterHeatmap::~ClusterHeatmap() = default;

void ClusterHeatmap::clusterChanged() {
    updateRange();
}

void ClusterHeatmap::setMetric(ClusterMetric metric) {
    metric_ = metric;
    updateRange();
    update();
}

void ClusterHeatmap::updateRange() {
    maxDev_ = 0;
    medians_.clear();
    if (!cluster_) return;
    for (std::int64_t step : cluster_->steps)
        medians_.push_back(clusterMedian(*cluster_, step, metric_));
    for (int r = 0; r < static_cast<int>(cluster_->ranks.size()); ++r)
        for (int s = 0; s < static_cast<int>(cluster_->steps.size()); ++s)
            if (const auto v = cellValue(r, s); v && medians_[static_cast<std::size_t>(s)])
                maxDev_ = std::max<TimeNs>(maxDev_, std::llabs(*v - *medians_[static_cast<std::size_t>(s)]));
}

std::optional<TimeNs> ClusterHeatmap::stepMedian(int stepColumn) const {
    if (stepColumn < 0 || stepColumn >= static_cast<int>(medians_.size())) return std::nullopt;
    return medians_[static_cast<std::size_t>(stepColumn)];
}

QColor ClusterHeatmap::cellColour(int rank, int stepColumn) const {
    const auto v = cellValue(rank, stepColumn);
    const auto med = stepMedian(stepColumn);
    if (!v || !med) return QColor(0xdd, 0xdd, 0xdd);
    return colourFor(*v - *med);
}

QColor ClusterHeatmap::neutralColour() {
    return kNeutral;
}

QColor ClusterHeatmap::aboveColour() {
    return kAbove;
}

QColor ClusterHeatmap::belowColour() {
    return kBelow;
}

std::optional<TimeNs> ClusterHeatmap::cellValue(int rank, int stepColumn) const {
    if (!cluster_ || rank < 0 || rank >= static_cast<int>(cluster_->ranks.size()) || stepColumn < 0 ||
        stepColumn >= static_cast<int>(cluster_->steps.size()))
        return std::nullopt;
    return cellMetric(*cluster_, rank, cluster_->steps[static_cast<std::size_t>(stepColumn)], metric_);
}

QColor ClusterHeatmap::colourFor(TimeNs deviation) const {
    // Every cell at its median (one rank, a perfectly balanced cluster): all neutral.
    if (maxDev_ <= 0) return kNeutral;
    return scale(static_cast<double>(deviation) / static_cast<double>(maxDev_));
}

ClusterHeatmap::Geometry ClusterHeatmap::geometry() const {
    Geometry g;
    if (!cluster_) return g;
    const QFontMetrics fm(font());
    QFont bold = font(); // the selected rank's name is bold: room for it
    bold.setBold(true);
    const QFontMetrics bfm(bold);
    int labelW = 0;
    for (const auto& r : cluster_->ranks)
        labelW = std::max(labelW, bfm.horizontalAdvance(ClusterText::rankFullName(r)));
    const int legendTextW = std::max({fm.horizontalAdvance(signedMsText(maxDev_) + QStringLiteral(" ms")),
                                      fm.horizontalAdvance(signedMsText(-maxDev_) + QStringLiteral(" ms")),
                                      fm.horizontalAdvance(tr("median"))});
    g.labelRight = kMargin + labelW;
    const int top = kMargin + fm.height() + 4;
    const int right = width() - kMargin - kLegendBar - 6 - legendTextW - kMargin;
    const int bottom = height() - kMargin - fm.height() - 4; // room for the slow-cell note
    const int ranks = std::max<int>(1, static_cast<int>(cluster_->ranks.size()));
    const int steps = std::max<int>(1, static_cast<int>(cluster_->steps.size()));
    g.cellW = std::max(1.0, static_cast<double>(right - g.labelRight - 8) / steps);
    g.cellH = std::clamp(static_cast<double>(bottom - top) / ranks, 1.0, kMaxCellH);
    g.grid =
        QRect(g.labelRight + 8, top, static_cast<int>(g.cellW * steps), static_cast<int>(g.cellH * ranks));
    g.legend = QRect(right + kMargin, top, kLegendBar, std::max(g.grid.height(), 3 * fm.height()));
    return g;
}

namespace {

QRect cellIn(const QRect& grid, double cellW, double cellH, int rank, int stepColumn) {
    const int x0 = grid.left() + static_cast<int>(stepColumn * cellW);
    const int x1 = grid.left() + static_cast<int>((stepColumn + 1) * cellW);
    const int y0 = grid.top() + static_cast<int>(rank * cellH);
    const int y1 = grid.top() + static_cast<int>((rank + 1) * cellH);
    return QRect(x0, y0, std::max(1, x1 - x0), std::max(1, y1 - y0));
}

} // namespace

QRect ClusterHeatmap::cellRect(int rank, int stepColumn) const {
    const Geometry g = geometry();
    return cellIn(g.grid, g.cellW, g.cellH, rank, stepColumn);
}

int ClusterHeatmap::rankAt(const QPoint& pos) const {
    if (!cluster_) return -1;
    const Geometry g = geometry();
    if (pos.y() < g.grid.top() || pos.y() >= g.grid.bottom() + 1 || pos.x() < kMargin ||
        pos.x() > g.grid.right())
        return -1;
    const int r = static_cast<int>((pos.y() - g.grid.top()) / g.cellH);
    return r < static_cast<int>(cluster_->ranks.size()) ? r : -1;
}

int ClusterHeatmap::stepColumnAt(const QPoint& pos) const {
    if (!cluster_) return -1;
    const Geometry g = geometry();
    if (pos.x() < g.grid.left() || pos.x() > g.grid.right()) return -1;
    const int s = static_cast<int>((pos.x() - g.grid.left()) / g.cellW);
    return s < static_cast<int>(cluster_->steps.size()) ? s : -1;
}

QString ClusterHeatmap::toolTipAt(const QPoint& pos) const {
    const int r = rankAt(pos);
    if (r < 0) return {};
    const RankSummary& rank = cluster_->ranks[static_cast<std::size_t>(r)];
    const int s = stepColumnAt(pos);
    if (s < 0) return ClusterText::rankFullName(rank);
    const std::int64_t step = cluster_->steps[static_cast<std::size_t>(s)];
    QString t = QStringLiteral("<b>%1</b><br>%2<br>")
                    .arg(ClusterText::rankFullName(rank).toHtmlEscaped(), ClusterText::stepName(step));
    const auto v = cellValue(r, s);
    if (!v) {
        t += rank.error.empty()
                 ? tr("%1: not measured for this rank").arg(ClusterText::metricName(metric_))
                 : tr("Not analysed: %1").arg(coreText(rank.error).toHtmlEscaped());
        return t;
    }
    t += tr("%1: <b>%2 ms</b>").arg(ClusterText::metricName(metric_), msText(*v));
    if (const auto med = stepMedian(s))
        t += QStringLiteral("<br>") + tr("Step median over the ranks: %1 ms").arg(msText(*med)) +
             QStringLiteral("<br>") + tr("Deviation: %1 ms").arg(signedMsText(*v - *med));
    for (const auto& e : cluster_->slowRanks)
        if (e.rank == r && std::find(e.steps.begin(), e.steps.end(), step) != e.steps.end())
            t += QStringLiteral("<br>") +
                 tr("Named slow in this step: %1.").arg(coreText(e.verdict).toHtmlEscaped());
    return t;
}

void ClusterHeatmap::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!cluster_ || cluster_->ranks.empty()) return;
    const Geometry g = geometry();
    paintCells(p, g);
    paintLabels(p, g);
    paintLegend(p, g);
}

void ClusterHeatmap::paintCells(QPainter& p, const Geometry& g) const {
    const QFontMetrics fm(font());
    for (int r = 0; r < static_cast<int>(cluster_->ranks.size()); ++r)
        for (int s = 0; s < static_cast<int>(cluster_->steps.size()); ++s) {
            const QRect cell = cellIn(g.grid, g.cellW, g.cellH, r, s);
            const auto v = cellValue(r, s);
            const QColor fill = cellColour(r, s);
            p.fillRect(cell, fill);
            if (cell.width() > 6 && cell.height() > 6) {
                p.setPen(QColor(0xc8, 0xc8, 0xc8)); // a thin line between cells: neutral cells on white
                p.drawRect(cell.adjusted(0, 0, -1, -1));
            }
            const QString text = v ? msText(*v) : QStringLiteral("—");
            if (cell.width() >= fm.horizontalAdvance(text) + 6 && cell.height() >= fm.height() + 2) {
                p.setPen(dark(fill) ? Qt::white : Qt::black);
                p.drawText(cell, Qt::AlignCenter, text);
            }
        }
    // The grid's edge: rows too thin for their own lines (many ranks) still show where the grid is.
    p.setPen(QColor(0xc8, 0xc8, 0xc8));
    p.setBrush(Qt::NoBrush);
    p.drawRect(g.grid.adjusted(0, 0, -1, -1));
    // The cells where the core names the rank slow are outlined (around a cell too small to hold it).
    QPen slowPen(QColor(0x1f, 0x4e, 0xb4), 3);
    slowPen.setJoinStyle(Qt::MiterJoin);
    p.setPen(slowPen);
    for (const auto& e : cluster_->slowRanks)
        for (std::int64_t step : e.steps) {
            const auto it = std::find(cluster_->steps.begin(), cluster_->steps.end(), step);
            if (it == cluster_->steps.end()) continue;
            const QRect cell =
                cellIn(g.grid, g.cellW, g.cellH, e.rank, static_cast<int>(it - cluster_->steps.begin()));
            p.drawRect(cell.height() >= 10 && cell.width() >= 10 ? cell.adjusted(1, 1, -2, -2)
                                                                 : cell.adjusted(-2, -2, 1, 1));
        }
}

void ClusterHeatmap::paintLabels(QPainter& p, const Geometry& g) const {
    const QFontMetrics fm(font());
    p.setPen(palette().text().color());
    // Rank names in full, every k-th when the rows are thinner than a line of text.
    const int every = std::max(1, static_cast<int>(std::ceil(fm.height() / g.cellH)));
    for (int r = 0; r < static_cast<int>(cluster_->ranks.size()); r += every) {
        const QRect row(kMargin, g.grid.top() + static_cast<int>(r * g.cellH), g.labelRight - kMargin,
                        std::max(static_cast<int>(g.cellH), fm.height()));
        QFont f = font();
        f.setBold(r == selected_);
        p.setFont(f);
        p.drawText(row, Qt::AlignLeft | Qt::AlignVCenter,
                   ClusterText::rankFullName(cluster_->ranks[static_cast<std::size_t>(r)]));
    }
    p.setFont(font());
    if (selected_ >= 0 && selected_ < static_cast<int>(cluster_->ranks.size())) {
        p.setPen(QPen(palette().highlight().color(), 2));
        const QRect row(g.grid.left() - 1, g.grid.top() + static_cast<int>(selected_ * g.cellH),
                        g.grid.width() + 1, static_cast<int>(g.cellH));
        p.drawRect(row);
        p.setPen(palette().text().color());
    }
    int lastRight = -1;
    for (int s = 0; s < static_cast<int>(cluster_->steps.size()); ++s) {
        const QString t = ClusterText::stepName(cluster_->steps[static_cast<std::size_t>(s)]);
        const int cx = g.grid.left() + static_cast<int>((s + 0.5) * g.cellW);
        const int w = fm.horizontalAdvance(t);
        if (cx - w / 2 <= lastRight + 4) continue;
        p.drawText(QRect(cx - w / 2, kMargin, w, fm.height()), Qt::AlignCenter, t);
        lastRight = cx + w / 2;
    }
    if (!cluster_->slowRanks.empty()) {
        p.setPen(QColor(0x1f, 0x4e, 0xb4));
        p.drawText(QRect(g.grid.left(), g.grid.bottom() + 4, width() - g.grid.left(), fm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, tr("Outlined: the rank is named slow in that step."));
    }
}

void ClusterHeatmap::paintLegend(QPainter& p, const Geometry& g) const {
    const QFontMetrics fm(font());
    const QRect bar = g.legend;
    // Top: the largest deviation above the step median; middle: the median; bottom: the largest below.
    for (int y = bar.top(); y <= bar.bottom(); ++y)
        p.fillRect(QRect(bar.left(), y, bar.width(), 1),
                   scale(1.0 - 2.0 * static_cast<double>(y - bar.top()) / std::max(1, bar.height() - 1)));
    p.setPen(palette().mid().color());
    p.drawRect(bar.adjusted(0, 0, -1, -1));
    p.setPen(palette().text().color());
    const int tx = bar.right() + 6;
    const int tw = width() - tx;
    p.drawText(QRect(tx, bar.top(), tw, fm.height()), Qt::AlignLeft | Qt::AlignTop,
               signedMsText(maxDev_) + QStringLiteral(" ms"));
    p.drawText(QRect(tx, bar.center().y() - fm.height() / 2, tw, fm.height()),
               Qt::AlignLeft | Qt::AlignVCenter, tr("median"));
    p.drawText(QRect(tx, bar.bottom() - fm.height() + 1, tw, fm.height()), Qt::AlignLeft | Qt::AlignBottom,
               signedMsText(-maxDev_) + QStringLiteral(" ms"));
}

} // namespace bs::ui
