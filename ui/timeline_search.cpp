#include "timeline_search.h"

#include "language.h"
#include "pipeline/analysis_run.h"
#include "model/profile.h"

#include <algorithm>

namespace bs::ui {

std::pair<TimeNs, TimeNs> matchSpan(const Profile& p, const AnalysisResult& r, const Match& m) {
    switch (m.kind) {
    case Match::Kind::Kernel:
        if (m.index < p.kernels.size()) return {p.kernels[m.index].start, p.kernels[m.index].end()};
        break;
    case Match::Kind::HostEvent:
        if (m.index < p.hostEvents.size()) return {p.hostEvents[m.index].ts, p.hostEvents[m.index].end()};
        break;
    case Match::Kind::Bubble:
        if (m.index < r.anomaly.windows.size()) return {r.anomaly.windows[m.index].span.a, r.anomaly.windows[m.index].span.b};
        break;
    }
    return {0, 0};
}

MatchCounts countMatches(const std::vector<Match>& matches) {
    MatchCounts c;
    for (const auto& m : matches)
        ++(m.kind == Match::Kind::Kernel ? c.kernels : m.kind == Match::Kind::HostEvent ? c.hostEvents : c.bubbles);
    return c;
}

std::vector<Match> findMatches(const Profile& p, const AnalysisResult& r, const QString& text, MatchCounts* counts) {
    std::vector<Match> out;
    const QString needle = text.trimmed();
    if (!needle.isEmpty()) {
        // One verdict per interned name: -1 not yet looked at, 0 no, 1 yes.
        std::vector<signed char> verdict(p.strings.size() + 1, -1);
        auto matches = [&](StrId id) {
            if (id >= verdict.size()) return false;
            if (verdict[id] < 0) {
                const auto v = p.str(id);
                verdict[id] = QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size())).contains(needle, Qt::CaseInsensitive) ? 1 : 0;
            }
            return verdict[id] == 1;
        };
        for (std::uint32_t i = 0; i < p.kernels.size(); ++i)
            if (matches(p.kernels[i].name)) out.push_back({Match::Kind::Kernel, i});
        for (std::uint32_t i = 0; i < p.hostEvents.size(); ++i)
            if (matches(p.hostEvents[i].name)) out.push_back({Match::Kind::HostEvent, i});
        for (std::uint32_t i = 0; i < r.anomaly.windows.size(); ++i)
            if (coreText(r.anomaly.windows[i].id).contains(needle, Qt::CaseInsensitive))
                out.push_back({Match::Kind::Bubble, i});
        // Kernels and host events are each sorted by start already: merge by time, stable within a kind.
        std::stable_sort(out.begin(), out.end(), [&](const Match& a, const Match& b) {
            const TimeNs ta = matchSpan(p, r, a).first, tb = matchSpan(p, r, b).first;
            return ta != tb ? ta < tb : a.kind < b.kind;
        });
    }
    if (counts) *counts = countMatches(out);
    return out;
}

} // namespace bs::ui
