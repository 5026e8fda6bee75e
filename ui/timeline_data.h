#pragma once
// Paint-ready tracks built once from the core model (no parsing here): items sorted by start, with
// the longest duration kept so the visible slice is found with binary searches.
#include "model/time.h"

#include <QColor>
#include <QString>

#include <cstdint>
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

enum class TrackKind { Steps, Layers, DeviceBusy, Stream, Hccl, Host, Overlap };

struct Track {
    QString name;
    QString detail; // e.g. dominant task types
    TrackKind kind = TrackKind::Stream;
    QString group; // "Device", "Host", "Overlap Analysis"
    std::vector<TimelineItem> items;
    std::vector<TimeNs>
        prefixMaxEnd; // max end of items[0..i]: the union of items starting before t is [.., prefixMaxEnd)
    TimeNs maxDuration = 0;
    bool collapsed = false;
    std::uint32_t lane = 0; // Host / HCCL / Overlap tracks: the trace lane (Profile::lanes) of its events
};

struct TimelineBubble {
    TimeNs start = 0, end = 0;
    int scope = 0; // WindowScope
    int rank = 0;  // 1-based rank by duration
    QString id;
};

struct TimelineData {
    std::vector<Track> tracks;
    std::vector<TimelineBubble> bubbles;
    TimeNs start = 0, end = 0;
    std::vector<QColor> palette;
    std::vector<QString> labels; // label per (track kind, ref) resolved lazily by the widget's owner
};

TimelineData buildTimelineData(const Profile& profile, const AnalysisResult& analysis);
QColor colorForName(const QString& name);

} // namespace bs::ui
