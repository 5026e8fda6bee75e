#include "architecture/architecture_analysis.h"

#include "architecture/comm_pipeline.h"
#include "architecture/kernel_roles.h"
#include "architecture/layer_types.h"
#include "architecture/structures.h"
#include "i18n/message.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <set>

namespace bs {

namespace {

bool has(std::string_view s, std::string_view n) {
    return s.find(n) != std::string_view::npos;
}
bool isSampling(std::string_view n) {
    return isSamplingKernel(n);
}
bool isAllToAll(std::string_view n) {
    return isAllToAllKernel(n);
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

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

constexpr TimeNs kPrefillMin = 10'000'000, kDecodeMax = 1'000'000; // §11: > 10 ms prefill, < 1 ms decode

// A1: the attention timeline — the first candidate kernel family that exists marks the layers.
std::vector<std::size_t> findMarkers(const Profile& p, ArchitectureResult& a) {
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
            msg("No attention kernel (FusedInferAttentionScore, FlashAttentionScore, PromptFlashAttention, "
                "IncreFlashAttention, *FlashAttention*) was found: layers are the repeating kernel patterns "
                "of the capture, without prefill/decode or layer types."));
    } else {
        a.markerSource = "attention kernels";
        a.confidence = a.marker == "FusedInferAttentionScore" ? "high" : "medium";
        if (a.marker != "FusedInferAttentionScore")
            a.notes.push_back(
                msg("No FusedInferAttentionScore kernel: `{}` is used as the layer marker.", a.marker));
    }
    return markers;
}

// A2: phase of each marker. §11 read literally: > 10 ms is prefill and < 1 ms is decode. The jump rule
// only decides kernels of the 1–10 ms band when no kernel exceeds 10 ms (core/README.md).
std::vector<std::string> assignPhases(const Profile& p, const std::vector<std::size_t>& markers,
                                      ArchitectureResult& a) {
    std::vector<std::string> phase(markers.size(), "single");
    if (markers.empty()) return phase;
    std::vector<TimeNs> d;
    for (std::size_t m : markers)
        d.push_back(p.kernels[m].dur);
    const auto [mn, mx] = std::minmax_element(d.begin(), d.end());
    const std::string range = fmt::format("{:.3f}–{:.3f} ms", nsToMs(*mn), nsToMs(*mx));
    const bool anyLong = *mx > kPrefillMin;
    const bool band =
        std::any_of(d.begin(), d.end(), [](TimeNs x) { return x >= kDecodeMax && x <= kPrefillMin; });
    if (anyLong) {
        a.phaseRule = msg("prefill: attention kernel > 10 ms; decode: < 1 ms");
        for (std::size_t i = 0; i < d.size(); ++i)
            phase[i] = d[i] >= kDecodeMax ? "prefill" : "decode";
        if (band)
            a.notes.push_back(
                msg("Some attention kernels last between 1 and 10 ms; they are counted as prefill."));
        return phase;
    }
    if (!band) {
        a.phaseRule = msg("decode: every attention kernel lasts under 1 ms ({})", range);
        std::fill(phase.begin(), phase.end(), "decode");
        return phase;
    }
    std::vector<TimeNs> s = d;
    std::sort(s.begin(), s.end());
    double bestRatio = 0;
    TimeNs cut = 0;
    for (std::size_t i = 1; i < s.size(); ++i) {
        const double r = s[i - 1] > 0 ? static_cast<double>(s[i]) / static_cast<double>(s[i - 1]) : 0;
        if (r > bestRatio) bestRatio = r, cut = s[i];
    }
    if (bestRatio >= 5.0) {
        a.phaseRule = msg("no attention kernel exceeds 10 ms: split at the largest jump between sorted "
                          "durations ({:.1f}x at {:.3f} ms)",
                          bestRatio, nsToMs(cut));
        for (std::size_t i = 0; i < d.size(); ++i)
            phase[i] = d[i] >= cut ? "prefill" : "decode";
    } else {
        a.phaseRule = msg("one phase: attention kernels last {}, none exceeds 10 ms, some last 1–10 ms, "
                          "and durations show no 5x jump",
                          range);
    }
    return phase;
}

std::string stepLabel(const StepSet& steps, int si) {
    if (si < 0) return "-";
    const auto& st = steps.steps[static_cast<std::size_t>(si)];
    return st.number >= 0 ? std::to_string(st.number) : "pseudo";
}

// A3: passes — split at step boundaries, phase changes, gaps > 5x the phase's median gap, and (where
// ANALYSIS is silent, core/README.md) a sampling tail between two markers.
void splitPasses(const Profile& p, const StepSet& steps, const StepLocator& stepOf,
                 const std::vector<std::size_t>& markers, const std::vector<std::string>& phase,
                 ArchitectureResult& a) {
    std::map<std::string, std::vector<double>> gapsByPhase;
    for (std::size_t i = 1; i < markers.size(); ++i)
        if (phase[i] == phase[i - 1])
            gapsByPhase[phase[i]].push_back(
                static_cast<double>(p.kernels[markers[i]].start - p.kernels[markers[i - 1]].start));
    std::map<std::string, double> medGap;
    for (auto& [ph, g] : gapsByPhase)
        medGap[ph] = median(g);
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
            ps.stepId = stepLabel(steps, stepOf(p.kernels[markers[i]].start));
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
}

std::string layerType(const ArchLayer& l) {
    std::string t;
    if (l.dfc)
        t = "MoE+DFC";
    else if (l.gmm && l.allToAll)
        t = "MoE+GMM";
    else if (!l.gating && !l.gmm)
        t = "Dense";
    else
        t = "MoE (no expert kernel)";
    if (l.sampling) t += " with sampling";
    return t;
}

// A4: layers (marker i → marker i + 1, the last one to the pass end) and their types; each pass also
// gets its sub-step clocks (§8 macro steps).
void buildLayers(const Profile& p, const StepSet& steps, const StepLocator& stepOf,
                 const std::vector<std::size_t>& markers, ArchitectureResult& a) {
    for (auto& ps : a.passes) {
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
            l.type = layerType(l);
            l.clocks = clocksOf(p, ka, kb, l.span);
            ps.layers.push_back(static_cast<int>(a.layers.size()));
            a.layers.push_back(l);
        }
        ps.span = {p.kernels[markers[ps.firstMarker]].start, passEnd};
        const std::size_t ka = kernelIndexAt(p, ps.span.a), kb = kernelIndexAt(p, passEnd);
        ps.kernelCount = kb - ka;
        ps.meanMarkerMs = ps.markerCount ? markerSum / static_cast<double>(ps.markerCount) : 0;
        ps.clocks = clocksOf(p, ka, kb, ps.span);
        ps.idle = ps.clocks.wall - ps.clocks.busyUnion;
        std::vector<Interval> busy;
        for (std::size_t k = ka; k < kb; ++k)
            busy.push_back(
                {std::max(p.kernels[k].start, ps.span.a), std::min(p.kernels[k].end(), ps.span.b)});
        const auto merged = mergeIntervals(std::move(busy));
        TimeNs prev = ps.span.a;
        for (const auto& iv : merged)
            ps.largestIdle = std::max(ps.largestIdle, iv.a - prev), prev = iv.b;
        ps.largestIdle = std::max(ps.largestIdle, ps.span.b - prev);
        a.hasPrefill |= ps.phase == "prefill";
        a.hasDecode |= ps.phase == "decode";
    }
}

// A5: cross-verification, per pass against §11's counts and against the modal pass signature.
std::string crossVerify(ArchitectureResult& a) {
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
        if (r.markers != r.layers) why.push_back(msg("markers != layers"));
        if (r.dfc != r.dfcLayers)
            why.push_back(msg("DispatchFFNCombine count {} != MoE+DFC layers {}", r.dfc, r.dfcLayers));
        if (r.gating != r.moeLayers)
            why.push_back(msg("MoeGatingTopK count {} != MoE layers {}", r.gating, r.moeLayers));
        if (modalRow && r.signature != modal) {
            if (r.layers != modalRow->layers)
                why.push_back(msg("{} layers where most passes have {}", r.layers, modalRow->layers));
            if (r.dfc != modalRow->dfc)
                why.push_back(
                    msg("DispatchFFNCombine count {} where most passes have {}", r.dfc, modalRow->dfc));
            if (r.gmm != modalRow->gmm)
                why.push_back(msg("GroupedMatmul count {} where most passes have {}", r.gmm, modalRow->gmm));
            if (r.gating != modalRow->gating)
                why.push_back(
                    msg("MoeGatingTopK count {} where most passes have {}", r.gating, modalRow->gating));
            if (why.empty()) why.push_back(msg("layer types differ from most passes"));
        }
        r.mismatch = !why.empty();
        for (std::size_t i = 0; i < why.size(); ++i)
            r.why += (i ? "; " : "") + why[i];
        a.crossCheckMismatches += r.mismatch;
    }
    return modal;
}

// §8 macro steps: a marker step holding several forward passes (1 prefill + N decode, or N decode).
void findMacroSteps(const Profile& p, const StepLocator& stepOf, const std::vector<std::size_t>& markers,
                    ArchitectureResult& a) {
    std::map<int, MacroStep> bySi;
    for (const auto& ps : a.passes) {
        const int si = stepOf(p.kernels[markers[ps.firstMarker]].start);
        if (si < 0) continue;
        auto& m = bySi[si];
        m.stepIndex = si;
        m.stepId = ps.stepId;
        m.passes.push_back(ps.index);
        (ps.phase == "prefill" ? m.prefill : ps.phase == "decode" ? m.decode : m.single)++;
    }
    for (auto& [si, m] : bySi)
        if (m.passes.size() >= 2) a.macroSteps.push_back(std::move(m));
}

} // namespace

ArchitectureDraft analyzeArchitectureWithoutWindows(const Profile& p, const StepSet& steps, const Rulebook& rules) {
    ArchitectureDraft d;
    ArchitectureResult& a = d.result;
    const auto markers = findMarkers(p, a);
    const auto phase = assignPhases(p, markers, a);
    const StepLocator stepOf(steps);
    splitPasses(p, steps, stepOf, markers, phase, a);
    buildLayers(p, steps, stepOf, markers, a);
    d.modalSignature = crossVerify(a);
    findMacroSteps(p, stepOf, markers, a);
    describeStreams(p, a);
    buildStructures(p, steps, rules.block_min_us, a);
    summarizeLayerTypes(p, d.modalSignature, a);
    return d;
}

ArchitectureResult placeWindowsInArchitecture(ArchitectureDraft d, const Profile& /*profile*/,
                                              const std::vector<BubbleWindow>& windows) {
    placeWindows(windows, d.result);
    placeWindowsInLayerTypes(d.result);
    return std::move(d.result);
}

ArchitectureResult analyzeArchitecture(const Profile& p, const StepSet& steps,
                                       const std::vector<BubbleWindow>& windows, const Rulebook& rules) {
    return placeWindowsInArchitecture(analyzeArchitectureWithoutWindows(p, steps, rules), p, windows);
}

} // namespace bs
