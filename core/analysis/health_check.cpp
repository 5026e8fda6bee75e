#include "analysis/health_check.h"

#include "analysis/collection_advice.h"
#include "i18n/message.h"

#include <algorithm>
#include <fmt/format.h>

namespace bs {

namespace {

// Fix texts read the collection's config (profiler_info_*.json) through collection_advice: they ask for a
// setting only when the config lacks it, else they name the real cause (an export not written).
// For a Level0 kernel_details.csv this is pmuAdvice's action (collection_advice.cpp, its Level0 branch) with
// the pointer to the documentation inside the sentence: a message cannot lose its final period.
std::string level0Fix(const Profile& p) {
    const std::string& level = p.inventory.profilerLevel;
    if (level == "Level1" || level == "Level2")
        return msg("Write the kernel table again from this collection: {} (see collection-problems.md, \"Level0 "
                   "kernel table\").",
                   p.inventory.layout == "msprof"
                       ? msg("re-run the export (msprof --export=on --output=<the PROF_ folder>)")
                       : msg("re-run the offline analysis (torch_npu.profiler.profiler.analyse on the "
                             "*_ascend_pt folder)"));
    return msg("Collect with profiler_level=Level1 and aic_metrics=PipeUtilization (see collection-problems.md, "
               "\"Level0 kernel table\").");
}
// A timeline file (trace_view.json, msprof_*.json) is in the folder, read or not.
bool timelineListed(const Profile& p) {
    return std::any_of(p.inventory.files.begin(), p.inventory.files.end(), [](const InventoryFile& f) {
        return f.role == "trace_view" || f.role == "msprof_timeline";
    });
}
std::string noTraceFix(const Profile& p) {
    const auto a = hostTraceAdvice(p);
    return a ? a.value().action : msg("Keep the timeline export (trace_view.json) with the profile.");
}
std::string traceOnlyFix(const Profile& p) {
    const auto a = pmuAdvice(p, {}, false);
    return a ? a.value().action
             : msg("Export kernel_details.csv (torch_npu) or op_summary (msprof) with the profile.");
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

} // namespace

std::vector<Finding> healthCheck(const Profile& p, const StepSet& steps,
                                 const std::vector<StepMetrics>& metrics, const CrossCheck& cc) {
    std::vector<Finding> out = p.loadFindings;
    const auto& inv = p.inventory;
    const bool anyCsv =
        inv.source == "sqlite" || std::any_of(inv.files.begin(), inv.files.end(), [](const InventoryFile& f) {
            return f.path.size() > 4 && f.path.compare(f.path.size() - 4, 4, ".csv") == 0;
        });

    // Problem 4: empty output folder.
    if (inv.outputDir.empty() || (p.kernels.empty() && !p.hasTrace && !anyCsv)) {
        out.push_back(
            {"output_folder_empty", Severity::Error, inv.outputDir.empty() ? inv.rankDir : inv.outputDir, -1,
             -1,
             inv.outputDir.empty()
                 ? msg("The rank folder has no ASCEND_PROFILER_OUTPUT / mindstudio_profiler_output folder.")
                 : msg("The output folder holds no kernel table and no timeline."),
             msg("Nothing can be analysed for this rank."),
             msg("Check that prof.step() is called every iteration, that the loop runs more than warmup steps, "
                 "that on_trace_ready=tensorboard_trace_handler(path) is set and the path is writable "
                 "(see collection-problems.md, \"Empty output folder\")."),
             "collection-problems.md#empty-output-folder"});
        return out;
    }
    // Problem 0: only the trace, no CSV.
    if (p.hasTrace && !anyCsv && inv.layout != "loose") {
        out.push_back(
            {"trace_only_no_csv", Severity::Warning, inv.outputDir, -1, -1,
             msg("The output folder holds the timeline JSON but no CSV (no kernel_details.csv, op_statistic.csv, "
                 "step_trace_time.csv)."),
             msg("Kernels come from the trace's device events: no wait times, shapes or PMU figures, task types "
                 "are the trace's coarse ones, and there is no profiler cross-check."),
             msg("The offline analysis failed, most often because of the output disk: write the profiling output "
                 "to a local disk, or copy the *_ascend_pt folder there and run "
                 "torch_npu.profiler.profiler.analyse(path) (see collection-problems.md, \"Only the timeline, no "
                 "CSV\")."),
             "collection-problems.md#only-the-timeline-no-csv"});
    } else if (inv.kernelSource == KernelSource::TraceDevice) {
        out.push_back({"kernel_source_trace", Severity::Info, inv.kernelSourceFile, -1, -1,
                       msg("No kernel table was usable; kernels come from the trace's device events."),
                       msg("No wait times, shapes or PMU figures."), traceOnlyFix(p),
                       "collection-problems.md#only-the-timeline-no-csv"});
    }
    // Problem 1: Level0 kernel table.
    if (inv.kernelSource == KernelSource::KernelDetails && inv.kernelDetailsLevel == "Level0") {
        out.push_back(
            {"level0_kernel_details", Severity::Warning, inv.kernelSourceFile, 1, -1,
             msg("kernel_details.csv has the Level0 header (no Stream ID, Input Shapes or aic_*/aiv_* PMU "
                 "columns)."),
             inv.streamsFromTrace
                 ? msg("Degraded: stream attribution (streams of {} of {} kernels recovered from {}), variable-shape "
                       "detection (VARIABLE_SHAPE_SAME_TEMPLATE), PMU compute/memory-bound verdicts, per-stream "
                       "structure blocks.",
                       inv.streamsFromTrace, inv.kernelsWithoutStream, streamRecoverySource(inv))
                 : msg("Degraded: stream attribution, variable-shape detection (VARIABLE_SHAPE_SAME_TEMPLATE), PMU "
                       "compute/memory-bound verdicts, per-stream structure blocks."),
             level0Fix(p), "collection-problems.md#level0-kernel-table"});
    }
    if (!p.hasTrace) {
        out.push_back(
            {"no_trace", Severity::Warning, inv.outputDir, -1, -1,
             timelineListed(p) ? msg("The timeline file is there but gave no event (see its own finding).")
                               : msg("No trace_view.json / msprof_*.json timeline was found."),
             msg("No host events: step markers fall back to the Step Id column or a pseudo-step, and bubbles "
                 "cannot be attributed to host activity."),
             noTraceFix(p), ""});
    }
    // Steps.
    if (steps.source == StepSource::Pseudo) {
        out.push_back({"no_step_markers", Severity::Info, "", -1, -1,
                       msg("No ProfilerStep#N / Iteration markers and no Step Id column: the whole capture is "
                           "one pseudo-step."),
                       msg("Per-step comparison and step grouping are not possible."),
                       msg("Call prof.step() once per iteration inside the profiler context."), ""});
    }
    if (steps.kernelsBeforeFirst > 0 && steps.source != StepSource::Pseudo) {
        out.push_back(
            {"kernels_before_first_step", Severity::Warning, "", -1, -1,
             msg("{} kernel(s) start before the first step marker.", steps.kernelsBeforeFirst),
             msg("They belong to no step; the first step's boundary is suspect (PARTIAL_CAPTURE_BOUNDARY)."),
             msg("Start the profiler's active window on a step boundary (schedule skip_first/warmup)."), ""});
    }
    if (steps.overlappingMarkers > 0) {
        out.push_back({"step_markers_overlap", Severity::Warning, "", -1, -1,
                       msg("{} step marker(s) overlap the next one.", steps.overlappingMarkers),
                       msg("Step windows are cut at the next marker's start."), msg("Check the prof.step() placement."),
                       ""});
    }
    // Problem 3: compile time in the first step.
    if (metrics.size() >= 2) {
        std::vector<double> others;
        for (std::size_t i = 1; i < metrics.size(); ++i)
            others.push_back(static_cast<double>(metrics[i].busyUnion));
        double med = median(others);
        if (med > 0 && static_cast<double>(metrics[0].busyUnion) >= 10.0 * med) {
            out.push_back(
                {"first_step_compile", Severity::Warning, "", -1, -1,
                 msg("The first step's device busy time ({:.3f} ms) is {:.1f}x the median of the other steps "
                     "({:.3f} ms).",
                     nsToMs(metrics[0].busyUnion), static_cast<double>(metrics[0].busyUnion) / med, med / 1e6),
                 msg("Graph compilation / JIT is probably inside the capture: that step is not steady state, so "
                     "compare steps from the second one on."),
                 msg("Run one prefill and one decode (the first compiled call) before entering the profiler "
                     "(see collection-problems.md, \"Compilation inside the capture\")."),
                 "collection-problems.md#compilation-inside-the-capture"});
        }
    }
    // Problem 5: HCCL kernels without communication.json.
    const bool anyHccl = std::any_of(p.kernels.begin(), p.kernels.end(),
                                     [](const Kernel& k) { return k.cls == TaskClass::Comm; });
    if (anyHccl && !p.hasCommunicationJson && inv.layout == "torch_npu") {
        out.push_back({"no_communication_json", Severity::Info, inv.outputDir, -1, -1,
                       msg("HCCL kernels exist but communication.json is absent."),
                       msg("Communication totals and bandwidth come from the HCCL kernels only."),
                       communicationJsonFix(p), "collection-problems.md#no-communicationjson"});
    }
    // Cross-check.
    for (const auto& row : cc.rows) {
        for (const auto& f : row.figures) {
            if (!f.mismatch) continue;
            out.push_back(
                {"crosscheck_mismatch", Severity::Warning, "step_trace_time.csv", -1, -1,
                 msg("Step {}: our {} is {:.3f} us, the profiler's {} is {:.3f} us (differs by more than 0.5 %).",
                     row.stepId, f.field, f.oursUs, f.profilerColumn, f.profilerUs.value_or(0)),
                 msg("The kernel table and the profiler's own breakdown disagree; figures for this step are "
                     "suspect."),
                 msg("Check that kernel_details.csv and step_trace_time.csv come from the same export."), ""});
        }
    }
    return out;
}

} // namespace bs
