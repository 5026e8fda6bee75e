#include "analysis/intervals.h"

#include <algorithm>

namespace bs {

std::vector<Interval> mergeIntervals(std::vector<Interval> v) {
    v.erase(std::remove_if(v.begin(), v.end(), [](const Interval& i) { return i.b <= i.a; }), v.end());
    auto less = [](const Interval& x, const Interval& y) { return x.a < y.a || (x.a == y.a && x.b < y.b); };
    // Most callers pass intervals in start order already (events and kernels are sorted): skip the sort.
    if (!std::is_sorted(v.begin(), v.end(), [](const Interval& x, const Interval& y) { return x.a < y.a; }))
        std::sort(v.begin(), v.end(), less);
    std::vector<Interval> out;
    out.reserve(v.size());
    for (const auto& i : v) {
        if (!out.empty() && i.a <= out.back().b)
            out.back().b = std::max(out.back().b, i.b);
        else
            out.push_back(i);
    }
    return out;
}

TimeNs totalLength(const std::vector<Interval>& merged) {
    TimeNs t = 0;
    for (const auto& i : merged)
        t += i.length();
    return t;
}

TimeNs intersectLength(const std::vector<Interval>& merged, Interval w) {
    if (w.b <= w.a) return 0;
    auto it = std::lower_bound(merged.begin(), merged.end(), w.a,
                               [](const Interval& i, TimeNs t) { return i.b <= t; });
    TimeNs sum = 0;
    for (; it != merged.end() && it->a < w.b; ++it)
        sum += std::min(it->b, w.b) - std::max(it->a, w.a);
    return sum;
}

} // namespace bs
