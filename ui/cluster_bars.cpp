#include "cluster_bars.h"

#include "language.h"
#include "cluster/cluster_model.h"
#include "cluster_models.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace bs::ui {

namespace {

constexpr int kMargin = 8;
constexpr double kMaxRowH = 44;

struct Segment {
    ClusterMetric metric;
    QColor colour;
};
// Colours follow the timeline: internal bubbles red, prelaunch orange, tail purple.
const Segment kStack[] = {{ClusterMetric::Computing, QColor(0x3b, 0x7d, 0xd8)},
                          {ClusterMetric::ExposedComm, QColor(0x2a, 0x9d, 0x8f)},
                          {ClusterMetric::Free, QColor(0xd9, 0x45, 0x3f)},
                          {ClusterMetric::Prelaunch, QColor(0xf0, 0x9a, 0x28)},
                          {ClusterMetric::Tail, QColor(0x8e, 0x44, 0xad)}};
const QColor kWaitColour(0x1d, 0x3b, 0x53);

// A round tick step giving about `n` ticks up to `max`.
double niceStep(double max, int n) {
    if (max <= 0) return 1;
    const double raw = max / n;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (raw <= m * mag) return m * mag;
    return 10 * mag;
}

QString msText(double ms) {
    return QString::number(ms, 'f', ms >= 100 ? 1 : 3);
}

// An axis tick: no decimals a round step does not need.
QString tickText(double v, double step) {
    int decimals = 0;
    while (decimals < 3 &&
           std::fabs(step * std::pow(10.0, decimals) - std::round(step * std::pow(10.0, decimals))) > 1e-6)
        ++decimals;
    return QString::number(v, 'f', decimals);
}

} // namespace

struct ClusterBars::Totals {
    bool analysed = false;
    double values[std::size(kStack)] = {};
    double wait = 0, service = 0;
    bool hasWait = false;
};

ClusterBars::ClusterBars(QWidget* parent) : RankChart(parent) {}

ClusterBars::~ClusterBars() = default;

void ClusterBars::clusterChanged() {
    totals_.clear();
    if (cluster_)
        for (const auto& r : cluster_->ranks) {
            Totals t;
            t.analysed = r.error.empty();
            for (std::int64_t step : cluster_->steps) {
                for (std::size_t k = 0; k < std::size(kStack); ++k)
                    if (const auto v = rankMetric(r, step, kStack[k].metric)) t.values[k] += nsToMs(*v);
                if (const auto v = rankMetric(r, step, ClusterMetric::Service)) t.service += nsToMs(*v);
                if (const auto v = rankMetric(r, step, ClusterMetric::CommWait)) {
                    t.wait += nsToMs(*v);
                    t.hasWait = true;
                }
            }
            totals_.push_back(t);
        }
}

int ClusterBars::paintLegend(QPainter* p) const {
    const QFontMetrics fm(font());
    const int box = fm.height() - 4;
    int x = kMargin, y = kMargin;
    auto item = [&](const QColor& c, const QString& text, bool thin) {
        const int w = box + 4 + fm.horizontalAdvance(text) + 14;
        if (x + w > width() - kMargin && x > kMargin) {
            x = kMargin;
            y += fm.height() + 2;
        }
        if (p) {
            const QRect sw(x, y + 2 + (thin ? box / 3 : 0), box, thin ? box / 3 + 1 : box);
            p->fillRect(sw, c);
            p->setPen(palette().text().color());
            p->drawText(QRect(x + box + 4, y, w, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, text);
        }
        x += w;
    };
    for (const auto& s : kStack)
        item(s.colour, ClusterText::metricName(s.metric), false);
    item(kWaitColour, tr("Communication wait (inside communication, not stacked)"), true);
    return y + fm.height();
}

ClusterBars::Geometry ClusterBars::geometry() const {
    Geometry g;
    if (!cluster_) return g;
    const QFontMetrics fm(font());
    g.legendBottom = paintLegend(nullptr);
    QFont bold = font(); // the selected rank's name is bold: room for it
    bold.setBold(true);
    const QFontMetrics bfm(bold);
    int labelW = 0;
    for (const auto& r : cluster_->ranks)
        labelW = std::max(labelW, bfm.horizontalAdvance(ClusterText::rankFullName(r)));
    double max = 0;
    for (const auto& t : totals_) {
        double sum = 0;
        for (double v : t.values)
            sum += v;
        max = std::max({max, sum, t.wait});
    }
    g.tick = niceStep(max, 5);
    g.scaleMax = std::max(g.tick, std::ceil(max / g.tick) * g.tick);
    const int axisH = 2 * fm.height() + 6;
    const int top = g.legendBottom + 8;
    const int left = kMargin + labelW + 8;
    const int right = width() - kMargin - fm.horizontalAdvance(tickText(g.scaleMax, g.tick)) / 2;
    const int ranks = std::max<int>(1, static_cast<int>(cluster_->ranks.size()));
    g.rowH = std::clamp(static_cast<double>(height() - top - axisH - kMargin) / ranks, 2.0, kMaxRowH);
    g.plot = QRect(left, top, std::max(10, right - left), static_cast<int>(g.rowH * ranks));
    return g;
}

QRect ClusterBars::barRect(int rank) const {
    const Geometry g = geometry();
    if (rank < 0 || rank >= static_cast<int>(totals_.size()) || g.scaleMax <= 0) return {};
    double sum = 0;
    for (double v : totals_[static_cast<std::size_t>(rank)].values)
        sum += v;
    const int y = g.plot.top() + static_cast<int>(rank * g.rowH + g.rowH * 0.12);
    const int h = std::max(
        1, static_cast<int>(g.rowH * (totals_[static_cast<std::size_t>(rank)].hasWait ? 0.55 : 0.76)));
    return QRect(g.plot.left(), y, std::max(1, static_cast<int>(sum / g.scaleMax * g.plot.width())), h);
}

int ClusterBars::rankAt(const QPoint& pos) const {
    if (!cluster_) return -1;
    const Geometry g = geometry();
    if (pos.y() < g.plot.top() || pos.y() > g.plot.bottom() || pos.x() < kMargin || pos.x() > g.plot.right())
        return -1;
    const int r = static_cast<int>((pos.y() - g.plot.top()) / g.rowH);
    return r < static_cast<int>(cluster_->ranks.size()) ? r : -1;
}

QString ClusterBars::toolTipAt(const QPoint& pos) const {
    const int r = rankAt(pos);
    if (r < 0) return {};
    const RankSummary& rank = cluster_->ranks[static_cast<std::size_t>(r)];
    const Totals& t = totals_[static_cast<std::size_t>(r)];
    QString s = QStringLiteral("<b>%1</b>").arg(ClusterText::rankFullName(rank).toHtmlEscaped());
    if (!t.analysed)
        return s + QStringLiteral("<br>") +
               tr("Not analysed: %1").arg(coreText(rank.error).toHtmlEscaped());
    s += QStringLiteral("<br>") + tr("Summed over the steps compared (%1):").arg(cluster_->steps.size());
    for (std::size_t k = 0; k < std::size(kStack); ++k)
        s += QStringLiteral("<br>%1: %2 ms")
                 .arg(ClusterText::metricName(kStack[k].metric), msText(t.values[k]));
    s += QStringLiteral("<br>%1: %2 ms")
             .arg(ClusterText::metricName(ClusterMetric::Service), msText(t.service));
    s += QStringLiteral("<br>%1: %2")
             .arg(ClusterText::metricName(ClusterMetric::CommWait),
                  t.hasWait ? msText(t.wait) + QStringLiteral(" ms") : tr("no communication.json"));
    return s;
}

void ClusterBars::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!cluster_ || cluster_->ranks.empty()) return;
    paintLegend(&p);
    const Geometry g = geometry();
    paintAxis(p, g);
    paintRows(p, g);
}

void ClusterBars::paintAxis(QPainter& p, const Geometry& g) const {
    const QFontMetrics fm(font());
    const int axisY = g.plot.bottom() + 4;
    for (double v = 0; v <= g.scaleMax + g.tick / 2; v += g.tick) {
        const int x = g.plot.left() + static_cast<int>(v / g.scaleMax * g.plot.width());
        p.setPen(palette().midlight().color());
        p.drawLine(x, g.plot.top(), x, axisY);
        p.setPen(palette().text().color());
        const QString t = tickText(v, g.tick);
        const int w = fm.horizontalAdvance(t);
        p.drawText(QRect(x - w / 2, axisY + 2, w, fm.height()), Qt::AlignCenter, t);
    }
    const QString title = tr("ms, summed over the steps compared (%1)").arg(cluster_->steps.size());
    p.drawText(QRect(g.plot.left(), axisY + 2 + fm.height(), g.plot.width(), fm.height()), Qt::AlignCenter,
               title);
}

void ClusterBars::paintRows(QPainter& p, const Geometry& g) const {
    const QFontMetrics fm(font());
    for (int r = 0; r < static_cast<int>(totals_.size()); ++r) {
        const Totals& t = totals_[static_cast<std::size_t>(r)];
        const QRect row(kMargin, g.plot.top() + static_cast<int>(r * g.rowH), g.plot.left() - kMargin - 8,
                        static_cast<int>(g.rowH));
        QFont f = font();
        f.setBold(r == selected_);
        p.setFont(f);
        p.setPen(palette().text().color());
        if (g.rowH >= fm.height() - 2 || r % static_cast<int>(std::ceil(fm.height() / g.rowH)) == 0)
            p.drawText(row.adjusted(0, 0, 0, std::max(0, fm.height() - row.height())),
                       Qt::AlignLeft | Qt::AlignVCenter,
                       ClusterText::rankFullName(cluster_->ranks[static_cast<std::size_t>(r)]));
        p.setFont(font());
        const QRect bar = barRect(r);
        if (!t.analysed) {
            p.setPen(palette().placeholderText().color());
            p.drawText(QRect(g.plot.left(), row.top(), g.plot.width(), row.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, tr("not analysed"));
            continue;
        }
        double x = g.plot.left();
        for (std::size_t k = 0; k < std::size(kStack); ++k) {
            const double w = t.values[k] / g.scaleMax * g.plot.width();
            p.fillRect(QRectF(x, bar.top(), w, bar.height()), kStack[k].colour);
            x += w;
        }
        if (t.hasWait) {
            const double w = t.wait / g.scaleMax * g.plot.width();
            const int h = std::max(2, static_cast<int>(g.rowH * 0.18));
            p.fillRect(QRectF(g.plot.left(), bar.bottom() + 2, std::max(1.0, w), h), kWaitColour);
        }
        if (r == selected_) {
            p.setPen(QPen(palette().highlight().color(), 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(QRect(kMargin - 2, row.top(), g.plot.right() - kMargin + 4, row.height()));
        }
    }
}

} // namespace bs::ui
