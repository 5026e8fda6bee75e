#include "report/architecture_report.h"

#include "architecture/architecture_analysis.h"
#include "i18n/escape.h"

#include "i18n/message.h"
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace bs {

namespace {

// Every string that comes from the profiling folder goes through one of these (see i18n/escape.h):
// a name → code (cell in a table cell), other text → esc (escCell in a table cell), a name inside a fenced
// block → term (the block itself is built by mdFence).
std::string code(std::string_view s) {
    return mdCode(s);
}
std::string cell(std::string_view s) {
    return mdCode(s, MdPlace::TableCell);
}
std::string esc(std::string_view s) {
    return mdText(s);
}
std::string escCell(std::string_view s) {
    return mdText(s, MdPlace::TableCell);
}
std::string ms(TimeNs t) {
    return fmt::format("{:.3f} ms", nsToMs(t));
}
std::string usText(TimeNs t) {
    return fmt::format("{:.1f} us", nsToUs(t));
}
std::string rangesText(const std::vector<std::pair<int, int>>& r) {
    std::string o;
    for (const auto& [a, b] : r)
        o += (o.empty() ? "" : ", ") + (a == b ? fmt::format("L{}", a) : fmt::format("L{}–L{}", a, b));
    return o;
}
std::string streamName(int s) {
    return s >= 0 ? std::to_string(s) : msg("unknown");
}
std::string joined(const std::vector<std::string>& v, const char* sep = ", ") {
    std::string o;
    for (const auto& x : v)
        o += (o.empty() ? "" : sep) + x;
    return o;
}
std::string nKernels(std::size_t n) {
    return msg("{} kernel{}", n, n == 1 ? "" : "s");
}
std::string nGaps(std::size_t n) {
    return msg("{} gap{}", n, n == 1 ? "" : "s");
}
std::string nWindows(std::size_t n) {
    return msg("{} significant bubble window{}", n, n == 1 ? "" : "s");
}
std::string layerName(const ArchitectureResult& a, int li) {
    const auto& l = a.layers[static_cast<std::size_t>(li)];
    return msg("pass {} L{}", l.pass, l.index);
}
// Names with their counts, in code spans: "`A` ×2 → `B`".
std::string namesWithCounts(const std::vector<std::pair<std::string, std::size_t>>& v, const char* sep,
                            bool inCell) {
    std::vector<std::string> parts;
    for (const auto& [n, c] : v)
        parts.push_back((inCell ? cell(n) : code(n)) + (c > 1 ? fmt::format(" ×{}", c) : ""));
    return joined(parts, sep);
}

// Largest-remainder rounding: parts (summing to `total`) in units of `unit` that add up exactly to the
// rounded total, so a share table's printed rows sum to its printed total.
std::vector<long long> apportion(const std::vector<TimeNs>& parts, TimeNs total, long long scale,
                                 long long unit) {
    std::vector<long long> out(parts.size());
    std::vector<std::pair<double, std::size_t>> rest;
    long long sum = 0;
    const long double denom = static_cast<long double>(unit);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const long double exact = static_cast<long double>(parts[i]) * scale / denom;
        out[i] = static_cast<long long>(exact);
        sum += out[i];
        rest.emplace_back(static_cast<double>(exact - static_cast<long double>(out[i])), i);
    }
    const long long target = static_cast<long long>(static_cast<long double>(total) * scale / denom + 0.5L);
    std::stable_sort(rest.begin(), rest.end(),
                     [](const auto& x, const auto& y) { return x.first > y.first; });
    for (std::size_t i = 0; sum < target && i < rest.size(); ++i, ++sum)
        ++out[rest[i].second];
    return out;
}

// Kernel-sequence tree of one layer: consecutive kernels of the same role are grouped.
std::string tree(const std::vector<LayerKernel>& ks, TimeNs origin) {
    std::vector<std::pair<std::string, std::vector<const LayerKernel*>>> groups;
    for (const auto& k : ks) {
        if (groups.empty() || groups.back().first != k.role) groups.push_back({k.role, {}});
        groups.back().second.push_back(&k);
    }
    std::string o = "layer\n";
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const bool lastG = g + 1 == groups.size();
        TimeNs sum = 0;
        for (const auto* k : groups[g].second)
            sum += k->dur;
        o += fmt::format("{} {} ({}, {})\n", lastG ? "└─" : "├─", term(groups[g].first),
                         render(nKernels(groups[g].second.size())), usText(sum));
        const std::size_t n = groups[g].second.size();
        const std::size_t show = std::min<std::size_t>(n, 6);
        for (std::size_t i = 0; i < show; ++i) {
            const auto* k = groups[g].second[i];
            const bool lastK = i + 1 == show && show == n;
            o += msg("{}  {} {}  {}  stream {}  +{:.3f} ms\n", lastG ? "   " : "│ ",
                             lastK ? "└─" : "├─", term(k->name), usText(k->dur), streamName(k->stream),
                             nsToMs(k->start - origin));
        }
        if (show < n) o += msg("{}  └─ … {} more\n", lastG ? "   " : "│ ", n - show);
    }
    return mdFence(render(o));
}

// The printed walls of a layer's components and (last) its idle, in µs: rounded so that they sum to the
// layer wall exactly. Every sentence about these walls uses these values, as the table does.
std::vector<long long> printedWallsUs(const LayerTiming& t) {
    std::vector<TimeNs> parts;
    for (const auto& c : t.components)
        parts.push_back(c.wall);
    parts.push_back(t.idle);
    return apportion(parts, t.wall, 1, 1000);
}

// The component table of one layer: rows partition the layer wall (idle is a row), so Wall and Share sum
// to the total row exactly.
void componentTable(std::string& o, const LayerTiming& t) {
    std::vector<TimeNs> parts;
    for (const auto& c : t.components)
        parts.push_back(c.wall);
    parts.push_back(t.idle);
    const auto walls = printedWallsUs(t);                                    // µs
    const auto shares = apportion(parts, t.wall, 1000, t.wall ? t.wall : 1); // 0.1 %
    auto wallText = [](long long us) { return fmt::format("{}.{:03} ms", us / 1000, us % 1000); };
    auto shareText = [](long long permille) { return fmt::format("{}.{} %", permille / 10, permille % 10); };
    o += msg("| Component | Wall | Share | Busy (own) | Stream | Kernels |\n|---|---|---|---|---|---|\n");
    for (std::size_t i = 0; i < t.components.size(); ++i) {
        const auto& c = t.components[i];
        std::vector<std::string> names, streams;
        for (std::size_t k = 0; k < c.kernels.size() && k < 3; ++k)
            names.push_back(cell(c.kernels[k]));
        if (c.kernels.size() > 3) names.push_back("…");
        for (int s : c.streams)
            streams.push_back(streamName(s));
        // A component's own busy time is never below its wall: keep the printed values in that order too
        // (the wall column is rounded to sum exactly, which may lift a row by one unit).
        const long long busyUs = std::max(static_cast<long long>((c.busy + 500) / 1000), walls[i]);
        o += fmt::format("| {} | {} | {} | {} | {} | {} |\n", escCell(c.role), wallText(walls[i]),
                         shareText(shares[i]), wallText(busyUs), joined(streams), joined(names));
    }
    o += msg("| device idle | {} | {} | – | – | {} |\n", wallText(walls.back()),
                     shareText(shares.back()), nGaps(t.gaps.size()));
    o += msg("| **layer** (marker to next marker) | {} | 100.0 % | | | |\n\n",
                     wallText(static_cast<long long>((t.wall + 500) / 1000)));
    o += msg(
        "Wall counts each instant of the layer once: to the component whose kernel runs on the main "
        "stream ({}) at that instant, else to the earliest-started kernel running on another stream, "
        "else to device idle. Busy (own) is the component's own busy union, which may overlap other "
        "components.\n\n",
        streamName(t.mainStream));
}

const BubbleWindow* windowById(const AnalysisResult& r, const std::string& id) {
    for (const auto& w : r.anomaly.windows)
        if (w.id == id) return &w;
    return nullptr;
}

std::string windowText(const AnalysisResult& r, const std::string& id, const std::string& where) {
    const BubbleWindow* w = windowById(r, id);
    if (!w) return esc(id);
    std::string o = fmt::format("{} ({}, {}", esc(id), ms(w->span.length()), where);
    if (!w->labels.empty()) o += ", " + esc(joined(w->labels));
    return o + ")";
}

// Device idle inside the representative layer, and the gaps of at least bubble_min_us one by one.
void idleGaps(std::string& o, const AnalysisResult& r, const LayerTiming& t) {
    if (t.gaps.empty()) {
        o += msg("Device idle inside this layer: none — some kernel runs at every instant of its span.\n\n");
        return;
    }
    const auto largest =
        std::max_element(t.gaps.begin(), t.gaps.end(), [](const IdleGap& x, const IdleGap& y) {
            return x.span.length() < y.span.length();
        });
    o += msg("Device idle inside this layer: {} in {} (largest {}).\n", usText(t.idle),
                     nGaps(t.gaps.size()), usText(largest->span.length()));
    const TimeNs min = static_cast<TimeNs>(r.anomaly.rules.bubble_min_us * 1000);
    std::size_t shown = 0;
    for (const auto& g : t.gaps) {
        if (g.span.length() < min) continue;
        if (shown++ == 0)
            o += msg("Gaps of at least {:.0f} us (the significant-bubble threshold):\n\n",
                             r.anomaly.rules.bubble_min_us);
        o += msg("- {} at +{:.3f} ms, after {}, before {}{}\n", ms(g.span.length()),
                         nsToMs(g.span.a - r.architecture.layers[static_cast<std::size_t>(t.layer)].span.a),
                         g.before.empty() ? msg("the layer start") : code(g.before),
                         g.after.empty() ? msg("the layer end") : code(g.after),
                         g.windowId.empty() ? "" : " — " + windowText(r, g.windowId, msg("the same window")));
    }
    o += shown ? "\n" : msg("No gap reaches {:.0f} us.\n\n", r.anomaly.rules.bubble_min_us);
}

// What every layer of the type shows.
void anomalies(std::string& o, const AnalysisResult& r, const LayerTypeSummary& t) {
    const auto& a = r.architecture;
    const auto& an = t.anomalies;
    std::vector<std::string> items;
    for (const auto& u : an.aicpu) {
        std::vector<std::string> where;
        for (std::size_t i = 0; i < u.layers.size() && i < 6; ++i)
            where.push_back(layerName(a, u.layers[i]));
        if (u.layers.size() > 6) where.push_back(msg("{} more", u.layers.size() - 6));
        items.push_back(msg("AICPU kernel {} in {} of the {} layers ({}): {}, {} in all",
                                    code(u.name), u.layers.size(), t.occurrences, joined(where),
                                    nKernels(u.kernels), ms(u.total)));
    }
    if (!an.windows.empty()) {
        std::size_t atStart = 0;
        std::vector<std::string> list;
        for (int wi : an.windows) {
            const auto& wp = a.windowPlaces[static_cast<std::size_t>(wi)];
            const bool start = wp.position == "layer_start";
            atStart += start;
            if (list.size() < 5)
                list.push_back(windowText(r, wp.windowId,
                                          start ? msg("at the start of {}", layerName(a, wp.layer)) : msg("inside {}", layerName(a, wp.layer))));
        }
        if (an.windows.size() > list.size())
            list.push_back(msg("{} more", an.windows.size() - list.size()));
        items.push_back(
            msg("{} in these layers — {} at a layer start ({}), {} inside ({}): {}",
                        nWindows(an.windows.size()),
                        atStart, ms(an.windowTimeAtStart), an.windows.size() - atStart,
                        ms(an.windowTimeInside), joined(list, "; ")));
    }
    for (const auto& d : an.deviations) {
        std::vector<std::string> where, what;
        for (int li : d.layers)
            where.push_back(layerName(a, li));
        if (d.count > d.layers.size()) where.push_back(msg("{} more", d.count - d.layers.size()));
        std::vector<std::string> extra, missing;
        for (const auto& n : d.extra)
            extra.push_back(code(n));
        for (const auto& n : d.missing)
            missing.push_back(code(n));
        if (!extra.empty()) what.push_back(msg("extra {}", joined(extra)));
        if (!missing.empty()) what.push_back(msg("without {}", joined(missing)));
        if (what.empty()) what.emplace_back(msg("the same kernels in another order"));
        items.push_back(msg("{} of the {} layers differ from the modal kernel sequence ({}): {}",
                                    d.count, t.occurrences, joined(where), joined(what, ", ")));
    }
    if (an.warmupLayer >= 0)
        items.push_back(msg(
            "the first such layer ({}) takes {} vs {:.3f} ms on average in {} passes (warm-up)",
            layerName(a, an.warmupLayer), ms(a.layers[static_cast<std::size_t>(an.warmupLayer)].clocks.wall),
            an.phaseAvgMs, t.representativePhase));
    o += msg("Anomalies, over all {} layers of this type:", t.occurrences);
    if (items.empty()) {
        o += msg(
            " none seen (no AICPU kernel, no significant bubble window, every layer follows the modal kernel "
            "sequence, no warm-up).\n\n");
        return;
    }
    o += "\n\n";
    for (const auto& x : items)
        o += "- " + x + render(msg(".")) + "\n";
    o += "\n";
}

// Where the significant windows sit relative to the layers (§9 drill-down, §10 recommendation).
std::string boundarySentence(const AnalysisResult& r) {
    const auto& b = r.architecture.boundaryBubbles;
    if (b.windows == 0)
        return msg("No significant bubble window (>= {:.0f} us) in the capture.",
                           r.anomaly.rules.bubble_min_us);
    if (b.layers.empty())
        return msg("{} ({}) — none can be placed: the capture has no layer structure.",
                           nWindows(b.windows),
                           ms(b.windowTime));
    std::string o = msg(
        "Significant bubble windows (>= {:.0f} us) and the {}: {} in all ({}) — {} at a layer start ({}, "
        "{:.1f} % of the bubble time), {} inside layers ({}), {} outside every layer ({}). A window is at a "
        "layer start when it contains or touches the start of a layer (within 1 us).",
        r.anomaly.rules.bubble_min_us, b.layers, b.windows, ms(b.windowTime), b.atLayerStart,
        ms(b.atLayerStartTime), b.atLayerStartShare * 100, b.insideLayers, ms(b.insideLayersTime),
        b.outsideLayers, ms(b.outsideLayersTime));
    if (b.atLayerStart > 0)
        o += msg(" Idle at layer starts is time the device waited for the next layer's first kernel: possible "
             "host "
             "dispatch delay between layers — check the host side that launches each layer.");
    return o;
}

void section1(std::string& o, const Profile& p, const AnalysisResult& r) {
    const auto& a = r.architecture;
    o += msg("## 1. Configuration context\n\n| Item | Value |\n|---|---|\n");
    o += msg("| Profiling folder | {} |\n| Layout | {} |\n", cell(p.inventory.rankDir),
                     escCell(p.inventory.layout));
    o += msg("| Kernel source | {}{} |\n", kernelSourceName(p.inventory.kernelSource),
                     p.inventory.kernelDetailsLevel.empty()
                         ? ""
                         : msg(" ({} header)", escCell(p.inventory.kernelDetailsLevel)));
    o += msg("| Profiler level | {} |\n",
                     p.inventory.profilerLevel.empty() ? msg("unknown") : escCell(p.inventory.profilerLevel));
    o += msg("| Kernels | {} |\n| Steps | {} ({}) |\n", p.kernels.size(), r.steps.steps.size(),
                     stepSourceName(r.steps.source));
    o += msg("| Streams | {} |\n", a.streams.size());
    o += msg("| Device span | {} (busy union {}, kernel sum {}) |\n", ms(a.wallAll), ms(a.busyAll),
                     ms(a.kernelSumAll));
    o += msg("| communication.json | {} |\n",
                     p.hasCommunicationJson ? msg("present") : msg("absent (communication from HCCL kernels only)"));
    o += msg(
        "| Thresholds used | prefill attention > 10 ms, decode < 1 ms (the 1–10 ms band split at a >= "
        "5x jump); pass gap > 5x the phase median; block kernels >= {:.0f} us on the main stream; "
        "significant bubbles >= {:.0f} us |\n\n",
        r.anomaly.rules.block_min_us, r.anomaly.rules.bubble_min_us);
}

void section2(std::string& o, const AnalysisResult& r) {
    const auto& a = r.architecture;
    o += msg("## 2. Architecture determination\n\n| Evidence | Value | Interpretation |\n|---|---|---|\n");
    if (!a.marker.empty()) {
        o += msg("| Layer marker | {} × {} | one attention kernel per layer |\n", cell(a.marker),
                         a.markerCount);
        o += msg("| Phases | {} | {} |\n",
                         a.hasPrefill && a.hasDecode
                             ? msg("prefill + decode")
                             : (a.hasPrefill ? msg("prefill only") : (a.hasDecode ? msg("decode only") : msg("one phase"))),
                         escCell(a.phaseRule));
        o += msg(
            "| Forward passes | {} | split at steps, phase changes, large gaps and sampling tails |\n",
            a.passes.size());
        o += msg("| Layers per pass | {} | mode of pass lengths; {} |\n", a.layersPerPass,
                         a.passCountConsistent ? msg("{} markers / {} = {} passes, consistent",
                                                             a.markerCount, a.layersPerPass, a.passes.size())
                                               : msg("markers / layers per pass does not match the pass count"));
        std::size_t dfc = 0, gmm = 0, gating = 0, a2a = 0;
        for (const auto& l : a.layers)
            dfc += l.dfc, gmm += l.gmm, gating += l.gating, a2a += l.allToAll;
        o += msg("| DispatchFFNCombine kernels | {} | {} |\n", dfc,
                         dfc ? msg("fused MoE dispatch/FFN/combine layers") : msg("no fused MoE layers"));
        o += msg("| GroupedMatmul / all-to-all kernels | {} / {} | {} |\n", gmm, a2a,
                         gmm && a2a ? msg("MoE with explicit EP all-to-all") : msg("no grouped-matmul MoE"));
        o += msg("| MoeGatingTopK kernels | {} | {} |\n", gating,
                         gating ? msg("MoE routing present") : msg("dense model (no router)"));
    } else {
        o += msg("| Layer marker | none | no attention kernel in the capture |\n");
        o += msg("| Structures | {} | pattern-based fallback: repeating kernel pattern, else large gaps |\n",
                 a.structures.size());
    }
    for (const auto& n : a.notes)
        o += fmt::format("\n> {}\n", esc(n));
    o += "\n";
}

void macroSteps(std::string& o, const ArchitectureResult& a) {
    if (a.macroSteps.empty()) {
        o += msg("Macro steps: none — no step holds more than one forward pass.\n\n");
        return;
    }
    o += msg("Macro steps: these marker steps hold several forward passes; each pass is a "
         "sub-step "
         "with its own wall, busy union and device idle (the table above; the per-layer structures carry "
         "their "
         "pass).\n\n");
    o += msg("| Step | Passes (sub-steps) | Prefill | Decode | Sub-step wall min / avg / max | Idle inside "
         "sub-steps | "
         "Largest idle |\n|---|---|---|---|---|---|---|\n");
    for (const auto& m : a.macroSteps) {
        TimeNs mn = INT64_MAX, mx = 0, sum = 0, idle = 0, largest = 0;
        for (int pi : m.passes) {
            const auto& ps = a.passes[static_cast<std::size_t>(pi)];
            mn = std::min(mn, ps.span.length()), mx = std::max(mx, ps.span.length());
            sum += ps.span.length(), idle += ps.idle, largest = std::max(largest, ps.largestIdle);
        }
        o += msg("| {} | {} (pass {}–{}) | {} | {} | {} / {:.3f} ms / {} | {} | {} |\n",
                         escCell(m.stepId), m.passes.size(), m.passes.front(), m.passes.back(), m.prefill,
                         m.decode, ms(mn), nsToMs(sum) / static_cast<double>(m.passes.size()), ms(mx),
                         ms(idle), ms(largest));
    }
    o += "\n";
}

void section3(std::string& o, const AnalysisResult& r, TimeNs origin) {
    const auto& a = r.architecture;
    o += msg("## 3. Forward-pass boundaries\n\n");
    if (a.marker.empty()) {
        o += msg("Not available: without attention kernels no forward pass can be delimited. Steps are used "
             "instead:\n\n");
        o += msg("| Step | Service | Busy | Kernels |\n|---|---|---|---|\n");
        for (const auto& m : r.metrics)
            o += fmt::format("| {} | {} | {} | {} |\n", m.stepId >= 0 ? std::to_string(m.stepId) : msg("pseudo"),
                             ms(m.service), ms(m.busyUnion), m.kernelCount);
        o += "\n";
        return;
    }
    o += msg("| Pass | Step | Phase | Markers | Time span | Wall | Busy | Idle | Mean marker | Kernels "
         "|\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (const auto& ps : a.passes)
        o += fmt::format("| {} | {} | {} | {}–{} | +{:.3f} → +{:.3f} ms | {} | {} | {} | {:.3f} ms | {} |\n",
                         ps.index, escCell(ps.stepId), ps.phase, ps.firstMarker,
                         ps.firstMarker + ps.markerCount - 1, nsToMs(ps.span.a - origin),
                         nsToMs(ps.span.b - origin), ms(ps.span.length()), ms(ps.clocks.busyUnion),
                         ms(ps.idle), ps.meanMarkerMs, ps.kernelCount);
    std::map<std::string, std::vector<double>> wallByPhase;
    for (const auto& ps : a.passes)
        wallByPhase[ps.phase].push_back(nsToMs(ps.span.length()));
    std::vector<std::string> drift;
    for (const auto& [ph, w] : wallByPhase) {
        const auto [mn, mx] = std::minmax_element(w.begin(), w.end());
        drift.push_back(w.size() < 2 ? msg("{}: one pass ({:.3f} ms), nothing to compare", ph, *mn)
                                     : msg("{} passes {:.3f}–{:.3f} ms ({:+.1f} %)", ph, *mn, *mx,
                                                   *mn > 0 ? (*mx - *mn) / *mn * 100 : 0.0));
    }
    o += msg("\nCross-pass drift: ");
    o += a.passes.size() < 2 ? msg("one pass only — no cross-pass comparison.") : joined(drift, msg("; ").c_str()) + msg(".");
    o += "\n\n";
    macroSteps(o, a);
}

// Characteristics of a pattern-based structure type: its kernels, by op type (or name).
std::string patternCharacteristics(const Profile& p, const ArchitectureResult& a, const std::string& type) {
    const Structure* s0 = nullptr;
    std::size_t n = 0;
    for (const auto& s : a.structures)
        if (s.type == type) s0 = s0 ? s0 : &s, ++n;
    if (!s0) return "–";
    std::vector<std::pair<std::string, std::size_t>> seq;
    for (std::size_t i = s0->firstKernel; i < s0->lastKernel; ++i) {
        const std::string d = kernelDisplayName(p, p.kernels[i]);
        if (!seq.empty() && seq.back().first == d)
            ++seq.back().second;
        else
            seq.emplace_back(d, 1);
    }
    const bool more = seq.size() > 8;
    if (more) seq.resize(8);
    const std::string what = type == "pattern block" ? msg("one period of the repeating kernel sequence")
                             : type == "gap segment" ? msg("kernels between large device gaps")
                                                     : msg("kernels outside the repeating pattern");
    return msg("{}; the first has {}: {}{}", what,
                       nKernels(s0->lastKernel - s0->firstKernel),
                       namesWithCounts(seq, " → ", true), more ? " → …" : "");
}

void section4(std::string& o, const Profile& p, const ArchitectureResult& a) {
    o += msg("## 4. Layer classification\n\n");
    if (a.marker.empty()) {
        std::map<std::string, std::size_t> types;
        for (const auto& s : a.structures)
            ++types[s.type];
        o += msg("Pattern-based structures (no attention marker, so no layer types):\n\n| Type | Layers | Count "
             "| Characteristics |\n|---|---|---|---|\n");
        for (const auto& [t, n] : types)
            o += fmt::format("| {} | – | {} | {} |\n", escCell(t), n, patternCharacteristics(p, a, t));
        o += "\n";
        return;
    }
    o += msg("| Type | Layers | Count | Characteristics (from the modal kernel sequence of the type) "
         "|\n|---|---|---|---|\n");
    for (const auto& t : a.types) {
        std::vector<std::string> parts;
        parts.push_back(msg("FFN path: {}", t.ffnPath.empty() ? msg("none seen")
                                                               : namesWithCounts(t.ffnPath, " → ", true)));
        if (t.characteristics.find(msg("no MoE kernel")) != std::string::npos ||
            t.characteristics.find("; no MoE kernel") != std::string::npos)
            parts.emplace_back(msg("no MoE kernel"));
        parts.push_back(msg("collectives: {}", t.collectives.empty()
                                                   ? msg("none")
                                                   : namesWithCounts(t.collectives, ", ", true)));
        if (!t.sampling.empty()) parts.push_back(msg("sampling: {}", namesWithCounts(t.sampling, ", ", true)));
        parts.push_back(msg("modal sequence of {} kernels in {} of {} layers", t.modalKernels,
                                    t.modalLayers, t.occurrences));
        o += fmt::format("| {} | {} | {} | {} |\n", escCell(t.type), rangesText(t.ranges), t.count,
                         joined(parts, msg("; ").c_str()));
    }
    o += "\n";
}

void section5(std::string& o, const ArchitectureResult& a) {
    o += msg("## 5. Cross-verification\n\n");
    if (a.marker.empty()) {
        o += msg("Not available: there are no attention-anchored layers to verify.\n\n");
        return;
    }
    o += msg("| Pass | Markers | Layers | DFC kernels | MoE+DFC layers | GroupedMatmul | MoE+GMM layers | "
         "MoeGatingTopK | MoE layers | Result |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (const auto& c : a.crossCheck)
        o += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", c.pass, c.markers, c.layers,
                         c.dfc, c.dfcLayers, c.gmm, c.gmmLayers, c.gating, c.moeLayers,
                         c.mismatch ? "**MISMATCH**: " + escCell(c.why) : "ok");
    o += msg("\n{} mismatch(es) over {} passes.\n\n", a.crossCheckMismatches, a.crossCheck.size());
}

void section6Pattern(std::string& o, const Profile& p, const ArchitectureResult& a) {
    o += msg(
        "Degraded: without layer types, the first pattern structure of the dominant step stands for all.\n\n");
    const Structure* s0 = nullptr;
    for (const auto& s : a.structures)
        if (s.type == "pattern block" || s.type == "gap segment") {
            s0 = &s;
            break;
        }
    if (!s0) return;
    o += msg("Structure {} ({} kernels, wall {}, busy {}, kernel sum {}, device idle {}):\n\n",
                     esc(s0->id), s0->all.kernels, ms(s0->all.wall), ms(s0->all.busyUnion),
                     ms(s0->all.kernelSum), ms(s0->internalBubbles));
    std::string block = term(s0->type) + "\n";
    for (std::size_t i = s0->firstKernel; i < s0->lastKernel; ++i) {
        const auto& k = p.kernels[i];
        block += msg("{} {}  {}  stream {}\n", i + 1 == s0->lastKernel ? "└─" : "├─",
                             term(p.str(k.name)), usText(k.dur), streamName(k.stream));
    }
    o += mdFence(block) + "\n";
}

void section6(std::string& o, const Profile& p, const AnalysisResult& r) {
    const auto& a = r.architecture;
    o += msg("## 6. Per-layer sub-structure\n\n");
    o += boundarySentence(r) + "\n\n";
    if (a.marker.empty()) {
        section6Pattern(o, p, a);
        return;
    }
    for (const auto& t : a.types) {
        o +=
            msg("### {} ({}, {} pass)\n\n", esc(t.type), rangesText(t.ranges), t.representativePhase);
        if (t.representative < 0) continue;
        const ArchLayer& l = a.layers[static_cast<std::size_t>(t.representative)];
        o += msg(
            "Representative layer: {} — the median wall ({}) among the {} layers of this type that "
            "follow the modal kernel sequence.\n\n",
            layerName(a, t.representative), ms(l.clocks.wall), t.representativePhase);
        o += tree(t.sequence, l.span.a);
        componentTable(o, t.timing);
        // The four clocks of block (main-stream compute >= block_min_us) and side (everything else), §9, over
        // the same span as the table above.
        if (l.structure >= 0) {
            const auto& st = a.structures[static_cast<std::size_t>(l.structure)];
            o += msg("| Part | Wall | Busy union | Kernel sum | Total cost (incl. wait) | Kernels "
                 "|\n|---|---|---|---|---|---|\n");
            o += msg("| block (stream {}) | {} | {} | {} | {} | {} |\n", streamName(st.mainStream),
                             ms(st.block.wall), ms(st.block.busyUnion), ms(st.block.kernelSum),
                             ms(st.block.totalCost), st.block.kernels);
            o += msg("| side | {} | {} | {} | {} | {} |\n", ms(st.side.wall), ms(st.side.busyUnion),
                             ms(st.side.kernelSum), ms(st.side.totalCost), st.side.kernels);
            o += msg("| layer | {} | {} | {} | {} | {} |\n\n", ms(st.all.wall), ms(st.all.busyUnion),
                             ms(st.all.kernelSum), ms(st.all.totalCost), st.all.kernels);
        }
        idleGaps(o, r, t.timing);
        anomalies(o, r, t);
    }
}

std::string noDecodeReason(const ArchitectureResult& a) {
    std::size_t under = 0;
    for (const auto& l : a.layers)
        under += l.markerDur < 1'000'000;
    if (under == 0) return msg("no attention kernel lasts under 1 ms");
    return msg("{} attention kernels last under 1 ms, but they form one phase with the others ({})",
                       under, a.phaseRule);
}

void section7(std::string& o, const AnalysisResult& r) {
    const auto& a = r.architecture;
    o += msg("## 7. Decode analysis\n\n");
    if (a.marker.empty()) {
        o += msg("Not available: there is no attention kernel, so prefill and decode cannot be told apart; the "
             "decode "
             "analysis is omitted.\n\n");
        return;
    }
    if (!a.hasDecode) {
        o += msg("Not available: the capture has no decode pass ({}), so decode is omitted.\n\n",
                 esc(noDecodeReason(a)));
        return;
    }
    if (!a.hasPrefill)
        o += msg("Decode only: every pass is a decode pass, so the prefill columns are empty and there is no "
             "prefill-vs-decode comparison.\n\n");
    o += msg("| Layer type | Prefill layer wall (avg) | Decode layer wall (avg) | Prefill attention | Decode "
         "attention "
         "|\n|---|---|---|---|---|\n");
    for (const auto& t : a.types) {
        double pw = 0, dw = 0, pa = 0, da = 0;
        int pn = 0, dn = 0;
        for (const auto& l : a.layers) {
            if (l.type != t.type) continue;
            const auto& ph = a.passes[static_cast<std::size_t>(l.pass)].phase;
            if (ph == "decode")
                dw += nsToMs(l.clocks.wall), da += nsToMs(l.markerDur), ++dn;
            else if (ph == "prefill")
                pw += nsToMs(l.clocks.wall), pa += nsToMs(l.markerDur), ++pn;
        }
        auto avg = [](double s, int n) { return n ? fmt::format("{:.3f} ms", s / n) : std::string("–"); };
        o += fmt::format("| {} | {} | {} | {} | {} |\n", escCell(t.type), avg(pw, pn), avg(dw, dn),
                         avg(pa, pn), avg(da, dn));
    }
    for (const auto& t : a.types) {
        if (t.decodeRepresentative < 0) continue;
        const auto& l = a.layers[static_cast<std::size_t>(t.decodeRepresentative)];
        o += msg("\n### Decode {} layer ({})\n\n", esc(t.type), layerName(a, t.decodeRepresentative));
        o += msg("The median wall among the decode layers of this type that follow their modal kernel "
             "sequence.\n\n");
        o += tree(t.decodeSequence, l.span.a);
        componentTable(o, t.decodeTiming);
        const auto walls = printedWallsUs(t.decodeTiming);
        auto usMs = [](long long us) { return fmt::format("{}.{:03} ms", us / 1000, us % 1000); };
        std::vector<std::size_t> c;
        for (std::size_t i = 0; i < t.decodeTiming.components.size(); ++i)
            c.push_back(i);
        std::stable_sort(c.begin(), c.end(), [&](std::size_t x, std::size_t y) {
            return t.decodeTiming.components[x].wall > t.decodeTiming.components[y].wall;
        });
        std::vector<std::string> top;
        for (std::size_t i = 0; i < c.size() && i < 3; ++i)
            top.push_back(fmt::format("{} {}", esc(t.decodeTiming.components[c[i]].role), usMs(walls[c[i]])));
        o += msg("Dominant costs: {}; device idle {}.\n", joined(top), usMs(walls.back()));
    }
    o += "\n";
}

void overlapDiagram(std::string& o, const Profile& p, const ArchitectureResult& a) {
    if (a.types.empty() || a.types.front().representative < 0) return;
    const ArchLayer& rl = a.layers[static_cast<std::size_t>(a.types.front().representative)];
    const int W = 64;
    const auto seq = layerKernels(p, rl, a.marker);
    std::map<int, std::string> rows;
    const double span = static_cast<double>(std::max<TimeNs>(1, rl.span.length()));
    for (const auto& k : seq) {
        auto& row = rows[k.stream];
        if (row.empty()) row.assign(W, '.');
        int x0 = static_cast<int>(static_cast<double>(k.start - rl.span.a) / span * W);
        int x1 = static_cast<int>(static_cast<double>(k.start + k.dur - rl.span.a) / span * W);
        x0 = std::clamp(x0, 0, W - 1);
        x1 = std::clamp(std::max(x1, x0 + 1), 1, W);
        const char c = k.role == "attention" ? 'A'
                                             : (k.role.find("comm") != std::string::npos
                                                    ? 'C'
                                                    : (k.role.rfind("expert", 0) == 0 ? 'E' : '#'));
        for (int x = x0; x < x1; ++x)
            row[static_cast<std::size_t>(x)] = c;
    }
    o += msg(
        "Layer L{} of pass {} ({}, the representative {} layer), one row per stream (A attention, "
        "E experts, C communication, # other):\n\n",
        rl.index, rl.pass, ms(rl.span.length()), esc(rl.type));
    std::string diagram;
    for (const auto& [st, row] : rows)
        diagram += msg("stream {:>7} |{}|\n", streamName(st), row);
    o += mdFence(diagram) + "\n";
}

void section8(std::string& o, const Profile& p, const ArchitectureResult& a) {
    o += msg("## 8. Communication pipeline\n\n| Stream | Purpose (from the kernels seen on it) | Kernels | Busy "
         "| Overlaps "
         "with |\n|---|---|---|---|---|\n");
    bool unknown = false;
    std::vector<std::string> pairs;
    for (const auto& s : a.streams) {
        std::vector<std::string> ov, uses;
        for (int x : s.overlapsWith) {
            ov.push_back(streamName(x));
            if (s.stream < x) pairs.push_back(streamName(s.stream) + "↔" + streamName(x));
        }
        for (std::size_t i = 0; i < s.uses.size() && i < 3; ++i) {
            const auto& u = s.uses[i];
            uses.push_back(fmt::format("{} ×{}{}", cell(u.name), u.count,
                                       u.collective.empty() ? "" : " (" + escCell(u.collective) + ")"));
        }
        if (s.uses.size() > 3) uses.push_back(msg("and {} more", s.uses.size() - 3));
        unknown |= s.stream < 0;
        o += fmt::format("| {} | {}: {} | {} | {} | {} |\n", streamName(s.stream), escCell(s.role),
                         joined(uses), s.kernels, ms(s.busy), ov.empty() ? "–" : joined(ov));
    }
    if (unknown) o += msg("\nStream \"unknown\" holds the kernels whose stream id was not recorded.\n");
    o += msg("\nCommunication kernels are busy for {}; {} of it ({:.1f} %) is hidden under compute "
                     "(|comm ∩ compute| / |comm|), {} is exposed.\n\n",
                     ms(a.commTotal), ms(a.commHidden), a.commOverlapShare * 100,
                     ms(a.commTotal - a.commHidden));
    overlapDiagram(o, p, a);
    o += msg(
        "Kernel sum and wall: the kernel durations add up to {}; the device was busy (union of all "
        "kernels) for {} of a {} span, so {} of the span is device idle. ",
        ms(a.kernelSumAll), ms(a.busyAll), ms(a.wallAll), ms(a.wallAll - a.busyAll));
    if (a.kernelSumAll > a.busyAll)
        o += msg(
            "The kernel sum exceeds the busy union by {} because kernels on different streams ran at the "
            "same time (overlapping streams: {}).\n\n",
            ms(a.kernelSumAll - a.busyAll), pairs.empty() ? msg("none") : joined(pairs));
    else
        o += msg("No two kernels ran at the same time: the kernel sum equals the busy union.\n\n");
}

void section9(std::string& o, const Profile& p, const ArchitectureResult& a) {
    o += msg("## 9. Layer-to-layer variation\n\n");
    if (a.marker.empty()) {
        o += msg("| Structure type | Count | Wall min | Wall avg | Wall max |\n|---|---|---|---|---|\n");
        std::map<std::string, std::vector<double>> w;
        for (const auto& s : a.structures)
            w[s.type].push_back(nsToMs(s.all.wall));
        for (const auto& [t, v] : w) {
            double sum = 0;
            for (double x : v)
                sum += x;
            o += fmt::format("| {} | {} | {:.3f} ms | {:.3f} ms | {:.3f} ms |\n", escCell(t), v.size(),
                             *std::min_element(v.begin(), v.end()), sum / static_cast<double>(v.size()),
                             *std::max_element(v.begin(), v.end()));
        }
        o += "\n";
        return;
    }
    o += msg("| Type | Layers measured | Wall min | Wall avg | Wall max | Std dev |\n|---|---|---|---|---|---|\n");
    for (const auto& t : a.types)
        o += fmt::format("| {} | {} | {:.3f} ms | {:.3f} ms | {:.3f} ms | {:.3f} ms |\n", escCell(t.type),
                         t.occurrences, t.wallMinMs, t.wallAvgMs, t.wallMaxMs, t.wallStdMs);
    std::map<std::string, std::pair<TimeNs, TimeNs>> dfcRange;
    for (const auto& k : p.kernels) {
        if (p.str(k.name).find("DispatchFFNCombine") == std::string_view::npos) continue;
        const std::string ph = k.dur >= 1'000'000 ? "prefill" : "decode";
        auto& rg = dfcRange.try_emplace(ph, k.dur, k.dur).first->second;
        rg.first = std::min(rg.first, k.dur);
        rg.second = std::max(rg.second, k.dur);
    }
    for (const auto& [ph, rg] : dfcRange)
        o += msg("\nDispatchFFNCombine kernel cost range ({}): {} – {} ({:.1f} % spread).", ph,
                         usText(rg.first), usText(rg.second),
                         rg.first ? 100.0 * static_cast<double>(rg.second - rg.first) /
                                        static_cast<double>(rg.first)
                                  : 0.0);
    o += "\n\n";
}

// A line of the summary box, padded to `width` columns (code points, as the box characters are).
std::string boxLine(const std::string& text, std::size_t width) {
    std::size_t cols = 0;
    for (unsigned char c : text)
        cols += (c & 0xC0) != 0x80;
    std::string t = text;
    while (cols > width) { // cut whole code points
        std::size_t i = t.size();
        while (i > 0 && (static_cast<unsigned char>(t[i - 1]) & 0xC0) == 0x80)
            --i;
        t.resize(i > 0 ? i - 1 : 0);
        --cols;
    }
    return "│ " + t + std::string(width - cols, ' ') + " │\n";
}

void section10(std::string& o, const AnalysisResult& r) {
    const auto& a = r.architecture;
    o += msg("## 10. Summary\n\n");
    const std::size_t W = 46;
    std::string rule;
    for (std::size_t i = 0; i < W + 2; ++i)
        rule += "─";
    std::string box = "┌" + rule + "┐\n";
    if (!a.marker.empty()) {
        box += boxLine(render(msg("forward pass: {} layers", a.layersPerPass)), W);
        for (const auto& t : a.types)
            box += boxLine(fmt::format(" {:<10} {} ×{}", rangesText(t.ranges), term(t.type), t.count), W);
    } else {
        box += boxLine(render(msg("no attention marker: pattern-based structures")), W);
    }
    box += "└" + rule + "┘\n";
    o += mdFence(box) + "\n";
    if (!a.marker.empty() && !a.passes.empty()) {
        TimeNs longest = 0;
        for (const auto& ps : a.passes)
            longest = std::max(longest, ps.span.length());
        o += msg("Per-pass timeline (bar length ∝ wall time):\n\n");
        std::string bars;
        for (const auto& ps : a.passes) {
            const int n = longest
                              ? std::max(1, static_cast<int>(48.0 * static_cast<double>(ps.span.length()) /
                                                             static_cast<double>(longest)))
                              : 1;
            bars += msg("pass {:>3} {:<7} step {:<6} {:<48} {:.3f} ms\n", ps.index, ps.phase,
                                term(ps.stepId), std::string(static_cast<std::size_t>(n), '='),
                                nsToMs(ps.span.length()));
        }
        o += mdFence(bars) + "\n";
    }
    o += msg("Bubbles and layers: {}\n", boundarySentence(r));
}

} // namespace

std::string defaultArchitectureReportName(const Profile& p) {
    return "model_architecture_report_" + std::filesystem::path(p.inventory.rankDir).filename().string() +
           ".md";
}

std::string renderArchitectureReport(const Profile& p, const AnalysisResult& r) {
    const ArchitectureResult& a = r.architecture;
    const TimeNs origin = p.kernels.empty() ? 0 : p.kernels.front().start;
    std::string o;
    o += msg("# Model architecture report — {}\n\n", esc(p.inventory.rankLabel));
    o += msg("Reverse-engineered from the device kernels of {}. Confidence: **{}**.\n\n",
                     code(p.inventory.rankDir), a.confidence);
    section1(o, p, r);
    section2(o, r);
    section3(o, r, origin);
    section4(o, p, a);
    section5(o, a);
    section6(o, p, r);
    section7(o, r);
    section8(o, p, a);
    section9(o, p, a);
    section10(o, r);
    return render(o);
}

} // namespace bs
