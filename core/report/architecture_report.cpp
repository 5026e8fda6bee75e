#include "report/architecture_report.h"

#include "architecture/architecture_analysis.h"
#include "report/escape.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace bs {

namespace {

// Every string that comes from the profiling folder goes through one of these (see report/escape.h):
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
        o += fmt::format("{} {} ({} kernel{}, {})\n", lastG ? "└─" : "├─", term(groups[g].first),
                         groups[g].second.size(), groups[g].second.size() == 1 ? "" : "s", usText(sum));
        const std::size_t n = groups[g].second.size();
        const std::size_t show = std::min<std::size_t>(n, 6);
        for (std::size_t i = 0; i < show; ++i) {
            const auto* k = groups[g].second[i];
            const bool lastK = i + 1 == show && show == n;
            o += fmt::format("{}  {} {}  {}  stream {}  +{:.3f} ms\n", lastG ? "   " : "│ ",
                             lastK ? "└─" : "├─", term(k->name), usText(k->dur),
                             k->stream >= 0 ? std::to_string(k->stream) : std::string("?"),
                             nsToMs(k->start - origin));
        }
        if (show < n) o += fmt::format("{}  └─ … {} more\n", lastG ? "   " : "│ ", n - show);
    }
    return mdFence(o);
}

void timingTable(std::string& o, const LayerTypeSummary& t, TimeNs layerWall) {
    o += "| Component | Wall | Share | Stream | Kernels |\n|---|---|---|---|---|\n";
    for (const auto& r : t.roles) {
        std::string names;
        for (std::size_t i = 0; i < r.kernels.size() && i < 3; ++i)
            names += (i ? ", " : "") + cell(r.kernels[i]);
        if (r.kernels.size() > 3) names += ", …";
        o += fmt::format("| {} | {} | {:.1f} % | {} | {} |\n", escCell(r.role), ms(r.wall), r.share * 100,
                         escCell(r.streams), names);
    }
    o += fmt::format("| **layer** | {} | 100 % | | |\n\n", ms(layerWall));
}

const ArchLayer* representative(const ArchitectureResult& a, const std::string& type,
                                const std::string& phase) {
    for (const auto& l : a.layers)
        if (l.type == type && a.passes[static_cast<std::size_t>(l.pass)].phase == phase) return &l;
    return nullptr;
}

} // namespace

std::string defaultArchitectureReportName(const Profile& p) {
    return "model_architecture_report_" + std::filesystem::path(p.inventory.rankDir).filename().string() +
           ".md";
}

std::string renderArchitectureReport(const Profile& p, const AnalysisResult& r) {
    const ArchitectureResult& a = r.architecture;
    const bool anchored = !a.marker.empty();
    const TimeNs origin = p.kernels.empty() ? 0 : p.kernels.front().start;
    std::string o;
    o += fmt::format("# Model architecture report — {}\n\n", esc(p.inventory.rankLabel));
    o += fmt::format("Reverse-engineered from the device kernels of {}. Confidence: **{}**.\n\n",
                     code(p.inventory.rankDir), a.confidence);

    // 1
    o += "## 1. Configuration context\n\n| Item | Value |\n|---|---|\n";
    o += fmt::format("| Profiling folder | {} |\n| Layout | {} |\n", cell(p.inventory.rankDir),
                     escCell(p.inventory.layout));
    o += fmt::format("| Kernel source | {}{} |\n", kernelSourceName(p.inventory.kernelSource),
                     p.inventory.kernelDetailsLevel.empty()
                         ? ""
                         : " (" + escCell(p.inventory.kernelDetailsLevel) + " header)");
    o += fmt::format("| Profiler level | {} |\n",
                     p.inventory.profilerLevel.empty() ? "unknown" : escCell(p.inventory.profilerLevel));
    o += fmt::format("| Kernels | {} |\n| Steps | {} ({}) |\n", p.kernels.size(), r.steps.steps.size(),
                     stepSourceName(r.steps.source));
    std::set<int> streams;
    for (const auto& s : a.streams)
        streams.insert(s.stream);
    o += fmt::format("| Streams | {} |\n", streams.size());
    o += fmt::format("| Device span | {} (kernel sum {}) |\n", ms(a.wallAll), ms(a.kernelSumAll));
    o += fmt::format("| communication.json | {} |\n",
                     p.hasCommunicationJson ? "present" : "absent (communication from HCCL kernels only)");
    o += fmt::format("| Thresholds used | prefill attention > 10 ms, decode < 1 ms (else a >= 5x jump); pass "
                     "gap > 5x the phase median; "
                     "block kernels >= {:.0f} us on the main stream |\n\n",
                     r.anomaly.rules.block_min_us);

    // 2
    o += "## 2. Architecture determination\n\n| Evidence | Value | Interpretation |\n|---|---|---|\n";
    if (anchored) {
        o += fmt::format("| Layer marker | {} × {} | one attention kernel per layer |\n", cell(a.marker),
                         a.markerCount);
        o += fmt::format("| Phases | {} | {} |\n",
                         a.hasPrefill && a.hasDecode
                             ? "prefill + decode"
                             : (a.hasPrefill ? "prefill only" : (a.hasDecode ? "decode only" : "one phase")),
                         escCell(a.phaseRule));
        o += fmt::format(
            "| Forward passes | {} | split at steps, phase changes, large gaps and sampling tails |\n",
            a.passes.size());
        o += fmt::format("| Layers per pass | {} | mode of pass lengths; {} |\n", a.layersPerPass,
                         a.passCountConsistent ? fmt::format("{} markers / {} = {} passes, consistent",
                                                             a.markerCount, a.layersPerPass, a.passes.size())
                                               : "markers / layers per pass does not match the pass count");
        std::size_t dfc = 0, gmm = 0, gating = 0, a2a = 0;
        for (const auto& l : a.layers)
            dfc += l.dfc, gmm += l.gmm, gating += l.gating, a2a += l.allToAll;
        o += fmt::format("| `DispatchFFNCombine` | {} | {} |\n", dfc,
                         dfc ? "fused MoE dispatch/FFN/combine layers" : "no fused MoE layers");
        o += fmt::format("| `GroupedMatmul` / all-to-all | {} / {} | {} |\n", gmm, a2a,
                         gmm && a2a ? "MoE with explicit EP all-to-all" : "no grouped-matmul MoE");
        o += fmt::format("| `MoeGatingTopK` | {} | {} |\n", gating,
                         gating ? "MoE routing present" : "dense model (no router)");
    } else {
        o += "| Layer marker | none | no attention kernel in the capture |\n";
        o +=
            fmt::format("| Structures | {} | {} |\n", a.structures.size(),
                        "pattern-based fallback (ANALYSIS.md §9): repeating kernel pattern, else large gaps");
    }
    for (const auto& n : a.notes)
        o += fmt::format("\n> {}\n", esc(n));
    o += "\n";

    // 3
    o += "## 3. Forward-pass boundaries\n\n";
    if (!anchored) {
        o += "Not available: without attention kernels no forward pass can be delimited. Steps are used "
             "instead:\n\n";
        o += "| Step | Service | Busy | Kernels |\n|---|---|---|---|\n";
        for (const auto& m : r.metrics)
            o += fmt::format("| {} | {} | {} | {} |\n", m.stepId >= 0 ? std::to_string(m.stepId) : "pseudo",
                             ms(m.service), ms(m.busyUnion), m.kernelCount);
        o += "\n";
    } else {
        o += "| Pass | Step | Phase | Markers | Time span | Wall | Mean marker | Kernels "
             "|\n|---|---|---|---|---|---|---|---|\n";
        for (const auto& ps : a.passes)
            o += fmt::format("| {} | {} | {} | {}–{} | +{:.3f} → +{:.3f} ms | {} | {:.3f} ms | {} |\n",
                             ps.index, ps.stepId, ps.phase, ps.firstMarker,
                             ps.firstMarker + ps.markerCount - 1, nsToMs(ps.span.a - origin),
                             nsToMs(ps.span.b - origin), ms(ps.span.length()), ps.meanMarkerMs,
                             ps.kernelCount);
        std::map<std::string, std::vector<double>> wallByPhase;
        for (const auto& ps : a.passes)
            wallByPhase[ps.phase].push_back(nsToMs(ps.span.length()));
        o += "\nCross-pass drift: ";
        if (a.passes.size() < 2) o += "one pass only — no cross-pass comparison.";
        for (const auto& [ph, w] : wallByPhase) {
            const auto [mn, mx] = std::minmax_element(w.begin(), w.end());
            o += fmt::format("{} passes {:.3f}–{:.3f} ms ({:+.1f} %); ", ph, *mn, *mx,
                             *mn > 0 ? (*mx - *mn) / *mn * 100 : 0.0);
        }
        o += "\n\n";
    }

    // 4
    o += "## 4. Layer classification\n\n";
    if (!anchored) {
        std::map<std::string, std::size_t> types;
        for (const auto& s : a.structures)
            ++types[s.type];
        o += "Pattern-based structures (no attention marker, so no layer types):\n\n| Type | Layers | Count "
             "| Characteristics |\n|---|---|---|---|\n";
        for (const auto& [t, n] : types)
            o += fmt::format("| {} | – | {} | {} |\n", escCell(t), n,
                             t == "pattern block"
                                 ? "one period of the repeating kernel sequence that covers most kernels"
                                 : (t == "gap segment" ? "kernels between large device gaps"
                                                       : "kernels outside the repeating pattern"));
    } else {
        o += "| Type | Layers | Count | Characteristics |\n|---|---|---|---|\n";
        for (const auto& t : a.types)
            o += fmt::format("| {} | {} | {} | {} |\n", escCell(t.type), rangesText(t.ranges), t.count,
                             escCell(t.characteristics));
    }
    o += "\n";

    // 5
    o += "## 5. Cross-verification\n\n";
    if (!anchored)
        o += "Not available: there are no attention-anchored layers to verify.\n\n";
    else {
        o += "| Pass | Markers | Layers | DFC kernels | MoE+DFC layers | GroupedMatmul | MoE+GMM layers | "
             "MoeGatingTopK | MoE layers | Result |\n|---|---|---|---|---|---|---|---|---|---|\n";
        for (const auto& c : a.crossCheck)
            o += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", c.pass, c.markers,
                             c.layers, c.dfc, c.dfcLayers, c.gmm, c.gmmLayers, c.gating, c.moeLayers,
                             c.mismatch ? "**MISMATCH**: " + escCell(c.why) : "ok");
        o +=
            fmt::format("\n{} mismatch(es) over {} passes.\n\n", a.crossCheckMismatches, a.crossCheck.size());
    }

    // 6
    o += "## 6. Per-layer sub-structure\n\n";
    if (!anchored) {
        o += "Degraded: without layer types, the first pattern structure of the dominant step stands for "
             "all.\n\n";
        const Structure* s0 = nullptr;
        for (const auto& s : a.structures)
            if (s.type == "pattern block" || s.type == "gap segment") {
                s0 = &s;
                break;
            }
        if (s0) {
            o += fmt::format("Structure {} ({} kernels, wall {}, busy {}, kernel sum {}):\n\n", esc(s0->id),
                             s0->all.kernels, ms(s0->all.wall), ms(s0->all.busyUnion), ms(s0->all.kernelSum));
            std::string block = term(s0->type) + "\n";
            for (std::size_t i = s0->firstKernel; i < s0->lastKernel; ++i) {
                const auto& k = p.kernels[i];
                block += fmt::format("{} {}  {}  stream {}\n", i + 1 == s0->lastKernel ? "└─" : "├─",
                                     term(p.str(k.name)), usText(k.dur), k.stream);
            }
            o += mdFence(block) + "\n";
        }
    }
    for (const auto& t : a.types) {
        const ArchLayer* l = representative(a, t.type, t.representativePhase);
        o +=
            fmt::format("### {} ({}, {} pass)\n\n", esc(t.type), rangesText(t.ranges), t.representativePhase);
        if (l) {
            o += tree(t.sequence, l->span.a);
            timingTable(o, t, l->clocks.wall);
            // The four clocks of block (main-stream compute >= 10 us) and side (everything else), §9.
            for (const auto& st : r.architecture.structures)
                if (st.span.a == l->span.a) {
                    o += "| Part | Wall | Busy union | Kernel sum | Total cost (incl. wait) | Kernels "
                         "|\n|---|---|---|---|---|---|\n";
                    o += fmt::format("| block (stream {}) | {} | {} | {} | {} | {} |\n", st.mainStream,
                                     ms(st.block.wall), ms(st.block.busyUnion), ms(st.block.kernelSum),
                                     ms(st.block.totalCost), st.block.kernels);
                    o += fmt::format("| side | {} | {} | {} | {} | {} |\n", ms(st.side.wall),
                                     ms(st.side.busyUnion), ms(st.side.kernelSum), ms(st.side.totalCost),
                                     st.side.kernels);
                    o += fmt::format("| layer | {} | {} | {} | {} | {} |\n\n", ms(st.all.wall),
                                     ms(st.all.busyUnion), ms(st.all.kernelSum), ms(st.all.totalCost),
                                     st.all.kernels);
                    break;
                }
            std::vector<std::string> anomalies;
            for (const auto& k : t.sequence)
                if (k.role == "AICPU op")
                    anomalies.push_back(fmt::format("AICPU kernel {} ({})", code(k.name), usText(k.dur)));
            const ArchLayer* first = nullptr;
            for (const auto& x : a.layers)
                if (x.type == t.type &&
                    a.passes[static_cast<std::size_t>(x.pass)].phase == t.representativePhase) {
                    first = &x;
                    break;
                }
            double phaseSum = 0;
            int phaseN = 0;
            for (const auto& x : a.layers)
                if (x.type == t.type &&
                    a.passes[static_cast<std::size_t>(x.pass)].phase == t.representativePhase)
                    phaseSum += nsToMs(x.clocks.wall), ++phaseN;
            const double phaseAvg = phaseN ? phaseSum / phaseN : 0;
            if (first && phaseAvg > 0 && nsToMs(first->clocks.wall) > 1.5 * phaseAvg)
                anomalies.push_back(fmt::format(
                    "the first such layer takes {} vs {:.3f} ms on average in {} passes (warm-up)",
                    ms(first->clocks.wall), phaseAvg, t.representativePhase));
            o += "Anomalies: " + (anomalies.empty() ? std::string("none seen.") : [&] { std::string s; for (auto& x : anomalies) s += (s.empty() ? "" : "; ") + x; return s + "."; }()) + "\n\n";
        }
    }

    // 7
    o += "## 7. Decode analysis\n\n";
    if (!a.hasDecode) {
        o += "Not available: the capture has no decode pass (no attention kernel under 1 ms), so decode is "
             "omitted.\n\n";
    } else {
        o += "| Layer type | Prefill layer wall (avg) | Decode layer wall (avg) | Prefill attention | Decode "
             "attention |\n|---|---|---|---|---|\n";
        for (const auto& t : a.types) {
            double pw = 0, dw = 0, pa = 0, da = 0;
            int pn = 0, dn = 0;
            for (const auto& l : a.layers) {
                if (l.type != t.type) continue;
                if (a.passes[static_cast<std::size_t>(l.pass)].phase == "decode")
                    dw += nsToMs(l.clocks.wall), da += nsToMs(l.markerDur), ++dn;
                else
                    pw += nsToMs(l.clocks.wall), pa += nsToMs(l.markerDur), ++pn;
            }
            o += fmt::format(
                "| {} | {} | {} | {} | {} |\n", escCell(t.type), pn ? fmt::format("{:.3f} ms", pw / pn) : "–",
                dn ? fmt::format("{:.3f} ms", dw / dn) : "–", pn ? fmt::format("{:.3f} ms", pa / pn) : "–",
                dn ? fmt::format("{:.3f} ms", da / dn) : "–");
        }
        for (const auto& t : a.types) {
            const ArchLayer* l = representative(a, t.type, "decode");
            if (!l) continue;
            auto seq = layerKernels(p, *l, a.marker);
            o += fmt::format("\n### Decode {} layer (pass {}, L{})\n\n", esc(t.type), l->pass, l->index);
            o += tree(seq, l->span.a);
            std::map<std::string, TimeNs> cost;
            for (const auto& k : seq)
                cost[k.role] += k.dur;
            std::vector<std::pair<std::string, TimeNs>> c(cost.begin(), cost.end());
            std::sort(c.begin(), c.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
            o += "| Component | Kernel time | Share of layer wall |\n|---|---|---|\n";
            for (const auto& [role, t2] : c)
                o += fmt::format("| {} | {} | {:.1f} % |\n", escCell(role), usText(t2),
                                 l->clocks.wall
                                     ? 100.0 * static_cast<double>(t2) / static_cast<double>(l->clocks.wall)
                                     : 0.0);
        }
        o += "\n";
    }

    // 8
    o += "## 8. Communication pipeline\n\n| Stream | Purpose | Kernels | Busy | Overlaps with "
         "|\n|---|---|---|---|---|\n";
    for (const auto& s : a.streams) {
        std::string ov;
        for (int x : s.overlapsWith)
            ov += (ov.empty() ? "" : ", ") + std::to_string(x);
        o += fmt::format("| {} | {} | {} | {} | {} |\n", s.stream >= 0 ? std::to_string(s.stream) : "unknown",
                         escCell(s.purpose), s.kernels, ms(s.busy), ov.empty() ? "–" : ov);
    }
    o += fmt::format("\nCommunication kernels are busy for {}; {} of it ({:.1f} %) is hidden under compute "
                     "(|comm ∩ compute| / |comm|), {} is exposed.\n\n",
                     ms(a.commTotal), ms(a.commHidden), a.commOverlapShare * 100,
                     ms(a.commTotal - a.commHidden));
    // ASCII overlap diagram of one representative layer.
    const ArchLayer* rl = nullptr;
    for (const auto& l : a.layers)
        if (l.clocks.kernels > 0 && (!rl || a.passes[static_cast<std::size_t>(l.pass)].phase == "prefill")) {
            rl = &l;
            break;
        }
    if (rl) {
        const int W = 64;
        const auto seq = layerKernels(p, *rl, a.marker);
        std::map<int, std::string> rows;
        for (const auto& k : seq) {
            auto& row = rows[k.stream];
            if (row.empty()) row.assign(W, '.');
            const double span = static_cast<double>(rl->span.length());
            int x0 = static_cast<int>(static_cast<double>(k.start - rl->span.a) / span * W);
            int x1 = static_cast<int>(static_cast<double>(k.start + k.dur - rl->span.a) / span * W);
            x0 = std::clamp(x0, 0, W - 1);
            x1 = std::clamp(std::max(x1, x0 + 1), 1, W);
            const char c = k.role == "attention" ? 'A'
                                                 : (k.role.find("comm") != std::string::npos
                                                        ? 'C'
                                                        : (k.role.rfind("expert", 0) == 0 ? 'E' : '#'));
            for (int x = x0; x < x1; ++x)
                row[static_cast<std::size_t>(x)] = c;
        }
        o += fmt::format("Layer L{} of pass {} ({}), one row per stream (A attention, E experts, C "
                         "communication, # other):\n\n",
                         rl->index, rl->pass, ms(rl->span.length()));
        std::string diagram;
        for (const auto& [st, row] : rows)
            diagram += fmt::format("stream {:>3} |{}|\n", st, row);
        o += mdFence(diagram) + "\n";
    }
    o += fmt::format("Why kernel_sum > wall: kernels on different streams run at the same time "
                     "(communication beside compute, "
                     "AICPU side streams), so the sum of kernel durations ({}) exceeds the device's busy "
                     "wall clock; the device "
                     "span is {}.\n\n",
                     ms(a.kernelSumAll), ms(a.wallAll));

    // 9
    o += "## 9. Layer-to-layer variation\n\n";
    if (!anchored) {
        o += "| Structure type | Count | Wall min | Wall avg | Wall max |\n|---|---|---|---|---|\n";
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
    } else {
        o += "| Type | Layers measured | Wall min | Wall avg | Wall max | Std dev "
             "|\n|---|---|---|---|---|---|\n";
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
            o += fmt::format("\n`DispatchFFNCombine` cost range ({}): {} – {} ({:.1f} % spread).", ph,
                             usText(rg.first), usText(rg.second),
                             rg.first ? 100.0 * static_cast<double>(rg.second - rg.first) /
                                            static_cast<double>(rg.first)
                                      : 0.0);
        o += "\n\n";
    }

    // 10
    o += "## 10. Summary\n\n";
    std::string box;
    if (anchored) {
        box += "┌──────────────────────────────────────────────┐\n";
        box += fmt::format("│ forward pass: {:<3} layers{:<21}│\n", a.layersPerPass, "");
        for (const auto& t : a.types) {
            std::string line = fmt::format("{:<10} {} ×{}", rangesText(t.ranges), term(t.type), t.count);
            if (line.size() > 42) line = line.substr(0, 42);
            box += fmt::format("│  {:<44}│\n", line);
        }
        box += "└──────────────────────────────────────────────┘\n";
    } else {
        box += "┌──────────────────────────────────────────────┐\n│ no attention marker: pattern-based "
               "structures │\n└──────────────────────────────────────────────┘\n";
    }
    o += mdFence(box) + "\n";
    if (anchored && !a.passes.empty()) {
        TimeNs longest = 0;
        for (const auto& ps : a.passes)
            longest = std::max(longest, ps.span.length());
        o += "Per-pass timeline (bar length ∝ wall time):\n\n";
        std::string bars;
        for (const auto& ps : a.passes) {
            const int n = longest
                              ? std::max(1, static_cast<int>(48.0 * static_cast<double>(ps.span.length()) /
                                                             static_cast<double>(longest)))
                              : 1;
            bars += fmt::format("pass {:>3} {:<7} step {:<6} {:<48} {:.3f} ms\n", ps.index, ps.phase,
                                term(ps.stepId), std::string(static_cast<std::size_t>(n), '='),
                                nsToMs(ps.span.length()));
        }
        o += mdFence(bars);
    }
    return o;
}

} // namespace bs
