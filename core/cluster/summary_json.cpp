// One rank's summary as versioned JSON, and the merge of such files (see summary_json.h).
#include "cluster/summary_json.h"

#include "cluster/cluster_analysis.h"
#include "io/discovery.h"
#include "io/file_buffer.h"

#include "i18n/message.h"
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <cstdint>
#include <map>
#include <set>
#include <utility>

namespace bs {

namespace {

std::string q(std::string_view s) {
    return nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string windowJson(const RankWindow& w) {
    std::string labels;
    for (const auto& l : w.labels)
        labels += (labels.empty() ? "" : ",") + q(l);
    return fmt::format("{{\"id\":{},\"scope\":{},\"step\":{},\"start_ns\":{},\"dur_ns\":{},\"labels\":[{}]", q(w.id),
                       q(w.scope), q(w.step), w.start, w.dur, labels);
}

// A step: its figures, its start, its ops ([op name index, calls, device ns]) and its windows at their positions.
void stepJson(std::string& o, const RankStepRow& r, const std::map<std::string_view, std::size_t>& opIndex) {
    fmt::format_to(std::back_inserter(o),
                   "{{\"step\":{},\"computing_ns\":{},\"comm_not_overlapped_ns\":{},\"overlapped_ns\":{},"
                   "\"communication_ns\":{},\"free_ns\":{},\"stage_ns\":{},\"bubble_ns\":{},"
                   "\"comm_not_overlapped_excl_receive_ns\":{},\"preparing_ns\":{},\"service_ns\":{},\"tail_ns\":{},"
                   "\"comm_from_json\":{},\"comm_wait_ns\":{},\"comm_transit_ns\":{},\"start_ns\":{},"
                   "\"waits_gain_ns\":{},\"waits_replayed\":{},\"replay_error_ns\":{},\"ops\":[",
                   r.step, r.computing, r.commNotOverlapped, r.overlapped, r.communication, r.free, r.stage, r.bubble,
                   r.commNotOverlappedExclReceive, r.preparing, r.service, r.tail, r.commFromJson, r.commWait,
                   r.commTransit, r.start, r.waitsGain, r.waitsReplayed, r.replayError);
    for (std::size_t i = 0; i < r.ops.size(); ++i)
        fmt::format_to(std::back_inserter(o), "{}[{},{},{}]", i ? "," : "", opIndex.at(r.ops[i].name), r.ops[i].calls,
                       r.ops[i].dur);
    o += "],\"windows\":[";
    for (std::size_t i = 0; i < r.windows.size(); ++i) {
        const RankWindow& w = r.windows[i];
        fmt::format_to(std::back_inserter(o), "{}{},\"before\":{},\"after\":{},\"occurrence\":{},\"user_line\":{}}}",
                       i ? "," : "", windowJson(w), q(w.before), q(w.after), w.occurrence, q(w.userLine));
    }
    o += "]}";
}

// Reading: every field is checked; the first problem names the field.
struct Reader {
    std::string error;
    bool implausible = false; // the error is a value no analysis writes, not a field missing or mistyped

    bool fail(const std::string& what) {
        if (error.empty()) error = what;
        return false;
    }
    bool refuse(const std::string& what) {
        if (error.empty()) error = what, implausible = true;
        return false;
    }
    template <class T> bool field(simdjson::dom::object o, const char* key, T& out, const char* where) {
        simdjson::dom::element e;
        if (o.at_key(key).get(e)) return fail(msg("{} has no \"{}\"", where, key));
        if constexpr (std::is_same_v<T, std::int64_t>) {
            if (e.get_int64().get(out)) return fail(msg("{}.{} is not an integer", where, key));
        } else if constexpr (std::is_same_v<T, int>) {
            std::int64_t v = 0;
            if (e.get_int64().get(v) || v < INT32_MIN || v > INT32_MAX)
                return fail(msg("{}.{} is not a 32-bit integer", where, key));
            out = static_cast<int>(v);
        } else if constexpr (std::is_same_v<T, std::size_t>) {
            std::uint64_t v = 0;
            if (e.get_uint64().get(v)) return fail(msg("{}.{} is not a count", where, key));
            out = static_cast<std::size_t>(v);
        } else if constexpr (std::is_same_v<T, bool>) {
            if (e.get_bool().get(out)) return fail(msg("{}.{} is not true/false", where, key));
        } else {
            std::string_view v;
            if (e.get_string().get(v)) return fail(msg("{}.{} is not a string", where, key));
            out.assign(v);
        }
        return true;
    }
    bool array(simdjson::dom::object o, const char* key, simdjson::dom::array& out, const char* where) {
        if (o.at_key(key).get_array().get(out)) return fail(msg("{}.{} is not an array", where, key));
        return true;
    }
};

// What a summary may hold (core/cluster/README.md, "What a merge refuses"). Beside the profile readers' own
// bounds (an absolute time 0 … kMaxAbsoluteNs, one collective's durations 0 … kMaxDurationNs):
constexpr TimeNs kMaxCaptureNs = 7LL * 24 * 3600 * 1'000'000'000LL; // no capture lasts a week
constexpr std::int64_t kMaxStepNumber = 1'000'000'000'000LL;      // 10^12 steps of 1 ms: 30 years
constexpr int kMaxRankId = 999'999'999;                              // the writer reads at most 9 digits

enum class Limit { Week, Collective, Capture, Service };

std::string implausible(std::string_view place, std::int64_t value, const std::string& why) {
    return msg("{} is {}: {}", place, value, why);
}
std::string notATime() {
    return msg("an absolute time is from 0 to {} ns (1970 to ~2096)", kMaxAbsoluteNs);
}
std::string tooLong(Limit limit, TimeNs bound) {
    switch (limit) {
    case Limit::Week: return msg("more than {} ns (7 days): no capture lasts that long", kMaxCaptureNs);
    case Limit::Collective:
        return msg("more than {} ns (1000 s), the most the profile readers take for one collective", kMaxDurationNs);
    case Limit::Capture:
        return msg("more than the capture's span ({} ns), which holds all of the rank's kernel time", bound);
    case Limit::Service: return msg("more than the step's service_ns ({} ns)", bound);
    }
    return {};
}
// A duration 0 … bound; `place` names it (called only when the value is refused).
template <class Place> bool duration(Reader& rd, Place place, TimeNs v, TimeNs bound, Limit limit) {
    if (v >= 0 && v <= bound) return true;
    return rd.refuse(implausible(place(), v, v < 0 ? msg("a duration is never negative") : tooLong(limit, bound)));
}
template <class Place> bool stepNumber(Reader& rd, Place place, std::int64_t n) {
    if (n >= -1 && n <= kMaxStepNumber) return true;
    return rd.refuse(implausible(place(), n, msg("a step number is -1 (the whole capture) or from 0 to 10^12")));
}

// The capture and the rank id: read in both passes of the merge.
bool checkHeader(Reader& rd, TimeNs start, TimeNs end, std::int64_t rankId, const std::string& folder) {
    if (!plausibleStart(start)) return rd.refuse(implausible("capture.start_ns", start, notATime()));
    if (!plausibleStart(end)) return rd.refuse(implausible("capture.end_ns", end, notATime()));
    if (end < start) return rd.refuse(implausible("capture.end_ns", end, msg("before capture.start_ns ({})", start)));
    if (end - start > kMaxCaptureNs)
        return rd.refuse(implausible("capture.end_ns", end, msg("{} ns after capture.start_ns: {}", end - start,
                                                                  tooLong(Limit::Week, kMaxCaptureNs))));
    if (rankId < -1 || rankId > kMaxRankId)
        return rd.refuse(implausible("rank_id", rankId, msg("a rank id is -1 (unknown) or from 0 to {}", kMaxRankId)));
    if (rankId == -1) {
        // -1: the writer found no profiler_info_N.json and no number in the folder's name (failedRank reads the
        // name as the writer does), so a name that gives one belies it.
        const int named = failedRank(RankFolder{folder, {}, {}, {}}, {}).rankId;
        if (named >= 0)
            return rd.refuse(implausible("rank_id", -1, msg("-1 means no rank id was found, yet the folder's name {} gives rank {}",
                                                            std::filesystem::path(folder).filename().string(), named)));
    }
    return true;
}

// Time of the rank's kernels (their busy union and its parts, the gaps between them) lies inside the capture;
// the step's own span (service, prelaunch, tail) may reach past it on the host, so it is only bounded by a week.
bool checkStep(Reader& rd, const RankStepRow& r, std::size_t i, TimeNs capture) {
    const auto at = [i](const char* key) { return [i, key] { return fmt::format("steps[{}].{}", i, key); }; };
    if (!stepNumber(rd, at("step"), r.step) || !duration(rd, at("service_ns"), r.service, kMaxCaptureNs, Limit::Week) ||
        !duration(rd, at("preparing_ns"), r.preparing, r.service, Limit::Service) ||
        !duration(rd, at("tail_ns"), r.tail, r.service, Limit::Service))
        return false;
    const std::pair<const char*, TimeNs> kernelTime[] = {
        {"computing_ns", r.computing}, {"comm_not_overlapped_ns", r.commNotOverlapped}, {"overlapped_ns", r.overlapped},
        {"communication_ns", r.communication}, {"free_ns", r.free}, {"stage_ns", r.stage}, {"bubble_ns", r.bubble},
        {"comm_not_overlapped_excl_receive_ns", r.commNotOverlappedExclReceive}};
    for (const auto& [key, v] : kernelTime)
        if (!duration(rd, at(key), v, capture, Limit::Capture)) return false;
    // The replayed gain of the step's waits: -1 (not replayed) or at most the step's service.
    if (r.waitsGain != -1 && !duration(rd, at("waits_gain_ns"), r.waitsGain, r.service, Limit::Service)) return false;
    return duration(rd, at("replay_error_ns"), r.replayError, kMaxCaptureNs, Limit::Week) &&
           duration(rd, at("comm_wait_ns"), r.commWait, kMaxCaptureNs, Limit::Week) &&
           duration(rd, at("comm_transit_ns"), r.commTransit, kMaxCaptureNs, Limit::Week);
}

bool checkWindow(Reader& rd, const RankWindow& w, std::size_t i) {
    if (!plausibleStart(w.start)) return rd.refuse(implausible(fmt::format("top_windows[{}].start_ns", i), w.start, notATime()));
    return duration(rd, [i] { return fmt::format("top_windows[{}].dur_ns", i); }, w.dur, kMaxCaptureNs, Limit::Week);
}

constexpr std::size_t kCollectiveRow = 11;

// A collectives row [key index, step, start, elapse, wait, transit, sync, before_computing, before_free,
// before_exposed, gain]: the profile readers' bounds; the device time before the op lies inside the capture; the
// replayed gain of its wait kGainStepOnly, kGainNotReplayed or at most a week.
bool checkCollective(Reader& rd, const std::int64_t* v, std::size_t row, TimeNs capture) {
    const auto at = [row](const char* what) { return [row, what] { return fmt::format("collectives.rows[{}] {}", row, what); }; };
    if (!stepNumber(rd, at("step"), v[1])) return false;
    if (!plausibleStart(v[2])) return rd.refuse(implausible(at("start")(), v[2], notATime()));
    return duration(rd, at("elapse"), v[3], kMaxDurationNs, Limit::Collective) &&
           duration(rd, at("wait"), v[4], kMaxDurationNs, Limit::Collective) &&
           duration(rd, at("transit"), v[5], kMaxDurationNs, Limit::Collective) &&
           duration(rd, at("sync"), v[6], kMaxDurationNs, Limit::Collective) &&
           duration(rd, at("before_computing"), v[7], capture, Limit::Capture) &&
           duration(rd, at("before_free"), v[8], capture, Limit::Capture) &&
           duration(rd, at("before_exposed"), v[9], capture, Limit::Capture) &&
           (v[10] == kGainStepOnly || v[10] == kGainNotReplayed ||
            duration(rd, at("gain"), v[10], kMaxCaptureNs, Limit::Week));
}

// The message for a file the reader stopped at; a value no analysis writes also says what to do.
std::string refusalOf(const std::string& file, const Reader& rd) {
    if (!rd.implausible) return file + ": " + rd.error;
    return msg("{}: {}. No analysis writes that (the summary was damaged or edited): write it again ({}) and merge again.",
               file, rd.error, "bubblescope analyze RANK_FOLDER --summary DIR");
}

bool readWindowPosition(Reader& rd, simdjson::dom::object o, RankWindow& w) {
    std::int64_t occurrence = 0;
    if (!(rd.field(o, "before", w.before, "steps[].windows[]") && rd.field(o, "after", w.after, "steps[].windows[]") &&
          rd.field(o, "occurrence", occurrence, "steps[].windows[]") &&
          rd.field(o, "user_line", w.userLine, "steps[].windows[]")))
        return false;
    if (occurrence < 0 || occurrence > UINT32_MAX) return rd.refuse(implausible("steps[].windows[].occurrence", occurrence,
                                                                                msg("an occurrence is from 0 to {}", UINT32_MAX)));
    w.occurrence = static_cast<std::uint32_t>(occurrence);
    return true;
}

bool readWindow(Reader& rd, simdjson::dom::element e, RankWindow& w, bool positioned);

// A step's ops ([op name index, calls, device ns]) and windows.
bool readStepDetail(Reader& rd, simdjson::dom::object o, RankStepRow& r, const std::vector<std::string_view>& opNames,
                    TimeNs capture) {
    simdjson::dom::array ops, windows;
    if (!rd.field(o, "start_ns", r.start, "steps[]") || !rd.array(o, "ops", ops, "steps[]") ||
        !rd.array(o, "windows", windows, "steps[]"))
        return false;
    if (!plausibleStart(r.start)) return rd.refuse(implausible("steps[].start_ns", r.start, notATime()));
    for (auto e : ops) {
        simdjson::dom::array a;
        std::int64_t v[3];
        std::size_t n = 0;
        if (e.get_array().get(a)) return rd.fail("a steps[].ops entry is not an array");
        for (auto x : a) {
            if (n == 3 || x.get_int64().get(v[n])) return rd.fail("a steps[].ops entry is not 3 integers");
            ++n;
        }
        if (n != 3 || v[0] < 0 || static_cast<std::uint64_t>(v[0]) >= opNames.size())
            return rd.fail("a steps[].ops entry is not [op name index, calls, device ns]");
        if (v[1] < 0 || v[1] > UINT32_MAX)
            return rd.refuse(implausible("steps[].ops calls", v[1], msg("a call count is from 0 to {}", UINT32_MAX)));
        // Kernels of one op may overlap on several streams: bounded by a week, not by the capture.
        if (!duration(rd, [] { return std::string("steps[].ops device ns"); }, v[2], kMaxCaptureNs, Limit::Week))
            return false;
        r.ops.push_back({std::string(opNames[static_cast<std::size_t>(v[0])]), static_cast<std::uint32_t>(v[1]), v[2]});
    }
    for (auto e : windows) {
        RankWindow w;
        if (r.windows.size() == kStepWindowsKept)
            return rd.fail(msg("steps[].windows holds more than {} entries", kStepWindowsKept));
        if (!readWindow(rd, e, w, true)) return false;
        if (!plausibleStart(w.start)) return rd.refuse(implausible("steps[].windows[].start_ns", w.start, notATime()));
        if (!duration(rd, [] { return std::string("steps[].windows[].dur_ns"); }, w.dur, capture, Limit::Capture))
            return false;
        r.windows.push_back(std::move(w));
    }
    return true;
}

bool readCount(Reader& rd, simdjson::dom::object o, const char* key, std::uint32_t& out) {
    std::int64_t v = 0;
    if (!rd.field(o, key, v, "steps[]")) return false;
    if (v < 0 || v > UINT32_MAX) return rd.refuse(implausible(fmt::format("steps[].{}", key), v, msg("a count is from 0 to {}", UINT32_MAX)));
    out = static_cast<std::uint32_t>(v);
    return true;
}

bool readStep(Reader& rd, simdjson::dom::element e, RankStepRow& r, const std::vector<std::string_view>& opNames,
              TimeNs capture) {
    simdjson::dom::object o;
    if (e.get_object().get(o)) return rd.fail("a steps[] entry is not an object");
    return readStepDetail(rd, o, r, opNames, capture) && rd.field(o, "step", r.step, "steps[]") && rd.field(o, "computing_ns", r.computing, "steps[]") &&
           rd.field(o, "comm_not_overlapped_ns", r.commNotOverlapped, "steps[]") &&
           rd.field(o, "overlapped_ns", r.overlapped, "steps[]") &&
           rd.field(o, "communication_ns", r.communication, "steps[]") && rd.field(o, "free_ns", r.free, "steps[]") &&
           rd.field(o, "stage_ns", r.stage, "steps[]") && rd.field(o, "bubble_ns", r.bubble, "steps[]") &&
           rd.field(o, "comm_not_overlapped_excl_receive_ns", r.commNotOverlappedExclReceive, "steps[]") &&
           rd.field(o, "preparing_ns", r.preparing, "steps[]") && rd.field(o, "service_ns", r.service, "steps[]") &&
           rd.field(o, "tail_ns", r.tail, "steps[]") && rd.field(o, "comm_from_json", r.commFromJson, "steps[]") &&
           rd.field(o, "comm_wait_ns", r.commWait, "steps[]") &&
           rd.field(o, "comm_transit_ns", r.commTransit, "steps[]") &&
           rd.field(o, "waits_gain_ns", r.waitsGain, "steps[]") && readCount(rd, o, "waits_replayed", r.waitsReplayed) &&
           rd.field(o, "replay_error_ns", r.replayError, "steps[]");
}

bool readWindow(Reader& rd, simdjson::dom::element e, RankWindow& w, bool positioned) {
    simdjson::dom::object o;
    if (e.get_object().get(o)) return rd.fail("a top_windows[] entry is not an object");
    if (positioned && !readWindowPosition(rd, o, w)) return false;
    simdjson::dom::array labels;
    if (!(rd.field(o, "id", w.id, "top_windows[]") && rd.field(o, "scope", w.scope, "top_windows[]") &&
          rd.field(o, "step", w.step, "top_windows[]") && rd.field(o, "start_ns", w.start, "top_windows[]") &&
          rd.field(o, "dur_ns", w.dur, "top_windows[]") && rd.array(o, "labels", labels, "top_windows[]")))
        return false;
    for (auto l : labels) {
        std::string_view v;
        if (l.get_string().get(v)) return rd.fail("top_windows[].labels holds a non-string");
        w.labels.emplace_back(v);
    }
    return true;
}

// The collectives object: checked whole first, then each row handed over as
// (name, [key index, step, start, elapse, wait, transit, sync, before ×3]) — nothing is handed over from a bad
// object.
template <class Sink> bool readCollectives(Reader& rd, simdjson::dom::object o, TimeNs capture, Sink sink) {
    simdjson::dom::object coll;
    simdjson::dom::array keys, rows;
    if (o.at_key("collectives").get_object().get(coll)) return rd.fail("the summary has no collectives object");
    if (!rd.array(coll, "keys", keys, "collectives") || !rd.array(coll, "rows", rows, "collectives")) return false;
    std::vector<std::string_view> names;
    for (auto k : keys) {
        std::string_view v;
        if (k.get_string().get(v)) return rd.fail("collectives.keys holds a non-string");
        names.push_back(v);
    }
    for (int pass = 0; pass < 2; ++pass) {
        std::size_t index = 0;
        for (auto row : rows) {
            simdjson::dom::array a;
            std::int64_t v[kCollectiveRow];
            std::size_t n = 0;
            if (row.get_array().get(a)) return rd.fail("a collectives.rows entry is not an array");
            for (auto x : a) {
                if (n == kCollectiveRow || x.get_int64().get(v[n]))
                    return rd.fail(msg("a collectives.rows entry is not {} integers", kCollectiveRow));
                ++n;
            }
            if (n != kCollectiveRow || v[0] < 0 || static_cast<std::uint64_t>(v[0]) >= names.size())
                return rd.fail("a collectives.rows entry is not [key index, step, start, elapse, wait, transit, sync, "
                               "before_computing, before_free, before_exposed, gain]");
            if (pass == 0 && !checkCollective(rd, v, index, capture)) return false;
            if (pass == 1) sink(names[static_cast<std::size_t>(v[0])], v);
            ++index;
        }
    }
    return true;
}

RankCollective collectiveOf(std::string_view key, const std::int64_t* v) {
    RankCollective c;
    c.key.assign(key);
    c.step = v[1], c.start = v[2], c.elapse = v[3], c.wait = v[4], c.transit = v[5], c.sync = v[6];
    c.beforeComputing = v[7], c.beforeFree = v[8], c.beforeExposed = v[9], c.gain = v[10];
    return c;
}

// The header only (format, producer, capture span) or everything.
bool readSummary(Reader& rd, simdjson::dom::element doc, ParsedRankSummary& out, bool headerOnly,
                 bool withCollectives = true) {
    simdjson::dom::object o;
    if (doc.get_object().get(o)) return rd.fail("the file is not a JSON object");
    int format = 0;
    if (!rd.field(o, "bubblescope_rank_summary", format, "the summary"))
        return rd.fail("not a BubbleScope rank summary (no \"bubblescope_rank_summary\" field)");
    if (format != kRankSummaryFormat)
        return rd.fail(msg("summary format {} (this program reads format {})", format, kRankSummaryFormat));
    RankSummary& s = out.summary;
    simdjson::dom::object capture, config, cross;
    if (!(rd.field(o, "producer", out.producer, "the summary") && o.at_key("capture").get_object().get(capture) == 0 &&
          rd.field(capture, "start_ns", s.captureStart, "capture") && rd.field(capture, "end_ns", s.captureEnd, "capture")))
        return rd.fail("the summary has no capture span");
    if (headerOnly) return true;
    if (!(rd.field(o, "label", s.label, "the summary") && rd.field(o, "folder", s.folder, "the summary") &&
          rd.field(o, "rank_id", s.rankId, "the summary") && rd.field(o, "error", s.error, "the summary") &&
          rd.field(o, "has_communication_json", s.hasCommunicationJson, "the summary") &&
          rd.field(o, "hidden_issue", s.hiddenIssue, "the summary")))
        return false;
    if (!checkHeader(rd, s.captureStart, s.captureEnd, s.rankId, s.folder)) return false;
    if (std::string_view c; !o.at_key("collection").get_string().get(c)) out.collection.assign(c);
    if (o.at_key("config").get_object().get(config)) return rd.fail("the summary has no config object");
    if (!(rd.field(config, "profiler_level", s.profilerLevel, "config") &&
          rd.field(config, "aic_metrics", s.aicMetrics, "config") && rd.field(config, "activities", s.activities, "config")))
        return false;
    if (o.at_key("cross_check").get_object().get(cross)) return rd.fail("the summary has no cross_check object");
    if (!(rd.field(cross, "rows", s.crossCheckRows, "cross_check") &&
          rd.field(cross, "mismatches", s.crossCheckMismatches, "cross_check")))
        return false;
    simdjson::dom::array steps, windows, problems;
    if (!rd.array(o, "data_problems", problems, "the summary")) return false;
    for (auto p : problems) {
        std::string_view v;
        if (p.get_string().get(v)) return rd.fail("data_problems holds a non-string");
        if (s.dataProblems.size() == kMaxDataProblems) return rd.fail(msg("data_problems holds more than {} entries", kMaxDataProblems));
        s.dataProblems.emplace_back(v);
    }
    simdjson::dom::array opNameArray;
    if (!rd.array(o, "op_names", opNameArray, "the summary")) return false;
    std::vector<std::string_view> opNames;
    for (auto n : opNameArray) {
        std::string_view v;
        if (n.get_string().get(v)) return rd.fail("op_names holds a non-string");
        opNames.push_back(v);
    }
    if (!rd.array(o, "steps", steps, "the summary") || !rd.array(o, "top_windows", windows, "the summary")) return false;
    for (auto e : steps) {
        RankStepRow r;
        if (!readStep(rd, e, r, opNames, s.captureEnd - s.captureStart) || !checkStep(rd, r, s.steps.size(), s.captureEnd - s.captureStart)) return false;
        s.steps.push_back(r);
    }
    for (auto e : windows) {
        RankWindow w;
        if (!readWindow(rd, e, w, false) || !checkWindow(rd, w, s.topWindows.size())) return false;
        s.topWindows.push_back(std::move(w));
    }
    if (!withCollectives) return true;
    return readCollectives(rd, o, s.captureEnd - s.captureStart, [&](std::string_view key, const std::int64_t* v) {
        s.collectives.push_back(collectiveOf(key, v));
    });
}

bool labelLess(const std::string& a, const std::string& b) {
    std::size_t i = 0, j = 0;
    while (i <= a.size() && j <= b.size()) {
        const std::size_t ie = std::min(a.find('/', i), a.size()), je = std::min(b.find('/', j), b.size());
        const std::string x = a.substr(i, ie - i), y = b.substr(j, je - j);
        if (x != y) return naturalLess(x, y);
        if (ie == a.size() || je == b.size()) return ie == a.size() && je != b.size();
        i = ie + 1, j = je + 1;
    }
    return false;
}

// Pass 1 of the merge: only the header fields at the front of the file (simdjson On Demand stops there).
ParsedRankSummary parseHeader(simdjson::ondemand::parser& parser, const FileBuffer& fb, const std::string& file) {
    ParsedRankSummary out;
    const auto bad = [&](const std::string& what) {
        out.error = fmt::format("{}: {}", file, what);
        return out;
    };
    simdjson::ondemand::document doc;
    if (parser.iterate(simdjson::padded_string_view(fb.begin(), fb.length, fb.length + kReadPadding)).get(doc))
        return bad(msg("not valid JSON"));
    std::int64_t format = 0;
    if (doc["bubblescope_rank_summary"].get_int64().get(format))
        return bad(msg("not a BubbleScope rank summary (no {} field)", "\"bubblescope_rank_summary\""));
    if (format != kRankSummaryFormat) {
        out.error = msg("{}: summary format {} (this program reads format {})", file, format, kRankSummaryFormat);
        return out;
    }
    std::string_view producer, label, folder;
    std::int64_t rankId = 0;
    simdjson::ondemand::object capture;
    if (doc["producer"].get_string().get(producer) || doc["label"].get_string().get(label))
        return bad("the summary has no producer or capture span");
    if (doc["folder"].get_string().get(folder)) return bad(msg("{} has no \"{}\"", "the summary", "folder"));
    if (doc["rank_id"].get_int64().get(rankId)) return bad(msg("{}.{} is not an integer", "the summary", "rank_id"));
    if (doc["capture"].get_object().get(capture) || capture["start_ns"].get_int64().get(out.summary.captureStart) ||
        capture["end_ns"].get_int64().get(out.summary.captureEnd))
        return bad("the summary has no producer or capture span");
    out.producer.assign(producer);
    out.summary.label.assign(label);
    out.summary.folder.assign(folder);
    Reader rd;
    if (!checkHeader(rd, out.summary.captureStart, out.summary.captureEnd, rankId, out.summary.folder)) {
        out.error = refusalOf(file, rd);
        return out;
    }
    out.summary.rankId = static_cast<int>(rankId);
    std::string_view collection; // absent in summaries of a rank analysed on its own: empty
    if (!doc["collection"].get_string().get(collection)) out.collection.assign(collection);
    return out;
}

FileBuffer readSummaryFile(const std::string& file, std::string& error) {
    FileBuffer fb = readWholeFile(file, 1ULL << 30);
    if (!fb.error.empty()) error = fb.error.find(file) == std::string::npos ? file + ": " + fb.error : fb.error;
    return fb;
}

} // namespace

std::string renderRankSummaryJson(const RankSummary& s, std::string_view producer, std::string_view collection,
                                  std::string_view compareDigest) {
    std::string o;
    o.reserve(4096 + s.collectives.size() * 96);
    fmt::format_to(std::back_inserter(o),
                   "{{\"bubblescope_rank_summary\":{},\"producer\":{},\"label\":{},\"folder\":{},\"collection\":{},"
                   "\"rank_id\":{},\"error\":{},\"capture\":{{\"start_ns\":{},\"end_ns\":{}}},",
                   kRankSummaryFormat, q(producer), q(s.label), q(s.folder), q(collection), s.rankId, q(s.error),
                   s.captureStart, s.captureEnd);
    fmt::format_to(std::back_inserter(o),
                   "\"config\":{{\"profiler_level\":{},\"aic_metrics\":{},\"activities\":{}}},"
                   "\"has_communication_json\":{},\"hidden_issue\":{},\"cross_check\":{{\"rows\":{},\"mismatches\":{}}},",
                   q(s.profilerLevel), q(s.aicMetrics), q(s.activities), s.hasCommunicationJson, s.hiddenIssue,
                   s.crossCheckRows, s.crossCheckMismatches);
    o += "\"data_problems\":[";
    for (std::size_t i = 0; i < s.dataProblems.size(); ++i)
        o += (i ? "," : "") + q(s.dataProblems[i]);
    o += "],";
    // Op names once, the steps' ops by index.
    std::map<std::string_view, std::size_t> opIndex;
    std::vector<std::string_view> opNames;
    for (const auto& st : s.steps)
        for (const auto& op : st.ops)
            if (opIndex.emplace(op.name, opNames.size()).second) opNames.push_back(op.name);
    o += "\"op_names\":[";
    for (std::size_t i = 0; i < opNames.size(); ++i)
        o += (i ? "," : "") + q(opNames[i]);
    o += "],\n\"steps\":[";
    for (std::size_t i = 0; i < s.steps.size(); ++i) {
        if (i) o += ',';
        o += "\n";
        stepJson(o, s.steps[i], opIndex);
    }
    o += "],\n\"top_windows\":[";
    for (std::size_t i = 0; i < s.topWindows.size(); ++i)
        fmt::format_to(std::back_inserter(o), "{}\n{}}}", i ? "," : "", windowJson(s.topWindows[i]));
    // Collectives: each distinct name once, rows [key index, step, start, elapse, wait, transit, sync,
    // before_computing, before_free, before_exposed, gain].
    std::map<std::string_view, std::size_t> index;
    std::vector<std::string_view> keys;
    for (const auto& c : s.collectives)
        if (index.emplace(c.key, keys.size()).second) keys.push_back(c.key);
    o += "],\n\"collectives\":{\"keys\":[";
    for (std::size_t i = 0; i < keys.size(); ++i)
        o += (i ? "," : "") + q(keys[i]);
    o += "],\n\"rows\":[";
    for (std::size_t i = 0; i < s.collectives.size(); ++i) {
        const RankCollective& c = s.collectives[i];
        fmt::format_to(std::back_inserter(o), "{}\n[{},{},{},{},{},{},{},{},{},{},{}]", i ? "," : "", index[c.key], c.step,
                       c.start, c.elapse, c.wait, c.transit, c.sync, c.beforeComputing, c.beforeFree, c.beforeExposed,
                       c.gain);
    }
    o += "]}";
    // The rank as `bubblescope compare` needs it (a stored baseline, core/compare/README.md).
    if (!compareDigest.empty()) o.append(",\n\"compare\":").append(compareDigest);
    o += "}\n";
    return o;
}

ParsedRankSummary parseRankSummaryJson(std::string_view text, const std::string& file) {
    ParsedRankSummary out;
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    const simdjson::padded_string padded(text);
    if (auto err = parser.parse(padded).get(doc); err) {
        out.error = msg("{}: not valid JSON ({})", file, simdjson::error_message(err));
        return out;
    }
    Reader rd;
    if (!readSummary(rd, doc, out, false)) {
        out.error = refusalOf(file, rd);
        out.summary = {};
    }
    return out;
}

namespace {
SummaryMerge mergeImpl(const std::vector<std::string>& files, const SummaryMergeOptions& options, bool nameMissing);
} // namespace

std::string summaryProducer() {
    return "bubblescope " BUBBLESCOPE_VERSION;
}

std::vector<std::string> summaryFilesIn(const std::string& dir) {
    std::vector<std::string> files;
    std::error_code ec;
    const std::string suffix = kSummarySuffix;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0 &&
            it->is_regular_file(ec))
            files.push_back(it->path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string summaryFileName(const std::string& label) {
    std::string out;
    for (const unsigned char c : label) {
        if (std::isalnum(c) || c == '.' || c == '_' || c == '-')
            out += static_cast<char>(c);
        else
            out += fmt::format("%{:02X}", c);
    }
    return out + kSummarySuffix;
}

ClusterResult mergeRankSummaryFiles(const std::vector<std::string>& files, std::string_view producer,
                                    const std::string& parentDir) {
    SummaryMergeOptions options;
    options.producer = producer;
    options.expectParent = parentDir;
    return mergeImpl(files, options, false).cluster;
}

SummaryMerge mergeSummaries(const std::vector<std::string>& files, const SummaryMergeOptions& options) {
    return mergeImpl(files, options, true);
}

namespace {

// A summary as pass 1 of the merge knows it (file: npos for an expected rank without a summary).
struct Head {
    std::size_t file;
    TimeNs a, b;
    std::string label;
    const RankFolder* missing;
    std::string collection, folder; // as the summary records them
    Head(std::size_t file, TimeNs a, TimeNs b, std::string label, const RankFolder* missing = nullptr,
         std::string collection = {}, std::string folder = {})
        : file(file), a(a), b(b), label(std::move(label)), missing(missing), collection(std::move(collection)),
          folder(std::move(folder)) {}
};

// One folder however a task wrote its path ("job", "./job/", "/abs/job"): resolved here when it exists; else
// as written, normalised (a relative path then stays relative: it was relative to the task's folder).
std::string folderKey(const std::string& path) {
    std::error_code ec;
    std::filesystem::path p(path);
    if (std::filesystem::exists(p, ec)) p = std::filesystem::canonical(p, ec);
    if (ec || p.empty()) p = path;
    std::string key = p.lexically_normal().string();
    while (key.size() > 1 && key.back() == '/')
        key.pop_back();
    return key;
}

// Whether two folder keys may name one folder: equal, or one is relative (not found here) and the other ends in it.
bool sameFolder(const std::string& x, const std::string& y) {
    const auto endsIn = [](const std::string& full, const std::string& rel) {
        return !rel.empty() && rel.front() != '/' && full.size() > rel.size() && full[full.size() - rel.size() - 1] == '/' &&
               full.compare(full.size() - rel.size(), rel.size(), rel) == 0;
    };
    return x == y || endsIn(x, y) || endsIn(y, x);
}

// Refuses the summaries that record another collection than the one merged, whatever their capture, and
// returns the merged one as recorded ("" when no summary records one). The one merged: the --expect folder
// when a summary records it, else the one most summaries record (a tie: one listable here, then by name).
std::string refuseOtherCollections(std::vector<Head>& heads, const std::vector<std::string>& files,
                                   const std::string& expect, std::vector<std::string>& refused) {
    struct Recorded {
        std::string path; // as the first summary recording it wrote it
        std::size_t count = 0;
        bool here = false;
    };
    std::map<std::string, std::string> keyOf; // recorded path → folderKey
    std::map<std::string, Recorded> byKey;
    std::size_t recording = 0;
    for (const Head& h : heads) {
        if (h.collection.empty()) continue; // a rank analysed on its own records none
        auto [it, fresh] = keyOf.try_emplace(h.collection);
        if (fresh) it->second = folderKey(h.collection);
        Recorded& r = byKey[it->second];
        if (r.count++ == 0) r.path = h.collection;
        ++recording;
    }
    if (byKey.empty()) return {};
    auto chosen = byKey.end();
    if (!expect.empty()) {
        const std::string given = folderKey(expect);
        for (auto it = byKey.begin(); it != byKey.end(); ++it)
            if (sameFolder(it->first, given) && (chosen == byKey.end() || it->second.count > chosen->second.count))
                chosen = it;
    }
    const bool byExpect = chosen != byKey.end();
    if (!byExpect) {
        std::error_code ec;
        for (auto& [key, r] : byKey)
            r.here = std::filesystem::is_directory(r.path, ec);
        chosen = std::max_element(byKey.begin(), byKey.end(), [](const auto& x, const auto& y) {
            return std::pair(x.second.count, x.second.here) < std::pair(y.second.count, y.second.here);
        });
    }
    const Recorded& kept = chosen->second;
    std::erase_if(heads, [&](const Head& h) {
        if (h.collection.empty() || sameFolder(keyOf[h.collection], chosen->first)) return false;
        refused.push_back(byExpect ? msg("{} is of another collection: it records {}, not {} (--expect); keep one "
                                         "collection's summaries in the folder (merge each on its own).",
                                         files[h.file], h.collection, expect)
                                   : msg("{} is of another collection: it records {}, while {} of the {} summaries "
                                         "record {}; keep one collection's summaries in the folder (merge each on its own).",
                                         files[h.file], h.collection, kept.count, recording, kept.path));
        return true;
    });
    return kept.path;
}

// With the collection listed here: a summary whose rank is none of its rank folders is refused. It is one by its
// label, or, for a rank analysed on its own (labelled by its folder's name), by its folder. A folder listing no
// rank folder tells nothing: nothing is refused.
void refuseStrangers(std::vector<Head>& heads, const DiscoveryResult& expected, const std::string& parentDir,
                     const std::vector<std::string>& files, std::vector<std::string>& refused) {
    std::set<std::string_view> labels;
    for (const RankFolder& r : expected.ranks)
        if (isRankFolder(r)) labels.insert(r.label);
    if (labels.empty()) return;
    std::set<std::string> roots; // built at the first summary whose label is not listed
    std::erase_if(heads, [&](const Head& h) {
        if (labels.count(h.label)) return false;
        if (roots.empty())
            for (const RankFolder& r : expected.ranks)
                if (isRankFolder(r)) roots.insert(folderKey(r.root));
        if (!h.folder.empty() && h.label == std::filesystem::path(h.folder).filename().string() &&
            roots.count(folderKey(h.folder)))
            return false;
        refused.push_back(msg("{} is the summary of {}, which is not a rank folder of {} ({} rank folders there): keep "
                              "only that collection's summaries in the folder, or give the collection they come from "
                              "(--expect PARENT).",
                              files[h.file], h.label, parentDir, labels.size()));
        return true;
    });
}

SummaryMerge mergeImpl(const std::vector<std::string>& files, const SummaryMergeOptions& options, bool nameMissing) {
    simdjson::ondemand::parser headParser;
    simdjson::dom::parser parser;
    SummaryMerge out;
    std::vector<std::string>& refused = out.refused;
    // Pass 1: the headers. Each is checked alone (readable, this program's, plausible capture and rank id), then
    // against the others: of the collection merged, one of its ranks, its capture overlapping the span most
    // captures share, one summary per rank.
    constexpr std::size_t kNoFile = static_cast<std::size_t>(-1);
    std::vector<Head> heads;
    for (std::size_t i = 0; i < files.size(); ++i) {
        std::string readError;
        const FileBuffer fb = readSummaryFile(files[i], readError);
        ParsedRankSummary h;
        if (readError.empty()) h = parseHeader(headParser, fb, files[i]);
        else h.error = readError;
        if (!h.error.empty()) {
            refused.push_back(h.error);
        } else if (h.producer != options.producer) {
            refused.push_back(msg("{} was written by {}, not by {}: analyse that rank again with this version.",
                                          files[i], h.producer.empty() ? msg("an unnamed program") : h.producer,
                                          options.producer));
        } else {
            heads.push_back({i, h.summary.captureStart, h.summary.captureEnd, h.summary.label, nullptr,
                             std::move(h.collection), std::move(h.summary.folder)});
        }
    }
    const std::string recorded = refuseOtherCollections(heads, files, options.expectParent, refused);
    // The collection: given, else the folder the summaries record (when this machine can list it).
    std::string parentDir = options.expectParent;
    DiscoveryResult expected;
    std::size_t expectedRanks = 0;
    std::error_code ec;
    if (nameMissing) {
        if (parentDir.empty() && !recorded.empty()) {
            if (std::filesystem::is_directory(recorded, ec)) {
                parentDir = recorded;
            } else {
                out.cluster.findings.push_back(
                    {"summary_collection_unreachable", "warning",
                     msg("The summaries were written from {}, which cannot be listed here: ranks without a "
                                 "summary cannot be named. Give the collection folder (--expect PARENT).",
                                 recorded)});
            }
        } else if (parentDir.empty()) {
            out.cluster.findings.push_back(
                {"summary_collection_unknown", "warning",
                 msg("The summaries do not record their collection folder (each rank was analysed on its own): ranks "
                     "without a summary cannot be named. Give the collection folder (--expect PARENT).")});
        }
        if (!parentDir.empty()) {
            expected = discoverProfiles(parentDir);
            out.collection = parentDir;
            refuseStrangers(heads, expected, parentDir, files, refused);
        }
    }
    // The order `analyze PARENT` takes the ranks in: by label, folder by folder in natural order.
    std::stable_sort(heads.begin(), heads.end(), [](const Head& x, const Head& y) { return labelLess(x.label, y.label); });
    // A rank that failed to load has no capture (0, 0): it joins without the time check, named with its error.
    auto unknown = [](const Head& h) { return h.a == 0 && h.b == 0; };
    std::size_t anchor = 0, best = 0;
    {
        // Overlap counts by a sweep: for each capture, how many captures overlap it (O(n log n)).
        std::vector<TimeNs> starts, ends;
        for (const auto& h : heads)
            if (!unknown(h)) starts.push_back(h.a), ends.push_back(h.b);
        std::sort(starts.begin(), starts.end());
        std::sort(ends.begin(), ends.end());
        for (std::size_t k = 0; k < heads.size(); ++k) {
            if (unknown(heads[k])) continue;
            // Captures starting at or before this one's end, minus those that ended before it started.
            const auto startedBy = static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), heads[k].b) - starts.begin());
            const auto endedBefore = static_cast<std::size_t>(std::lower_bound(ends.begin(), ends.end(), heads[k].a) - ends.begin());
            const std::size_t n = startedBy - endedBefore;
            if (n > best) best = n, anchor = k;
        }
    }
    if (!heads.empty()) {
        const Head a = heads[anchor];
        std::erase_if(heads, [&](const Head& h) {
            if (unknown(h) || (h.b >= a.a && h.a <= a.b)) return false;
            refused.push_back(msg("{} is of another collection: its capture does not overlap the time span the "
                                          "other ranks share; keep one collection's summaries in the folder.",
                                          files[h.file]));
            return true;
        });
    }
    // The same rank twice (a copy, or two collections' summaries in one folder): the first by file order stays.
    for (std::size_t k = 1; k < heads.size();) {
        if (heads[k].label == heads[k - 1].label) {
            const bool laterFirst = heads[k].file < heads[k - 1].file;
            const Head& drop = laterFirst ? heads[k - 1] : heads[k];
            const Head& keep = laterFirst ? heads[k] : heads[k - 1];
            refused.push_back(msg("{} is a second summary of rank {} (besides {}): keep one summary per rank in "
                                          "the folder.", files[drop.file], drop.label, files[keep.file]));
            heads.erase(heads.begin() + static_cast<std::ptrdiff_t>(laterFirst ? k - 1 : k));
        } else {
            ++k;
        }
    }
    // Each rank of the collection without a summary joins in its place, as not analysed.
    if (!parentDir.empty() && nameMissing) {
        std::map<std::string_view, bool> present;
        for (const auto& h : heads)
            present[h.label] = true;
        for (const RankFolder& r : expected.ranks) {
            if (!isRankFolder(r)) continue;
            ++expectedRanks;
            if (!present.count(r.label)) heads.push_back({kNoFile, 0, 0, r.label, &r});
        }
        std::stable_sort(heads.begin(), heads.end(), [](const Head& x, const Head& y) { return labelLess(x.label, y.label); });
    }
    const auto missingMessage = [&](const std::string& why) {
        return msg("{}; analyse it again ({}) and merge again.", why, "bubblescope analyze RANK_FOLDER --summary DIR");
    };
    ClusterBuilder builder;
    for (const auto& h : heads) {
        if (h.file == kNoFile) {
            out.missing.push_back(h.label);
            builder.beginRank(failedRank(*h.missing, missingMessage(msg("no summary of this rank among the files merged "
                                                                        "(its task did not finish, or its summary was refused)"))));
            continue;
        }
        // Pass 2: the whole file; its collectives go straight into the cross-rank table.
        std::string error;
        const FileBuffer fb = readSummaryFile(files[h.file], error);
        simdjson::dom::element doc;
        if (error.empty())
            if (auto err = parser.parse(fb.begin(), fb.length, false).get(doc); err)
                error = msg("{}: not valid JSON ({})", files[h.file], simdjson::error_message(err));
        ParsedRankSummary s;
        Reader rd;
        simdjson::dom::object o;
        if (error.empty() && (!readSummary(rd, doc, s, false, false) || doc.get_object().get(o) ||
                              !readCollectives(rd, o, s.summary.captureEnd - s.summary.captureStart,
                                               [](std::string_view, const std::int64_t*) {})))
            error = refusalOf(files[h.file], rd);
        if (!error.empty()) {
            refused.push_back(error);
            for (const RankFolder& r : expected.ranks)
                if (r.label == h.label) {
                    out.missing.push_back(h.label);
                    builder.beginRank(failedRank(r, missingMessage(msg("its summary was refused: {}", error))));
                }
            continue;
        }
        const TimeNs capture = s.summary.captureEnd - s.summary.captureStart;
        const int at = builder.beginRank(std::move(s.summary));
        ++out.merged;
        // Each name interned once per file, then the rows by index.
        std::vector<std::int64_t> ids;
        readCollectives(rd, o, capture, [&](std::string_view key, const std::int64_t* v) {
            const auto k = static_cast<std::size_t>(v[0]);
            if (k >= ids.size()) ids.resize(k + 1, -1);
            if (ids[k] < 0) ids[k] = builder.collectiveKey(key);
            builder.addCollective(at, static_cast<std::uint32_t>(ids[k]), collectiveOf({}, v));
        });
    }
    std::vector<ClusterFinding> early = std::move(out.cluster.findings);
    out.cluster = builder.finish(parentDir);
    for (auto& f : early)
        out.cluster.findings.push_back(std::move(f));
    if (!out.missing.empty()) {
        std::string names;
        for (std::size_t k = 0; k < out.missing.size() && k < 20; ++k)
            names += (k ? ", " : "") + out.missing[k];
        if (out.missing.size() > 20) names += msg(" and {} more", out.missing.size() - 20);
        out.cluster.findings.push_back(
            {"summary_missing", "error",
             out.missing.size() == 1
                 ? msg("{} of the {} ranks of {} has no summary that could be merged: {}. It is listed as not "
                       "analysed; the comparison covers the others.",
                       out.missing.size(), expectedRanks, parentDir, names)
                 : msg("{} of the {} ranks of {} have no summary that could be merged: {}. They are listed as not "
                       "analysed; the comparison covers the others.",
                       out.missing.size(), expectedRanks, parentDir, names)});
    }
    for (const auto& r : refused)
        out.cluster.findings.push_back({"summary_refused", "error", r});
    return out;
}

} // namespace

} // namespace bs
