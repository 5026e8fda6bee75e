#pragma once
// The rank × step heatmap of one metric: one row per rank (named in full), one column per step. A cell
// shows its value and is coloured by its deviation from that step's median over the ranks (a diverging
// scale: neutral at the median, red above, blue below, scaled by the largest |deviation| shown), with its
// legend; value, median and deviation on hover. Cells where the core names the rank slow are outlined.
// Double-click a row to open that rank.
#include "cluster_models.h"
#include "rank_chart.h"

#include <optional>
#include <vector>

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
    // The step's median over the ranks (nothing when no rank has the figure); the cell's fill colour.
    std::optional<TimeNs> stepMedian(int stepColumn) const;
    QColor cellColour(int rank, int stepColumn) const;
    // The colour at the median, and at the largest deviation above / below it.
    static QColor neutralColour();
    static QColor aboveColour();
    static QColor belowColour();
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
    QColor colourFor(TimeNs deviation) const;
    void updateRange();
    void paintCells(QPainter& p, const Geometry& g) const;
    void paintLabels(QPainter& p, const Geometry& g) const;
    void paintLegend(QPainter& p, const Geometry& g) const;

    ClusterMetric metric_ = ClusterMetric::Service;
    TimeNs maxDev_ = 0;                          // the largest |value − step median| shown
    std::vector<std::optional<TimeNs>> medians_; // per step column
};

} // namespace bs::ui
