#pragma once
// Per-rank stacked bars summed over the cluster's steps: computing, exposed communication, free
// (internal bubbles), prelaunch and tail add up to the service time; the communication wait (part of
// the communication time, so not stacked) is a thin bar beneath. Double-click a rank to open it.
#include "rank_chart.h"

#include <vector>

namespace bs {
struct ClusterResult;
} // namespace bs

namespace bs::ui {

class ClusterBars : public RankChart {
    Q_OBJECT
  public:
    explicit ClusterBars(QWidget* parent = nullptr);
    ~ClusterBars() override;
    int rankAt(const QPoint& pos) const override;
    QRect barRect(int rank) const; // the stacked bar of a rank
    QString toolTipAt(const QPoint& pos) const override;

  protected:
    void clusterChanged() override;
    void paintEvent(QPaintEvent* e) override;

  private:
    struct Totals;
    struct Geometry {
        QRect plot;
        int legendBottom = 0;
        double rowH = 0;
        double scaleMax = 0, tick = 0;
    };
    Geometry geometry() const;
    int paintLegend(QPainter* p) const; // returns the legend's bottom
    void paintAxis(QPainter& p, const Geometry& g) const;
    void paintRows(QPainter& p, const Geometry& g) const;

    std::vector<Totals> totals_;
};

} // namespace bs::ui
