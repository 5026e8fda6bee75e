#include "analysis/step_groups.h"

#include <algorithm>
#include <map>

namespace bs {

namespace {

// numpy/pandas default percentile: linear interpolation between closest ranks.
double percentile(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0;
    const double pos = q * static_cast<double>(sorted.size() - 1);
    const auto lo = static_cast<std::size_t>(pos);
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

std::uint64_t fnv(std::uint64_t h, std::string_view s) {
    for (char c : s)
        h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    return (h ^ 0xff) * 1099511628211ULL;
}

} // namespace

MetricStats statsOf(std::vector<double> v) {
    MetricStats s;
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    double sum = 0;
    for (double x : v)
        sum += x;
    s.avg = sum / static_cast<double>(v.size());
    s.median = percentile(v, 0.5);
    s.p90 = percentile(v, 0.9);
    s.p95 = percentile(v, 0.95);
    return s;
}

std::string templateName(std::string_view name, TaskClass cls) {
    if (cls != TaskClass::Comm) return std::string(name);
    std::string out;
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (name[i] >= '0' && name[i] <= '9') {
            out.push_back('#');
            while (i + 1 < name.size() && name[i + 1] >= '0' && name[i + 1] <= '9')
                ++i;
        } else {
            out.push_back(name[i]);
        }
    }
    return out;
}

std::vector<StepGroup> groupSteps(const Profile& p, const StepSet& steps,
                                  const std::vector<StepMetrics>& metrics, const Rulebook& r,
                                  bool firstStepIsCompile) {
    // Template hash per step: names of the kernels that belong to it, in start order.
    std::vector<std::uint64_t> hash(metrics.size(), 1469598103934665603ULL);
    std::vector<std::string> tmplCache(p.strings.size());
    std::vector<char> cached(p.strings.size(), 0);
    for (std::size_t i = 0; i < steps.steps.size(); ++i) {
        const auto& s = steps.steps[i];
        auto it = std::lower_bound(p.kernels.begin(), p.kernels.end(), s.start,
                                   [](const Kernel& k, TimeNs t) { return k.start < t; });
        for (; it != p.kernels.end() && it->start < s.end; ++it) {
            if (!cached[it->name]) {
                tmplCache[it->name] = templateName(p.str(it->name), it->cls);
                cached[it->name] = 1;
            }
            hash[i] = fnv(hash[i], tmplCache[it->name]);
        }
    }
    std::map<std::pair<std::uint64_t, std::size_t>, std::vector<int>> byKey;
    for (std::size_t i = 0; i < metrics.size(); ++i)
        byKey[{hash[i], metrics[i].kernelCount}].push_back(static_cast<int>(i));
    std::vector<StepGroup> groups;
    for (auto& [key, members] : byKey) {
        StepGroup g;
        g.templateHash = key.first;
        g.kernelCount = key.second;
        g.steps = members;
        for (int i : members)
            // Step Id windows may overlap, so the services of many steps can pass int64: saturate.
            g.totalService = addSaturating(g.totalService, metrics[static_cast<std::size_t>(i)].service);
        groups.push_back(std::move(g));
    }
    auto compileOnly = [&](const StepGroup& g) {
        return firstStepIsCompile && g.steps.size() == 1 && g.steps.front() == 0;
    };
    std::sort(groups.begin(), groups.end(), [&](const StepGroup& a, const StepGroup& b) {
        if (compileOnly(a) != compileOnly(b)) return compileOnly(b);
        if (a.totalService != b.totalService) return a.totalService > b.totalService;
        return a.steps.front() < b.steps.front();
    });
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
        auto& g = groups[gi];
        g.id = "g" + std::to_string(gi);
        std::vector<double> svc, busy, ratio, pre, tail, internal, largest, count, inter;
        for (int i : g.steps) {
            const auto& m = metrics[static_cast<std::size_t>(i)];
            svc.push_back(nsToMs(m.service));
            busy.push_back(nsToMs(m.busyUnion));
            ratio.push_back(m.underfeedRatio);
            pre.push_back(nsToMs(m.prelaunchGap));
            tail.push_back(nsToMs(m.tailGap));
            internal.push_back(nsToMs(m.internalBubbleTotal));
            largest.push_back(nsToMs(m.largestInternalBubble));
            count.push_back(static_cast<double>(m.bubbleCount));
            // Idle between this step's window and the next step's (0 when windows tile).
            const std::size_t next = static_cast<std::size_t>(i) + 1;
            inter.push_back(next < metrics.size()
                                ? nsToMs(std::max<TimeNs>(0, metrics[next].windowStart - m.windowEnd))
                                : 0.0);
        }
        g.service = statsOf(svc);
        g.busy = statsOf(busy);
        g.underfeedRatio = statsOf(ratio);
        g.prelaunch = statsOf(pre);
        g.tail = statsOf(tail);
        g.internalTotal = statsOf(internal);
        g.largestInternal = statsOf(largest);
        g.bubbleCount = statsOf(count);
        g.interStep = statsOf(inter);
        const std::pair<const char*, double> parts[] = {{"prelaunch", g.prelaunch.avg},
                                                        {"tail", g.tail.avg},
                                                        {"internal_bubble", g.internalTotal.avg},
                                                        {"inter_step", g.interStep.avg}};
        std::vector<std::pair<const char*, double>> sorted(std::begin(parts), std::end(parts));
        std::stable_sort(sorted.begin(), sorted.end(),
                         [](const auto& a, const auto& b) { return a.second > b.second; });
        const double floorMs = std::max(r.idle_none_ms, r.idle_none_service_fraction * g.service.avg);
        if (sorted[0].second < floorMs)
            g.dominantIdlePattern = "none";
        else if (sorted[1].second >= r.idle_mixed_ratio * sorted[0].second)
            g.dominantIdlePattern = "mixed";
        else
            g.dominantIdlePattern = sorted[0].first;
    }
    return groups;
}

} // namespace bs
