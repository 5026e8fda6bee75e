// §15: each recommendation's predicted gain — the edit matching its cause on each of its windows, replayed.
#include "analysis/anomaly_model.h"
#include "analysis/bubble_metrics.h"
#include "analysis/steps.h"
#include "i18n/message.h"
#include "model/profile.h"
#include "replay/replay.h"

#include <algorithm>
#include <map>

namespace bs {

namespace {

// Median as numpy (mean of the two middle values of an even count).
TimeNs medianOf(std::vector<TimeNs> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : v[m - 1] + (v[m] - v[m - 1]) / 2;
}

// The edit that removes the cause in one window (README.md, "Which edit"): a prelaunch window's first
// launch moves to the other steps' median prelaunch whatever its label; else the cause's own edit.
ReplayEdit editFor(const std::string& cause, const BubbleWindow& w, const std::vector<StepMetrics>& metrics) {
    ReplayEdit e;
    e.windowStart = w.span.a;
    e.windowEnd = w.span.b;
    if (!w.after.empty()) e.kernel = w.after.front().kernel;
    if (w.scope == WindowScope::Prelaunch) {
        e.kind = ReplayEditKind::FirstLaunchAtMedianPrelaunch;
        std::vector<TimeNs> others;
        for (std::size_t i = 0; i < metrics.size(); ++i)
            if (static_cast<int>(i) != w.stepIndex) others.push_back(metrics[i].prelaunchGap);
        e.amount = medianOf(others);
        if (others.empty()) e.kernel = SIZE_MAX; // no other step to take the prelaunch from
        return e;
    }
    e.kind = cause == "sync"         ? ReplayEditKind::RemoveSyncOps
             : cause == "launch_lag" ? ReplayEditKind::CutHostTime
                                     : ReplayEditKind::RemoveUntracedBlock;
    return e;
}

} // namespace

void predictRecommendationGains(const Profile& profile, const StepSet& stepSet, const std::vector<StepMetrics>& metrics,
                                AnomalyResult& anomaly) {
    auto& recs = anomaly.recommendations;
    if (std::none_of(recs.begin(), recs.end(), [](const Recommendation& x) { return !x.replayCause.empty(); }))
        return;
    if (stepSet.steps.empty()) return;
    const ReplayModel model(profile, stepSet);
    const auto& windows = anomaly.windows;
    std::vector<std::size_t> allSteps(stepSet.steps.size());
    for (std::size_t i = 0; i < allSteps.size(); ++i)
        allSteps[i] = i;
    auto groupSteps = [&](const std::string& id) -> std::vector<std::size_t> {
        for (const auto& g : anomaly.groups)
            if (g.id == id) return {g.steps.begin(), g.steps.end()};
        return allSteps;
    };
    for (auto& rec : recs) {
        if (rec.replayCause.empty()) continue;
        std::map<std::size_t, std::vector<ReplayEdit>> perStep; // step → its edits
        std::vector<std::size_t> edited;                        // the windows edited
        std::vector<ReplayEdit> everyStep;
        std::string missing, description;
        std::vector<std::size_t> steps;
        if (rec.replayCause == "op") {
            ReplayEdit e;
            e.kind = ReplayEditKind::OpSpeedup;
            e.op = rec.target;
            e.factor = 0; // "move it off the critical path": what the op costs the step
            missing = model.unresolvable(e);
            description = model.describe(e);
            everyStep.push_back(e);
            steps = anomaly.groups.empty() ? allSteps : groupSteps(anomaly.groups.front().id);
        } else {
            std::string group;
            bool oneGroup = true;
            std::vector<std::string> ids;
            edited.clear();
            for (std::size_t wi : rec.replayWindows) {
                if (wi >= windows.size()) continue;
                const BubbleWindow& w = windows[wi];
                if (w.stepIndex < 0) continue; // a gap outside every step is no step's time
                const ReplayEdit e = editFor(rec.replayCause, w, metrics);
                const std::string why = model.unresolvable(e);
                if (!why.empty()) {
                    if (missing.empty()) missing = msg("{}: {}", w.id, why);
                    continue;
                }
                if (description.empty()) description = model.describe(e);
                perStep[static_cast<std::size_t>(w.stepIndex)].push_back(e);
                ids.push_back(w.id);
                edited.push_back(wi);
                if (group.empty() && ids.size() == 1) group = w.groupId;
                oneGroup = oneGroup && w.groupId == group;
            }
            if (perStep.empty()) {
                rec.replayMissing = missing.empty() ? msg("no window of the recommendation lies in a step") : missing;
                continue;
            }
            missing.clear();
            steps = oneGroup && !group.empty() ? groupSteps(group) : allSteps;
            if (ids.size() > 1) {
                std::string list;
                for (std::size_t i = 0; i < ids.size() && i < 5; ++i)
                    list += (i ? ", " : "") + ids[i];
                if (ids.size() > 5) list += ", …";
                description = msg("{} (in {} windows: {})", description, ids.size(), list);
            } else {
                description = msg("{} ({})", description, ids.front());
            }
        }
        if (!missing.empty()) {
            rec.replayMissing = missing;
            continue;
        }
        ReplayPrediction pr;
        double gain = 0, measured = 0;
        for (std::size_t s : steps) {
            const StepReplay base = model.replay(s);
            measured += static_cast<double>(base.measured);
            pr.errorPct = std::max(pr.errorPct, base.errorPct);
            const auto it = perStep.find(s);
            const std::vector<ReplayEdit>& edits = it != perStep.end() ? it->second : everyStep;
            if (edits.empty()) continue;
            const StepReplay ed = model.replay(s, edits);
            if (!ed.edited) continue;
            ++pr.stepsEdited;
            gain += static_cast<double>(base.replayed - ed.replayed);
        }
        pr.steps = steps.size();
        if (pr.steps == 0) continue;
        pr.gainMs = gain / static_cast<double>(pr.steps) / 1e6;
        pr.gainPct = measured > 0 ? 100.0 * gain / measured : 0.0;
        pr.lowConfidence = pr.errorPct > kReplayLowConfidencePct;
        pr.edit = description;
        pr.windows = std::move(edited);
        rec.replay = pr;
    }
}

} // namespace bs
