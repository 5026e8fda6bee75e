#include "report/json_export.h"

#include "analysis/skipped_rows.h"

#include "report/json_messages.h"
#include "report/json_writer.h"
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <future>
#include <system_error>
#include "i18n/message.h"
#include <fmt/format.h>

namespace bs {

namespace {

using json = nlohmann::ordered_json;

// Fixed rounding: ms to the nanosecond, ratios to 1e-6. Keeps files byte-identical across runs.
double ms(TimeNs ns) {
    return static_cast<double>(ns) / 1e6;
}
double us(TimeNs ns) {
    return static_cast<double>(ns) / 1e3;
}
double ratio(double r) {
    return std::round(r * 1e6) / 1e6;
}

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
    j["reference"] = f.docRef.empty() ? json(nullptr) : json(f.docRef);
    return j;
}

json ratioOrNull(bool exists, double v) {
    return exists ? json(ratio(v)) : json(nullptr);
}

// The lines of code behind a window (core/README.md, "Stack evidence").
json stackEvidenceJson(const StackEvidence& st, bool hostTrace) {
    auto lines = [](const std::vector<StackLine>& v) {
        json out = json::array();
        for (const auto& l : v)
            out.push_back({{"frame", l.frame},
                           {"frame_text", l.frameText},
                           {"user_code", l.user},
                           {"host_time_ms", ms(l.hostTime)},
                           {"share_of_window", ratio(l.share)},
                           {"events", l.events},
                           {"path", l.path}});
        return out;
    };
    json j;
    j["call_stacks_collected"] = st.collected;
    j["note"] = !hostTrace ? json(msg("no host trace"))
                : !st.collected ? json(msg("no call stacks collected"))
                                : json(nullptr);
    j["host_events_in_window"] = st.eventsInWindow;
    j["host_events_with_stack"] = st.eventsWithStack;
    j["user_frames"] = lines(st.userFrames);
    j["innermost_frames"] = lines(st.innermostFrames);
    return j;
}

json kernelJson(const NeighbourKernel& k) {
    return {{"name", k.name},
            {"task_type", k.taskType},
            {"start_us", us(k.start)},
            {"start_ns", k.start},
            {"duration_us", us(k.dur)},
            {"wait_us", us(k.wait)},
            {"stream", k.stream >= 0 ? json(k.stream) : json(nullptr)}};
}

// ANALYSIS.md §1: a step's communication time; the communication.json parts are null without that file.
void addStepCommJson(json& s, const AnomalyResult& a, std::size_t step) {
    const StepComm c = step < a.stepComm.size() ? a.stepComm[step] : StepComm{};
    auto fromFile = [&](TimeNs v) { return c.fromJson ? json(ms(v)) : json(nullptr); };
    s["comm_exposed_ms"] = ms(c.exposed);
    s["comm_elapse_ms"] = fromFile(c.elapse);
    s["comm_wait_ms"] = fromFile(c.wait);
    s["comm_transit_ms"] = fromFile(c.transit);
    s["comm_sync_ms"] = fromFile(c.sync);
    s["comm_idle_ms"] = fromFile(c.idle);
    s["comm_wait_heavy_count"] = c.fromJson ? json(c.waitHeavy) : json(nullptr);
}

// The large arrays (one element per collective, per structure) are written as text, not built as a DOM:
// they are spliced into the dumped document where a placeholder holds their place (spliceArrays).
struct SplicedArrays {
    std::string collectives, structures;
};
constexpr const char* kPlaceholder = "\x01spliced\x01";

std::string collectivesText(const AnomalyResult& a, const StepSet& steps) {
    std::string out;
    out.reserve(a.collectives.size() * 360);
    JsonWriter w(out, 1);
    w.beginArray();
    for (const auto& c : a.collectives) {
        const bool inStep = c.stepIndex >= 0 && static_cast<std::size_t>(c.stepIndex) < steps.steps.size();
        const auto number = inStep ? steps.steps[static_cast<std::size_t>(c.stepIndex)].number : -1;
        w.beginObject().member("name", c.name).member("kind", c.kind).key("step_id");
        if (!inStep)
            w.null();
        else
            w.value(number >= 0 ? std::to_string(number) : std::string("pseudo"));
        w.key("start_us");
        c.start > 0 ? w.value(us(c.start)) : w.null();
        w.key("start_ns");
        c.start > 0 ? w.value(c.start) : w.null();
        w.member("elapse_ms", ms(c.elapse))
            .member("wait_ms", ms(c.wait))
            .member("transit_ms", ms(c.transit))
            .member("sync_ms", ms(c.sync))
            .member("idle_ms", ms(c.idle))
            .member("wait_ratio", ratio(c.waitRatio))
            .member("tags", c.tags)
            .endObject();
    }
    w.endArray();
    return out;
}

json statsJson(const MetricStats& m) {
    return {{"avg", m.avg}, {"median", m.median}, {"p90", m.p90}, {"p95", m.p95}};
}

void writeClocks(JsonWriter& w, std::string_view key, const Clocks& c) {
    w.key(key)
        .beginObject()
        .member("wall_ms", ms(c.wall))
        .member("busy_union_ms", ms(c.busyUnion))
        .member("kernel_sum_ms", ms(c.kernelSum))
        .member("total_cost_ms", ms(c.totalCost))
        .member("kernel_count", static_cast<std::uint64_t>(c.kernels))
        .endObject();
}

// ANALYSIS.md §9 structures with the four clocks for block and side, and the §11 summary.
std::string structuresText(const ArchitectureResult& a) {
    std::string text;
    text.reserve(a.structures.size() * 900);
    JsonWriter w(text, 1);
    w.beginArray();
    for (const auto& s : a.structures) {
        w.beginObject().member("structure_id", s.id).member("type", s.type).member("step_id", s.stepId).key("pass");
        s.passIndex >= 0 ? w.value(s.passIndex) : w.null();
        w.key("layer_in_pass");
        s.layerInPass >= 0 ? w.value(s.layerInPass) : w.null();
        w.member("start_us", us(s.span.a))
            .member("end_us", us(s.span.b))
            .member("start_ns", s.span.a)
            .member("end_ns", s.span.b)
            .member("kernel_count", static_cast<std::uint64_t>(s.all.kernels))
            .member("wall_ms", ms(s.all.wall))
            .member("busy_union_ms", ms(s.all.busyUnion))
            .member("kernel_sum_ms", ms(s.all.kernelSum))
            .member("total_cost_ms", ms(s.all.totalCost))
            .member("share_of_step", ratio(s.shareOfStep))
            .key("task_type_shares")
            .beginObject();
        for (const auto& [k, v] : s.taskShares)
            w.member(k, ratio(v));
        w.endObject().key("main_stream");
        s.mainStream >= 0 ? w.value(s.mainStream) : w.null();
        writeClocks(w, "block", s.block);
        writeClocks(w, "side", s.side);
        w.member("gap_before_ms", ms(s.gapBefore))
            .member("internal_bubble_ms", ms(s.internalBubbles))
            .member("internal_bubble_count", static_cast<std::uint64_t>(s.internalBubbleCount))
            .endObject();
    }
    w.endArray();
    return text;
}

// The two large arrays, written beside the DOM: a second thread takes the larger (structures, ~60 % of an
// export) at once, the caller takes the other when its DOM is dumped, or the second thread does when it is
// free first. Each is claimed by exactly one thread (in the caller's output language).
class ArrayJobs {
  public:
    explicit ArrayJobs(const AnalysisResult& r) : r_(r) {}
    // Writes the next unclaimed array; false when none is left.
    bool runOne() {
        switch (next_.fetch_add(1)) {
        case 0:
            arrays.structures = structuresText(r_.architecture);
            return true;
        case 1:
            arrays.collectives = collectivesText(r_.anomaly, r_.steps); // communication.json ops, §1
            return true;
        default:
            return false;
        }
    }
    void runAll() {
        while (runOne()) {
        }
    }
    SplicedArrays arrays;

  private:
    const AnalysisResult& r_;
    std::atomic<int> next_{0};
};

void addArchitectureJson(json& root, const AnalysisResult& r) {
    const ArchitectureResult& a = r.architecture;
    root["structures"] = kPlaceholder;
    json drill = json::array();
    for (const auto& d : a.drillDown)
        drill.push_back({{"bubble_id", d.windowId},
                         {"structure_id", d.structureId.empty() ? json(nullptr) : json(d.structureId)},
                         {"inside_structure", d.insideStructure},
                         {"position", d.position},
                         {"duration_ms", ms(d.duration)},
                         {"kernel_before", d.kernelBefore},
                         {"kernel_after", d.kernelAfter}});
    root["structure_drilldown"] = drill;
    json types = json::array();
    for (const auto& t : a.types) {
        json ranges = json::array();
        for (const auto& [x, y] : t.ranges)
            ranges.push_back({x, y});
        types.push_back({{"type", t.type},
                         {"layer_ranges", ranges},
                         {"count_per_pass", t.count},
                         {"layers_measured", t.occurrences},
                         {"wall_ms_min", t.wallMinMs},
                         {"wall_ms_avg", t.wallAvgMs},
                         {"wall_ms_max", t.wallMaxMs}});
    }
    json passes = json::array();
    for (const auto& ps : a.passes)
        passes.push_back({{"pass", ps.index},
                          {"step_id", ps.stepId},
                          {"phase", ps.phase},
                          {"layers", ps.markerCount},
                          {"start_us", us(ps.span.a)},
                          {"wall_ms", ms(ps.span.length())},
                          {"kernel_count", ps.kernelCount}});
    json macro = json::array();
    for (const auto& m : a.macroSteps)
        macro.push_back({{"step_id", m.stepId},
                         {"passes", m.passes},
                         {"prefill_passes", m.prefill},
                         {"decode_passes", m.decode},
                         {"single_passes", m.single}});
    const auto& b = a.boundaryBubbles;
    const json boundary = {{"layers", b.layers.empty() ? json(nullptr) : json(b.layers)},
                           {"windows", b.windows},
                           {"window_ms", ms(b.windowTime)},
                           {"at_layer_start", b.atLayerStart},
                           {"at_layer_start_ms", ms(b.atLayerStartTime)},
                           {"at_layer_start_share", ratio(b.atLayerStartShare)},
                           {"inside_layers", b.insideLayers},
                           {"inside_layers_ms", ms(b.insideLayersTime)},
                           {"outside_layers", b.outsideLayers},
                           {"outside_layers_ms", ms(b.outsideLayersTime)},
                           {"tolerance_us", static_cast<double>(b.tolerance) / 1000.0}};
    root["architecture"] = {{"marker", a.marker.empty() ? json(nullptr) : json(a.marker)},
                            {"marker_source", a.markerSource},
                            {"confidence", a.confidence},
                            {"marker_count", a.markerCount},
                            {"layers_per_pass", a.layersPerPass},
                            {"pass_count", a.passes.size()},
                            {"pass_count_consistent", a.passCountConsistent},
                            {"cross_check_mismatches", a.crossCheckMismatches},
                            {"comm_overlap_share", ratio(a.commOverlapShare)},
                            {"layer_types", types},
                            {"passes", passes},
                            {"macro_steps", macro},
                            {"layer_boundary_bubbles", boundary},
                            {"notes", a.notes}};
}

// The anomaly_discovery schema fields (ANALYSIS.md §10.1) plus op rankings, AICPU, recommendations, rules.
void addAnomalyJson(json& root, const Profile& p, const AnalysisResult& r) {
    const AnomalyResult& a = r.anomaly;
    root["enabled"] = true;
    root["dominant_group_id"] = a.groups.empty() ? json(nullptr) : json(a.groups.front().id);
    const TimeNs span = a.captureEnd - a.captureStart;
    json g;
    g["capture_span_ms"] = ms(span);
    g["device_busy_union_ms"] = ms(a.globalBusy);
    g["device_gap_ms"] = ms(span - a.globalBusy);
    g["device_gap_ratio"] =
        span > 0 ? ratio(static_cast<double>(span - a.globalBusy) / static_cast<double>(span)) : 0.0;
    g["largest_gap_ms"] = ms(a.largestGap);
    json tg = json::array();
    for (const auto& w : a.topGlobalGaps)
        tg.push_back({{"start_us", us(w.a)},
                      {"end_us", us(w.b)},
                      {"duration_ms", ms(w.length())},
                      {"start_ns", w.a},
                      {"end_ns", w.b}});
    g["top_gap_windows"] = tg;
    root["global_device_gap_analysis"] = g;

    json groups = json::array();
    for (const auto& gr : a.groups) {
        json j;
        j["group_id"] = gr.id;
        j["group_size"] = gr.steps.size();
        j["service_ms_avg"] = gr.service.avg;
        j["device_busy_union_ms_avg"] = gr.busy.avg;
        j["underfeed_ratio_avg"] = ratio(gr.underfeedRatio.avg);
        j["prelaunch_gap_ms_avg"] = gr.prelaunch.avg;
        j["tail_gap_ms_avg"] = gr.tail.avg;
        j["internal_bubble_total_ms_avg"] = gr.internalTotal.avg;
        j["largest_internal_bubble_ms_p95"] = gr.largestInternal.p95;
        j["recurring_bubble_pattern"] = gr.recurring;
        j["dominant_idle_pattern"] = gr.dominantIdlePattern;
        j["dominant_anomaly_tags"] = gr.tags;
        j["requires_followup"] = gr.requiresFollowup;
        json steps = json::array();
        for (int s : gr.steps) {
            const auto& st = r.steps.steps[static_cast<std::size_t>(s)];
            steps.push_back(st.number >= 0 ? std::to_string(st.number) : std::string("pseudo"));
        }
        j["steps"] = steps;
        j["kernel_count"] = gr.kernelCount;
        j["recurring_position"] = gr.recurring ? json(gr.recurringPosition) : json(nullptr);
        j["variable_shapes"] = gr.variableShapes ? json(*gr.variableShapes) : json(nullptr);
        // The user line on top of the group's windows step after step (core/README.md, "Stack evidence").
        json lines = json::array();
        for (const auto& l : gr.recurringUserLines)
            lines.push_back({{"frame", l.frame},
                             {"frame_text", l.frameText},
                             {"steps", l.steps},
                             {"of_steps", gr.steps.size()},
                             {"windows", l.windows},
                             {"host_time_ms", ms(l.hostTime)}});
        j["recurring_user_lines"] = lines;
        j["stats"] = {{"service_ms", statsJson(gr.service)},
                      {"device_busy_union_ms", statsJson(gr.busy)},
                      {"underfeed_ratio", statsJson(gr.underfeedRatio)},
                      {"prelaunch_gap_ms", statsJson(gr.prelaunch)},
                      {"tail_gap_ms", statsJson(gr.tail)},
                      {"internal_bubble_total_ms", statsJson(gr.internalTotal)},
                      {"largest_internal_bubble_ms", statsJson(gr.largestInternal)},
                      {"bubble_count", statsJson(gr.bubbleCount)},
                      {"inter_step_idle_ms", statsJson(gr.interStep)}};
        groups.push_back(j);
    }
    root["step_group_anomalies"] = groups;

    json windows = json::array();
    const auto skipped = skippedRowsInWindows(p, r.findings, a.windows);
    for (std::size_t i = 0; i < a.windows.size() && i < static_cast<std::size_t>(a.rules.window_list_cap);
         ++i) {
        const auto& w = a.windows[i];
        const bool ev = w.evidence.hostTraceExists;
        json j;
        j["bubble_id"] = w.id;
        j["scope"] = windowScopeName(w.scope);
        j["step_id"] = w.stepId;
        j["group_id"] = w.groupId.empty() ? json(nullptr) : json(w.groupId);
        j["start_us"] = us(w.span.a);
        j["end_us"] = us(w.span.b);
        j["duration_ms"] = ms(w.span.length());
        j["host_visible_coverage_ratio"] = ratioOrNull(ev, w.evidence.coverage);
        j["sync_marker_overlap_ratio"] = ratioOrNull(ev, w.evidence.syncRatio);
        j["comm_marker_overlap_ratio"] = ratioOrNull(ev, w.evidence.commRatio);
        j["host_parallelism"] =
            ev && w.evidence.parallelism ? json(ratio(*w.evidence.parallelism)) : json(nullptr);
        j["candidate_labels"] = w.labels;
        json evOps = json::array();
        for (const auto& h : w.evidence.topEvents)
            evOps.push_back(h.name);
        j["evidence_ops"] = evOps;
        j["start_ns"] = w.span.a;
        j["end_ns"] = w.span.b;
        j["capture_boundary"] = w.boundary;
        j["capture_boundary_reason"] = w.boundary ? json(w.boundaryReason) : json(nullptr);
        j["label_evidence"] = w.labelEvidence;
        json top = json::array();
        for (const auto& h : w.evidence.topEvents)
            top.push_back({{"name", h.name}, {"thread", h.thread}, {"overlap_us", us(h.overlap)}});
        j["top_host_events"] = top;
        auto markers = [&](const std::vector<HostEventOverlap>& v) {
            json m = json::array();
            for (const auto& h : v)
                m.push_back({{"name", h.name}, {"thread", h.thread}, {"overlap_us", us(h.overlap)}});
            return m;
        };
        j["top_sync_markers"] = markers(w.evidence.topSyncMarkers); // behind sync_marker_overlap_ratio
        j["top_comm_markers"] = markers(w.evidence.topCommMarkers); // behind comm_marker_overlap_ratio
        j["stack_evidence"] = stackEvidenceJson(w.stacks, ev);
        json before = json::array(), after = json::array();
        for (const auto& k : w.before)
            before.push_back(kernelJson(k));
        for (const auto& k : w.after)
            after.push_back(kernelJson(k));
        j["kernels_before"] = before;
        j["kernels_after"] = after;
        json rows = json::array();
        for (const auto& row : skipped[i])
            rows.push_back({{"file", row.file}, {"line", row.line}, {"finding_id", row.findingId}});
        j["skipped_rows_inside"] = rows; // malformed kernel-table rows whose kernel may fill part of it
        windows.push_back(j);
    }
    root["bubble_windows"] = windows;
    root["bubble_window_count"] = a.windows.size();

    json anchors = json::array();
    for (const auto& o : a.ops) {
        if (!o.waitAnchor) continue;
        json ev = json::array();
        ev.push_back(msg("rank {} by average total cost, {} calls", o.rankByAvgCost, o.calls));
        if (o.waitPollution)
            ev.push_back(msg("wait span overlaps a communication window: {}", "wait_not_reliable_for_rootcause"));
        anchors.push_back({{"op_name", o.name},
                           {"location", o.taskType.empty() ? json(nullptr) : json(o.taskType)},
                           {"duration_us_avg", o.durAvgUs},
                           {"wait_us_avg", o.waitAvgUs},
                           {"total_cost_us_avg", o.totalCostAvgUs},
                           {"wait_ratio", ratio(o.waitRatio)},
                           {"is_false_hotspot_risk", o.falseHotspot},
                           {"evidence", ev},
                           {"wait_not_reliable_for_rootcause", o.waitPollution}});
    }
    root["wait_anchor_ops"] = anchors;

    json causes = json::array();
    for (const auto& c : a.softCauses)
        causes.push_back({{"label", c.label},
                          {"confidence", c.confidence},
                          {"scope", c.scope},
                          {"target_id", c.target.empty() ? json(nullptr) : json(c.target)},
                          {"window_count", c.windowCount},
                          {"duration_ms", ms(c.duration)},
                          {"share_of_bubble_time", ratio(c.share)},
                          {"evidence", c.evidence}});
    root["soft_root_cause_summary"] = causes;
    root["requires_host_followup"] = a.requiresHostFollowup;
    root["confidence"] = a.confidence;
    root["hidden_issue"] = {
        {"present", a.hiddenIssuePresent}, {"severity", a.severity}, {"conditions", a.hiddenIssueReasons}};
    root["global_tags"] = a.globalTags;
    root["collectives"] = kPlaceholder; // communication.json ops, §1 (writeSplicedArrays)
    json stepTags = json::array();
    for (const auto& t : a.stepTags) {
        const auto& st = r.steps.steps[static_cast<std::size_t>(t.stepIndex)];
        stepTags.push_back({{"step_id", st.number >= 0 ? std::to_string(st.number) : std::string("pseudo")},
                            {"tags", t.tags}});
    }
    root["step_tags"] = stepTags;

    auto opJson = [](const OpStats& o) {
        json j{{"op_name", o.name},
               {"task_type", o.taskType},
               {"call_count", o.calls},
               {"duration_us_avg", o.durAvgUs},
               {"duration_ms_total", ms(o.durTotal)},
               {"wait_us_avg", o.waitAvgUs},
               {"total_cost_us_avg", o.totalCostAvgUs},
               {"wait_ratio", ratio(o.waitRatio)},
               {"rank_by_avg_total_cost", o.rankByAvgCost},
               {"rank_by_total_duration", o.rankByTotal},
               {"representative_shapes", o.shapes},
               {"wait_anchor", o.waitAnchor},
               {"is_false_hotspot_risk", o.falseHotspot},
               {"wait_pollution_risk", o.waitPollution},
               {"pmu_verdict", o.pmuVerdict},
               {"pmu_detail", o.pmuDetail}};
        j["cube_utilization_pct"] = o.cubeUtilization ? json(*o.cubeUtilization) : json(nullptr);
        return j;
    };
    json byCost = json::array(), byTotal = json::array();
    for (const auto& o : a.ops)
        if (o.rankByAvgCost <= 50) byCost.push_back(opJson(o));
    std::vector<const OpStats*> t;
    for (const auto& o : a.ops)
        t.push_back(&o);
    std::sort(t.begin(), t.end(),
              [](const OpStats* x, const OpStats* y) { return x->rankByTotal < y->rankByTotal; });
    for (const auto* o : t)
        if (o->rankByTotal <= 50) byTotal.push_back(opJson(*o));
    root["op_rankings"] = {{"scope", a.groups.empty() ? json("whole capture") : json(a.groups.front().id)},
                           {"op_count", a.ops.size()},
                           {"by_avg_total_cost", byCost},
                           {"by_total_duration", byTotal}};
    json aicpu = json::array();
    for (const auto& ai : a.aicpuOps)
        aicpu.push_back({{"op_name", ai.name},
                         {"call_count", ai.calls},
                         {"duration_ms_total", ms(ai.durTotal)},
                         {"masked_ratio", ratio(ai.maskedRatio)},
                         {"class", ai.cls},
                         {"adjacent_to_bubble", ai.touchesBubble}});
    root["aicpu_ops"] = aicpu;
    json recs = json::array();
    for (const auto& rc : a.recommendations) {
        json j = {{"priority", rc.priority},
                  {"scope", rc.scope},
                  {"target", rc.target.empty() ? json(nullptr) : json(rc.target)},
                  {"action", rc.action},
                  {"why", rc.why},
                  {"followup_required", rc.followupRequired},
                  {"followup_kind", rc.followupKind.empty() ? json(nullptr) : json(rc.followupKind)},
                  {"evidence_gap", rc.evidenceGap.empty() ? json(nullptr) : json(rc.evidenceGap)}};
        // §15: the replayed gain of removing the cause (core/replay), when the replay has an edit for it.
        if (rc.replay) {
            j["predicted_gain_ms"] = std::round(rc.replay->gainMs * 1e6) / 1e6;
            j["predicted_gain_pct"] = std::round(rc.replay->gainPct * 1e4) / 1e4;
            j["replay_error_pct"] = std::round(rc.replay->errorPct * 1e4) / 1e4;
            j["replay_low_confidence"] = rc.replay->lowConfidence;
            j["edit"] = rc.replay->edit;
            j["replay_steps"] = rc.replay->steps;
        } else if (!rc.replayMissing.empty()) {
            j["predicted_gain_ms"] = nullptr;
            j["replay_missing"] = rc.replayMissing;
        }
        recs.push_back(std::move(j));
    }
    root["recommendations"] = recs;
    root["bubble_first_summary"] = a.answers;
    addArchitectureJson(root, r);
    json rules = json::object();
    for (const auto& [k, v] : a.rules.entries())
        rules[k] = v;
    root["rules"] = rules;
}

// Cuts `text` (a dump with indent 2) where the placeholder value of each named top-level member stands and
// puts its written array there: the document's pieces in order. A top-level member is the only place a
// line starts with two spaces and that key: strings inside the document cannot hold a raw line break.
JsonPieces spliceArrays(std::string text, std::initializer_list<std::pair<std::string_view, std::string*>> arrays) {
    const std::string placeholder = json(kPlaceholder).dump();
    std::vector<std::pair<std::size_t, std::string*>> cuts; // value position, array
    for (const auto& [key, array] : arrays) {
        const std::string needle = fmt::format("\n  \"{}\": {}", key, placeholder);
        const auto at = text.find(needle);
        if (at == std::string::npos) continue;
        cuts.push_back({at + needle.size() - placeholder.size(), array});
    }
    std::sort(cuts.begin(), cuts.end());
    JsonPieces out;
    out.texts.reserve(cuts.size() + 2);
    out.texts.push_back(std::move(text)); // the pieces around the arrays are views of it: no copy
    std::size_t from = 0;
    for (const auto& [at, array] : cuts) {
        out.parts.push_back({0, from, at - from});
        out.texts.push_back(std::move(*array));
        out.parts.push_back({out.texts.size() - 1, 0, out.texts.back().size()});
        from = at + placeholder.size();
    }
    out.parts.push_back({0, from, out.texts[0].size() - from});
    out.texts.emplace_back("\n");
    out.parts.push_back({out.texts.size() - 1, 0, 1});
    return out;
}

} // namespace

std::vector<std::string_view> JsonPieces::views() const {
    std::vector<std::string_view> out;
    out.reserve(parts.size());
    for (const auto& part : parts)
        out.push_back(std::string_view(texts[part.text]).substr(part.from, part.size));
    return out;
}

std::string JsonPieces::joined() const {
    const auto pieces = views();
    std::size_t size = 0;
    for (const auto piece : pieces)
        size += piece.size();
    std::string out;
    out.reserve(size);
    for (const auto piece : pieces)
        out += piece;
    return out;
}

std::string renderJson(const Profile& p, const AnalysisResult& r) {
    return renderJsonPieces(p, r).joined();
}

JsonPieces renderJsonPieces(const Profile& p, const AnalysisResult& r) {
    ArrayJobs jobs(r); // outlives the future: std::async's future waits for its thread when destroyed
    std::future<void> helper;
    try {
        helper = std::async(std::launch::async, [&jobs, lang = outputLanguage()] {
            ScopedLanguage in(lang);
            jobs.runAll();
        });
    } catch (const std::system_error&) {
        // no thread to be had: this thread writes both below
    }
    json root;
    root["tool"] = "BubbleScope";
    root["rank"] = p.inventory.rankLabel;

    json inv;
    inv["rank_dir"] = p.inventory.rankDir;
    inv["output_dir"] = p.inventory.outputDir;
    inv["layout"] = p.inventory.layout;
    inv["source"] = p.inventory.source;
    if (p.inventory.source == "sqlite") {
        inv["db_tables_read"] = p.inventory.dbTablesRead;
        inv["db_tables_missing"] = p.inventory.dbTablesMissing;
    }
    inv["kernel_source"] = kernelSourceName(p.inventory.kernelSource);
    inv["kernel_source_file"] = p.inventory.kernelSourceFile;
    if (p.inventory.kernelSource == KernelSource::TraceDevice) {
        json counted = json::object(), skipped = json::object();
        for (const auto& [type, n] : p.inventory.traceTaskTypesCounted)
            counted[type] = n;
        for (const auto& [type, n] : p.inventory.traceTaskTypesSkipped)
            skipped[type] = n;
        inv["trace_task_types_counted"] = counted;
        inv["trace_task_types_left_out"] = skipped;
    }
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
    for (const auto& f : p.inventory.files)
        files.push_back({{"role", f.role}, {"path", f.path}, {"bytes", f.bytes}, {"records", f.records}});
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
        addStepCommJson(s, r.anomaly, static_cast<std::size_t>(&m - r.metrics.data()));
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
            figs.push_back({{"field", f.field},
                            {"profiler_column", f.profilerColumn},
                            {"ours_us", std::round(f.oursUs * 1000) / 1000},
                            {"profiler_us", f.profilerUs ? json(*f.profilerUs) : json(nullptr)},
                            {"mismatch", f.mismatch}});
        jr["figures"] = figs;
        rows.push_back(jr);
    }
    cc["rows"] = rows;
    root["profiler_crosscheck"] = cc;

    json dq;
    json fs = json::array();
    for (const auto& f : r.findings)
        if (f.id != "db_source") // the tables read are the inventory's db_tables_read / db_tables_missing
            fs.push_back(findingJson(f));
    dq["findings"] = fs;
    dq["notes"] = r.anomaly.notes;
    root["data_quality"] = dq;
    addAnomalyJson(root, p, r);
    renderMessagesIn(root);
    // Names come from the user's files: invalid UTF-8 is replaced (U+FFFD), never an exception.
    std::string text = root.dump(2, ' ', false, json::error_handler_t::replace);
    root = json(); // the document is text now: its tree is freed before the arrays are waited for
    jobs.runAll();
    if (helper.valid()) helper.get(); // its array is finished (an exception there is rethrown here)
    SplicedArrays& spliced = jobs.arrays;
    return spliceArrays(std::move(text), {{"collectives", &spliced.collectives}, {"structures", &spliced.structures}});
}

} // namespace bs
