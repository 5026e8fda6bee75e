#include "report/json_export.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace bs {

namespace {

using json = nlohmann::ordered_json;

// Fixed rounding: ms to the nanosecond, ratios to 1e-6. Keeps files byte-identical across runs.
double ms(TimeNs ns) { return static_cast<double>(ns) / 1e6; }
double us(TimeNs ns) { return static_cast<double>(ns) / 1e3; }
double ratio(double r) { return std::round(r * 1e6) / 1e6; }

json findingJson(const Finding& f) {
    json j;
    j["id"] = f.id;
    j["severity"] = severityName(f.severity);
    j["file"] = f.file.empty() ? json(nullptr) : json(f.file);
    j["line"] = f.line > 0 ? json(f.line) : json(nullptr);
    j["byte_offset"] = f.byteOffset >= 0 ? json(f.byteOffset) : json(nullptr);
    j["seen"] = f.seen;
    j["impact"] = f.impact;
    j["fix"] = f.fix;
    j["reference"] = f.seedRef.empty() ? json(nullptr) : json(f.seedRef);
    return j;
}

} // namespace

std::string renderJson(const Profile& p, const AnalysisResult& r) {
    json root;
    root["tool"] = "BubbleScope";
    root["rank"] = p.inventory.rankLabel;

    json inv;
    inv["rank_dir"] = p.inventory.rankDir;
    inv["output_dir"] = p.inventory.outputDir;
    inv["layout"] = p.inventory.layout;
    inv["kernel_source"] = kernelSourceName(p.inventory.kernelSource);
    inv["kernel_source_file"] = p.inventory.kernelSourceFile;
    inv["kernel_details_level"] = p.inventory.kernelDetailsLevel;
    inv["kernels_without_stream_id"] = p.inventory.kernelsWithoutStream;
    inv["stream_ids_from_trace"] = p.inventory.streamsFromTrace;
    inv["kernel_count"] = p.kernels.size();
    inv["host_event_count"] = p.hostEvents.size();
    inv["device_trace_event_count"] = p.deviceEvents.size();
    inv["trace_event_count"] = p.inventory.traceEventCount;
    inv["trace_truncated"] = p.inventory.traceTruncated;
    inv["step_source"] = stepSourceName(r.steps.source);
    json files = json::array();
    for (const auto& f : p.inventory.files) files.push_back({{"role", f.role}, {"path", f.path}, {"bytes", f.bytes}, {"records", f.records}});
    inv["files"] = files;
    root["inventory"] = inv;

    json steps = json::array();
    for (const auto& m : r.metrics) {
        json s;
        s["step_id"] = m.stepId >= 0 ? json(std::to_string(m.stepId)) : json("pseudo");
        s["service_ms"] = ms(m.service);
        s["device_busy_union_ms"] = ms(m.busyUnion);
        s["underfeed_ms"] = ms(m.underfeed);
        s["underfeed_ratio"] = ratio(m.underfeedRatio);
        s["prelaunch_gap_ms"] = ms(m.prelaunchGap);
        s["tail_gap_ms"] = ms(m.tailGap);
        s["internal_bubble_total_ms"] = ms(m.internalBubbleTotal);
        s["largest_internal_bubble_ms"] = ms(m.largestInternalBubble);
        s["bubble_count"] = m.bubbleCount;
        s["window_start_us"] = us(m.windowStart);
        s["window_end_us"] = us(m.windowEnd);
        s["kernel_count"] = m.kernelCount;
        s["compute_core_kernel_count"] = m.computeCoreCount;
        s["aicpu_kernel_count"] = m.aicpuCount;
        s["comm_kernel_count"] = m.commCount;
        s["other_kernel_count"] = m.otherCount;
        s["kernel_sum_ms"] = ms(m.kernelSum);
        s["kernel_wait_sum_ms"] = ms(m.kernelWaitSum);
        s["distinct_streams"] = m.distinctStreams;
        steps.push_back(s);
    }
    root["steps"] = steps;

    json cc;
    cc["available"] = r.crossCheck.available;
    cc["mismatch_count"] = r.crossCheck.mismatches;
    json rows = json::array();
    for (const auto& row : r.crossCheck.rows) {
        json jr;
        jr["step_id"] = row.stepId >= 0 ? json(std::to_string(row.stepId)) : json("pseudo");
        jr["matched"] = row.matched;
        json figs = json::array();
        for (const auto& f : row.figures)
            figs.push_back({{"field", f.field}, {"profiler_column", f.profilerColumn}, {"ours_us", std::round(f.oursUs * 1000) / 1000},
                            {"profiler_us", f.profilerUs ? json(*f.profilerUs) : json(nullptr)}, {"mismatch", f.mismatch}});
        jr["figures"] = figs;
        rows.push_back(jr);
    }
    cc["rows"] = rows;
    root["profiler_crosscheck"] = cc;

    json dq;
    json fs = json::array();
    for (const auto& f : r.findings) fs.push_back(findingJson(f));
    dq["findings"] = fs;
    root["data_quality"] = dq;
    return root.dump(2) + "\n";
}

} // namespace bs
