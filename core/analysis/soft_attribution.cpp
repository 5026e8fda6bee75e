#include "analysis/soft_attribution.h"

#include "i18n/message.h"

#include <fmt/format.h>

namespace bs {

namespace {

// "aten::to on Python thread 1 (6666.7 us), …": the markers that make a ratio, for the label's evidence.
std::string markerList(const std::vector<HostEventOverlap>& v) {
    std::string out;
    for (const auto& m : v)
        out += out.empty() ? msg(": {} on {} ({:.1f} us)", m.name, m.thread, nsToUs(m.overlap))
                           : msg(", {} on {} ({:.1f} us)", m.name, m.thread, nsToUs(m.overlap));
    return out;
}

} // namespace

void attributeWindow(BubbleWindow& w, const Rulebook& r) {
    w.labels.clear();
    w.labelEvidence.clear();
    const auto& e = w.evidence;
    auto add = [&](const char* label, std::string why) {
        w.labels.emplace_back(label);
        w.labelEvidence.push_back(std::move(why));
    };
    if (w.boundary) {
        std::string why = msg(
            "capture-boundary gap ({}): the capture itself may have produced it, so it is never attributed "
            "to the host",
            w.boundaryReason.empty() ? msg("at the capture edge") : w.boundaryReason);
        if (e.hostTraceExists)
            why += msg("; for the record: coverage {:.2f}, sync {:.2f}, comm {:.2f}", e.coverage, e.syncRatio,
                       e.commRatio);
        add("insufficient_evidence", why);
        return;
    }
    if (!e.hostTraceExists) {
        add("insufficient_evidence",
            msg("no host trace was captured, so nothing is known about the host during this window"));
        add("possible_untraced_host_blocking",
            msg("the device idles and no host activity is visible (there is no host trace at all)"));
        return;
    }
    const std::string ratios =
        msg("coverage {:.2f}, sync {:.2f}, comm {:.2f}, parallelism {}", e.coverage, e.syncRatio, e.commRatio,
            e.parallelism ? fmt::format("{:.2f}", *e.parallelism) : std::string("n/a"));
    if (e.syncRatio >= r.sync_ratio_min)
        add("possible_sync_or_h2d",
            msg("sync/copy markers cover {:.0f} % of the window (>= {:.0f} %){}; {}", e.syncRatio * 100,
                r.sync_ratio_min * 100, markerList(e.topSyncMarkers), ratios));
    if (e.commRatio >= r.comm_ratio_min)
        add("possible_comm_wait",
            msg("communication markers cover {:.0f} % of the window (>= {:.0f} %){}; {}", e.commRatio * 100,
                r.comm_ratio_min * 100, markerList(e.topCommMarkers), ratios));
    if (e.coverage < r.untraced_coverage_max)
        add("possible_untraced_host_blocking",
            msg("host events cover only {:.1f} % of the window (< {:.0f} %); {}", e.coverage * 100,
                r.untraced_coverage_max * 100, ratios));
    if (w.labels.empty() && e.coverage >= r.launch_lag_coverage_min)
        add("possible_host_launch_lag",
            msg("the host is busy for {:.0f} % of the window without sync or communication "
                "markers; {}",
                e.coverage * 100, ratios));
    if (w.labels.empty() && e.parallelism && *e.parallelism < r.serialization_parallelism_max)
        add("possible_python_serialization_or_lock",
            msg("host threads barely overlap (parallelism {:.2f} < {:.1f}); {}", *e.parallelism,
                r.serialization_parallelism_max, ratios));
    if (w.labels.empty()) add("insufficient_evidence", msg("no rule applies; {}", ratios));
    // The user's line behind the window (stack evidence), when the events in it carry call stacks.
    if (!w.stacks.userFrames.empty()) {
        const StackLine& top = w.stacks.userFrames.front();
        const std::string under =
            msg("; {:.0f} % of the window under {} ({})", top.share * 100, top.frame, top.path);
        for (auto& why : w.labelEvidence)
            why += under;
    }
}

} // namespace bs
