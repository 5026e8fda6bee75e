#pragma once
// What the Cluster tab's rank charts (heatmap, stacked bars) share: the cluster they draw, the selected
// rank, the hover tooltip, and click / double-click on a rank. Each chart says where a rank is.
#include <QWidget>

#include <memory>

namespace bs {
struct ClusterResult;
} // namespace bs

namespace bs::ui {

class RankChart : public QWidget {
    Q_OBJECT
  public:
    explicit RankChart(QWidget* parent = nullptr);
    ~RankChart() override;
    void setCluster(std::shared_ptr<const ClusterResult> cluster);
    void setSelectedRank(int rank);
    int selectedRank() const { return selected_; }
    // The rank (index into ClusterResult::ranks) under `pos`, or -1; the tooltip there ("" for none).
    virtual int rankAt(const QPoint& pos) const = 0;
    virtual QString toolTipAt(const QPoint& pos) const = 0;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

  signals:
    void rankClicked(int rank);   // a click selects the rank
    void rankActivated(int rank); // a double-click opens it

  protected:
    virtual void clusterChanged() {} // cluster_ was just replaced (selection cleared); repaint follows
    bool event(QEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;

    std::shared_ptr<const ClusterResult> cluster_;
    int selected_ = -1;
};

} // namespace bs::ui
