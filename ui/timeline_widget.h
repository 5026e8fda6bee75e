#pragma once
// The timeline: device streams, bands for steps and layers, the device-busy union, HCCL and host
// lanes (one row per call depth), with bubble windows drawn across the device tracks. Painted with
// QPainter in render passes (timeline_render.h) from paint-ready tracks; the visible slice of each track
// is found by binary search and sub-pixel items are merged.
#include "model/time.h"
#include "timeline_search.h"

#include <QLineF>
#include <QRect>
#include <QRectF>
#include <QStringList>
#include <QWidget>

#include <cstddef>
#include <map>
#include <algorithm>
#include <memory>
#include <utility>
#include <optional>
#include <vector>

namespace bs {
struct Profile;
struct AnalysisResult;
} // namespace bs

namespace bs::ui {

struct TimelineData;
struct TimelineRow;
struct TimelineGeometry;
struct TrackMatches;
class TimelineRenderPass;

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
    // The same with its tracks built already (buildTimelineData, e.g. off the GUI thread); null builds them.
    void setModel(std::shared_ptr<const Profile> profile, std::shared_ptr<const AnalysisResult> analysis,
                  std::unique_ptr<TimelineData> built);
    void clear();
    TimeNs viewStart() const { return viewStart_; }
    TimeNs viewEnd() const { return viewEnd_; }
    TimeNs dataStart() const;
    TimeNs dataEnd() const;
    // Keeps the span and stops at the data plus a 5 % margin on either side (a span wider than that is cut).
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
    // The same for a kernel on its stream row.
    QPoint kernelPosition(std::size_t index) const;
    // Lanes (HCCL, host threads, Overlap Analysis) with nothing in the view are hidden behind one "N lanes
    // empty in view" row per group (a click on it shows them); device streams always show.
    int hiddenEmptyLaneCount(const QString& group) const;
    void setEmptyLanesShown(const QString& group, bool shown);
    int emptyLanesRowTop(const QString& group) const; // widget y of that row; -1 when there is none
    bool isTrackLaidOut(int track) const; // false: folded or hidden as empty in view
    // The area the rows are drawn in: below the ruler, above the legend's strip.
    QRect lanesArea() const;
    // The widget height at which every laid-out row fits the lanes' area (nothing left to scroll to).
    int heightShowingEveryRow() const;
    void setGroupCollapsed(const QString& group, bool collapsed);
    bool isGroupCollapsed(const QString& group) const;
    // Folds every lane group (HCCL, Host, Overlap Analysis) none of whose lanes has an item in the view, so a
    // picture of a window spends no room on idle lanes; returns the groups folded.
    QStringList foldGroupsEmptyInView();
    // Median-free paint timing for the bench: renders into an image of the widget's size.
    double renderOnceMs();

    // Selection. A clicked kernel (or host event) is outlined; setting it does not emit kernelClicked.
    int selectedKernel() const { return selectedKernel_; }
    void setSelectedKernel(int kernel); // -1 clears
    int selectedHostEvent() const { return selectedHostEvent_; }
    void setSelectedHostEvent(int index); // -1 clears
    bool hasRangeSelection() const { return rangeA_ != rangeB_; }
    // Shades [a, b) as the selected range (a step, a layer chosen elsewhere); a == b clears it.
    void markRange(TimeNs a, TimeNs b);
    std::pair<TimeNs, TimeNs> rangeSelection() const { return {std::min(rangeA_, rangeB_), std::max(rangeA_, rangeB_)}; }
    // Esc: clears the kernel and host event selection, the range shading and the search matches.
    void clearSelection();

    // Search matches, drawn in every lane they are in; walked with F3 / Shift+F3 / Enter.
    void setSearchMatches(std::vector<Match> matches);
    const std::vector<Match>& searchMatches() const { return matches_; }
    int currentMatch() const { return currentMatch_; }
    // Makes match i current and centres it with context (scrolling to its lane); emits matchChanged.
    void showMatch(int i);
    void nextMatch();
    void previousMatch();
    // For the find results list: the lane a match is drawn in (a track's name; a bubble's is the device
    // busy band) and its start in ms on the ruler's clock.
    QString matchLane(const Match& m) const;
    double matchStartMs(const Match& m) const;

    // Launch flows: the arrow from the host op that launched a kernel to the kernel (widget coordinates at
    // the current view; nullopt when the kernel has no flow or a lane is folded).
    std::optional<QLineF> flowArrowFor(int kernel) const;
    // The host event the kernel's launch arrow starts from (-1 none), and kernel start − flow start.
    int launchingHostEvent(int kernel) const;
    // The 's' of the kernel's launching flow (index into Profile::flows), -1 when it has none.
    int launchingFlow(int kernel) const;
    std::optional<TimeNs> launchLatency(int kernel) const;
    std::size_t flowLinkCount() const;
    // Follows the launch flow (key L; the inspector's or the tooltip's "launched by"): from the selected
    // kernel to the host op that launched it; from a selected host op to the kernel it launched (the one it
    // was reached from, else its first). The target is selected, shown (its group unfolded, its row scrolled
    // to, the view centred on it when it is outside) and its click signal emitted. False when there is no
    // flow to follow.
    bool followLaunchFlow();
    bool showLaunchingHostEvent(int kernel);
    bool showLaunchedKernel(int hostEvent);
    void setShowAllFlowsInView(bool on);
    bool showAllFlowsInView() const { return showAllFlows_; }

    // Legend of the colours the model draws (task types, host sync / comm, bubble scopes).
    void setLegendVisible(bool on);
    bool isLegendVisible() const { return legendVisible_; }
    QStringList legendLabels() const;
    QRectF legendRect() const; // empty when hidden

    // Orientation: the label column (drag its edge), Top-5 badges at the current view.
    int labelWidth() const { return labelWidth_; }
    void setLabelWidth(int w);
    std::vector<QRectF> badgeRects() const;
    // The text shown for a track's label and whether it is cut at the current label width.
    QString trackLabelText(int track) const;
    bool isTrackLabelCut(int track) const;

    // Host call depth: one row per depth, folded per lane from its label (or here).
    int hostEventDepth(std::size_t index) const;
    int hostDepthCount(int track) const; // 0 for tracks that are not host lanes
    void setHostDepthFolded(int track, bool folded);
    bool isHostDepthFolded(int track) const;
    // For a picture of a window: per host lane, the leading depth rows holding a single event in view (the
    // outermost Python frames: <module>, spawn, train, …) are not drawn, so the rows left show the ops behind
    // the view down to the innermost; returns the rows hidden (a later call re-decides for its view).
    int hideOuterHostFramesInView();
    int firstHostDepthShown(int track) const;         // 0 unless hidden by the above
    int trackRowTop(int track, int level = -1) const; // widget y of a row; -1 when not laid out

  signals:
    void viewChanged(qint64 start, qint64 end);
    void bubbleSelected(int index);
    void kernelClicked(int kernelIndex);
    void hostEventClicked(int hostEventIndex);
    void rangeSelected(qint64 start, qint64 end);
    void selectionCleared();
    void stepClicked(int stepIndex); // a click on the Steps lane (the view zooms onto the step)
    void matchChanged(int index, int count);

  protected:
    void paintEvent(QPaintEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    void leaveEvent(QEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    bool event(QEvent*) override;
    QSize sizeHint() const override { return {900, 420}; }

  private:
    void relayout();
    void paintTo(QPainter& p);
    TimelineGeometry geometry() const;
    const TimelineRow* rowAt(int y) const;
    int hitItem(const TimelineRow& row, double x) const;
    QString tooltipFor(const TimelineRow& row, int item) const;
    QString kernelTooltip(std::uint32_t kernel, const QString& span) const;
    QString hostTooltip(std::uint32_t event, const QString& span) const;
    bool clickFlowHandle(QPoint pos);
    void scrollToRow(const TimelineRow* row);
    void showHostEvent(int index);
    void showKernel(int kernel);
    void ensureInView(TimeNs start, TimeNs end);
    bool emptyLanesChanged() const;
    bool laneEmptyInView(std::size_t track) const;
    void updateLegendStrip();
    int maxScroll() const;
    void centreOn(TimeNs start, TimeNs end);
    int contentHeight() const;
    TimeNs origin() const;

    std::shared_ptr<const Profile> profile_;
    std::shared_ptr<const AnalysisResult> analysis_;
    std::unique_ptr<TimelineData> data_;
    std::vector<TimelineRow> rows_;
    std::vector<std::unique_ptr<const TimelineRenderPass>> passes_;
    TimeNs viewStart_ = 0, viewEnd_ = 1;
    int scrollY_ = 0;
    int pinnedBottom_ = 0; // below the pinned rows (Steps, Layers, Device busy)
    int selectedBubble_ = -1;
    int selectedKernel_ = -1;
    int selectedHostEvent_ = -1;
    std::vector<std::size_t> highlighted_;                              // sorted
    std::map<std::uint32_t, std::vector<std::size_t>> highlightByLane_; // the same, per host lane
    std::vector<Match> matches_;
    std::vector<TrackMatches> matchesByTrack_;
    std::vector<int> matchedBubbles_;
    int currentMatch_ = -1;
    bool showAllFlows_ = false;
    bool legendVisible_ = false;
    int legendHeight_ = 0;          // the legend's strip, reserved below the lanes while it shows
    std::vector<bool> emptyInView_; // per track, as laid out
    QStringList emptyLanesShown_;   // groups whose empty lanes the user asked to see
    enum class Picked { None, Kernel, HostEvent } lastPicked_ = Picked::None; // what L follows from
    int flowFromKernel_ = -1; // the kernel L last left for its host op (L returns to it)
    QPoint pressPos_;
    TimeNs pressStart_ = 0, pressEnd_ = 0;
    bool dragging_ = false, rangeSelecting_ = false, resizingLabel_ = false;
    TimeNs rangeA_ = 0, rangeB_ = 0;
    QPoint lastMouse_{-1, -1}; // over the widget, for W/S zoom around the mouse
    int labelWidth_ = 190;
    static constexpr int kAxisHeight = 26;
};

} // namespace bs::ui
