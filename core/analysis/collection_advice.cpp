#include "analysis/collection_advice.h"

#include "i18n/message.h"

#include <algorithm>
#include <fmt/format.h>

namespace bs {

namespace {

std::string baseName(const std::string& path) {
    const auto pos = path.find_last_of('/');
    return pos == std::string::npos ? path : path.substr(pos + 1);
}

bool hasRole(const Profile& p, const char* role) {
    return std::any_of(p.inventory.files.begin(), p.inventory.files.end(),
                       [&](const InventoryFile& f) { return f.role == role; });
}

bool hasFinding(const std::vector<Finding>& f, const char* id) {
    return std::any_of(f.begin(), f.end(), [&](const Finding& x) { return x.id == id; });
}

// nullopt when the config does not list the activities.
std::optional<bool> collected(const Profile& p, const char* activity) {
    const auto& acts = p.inventory.activities;
    if (!acts) return std::nullopt;
    return std::find(acts->begin(), acts->end(), activity) != acts->end();
}

std::string listed(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v)
        s += (s.empty() ? "" : ", ") + x;
    return s.empty() ? msg("none") : s;
}

// How to write the profiler's exports again from the raw collection, per layout.
std::string reexport(const Profile& p) {
    return p.inventory.layout == "msprof"
               ? msg("re-run the export (msprof --export=on --output=<the PROF_ folder>)")
               : msg("re-run the offline analysis (torch_npu.profiler.profiler.analyse on the *_ascend_pt "
                     "folder)");
}

bool levelAtLeast1(const std::string& level) {
    return level == "Level1" || level == "Level2";
}

bool pipeUtilization(const std::string& aicMetrics) {
    return aicMetrics.find("PIPE_UTILIZATION") != std::string::npos ||
           aicMetrics.find("PipeUtilization") != std::string::npos;
}

bool isTimeline(const InventoryFile& f) {
    return f.role == "trace_view" || f.role == "msprof_timeline";
}

// The error that stopped the reader of a timeline file that is there, or nullptr (it was read, even if empty).
const Finding* timelineError(const Profile& p) {
    for (const auto& f : p.inventory.files)
        if (isTimeline(f))
            for (const auto& x : p.loadFindings)
                if (x.file == f.path && x.severity == Severity::Error) return &x;
    return nullptr;
}

// The first timeline file the folder holds, read or not (nullptr: none is there).
const InventoryFile* timelineFile(const Profile& p) {
    for (const auto& f : p.inventory.files)
        if (isTimeline(f)) return &f;
    return nullptr;
}

// The timeline file is there, yet no event came from it: say what stopped it, never that it is missing.
CollectionAdvice unreadableTimelineAdvice(const Profile& p, const InventoryFile& file, const Finding* error) {
    const std::string name = baseName(file.path);
    CollectionAdvice a;
    if (error) {
        const std::string what = error->byteOffset >= 0 ? msg("{} at byte {}", error->id, error->byteOffset)
                                                        : error->id;
        a.action = msg("Check {}: it is there but is not a timeline that can be read ({}). Copy it again from the "
                       "collection if it was damaged on the way, else write it again: {}.",
                       name, what, reexport(p));
        a.why = msg("{} is there but could not be read ({}), so no host event, step marker or launch flow comes "
                    "from it and every bubble cause is insufficient evidence. {}",
                    name, what, error->seen);
        a.gap = msg("timeline unreadable ({})", what);
    } else {
        a.action = msg("Write the timeline again: {}; {} is there but holds no event.", reexport(p), name);
        a.why = msg("{} is there but holds no event (an empty trace array): no host event, step marker or "
                    "launch flow comes from it, so every bubble cause is insufficient evidence.",
                    name);
        a.gap = msg("timeline empty");
    }
    return a;
}

std::string cutAt(const Profile& p) {
    return p.inventory.traceTruncated
               ? msg(" (the trace is cut at byte {})", p.inventory.truncatedAtByte)
               : std::string();
}

} // namespace

std::string profilerInfoName(const Profile& p) {
    for (const auto& f : p.inventory.files)
        if (f.role == "profiler_info") return baseName(f.path);
    return {};
}

std::string communicationJsonFix(const Profile& p) {
    const std::string& level = p.inventory.profilerLevel;
    if (levelAtLeast1(level))
        return msg("{} sets {}, so the communication data was collected: {} so that communication.json is "
                   "written (see collection-problems.md, \"No communication.json\").",
                   profilerInfoName(p), level, reexport(p));
    return msg("Not an error on a single card; for multi-card runs collect at profiler_level=Level1 or above, "
               "which writes it (see collection-problems.md, \"No communication.json\").");
}

std::optional<CollectionAdvice> hostTraceAdvice(const Profile& p) {
    if (!p.hostEvents.empty()) return std::nullopt;
    const std::string info = profilerInfoName(p);
    const auto cpu = collected(p, "ProfilerActivity.CPU");
    CollectionAdvice a;
    if (cpu && !*cpu) {
        a.action = msg("Collect the host activity too: activities=[ProfilerActivity.CPU, ProfilerActivity.NPU].");
        a.why = msg("{} lists the activities {} without ProfilerActivity.CPU: no host event was recorded, so no "
                    "bubble can be attributed to host activity.",
                    info, listed(*p.inventory.activities));
        a.gap = msg("host activity not collected");
    } else if (!p.hasTrace && timelineFile(p)) {
        return unreadableTimelineAdvice(p, *timelineFile(p), timelineError(p));
    } else if (!p.hasTrace) {
        if (hasRole(p, "sqlite export (not read)")) {
            a.action = msg("Export the timeline as text as well (export_type=Text): BubbleScope reads "
                           "trace_view.json, not the .db export.");
            a.why = cpu ? msg("{} lists ProfilerActivity.CPU, so the host activity was recorded, but the collection "
                              "was exported as a database (.db) and no trace_view.json was written: no host event "
                              "can be read, so every bubble cause is insufficient evidence.",
                              info)
                        : msg("the collection was exported as a database (.db) and no trace_view.json was "
                              "written: no host event can be read, so every bubble cause is insufficient "
                              "evidence.");
        } else {
            a.action = cpu ? msg("Write the timeline: {} so that trace_view.json is written; ProfilerActivity.CPU "
                                 "is already collected.",
                                 reexport(p))
                           : msg("Write the timeline: {} so that trace_view.json is written, and collect "
                                 "ProfilerActivity.CPU together with the NPU.",
                                 reexport(p));
            a.why = cpu ? msg("{} lists ProfilerActivity.CPU, so the host activity was recorded, but there is no "
                              "trace_view.json (the host timeline): every bubble cause is insufficient evidence.",
                              info)
                        : msg("there is no trace_view.json (the host timeline): every bubble cause is "
                              "insufficient evidence.");
        }
        a.gap = msg("no host trace (trace_view.json missing)");
    } else {
        a.action = cpu ? msg("Write the timeline again: {}; ProfilerActivity.CPU is already collected, yet "
                             "trace_view.json has no host lane.",
                             reexport(p))
                       : msg("Collect the host activity (ProfilerActivity.CPU) together with the NPU.");
        a.why = cpu ? msg("{} lists ProfilerActivity.CPU, yet trace_view.json holds no host event (no Python or "
                          "CANN lane){}: every bubble cause is insufficient evidence.",
                          info, cutAt(p))
                    : msg("trace_view.json holds no host event (no Python or CANN lane){}: every bubble cause is "
                          "insufficient evidence.",
                          cutAt(p));
        a.gap = msg("no host events in the trace");
    }
    return a;
}

std::optional<CollectionAdvice> stackAdvice(const Profile& p) {
    if (p.hostEvents.empty() || std::any_of(p.hostEvents.begin(), p.hostEvents.end(),
                                            [](const TraceEvent& e) { return e.flags & EvHasStack; }))
        return std::nullopt;
    const std::string info = profilerInfoName(p);
    const auto& ws = p.inventory.withStack;
    CollectionAdvice a;
    if (ws && *ws) {
        a.action = msg("Write the timeline again: {}, and check that its host events carry a \"Call stack\"; "
                       "with_stack=True is already set, so re-collecting with it changes nothing.",
                       reexport(p));
        a.why = msg("{} sets with_stack=True, yet no host event of trace_view.json carries a call stack{}: the "
                    "code behind a host-side cause cannot be located.",
                    info, cutAt(p));
        a.gap = msg("call stacks missing from the export");
    } else {
        a.action = msg("Re-collect with with_stack=True.");
        a.why = ws ? msg("Bubbles exist but host events carry no Python call stacks ({} sets with_stack=False), so "
                         "the code behind a host-side cause cannot be located.",
                         info)
                   : msg("Bubbles exist but host events carry no Python call stacks, so the code behind a "
                         "host-side cause cannot be located.");
        a.gap = msg("no call stacks");
    }
    return a;
}

std::optional<CollectionAdvice> shapeAdvice(const Profile& p) {
    if (std::any_of(p.kernels.begin(), p.kernels.end(), [](const Kernel& k) { return k.inputShapes != 0; }))
        return std::nullopt;
    const auto& inv = p.inventory;
    // Without a kernel table the PMU advice says the table is missing; shapes come with it.
    if (inv.kernelSource == KernelSource::TraceDevice || inv.kernelSource == KernelSource::None)
        return std::nullopt;
    const std::string info = profilerInfoName(p);
    const bool level0Table =
        inv.kernelSource == KernelSource::KernelDetails && inv.kernelDetailsLevel == "Level0";
    const auto& rs = inv.recordShapes;
    const std::string effect = msg("step grouping cannot tell shape changes from template changes and "
                                   "VARIABLE_SHAPE_SAME_TEMPLATE is skipped.");
    CollectionAdvice a;
    a.gap = msg("no input shapes");
    if (rs && *rs) {
        if (level0Table) return std::nullopt; // record_shapes is set: the Level1 advice brings the column
        a.action = msg("Write the kernel table again: {}; record_shapes=True is already set, so re-collecting "
                       "with it changes nothing.",
                       reexport(p));
        a.why = msg("{} sets record_shapes=True, yet no row of {} has input shapes: {}", info,
                    baseName(inv.kernelSourceFile), effect);
        return a;
    }
    a.action = level0Table ? msg("Re-collect with record_shapes=True (and profiler_level=Level1: the Level0 "
                                 "kernel table has no shape column).")
                           : msg("Re-collect with record_shapes=True.");
    a.why = rs ? msg("Shapes are missing ({} sets record_shapes=False): {}", info, effect)
               : msg("Shapes are missing: {}", effect);
    return a;
}

std::optional<CollectionAdvice> pmuAdvice(const Profile& p, const std::vector<Finding>& findings,
                                          bool pmuExists) {
    const auto& inv = p.inventory;
    const bool level0Table =
        inv.kernelSource == KernelSource::KernelDetails && inv.kernelDetailsLevel == "Level0";
    if (pmuExists && !level0Table) return std::nullopt;
    const std::string info = profilerInfoName(p);
    const std::string& level = inv.profilerLevel;
    const std::string& aic = inv.aicMetrics;
    const std::string config = info.empty()                        ? std::string()
                               : !level.empty() && !aic.empty() ? msg("{} sets {} with {}", info, level, aic)
                                                                : msg("{} sets {}", info, level + aic);
    CollectionAdvice a;
    if (inv.kernelSource == KernelSource::TraceDevice || inv.kernelSource == KernelSource::None) {
        const bool asked = levelAtLeast1(level) && pipeUtilization(aic);
        a.action = asked ? msg("Write the kernel table: {} so that kernel_details.csv is written.", reexport(p))
                         : msg("Collect with profiler_level=Level1 and aic_metrics=PipeUtilization, and keep the "
                               "kernel table (kernel_details.csv) of the offline analysis.");
        a.why = asked ? msg("There is no kernel table (kernel_details.csv): kernels come from the trace's device "
                            "events, without wait times, shapes or PMU figures; {}, so these figures were "
                            "collected but not exported.",
                            config)
                      : msg("There is no kernel table (kernel_details.csv): kernels come from the trace's device "
                            "events, without wait times, shapes or PMU figures.");
        a.gap = msg("no kernel table");
    } else if (level0Table) {
        if (levelAtLeast1(level)) {
            a.action = msg("Write the kernel table again from this collection: {}.", reexport(p));
            a.why = msg("{} says {}, yet kernel_details.csv has the Level0 header (no stream ids, shapes or PMU "
                        "columns): the table does not match this collection's config.",
                        info, level);
        } else {
            a.action = msg("Collect with profiler_level=Level1 and aic_metrics=PipeUtilization.");
            a.why = config.empty()
                        ? msg("kernel_details.csv has the Level0 header: without stream ids, shapes and PMU columns "
                              "several analyses degrade (see collection-problems.md, \"Level0 kernel table\").")
                        : msg("kernel_details.csv has the Level0 header ({}): without stream ids, shapes and PMU "
                              "columns several analyses degrade (see collection-problems.md, \"Level0 kernel "
                              "table\").",
                              config);
        }
        a.gap = msg("no PMU / stream data");
    } else {
        const bool allZero = hasFinding(findings, "pmu_all_zero");
        const std::string table = baseName(inv.kernelSourceFile);
        if (!aic.empty() && !pipeUtilization(aic)) {
            a.action = levelAtLeast1(level)
                           ? msg("Collect with aic_metrics=PipeUtilization ({} sets {}; profiler_level {} is "
                                 "already enough).",
                                 info, aic, level)
                           : msg("Collect with aic_metrics=PipeUtilization ({} sets {}).", info, aic);
            a.why = msg("{} has no usable pipe-utilisation PMU columns (aic_mac_ratio, aiv_vec_ratio): "
                        "compute/memory-bound verdicts are unavailable.",
                        table);
        } else if (!aic.empty()) {
            if (allZero) {
                a.action = msg("Check that the AI Core PMU can be sampled on this device (driver and CANN version, "
                               "no other profiler holding the counters), then re-collect a short run: the profiler "
                               "settings are already right.");
                a.why = msg("{}, yet every aic_*/aiv_* value of {} is zero: the counters were not sampled, so "
                            "compute/memory-bound verdicts are unavailable.",
                            config, table);
            } else {
                a.action = msg("Write the kernel table again with its PMU columns: {}.", reexport(p));
                a.why = msg("{}, yet {} has no aic_*/aiv_* pipe-utilisation columns: the export dropped them, so "
                            "compute/memory-bound verdicts are unavailable.",
                            config, table);
            }
        } else {
            a.action = msg("Collect with profiler_level=Level1 and aic_metrics=PipeUtilization.");
            a.why = allZero ? msg("Every PMU column of {} is zero: compute/memory-bound verdicts are unavailable.",
                                  table)
                            : msg("{} has no usable PMU columns: compute/memory-bound verdicts are unavailable.",
                                  table);
        }
        a.gap = msg("no PMU data");
    }
    return a;
}

std::optional<CollectionAdvice> truncatedTraceAdvice(const Profile& p) {
    if (!p.inventory.traceTruncated) return std::nullopt;
    CollectionAdvice a;
    a.action = msg("Re-collect with the profiler stopped cleanly: call prof.step() at least skip_first + warmup + "
                   "active + 1 times, or once more after the loop (see trace_truncated under Data quality).");
    a.why = msg("trace_view.json is cut at byte {}: host events and step markers after the cut are missing, so "
                "the last step and the windows near the cut are not trustworthy.",
                p.inventory.truncatedAtByte);
    a.gap = msg("trace cut");
    return a;
}

} // namespace bs
