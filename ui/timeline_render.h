#pragma once
// The timeline paints in render passes (Qt Creator tracing's TimelineRenderPass): each pass is a small
// class drawing one layer over the geometry shared by the frame. A new overlay is a new pass.
#include "model/time.h"

#include <QFont>
#include <QPalette>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

class QPainter;

namespace bs {
struct Profile;
struct AnalysisResult;
} // namespace bs

namespace bs::ui {

struct TimelineData;
struct ItemSeries;
struct Match;

// Pure time ↔ pixel mapping (tested on its own; also declared in timeline_widget.h).
double timeToX(TimeNs t, TimeNs viewStart, TimeNs viewEnd, int width);
TimeNs xToTime(double x, TimeNs viewStart, TimeNs viewEnd, int width);
// Tick spacing: the 1-2-5 step (ns) giving at least minPixels between ticks (the default, 90, is given in
// timeline_widget.h).
TimeNs tickStep(TimeNs viewStart, TimeNs viewEnd, int width, int minPixels);

struct TimelineRow {
    int track = -1; // -1: group header
    int level = -1; // host call depth drawn in this row; -1: all of the track's items
    QString group;
    int y = 0, h = 0; // content coordinates (the frame subtracts scrollY)
    bool device = false;
    bool labelled = true; // the row carrying the track's name (the first of a track's depth rows)
    bool pinned = false;  // Steps, Layers, Device busy: stay at the top while the lanes below scroll
    int emptyLanes = 0;   // > 0: a group's "N lanes empty in view" row standing for its hidden lanes
    bool emptyShown = false; // that row once the user showed them: the lanes are drawn, a click hides them
};

// Time ↔ widget x for one frame, and where the plot area is.
struct TimelineGeometry {
    TimeNs viewStart = 0, viewEnd = 1;
    int width = 0, height = 0;
    int labelWidth = 190, axisHeight = 26;
    int scrollY = 0;
    int pinnedBottom = 0; // widget y below the pinned rows: a scrolled row above it is not drawn
    int legendHeight = 0; // the legend's own strip at the bottom: no row is drawn in it
    int lanesBottom() const { return height - legendHeight; }
    int plotWidth() const { return width - labelWidth > 1 ? width - labelWidth : 1; }
    double x(TimeNs t) const;          // widget x (label column included)
    double plotX(TimeNs t) const;      // x inside the plot area
    TimeNs time(double widgetX) const; // inverse of x()
    int top(const TimelineRow& r) const { return r.pinned ? r.y : r.y - scrollY; }
    bool onScreen(const TimelineRow& r) const {
        return r.pinned ? top(r) + r.h >= axisHeight && top(r) < lanesBottom()
                        : top(r) >= pinnedBottom && top(r) < lanesBottom();
    }
    bool inView(TimeNs a, TimeNs b) const { return b > viewStart && a < viewEnd; }
};

// Search matches of one track, as items (ref = match index), per depth row for host tracks.
struct TrackMatches {
    std::vector<ItemSeries> levels; // [0]: all, [1 + d]: host depth d
};

// What the overlays show: the widget's selection and search state, read-only for the passes.
struct TimelineOverlayState {
    int selectedBubble = -1;
    int selectedKernel = -1;
    int selectedHostEvent = -1;
    bool rangeVisible = false;
    TimeNs rangeA = 0, rangeB = 0;
    const std::map<std::uint32_t, std::vector<std::size_t>>* highlightByLane = nullptr;
    const std::vector<TrackMatches>* matchesByTrack = nullptr; // indexed by track
    const std::vector<int>* matchedBubbles = nullptr;
    const std::vector<Match>* matches = nullptr; // what the matches' items refer to (their names)
    int currentMatchTrack = -1, currentMatchLevel = -1; // row of the current match
    TimeNs currentMatchStart = 0, currentMatchEnd = 0;
    int currentMatchBubble = -1;
    bool showAllFlowsInView = false;
    bool legendVisible = false;
    int maxFlowsInView = 2000;
};

struct RenderContext {
    QPainter& p;
    const TimelineData& data;
    const Profile& profile;
    const AnalysisResult& analysis;
    const std::vector<TimelineRow>& rows;
    const TimelineGeometry& g;
    const TimelineOverlayState& s;
    QPalette palette;
    QFont base, small;
    int deviceTop = -1, deviceBottom = -1; // widget y of the device tracks (bubble bands), -1 none
    bool groupCollapsed(const QString& group) const;
};

class TimelineRenderPass {
  public:
    virtual ~TimelineRenderPass() = default;
    virtual void paint(const RenderContext& c) const = 0;
    virtual bool clipsToTracks() const { return true; } // false: may paint over the ruler
};

using RenderPasses = std::vector<std::unique_ptr<const TimelineRenderPass>>;
// Background, items per lane, busy union, highlights, search matches, bubbles, selection, flows,
// badges, labels, ruler, legend — in painting order.
RenderPasses defaultRenderPasses();
void paintPasses(const RenderPasses& passes, const RenderContext& c);

// Helpers shared by the passes (timeline_render.cpp).
QString durationText(TimeNs ns);
QString tickLabel(TimeNs t, TimeNs step);
QString groupTitle(const QString& key);
QString emptyLanesText(int n, bool shown = false); // the row standing for a group's lanes empty in view
// Fills the items of [first, last) of a series on one row, merging sub-pixel runs; folds more items than
// pixels per column with the prefix-max walk. `color` < 0: each item's palette colour.
void paintSeries(const RenderContext& c, const ItemSeries& s, int y, int h, const QColor* fixedColor,
                 bool labels, int trackIndex);

} // namespace bs::ui
