#pragma once
// The indexes of TimelineData built once per model (timeline_data.cpp calls them after the tracks).
namespace bs {
struct Profile;
}

namespace bs::ui {

struct TimelineData;

// Host tracks: each event's call depth (nesting on its lane) and the items split per depth.
void buildHostDepth(TimelineData& d, const Profile& p);
// Kernel → the flow 's' on a host lane whose 'f' arrives at the kernel's start on its stream, and the
// innermost host event around that 's' (one sweep per lane, no per-kernel scan).
void buildFlowLinks(TimelineData& d, const Profile& p);
// The legend entries: the colours the model actually draws.
void buildLegend(TimelineData& d);

} // namespace bs::ui
