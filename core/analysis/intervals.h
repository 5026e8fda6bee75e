#pragma once
// Interval unions: the one primitive behind busy time, gaps, coverage and overlap.
#include "model/time.h"

#include <vector>

namespace bs {

struct Interval {
    TimeNs a = 0; // start
    TimeNs b = 0; // end (exclusive)
    TimeNs length() const { return b - a; }
};

// Sorts and merges; touching intervals merge; empty intervals are dropped.
std::vector<Interval> mergeIntervals(std::vector<Interval> v);
TimeNs totalLength(const std::vector<Interval>& merged);
// Length of merged ∩ [w.a, w.b). `merged` must be sorted and disjoint.
TimeNs intersectLength(const std::vector<Interval>& merged, Interval w);

} // namespace bs
