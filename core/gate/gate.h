#pragma once
// Performance gates for CI (`--fail-if EXPR` of analyze and compare; decisions in core/gate/README.md):
// an expression `metric op number`, the metric measured on an analysis or a comparison, the verdict, and
// the gates as text, JSON and JUnit XML. Qt-free.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bs {

struct AnalysisResult;
struct Comparison;
struct ClusterResult;

enum class GateCommand { Analyze, Compare };
enum class GateOp { Greater, GreaterEq, Less, LessEq };
// How a per-step metric is reduced over the dominant group's steps: P50 (default), P90, the maximum;
// `avg:` (compare only) takes the deltas of the averages. Plain: a metric that is one number.
enum class GateStat { P50, P90, Max, Avg, Plain };

struct GateExpr {
    std::string text;   // as given ("p90:service_ms>120")
    std::string metric; // "service_ms"
    GateStat stat = GateStat::Plain;
    GateOp op = GateOp::Greater;
    double threshold = 0;
    std::string canonical() const; // "p90:service_ms > 120"
};

struct GateMetricInfo {
    const char* name;
    const char* unit;    // "ms", "%", "ratio", "count", "0/1"
    bool perStep;        // reduced over the dominant group's steps (p90: / max: / avg: allowed)
    bool cluster;        // analyze of several ranks only
    const char* meaning; // one line for --help
};
const std::vector<GateMetricInfo>& gateMetrics(GateCommand command);
// The accepted metrics and syntax as help text (lines starting with two spaces, ending with '\n').
std::string gateHelp(GateCommand command);

// Parses one --fail-if value. nullopt with `error` set (one sentence naming what is accepted) when the
// expression is malformed or names an unknown metric or reduction.
std::optional<GateExpr> parseGate(std::string_view text, GateCommand command, std::string& error);

struct GateResult {
    GateExpr expr;
    std::string scope;           // "" (one rank, one comparison) or the rank the gate was measured on
    std::optional<double> value; // nullopt: not measurable (then the gate fails; `cause` says why)
    bool passed = false;
    std::string cause; // what moved the value: the top window or op (a msg), or why there is no value
};

// True when `value op threshold` holds (exact comparison of doubles; NaN never passes).
bool gateHolds(GateOp op, double value, double threshold);

// analyze: the per-step metrics of the dominant group, significant_windows, hidden_issue.
std::vector<GateResult> evaluateAnalysisGates(const std::vector<GateExpr>& gates, const AnalysisResult& result,
                                              const std::string& scope = {});
// analyze of a parent: slow_ranks and cost_ms (the other gates are measured on each rank). `cluster` null: the
// ranks were not compared (fewer than two analysed), so these gates are not measured.
std::vector<GateResult> evaluateClusterGates(const std::vector<GateExpr>& gates, const ClusterResult* cluster);
// compare: the step deltas, the window counts.
std::vector<GateResult> evaluateComparisonGates(const std::vector<GateExpr>& gates, const Comparison& comparison,
                                                const std::string& scope = {});
// A gate that could not be measured (a rank not analysed, a pair not compared): failed, with `why`.
GateResult unmeasuredGate(const GateExpr& gate, const std::string& scope, const std::string& why);

bool anyGateFailed(const std::vector<GateResult>& results);

// The text output's last section ("Gates": each gate, its value, pass / FAIL), rendered in the output language.
std::string renderGatesText(const std::vector<GateResult>& results);
// [{"expr", "metric", "scope", "value", "passed", "cause"}, …] (rendered, one line).
std::string renderGatesJsonArray(const std::vector<GateResult>& results);
// `doc` (a JSON object, optionally followed by whitespace) with "gates": […] as its last member.
std::string withGatesMember(std::string_view doc, const std::vector<GateResult>& results);
// JUnit XML: <testsuites><testsuite name=`suite`><testcase> per gate, <failure message=…> when it failed.
std::string renderGatesJUnit(const std::vector<GateResult>& results, const std::string& suite);

} // namespace bs
