#pragma once
// The Ranks tab's timeline: every rank of the cluster on one time axis, on the aligned clock (ANALYSIS.md
// §13.1: a rank's instant t shows at t − its clock offset) or, toggled, each rank on its own raw clock.
// One row group per rank: the device busy lane, the HCCL lane, the step band. Each collective of the
// cluster's table is drawn across the ranks: every rank's arrival ticked, its wait for the last arriver
// shaded, the last arriver's row highlighted; slow ranks' labels are marked. Only what is in view is
// painted: the intervals in view are found by binary search and runs within a pixel merged (pixelRuns), so
// a frame costs about a lane's pixel width per lane, whatever the number of intervals.
#include "model/time.h"

#include <QWidget>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace bs {
struct ClusterResult;
} // namespace bs

namespace bs::ui {

// Pixels [x0, x1) of the plot a lane fills.
struct PixelRun {
    int x0 = 0, x1 = 0;
    bool operator==(const PixelRun&) const = default;
};

// The runs `intervals` (sorted by start, not overlapping, on the rank's own clock) fill in the view
// [viewStart, viewEnd) of `width` pixels, where the rank's instant t shows at t − shift: the first interval
// in view is found by binary search, and every interval starting inside a run's last pixel joins the run
// (found by binary search too), so the work is bounded by the pixels, not the intervals. Each run is at
// least one pixel wide; runs touching each other are one.
std::vector<PixelRun> pixelRuns(const std::vector<std::pair<TimeNs, TimeNs>>& intervals, TimeNs shift,
                                TimeNs viewStart, TimeNs viewEnd, int width);

class RanksTimeline : public QWidget {
    Q_OBJECT
  public:
    enum class Lane { Busy, Comm, Steps };

    explicit RanksTimeline(QWidget* parent = nullptr);
    ~RanksTimeline() override;
    void setCluster(std::shared_ptr<const ClusterResult> cluster); // fits the view
    std::shared_ptr<const ClusterResult> cluster() const { return cluster_; }
    bool hasLanes() const; // some rank carries lanes (a folder analysed for the window, not summaries)

    // Raw clocks: each rank on its own clock; else the aligned clock. The view keeps its span.
    void setRawClocks(bool raw);
    bool rawClocks() const { return raw_; }

    TimeNs viewStart() const { return viewStart_; }
    TimeNs viewEnd() const { return viewEnd_; }
    void setView(TimeNs start, TimeNs end);
    void zoomBy(double factor, double anchorX);
    void panByPixels(double dx);
    void fit();
    // Fits the view to `step`'s windows over the ranks; false when no rank has the step.
    bool fitStep(std::int64_t step);
    // Shows [start, end) (display times) with context on both sides.
    void focusRange(TimeNs start, TimeNs end);

    // Where things are (widget coordinates at the current view and scroll; for the tests and tooltips).
    int labelWidth() const { return labelWidth_; }
    int rankCount() const;
    QRect rankGroupRect(int rank) const;
    QRect laneRect(int rank, Lane lane) const;
    int rankAt(const QPoint& pos) const; // -1: none
    double xOf(TimeNs display) const;
    TimeNs timeAt(double x) const;
    // A rank's raw instant as the view shows it on its row, and back.
    TimeNs displayTime(int rank, TimeNs raw) const;
    TimeNs rawTime(int rank, TimeNs display) const;
    void scrollToRank(int rank);

    // One rank's part in a collective as drawn (display times): its arrival, the end of its shaded wait
    // (the last arriver's arrival on that row; == arrival when it does not wait), whether it arrives last.
    struct Arrival {
        int rank = -1;
        TimeNs arrival = 0, waitEnd = 0;
        bool last = false;
    };
    std::vector<Arrival> arrivals(int collective) const; // index into ClusterResult::collectives

    int selectedRank() const { return selected_; }
    void setSelectedRank(int rank);

    // Find: a rank number (its id) selects and scrolls to that rank; else the next collective whose name
    // contains `text` (case-insensitive) is shown across the ranks. Returns what was found, "" for nothing.
    QString find(const QString& text);

  signals:
    void rankClicked(int rank);
    // A double-click on a rank's row: the rank, the instant under the mouse on its own clock, the view's
    // span.
    void rankActivated(int rank, qint64 rawTime, qint64 span);
    void viewChanged(qint64 start, qint64 end);
    void findRequested(); // Ctrl+F over the timeline

  protected:
    void paintEvent(QPaintEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    bool event(QEvent*) override;
    QSize sizeHint() const override { return {900, 480}; }

  private:
    friend class RanksPainter;
    TimeNs clockOffset(int rank) const; // the rank's clock − the reference's (ClusterResult::clockOffsets)
    TimeNs shiftOf(int rank) const;     // display = raw − shift: the offset on the aligned clock, else 0
    TimeNs alignedOnRow(int rank, TimeNs aligned) const; // an aligned instant as the rank's row shows it
    std::pair<TimeNs, TimeNs> dataRange() const;         // display times
    int groupHeight() const;
    int contentHeight() const;
    int plotWidth() const;
    void clampScroll();
    QString toolTipAt(const QPoint& pos) const;

    std::shared_ptr<const ClusterResult> cluster_;
    bool raw_ = false;
    TimeNs viewStart_ = 0, viewEnd_ = 1;
    TimeNs origin_ = 0; // the ruler's zero: the data's start on the aligned clock
    int scrollY_ = 0;
    int selected_ = -1;
    int labelWidth_ = 150;
    QString lastFind_;
    int findCursor_ = -1;
    QPoint pressPos_, lastMouse_{-1, -1};
    TimeNs pressStart_ = 0, pressEnd_ = 0;
    int pressScroll_ = 0;
    bool dragging_ = false;
    static constexpr int kAxisHeight = 26;
};

} // namespace bs::ui
