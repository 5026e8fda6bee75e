#include "analysis/intervals.h"

#include <algorithm>

namespace bs {

std::vector<Interval> mergeIntervals(std::vector<Interval> v) {
    v.erase(std::remove_if(v.begin(), v.end(), [](const Interval& i) { return i.b <= i.a; }), v.end());
    auto less = [](const Interval& x, const Interval& y) { return x.a < y.a || (x.a == y.a && x.b < y.b); };
    // Most callers pass intervals in start order already (events and kernels are sorted): skip the sort.
    if (!std::is_sorted(v.begin(), v.end(), [](const Interval& x, const Interval& y) { return x.a < y.a; }))
        std::sort(v.begin(), v.end(), less);
    // Merged in place: a second vector as large as the input is fresh memory, which costs more here than
    // the merge itself (millions of host events at 1 GB of trace).
    std::size_t n = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (n > 0 && v[i].a <= v[n - 1].b)
            v[n - 1].b = std::max(v[n - 1].b, v[i].b);
        else
            v[n++] = v[i];
    }
    v.resize(n);
    return v;
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
