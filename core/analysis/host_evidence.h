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
    HostEvidence evidence(Interval window) const;
    std::size_t eventsUsed() const { return used_.size(); }

    static bool isSyncMarker(std::string_view name);
    static bool isCommMarker(std::string_view name);

  private:
    const Profile& p_;
    bool hostTraceExists_ = false;
    std::vector<std::size_t> used_;       // indices of host events taken as evidence (sorted by ts)
    std::vector<std::size_t> longEvents_; // of those, events longer than kLong (scanned fully)
    std::vector<Interval> all_, sync_, comm_;
    std::vector<std::vector<Interval>> perLane_;
    static constexpr TimeNs kLong = 10'000'000;
};

} // namespace bs
