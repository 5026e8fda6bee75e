#pragma once
// The timeline: device streams, bands for steps and layers, the device-busy union, HCCL and host
// lanes, with bubble windows drawn across the device tracks. Painted with QPainter from paint-ready
// tracks; the visible slice of each track is found by binary search and sub-pixel items are merged.
#include "model/time.h"

#include <QWidget>

#include <cstddef>
#include <map>
#include <memory>
#include <vector>

namespace bs {
struct Profile;
struct AnalysisResult;
} // namespace bs

namespace bs::ui {

struct TimelineData;

// Pure time ↔ pixel mapping (tested on its own).
double timeToX(TimeNs t, TimeNs viewStart, TimeNs viewEnd, int width);
TimeNs xToTime(double x, TimeNs viewStart, TimeNs viewEnd, int width);
// Tick spacing: the 1-2-5 step (ns) giving at least minPixels between ticks.
TimeNs tickStep(TimeNs viewStart, TimeNs viewEnd, int width, int minPixels = 90);

class TimelineWidget : public QWidget {
    Q_OBJECT
  public:
    explicit TimelineWidget(QWidget* parent = nullptr);
    ~TimelineWidget() override;

    void setModel(std::shared_ptr<const Profile> profile, std::shared_ptr<const AnalysisResult> analysis);
    void clear();
    TimeNs viewStart() const { return viewStart_; }
    TimeNs viewEnd() const { return viewEnd_; }
    TimeNs dataStart() const;
    TimeNs dataEnd() const;
    void setView(TimeNs start, TimeNs end);
    void zoomBy(double factor, double anchorX);
    void panByPixels(double dx);
    void fit();
    // Shows the window [start, end) with context on both sides (the window fills ~40 % of the width).
    void focusRange(TimeNs start, TimeNs end);
    void selectBubble(int index); // index into the analysis windows (by size); -1 none
    int selectedBubble() const { return selectedBubble_; }
    int trackCount() const;
    QString trackName(int i) const;
    // Host events drawn highlighted (indices into Profile::hostEvents, e.g. the events under a line of the
    // user's code); the view scrolls down to the first one's lane when it is off screen. Empty: none.
    void setHighlightedHostEvents(std::vector<std::size_t> indices);
    const std::vector<std::size_t>& highlightedHostEvents() const { return highlighted_; }
    // The widget-relative centre of a host event's rectangle at the current view (for tests); (-1, -1)
    // when its lane is folded or it is outside the view.
    QPoint hostEventPosition(std::size_t index) const;
    void setGroupCollapsed(const QString& group, bool collapsed);
    bool isGroupCollapsed(const QString& group) const;
    // Median-free paint timing for the bench: renders into an image of the widget's size.
    double renderOnceMs();

  signals:
    void viewChanged(qint64 start, qint64 end);
    void bubbleSelected(int index);
    void kernelClicked(int kernelIndex);
    void rangeSelected(qint64 start, qint64 end);

  protected:
    void paintEvent(QPaintEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    bool event(QEvent*) override;
    QSize sizeHint() const override { return {900, 420}; }

  private:
    struct Row;
    void relayout();
    void paintTo(QPainter& p);
    const Row* rowAt(int y) const;
    int hitItem(const Row& row, double x) const;
    QString tooltipFor(const Row& row, int item) const;
    void paintHighlights(QPainter& p, int width) const;
    const Row* rowOfLane(std::uint32_t lane) const;

    std::shared_ptr<const Profile> profile_;
    std::shared_ptr<const AnalysisResult> analysis_;
    std::unique_ptr<TimelineData> data_;
    std::vector<Row> rows_;
    TimeNs viewStart_ = 0, viewEnd_ = 1;
    int scrollY_ = 0;
    int selectedBubble_ = -1;
    std::vector<std::size_t> highlighted_;                          // sorted
    std::map<std::uint32_t, std::vector<std::size_t>> highlightByLane_; // the same, per host lane
    QPoint pressPos_;
    TimeNs pressStart_ = 0, pressEnd_ = 0;
    bool dragging_ = false, rangeSelecting_ = false;
    TimeNs rangeA_ = 0, rangeB_ = 0;
    static constexpr int kLabelWidth = 190;
    static constexpr int kAxisHeight = 26;
};

} // namespace bs::ui
