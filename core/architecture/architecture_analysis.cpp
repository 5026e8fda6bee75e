#include "architecture/architecture_analysis.h"

#include "architecture/structures.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <set>

namespace bs {

namespace {

bool has(std::string_view s, std::string_view n) {
    return s.find(n) != std::string_view::npos;
}
bool iHas(std::string_view s, std::string_view n) {
    std::string a(s), b(n);
    std::transform(a.begin(), a.end(), a.begin(), ::tolower);
    std::transform(b.begin(), b.end(), b.begin(), ::tolower);
    return a.find(b) != std::string::npos;
}
bool isSampling(std::string_view n) {
    return has(n, "ArgMax") || n.rfind("rejection_", 0) == 0;
}
bool isAllToAll(std::string_view n) {
    return iHas(n, "alltoall");
}

std::size_t kernelIndexAt(const Profile& p, TimeNs t) {
    return static_cast<std::size_t>(std::lower_bound(p.kernels.begin(), p.kernels.end(), t,
                                                     [](const Kernel& k, TimeNs x) { return k.start < x; }) -
                                    p.kernels.begin());
}

// The step holding a time: the first step (in StepSet order) whose window [start, end) contains it, -1
// if none. Step Id windows may overlap, so the answer is precomputed per elementary segment between two
// window boundaries (a sweep with the set of open windows) and each query is one binary search: steps x
// markers was quadratic.
class StepLocator {
  public:
    explicit StepLocator(const StepSet& steps) {
        struct Edge {
            TimeNs t;
            bool open;
            int step;
        };
        std::vector<Edge> edges;
        for (std::size_t i = 0; i < steps.steps.size(); ++i) {
            const auto& s = steps.steps[i];
            if (s.start >= s.end) continue; // an empty window holds no time
            edges.push_back({s.start, true, static_cast<int>(i)});
            edges.push_back({s.end, false, static_cast<int>(i)});
        }
        std::sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) { return x.t < y.t; });
        std::set<int> open;
        for (std::size_t e = 0; e < edges.size();) {
            const TimeNs t = edges[e].t;
            for (; e < edges.size() && edges[e].t == t; ++e) {
                if (edges[e].open)
                    open.insert(edges[e].step);
                else
                    open.erase(edges[e].step);
            }
            points_.push_back(t);
            first_.push_back(open.empty() ? -1 : *open.begin());
        }
    }
    int operator()(TimeNs t) const {
        auto it = std::upper_bound(points_.begin(), points_.end(), t);
        if (it == points_.begin()) return -1;
        return first_[static_cast<std::size_t>(it - points_.begin()) - 1];
    }

  private:
    std::vector<TimeNs> points_; // window boundaries, ascending
    std::vector<int> first_;     // first step holding [points_[i], points_[i + 1])
};

// For each stream, the other streams whose busy time overlaps its own (positive length), ascending.
// One sweep over all merged intervals by start: an interval overlaps exactly the intervals still open
// when it starts, and a stream has at most one open at a time (its merged intervals are disjoint). Cost
// O(N log N + pairs found); comparing every stream with every other was S^2 (40 k streams: 54 s).
std::map<int, std::vector<int>> overlappingStreams(const std::map<int, std::vector<Interval>>& merged) {
    struct Iv {
        TimeNs a, b;
        int stream;
    };
    std::vector<Iv> all;
    for (const auto& [s, v] : merged)
        for (const auto& iv : v)
            all.push_back({iv.a, iv.b, s});
    std::sort(all.begin(), all.end(), [](const Iv& x, const Iv& y) { return x.a < y.a; });
    std::multimap<TimeNs, int> open; // end → stream
    std::vector<std::pair<int, int>> pairs;
    for (const auto& x : all) {
        while (!open.empty() && open.begin()->first <= x.a)
            open.erase(open.begin());
        for (const auto& [end, o] : open)
            if (o != x.stream) pairs.emplace_back(std::min(o, x.stream), std::max(o, x.stream));
        open.emplace(x.b, x.stream);
    }
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    std::map<int, std::vector<int>> out;
    for (const auto& [s, o] : pairs) {
        out[s].push_back(o);
        out[o].push_back(s);
    }
    for (auto& [s, v] : out)
        std::sort(v.begin(), v.end());
    return out;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

} // namespace

std::vector<LayerKernel> layerKernels(const Profile& p, const ArchLayer& l, const std::string& marker) {
    std::vector<LayerKernel> out;
    const std::size_t a = kernelIndexAt(p, l.span.a), b = kernelIndexAt(p, l.span.b);
    const bool dense = l.type.rfind("Dense", 0) == 0;
    bool seenMarker = false, projDone = false, ffnDone = false, moe = false, experts = false;
    int denseMatmuls = 0;
    for (std::size_t i = a; i < b; ++i) {
        const Kernel& k = p.kernels[i];
        const std::string_view n = p.str(k.name);
        std::string role;
        if (!marker.empty() && has(n, marker))
            role = "attention", seenMarker = true;
        else if (isSampling(n))
            role = "sampling";
        else if (k.cls == TaskClass::Comm)
            role = isAllToAll(n) ? "EP comm" : "TP comm";
        else if (has(n, "MoeGatingTopK") || has(n, "MoeInitRouting"))
            role = "MoE routing", moe = true;
        else if (has(n, "DispatchFFNCombine"))
            role = "expert dispatch+FFN+combine", ffnDone = true, moe = true;
        else if (has(n, "GroupedMatmul"))
            role = "expert FFN", experts = true;
        else if (has(n, "MoeFinalizeRouting"))
            role = "expert combine", ffnDone = true;
        else if (has(n, "SwiGlu") && experts && !ffnDone)
            role = "expert FFN";
        else if (has(n, "SwiGlu") && dense && !ffnDone)
            role = "dense FFN";
        else if (k.cls == TaskClass::AiCpu)
            role = "AICPU op";
        else if (iHas(n, "matmul") && seenMarker && !projDone)
            role = "attention projection", projDone = true;
        else if (iHas(n, "matmul") && dense && projDone && !ffnDone) {
            role = "dense FFN";
            if (++denseMatmuls == 2) ffnDone = true;
        } else if (has(n, "AddRmsNorm"))
            role = moe && ffnDone ? "post-MoE norm" : "residual norm";
        else if (has(n, "Add") && k.cls == TaskClass::ComputeCore)
            role = "residual add";
        else if (ffnDone && (iHas(n, "rmsnorm") || iHas(n, "matmul") || iHas(n, "rotary") || iHas(n, "rope")))
            role = "next-layer prep";
        else if (k.dur < 10000)
            role = "small ops";
        else
            role = "other";
        out.push_back({std::string(n), role, std::string(p.str(k.taskType)), k.start, k.dur, k.stream});
    }
    return out;
}

ArchitectureResult analyzeArchitecture(const Profile& p, const StepSet& steps,
                                       const std::vector<BubbleWindow>& windows, const Rulebook& rules) {
    ArchitectureResult a;
    // A1: attention timeline.
    const char* candidates[] = {"FusedInferAttentionScore", "FlashAttentionScore", "PromptFlashAttention",
                                "IncreFlashAttention", "FlashAttention"};
    std::vector<std::size_t> markers;
    for (const char* c : candidates) {
        for (std::size_t i = 0; i < p.kernels.size(); ++i)
            if (has(p.str(p.kernels[i].name), c) && !has(p.str(p.kernels[i].name), "Grad"))
                markers.push_back(i);
        if (!markers.empty()) {
            a.marker = c;
            break;
        }
    }
    a.markerCount = markers.size();
    if (markers.empty()) {
        a.markerSource = "repeating kernel pattern";
        a.confidence = "low";
        a.notes.push_back(
            "No attention kernel (FusedInferAttentionScore, FlashAttentionScore, PromptFlashAttention, "
            "IncreFlashAttention, *FlashAttention*) was found: layers are the repeating kernel patterns of "
            "ANALYSIS.md §9, without prefill/decode or layer types.");
    } else {
        a.markerSource = "attention kernels";
        a.confidence = a.marker == "FusedInferAttentionScore" ? "high" : "medium";
        if (a.marker != "FusedInferAttentionScore")
            a.notes.push_back(fmt::format(
                "No FusedInferAttentionScore kernel: `{}` is used as the layer marker.", a.marker));
    }
    // A2: phases.
    std::vector<std::string> phase(markers.size(), "single");
    if (!markers.empty()) {
        std::vector<TimeNs> d;
        for (std::size_t m : markers)
            d.push_back(p.kernels[m].dur);
        const bool anyLong = std::any_of(d.begin(), d.end(), [](TimeNs x) { return x > 10'000'000; });
        if (anyLong) {
            a.phaseRule = "prefill: attention kernel > 10 ms; decode: < 1 ms";
            for (std::size_t i = 0; i < d.size(); ++i)
                phase[i] = d[i] >= 1'000'000 ? "prefill" : "decode";
            if (std::any_of(d.begin(), d.end(), [](TimeNs x) { return x >= 1'000'000 && x <= 10'000'000; }))
                a.notes.push_back(
                    "Some attention kernels last between 1 and 10 ms; they are counted as prefill.");
        } else {
            std::vector<TimeNs> s = d;
            std::sort(s.begin(), s.end());
            double bestRatio = 0;
            TimeNs cut = 0;
            for (std::size_t i = 1; i < s.size(); ++i) {
                const double r = s[i - 1] > 0 ? static_cast<double>(s[i]) / static_cast<double>(s[i - 1]) : 0;
                if (r > bestRatio) bestRatio = r, cut = s[i];
            }
            if (bestRatio >= 5.0) {
                a.phaseRule = fmt::format(
                    "no attention kernel exceeds 10 ms: split at the largest jump between sorted durations "
                    "({:.1f}x at {:.3f} ms)",
                    bestRatio, nsToMs(cut));
                for (std::size_t i = 0; i < d.size(); ++i)
                    phase[i] = d[i] >= cut ? "prefill" : "decode";
            } else {
                a.phaseRule = "one phase: no attention kernel exceeds 10 ms and durations show no 5x jump";
            }
        }
    }
    // A3: passes — split at step boundaries, phase changes, gaps > 5x the phase's median gap, and (where
    // ANALYSIS is silent, core/README.md) a sampling tail between two markers.
    std::map<std::string, std::vector<double>> gapsByPhase;
    for (std::size_t i = 1; i < markers.size(); ++i)
        if (phase[i] == phase[i - 1])
            gapsByPhase[phase[i]].push_back(
                static_cast<double>(p.kernels[markers[i]].start - p.kernels[markers[i - 1]].start));
    std::map<std::string, double> medGap;
    for (auto& [ph, g] : gapsByPhase)
        medGap[ph] = median(g);
    const StepLocator stepOf(steps);
    std::vector<std::size_t> samplingIdx;
    for (std::size_t i = 0; i < p.kernels.size(); ++i)
        if (isSampling(p.str(p.kernels[i].name))) samplingIdx.push_back(i);
    for (std::size_t i = 0; i < markers.size(); ++i) {
        bool split = i == 0;
        if (!split) {
            const std::size_t m0 = markers[i - 1], m1 = markers[i];
            split = stepOf(p.kernels[m0].start) != stepOf(p.kernels[m1].start) || phase[i] != phase[i - 1] ||
                    static_cast<double>(p.kernels[m1].start - p.kernels[m0].start) > 5.0 * medGap[phase[i]];
            auto it = std::upper_bound(samplingIdx.begin(), samplingIdx.end(), m0);
            if (it != samplingIdx.end() && *it < m1) split = true;
        }
        if (split) {
            ArchPass ps;
            ps.index = static_cast<int>(a.passes.size());
            ps.phase = phase[i];
            ps.firstMarker = i;
            const int si = stepOf(p.kernels[markers[i]].start);
            ps.stepId = si < 0 ? "-"
                               : (steps.steps[static_cast<std::size_t>(si)].number >= 0
                                      ? std::to_string(steps.steps[static_cast<std::size_t>(si)].number)
                                      : "pseudo");
            a.passes.push_back(ps);
        }
        ++a.passes.back().markerCount;
    }
    std::map<std::size_t, int> lengths;
    for (const auto& ps : a.passes)
        ++lengths[ps.markerCount];
    int bestCount = 0;
    for (const auto& [len, c] : lengths)
        if (c > bestCount || (c == bestCount && static_cast<int>(len) > a.layersPerPass))
            bestCount = c, a.layersPerPass = static_cast<int>(len);
    a.passCountConsistent = a.layersPerPass > 0 &&
                            markers.size() % static_cast<std::size_t>(a.layersPerPass) == 0 &&
                            a.passes.size() == markers.size() / static_cast<std::size_t>(a.layersPerPass);
    // A4/A5: layers and types.
    for (std::size_t pi = 0; pi < a.passes.size(); ++pi) {
        auto& ps = a.passes[pi];
        const std::size_t lastMarker = ps.firstMarker + ps.markerCount;
        const int si = stepOf(p.kernels[markers[ps.firstMarker]].start);
        TimeNs passEnd;
        if (lastMarker < markers.size() && stepOf(p.kernels[markers[lastMarker]].start) == si)
            passEnd = p.kernels[markers[lastMarker]].start;
        else if (si >= 0)
            passEnd = steps.steps[static_cast<std::size_t>(si)].end;
        else
            passEnd = p.kernels.back().end();
        double markerSum = 0;
        for (std::size_t j = ps.firstMarker; j < lastMarker; ++j) {
            ArchLayer l;
            l.pass = ps.index;
            l.index = static_cast<int>(j - ps.firstMarker);
            l.span = {p.kernels[markers[j]].start,
                      j + 1 < lastMarker ? p.kernels[markers[j + 1]].start : passEnd};
            l.markerDur = p.kernels[markers[j]].dur;
            markerSum += nsToMs(l.markerDur);
            const std::size_t ka = kernelIndexAt(p, l.span.a), kb = kernelIndexAt(p, l.span.b);
            for (std::size_t k = ka; k < kb; ++k) {
                const auto n = p.str(p.kernels[k].name);
                l.dfc += has(n, "DispatchFFNCombine");
                l.gmm += has(n, "GroupedMatmul");
                l.gating += has(n, "MoeGatingTopK");
                l.allToAll += isAllToAll(n);
                l.sampling |= isSampling(n);
            }
            if (l.dfc)
                l.type = "MoE+DFC";
            else if (l.gmm && l.allToAll)
                l.type = "MoE+GMM";
            else if (!l.gating && !l.gmm)
                l.type = "Dense";
            else
                l.type = "MoE (no expert kernel)";
            if (l.sampling) l.type += " with sampling";
            l.clocks = clocksOf(p, ka, kb, l.span);
            ps.layers.push_back(static_cast<int>(a.layers.size()));
            a.layers.push_back(l);
        }
        ps.span = {p.kernels[markers[ps.firstMarker]].start, passEnd};
        ps.kernelCount = kernelIndexAt(p, passEnd) - kernelIndexAt(p, ps.span.a);
        ps.meanMarkerMs = ps.markerCount ? markerSum / static_cast<double>(ps.markerCount) : 0;
        a.hasPrefill |= ps.phase == "prefill";
        a.hasDecode |= ps.phase == "decode";
    }
    // A5: cross-verification, against the modal pass signature.
    std::map<std::string, int> sigCount;
    for (const auto& ps : a.passes) {
        CrossCheckRowArch row;
        row.pass = ps.index;
        row.markers = ps.markerCount;
        row.layers = ps.layers.size();
        for (int li : ps.layers) {
            const auto& l = a.layers[static_cast<std::size_t>(li)];
            row.dfc += l.dfc;
            row.gmm += l.gmm;
            row.gating += l.gating;
            row.dfcLayers += l.type.rfind("MoE+DFC", 0) == 0;
            row.gmmLayers += l.type.rfind("MoE+GMM", 0) == 0;
            row.moeLayers += l.type.rfind("MoE", 0) == 0;
            row.signature += (row.signature.empty() ? "" : ",") + l.type;
        }
        ++sigCount[row.signature];
        a.crossCheck.push_back(row);
    }
    std::string modal;
    int modalN = 0;
    for (const auto& [s, n] : sigCount)
        if (n > modalN) modalN = n, modal = s;
    const CrossCheckRowArch* modalRow = nullptr;
    for (const auto& r : a.crossCheck)
        if (r.signature == modal) modalRow = &r;
    for (auto& r : a.crossCheck) {
        std::vector<std::string> why;
        if (r.markers != r.layers) why.push_back("markers != layers");
        if (r.dfc != r.dfcLayers)
            why.push_back(
                fmt::format("DispatchFFNCombine count {} != MoE+DFC layers {}", r.dfc, r.dfcLayers));
        if (r.gating != r.moeLayers)
            why.push_back(fmt::format("MoeGatingTopK count {} != MoE layers {}", r.gating, r.moeLayers));
        if (modalRow && r.signature != modal) {
            if (r.layers != modalRow->layers)
                why.push_back(fmt::format("{} layers where most passes have {}", r.layers, modalRow->layers));
            if (r.dfc != modalRow->dfc)
                why.push_back(fmt::format("DispatchFFNCombine count {} where most passes have {}", r.dfc,
                                          modalRow->dfc));
            if (r.gmm != modalRow->gmm)
                why.push_back(
                    fmt::format("GroupedMatmul count {} where most passes have {}", r.gmm, modalRow->gmm));
            if (r.gating != modalRow->gating)
                why.push_back(fmt::format("MoeGatingTopK count {} where most passes have {}", r.gating,
                                          modalRow->gating));
            if (why.empty()) why.push_back("layer types differ from most passes");
        }
        r.mismatch = !why.empty();
        for (std::size_t i = 0; i < why.size(); ++i)
            r.why += (i ? "; " : "") + why[i];
        a.crossCheckMismatches += r.mismatch;
    }
    // A4 summary + A6 roles: per layer type, from a modal pass (prefill first when there is one).
    const ArchPass* rep = nullptr;
    for (const auto& ps : a.passes)
        if (a.crossCheck[static_cast<std::size_t>(ps.index)].signature == modal &&
            (!rep || (rep->phase != "prefill" && ps.phase == "prefill")))
            rep = &ps;
    if (rep) {
        for (int li : rep->layers) {
            const auto& l = a.layers[static_cast<std::size_t>(li)];
            auto it = std::find_if(a.types.begin(), a.types.end(),
                                   [&](const LayerTypeSummary& t) { return t.type == l.type; });
            if (it == a.types.end()) {
                LayerTypeSummary t;
                t.type = l.type;
                t.representativePhase = rep->phase;
                t.sequence = layerKernels(p, l, a.marker);
                std::map<std::string, std::pair<std::vector<Interval>, std::set<int>>> roles;
                std::vector<std::string> order;
                std::map<std::string, std::vector<std::string>> names;
                for (const auto& k : t.sequence) {
                    if (!roles.count(k.role)) order.push_back(k.role);
                    roles[k.role].first.push_back({k.start, k.start + k.dur});
                    roles[k.role].second.insert(k.stream);
                    auto& nm = names[k.role];
                    if (std::find(nm.begin(), nm.end(), k.name) == nm.end()) nm.push_back(k.name);
                }
                for (const auto& role : order) {
                    RoleTiming rt;
                    rt.role = role;
                    rt.wall = totalLength(mergeIntervals(roles[role].first));
                    rt.share =
                        l.clocks.wall ? static_cast<double>(rt.wall) / static_cast<double>(l.clocks.wall) : 0;
                    for (int s : roles[role].second)
                        rt.streams +=
                            (rt.streams.empty() ? "" : ",") + (s >= 0 ? std::to_string(s) : std::string("?"));
                    rt.kernels = names[role];
                    t.roles.push_back(rt);
                }
                a.types.push_back(std::move(t));
                it = std::prev(a.types.end());
            }
            if (it->ranges.empty() || it->ranges.back().second != l.index - 1)
                it->ranges.emplace_back(l.index, l.index);
            else
                it->ranges.back().second = l.index;
            ++it->count;
        }
    }
    for (auto& t : a.types) {
        std::vector<double> walls;
        for (const auto& l : a.layers)
            if (l.type == t.type) walls.push_back(nsToMs(l.clocks.wall));
        t.occurrences = walls.size();
        if (!walls.empty()) {
            t.wallMinMs = *std::min_element(walls.begin(), walls.end());
            t.wallMaxMs = *std::max_element(walls.begin(), walls.end());
            double s = 0, s2 = 0;
            for (double w : walls)
                s += w, s2 += w * w;
            t.wallAvgMs = s / static_cast<double>(walls.size());
            t.wallStdMs =
                std::sqrt(std::max(0.0, s2 / static_cast<double>(walls.size()) - t.wallAvgMs * t.wallAvgMs));
        }
        std::vector<std::string> ch;
        if (has(t.type, "MoE+DFC"))
            ch.emplace_back(
                "MoeGatingTopK → DispatchFFNCombine (dispatch, expert FFN and combine in one kernel)");
        if (has(t.type, "MoE+GMM"))
            ch.emplace_back("MoeGatingTopK → alltoallv → GroupedMatmul ×2 → alltoallv → MoeFinalizeRouting");
        if (t.type.rfind("Dense", 0) == 0)
            ch.emplace_back("dense FFN (MatMul → SwiGlu → MatMul), no MoE kernels");
        if (has(t.type, "sampling")) ch.emplace_back("ends the pass with ArgMax / rejection sampling");
        for (std::size_t i = 0; i < ch.size(); ++i)
            t.characteristics += (i ? "; " : "") + ch[i];
    }
    // A8: communication pipeline.
    std::vector<Interval> comm, compute;
    std::map<int, std::vector<Interval>> byStream;
    std::map<int, std::map<std::string, TimeNs>> kindByStream;
    std::map<int, std::size_t> countByStream;
    for (const auto& k : p.kernels) {
        (k.cls == TaskClass::Comm ? comm : compute).push_back({k.start, k.end()});
        byStream[k.stream].push_back({k.start, k.end()});
        ++countByStream[k.stream];
        std::string kind =
            k.cls == TaskClass::Comm ? (isAllToAll(p.str(k.name)) ? "ep" : "tp") : taskClassName(k.cls);
        TimeNs& byKind = kindByStream[k.stream][kind];
        byKind = addSaturating(byKind, k.dur); // durations are bounded, their number is not (time.h)
        a.kernelSumAll = addSaturating(a.kernelSumAll, k.dur);
    }
    const auto mc = mergeIntervals(comm), mk = mergeIntervals(compute);
    a.commTotal = totalLength(mc);
    for (const auto& iv : mc)
        a.commHidden += intersectLength(mk, iv);
    a.commOverlapShare =
        a.commTotal ? static_cast<double>(a.commHidden) / static_cast<double>(a.commTotal) : 0;
    if (!p.kernels.empty()) {
        TimeNs end = 0;
        for (const auto& k : p.kernels)
            end = std::max(end, k.end());
        a.wallAll = end - p.kernels.front().start;
    }
    int mainStream = -1;
    TimeNs mainBusy = -1;
    for (const auto& [s, kinds] : kindByStream) {
        auto it = kinds.find("compute_core");
        if (it != kinds.end() && it->second > mainBusy) mainBusy = it->second, mainStream = s;
    }
    std::map<int, std::vector<Interval>> merged;
    for (auto& [s, v] : byStream)
        merged[s] = mergeIntervals(v);
    const auto overlaps = overlappingStreams(merged);
    for (const auto& [s, kinds] : kindByStream) {
        StreamRole sr;
        sr.stream = s;
        sr.kernels = countByStream[s];
        sr.busy = totalLength(merged[s]);
        std::string top;
        TimeNs topT = -1;
        for (const auto& [k, t] : kinds)
            if (t > topT) topT = t, top = k;
        if (s == mainStream)
            sr.purpose = "main compute";
        else if (top == "tp")
            sr.purpose = "TP communication (all-reduce)";
        else if (top == "ep")
            sr.purpose = "EP communication (all-to-all)";
        else if (top == "aicpu")
            sr.purpose = "AICPU side stream";
        else if (top == "compute_core")
            sr.purpose = "secondary compute";
        else
            sr.purpose = "runtime / other tasks";
        if (auto it = overlaps.find(s); it != overlaps.end()) sr.overlapsWith = it->second;
        a.streams.push_back(sr);
    }
    buildStructures(p, steps, windows, rules.block_min_us, a);
    return a;
}

} // namespace bs
