#include "analysis/op_analysis.h"

#include "analysis/step_groups.h"
#include "i18n/message.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <unordered_map>

namespace bs {

namespace {

// The PMU columns a verdict reads.
constexpr const char* kPmuNames[] = {"aic_mac_ratio", "aic_scalar_ratio", "aic_mte1_ratio",
                                     "aic_mte2_ratio", "aic_fixpipe_ratio", "aiv_vec_ratio",
                                     "aiv_scalar_ratio", "aiv_mte2_ratio", "aiv_mte3_ratio",
                                     "cube_utilization(%)"};
constexpr std::size_t kPmuCount = std::size(kPmuNames);

struct Acc {
    std::string name, taskType;
    std::size_t calls = 0;
    TimeNs dur = 0, wait = 0;
    std::size_t pollutedCalls = 0; // calls whose wait span overlaps a communication window
    std::map<StrId, std::size_t> shapeIds;
    // Per PMU column (kPmuNames): Σ value × duration and Σ duration over the calls with a value, summed in
    // kernel order while the kernels are swept once (the PMU table is read row after row).
    std::array<double, kPmuCount> pmuSum{}, pmuWeight{};
};

std::vector<Interval> commWindows(const Profile& p) {
    std::vector<Interval> v;
    for (const auto& k : p.kernels)
        if (k.cls == TaskClass::Comm) v.push_back({k.start, k.end()});
    for (const auto& c : p.commOps)
        if (c.start > 0 && c.elapse > 0)
            v.push_back({c.start, addSaturating(c.start, c.elapse)}); // reader-bounded; belt and braces
    return mergeIntervals(std::move(v));
}

bool hasNonZeroPmu(const Profile& p) {
    for (float v : p.pmu.values)
        if (!std::isnan(v) && v != 0.0f) return true;
    return false;
}

// The PMU columns the verdict reads, looked up once per analysis: PmuTable::column() is a linear scan
// and tables can carry 10^5+ columns, so looking them up per op made ops x columns.
struct PmuColumns {
    bool available = false;
    std::array<std::optional<std::size_t>, kPmuCount> column; // in the PMU table, per kPmuNames entry
    explicit PmuColumns(const Profile& p) {
        available = pmuAvailable(p);
        for (std::size_t i = 0; i < kPmuCount; ++i)
            column[i] = p.pmu.column(kPmuNames[i]);
    }
};

// Duration-weighted mean of each PMU column over the op's kernels (nullopt when the column is absent or
// holds no value). The sums are taken in the sweep over the kernels (addPmu): a per-op pass read each
// kernel's row far from the previous one (at 1 GB of trace the table no longer fits a cache).
void addPmu(Acc& a, const Profile& p, const Kernel& k, const PmuColumns& cols) {
    if (k.pmuRow < 0 || !cols.available) return;
    const auto row = static_cast<std::size_t>(k.pmuRow);
    for (std::size_t c = 0; c < kPmuCount; ++c) {
        if (!cols.column[c]) continue;
        const float v = p.pmu.at(row, *cols.column[c]);
        if (std::isnan(v)) continue;
        a.pmuSum[c] += static_cast<double>(v) * static_cast<double>(k.dur);
        a.pmuWeight[c] += static_cast<double>(k.dur);
    }
}

class PmuMeans {
  public:
    PmuMeans(const Acc& a, const PmuColumns& cols) {
        for (std::size_t c = 0; c < kPmuCount; ++c)
            if (cols.column[c] && a.pmuWeight[c] > 0) mean_[c] = a.pmuSum[c] / a.pmuWeight[c];
    }
    std::optional<double> operator()(std::string_view name) const {
        for (std::size_t c = 0; c < kPmuCount; ++c)
            if (name == kPmuNames[c]) return mean_[c];
        return std::nullopt;
    }

  private:
    std::array<std::optional<double>, kPmuCount> mean_;
};

void pmuVerdict(const PmuColumns& cols, OpStats& op, const Acc& acc,
                const Rulebook& r) {
    if (!cols.available) {
        op.pmuVerdict = "pmu_unavailable";
        return;
    }
    const bool vector = op.taskType == "AI_VECTOR_CORE" || op.taskType == "MIX_AIV";
    const bool cube = op.taskType == "AI_CORE" || op.taskType == "MIX_AIC";
    if (!vector && !cube) {
        op.pmuVerdict = "not_applicable";
        return;
    }
    const char* const aic[] = {"aic_mac_ratio", "aic_scalar_ratio", "aic_mte1_ratio", "aic_mte2_ratio",
                               "aic_fixpipe_ratio"};
    const char* const aiv[] = {"aiv_vec_ratio", "aiv_scalar_ratio", "aiv_mte2_ratio", "aiv_mte3_ratio"};
    const PmuMeans mean(acc, cols);
    std::string best;
    double bestV = -1;
    std::string detail;
    auto scan = [&](const char* const* names, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) {
            auto v = mean(names[i]);
            if (!v) continue;
            detail += fmt::format("{}{}={:.2f}", detail.empty() ? "" : ", ", names[i], *v);
            if (*v > bestV) bestV = *v, best = names[i];
        }
    };
    if (cube) scan(aic, 5);
    if (vector || (cube && bestV <= 0)) scan(aiv, 4);
    op.pmuDetail = detail;
    op.cubeUtilization = mean("cube_utilization(%)");
    if (bestV <= 0) {
        op.pmuVerdict = "pmu_unavailable";
        return;
    }
    if (best == "aic_mac_ratio" || best == "aiv_vec_ratio")
        op.pmuVerdict = "compute-bound";
    else if (best == "aic_mte2_ratio" || best == "aiv_mte2_ratio")
        op.pmuVerdict = "memory-bound";
    else
        op.pmuVerdict = best.substr(4, best.size() - 10) + "-bound"; // scalar / mte1 / mte3 / fixpipe
    auto mte2 = mean("aiv_mte2_ratio");
    if (mte2 && *mte2 > r.pmu_mte2_hot) op.pmuVerdict += msg(", hot (aiv_mte2_ratio {:.2f})", *mte2);
}

} // namespace

bool pmuAvailable(const Profile& p) {
    return (p.pmu.column("aic_mac_ratio") || p.pmu.column("aiv_vec_ratio")) && hasNonZeroPmu(p);
}

std::vector<OpStats> analyzeOps(const Profile& p, const std::vector<Interval>& windows, const Rulebook& r) {
    const auto comm = commWindows(p);
    // Collectives carry a running index in their names (hcom_allReduce__586_0_1): one op, many names.
    std::map<std::pair<std::string, StrId>, Acc> accs;
    std::vector<std::string> opName(p.strings.size());
    std::vector<char> named(p.strings.size(), 0);
    std::unordered_map<std::uint64_t, Acc*> fast;
    const PmuColumns pmuCols(p);
    auto inWindows = [&](TimeNs t) {
        if (windows.empty()) return true;
        auto it = std::upper_bound(windows.begin(), windows.end(), t,
                                   [](TimeNs x, const Interval& w) { return x < w.a; });
        return it != windows.begin() && t < std::prev(it)->b;
    };
    for (std::size_t i = 0; i < p.kernels.size(); ++i) {
        const Kernel& k = p.kernels[i];
        if (!inWindows(k.start)) continue;
        if (!named[k.name]) {
            opName[k.name] = templateName(p.str(k.name), k.cls);
            named[k.name] = 1;
        }
        // Fast path: (name id, task type id) → accumulator, so the string-keyed map is hit once per pair.
        const std::uint64_t fastKey = (static_cast<std::uint64_t>(k.name) << 32) | k.taskType;
        auto fit = fast.find(fastKey);
        if (fit == fast.end()) fit = fast.emplace(fastKey, &accs[{opName[k.name], k.taskType}]).first;
        Acc& a = *fit->second;
        if (a.calls == 0) {
            a.name = opName[k.name];
            a.taskType = std::string(p.str(k.taskType));
        }
        ++a.calls;
        // Saturating (time.h): each addend is <= 1000 s, the number of calls is not bounded.
        a.dur = addSaturating(a.dur, k.dur);
        a.wait = addSaturating(a.wait, k.wait);
        ++a.shapeIds[k.inputShapes];
        addPmu(a, p, k, pmuCols);
        if (k.wait > 0 && intersectLength(comm, {k.start - k.wait, k.start}) > 0) ++a.pollutedCalls;
    }
    std::vector<OpStats> ops;
    std::vector<const Acc*> src;
    for (const auto& [key, a] : accs) {
        OpStats o;
        o.name = a.name;
        o.taskType = a.taskType;
        o.calls = a.calls;
        o.durTotal = a.dur;
        o.durAvgUs = nsToUs(a.dur) / static_cast<double>(a.calls);
        o.waitAvgUs = nsToUs(a.wait) / static_cast<double>(a.calls);
        o.totalCostAvgUs = o.durAvgUs + o.waitAvgUs;
        o.waitRatio = o.totalCostAvgUs > 0 ? o.waitAvgUs / o.totalCostAvgUs : 0;
        // §6 WAIT_POLLUTION_RISK: a real wait (not the ~1.5 us launch wait every op next to a collective
        // shows) on at least half of the calls.
        o.waitPollution = o.waitAvgUs >= r.wait_pollution_min_us && 2 * a.pollutedCalls >= a.calls;
        std::size_t best = 0;
        for (const auto& [sid, n] : a.shapeIds)
            if (n > best) best = n, o.shapes = std::string(p.str(sid));
        ops.push_back(std::move(o));
        src.push_back(&a);
    }
    std::vector<std::size_t> order(ops.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        if (ops[x].durTotal != ops[y].durTotal) return ops[x].durTotal > ops[y].durTotal;
        return ops[x].name < ops[y].name;
    });
    for (std::size_t i = 0; i < order.size(); ++i)
        ops[order[i]].rankByTotal = static_cast<int>(i + 1);
    std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
        if (ops[x].totalCostAvgUs != ops[y].totalCostAvgUs)
            return ops[x].totalCostAvgUs > ops[y].totalCostAvgUs;
        return ops[x].name < ops[y].name;
    });
    std::vector<OpStats> ranked;
    for (std::size_t i = 0; i < order.size(); ++i) {
        OpStats o = ops[order[i]];
        o.rankByAvgCost = static_cast<int>(i + 1);
        o.waitAnchor = o.rankByAvgCost <= r.wait_list_top && o.waitRatio > r.wait_list_ratio;
        o.falseHotspot = o.waitRatio > r.wait_anchor_wait_ratio &&
                         o.durAvgUs < r.wait_anchor_max_duration_us &&
                         o.rankByAvgCost <= r.wait_anchor_max_rank;
        pmuVerdict(pmuCols, o, *src[order[i]], r);
        ranked.push_back(std::move(o));
    }
    return ranked;
}

std::vector<AicpuOp> analyzeAicpu(const Profile& p, const std::vector<BubbleWindow>& windows,
                                  const Rulebook& r) {
    std::vector<Interval> compute;
    for (const auto& k : p.kernels)
        if (k.cls == TaskClass::ComputeCore) compute.push_back({k.start, k.end()});
    compute = mergeIntervals(std::move(compute));
    std::vector<Interval> bubbles;
    for (const auto& w : windows)
        bubbles.push_back(w.span);
    bubbles = mergeIntervals(std::move(bubbles));
    std::map<StrId, AicpuOp> byName;
    std::map<StrId, double> maskedWeighted;
    for (const auto& k : p.kernels) {
        if (k.cls != TaskClass::AiCpu) continue;
        AicpuOp& a = byName[k.name];
        a.name = std::string(p.str(k.name));
        ++a.calls;
        a.durTotal = addSaturating(a.durTotal, k.dur);
        maskedWeighted[k.name] += static_cast<double>(intersectLength(compute, {k.start, k.end()}));
        // Adjacent to a significant bubble (within 1 µs of its edge): the exposure may feed that bubble.
        if (intersectLength(bubbles, {k.start - 1000, k.end() + 1000}) > 0) a.touchesBubble = true;
    }
    std::vector<AicpuOp> out;
    for (auto& [id, a] : byName) {
        a.maskedRatio = a.durTotal > 0 ? maskedWeighted[id] / static_cast<double>(a.durTotal) : 0;
        a.cls = a.maskedRatio >= r.aicpu_masked_min    ? "AICPU_MASKED_BUT_UNDESIRABLE"
                : a.maskedRatio >= r.aicpu_partial_min ? "AICPU_PARTIALLY_EXPOSED"
                                                       : "AICPU_EXPOSED_NOT_ALLOWED";
        out.push_back(a);
    }
    std::sort(out.begin(), out.end(), [](const AicpuOp& x, const AicpuOp& y) {
        return x.durTotal != y.durTotal ? x.durTotal > y.durTotal : x.name < y.name;
    });
    return out;
}

} // namespace bs
