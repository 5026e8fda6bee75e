#pragma once
// Paint-ready tracks built once from the core model (no parsing here): items sorted by start, with
// the longest duration kept so the visible slice is found with binary searches. Also the indexes the
// overlays need, built once per model: host call depth, kernel → launching host op (flows), legend.
#include "model/time.h"

#include <QColor>
#include <QString>

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace bs {
struct Profile;
struct AnalysisResult;
} // namespace bs

namespace bs::ui {

struct TimelineItem {
    TimeNs start = 0, end = 0;
    std::uint32_t ref = 0;   // kernel / event / window / layer index, per track kind
    std::uint16_t color = 0; // palette index
};

// Items sorted by (start, longer first), with the running maximum of their ends: the union of the items
// starting before t is [.., prefixMaxEnd[k-1]), which the level-of-detail walk uses.
struct ItemSeries {
    std::vector<TimelineItem> items;
    std::vector<TimeNs> prefixMaxEnd;
    TimeNs maxDuration = 0;
    void finish(); // sorts and fills prefixMaxEnd / maxDuration
    // [first, last) of the items that can overlap [start, end).
    std::pair<std::size_t, std::size_t> visibleSlice(TimeNs start, TimeNs end) const;
};

enum class TrackKind { Steps, Layers, DeviceBusy, Stream, Hccl, Host, Overlap };

struct Track : ItemSeries {
    QString name;
    QString detail; // e.g. dominant task types
    TrackKind kind = TrackKind::Stream;
    QString group; // "Device", "Host", "Overlap Analysis"
    bool collapsed = false;
    std::uint32_t lane = 0; // Host / HCCL / Overlap tracks: the trace lane (Profile::lanes) of its events
    int stream = -1;        // Stream tracks: the stream id
    // Host tracks: the same items split by call depth (levels[d] holds depth d); empty elsewhere.
    std::vector<ItemSeries> levels;
    bool depthFolded = false; // Host tracks: all depths drawn in one row
    int firstLevel = 0;       // Host tracks: the depth rows above it are not drawn (a picture's outer frames)
};

struct TimelineBubble {
    TimeNs start = 0, end = 0;
    int scope = 0; // WindowScope
    int rank = 0;  // 1-based rank by duration
    QString id;
};

// A kernel's launch: the flow 's' on a host lane whose 'f' arrives at the kernel's start on its stream.
struct FlowLink {
    static constexpr std::uint32_t kNone = 0xffffffffu;
    std::uint32_t kernel = 0;
    std::uint32_t hostEvent = kNone; // innermost host event around the 's' on its lane
    std::uint32_t flow = 0;          // index of the 's' in Profile::flows
    TimeNs startTs = 0;              // the 's' timestamp
    std::uint32_t lane = 0;          // the 's' lane
};

struct LegendEntry {
    enum class Kind : std::uint8_t { Device, Host, Bubble };
    Kind kind = Kind::Device;
    QString label;
    QColor color;
};

struct TimelineData {
    std::vector<Track> tracks;
    std::vector<TimelineBubble> bubbles;
    TimeNs start = 0, end = 0;
    std::vector<QColor> palette;
    std::vector<QString> labels; // label per (track kind, ref) resolved lazily by the widget's owner
    std::vector<std::uint8_t> hostDepth; // call depth per Profile::hostEvents index (capped at 255)
    std::map<int, int> streamTrack;      // stream id → track index
    std::map<std::uint32_t, int> laneTrack; // host / HCCL / overlap lane → track index
    std::vector<FlowLink> flowLinks;     // sorted by kernel, then by flow id order
    std::vector<LegendEntry> legend;     // what the model actually draws

    // The launches of one kernel (usually one per flow category), main_window's choice first.
    std::pair<const FlowLink*, const FlowLink*> linksOf(std::uint32_t kernel) const;
};

TimelineData buildTimelineData(const Profile& profile, const AnalysisResult& analysis);
// The same in two parts, the first without the analysis (so beside it, off the GUI thread): the device
// busy union, the streams, the host / HCCL / overlap lanes, call depths and flow links; then the Steps
// and Layers bands (put first), the bubbles, the span and the legend.
TimelineData buildTimelineTracks(const Profile& profile);
void addAnalysisToTimeline(TimelineData& d, const AnalysisResult& analysis);
QColor colorForName(const QString& name);
QColor scopeColor(int scope); // translucent bubble band colour of a WindowScope

} // namespace bs::ui
