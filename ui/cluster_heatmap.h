#pragma once
// The rank × step heatmap of one metric: one row per rank (named in full), one column per step, a
// sequential colour scale with its legend, the exact value on hover; cells where the core names the
// rank slow are outlined. Double-click a row to open that rank.
#include "cluster_models.h"
#include "rank_chart.h"

#include <optional>

namespace bs {
struct ClusterResult;
} // namespace bs

namespace bs::ui {

class ClusterHeatmap : public RankChart {
    Q_OBJECT
  public:
    explicit ClusterHeatmap(QWidget* parent = nullptr);
    ~ClusterHeatmap() override;
    void setMetric(ClusterMetric metric);
    ClusterMetric metric() const { return metric_; }

    // Rows are ClusterResult::ranks, columns ClusterResult::steps.
    std::optional<TimeNs> cellValue(int rank, int stepColumn) const;
    QRect cellRect(int rank, int stepColumn) const;
    int rankAt(const QPoint& pos) const override;
    QString toolTipAt(const QPoint& pos) const override;

  protected:
    void clusterChanged() override;
    void paintEvent(QPaintEvent* e) override;

  private:
    struct Geometry {
        QRect grid;   // all cells
        QRect legend; // the colour bar
        int labelRight = 0;
        double cellW = 0, cellH = 0;
    };
    Geometry geometry() const;
    int stepColumnAt(const QPoint& pos) const;
    QColor colourFor(TimeNs v) const;
    void updateRange();
    void paintCells(QPainter& p, const Geometry& g) const;
    void paintLabels(QPainter& p, const Geometry& g) const;
    void paintLegend(QPainter& p, const Geometry& g) const;

    ClusterMetric metric_ = ClusterMetric::Service;
    TimeNs lo_ = 0, hi_ = 0;
};

} // namespace bs::ui
