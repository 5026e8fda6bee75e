#include "io/side_file_readers.h"

#include "i18n/message.h"
#include "io/communication_json.h"
#include "io/csv_reader.h"
#include "io/file_buffer.h"
#include "io/load_control.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace bs {

namespace {

bool readOrReport(const std::string& path, FileBuffer& fb, FindingSink& sink,
                  std::uint64_t maxBytes = (1ULL << 30)) {
    fb = readWholeFile(path, maxBytes);
    if (!fb.error.empty()) {
        sink.add({"file_unreadable", Severity::Error, path, -1, -1, fb.error, msg("This file is ignored."),
                  msg("Check the file's permissions and that the collection finished writing it."), ""});
        return false;
    }
    return true;
}

Finding badJson(const std::string& path, const std::string& what) {
    return {"json_invalid",
            Severity::Warning,
            path,
            -1,
            -1,
            what,
            msg("This file is ignored."),
            msg("Re-run the profiler's offline analysis (torch_npu.profiler.profiler.analyse) to rewrite it."),
            ""};
}

// A duration in ms (Elapse, Transit, Wait, …): absent or N/A → 0 without a finding; out of range → 0
// with one (commjson::durationNs).
TimeNs msToNs(const nlohmann::json& j, const char* key, FindingSink& sink, const std::string& path,
              const std::string& place) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null() || (it->is_string() && it->get<std::string>() == "N/A")) return 0;
    const auto ns = commjson::durationNs(it->is_number() ? it->get<double>() : -1.0);
    if (!ns) {
        commjson::outOfRange(sink, path, place, it->dump(), msg("a duration in ms from 0 to 1e6 (1000 s)").c_str(),
                             msg("this duration counts as 0 (unknown)").c_str());
        return 0;
    }
    return *ns;
}

// Values of step_trace_time.csv are per-step times in µs. None can be negative or longer than any
// capture that ends before ~2096 (the bound on absolute times).
constexpr double kMaxStepTraceUs = static_cast<double>(kMaxAbsoluteNs) / 1000.0;

} // namespace

namespace commjson {

std::string place(const std::string& step, const std::string& kind, const std::string& op, const char* key) {
    return step + " › " + kind + " › " + op + " › " + key;
}

void outOfRange(FindingSink& sink, const std::string& path, const std::string& place, const std::string& shown,
                const char* expected, const char* dropped) {
    sink.add(
        {"json_value_out_of_range", Severity::Warning, path, -1, -1,
         msg("'{}' is {}; expected {}.", place, shown, expected),
         msg("The collective is kept; {}.", dropped),
         msg("A value this far out comes from a corrupted or hand-edited file, not from the profiler: re-run "
             "the profiler's offline analysis (torch_npu.profiler.profiler.analyse) to rewrite "
             "communication.json."),
         ""});
}

// Bounded like every duration: 0 … 1000 s. A double is exact enough for durations (not timestamps), and
// the bound is checked before the conversion, which would otherwise overflow.
static_assert(kMaxDurationNs < (TimeNs(1) << 53), "durationNs rounds by x - trunc(x), exact below 2^53");
std::optional<TimeNs> durationNs(double ms) {
    if (ms < 0 && ms > -1e-3) return 0; // rounding noise of a difference (Idle = Elapse − …), below 1 µs
    if (!(ms >= 0 && ms * 1e6 <= static_cast<double>(kMaxDurationNs))) return std::nullopt;
    // std::llround without the call: x < 2^53, so x - trunc(x) is exact and a half rounds up (away from 0).
    const double x = ms * 1e6;
    const auto whole = static_cast<TimeNs>(x);
    return whole + (x - static_cast<double>(whole) >= 0.5 ? 1 : 0);
}

} // namespace commjson

bool readStepTraceTime(const std::string& path, Profile& profile, FindingSink& sink) {
    FileBuffer fb;
    if (!readOrReport(path, fb, sink)) return false;
    CsvReader csv(fb.view());
    std::vector<std::string_view> f;
    if (!csv.next(f)) return false;
    CsvHeader h(f);
    int cStep = h.find({"Step"});
    while (csv.next(f)) {
        if (f.size() != h.size()) {
            sink.add({"csv_field_count", Severity::Warning, path, static_cast<long long>(csv.line()), -1,
                      msg("Row has {} fields; the header has {}.", f.size(), h.size()),
                      msg("This row is skipped; the cross-check has no profiler figure for it."),
                      msg("Re-export the file from the profiler."), ""});
            continue;
        }
        StepTraceRow r;
        r.line = static_cast<std::uint32_t>(csv.line());
        if (cStep >= 0) r.step = std::string(trimField(f[cStep]));
        for (std::size_t i = 0; i < f.size(); ++i) {
            if (static_cast<int>(i) == cStep) continue;
            auto v = parseDouble(f[i]);
            if (!v) continue; // N/A or text: no profiler figure for this column
            if (*v < 0 || *v > kMaxStepTraceUs) {
                sink.add({"csv_value_out_of_range", Severity::Warning, path, static_cast<long long>(r.line),
                          -1,
                          msg("Column '{}' holds '{}'; expected {}.", h.names()[i], trimField(f[i]),
                              msg("a per-step time in µs from 0 to 4e15")),
                          msg("This figure is dropped: the cross-check shows no profiler value for it."),
                          msg("A value this far out comes from a corrupted or hand-edited file: re-run the "
                              "profiler's offline analysis (torch_npu.profiler.profiler.analyse) to rewrite it."),
                          ""});
                continue;
            }
            r.values[h.names()[i]] = *v;
        }
        profile.stepTrace.push_back(std::move(r));
    }
    return true;
}

// The reference reader (nlohmann DOM): for files the fast reader leaves to it (communication_json_fast.cpp).
bool commjson::readReference(const std::string& path, const FileBuffer& fb, Profile& profile, FindingSink& sink) {
    auto j = nlohmann::json::parse(fb.view(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        sink.add(badJson(path, msg("communication.json is not a valid JSON object.")));
        return false;
    }
    for (auto& [step, kinds] : j.items()) {
        if (!kinds.is_object()) continue;
        for (auto& [kind, ops] : kinds.items()) {
            if (!ops.is_object()) continue;
            for (auto& [name, op] : ops.items()) {
                if (!op.is_object()) continue;
                auto ti = op.find("Communication Time Info");
                if (ti == op.end() || !ti->is_object()) continue;
                CommOp c;
                c.step = step;
                c.kind = kind;
                c.name = name;
                auto st = ti->find("Start Timestamp(us)");
                if (st != ti->end() && st->is_number()) {
                    // The file writes this as a JSON number; re-read its text exactly.
                    auto ns = parseMicrosToNs(st->dump());
                    if (ns && plausibleStart(*ns)) // 0: not written ("Total Op Info")
                        c.start = *ns;
                    else
                        commjson::outOfRange(sink, path, commjson::place(step, kind, name, "Start Timestamp(us)"), st->dump(),
                                       msg("a timestamp in µs between 1970 and ~2096 (at most 4e15)").c_str(),
                                       msg("its start is unknown, so it marks no communication window").c_str());
                }
                auto dur = [&](const char* key) {
                    return msToNs(*ti, key, sink, path, commjson::place(step, kind, name, key));
                };
                c.elapse = dur("Elapse Time(ms)");
                c.transit = dur("Transit Time(ms)");
                c.wait = dur("Wait Time(ms)");
                c.sync = dur("Synchronization Time(ms)");
                c.idle = dur("Idle Time(ms)");
                auto bw = op.find("Communication Bandwidth Info");
                if (bw != op.end() && bw->is_object()) {
                    for (auto& [transport, info] : bw->items()) {
                        // SDMA repeats HCCS/SIO traffic in these exports; count the physical links only.
                        if (transport == "SDMA" || !info.is_object()) continue;
                        auto sz = info.find("Transit Size(MB)");
                        if (sz == info.end() || !sz->is_number()) continue;
                        const double mb = sz->get<double>();
                        if (mb >= 0 && mb <= commjson::kMaxTransitMB)
                            c.transitSizeMB += mb;
                        else
                            commjson::outOfRange(sink, path,
                                           commjson::place(step, kind, name, "Communication Bandwidth Info") +
                                               " › " + transport + " › Transit Size(MB)",
                                           sz->dump(), msg("a size in MB from 0 to 1e9").c_str(),
                                           msg("this link's size counts as 0").c_str());
                    }
                }
                profile.commOps.push_back(std::move(c));
            }
        }
    }
    profile.hasCommunicationJson = true;
    return true;
}

bool readCommunicationJson(const std::string& path, Profile& profile, FindingSink& sink, int threads) {
    // One thread: streamed, without a buffer of the whole file. Two (4+ cores): the split reader, whose
    // halves need the whole file at once. Files either leaves go to the whole-document reader, then to
    // the reference.
    if (sideFileThreads(threads) == 1 && commjson::readStreamed(path, profile, sink)) return true;
    FileBuffer fb;
    if (!readOrReport(path, fb, sink)) return false;
    if (commjson::readFast(path, fb, profile, sink, commjson::FastPath::Either, threads)) return true;
    return commjson::readReference(path, fb, profile, sink);
}

bool readProfilerInfo(const std::string& path, Profile& profile, FindingSink& sink) {
    FileBuffer fb;
    if (!readOrReport(path, fb, sink, 64ULL << 20)) return false;
    auto j = nlohmann::json::parse(fb.view(), nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
        sink.add(badJson(path, msg("The profiler info file is not a valid JSON object.")));
        return false;
    }
    auto cfg = j.find("config");
    if (cfg != j.end() && cfg->is_object()) {
        auto common = cfg->find("common_config");
        if (common != cfg->end() && common->is_object()) {
            if (auto it = common->find("record_shapes"); it != common->end() && it->is_boolean())
                profile.inventory.recordShapes = it->get<bool>();
            if (auto it = common->find("with_stack"); it != common->end() && it->is_boolean())
                profile.inventory.withStack = it->get<bool>();
            if (auto it = common->find("activities"); it != common->end() && it->is_array()) {
                std::vector<std::string> acts;
                for (const auto& x : *it)
                    if (x.is_string()) acts.push_back(x.get<std::string>());
                profile.inventory.activities = std::move(acts);
            }
        }
        auto exp = cfg->find("experimental_config");
        if (exp != cfg->end() && exp->is_object()) {
            if (auto it = exp->find("_profiler_level"); it != exp->end() && it->is_string())
                profile.inventory.profilerLevel = it->get<std::string>();
            if (auto it = exp->find("_aic_metrics"); it != exp->end() && it->is_string())
                profile.inventory.aicMetrics = it->get<std::string>();
        }
    }
    if (auto it = j.find("rank_id"); it != j.end() && it->is_number_integer())
        profile.inventory.rankLabel = "rank" + std::to_string(it->get<long long>());
    return true;
}

std::size_t readOpStatistic(const std::string& path, FindingSink& sink) {
    FileBuffer fb;
    if (!readOrReport(path, fb, sink)) return 0;
    CsvReader csv(fb.view());
    std::vector<std::string_view> f;
    if (!csv.next(f)) return 0;
    std::size_t n = 0;
    while (csv.next(f))
        ++n;
    return n;
}

} // namespace bs
