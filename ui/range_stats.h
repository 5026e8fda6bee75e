#pragma once
// Range statistics in logarithmic time (issue 18): prefix sums over the kernels, grouped by name, and
// over the device-busy union, so a range over the whole capture costs a few binary searches per kernel
// name instead of a walk over every kernel. Built once per profile, off the GUI thread.
#include "model/time.h"

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace bs {
struct Profile;
}

namespace bs::ui {

class RangeStats {
  public:
    RangeStats() = default;
    explicit RangeStats(const Profile& profile);

    struct NameTime {
        std::uint32_t name = 0; // StrId
        TimeNs time = 0;        // the kernels' time clipped to the range
        std::size_t count = 0;  // kernels of the name overlapping the range
    };
    struct Result {
        TimeNs busy = 0;             // length of the device-busy union inside the range
        std::size_t kernels = 0;     // kernels overlapping the range
        std::vector<NameTime> names; // every name with a kernel overlapping the range (unordered)
    };
    // What Inspector::rangeHtml reports for [start, end): a kernel overlaps when it starts before `end`
    // and ends after `start`.
    Result query(const Profile& profile, TimeNs start, TimeNs end) const;
    std::size_t bytes() const; // the memory it holds

  private:
    struct Group {
        std::uint32_t name = 0;
        std::uint32_t first = 0; // into order_ / prefix_ (prefix_ has one more entry per group)
        std::uint32_t size = 0;
        TimeNs maxDur = 0;
    };
    std::vector<Group> groups_;
    std::vector<std::uint32_t> order_; // kernel indices grouped by name, by start within a name
    std::vector<TimeNs> starts_;       // their starts, in the same order: the searches stay in this array
                                       // (a search through the kernels missed the cache at every step)
    std::vector<TimeNs> prefix_;       // per group: size + 1 running sums of the durations
    std::vector<TimeNs> busyA_, busyB_, busyPrefix_; // the merged busy union and its running lengths
};

} // namespace bs::ui
