#include "analysis/rulebook.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace bs {

namespace {

template <typename F> void forEachField(Rulebook& r, F&& f) {
    f("bubble_min_us", r.bubble_min_us);
    f("top_windows", r.top_windows);
    f("window_list_cap", r.window_list_cap);
    f("neighbour_kernels", r.neighbour_kernels);
    f("sync_ratio_min", r.sync_ratio_min);
    f("comm_ratio_min", r.comm_ratio_min);
    f("untraced_coverage_max", r.untraced_coverage_max);
    f("launch_lag_coverage_min", r.launch_lag_coverage_min);
    f("serialization_parallelism_max", r.serialization_parallelism_max);
    f("heavy_gap_min_ms", r.heavy_gap_min_ms);
    f("heavy_gap_service_fraction", r.heavy_gap_service_fraction);
    f("underfeed_heavy_ratio", r.underfeed_heavy_ratio);
    f("recurring_step_fraction", r.recurring_step_fraction);
    f("recurring_position_fraction", r.recurring_position_fraction);
    f("host_risk_coverage_min", r.host_risk_coverage_min);
    f("wait_anchor_wait_ratio", r.wait_anchor_wait_ratio);
    f("wait_anchor_max_duration_us", r.wait_anchor_max_duration_us);
    f("wait_anchor_max_rank", r.wait_anchor_max_rank);
    f("wait_list_ratio", r.wait_list_ratio);
    f("wait_list_top", r.wait_list_top);
    f("aicpu_masked_min", r.aicpu_masked_min);
    f("aicpu_partial_min", r.aicpu_partial_min);
    f("pmu_mte2_hot", r.pmu_mte2_hot);
    f("idle_none_ms", r.idle_none_ms);
    f("idle_none_service_fraction", r.idle_none_service_fraction);
    f("idle_mixed_ratio", r.idle_mixed_ratio);
    f("block_min_us", r.block_min_us);
}

} // namespace

std::vector<std::string> Rulebook::overrideFromJson(const std::string& text) {
    std::vector<std::string> problems;
    auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return {"the rules file is not a JSON object"};
    for (auto& item : j.items()) {
        // Plain variables, not structured bindings: lambdas may capture them on every compiler.
        const std::string key = item.key();
        const auto& value = item.value();
        bool known = false;
        forEachField(*this, [&](const char* name, auto& field) {
            if (key != name) return;
            known = true;
            if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0) {
                problems.push_back("'" + key + "' must be a non-negative number");
                return;
            }
            field = static_cast<std::remove_reference_t<decltype(field)>>(value.get<double>());
        });
        if (!known) problems.push_back("unknown rule '" + key + "'");
    }
    return problems;
}

std::vector<std::pair<std::string, double>> Rulebook::entries() const {
    std::vector<std::pair<std::string, double>> out;
    Rulebook copy = *this;
    forEachField(copy,
                 [&](const char* name, auto& field) { out.emplace_back(name, static_cast<double>(field)); });
    return out;
}

} // namespace bs
