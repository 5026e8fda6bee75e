// Performance gates (gate.h; decisions in core/gate/README.md).
#include "gate/gate.h"

#include "pipeline/analysis_run.h"
#include "analysis/step_groups.h"
#include "cluster/cluster_model.h"
#include "compare/compare.h"
#include "i18n/message.h"
#include "i18n/escape.h"
#include "report/json_messages.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>

namespace bs {

namespace {

using Json = nlohmann::ordered_json;

const std::vector<GateMetricInfo> kAnalyzeMetrics{
    {"service_ms", "ms", true, false, "step service time (window start to last kernel end)"},
    {"device_busy_union_ms", "ms", true, false, "device busy union per step"},
    {"underfeed_ratio", "ratio", true, false, "idle share of the step service"},
    {"prelaunch_gap_ms", "ms", true, false, "gap from the step start to its first kernel"},
    {"tail_gap_ms", "ms", true, false, "gap from the last kernel to the step end"},
    {"internal_bubble_total_ms", "ms", true, false, "internal bubbles per step, summed"},
    {"largest_internal_bubble_ms", "ms", true, false, "the step's largest internal bubble"},
    {"bubble_count", "count", true, false, "internal bubbles per step"},
    {"inter_step_idle_ms", "ms", true, false, "idle between a step's window and the next step's"},
    {"comm_exposed_ms", "ms", true, false, "communication not overlapped by other kernels"},
    {"comm_wait_ms", "ms", true, false, "communication wait (needs communication.json)"},
    {"significant_windows", "count", false, false, "bubble windows at or above bubble_min_us, whole capture"},
    {"hidden_issue", "0/1", false, false, "1 when the hidden-issue verdict is true"},
    {"slow_ranks", "count", false, true, "slow ranks of the cluster (a parent of several ranks)"},
    {"cost_ms", "ms", false, true, "the largest slow-rank cost per slow step (0 without slow ranks)"},
};

// compare: `<stem>_delta` (the figure's unit) and `<stem>_pct` for each figure of compareFigureKeys().
struct FigureStem {
    const char* stem;
    const char* figure;
    const char* unit;
};
const FigureStem kStems[] = {
    {"service", "service_ms", "ms"},         {"busy", "busy_ms", "ms"},
    {"underfeed", "underfeed_ratio", "ratio"}, {"prelaunch", "prelaunch_ms", "ms"},
    {"tail", "tail_ms", "ms"},               {"internal_bubble", "internal_bubble_ms", "ms"},
    {"largest_bubble", "largest_bubble_ms", "ms"}, {"bubble_count", "bubble_count", "count"},
    {"kernel_count", "kernel_count", "count"}, {"comm_exposed", "comm_exposed_ms", "ms"},
    {"comm_wait", "comm_wait_ms", "ms"},
};

const std::vector<GateMetricInfo>& compareMetrics() {
    static const std::vector<GateMetricInfo> list = [] {
        static std::vector<std::string> names; // stable storage for the c_str()s
        names.reserve(2 * std::size(kStems));
        std::vector<GateMetricInfo> v;
        for (const auto& s : kStems) {
            names.push_back(std::string(s.stem) + "_delta");
            v.push_back({names.back().c_str(), s.unit, true, false, s.figure});
            names.push_back(std::string(s.stem) + "_pct");
            v.push_back({names.back().c_str(), "%", true, false, s.figure});
        }
        v.push_back({"new_windows", "count", false, false, "windows of the dominant group new in NEW"});
        v.push_back({"grew_windows", "count", false, false, "matched windows that grew by 5 % or more"});
        v.push_back({"grew_ms", "ms", false, false, "the growth of those windows, summed"});
        v.push_back({"shrunk_windows", "count", false, false, "matched windows that shrank by 5 % or more"});
        v.push_back({"removed_windows", "count", false, false, "base windows with none at their position in NEW"});
        return v;
    }();
    return list;
}

const GateMetricInfo* findMetric(GateCommand c, std::string_view name) {
    for (const auto& m : gateMetrics(c))
        if (name == m.name) return &m;
    return nullptr;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

const char* opText(GateOp op) {
    switch (op) {
    case GateOp::Greater: return ">";
    case GateOp::GreaterEq: return ">=";
    case GateOp::Less: return "<";
    case GateOp::LessEq: return "<=";
    }
    return "?";
}

const char* statPrefix(GateStat s) {
    switch (s) {
    case GateStat::P90: return "p90:";
    case GateStat::Max: return "max:";
    case GateStat::Avg: return "avg:";
    default: return "";
    }
}

// The shortest text that reads back as the same double: a threshold shows as written, a value one step from
// it does not look equal to it.
std::string number(double v) {
    return fmt::format("{}", v);
}

std::string ms(TimeNs ns) {
    return fmt::format("{:.3f}", nsToMs(ns));
}

GateResult measured(const GateExpr& g, const std::string& scope, double value, std::string cause) {
    GateResult r;
    r.expr = g;
    r.scope = scope;
    r.value = value;
    r.passed = !gateHolds(g.op, value, g.threshold);
    r.cause = std::move(cause);
    return r;
}

// --- analyze ---------------------------------------------------------------------------------------------

// The per-step values of `metric` over the dominant group's steps (empty when it is not known).
std::vector<double> stepValues(const AnalysisResult& r, const StepGroup& g, const std::string& metric,
                               std::string& why) {
    std::vector<double> v;
    const auto& metrics = r.metrics;
    for (int i : g.steps) {
        if (i < 0 || static_cast<std::size_t>(i) >= metrics.size()) continue;
        const StepMetrics& m = metrics[static_cast<std::size_t>(i)];
        const std::size_t next = static_cast<std::size_t>(i) + 1;
        if (metric == "service_ms") v.push_back(nsToMs(m.service));
        else if (metric == "device_busy_union_ms") v.push_back(nsToMs(m.busyUnion));
        else if (metric == "underfeed_ratio") v.push_back(m.underfeedRatio);
        else if (metric == "prelaunch_gap_ms") v.push_back(nsToMs(m.prelaunchGap));
        else if (metric == "tail_gap_ms") v.push_back(nsToMs(m.tailGap));
        else if (metric == "internal_bubble_total_ms") v.push_back(nsToMs(m.internalBubbleTotal));
        else if (metric == "largest_internal_bubble_ms") v.push_back(nsToMs(m.largestInternalBubble));
        else if (metric == "bubble_count") v.push_back(static_cast<double>(m.bubbleCount));
        else if (metric == "inter_step_idle_ms")
            v.push_back(next < metrics.size() ? nsToMs(std::max<TimeNs>(0, metrics[next].windowStart - m.windowEnd)) : 0.0);
        else if (metric == "comm_exposed_ms" || metric == "comm_wait_ms") {
            if (static_cast<std::size_t>(i) >= r.anomaly.stepComm.size()) {
                why = msg("the analysis has no communication figures for a step of the dominant group");
                return {};
            }
            const StepComm& c = r.anomaly.stepComm[static_cast<std::size_t>(i)];
            if (metric == "comm_wait_ms" && !c.fromJson) {
                why = msg("a step of the dominant group has no communication.json (the wait is not known)");
                return {};
            }
            v.push_back(nsToMs(metric == "comm_exposed_ms" ? c.exposed : c.wait));
        }
    }
    return v;
}

std::string windowCause(const AnalysisResult& r, const BubbleWindow& w) {
    const std::string step = w.stepIndex >= 0 && static_cast<std::size_t>(w.stepIndex) < r.steps.steps.size()
                                 ? std::to_string(r.steps.steps[static_cast<std::size_t>(w.stepIndex)].number)
                                 : std::string("-");
    std::string labels;
    for (const auto& l : w.labels)
        labels += (labels.empty() ? "" : ", ") + l;
    return msg("top window {}: {} ms {} in step {} ({})", w.id, ms(w.span.length()), windowScopeName(w.scope), step,
               labels.empty() ? msg("no label") : labels);
}

// The window or op behind a metric: the longest significant window of the dominant group in the scope the
// metric measures, or the op with the largest device total for service, busy and kernel figures.
std::string analysisCause(const AnalysisResult& r, const std::string& metric) {
    const auto& a = r.anomaly;
    if (metric == "service_ms" || metric == "device_busy_union_ms") {
        const OpStats* top = nullptr;
        for (const auto& o : a.ops)
            if (!top || o.durTotal > top->durTotal) top = &o;
        return top ? msg("top op {}: {} ms over {} calls", top->name, ms(top->durTotal), top->calls) : std::string();
    }
    if (metric == "hidden_issue") {
        std::string reasons;
        for (const auto& s : a.hiddenIssueReasons)
            reasons += (reasons.empty() ? "" : ", ") + s;
        return reasons.empty() ? std::string() : msg("conditions: {}", reasons);
    }
    std::vector<char> dominant(r.steps.steps.size(), 0);
    if (!a.groups.empty())
        for (int i : a.groups.front().steps)
            if (i >= 0 && static_cast<std::size_t>(i) < dominant.size()) dominant[static_cast<std::size_t>(i)] = 1;
    std::optional<WindowScope> scope;
    if (metric == "prelaunch_gap_ms") scope = WindowScope::Prelaunch;
    if (metric == "tail_gap_ms") scope = WindowScope::Tail;
    if (metric == "internal_bubble_total_ms" || metric == "largest_internal_bubble_ms" || metric == "bubble_count")
        scope = WindowScope::StepInternal;
    const bool anyStep = metric == "significant_windows";
    for (const auto& w : a.windows) { // longest first
        const bool inGroup = w.stepIndex >= 0 && static_cast<std::size_t>(w.stepIndex) < dominant.size() &&
                             dominant[static_cast<std::size_t>(w.stepIndex)];
        if ((anyStep || inGroup) && (!scope || w.scope == *scope)) return windowCause(r, w);
    }
    return {};
}

// --- compare ---------------------------------------------------------------------------------------------

std::string compareWindowText(const CompareWindow& w) {
    std::string labels;
    for (const auto& l : w.labels)
        labels += (labels.empty() ? "" : ", ") + l;
    return msg("{} ({} ms {}, step {}, after {}{})", w.id, ms(w.dur), w.scope, w.step, w.before,
               labels.empty() ? std::string() : "; " + labels);
}

// The dominant-group match of class `cls` that moved the most (the longest for new / removed).
const WindowMatch* topMatch(const Comparison& c, const std::string& cls) {
    const WindowMatch* best = nullptr;
    auto size = [&](const WindowMatch& m) -> TimeNs {
        if (m.cls == "new") return c.next.windows[static_cast<std::size_t>(m.next)].dur;
        if (m.cls == "removed") return c.base.windows[static_cast<std::size_t>(m.base)].dur;
        return m.deltaDur < 0 ? -m.deltaDur : m.deltaDur;
    };
    for (const auto& m : c.matches)
        if (m.dominant && m.cls == cls && (!best || size(m) > size(*best))) best = &m;
    return best;
}

std::string matchCause(const Comparison& c, const WindowMatch* m) {
    if (!m) return {};
    if (m->cls == "new") return msg("new window {}", compareWindowText(c.next.windows[static_cast<std::size_t>(m->next)]));
    if (m->cls == "removed")
        return msg("removed window {}", compareWindowText(c.base.windows[static_cast<std::size_t>(m->base)]));
    return msg("window {} {} by {} ms ({}), {} in new",
               compareWindowText(c.base.windows[static_cast<std::size_t>(m->base)]), m->cls,
               ms(m->deltaDur < 0 ? -m->deltaDur : m->deltaDur), formatPercent(m->deltaPct),
               c.next.windows[static_cast<std::size_t>(m->next)].id);
}

// A step figure moved: the largest op change and the window that grew most (or the longest new one).
std::string figureCause(const Comparison& c) {
    std::string out;
    if (!c.ops.empty() && c.ops.front().deltaTotal != 0) {
        const OpDelta& o = c.ops.front();
        out = msg("largest op change {} ({}): {} ms in total ({})", o.name, o.status,
                  fmt::format("{}{:.3f}", o.deltaTotal > 0 ? "+" : "", nsToMs(o.deltaTotal)), formatPercent(o.deltaTotalPct));
    }
    const WindowMatch* grew = topMatch(c, "grew");
    const WindowMatch* added = topMatch(c, "new");
    const WindowMatch* w = grew;
    if (added && (!grew || c.next.windows[static_cast<std::size_t>(added->next)].dur > grew->deltaDur)) w = added;
    if (w) out += (out.empty() ? "" : msg("; ")) + matchCause(c, w);
    return out;
}

} // namespace

std::string GateExpr::canonical() const {
    return fmt::format("{}{} {} {}", statPrefix(stat), metric, opText(op), number(threshold));
}

const std::vector<GateMetricInfo>& gateMetrics(GateCommand command) {
    return command == GateCommand::Analyze ? kAnalyzeMetrics : compareMetrics();
}

std::string gateHelp(GateCommand command) {
    std::string o;
    if (command == GateCommand::Analyze) {
        o += "                  EXPR is METRIC OP NUMBER, OP one of > >= < <=; a per-step METRIC is the P50\n"
             "                  over the dominant step group, p90:METRIC its P90, max:METRIC its maximum.\n"
             "                  Per-step metrics (ms; underfeed_ratio a ratio, bubble_count a count):\n";
    } else {
        o += "                  EXPR is METRIC OP NUMBER, OP one of > >= < <=; a step delta compares the\n"
             "                  P50s of the dominant step groups (new - base), avg:METRIC the averages;\n"
             "                  *_pct is the delta in per cent of the base, *_delta in the figure's unit\n"
             "                  (ms; underfeed a ratio, bubble_count and kernel_count counts). Step deltas:\n";
    }
    std::string line = "                    ";
    bool perStep = true;
    for (const auto& m : gateMetrics(command)) {
        if (perStep && !m.perStep) {
            o += line + "\n";
            o += "                  Other metrics:\n";
            line = "                    ";
            perStep = false;
        }
        const std::string item = std::string(m.name) + (m.perStep ? "" : " (" + std::string(m.unit) + ")");
        if (line.size() + item.size() + 1 > 104) {
            o += line + "\n";
            line = "                    ";
        }
        line += (line.size() > 20 ? " " : "") + item;
    }
    o += line + "\n";
    return o;
}

std::optional<GateExpr> parseGate(std::string_view text, GateCommand command, std::string& error) {
    auto accepted = [&] {
        std::string names;
        for (const auto& m : gateMetrics(command))
            names += (names.empty() ? "" : ", ") + std::string(m.name);
        return names;
    };
    const std::string given(text);
    const std::size_t opAt = text.find_first_of("<>");
    if (opAt == std::string_view::npos) {
        error = fmt::format("--fail-if '{}' is not METRIC OP NUMBER (OP one of > >= < <=), e.g. '{}'.", term(given),
                            command == GateCommand::Analyze ? "p90:service_ms>120" : "service_pct>2");
        return std::nullopt;
    }
    GateExpr g;
    g.text = given;
    std::string_view left = trim(text.substr(0, opAt));
    std::string_view rest = text.substr(opAt);
    const bool orEqual = rest.size() > 1 && rest[1] == '=';
    g.op = rest[0] == '>' ? (orEqual ? GateOp::GreaterEq : GateOp::Greater) : (orEqual ? GateOp::LessEq : GateOp::Less);
    rest.remove_prefix(orEqual ? 2 : 1);
    std::string_view right = trim(rest);
    g.stat = GateStat::Plain;
    std::string_view name = left;
    if (const std::size_t colon = left.find(':'); colon != std::string_view::npos) {
        const std::string_view prefix = left.substr(0, colon);
        name = trim(left.substr(colon + 1));
        if (prefix == "p50") g.stat = GateStat::P50;
        else if (prefix == "p90") g.stat = GateStat::P90;
        else if (prefix == "max" && command == GateCommand::Analyze) g.stat = GateStat::Max;
        else if (prefix == "avg" && command == GateCommand::Compare) g.stat = GateStat::Avg;
        else {
            error = fmt::format("--fail-if '{}': unknown reduction '{}:' (accepted: {}).", term(given), term(prefix),
                                command == GateCommand::Analyze ? "p50:, p90:, max:" : "p50:, avg:");
            return std::nullopt;
        }
        if (command == GateCommand::Compare && g.stat == GateStat::P90) {
            error = fmt::format("--fail-if '{}': compare has P50 and average deltas only (p50:, avg:).", term(given));
            return std::nullopt;
        }
    }
    const GateMetricInfo* info = findMetric(command, name);
    if (!info) {
        error = fmt::format("--fail-if '{}': unknown metric '{}'; accepted: {}.", term(given), term(name), accepted());
        return std::nullopt;
    }
    if (!info->perStep && g.stat != GateStat::Plain) {
        error = fmt::format("--fail-if '{}': {} is one number; it takes no '{}' reduction.", term(given), info->name,
                            statPrefix(g.stat));
        return std::nullopt;
    }
    if (info->perStep && g.stat == GateStat::Plain) g.stat = GateStat::P50;
    g.metric = info->name;
    double v = 0;
    const char* b = right.data();
    const char* e = right.data() + right.size();
    if (!right.empty() && *b == '+') ++b;
    const auto [end, ec] = std::from_chars(b, e, v);
    if (right.empty() || ec != std::errc() || end != e || !std::isfinite(v) || (b != right.data() && *b == '-')) {
        error = fmt::format("--fail-if '{}': '{}' after {} is not a number (e.g. 2, 0.5, -1.5, 1e-3).", term(given),
                            term(right), opText(g.op));
        return std::nullopt;
    }
    g.threshold = v;
    return g;
}

bool gateHolds(GateOp op, double value, double threshold) {
    switch (op) {
    case GateOp::Greater: return value > threshold;
    case GateOp::GreaterEq: return value >= threshold;
    case GateOp::Less: return value < threshold;
    case GateOp::LessEq: return value <= threshold;
    }
    return false;
}

GateResult unmeasuredGate(const GateExpr& gate, const std::string& scope, const std::string& why) {
    GateResult r;
    r.expr = gate;
    r.scope = scope;
    r.passed = false;
    r.cause = why;
    return r;
}

std::vector<GateResult> evaluateAnalysisGates(const std::vector<GateExpr>& gates, const AnalysisResult& r,
                                              const std::string& scope) {
    std::vector<GateResult> out;
    for (const auto& g : gates) {
        if (g.metric == "slow_ranks" || g.metric == "cost_ms") continue; // evaluateClusterGates
        if (g.metric == "significant_windows") {
            out.push_back(measured(g, scope, static_cast<double>(r.anomaly.windows.size()), analysisCause(r, g.metric)));
            continue;
        }
        if (g.metric == "hidden_issue") {
            out.push_back(measured(g, scope, r.anomaly.hiddenIssuePresent ? 1.0 : 0.0, analysisCause(r, g.metric)));
            continue;
        }
        if (r.anomaly.groups.empty()) {
            out.push_back(unmeasuredGate(g, scope, msg("no step group: the capture has no step with kernels")));
            continue;
        }
        std::string why;
        std::vector<double> v = stepValues(r, r.anomaly.groups.front(), g.metric, why);
        if (v.empty()) {
            out.push_back(unmeasuredGate(g, scope, why.empty() ? msg("the dominant step group has no steps") : why));
            continue;
        }
        const MetricStats s = statsOf(v);
        const double value = g.stat == GateStat::Max ? *std::max_element(v.begin(), v.end())
                             : g.stat == GateStat::P90 ? s.p90
                                                       : s.median;
        out.push_back(measured(g, scope, value, analysisCause(r, g.metric)));
    }
    return out;
}

std::vector<GateResult> evaluateClusterGates(const std::vector<GateExpr>& gates, const ClusterResult* compared) {
    std::vector<GateResult> out;
    if (!compared) {
        for (const auto& g : gates)
            if (g.metric == "slow_ranks" || g.metric == "cost_ms")
                out.push_back(unmeasuredGate(g, msg("cluster"), msg("fewer than two ranks were analysed: the ranks were "
                                                                     "not compared")));
        return out;
    }
    const ClusterResult& cluster = *compared;
    const SlowRank* top = nullptr;
    for (const auto& s : cluster.slowRanks)
        if (!top || s.cost > top->cost) top = &s;
    std::string cause;
    if (top) {
        const RankSummary* rank = top->rank >= 0 && static_cast<std::size_t>(top->rank) < cluster.ranks.size()
                                      ? &cluster.ranks[static_cast<std::size_t>(top->rank)]
                                      : nullptr;
        cause = msg("slowest rank {}: {} ms per slow step at {} (step {})", rank ? rank->label : std::string("?"),
                    ms(top->cost), top->collective, top->collectiveStep);
    }
    for (const auto& g : gates) {
        if (g.metric == "slow_ranks")
            out.push_back(measured(g, msg("cluster"), static_cast<double>(cluster.slowRanks.size()), cause));
        else if (g.metric == "cost_ms")
            out.push_back(measured(g, msg("cluster"), top ? nsToMs(top->cost) : 0.0, cause));
    }
    return out;
}

std::vector<GateResult> evaluateComparisonGates(const std::vector<GateExpr>& gates, const Comparison& c,
                                                const std::string& scope) {
    std::vector<GateResult> out;
    for (const auto& g : gates) {
        const std::string& m = g.metric;
        if (m == "new_windows") {
            out.push_back(measured(g, scope, static_cast<double>(c.added), matchCause(c, topMatch(c, "new"))));
        } else if (m == "grew_windows" || m == "grew_ms") {
            TimeNs grew = 0;
            for (const auto& w : c.matches)
                if (w.dominant && w.cls == "grew") grew += w.deltaDur;
            out.push_back(measured(g, scope, m == "grew_ms" ? nsToMs(grew) : static_cast<double>(c.grew),
                                   matchCause(c, topMatch(c, "grew"))));
        } else if (m == "shrunk_windows") {
            out.push_back(measured(g, scope, static_cast<double>(c.shrunk), matchCause(c, topMatch(c, "shrunk"))));
        } else if (m == "removed_windows") {
            out.push_back(measured(g, scope, static_cast<double>(c.removed), matchCause(c, topMatch(c, "removed"))));
        } else {
            const bool pct = m.size() > 4 && m.compare(m.size() - 4, 4, "_pct") == 0;
            const std::string stem = m.substr(0, m.size() - (pct ? 4 : 6));
            const FigureStem* fs = nullptr;
            for (const auto& s : kStems)
                if (stem == s.stem) fs = &s;
            const FigureDelta* f = nullptr;
            for (const auto& d : c.figures)
                if (fs && d.key == fs->figure) f = &d;
            if (!f) {
                out.push_back(unmeasuredGate(g, scope, msg("the sides have no dominant step group to compare")));
                continue;
            }
            if (!f->known) {
                out.push_back(unmeasuredGate(g, scope, msg("{} is not known on both sides", f->key)));
                continue;
            }
            const bool avg = g.stat == GateStat::Avg;
            const double base = avg ? f->baseAvg : f->baseP50, next = avg ? f->newAvg : f->newP50;
            double value = avg ? f->deltaAvg : f->deltaP50;
            if (pct) {
                const std::optional<double> p = avg ? f->deltaAvgPct : f->deltaP50Pct;
                if (!p && !(base == 0 && next == 0)) {
                    out.push_back(unmeasuredGate(g, scope, msg("{} is 0 in the base: no per cent change", f->key)));
                    continue;
                }
                value = p ? *p : 0.0;
            }
            out.push_back(measured(g, scope, value, figureCause(c)));
        }
    }
    return out;
}

bool anyGateFailed(const std::vector<GateResult>& results) {
    return std::any_of(results.begin(), results.end(), [](const GateResult& r) { return !r.passed; });
}

std::string renderGatesText(const std::vector<GateResult>& results) {
    std::string o = render(msg("Gates")) + "\n";
    std::size_t failed = 0;
    for (const auto& r : results) {
        failed += r.passed ? 0 : 1;
        const std::string name = (r.scope.empty() ? std::string() : term(r.scope) + ": ") + r.expr.canonical();
        const std::string value = r.value ? number(*r.value) : render(msg("not measured"));
        o += fmt::format("  {:<4}  {}  = {}", r.passed ? "pass" : "FAIL", name, value);
        if (!r.cause.empty()) o += "  (" + term(r.cause) + ")";
        o += "\n";
    }
    o += render(msg("{} gates, {} failed.", results.size(), failed)) + "\n";
    return o;
}

std::string renderGatesJsonArray(const std::vector<GateResult>& results) {
    Json a = Json::array();
    for (const auto& r : results) {
        Json j;
        j["expr"] = r.expr.canonical();
        j["given"] = r.expr.text;
        j["metric"] = r.expr.metric;
        j["scope"] = r.scope;
        j["value"] = r.value ? Json(*r.value) : Json(nullptr);
        j["passed"] = r.passed;
        j["cause"] = r.cause;
        a.push_back(std::move(j));
    }
    renderMessagesIn(a);
    return a.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string withGatesMember(std::string_view doc, const std::vector<GateResult>& results) {
    std::size_t end = doc.find_last_of('}');
    if (end == std::string_view::npos) return std::string(doc);
    std::size_t before = end;
    while (before > 0 && (doc[before - 1] == ' ' || doc[before - 1] == '\n' || doc[before - 1] == '\t' ||
                          doc[before - 1] == '\r'))
        --before;
    const bool empty = before > 0 && doc[before - 1] == '{';
    std::string out(doc.substr(0, before));
    out += empty ? "" : ",";
    out += "\"gates\": " + renderGatesJsonArray(results);
    out += doc.substr(before);
    return out;
}

namespace {
// term() (controls and invalid UTF-8 as \xNN, messages rendered), then the XML attribute / text escapes.
std::string xml(std::string_view s) {
    std::string o;
    for (const char c : term(s)) {
        switch (c) {
        case '&': o += "&amp;"; break;
        case '<': o += "&lt;"; break;
        case '>': o += "&gt;"; break;
        case '"': o += "&quot;"; break;
        case '\'': o += "&apos;"; break;
        default: o += c;
        }
    }
    return o;
}
} // namespace

std::string renderGatesJUnit(const std::vector<GateResult>& results, const std::string& suite) {
    std::size_t failed = 0;
    for (const auto& r : results)
        failed += r.passed ? 0 : 1;
    std::string o = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    o += fmt::format("<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n", xml(suite), results.size(),
                     failed);
    o += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\">\n", xml(suite),
                     results.size(), failed);
    std::string classname = suite; // "bubblescope compare" -> "bubblescope.compare"
    std::replace(classname.begin(), classname.end(), ' ', '.');
    for (const auto& r : results) {
        const std::string name = (r.scope.empty() ? std::string() : render(r.scope) + ": ") + r.expr.canonical();
        o += fmt::format("    <testcase name=\"{}\" classname=\"{}\"", xml(name), xml(classname));
        if (r.passed) {
            o += "/>\n";
            continue;
        }
        const std::string value = r.value ? number(*r.value) : render(msg("not measured"));
        std::string message = render(
            msg("{} = {}, the gate is {}", std::string(statPrefix(r.expr.stat)) + r.expr.metric, value, r.expr.canonical()));
        if (!r.cause.empty()) message += "; " + render(r.cause);
        o += fmt::format(">\n      <failure message=\"{}\" type=\"gate\">{}</failure>\n    </testcase>\n", xml(message),
                         xml(message));
    }
    o += "  </testsuite>\n</testsuites>\n";
    return o;
}

} // namespace bs
