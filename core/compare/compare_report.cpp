// The comparison's JSON, Markdown and text; every sentence from the two digests (compare.cpp).
#include "compare/compare_report.h"

#include "compare/compare.h"
#include "i18n/escape.h"

#include "report/json_messages.h"
#include "i18n/message.h"
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>

namespace bs {

namespace {

using Json = nlohmann::ordered_json;

constexpr std::size_t kOpsShown = 20;
constexpr std::size_t kMatchesInJson = 200;
constexpr std::size_t kMatchesInReport = 40;

Json optional(const std::optional<double>& v) {
    return v ? Json(std::round(*v * 1e6) / 1e6) : Json(nullptr);
}
double msOf(TimeNs ns) {
    return static_cast<double>(ns) / 1e6;
}

Json sideJson(const CompareSide& s) {
    Json j;
    j["label"] = s.label;
    j["folder"] = s.folder;
    j["rank"] = s.scope.rankId >= 0 ? Json(s.scope.rankId) : Json(nullptr);
    j["profiler_level"] = s.scope.profilerLevel;
    j["aic_metrics"] = s.scope.aicMetrics;
    j["with_stack"] = s.scope.withStack ? Json(*s.scope.withStack) : Json(nullptr);
    j["record_shapes"] = s.scope.recordShapes ? Json(*s.scope.recordShapes) : Json(nullptr);
    j["activities"] = s.scope.activities ? Json(*s.scope.activities) : Json(nullptr);
    j["kernel_source"] = s.scope.kernelSource;
    j["step_source"] = s.scope.stepSource;
    j["steps"] = s.scope.stepNumbers;
    j["dominant_group"] = {{"id", s.groupId}, {"steps", s.groupSteps}, {"kernels_per_step", s.groupKernelCount}};
    j["significant_windows"] = s.windows.size();
    j["bubble_min_us"] = s.bubbleMinUs;
    j["hidden_issue_present"] = s.hiddenIssue;
    j["confidence"] = s.confidence;
    return j;
}

Json windowJson(const CompareWindow& w) {
    return {{"id", w.id},
            {"step", w.step},
            {"start_ns", w.start},
            {"duration_ms", msOf(w.dur)},
            {"labels", w.labels},
            {"capture_boundary", w.boundary}};
}

Json figuresJson(const Comparison& c) {
    Json a = Json::array();
    for (const auto& f : c.figures) {
        Json j;
        j["metric"] = f.key;
        j["known"] = f.known;
        if (f.known) {
            j["base_avg"] = f.baseAvg;
            j["new_avg"] = f.newAvg;
            j["delta_avg"] = f.deltaAvg;
            j["delta_avg_pct"] = optional(f.deltaAvgPct);
            j["base_p50"] = f.baseP50;
            j["new_p50"] = f.newP50;
            j["delta_p50"] = f.deltaP50;
            j["delta_p50_pct"] = optional(f.deltaP50Pct);
        }
        a.push_back(std::move(j));
    }
    return a;
}

Json opsJson(const Comparison& c) {
    Json top = Json::array();
    for (std::size_t i = 0; i < c.ops.size() && i < kOpsShown; ++i) {
        const OpDelta& o = c.ops[i];
        top.push_back({{"name", o.name},
                       {"task_type", o.taskType},
                       {"status", o.status},
                       {"base_calls", o.baseCalls},
                       {"new_calls", o.newCalls},
                       {"base_total_ms", msOf(o.baseTotal)},
                       {"new_total_ms", msOf(o.newTotal)},
                       {"delta_total_ms", msOf(o.deltaTotal)},
                       {"delta_total_pct", optional(o.deltaTotalPct)},
                       {"base_avg_us", o.baseAvgUs},
                       {"new_avg_us", o.newAvgUs},
                       {"base_wait_avg_us", o.baseWaitAvgUs},
                       {"new_wait_avg_us", o.newWaitAvgUs}});
    }
    return {{"compared", c.ops.size()}, {"changed", c.opsChanged}, {"unchanged", c.opsUnchanged},
            {"new", c.opsNew},          {"removed", c.opsRemoved}, {"top", std::move(top)}};
}

Json layersJson(const Comparison& c) {
    Json rows = Json::array();
    for (const auto& l : c.layers)
        rows.push_back({{"type", l.type},
                        {"phase", l.phase},
                        {"base_layers", l.baseCount},
                        {"new_layers", l.newCount},
                        {"base_wall_avg_ms", optional(l.baseWallMs)},
                        {"new_wall_avg_ms", optional(l.newWallMs)},
                        {"delta_ms", optional(l.deltaMs)},
                        {"delta_pct", optional(l.deltaPct)}});
    return {{"compared", c.layersCompared}, {"rows", std::move(rows)}};
}

Json windowsJson(const Comparison& c) {
    Json matches = Json::array();
    for (const auto& m : c.matches) {
        if (matches.size() >= kMatchesInJson) break;
        const CompareWindow& w = m.base >= 0 ? c.base.windows[static_cast<std::size_t>(m.base)]
                                             : c.next.windows[static_cast<std::size_t>(m.next)];
        Json j;
        j["class"] = m.cls;
        j["dominant_group"] = m.dominant;
        j["scope"] = w.scope;
        j["kernel_before"] = w.before;
        j["kernel_after"] = w.after;
        j["occurrence"] = w.occurrence;
        j["base"] = m.base >= 0 ? windowJson(c.base.windows[static_cast<std::size_t>(m.base)]) : Json(nullptr);
        j["new"] = m.next >= 0 ? windowJson(c.next.windows[static_cast<std::size_t>(m.next)]) : Json(nullptr);
        j["delta_ms"] = m.base >= 0 && m.next >= 0 ? Json(msOf(m.deltaDur)) : Json(nullptr);
        j["delta_pct"] = optional(m.deltaPct);
        matches.push_back(std::move(j));
    }
    Json fates = Json::array();
    for (const auto& f : c.topFates) {
        const WindowMatch& m = c.matches[f.match];
        fates.push_back({{"base_id", c.base.windows[static_cast<std::size_t>(f.base)].id},
                         {"class", m.cls},
                         {"new_id", m.next >= 0 ? Json(c.next.windows[static_cast<std::size_t>(m.next)].id) : Json(nullptr)},
                         {"sentence", f.sentence}});
    }
    return {{"unchanged_below_pct", kWindowUnchangedFraction * 100.0},
            {"classes_dominant_group",
             {{"removed", c.removed}, {"new", c.added}, {"shrunk", c.shrunk}, {"grew", c.grew}, {"unchanged", c.unchanged}}},
            {"matches_total", c.matches.size()},
            {"matches", std::move(matches)},
            {"top_window_fates", std::move(fates)}};
}

Json findingsJson(const CompareSide& s) {
    Json a = Json::array();
    for (const auto& f : s.findings)
        a.push_back({{"id", f.id}, {"severity", f.severity}, {"file", f.file}, {"seen", f.seen}});
    return a;
}

// ---- Markdown / text ----

std::string num(double v, const std::string& unit) {
    if (unit == "count") return fmt::format("{:.1f}", v);
    if (unit.empty()) return fmt::format("{:.4f}", v);
    return fmt::format("{:.3f}", v);
}
std::string signedNum(double v, const std::string& unit) {
    const std::string s = num(std::fabs(v), unit);
    if (s.find_first_not_of("0.") == std::string::npos) return s;
    return (v < 0 ? "\u2212" : "+") + s;
}
std::string ms(TimeNs ns) {
    return fmt::format("{:.3f}", msOf(ns));
}
std::string joinLabels(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v)
        s += (s.empty() ? "" : ", ") + x;
    return s.empty() ? msg("none") : s;
}

// The figure's name in the report (compareFigureKeys() names them in English for the JSON-free callers).
std::string figureName(const std::string& key) {
    if (key == "service_ms") return msg("step service");
    if (key == "busy_ms") return msg("device busy union");
    if (key == "underfeed_ratio") return msg("underfeed ratio");
    if (key == "prelaunch_ms") return msg("prelaunch gap");
    if (key == "tail_ms") return msg("tail gap");
    if (key == "internal_bubble_ms") return msg("internal bubbles");
    if (key == "largest_bubble_ms") return msg("largest internal bubble");
    if (key == "bubble_count") return msg("internal bubble count");
    if (key == "kernel_count") return msg("kernels per step");
    if (key == "comm_exposed_ms") return msg("exposed communication");
    if (key == "comm_wait_ms") return msg("communication wait");
    for (const FigureInfo& info : compareFigureKeys())
        if (info.key == key) return info.name;
    return key;
}

struct Page {
    bool md = true;
    std::string out;
    std::string text(const std::string& s) const { return md ? mdText(s) : term(s); }
    std::string cell(const std::string& s) const { return md ? mdText(s, MdPlace::TableCell) : term(s); }
    std::string code(const std::string& s) const { return md ? mdCode(s, MdPlace::TableCell) : term(s); }
    void heading(int level, const std::string& s) {
        out += md ? std::string(static_cast<std::size_t>(level), '#') + " " + s + "\n\n" : s + "\n";
    }
    void line(const std::string& s) { out += s + "\n"; }
    void blank() { out += "\n"; }
    void bullet(const std::string& s) { out += (md ? "- " : "  ") + s + "\n"; }
    void row(const std::vector<std::string>& cells) {
        std::string r = md ? "|" : " ";
        for (const auto& c : cells)
            r += " " + c + (md ? " |" : "  ");
        line(r);
    }
    void header(const std::vector<std::string>& cells) {
        row(cells);
        if (!md) return;
        std::string r = "|";
        for (std::size_t i = 0; i < cells.size(); ++i)
            r += "---|";
        line(r);
    }
};

std::string sideName(const Page& p, const CompareSide& s) {
    return p.md ? mdCode(s.label) + " (" + mdText(s.folder) + ")" : term(s.label) + " (" + term(s.folder) + ")";
}

void scopeSection(Page& p, const Comparison& c) {
    p.heading(2, msg("Scope"));
    if (c.warnings.empty()) {
        const CompareScope& s = c.base.scope;
        p.line(p.text(msg(
            "Same scope on both sides: profiler level {}, with_stack {}, record_shapes {}, {} steps, rank {}, "
            "kernels from {}.",
            s.profilerLevel.empty() ? msg("not recorded") : s.profilerLevel,
            s.withStack ? std::string(*s.withStack ? "true" : "false") : msg("not recorded"),
            s.recordShapes ? std::string(*s.recordShapes ? "true" : "false") : msg("not recorded"), s.stepNumbers.size(),
            s.rankId < 0 ? msg("unknown") : std::to_string(s.rankId),
            s.kernelSource.empty() ? msg("nothing") : s.kernelSource)));
    } else {
        for (const auto& w : c.warnings)
            p.bullet((p.md ? msg("**Warning:** ") : msg("WARNING: ")) + p.text(w.message));
        p.blank();
        p.line(p.text(msg("The comparison still runs; figures that depend on the differing setting may differ for that "
                          "reason alone.")));
    }
    for (const auto& n : c.notes) {
        p.blank();
        p.line(p.text(n));
    }
    p.blank();
}

void verdictSection(Page& p, const Comparison& c) {
    p.heading(2, msg("Verdict"));
    for (const auto& v : c.verdict)
        p.bullet(p.text(v));
    p.blank();
}

void stepSection(Page& p, const Comparison& c) {
    p.heading(2, msg("Steps (dominant group)"));
    if (c.figures.empty()) {
        p.line(p.text(msg("Not compared: a side has no step group.")));
        p.blank();
        return;
    }
    p.line(p.text(msg("Base {}: {} steps, {} kernels per step. New {}: {} steps, {} kernels per step.",
                              c.base.groupId, c.base.groupSteps.size(), c.base.groupKernelCount, c.next.groupId,
                              c.next.groupSteps.size(), c.next.groupKernelCount)));
    p.blank();
    p.header({msg("metric"), msg("base avg"), msg("new avg"), msg("Δ avg"), "Δ %", msg("base P50"), msg("new P50"), msg("Δ P50")});
    for (const auto& f : c.figures) {
        const std::string name = figureName(f.key) + (f.unit == "ms" ? " (ms)" : "");
        if (!f.known) {
            p.row({p.cell(name), "—", "—", msg("not known on both sides"), "", "—", "—", ""});
            continue;
        }
        p.row({p.cell(name), num(f.baseAvg, f.unit), num(f.newAvg, f.unit), signedNum(f.deltaAvg, f.unit),
               formatPercent(f.deltaAvgPct), num(f.baseP50, f.unit), num(f.newP50, f.unit),
               signedNum(f.deltaP50, f.unit)});
    }
    p.blank();
}

void opSection(Page& p, const Comparison& c) {
    p.heading(2, msg("Ops (dominant group, by |Δ total|)"));
    p.line(p.text(msg("{} ops compared: {} changed (total, calls or wait), {} unchanged, {} new, {} removed. The {} with the "
                              "largest |Δ total|:",
                              c.ops.size(), c.opsChanged, c.opsUnchanged, c.opsNew, c.opsRemoved,
                              std::min(c.ops.size(), kOpsShown))));
    p.blank();
    p.header({msg("op"), msg("task type"), msg("status"), msg("calls"), msg("total base (ms)"), msg("total new (ms)"),
              msg("Δ total (ms)"), "Δ %", msg("avg (µs)"), msg("wait avg (µs)")});
    for (std::size_t i = 0; i < c.ops.size() && i < kOpsShown; ++i) {
        const OpDelta& o = c.ops[i];
        p.row({p.code(o.name), p.cell(o.taskType), o.status, fmt::format("{} → {}", o.baseCalls, o.newCalls),
               ms(o.baseTotal), ms(o.newTotal), signedNum(msOf(o.deltaTotal), "ms"), formatPercent(o.deltaTotalPct),
               fmt::format("{:.2f} → {:.2f}", o.baseAvgUs, o.newAvgUs),
               fmt::format("{:.2f} → {:.2f}", o.baseWaitAvgUs, o.newWaitAvgUs)});
    }
    p.blank();
}

void layerSection(Page& p, const Comparison& c) {
    p.heading(2, msg("Layers"));
    if (!c.layersCompared) {
        p.line(p.text(c.base.layers.empty() && c.next.layers.empty()
                          ? msg("Not compared: neither side has attention-anchored layers.")
                          : c.base.layers.empty() ? msg("Not compared: the base has no layers.")
                                                  : msg("Not compared: the new side has no layers.")));
        p.blank();
        return;
    }
    p.header({msg("layer type"), msg("phase"), msg("layers base → new"), msg("avg wall base (ms)"), msg("avg wall new (ms)"), "Δ (ms)", "Δ %"});
    auto opt = [](const std::optional<double>& v) { return v ? fmt::format("{:.3f}", *v) : std::string("—"); };
    for (const auto& l : c.layers)
        p.row({p.cell(l.type), l.phase, fmt::format("{} → {}", l.baseCount, l.newCount), opt(l.baseWallMs),
               opt(l.newWallMs), l.deltaMs ? signedNum(*l.deltaMs, "ms") : "—", formatPercent(l.deltaPct)});
    p.blank();
}

std::string position(const Page& p, const CompareWindow& w) {
    return (w.before.empty() ? msg("(none)") : p.code(w.before)) + " → " + (w.after.empty() ? msg("(none)") : p.code(w.after)) +
           (w.occurrence > 0 ? fmt::format(" #{}", w.occurrence + 1) : "");
}

void windowSection(Page& p, const Comparison& c) {
    p.heading(2, msg("Bubble windows"));
    p.line(p.text(msg(
        "Windows are matched by position: scope, the kernel before, the kernel after and the occurrence of that pair "
        "among the gaps of its step; a matched window whose duration changed by less than {:.0f} % is unchanged. "
        "Dominant group: {} removed, {} new, {} shrunk, {} grew, {} unchanged.",
        kWindowUnchangedFraction * 100.0, c.removed, c.added, c.shrunk, c.grew, c.unchanged)));
    p.blank();
    p.heading(3, msg("Fate of the base's top 5"));
    if (c.topFates.empty()) p.line(p.text(msg("The base has no significant window.")));
    for (const auto& f : c.topFates)
        p.bullet(p.text(f.sentence));
    p.blank();
    p.heading(3, msg("Changed windows"));
    std::size_t shown = 0, changed = 0;
    for (const auto& m : c.matches)
        changed += m.cls != "unchanged";
    if (changed == 0) {
        p.line(p.text(msg("Every matched window is unchanged.")));
        p.blank();
        return;
    }
    p.header({msg("class"), msg("step"), msg("scope"), msg("position"), msg("base"), msg("new"), "Δ (ms)", msg("labels (base / new)")});
    for (const auto& m : c.matches) {
        if (m.cls == "unchanged") continue;
        if (++shown > kMatchesInReport) break;
        const CompareWindow* b = m.base >= 0 ? &c.base.windows[static_cast<std::size_t>(m.base)] : nullptr;
        const CompareWindow* n = m.next >= 0 ? &c.next.windows[static_cast<std::size_t>(m.next)] : nullptr;
        const CompareWindow& w = b ? *b : *n;
        auto desc = [&](const CompareWindow* x) {
            return x ? fmt::format("{} {} ms", x->id, ms(x->dur)) : std::string("—");
        };
        auto labels = [&](const CompareWindow* x) { return x ? p.cell(joinLabels(x->labels)) : "—"; };
        p.row({m.cls, w.step < 0 ? std::string(w.scope == "global" ? "global" : "pseudo") : std::to_string(w.step),
               w.scope, position(p, w), desc(b), desc(n), b && n ? signedNum(msOf(m.deltaDur), "ms") : "—",
               labels(b) + " / " + labels(n)});
    }
    if (changed > kMatchesInReport)
        p.line(p.text(msg("… and {} more changed windows (the JSON lists up to {}).", changed - kMatchesInReport,
                                  kMatchesInJson)));
    p.blank();
}

void findingsOf(Page& p, const std::string& side, const CompareSide& s) {
    std::size_t n = 0;
    for (const auto& f : s.findings) {
        if (f.severity == "info") continue;
        ++n;
        p.bullet(p.text(fmt::format("{} ({}, {}): {}", side, f.id, f.severity, f.seen)));
    }
    if (n == 0) p.bullet(p.text(msg("{}: no warning or error finding.", side)));
}

void qualitySection(Page& p, const Comparison& c) {
    p.heading(2, msg("Data quality"));
    findingsOf(p, msg("Base"), c.base);
    findingsOf(p, msg("New"), c.next);
    p.blank();
}

std::string render(const Comparison& c, bool md) {
    Page p;
    p.md = md;
    p.heading(1, msg("Before / after: {} → {}", p.text(c.base.label), p.text(c.next.label)));
    p.line(msg("Base: {}", sideName(p, c.base)) + (md ? "  " : ""));
    p.line(msg("New: {}", sideName(p, c.next)));
    p.blank();
    scopeSection(p, c);
    verdictSection(p, c);
    stepSection(p, c);
    opSection(p, c);
    layerSection(p, c);
    windowSection(p, c);
    qualitySection(p, c);
    return bs::render(p.out);
}

} // namespace

std::string renderComparisonJson(const Comparison& c) {
    Json j;
    j["base"] = sideJson(c.base);
    j["new"] = sideJson(c.next);
    Json w = Json::array();
    for (const auto& s : c.warnings)
        w.push_back({{"what", s.what}, {"base", s.base}, {"new", s.next}, {"message", s.message}});
    j["scope_warnings"] = std::move(w);
    j["notes"] = c.notes;
    j["verdict"] = c.verdict;
    j["steps"] = figuresJson(c);
    j["ops"] = opsJson(c);
    j["layers"] = layersJson(c);
    j["windows"] = windowsJson(c);
    // §15: the base's replayed predictions beside the achieved step service change.
    Json pr = Json::array();
    for (const auto& pc : c.predictions) {
        const ComparePrediction& p = c.base.predictions[pc.prediction];
        pr.push_back({{"priority", p.priority}, {"cause", p.cause}, {"edit", p.edit},
                      {"predicted_gain_ms", p.gainMs}, {"predicted_gain_pct", p.gainPct},
                      {"replay_error_pct", p.errorPct}, {"replay_low_confidence", p.lowConfidence},
                      {"achieved_change_ms", pc.achievedMs ? Json(*pc.achievedMs) : Json(nullptr)},
                      {"windows", p.windows}, {"windows_fate", pc.windows}});
    }
    j["predictions"] = std::move(pr);
    j["data_quality"] = {{"base", findingsJson(c.base)}, {"new", findingsJson(c.next)}};
    renderMessagesIn(j);
    return j.dump(2, ' ', false, Json::error_handler_t::replace);
}

std::string renderComparisonDocument(const Comparison& c) {
    return "{\"comparison\": " + renderComparisonJson(c) + "}\n";
}

std::string renderComparisonMarkdown(const Comparison& c) {
    return render(c, true);
}

std::string renderComparisonText(const Comparison& c) {
    return render(c, false);
}

std::string renderPairsDocument(const std::vector<ComparedPair>& pairs) {
    std::string out = "{\"comparison\": {\"ranks\": [";
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const ComparedPair& p = pairs[i];
        Json head{{"rank", p.name}, {"base", p.baseLabel}, {"new", p.newLabel}};
        renderMessagesIn(head);
        std::string h = head.dump(-1, ' ', false, Json::error_handler_t::replace);
        h.pop_back();
        out += (i ? ", " : "") + h + ", ";
        if (p.comparison)
            out += "\"comparison\": " + renderComparisonJson(*p.comparison) + "}";
        else
            out += "\"error\": " + Json(bs::render(p.error)).dump(-1, ' ', false, Json::error_handler_t::replace) + "}";
    }
    return out + "]}}\n";
}

namespace {
std::string renderPairs(const std::vector<ComparedPair>& pairs, bool md) {
    Page p;
    p.md = md;
    p.heading(1, msg("Before / after, rank by rank"));
    for (const auto& r : pairs)
        p.bullet(p.text(fmt::format("{}: {} → {}{}", r.name, r.baseLabel.empty() ? msg("(none)") : r.baseLabel,
                                    r.newLabel.empty() ? msg("(none)") : r.newLabel,
                                    r.comparison ? std::string() : msg(" — not compared: {}", r.error))));
    p.blank();
    std::string out = p.out;
    for (const auto& r : pairs) {
        if (!r.comparison) continue;
        std::string one = md ? renderComparisonMarkdown(*r.comparison) : renderComparisonText(*r.comparison);
        // One level down: each rank's page is a section of the whole.
        if (md) {
            std::string shifted;
            std::size_t pos = 0;
            while (pos < one.size()) {
                const std::size_t end = one.find('\n', pos);
                std::string ln = one.substr(pos, end == std::string::npos ? std::string::npos : end - pos + 1);
                if (!ln.empty() && ln[0] == '#') ln = "#" + ln;
                shifted += ln;
                if (end == std::string::npos) break;
                pos = end + 1;
            }
            one = shifted;
        }
        out += one + "\n";
    }
    return bs::render(out);
}
} // namespace

std::string renderPairsMarkdown(const std::vector<ComparedPair>& pairs) {
    return renderPairs(pairs, true);
}

std::string renderPairsText(const std::vector<ComparedPair>& pairs) {
    return renderPairs(pairs, false);
}

} // namespace bs
