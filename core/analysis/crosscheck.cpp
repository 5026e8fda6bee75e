#include "analysis/crosscheck.h"

#include <cmath>
#include <map>

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
    // Profiler rows by step number (the last row of a number wins, as a scan would find it): one lookup
    // per step instead of a scan of every row (steps x rows was quadratic).
    std::map<std::int64_t, const StepTraceRow*> rowOf;
    for (const auto& r : p.stepTrace)
        if (auto n = parseInt(r.step)) rowOf[*n] = &r;
    for (const auto& m : metrics) {
        CrossCheckRow row;
        row.stepId = m.stepId;
        const StepTraceRow* match = nullptr;
        if (m.stepId >= 0)
            if (auto it = rowOf.find(m.stepId); it != rowOf.end()) match = it->second;
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
