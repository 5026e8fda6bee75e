#include "range_stats.h"

#include "analysis/intervals.h"
#include "model/profile.h"

#include <algorithm>

namespace bs::ui {

RangeStats::RangeStats(const Profile& p) {
    // Kernels are sorted by start: a stable grouping by name keeps that order inside each name.
    const std::size_t n = p.kernels.size();
    std::vector<std::uint32_t> groupOf(n);
    {
        std::vector<std::int64_t> slot; // StrId → group, -1 none
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint32_t name = p.kernels[i].name;
            if (slot.size() <= name) slot.resize(static_cast<std::size_t>(name) + 1, -1);
            if (slot[name] < 0) {
                slot[name] = static_cast<std::int64_t>(groups_.size());
                groups_.push_back({name, 0, 0, 0});
            }
            groupOf[i] = static_cast<std::uint32_t>(slot[name]);
            Group& g = groups_[static_cast<std::size_t>(slot[name])];
            ++g.size;
            g.maxDur = std::max(g.maxDur, p.kernels[i].dur);
        }
    }
    std::uint32_t at = 0;
    for (auto& g : groups_) {
        g.first = at;
        at += g.size;
    }
    order_.resize(n);
    starts_.resize(n);
    prefix_.resize(n + groups_.size());
    std::vector<std::uint32_t> fill(groups_.size(), 0);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t gi = groupOf[i];
        const Group& g = groups_[gi];
        const std::uint32_t k = fill[gi]++;
        order_[g.first + k] = static_cast<std::uint32_t>(i);
        starts_[g.first + k] = p.kernels[i].start;
        const std::size_t base = g.first + gi; // this group's prefix_ starts here
        if (k == 0) prefix_[base] = 0;
        prefix_[base + k + 1] = prefix_[base + k] + p.kernels[i].dur;
    }
    std::vector<Interval> iv;
    iv.reserve(n);
    for (const auto& k : p.kernels)
        iv.push_back({k.start, k.end()});
    const auto merged = mergeIntervals(std::move(iv));
    busyA_.reserve(merged.size());
    busyB_.reserve(merged.size());
    busyPrefix_.reserve(merged.size() + 1);
    busyPrefix_.push_back(0);
    for (const auto& m : merged) {
        busyA_.push_back(m.a);
        busyB_.push_back(m.b);
        busyPrefix_.push_back(busyPrefix_.back() + (m.b - m.a));
    }
}

std::size_t RangeStats::bytes() const {
    return groups_.capacity() * sizeof(Group) + order_.capacity() * sizeof(std::uint32_t) +
           (starts_.capacity() + prefix_.capacity() + busyA_.capacity() + busyB_.capacity() + busyPrefix_.capacity()) * sizeof(TimeNs);
}

RangeStats::Result RangeStats::query(const Profile& p, TimeNs start, TimeNs end) const {
    Result r;
    if (end <= start) return r;
    // The busy union: whole segments between the two ends, the two end segments clipped.
    {
        const std::size_t lo = static_cast<std::size_t>(std::upper_bound(busyB_.begin(), busyB_.end(), start) - busyB_.begin());
        const std::size_t hi = static_cast<std::size_t>(std::lower_bound(busyA_.begin(), busyA_.end(), end) - busyA_.begin());
        if (lo < hi) {
            r.busy = busyPrefix_[hi] - busyPrefix_[lo];
            r.busy -= std::max<TimeNs>(0, start - busyA_[lo]);
            r.busy -= std::max<TimeNs>(0, busyB_[hi - 1] - end);
        }
    }
    for (std::size_t gi = 0; gi < groups_.size(); ++gi) {
        const Group& g = groups_[gi];
        const std::uint32_t* ks = order_.data() + g.first;
        const TimeNs* st = starts_.data() + g.first;
        const TimeNs* pre = prefix_.data() + g.first + gi;
        auto firstStart = [&](TimeNs t) { // first kernel of the group starting at or after t
            return static_cast<std::size_t>(std::lower_bound(st, st + g.size, t) - st);
        };
        const std::size_t hi = firstStart(end); // [.., hi) start before the range ends
        if (hi == 0) continue;
        // Kernels starting before start − maxDur end before the range: the edge [lo, mid) is checked one by
        // one, as are the kernels starting exactly at `start` (a zero-length one there does not overlap).
        const std::size_t lo = firstStart(start - g.maxDur);
        if (lo >= hi) continue;
        NameTime nt{g.name, 0, 0};
        std::size_t mid = firstStart(start + 1);
        mid = std::min(mid, hi);
        for (std::size_t i = lo; i < mid; ++i) {
            const Kernel& k = p.kernels[ks[i]];
            if (k.end() <= start) continue;
            ++nt.count;
            nt.time += std::min(k.end(), end) - std::max(k.start, start);
        }
        if (mid < hi) {
            // Whole durations, less what runs past `end` (only kernels starting after end − maxDur can).
            nt.count += hi - mid;
            nt.time += pre[hi] - pre[mid];
            for (std::size_t i = std::max(mid, firstStart(end - g.maxDur)); i < hi; ++i) {
                const Kernel& k = p.kernels[ks[i]];
                if (k.end() > end) nt.time -= k.end() - end;
            }
        }
        if (nt.count == 0) continue;
        r.kernels += nt.count;
        r.names.push_back(nt);
    }
    return r;
}

} // namespace bs::ui
