// A CompareSide stored in a rank summary (analyze --summary writes it as the "compare" member), so a
// repository can keep baseline.summary.json instead of the profile folder (core/compare/README.md).
#include "compare/compare.h"

#include "i18n/message.h"

#include <nlohmann/json.hpp>

namespace bs {

namespace {
using Json = nlohmann::ordered_json;

template <class T> Json opt(const std::optional<T>& v) {
    return v ? Json(*v) : Json(nullptr);
}
template <class T> std::optional<T> optOf(const Json& j) {
    if (j.is_null()) return std::nullopt;
    return j.get<T>();
}
} // namespace

std::string renderCompareDigestJson(const CompareSide& s) {
    Json j;
    j["format"] = 1;
    j["label"] = s.label;
    j["folder"] = s.folder;
    const CompareScope& sc = s.scope;
    j["scope"] = {{"profiler_level", sc.profilerLevel}, {"aic_metrics", sc.aicMetrics},
                  {"with_stack", opt(sc.withStack)},     {"record_shapes", opt(sc.recordShapes)},
                  {"activities", opt(sc.activities)},    {"profiler_info", sc.profilerInfo},
                  {"kernel_source", sc.kernelSource},    {"step_source", sc.stepSource},
                  {"steps", sc.stepNumbers},             {"rank_id", sc.rankId}};
    j["has_data"] = s.hasData;
    j["group"] = {{"id", s.groupId}, {"steps", s.groupSteps}, {"kernel_count", s.groupKernelCount},
                  {"template", s.groupTemplate}};
    Json f = Json::array();
    for (const auto& g : s.figures)
        f.push_back({g.key, g.known, g.avg, g.p50});
    j["figures"] = std::move(f);
    Json ops = Json::array();
    for (const auto& o : s.ops)
        ops.push_back({o.name, o.taskType, o.calls, o.durTotal, o.durAvgUs, o.waitAvgUs});
    j["ops"] = std::move(ops);
    Json w = Json::array();
    for (const auto& x : s.windows)
        w.push_back({x.id, x.scope, x.step, x.stepIndex, x.dominant, x.before, x.after, x.occurrence, x.start, x.dur,
                     x.labels, x.boundary});
    j["windows"] = std::move(w);
    j["bubble_min_us"] = s.bubbleMinUs;
    Json fi = Json::array();
    for (const auto& x : s.findings)
        fi.push_back({x.id, x.severity, x.seen, x.file});
    j["findings"] = std::move(fi);
    j["hidden_issue"] = s.hiddenIssue;
    j["confidence"] = s.confidence;
    Json pr = Json::array();
    for (const auto& x : s.predictions)
        pr.push_back({x.priority, x.cause, x.edit, x.gainMs, x.gainPct, x.errorPct, x.lowConfidence, x.windows});
    j["predictions"] = std::move(pr);
    return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

bool looksLikeRankSummary(std::string_view head) {
    std::size_t i = 0;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
        ++i;
    return head.substr(i).rfind("{\"bubblescope_rank_summary\"", 0) == 0;
}

std::optional<CompareSide> compareSideFromSummary(std::string_view text, const std::string& file, std::string& error) {
    const Json doc = Json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("bubblescope_rank_summary")) {
        error = msg("{} is not a rank summary (analyze --summary writes one).", file);
        return std::nullopt;
    }
    if (const auto e = doc.find("error"); e != doc.end() && e->is_string() && !e->get<std::string>().empty()) {
        error = msg("{} is the summary of a rank that was not analysed: {}", file, e->get<std::string>());
        return std::nullopt;
    }
    const auto c = doc.find("compare");
    if (c == doc.end() || !c->is_object() || c->value("format", 0) != 1) {
        error = msg("{} holds no comparison digest (written by an earlier version): write it again with {}.", file,
                    std::string("bubblescope analyze RANK --summary FILE"));
        return std::nullopt;
    }
    try {
        const Json& j = *c;
        CompareSide s;
        s.fromSummary = true;
        s.label = j.at("label").get<std::string>();
        s.folder = file;
        const Json& sc = j.at("scope");
        s.scope.profilerLevel = sc.at("profiler_level").get<std::string>();
        s.scope.aicMetrics = sc.at("aic_metrics").get<std::string>();
        s.scope.withStack = optOf<bool>(sc.at("with_stack"));
        s.scope.recordShapes = optOf<bool>(sc.at("record_shapes"));
        s.scope.activities = optOf<std::vector<std::string>>(sc.at("activities"));
        s.scope.profilerInfo = sc.at("profiler_info").get<bool>();
        s.scope.kernelSource = sc.at("kernel_source").get<std::string>();
        s.scope.stepSource = sc.at("step_source").get<std::string>();
        s.scope.stepNumbers = sc.at("steps").get<std::vector<std::int64_t>>();
        s.scope.rankId = sc.at("rank_id").get<int>();
        s.hasData = j.at("has_data").get<bool>();
        const Json& g = j.at("group");
        s.groupId = g.at("id").get<std::string>();
        s.groupSteps = g.at("steps").get<std::vector<std::int64_t>>();
        s.groupKernelCount = g.at("kernel_count").get<std::size_t>();
        s.groupTemplate = g.at("template").get<std::uint64_t>();
        for (const auto& f : j.at("figures"))
            s.figures.push_back({f.at(0).get<std::string>(), f.at(1).get<bool>(), f.at(2).get<double>(), f.at(3).get<double>()});
        for (const auto& o : j.at("ops"))
            s.ops.push_back({o.at(0).get<std::string>(), o.at(1).get<std::string>(), o.at(2).get<std::size_t>(),
                             o.at(3).get<TimeNs>(), o.at(4).get<double>(), o.at(5).get<double>()});
        for (const auto& x : j.at("windows")) {
            CompareWindow w;
            w.id = x.at(0).get<std::string>();
            w.scope = x.at(1).get<std::string>();
            w.step = x.at(2).get<std::int64_t>();
            w.stepIndex = x.at(3).get<int>();
            w.dominant = x.at(4).get<bool>();
            w.before = x.at(5).get<std::string>();
            w.after = x.at(6).get<std::string>();
            w.occurrence = x.at(7).get<std::size_t>();
            w.start = x.at(8).get<TimeNs>();
            w.dur = x.at(9).get<TimeNs>();
            w.labels = x.at(10).get<std::vector<std::string>>();
            w.boundary = x.at(11).get<bool>();
            if (w.dur < 0) throw std::out_of_range("negative duration");
            s.windows.push_back(std::move(w));
        }
        s.bubbleMinUs = j.at("bubble_min_us").get<double>();
        for (const auto& f : j.at("findings"))
            s.findings.push_back({f.at(0).get<std::string>(), f.at(1).get<std::string>(), f.at(2).get<std::string>(),
                                  f.at(3).get<std::string>()});
        s.hiddenIssue = j.at("hidden_issue").get<bool>();
        s.confidence = j.at("confidence").get<std::string>();
        if (const auto pr = j.find("predictions"); pr != j.end()) // absent in digests written before §15
            for (const auto& x : *pr)
                s.predictions.push_back({x.at(0).get<std::string>(), x.at(1).get<std::string>(),
                                         x.at(2).get<std::string>(), x.at(3).get<double>(), x.at(4).get<double>(),
                                         x.at(5).get<double>(), x.at(6).get<bool>(),
                                         x.at(7).get<std::vector<std::string>>()});
        return s;
    } catch (const std::exception& e) {
        error = msg("{}: the comparison digest is damaged ({}); write it again with {}.", file, std::string(e.what()),
                    std::string("bubblescope analyze RANK --summary FILE"));
        return std::nullopt;
    }
}

} // namespace bs
