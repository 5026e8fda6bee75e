#include "architecture/structures.h"

#include "architecture/kernel_roles.h"

#include <algorithm>
#include <cstdint>
#include <fmt/format.h>
#include <map>
#include <unordered_map>

namespace bs {

namespace {

std::vector<Interval> busyOf(const Profile& p, std::size_t first, std::size_t last, Interval span) {
    std::vector<Interval> v;
    for (std::size_t i = first; i < last; ++i)
        v.push_back({std::max(p.kernels[i].start, span.a), std::min(p.kernels[i].end(), span.b)});
    return mergeIntervals(std::move(v));
}

void finishStructure(const Profile& p, Structure& s, double blockMinUs,
                     const std::vector<Interval>& deviceBusy) {
    s.all = clocksOf(p, s.firstKernel, s.lastKernel, s.span);
    // Main stream: the one with most compute-core time in the structure.
    std::map<int, TimeNs> computeByStream;
    std::map<std::string, TimeNs> byClass;
    for (std::size_t i = s.firstKernel; i < s.lastKernel; ++i) {
        const Kernel& k = p.kernels[i];
        // Totals saturate (time.h): durations are bounded, their number is not.
        if (k.cls == TaskClass::ComputeCore) {
            TimeNs& t = computeByStream[k.stream];
            t = addSaturating(t, k.dur);
        }
        TimeNs& c = byClass[taskClassName(k.cls)];
        c = addSaturating(c, k.dur);
    }
    TimeNs best = -1;
    for (const auto& [st, t] : computeByStream)
        if (t > best) best = t, s.mainStream = st;
    for (const auto& [c, t] : byClass)
        s.taskShares[c] = s.all.kernelSum ? static_cast<double>(t) / static_cast<double>(s.all.kernelSum) : 0;
    const TimeNs blockMin = static_cast<TimeNs>(blockMinUs * 1000);
    std::vector<Interval> blockIv, sideIv;
    for (std::size_t i = s.firstKernel; i < s.lastKernel; ++i) {
        const Kernel& k = p.kernels[i];
        const bool block = k.cls == TaskClass::ComputeCore && k.dur >= blockMin && k.stream == s.mainStream;
        Clocks& c = block ? s.block : s.side;
        ++c.kernels;
        c.kernelSum = addSaturating(c.kernelSum, k.dur);
        c.totalCost = addSaturating(c.totalCost, k.dur + k.wait); // each <= 1000 s: the pair fits
        (block ? blockIv : sideIv).push_back({std::max(k.start, s.span.a), std::min(k.end(), s.span.b)});
    }
    for (auto* pr : {&blockIv, &sideIv}) {
        auto m = mergeIntervals(*pr);
        Clocks& c = pr == &blockIv ? s.block : s.side;
        c.busyUnion = totalLength(m);
        c.wall = m.empty() ? 0 : m.back().b - m.front().a;
    }
    // Internal bubbles: device idle inside the span — no kernel of any structure or stream runs (a collective
    // started earlier may still be running). For a layer the span runs to the next layer's marker, so the
    // idle before that marker counts too.
    auto it = std::lower_bound(deviceBusy.begin(), deviceBusy.end(), s.span.a,
                               [](const Interval& i, TimeNs t) { return i.b <= t; });
    TimeNs prev = s.span.a;
    for (; it != deviceBusy.end() && it->a < s.span.b; ++it) {
        if (it->a > prev) ++s.internalBubbleCount, s.internalBubbles += it->a - prev;
        prev = std::max(prev, it->b);
    }
    if (s.span.b > prev) ++s.internalBubbleCount, s.internalBubbles += s.span.b - prev;
}

// Layer-like structures: attention-anchored layers, pattern blocks and gap segments — not the kernels
// before, between or after them.
bool isLayerLike(const Structure& s) {
    return s.type != "prologue" && s.type != "epilogue" && s.type != "between layers";
}

std::uint32_t symbolOf(const Profile& p, const Kernel& k,
                       std::unordered_map<std::string, std::uint32_t>& ids) {
    // Op type when present (real kernel names are numbered: Conv2D1, Conv2D3…), else the name with digits
    // masked.
    std::string key;
    if (k.opType)
        key = std::string(p.str(k.opType));
    else
        for (char c : p.str(k.name)) {
            if (c >= '0' && c <= '9') {
                if (key.empty() || key.back() != '#') key.push_back('#');
            } else {
                key.push_back(c);
            }
        }
    auto [it, ins] = ids.emplace(key, static_cast<std::uint32_t>(ids.size()));
    return it->second;
}

} // namespace

Clocks clocksOf(const Profile& p, std::size_t first, std::size_t last, Interval span) {
    Clocks c;
    c.wall = span.length();
    for (std::size_t i = first; i < last; ++i) {
        c.kernelSum = addSaturating(c.kernelSum, p.kernels[i].dur);
        c.totalCost = addSaturating(c.totalCost, p.kernels[i].dur + p.kernels[i].wait);
    }
    c.kernels = last - first;
    c.busyUnion = totalLength(busyOf(p, first, last, span));
    return c;
}

std::size_t shortestRepeatingPeriod(const std::vector<std::uint32_t>& seq, std::size_t& offset) {
    // Among periods P >= 2 whose block repeats >= 3 times back to back, take the one whose repeats
    // cover the most kernels (ties: the shortest). A literal "shortest" would pick tiny tails such as
    // (TensorMove, allReduce) x3 over the model's real blocks (core/README.md).
    const std::size_t n = seq.size();
    if (n < 6) return 0;
    // sameFrom[k]: how many symbols from k on equal seq[k]. A block is "uniform" (one symbol repeated,
    // not a pattern) when sameFrom[start] >= P: an O(1) test. Scanning the block instead cost O(P) at
    // every position of a long one-symbol run, ~P^2 n / 2 in all (500 k kernels of one op type: 65 s).
    std::vector<std::size_t> sameFrom(n);
    for (std::size_t k = n; k-- > 0;)
        sameFrom[k] = k + 1 < n && seq[k + 1] == seq[k] ? sameFrom[k + 1] + 1 : 1;
    const std::size_t maxP = std::min<std::size_t>(n / 3, n > 20000 ? 512 : 4096);
    // The block at i repeats the one before it when seq[j] == seq[j + P] for the P positions j in
    // [i - P, i): `equalRun` counts those matches back to back, so each period is one pass over seq.
    // The blocks of one residue class r = i mod P form runs; per class we keep the best cover (first
    // position reaching it), then the best class (first class reaching it) — the order of a walk over
    // one class at a time, which is how the answer is defined.
    // A full pass per period streamed seq from memory maxP times and grew faster than n once seq left
    // the cache: periods now share each chunk of seq while it is in cache.
    struct Period {
        std::size_t equalRun = 0, r = 0, base = 0; // base: this period's slice of the class arrays
    };
    // Periods go in batches whose class state stays small (~2 MB); within a batch all periods advance
    // together, one cache-sized chunk of seq at a time.
    constexpr std::size_t kMaxClasses = 1 << 16, kChunk = 1 << 15;
    std::vector<Period> per(maxP + 1);
    std::vector<std::size_t> runStart, run, coverOf, offsetOf;
    std::size_t bestP = 0, bestCover = 0;
    for (std::size_t P0 = 2, P1 = 2; P0 <= maxP; P0 = P1) {
        std::size_t classes = 0;
        for (; P1 <= maxP && (P1 == P0 || classes + P1 <= kMaxClasses); ++P1) {
            per[P1] = {0, 0, classes};
            classes += P1;
        }
        runStart.assign(classes, 0);
        run.assign(classes, 1);
        coverOf.assign(classes, 0);
        offsetOf.assign(classes, 0);
        for (std::size_t P = P0; P < P1; ++P)
            for (std::size_t r = 0; r < P; ++r)
                runStart[per[P].base + r] = r;
        for (std::size_t j0 = 0; j0 < n; j0 += kChunk) {
            const std::size_t j1 = std::min(n, j0 + kChunk);
            for (std::size_t P = P0; P < P1; ++P) {
                Period& st = per[P];
                const std::size_t end = std::min(j1, n - P); // seq[j + P] exists
                for (std::size_t j = j0; j < end; ++j) {
                    st.equalRun = seq[j] == seq[j + P] ? st.equalRun + 1 : 0;
                    if (j + 1 < P) continue; // block i = j + 1 has no block before it yet
                    const std::size_t i = j + 1, c = st.base + st.r;
                    if (st.equalRun >= P) {
                        ++run[c];
                    } else {
                        runStart[c] = i;
                        run[c] = 1;
                    }
                    if (run[c] >= 3 && run[c] * P > coverOf[c] && sameFrom[runStart[c]] < P) {
                        coverOf[c] = run[c] * P;
                        offsetOf[c] = runStart[c];
                    }
                    st.r = st.r + 1 == P ? 0 : st.r + 1;
                }
            }
        }
        for (std::size_t P = P0; P < P1; ++P)
            for (std::size_t r = 0; r < P; ++r)
                if (coverOf[per[P].base + r] > bestCover) {
                    bestCover = coverOf[per[P].base + r];
                    bestP = P;
                    offset = offsetOf[per[P].base + r];
                }
    }
    return bestP;
}

void buildStructures(const Profile& p, const StepSet& steps, double blockMinUs, ArchitectureResult& arch) {
    arch.structures.clear();
    std::unordered_map<std::string, std::uint32_t> ids;
    std::vector<Interval> all;
    all.reserve(p.kernels.size());
    for (const auto& k : p.kernels)
        all.push_back({k.start, k.end()});
    const auto deviceBusy = mergeIntervals(std::move(all));
    // Layers by start, so each step finds its own with a binary search instead of scanning all of them
    // (steps x layers was quadratic). Within a step they are taken back in arch.layers order.
    std::vector<std::size_t> layerByStart(arch.layers.size());
    for (std::size_t i = 0; i < layerByStart.size(); ++i)
        layerByStart[i] = i;
    std::stable_sort(layerByStart.begin(), layerByStart.end(), [&](std::size_t x, std::size_t y) {
        return arch.layers[x].span.a < arch.layers[y].span.a;
    });
    for (std::size_t si = 0; si < steps.steps.size(); ++si) {
        const auto& st = steps.steps[si];
        const std::string stepId = st.number >= 0 ? std::to_string(st.number) : std::string("pseudo");
        const std::size_t k0 = kernelIndexAt(p, st.start), k1 = kernelIndexAt(p, st.end);
        if (k0 >= k1) continue;
        std::vector<Structure> local;
        std::vector<int> localLayer; // index into arch.layers per local structure, -1 for none
        // A layer's span is its §11 span (marker to next marker, clipped to the step): one wall definition
        // for the layer everywhere. Other structures follow the same rule: from their first kernel's start
        // to the next structure's first kernel (the last one: to the latest end, within the step). So the
        // structures of a step never overlap — a collective still running past the next structure's start
        // does not stretch its own — and idle before a structure's first kernel is in the previous wall.
        auto push = [&](std::string type, std::size_t a, std::size_t b, int pass, int layer,
                        const Interval* layerSpan = nullptr, int archLayer = -1) {
            if (a >= b) return;
            Structure s;
            s.type = std::move(type);
            s.stepId = stepId;
            s.stepIndex = static_cast<int>(si);
            s.passIndex = pass;
            s.layerInPass = layer;
            s.firstKernel = a;
            s.lastKernel = b;
            if (layerSpan) {
                s.span = {std::max(layerSpan->a, st.start), std::min(layerSpan->b, st.end)};
            } else {
                TimeNs end = p.kernels[a].start;
                if (b < k1) {
                    end = std::max(end, p.kernels[b].start);
                } else {
                    for (std::size_t i = a; i < b; ++i)
                        end = std::max(end, p.kernels[i].end());
                    end = std::min(end, std::max(st.end, p.kernels[a].start));
                }
                s.span = {p.kernels[a].start, end};
            }
            local.push_back(std::move(s));
            localLayer.push_back(archLayer);
        };
        // 1. Attention-anchored layers of the architecture analysis.
        std::vector<std::size_t> layers;
        {
            auto startOf = [&](std::size_t i) { return arch.layers[i].span.a; };
            auto lo = std::lower_bound(layerByStart.begin(), layerByStart.end(), st.start,
                                       [&](std::size_t i, TimeNs t) { return startOf(i) < t; });
            auto hi = std::lower_bound(lo, layerByStart.end(), st.end,
                                       [&](std::size_t i, TimeNs t) { return startOf(i) < t; });
            layers.assign(lo, hi);
            std::sort(layers.begin(), layers.end());
        }
        if (!layers.empty()) {
            std::size_t cursor = k0;
            for (std::size_t li : layers) {
                const ArchLayer* l = &arch.layers[li];
                const std::size_t a = kernelIndexAt(p, l->span.a),
                                  b = std::min(kernelIndexAt(p, l->span.b), k1);
                if (a > cursor) push(cursor == k0 ? "prologue" : "between layers", cursor, a, l->pass, -1);
                push(l->type, a, b, l->pass, l->index, &l->span, static_cast<int>(li));
                cursor = std::max(cursor, b);
            }
            if (cursor < k1) push("epilogue", cursor, k1, -1, -1);
        } else {
            // 2. Shortest repeating pattern.
            std::vector<std::uint32_t> seq;
            for (std::size_t i = k0; i < k1; ++i)
                seq.push_back(symbolOf(p, p.kernels[i], ids));
            std::size_t off = 0;
            const std::size_t P = shortestRepeatingPeriod(seq, off);
            if (P) {
                if (off > 0) push("prologue", k0, k0 + off, -1, -1);
                // Blocks while they repeat the first period; what follows is the epilogue.
                std::size_t i = k0 + off;
                int n = 0;
                auto same = [&](std::size_t x) {
                    for (std::size_t j = 0; j < P; ++j)
                        if (seq[x - k0 + j] != seq[off + j]) return false;
                    return true;
                };
                for (; i + P <= k1 && same(i); i += P)
                    push("pattern block", i, i + P, -1, n++);
                if (i < k1) push("epilogue", i, k1, -1, -1);
            } else {
                // 3. Large device gaps: split where the device idles >= 5x the median gap (and >= 50 µs).
                std::vector<TimeNs> gaps;
                TimeNs end = p.kernels[k0].end();
                for (std::size_t i = k0 + 1; i < k1; ++i) {
                    gaps.push_back(std::max<TimeNs>(0, p.kernels[i].start - end));
                    end = std::max(end, p.kernels[i].end());
                }
                std::vector<TimeNs> sorted = gaps;
                std::sort(sorted.begin(), sorted.end());
                const TimeNs med = sorted.empty() ? 0 : sorted[sorted.size() / 2];
                const TimeNs cut = med > INT64_MAX / 5
                                       ? INT64_MAX
                                       : std::max<TimeNs>(50000, 5 * med); // no overflow on hostile input
                std::size_t a = k0;
                int n = 0;
                for (std::size_t i = k0 + 1; i < k1; ++i)
                    if (gaps[i - k0 - 1] >= cut) {
                        push("gap segment", a, i, -1, n++);
                        a = i;
                    }
                push("gap segment", a, k1, -1, n++);
            }
        }
        TimeNs prevEnd = st.start;
        for (std::size_t i = 0; i < local.size(); ++i) {
            auto& s = local[i];
            s.id = fmt::format("s{}.{}", stepId, i);
            finishStructure(p, s, blockMinUs, deviceBusy);
            s.shareOfStep = st.end > st.start ? static_cast<double>(s.span.length()) /
                                                    static_cast<double>(st.end - st.start)
                                              : 0;
            s.gapBefore = std::max<TimeNs>(0, s.span.a - prevEnd);
            prevEnd = std::max(prevEnd, s.span.b);
        }
        for (std::size_t i = 0; i < local.size(); ++i) {
            if (localLayer[i] >= 0)
                arch.layers[static_cast<std::size_t>(localLayer[i])].structure =
                    static_cast<int>(arch.structures.size());
            arch.structures.push_back(std::move(local[i]));
        }
    }
}

void placeWindows(const std::vector<BubbleWindow>& windows, ArchitectureResult& arch) {
    auto& split = arch.boundaryBubbles;
    split = {};
    arch.windowPlaces.clear();
    // Layer-like structures by start, and each one's arch.layers index.
    std::vector<std::size_t> layerLike;
    for (std::size_t i = 0; i < arch.structures.size(); ++i)
        if (isLayerLike(arch.structures[i])) layerLike.push_back(i);
    std::stable_sort(layerLike.begin(), layerLike.end(), [&](std::size_t x, std::size_t y) {
        return arch.structures[x].span.a < arch.structures[y].span.a;
    });
    std::vector<int> layerOfStructure(arch.structures.size(), -1);
    for (std::size_t li = 0; li < arch.layers.size(); ++li)
        if (arch.layers[li].structure >= 0)
            layerOfStructure[static_cast<std::size_t>(arch.layers[li].structure)] = static_cast<int>(li);
    if (!layerLike.empty())
        split.layers = arch.marker.empty() ? "pattern structures" : "attention-anchored layers";
    const TimeNs tol = split.tolerance;
    // A window belongs to its own step's structures only: a step's tail touches the next step's first layer
    // start, but it is no idle of that step (issue 46). Windows outside every step (global) may meet any.
    const auto ownStep = [](const BubbleWindow& w, const Structure& s) {
        return w.stepIndex < 0 || s.stepIndex == w.stepIndex;
    };
    for (const auto& w : windows) {
        WindowPlace wp;
        wp.windowId = w.id;
        wp.span = w.span;
        wp.position = "outside_layers";
        // A layer start inside [w.a - tol, w.b + tol]: the window contains or touches it.
        auto it = std::lower_bound(layerLike.begin(), layerLike.end(), w.span.a - tol,
                                   [&](std::size_t i, TimeNs t) { return arch.structures[i].span.a < t; });
        if (it != layerLike.end() && arch.structures[*it].span.a <= w.span.b + tol &&
            ownStep(w, arch.structures[*it])) {
            wp.position = "layer_start";
            wp.structure = static_cast<int>(*it);
        } else if (it != layerLike.begin() && w.scope != WindowScope::Tail) {
            // (A step's tail follows its last kernel: the last layer's span reaches the step end, but the
            // tail is no idle inside the layer's work.)
            const std::size_t s = *std::prev(it); // the last layer starting before the window
            if (arch.structures[s].span.b >= w.span.b && ownStep(w, arch.structures[s])) {
                wp.position = "inside_layer";
                wp.structure = static_cast<int>(s);
            }
        }
        if (wp.structure >= 0) wp.layer = layerOfStructure[static_cast<std::size_t>(wp.structure)];
        const TimeNs d = w.span.length();
        ++split.windows;
        split.windowTime += d;
        if (wp.position == "layer_start")
            ++split.atLayerStart, split.atLayerStartTime += d;
        else if (wp.position == "inside_layer")
            ++split.insideLayers, split.insideLayersTime += d;
        else
            ++split.outsideLayers, split.outsideLayersTime += d;
        arch.windowPlaces.push_back(std::move(wp));
    }
    split.atLayerStartShare =
        split.windowTime ? static_cast<double>(split.atLayerStartTime) / static_cast<double>(split.windowTime)
                         : 0;

    // Drill-down of the 20 largest: the structure of its own step holding the window, or — at a layer start,
    // or outside every structure — the structure after it; a step's tail, after the step's last structure,
    // goes under that last structure.
    arch.drillDown.clear();
    for (std::size_t i = 0; i < windows.size() && i < 20; ++i) {
        const auto& w = windows[i];
        const auto& wp = arch.windowPlaces[i];
        DrillDownItem d;
        d.windowId = w.id;
        d.duration = w.span.length();
        d.kernelBefore = w.before.empty() ? "" : w.before.front().name;
        d.kernelAfter = w.after.empty() ? "" : w.after.front().name;
        if (wp.position == "layer_start") {
            d.structureId = arch.structures[static_cast<std::size_t>(wp.structure)].id;
            d.position = "layer_start";
        } else {
            const Structure* lastBefore = nullptr; // the own step's last structure starting before the window
            for (const auto& s : arch.structures) {
                if (!ownStep(w, s)) continue;
                if (s.span.a <= w.span.a && (!lastBefore || s.span.a >= lastBefore->span.a)) lastBefore = &s;
                const bool tailOfLayer = w.scope == WindowScope::Tail && isLayerLike(s); // as placed above
                if (w.span.a >= s.span.a && w.span.b <= s.span.b && !tailOfLayer) {
                    d.structureId = s.id;
                    d.insideStructure = true;
                    d.position = "inside";
                    break;
                }
                if (s.span.a >= w.span.b) { // first structure after the window: the gap is at its boundary
                    d.structureId = s.id;
                    break;
                }
            }
            if (w.scope == WindowScope::Tail && !d.insideStructure && d.structureId.empty() && lastBefore)
                d.structureId = lastBefore->id;
            if (!d.insideStructure)
                d.position = w.scope == WindowScope::Tail        ? "tail"
                             : w.scope == WindowScope::Prelaunch ? "prelaunch"
                                                                 : "before";
        }
        arch.drillDown.push_back(std::move(d));
    }
}

} // namespace bs
