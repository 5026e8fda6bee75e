#pragma once
// ANALYSIS.md §4 host evidence: unions of host activity, sync markers and communication markers,
// prepared once so that each window costs two binary searches per union. The events that enclose a window
// are found for all windows in one sweep: a deep nest of host events on one thread encloses every window
// under it, and listing the nest for every window was windows x depth (core/README.md, "Input shapes").
#include "analysis/anomaly_model.h"
#include "analysis/steps.h"
#include "model/profile.h"

namespace bs {

class HostIndex {
  public:
    HostIndex(const Profile& profile, const StepSet& steps);
    bool hostTraceExists() const { return hostTraceExists_; }
    // First start and last end of any host event (markers and enclosing frames included): what the host
    // side of the capture recorded. Both 0 without a host trace.
    TimeNs traceStart() const { return traceStart_; }
    TimeNs traceEnd() const { return traceEnd_; }
    // The evidence of each window, in their order: O((events + windows) log windows) for the enclosing
    // events, plus each window's events that start or end inside it.
    std::vector<HostEvidence> evidence(const std::vector<Interval>& windows) const;
    HostEvidence evidence(Interval window) const { return evidence(std::vector<Interval>{window}).front(); }
    // The host events taken as evidence (markers and step-enclosing frames left out) that overlap the
    // window: how many (binary searches), and those with a call stack as (overlap, index into
    // Profile::hostEvents), by index.
    std::size_t countOverlapping(Interval window) const;
    std::vector<std::pair<TimeNs, std::size_t>> overlappingWithStack(Interval window) const;
    std::size_t eventsUsed() const { return used_.size(); }
    // Indices into Profile::hostEvents of the events taken as evidence (step markers and the frames that
    // enclose a whole step left out), by start: the host work the replay model (core/replay) walks.
    const std::vector<std::size_t>& usedEvents() const { return used_; }

    static bool isSyncMarker(std::string_view name);
    static bool isCommMarker(std::string_view name);

  private:
    const Profile& p_;
    bool hostTraceExists_ = false;
    TimeNs traceStart_ = 0, traceEnd_ = 0;
    std::vector<signed char> nameClass_;   // per string id: bit0 sync marker, bit1 comm marker, 4 step marker
    std::vector<std::size_t> used_;        // indices of host events taken as evidence (sorted by ts)
    std::vector<std::uint32_t> byEnd_;     // of those, the ones with a duration, by end
    std::vector<TimeNs> instants_;         // starts of the ones without (sorted)
    std::vector<std::size_t> stackEvents_; // of used_, the events with a call stack (sorted by ts)
    std::vector<TimeNs> stackMaxEnd_;      // segment tree over stackEvents_: the latest end below each node
    std::vector<Interval> all_, sync_, comm_;
    // Busy lanes as one step function: at laneEdges_[i] the number of lanes busy becomes laneDepth_[i];
    // laneArea_[i] is the area below it before that point (lane-ns, 128-bit: lanes x span passes int64).
    __extension__ typedef __int128 LaneArea;
    std::vector<TimeNs> laneEdges_;
    std::vector<std::int64_t> laneDepth_;
    std::vector<LaneArea> laneArea_;

    LaneArea laneAreaBefore(TimeNs t) const;
    // The events overlapping w without enclosing it (starting after w.a, or ending before w.b): those with a
    // start or an end inside w. (overlap, index), unordered.
    void partialHits(Interval w, bool withStackOnly, std::vector<std::pair<TimeNs, std::size_t>>& out) const;
    // Per window, the best three events enclosing it (all; sync markers and comm markers one per thread).
    struct Enclosing;
    std::vector<Enclosing> findEnclosing(const std::vector<Interval>& windows) const;
    HostEvidence windowEvidence(Interval w, const Enclosing& enclosing) const;
    void buildStackIndex(std::size_t node, std::size_t lo, std::size_t hi);
    void stackEnclosing(std::size_t node, std::size_t lo, std::size_t hi, std::size_t before, Interval w,
                        std::vector<std::size_t>& out) const;
};

} // namespace bs
