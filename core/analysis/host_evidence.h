#pragma once
// ANALYSIS.md §4 host evidence: unions of host activity, sync markers and communication markers,
// prepared once so that each window costs two binary searches per union.
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
    HostEvidence evidence(Interval window) const;
    // The host events taken as evidence (markers and step-enclosing frames left out) that overlap the
    // window: (overlap, index into Profile::hostEvents), unordered.
    std::vector<std::pair<TimeNs, std::size_t>> overlapping(Interval window) const;
    std::size_t eventsUsed() const { return used_.size(); }

    static bool isSyncMarker(std::string_view name);
    static bool isCommMarker(std::string_view name);

  private:
    const Profile& p_;
    bool hostTraceExists_ = false;
    TimeNs traceStart_ = 0, traceEnd_ = 0;
    std::vector<signed char> nameClass_;  // per string id: bit0 sync marker, bit1 comm marker, 4 step marker
    std::vector<std::size_t> used_;       // indices of host events taken as evidence (sorted by ts)
    std::vector<std::size_t> longEvents_; // of those, events longer than kLong (sorted by ts)
    std::vector<TimeNs> longMaxEnd_;      // segment tree over longEvents_: the latest end below each node
    std::vector<Interval> all_, sync_, comm_;
    // Busy lanes as one step function: at laneEdges_[i] the number of lanes busy becomes laneDepth_[i];
    // laneArea_[i] is the area below it before that point (lane-ns, 128-bit: lanes x span passes int64).
    __extension__ typedef __int128 LaneArea;
    std::vector<TimeNs> laneEdges_;
    std::vector<std::int64_t> laneDepth_;
    std::vector<LaneArea> laneArea_;
    static constexpr TimeNs kLong = 10'000'000;

    LaneArea laneAreaBefore(TimeNs t) const;
    void buildLongIndex(std::size_t node, std::size_t lo, std::size_t hi);
    void longOverlapping(std::size_t node, std::size_t lo, std::size_t hi, std::size_t before, Interval w,
                         std::vector<std::size_t>& out) const;
};

} // namespace bs
