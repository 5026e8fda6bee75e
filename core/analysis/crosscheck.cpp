#include "analysis/crosscheck.h"

#include <cmath>

namespace bs {

namespace {

std::optional<double> col(const StepTraceRow& r, const char* name) {
    auto it = r.values.find(name);
    if (it == r.values.end()) return std::nullopt;
    return it->second;
}

} // namespace

CrossCheck crossCheck(const Profile& p, const std::vector<StepMetrics>& metrics) {
    CrossCheck cc;
    cc.available = !p.stepTrace.empty();
    if (!cc.available) return cc;
    for (const auto& m : metrics) {
        CrossCheckRow row;
        row.stepId = m.stepId;
        const StepTraceRow* match = nullptr;
        for (const auto& r : p.stepTrace) {
            if (m.stepId >= 0 && parseInt(r.step) == m.stepId) match = &r;
        }
        if (!match && metrics.size() == 1 && p.stepTrace.size() == 1) match = &p.stepTrace.front();
        if (match) {
            row.matched = true;
            auto add = [&](const char* field, const char* column, TimeNs ours, std::optional<double> theirs) {
                CrossCheckFigure f{field, column, nsToUs(ours), theirs, false};
                if (theirs) {
                    double diff = std::fabs(f.oursUs - *theirs);
                    f.mismatch = diff > 1.0 && diff > 0.005 * std::fabs(*theirs);
                    if (f.mismatch) ++cc.mismatches;
                }
                row.figures.push_back(f);
            };
            add("internal_bubble_total", "Free", m.internalBubbleTotal, col(*match, "Free"));
            add("prelaunch_gap", "Preparing", m.prelaunchGap, col(*match, "Preparing"));
            std::optional<double> busy;
            auto c = col(*match, "Computing");
            auto n = col(*match, "Communication(Not Overlapped)");
            if (c && n) busy = *c + *n;
            add("device_busy_union", "Computing + Communication(Not Overlapped)", m.busyUnion, busy);
        }
        cc.rows.push_back(std::move(row));
    }
    return cc;
}

} // namespace bs
