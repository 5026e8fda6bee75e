#pragma once
// Every threshold of ANALYSIS.md in one place, with its defaults. A JSON file can override any of
// them (`bubblescope analyze --rules FILE`); every report prints the values it used.
#include <string>
#include <vector>

namespace bs {

// What a rule measures decides which values it accepts (see kRuleRanges in rulebook.cpp).
enum class RuleKind { Count, Ratio, DurationUs, DurationMs, Factor };

struct RuleInfo {
    std::string name;
    double value = 0;
    RuleKind kind = RuleKind::Ratio;
    double min = 0, max = 0;
    std::string accepted; // "an integer from 1 to 1000", "a ratio from 0 to 1", …
};

struct Rulebook {
    double bubble_min_us = 50.0;                // §4 significant window
    int top_windows = 5;                        // §4 windows with full evidence
    int window_list_cap = 200;                  // §4 JSON cap
    int neighbour_kernels = 3;                  // §4 each side
    double sync_ratio_min = 0.20;               // §5.1
    double comm_ratio_min = 0.20;               // §5.2
    double untraced_coverage_max = 0.05;        // §5.3
    double launch_lag_coverage_min = 0.10;      // §5.4
    double serialization_parallelism_max = 1.2; // §5.5
    double heavy_gap_min_ms = 1.0;              // §6 X = max(heavy_gap_min_ms, fraction × service)
    double heavy_gap_service_fraction = 0.10;
    double underfeed_heavy_ratio = 0.30;   // §6 DEVICE_IDLE_GAP_HEAVY, host risks, verdict
    double recurring_step_fraction = 0.60; // §6 RECURRING_BUBBLE_PATTERN
    double recurring_position_fraction = 0.60;
    double host_risk_coverage_min = 0.10; // §6 HOST_ORIGINATED_RISK
    double wait_pollution_min_us = 20.0;  // §6 WAIT_POLLUTION_RISK: minimum average wait of the op
    double comm_wait_heavy_ratio = 0.20;  // §1 COMM_WAIT_HEAVY: Wait / (Wait + Transit) above this
    double wait_anchor_wait_ratio = 0.95; // §7
    double wait_anchor_max_duration_us = 10.0;
    int wait_anchor_max_rank = 10;
    double wait_list_ratio = 0.80;
    int wait_list_top = 20;
    double aicpu_masked_min = 0.90; // §7 AICPU classes
    double aicpu_partial_min = 0.20;
    double pmu_mte2_hot = 0.80; // §7 PMU
    double idle_none_ms = 0.05; // §8 dominant_idle_pattern
    double idle_none_service_fraction = 0.01;
    double idle_mixed_ratio = 0.80;
    double block_min_us = 10.0; // §9 block vs side
    // soft_root_cause_summary confidence (core/README.md): share of the significant bubble time a label's
    // windows hold — high from ≥ 3 windows and this share, medium from this share with ≥ 2 windows
    // (or the high share with one).
    double soft_cause_high_share = 0.25;
    double soft_cause_medium_share = 0.10;

    // Applies overrides from a JSON object; returns one message per problem, naming the rule, the value
    // given and the accepted range (unknown rule, not a number, not an integer, out of range, not
    // finite), or naming the byte offset of a syntax error. A rejected value leaves its rule unchanged.
    std::vector<std::string> overrideFromJson(const std::string& jsonText);
    // name → value, in declaration order, for reports.
    std::vector<std::pair<std::string, double>> entries() const;
    // Every rule with its value, kind and accepted range, in declaration order.
    std::vector<RuleInfo> table() const;
};

} // namespace bs
