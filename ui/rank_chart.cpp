#include "rank_chart.h"

#include "cluster/cluster_model.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QToolTip>

namespace bs::ui {

RankChart::RankChart(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

RankChart::~RankChart() = default;

void RankChart::setCluster(std::shared_ptr<const ClusterResult> cluster) {
    cluster_ = std::move(cluster);
    selected_ = -1;
    clusterChanged();
    updateGeometry();
    update();
}

void RankChart::setSelectedRank(int rank) {
    selected_ = rank;
    update();
}

QSize RankChart::sizeHint() const {
    return {520, 260};
}

QSize RankChart::minimumSizeHint() const {
    return {240, 120};
}

bool RankChart::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        const QString t = toolTipAt(he->pos());
        if (t.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(he->globalPos(), t, this);
        return true;
    }
    return QWidget::event(e);
}

void RankChart::mousePressEvent(QMouseEvent* e) {
    const int r = rankAt(e->pos());
    if (r >= 0 && e->button() == Qt::LeftButton) {
        setSelectedRank(r);
        emit rankClicked(r);
    }
}

void RankChart::mouseDoubleClickEvent(QMouseEvent* e) {
    const int r = rankAt(e->pos());
    if (r >= 0 && e->button() == Qt::LeftButton) emit rankActivated(r);
}

} // namespace bs::ui
