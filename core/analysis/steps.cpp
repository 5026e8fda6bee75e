#include "analysis/steps.h"

#include "i18n/message.h"

#include <algorithm>
#include <map>

namespace bs {

// Messages (core/i18n) kept for the program's life, so the pointers stay valid.
const char* stepSourceName(StepSource s) {
    static const std::string profilerStep = msg("ProfilerStep#N markers"),
                             iteration = msg("Iteration#N / Step#N markers"),
                             stepIdColumn = msg("Step Id column of the kernel table"),
                             pseudo = msg("pseudo-step (whole device capture)"), none = msg("none (no kernels)"),
                             unknown = msg("none");
    switch (s) {
    case StepSource::ProfilerStep:
        return profilerStep.c_str();
    case StepSource::Iteration:
        return iteration.c_str();
    case StepSource::StepIdColumn:
        return stepIdColumn.c_str();
    case StepSource::Pseudo:
        return pseudo.c_str();
    case StepSource::None:
        return none.c_str();
    }
    return unknown.c_str();
}

namespace {

// "ProfilerStep#50" → 50 when name starts with prefix followed by digits.
bool markerNumber(std::string_view name, std::string_view prefix, std::int64_t& n) {
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return false;
    auto v = parseInt(name.substr(prefix.size()));
    if (!v) return false;
    n = *v;
    return true;
}

void finishMarkerSteps(const Profile& p, StepSet& set) {
    auto& st = set.steps;
    std::stable_sort(st.begin(), st.end(), [](const Step& a, const Step& b) { return a.start < b.start; });
    for (std::size_t i = 0; i + 1 < st.size(); ++i) {
        if (st[i].markerStart + st[i].markerDur > st[i + 1].markerStart) ++set.overlappingMarkers;
        st[i].end = st[i + 1].start;
    }
    if (!st.empty()) {
        Step& last = st.back();
        TimeNs e = last.markerStart + last.markerDur;
        auto it = std::lower_bound(p.kernels.begin(), p.kernels.end(), last.start,
                                   [](const Kernel& k, TimeNs t) { return k.start < t; });
        for (; it != p.kernels.end(); ++it)
            e = std::max(e, it->end());
        last.end = e;
        set.kernelsBeforeFirst =
            static_cast<std::size_t>(std::lower_bound(p.kernels.begin(), p.kernels.end(), st.front().start,
                                                      [](const Kernel& k, TimeNs t) { return k.start < t; }) -
                                     p.kernels.begin());
    }
}

} // namespace

StepSet detectSteps(const Profile& p) {
    StepSet set;
    // 1. ProfilerStep#N, 2. Iteration#N / Step#N.
    for (int pass = 0; pass < 2 && set.steps.empty(); ++pass) {
        for (const auto& e : p.hostEvents) {
            std::string_view n = p.str(e.name);
            std::int64_t num = -1;
            bool hit = pass == 0 ? markerNumber(n, "ProfilerStep#", num)
                                 : (markerNumber(n, "Iteration#", num) || markerNumber(n, "Step#", num));
            if (!hit) continue;
            Step s;
            s.number = num;
            s.label = std::string(n);
            s.start = s.markerStart = e.ts;
            s.markerDur = e.dur;
            set.steps.push_back(s);
        }
        if (!set.steps.empty()) set.source = pass == 0 ? StepSource::ProfilerStep : StepSource::Iteration;
    }
    if (!set.steps.empty()) {
        finishMarkerSteps(p, set);
        return set;
    }
    if (p.kernels.empty()) return set;
    // 3. Step Id column.
    std::map<std::int32_t, std::pair<TimeNs, TimeNs>> byId;
    bool allHaveId = true;
    for (const auto& k : p.kernels) {
        if (k.stepId < 0) {
            allHaveId = false;
            break;
        }
        auto [it, inserted] = byId.try_emplace(k.stepId, k.start, k.end());
        if (!inserted) {
            it->second.first = std::min(it->second.first, k.start);
            it->second.second = std::max(it->second.second, k.end());
        }
    }
    if (allHaveId && !byId.empty()) {
        set.source = StepSource::StepIdColumn;
        for (const auto& [id, w] : byId) {
            Step s;
            s.number = id;
            s.label = "Step Id " + std::to_string(id);
            s.start = s.markerStart = w.first;
            s.end = w.second;
            s.markerDur = w.second - w.first;
            set.steps.push_back(s);
        }
        std::sort(set.steps.begin(), set.steps.end(),
                  [](const Step& a, const Step& b) { return a.start < b.start; });
        return set;
    }
    // 4. Pseudo-step.
    Step s;
    s.label = msg("whole capture");
    s.start = s.markerStart = p.kernels.front().start;
    TimeNs e = s.start;
    for (const auto& k : p.kernels)
        e = std::max(e, k.end());
    s.end = e;
    s.markerDur = e - s.start;
    set.steps.push_back(s);
    set.source = StepSource::Pseudo;
    return set;
}

} // namespace bs
