// The cluster's JSON object, text section and Markdown section; every sentence from the summaries.
#include "cluster/cluster_report.h"

#include "i18n/escape.h"

#include "i18n/message.h"
#include "report/json_messages.h"
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace bs {

namespace {

using Json = nlohmann::ordered_json;

double msOf(TimeNs ns) {
    return static_cast<double>(ns) / 1e6;
}
double usOf(TimeNs ns) {
    return static_cast<double>(ns) / 1e3;
}
std::string ms(TimeNs ns) {
    return fmt::format("{:.2f} ms", msOf(ns));
}
std::string ms3(TimeNs ns) {
    return fmt::format("{:.3f} ms", msOf(ns));
}
std::string signedMs(TimeNs ns) {
    return fmt::format("{:+.2f} ms", msOf(ns));
}
std::string us(TimeNs ns) {
    return fmt::format("{:.1f} us", usOf(ns));
}
std::string signedUs(TimeNs ns) {
    return fmt::format("{:+.1f} us", usOf(ns));
}
std::string rankName(const RankSummary& r) {
    if (r.rankId < 0) return r.label;
    return r.idShared ? msg("rank {} ({})", r.rankId, r.label) : msg("rank {}", r.rankId);
}

Json stepRowJson(const RankStepRow& s) {
    Json j;
    j["step"] = s.step;
    j["computing_ms"] = msOf(s.computing);
    j["comm_not_overlapped_ms"] = msOf(s.commNotOverlapped);
    j["overlapped_ms"] = msOf(s.overlapped);
    j["communication_ms"] = msOf(s.communication);
    j["free_ms"] = msOf(s.free);
    j["stage_ms"] = msOf(s.stage);
    j["bubble_ms"] = msOf(s.bubble);
    j["comm_not_overlapped_exclude_receive_ms"] = msOf(s.commNotOverlappedExclReceive);
    j["preparing_ms"] = msOf(s.preparing);
    j["service_ms"] = msOf(s.service);
    j["comm_wait_ms"] = s.commFromJson ? Json(msOf(s.commWait)) : Json(nullptr);
    j["comm_transit_ms"] = s.commFromJson ? Json(msOf(s.commTransit)) : Json(nullptr);
    return j;
}

Json rankJson(const RankSummary& r, std::size_t lastCount) {
    Json j;
    j["rank"] = r.rankId;
    j["label"] = r.label;
    j["folder"] = r.folder;
    if (!r.error.empty()) {
        j["error"] = r.error;
        return j;
    }
    j["profiler_level"] = r.profilerLevel;
    j["aic_metrics"] = r.aicMetrics;
    j["activities"] = r.activities;
    j["has_communication_json"] = r.hasCommunicationJson;
    j["hidden_issue_present"] = r.hiddenIssue;
    j["last_arriver_count"] = lastCount;
    j["step_trace_rows_matched"] = r.crossCheckRows;
    j["step_trace_mismatches"] = r.crossCheckMismatches;
    Json w = Json::array();
    for (const auto& t : r.topWindows)
        w.push_back({{"id", t.id}, {"scope", t.scope}, {"step", t.step}, {"start_ns", t.start},
                     {"duration_ms", msOf(t.dur)}, {"labels", t.labels}});
    j["top_windows"] = std::move(w);
    return j;
}

const std::string& nameAt(const ClusterResult& c, int i) {
    static const std::string none;
    return i >= 0 ? c.ranks[static_cast<std::size_t>(i)].label : none;
}

} // namespace

std::vector<CollectivePart> partsListed(const ClusterCollective& c) {
    std::vector<CollectivePart> v = c.parts;
    if (v.size() > kCollectivePartsKept) {
        std::sort(v.begin(), v.end(), [](const CollectivePart& x, const CollectivePart& y) {
            return x.aligned != y.aligned ? x.aligned > y.aligned : x.rank < y.rank;
        });
        v.erase(v.begin() + kCollectivePartsKept / 2, v.end() - kCollectivePartsKept / 2);
        std::sort(v.begin(), v.end(), [](const CollectivePart& x, const CollectivePart& y) { return x.rank < y.rank; });
    }
    return v;
}

std::vector<std::string> clusterVerdicts(const ClusterResult& c) {
    std::vector<std::string> out;
    std::size_t analysed = 0;
    for (const auto& r : c.ranks)
        analysed += r.error.empty() ? 1 : 0;
    if (c.slowRanks.empty()) {
        out.push_back(c.collectivesMatched == 0
                          ? msg("No rank is named slow: the {} analysed ranks share no collective, so nobody can be "
                                "seen waiting for another.",
                                analysed)
                          : msg("No rank is slow: across the {} analysed ranks no rank makes the others wait at a "
                                "collective for 0.1 ms or 0.5 % of the step's service or more.",
                                analysed));
        return out;
    }
    for (const auto& e : c.slowRanks)
        out.push_back(e.verdict);
    return out;
}

std::string renderClusterDocument(const ClusterResult& c) {
    std::string out = "{\n  \"cluster\": ";
    for (char ch : renderClusterJson(c)) {
        out += ch;
        if (ch == '\n') out += "  ";
    }
    return out + "\n}\n";
}

std::string renderClusterJson(const ClusterResult& c) {
    Json j;
    Json ranks = Json::array();
    for (std::size_t i = 0; i < c.ranks.size(); ++i)
        ranks.push_back(rankJson(c.ranks[i], i < c.lastArriverCount.size() ? c.lastArriverCount[i] : 0));
    j["ranks"] = std::move(ranks);
    j["steps"] = c.steps;
    Json table = Json::array();
    for (const auto& r : c.ranks)
        for (const auto& s : r.steps) {
            Json row;
            row["rank"] = r.rankId;
            row["label"] = r.label;
            row.update(stepRowJson(s));
            table.push_back(std::move(row));
        }
    j["per_rank_step"] = std::move(table);
    const auto rankIdAt = [&](int i) { return i >= 0 ? Json(c.ranks[static_cast<std::size_t>(i)].rankId) : Json(nullptr); };
    Json offsets = Json::array();
    for (const auto& o : c.clockOffsets) {
        if (!c.ranks[static_cast<std::size_t>(o.rank)].error.empty()) continue;
        offsets.push_back({{"rank", rankIdAt(o.rank)},
                           {"label", nameAt(c, o.rank)},
                           {"reference", rankIdAt(o.reference)},
                           {"via", rankIdAt(o.via)},
                           {"offset_us", usOf(o.offset)},
                           {"spread_us", usOf(o.spread)},
                           {"collectives", o.collectives}});
    }
    j["clock_offsets"] = std::move(offsets);
    Json slow = Json::array();
    for (const auto& e : c.slowRanks) {
        const SlowCause& k = e.cause;
        Json ops = Json::array();
        for (const auto& o : k.ops)
            ops.push_back({{"name", o.name},
                           {"calls_median", o.callsMedian},
                           {"calls_rank", o.callsRank},
                           {"delta_ms", msOf(o.delta)}});
        Json windows = Json::array();
        for (const auto& w : k.windows)
            windows.push_back({{"step", w.step},
                               {"id", w.id},
                               {"scope", w.scope},
                               {"dur_ms", msOf(w.dur)},
                               {"median_rank_dur_ms", w.medianDur >= 0 ? Json(msOf(w.medianDur)) : Json(nullptr)},
                               {"labels", w.labels},
                               {"user_line", w.userLine}});
        slow.push_back({{"rank", rankIdAt(e.rank)},
                        {"label", nameAt(c, e.rank)},
                        {"steps", e.steps},
                        {"steps_compared", e.stepsCompared},
                        {"cost_ms", msOf(e.cost)},
                        {"cluster_loss_ms", msOf(e.clusterLoss)},
                        {"ranks_waiting", e.ranksWaiting},
                        {"collective", e.collective},
                        {"collective_step", e.collectiveStep},
                        {"lateness_ms", msOf(e.lateness)},
                        {"verdict", e.verdict},
                        {"predicted_gain_ms", e.predicted ? Json(msOf(e.predictedGain)) : Json(nullptr)},
                        {"predicted_gain_pct", e.predicted ? Json(std::round(e.predictedGainPct * 1e4) / 1e4) : Json(nullptr)},
                        {"predicted_device_ms", e.predicted ? Json(msOf(e.predictedLoss)) : Json(nullptr)},
                        {"replay_error_pct", e.predicted ? Json(std::round(e.replayErrorPct * 1e4) / 1e4) : Json(nullptr)},
                        {"ranks_predicted", e.ranksPredicted},
                        {"ranks_waiting_all", e.ranksWaitingAll},
                        {"edit", e.predicted ? Json("late_rank_on_time") : Json(nullptr)},
                        {"replay_missing", e.replayMissing},
                        {"cause",
                         {{"lead", k.lead},
                          {"lateness_vs_median_rank_ms", msOf(k.lateness)},
                          {"terms_ms",
                           {{"step_start", msOf(k.stepStart)},
                            {"prelaunch", msOf(k.prelaunch)},
                            {"computing", msOf(k.computing)},
                            {"free", msOf(k.free)},
                            {"comm_exposed", msOf(k.commExposed)},
                            {"rest", msOf(k.rest)}}},
                          {"ops", std::move(ops)},
                          {"windows", std::move(windows)}}}});
    }
    j["slow_ranks"] = std::move(slow);
    j["verdicts"] = clusterVerdicts(c);
    Json cost = Json::array();
    for (std::size_t si = 0; si < c.stepCost.size() && si < c.steps.size(); ++si)
        for (std::size_t r = 0; r < c.stepCost[si].size(); ++r)
            if (c.stepCost[si][r] > 0)
                cost.push_back({{"step", c.steps[si]}, {"rank", rankIdAt(static_cast<int>(r))},
                                {"label", nameAt(c, static_cast<int>(r))}, {"cost_ms", msOf(c.stepCost[si][r])}});
    j["step_costs"] = std::move(cost);
    j["collectives_matched"] = c.collectivesMatched;
    Json coll = Json::array();
    for (const auto& cc : c.collectives) {
        Json parts = Json::array();
        for (const auto& p : partsListed(cc))
            parts.push_back({{"rank", rankIdAt(p.rank)},
                             {"start_us", usOf(p.start)},
                             {"aligned_start_us", usOf(p.aligned)},
                             {"elapse_ms", msOf(p.elapse)},
                             {"wait_ms", msOf(p.wait)},
                             {"sync_ms", msOf(p.sync)},
                             {"transit_ms", msOf(p.transit)}});
        coll.push_back({{"name", cc.key},
                        {"step", cc.step},
                        {"last_arriver", rankIdAt(cc.lastArriver)},
                        {"last_arriver_label", nameAt(c, cc.lastArriver)},
                        {"confidence", cc.confidence},
                        {"lateness_ms", msOf(cc.lateness)},
                        {"gap_to_next_ms", msOf(cc.secondGap)},
                        {"earliest_sync_ms", msOf(cc.earliestSync)},
                        {"corroborating_ranks", cc.corroborating},
                        {"other_ranks", cc.others},
                        {"max_wait_ms", msOf(cc.maxWait)},
                        {"skew_ms", msOf(cc.skew)},
                        {"wait_ratio", cc.waitRatio},
                        {"ranks_total", cc.ranksTotal},
                        {"ranks", std::move(parts)}});
    }
    j["collectives"] = std::move(coll);
    Json f = Json::array();
    for (const auto& x : c.findings)
        f.push_back({{"id", x.id}, {"severity", x.severity}, {"message", x.message}});
    j["findings"] = std::move(f);
    Json cc;
    cc["available"] = c.crossCheck.available;
    cc["file"] = c.crossCheck.file;
    cc["figures_compared"] = c.crossCheck.compared;
    cc["mismatches"] = c.crossCheck.mismatches;
    cc["mismatch_notes"] = c.crossCheck.mismatchNotes;
    j["cluster_step_trace_crosscheck"] = std::move(cc);
    renderMessagesIn(j);
    return j.dump(2, ' ', false, Json::error_handler_t::replace);
}

namespace {

struct Section {
    bool md;
    std::string out;
    void heading(const std::string& t) { out += md ? "\n## " + t + "\n\n" : "\n" + t + "\n"; }
    void line(const std::string& t) { out += (md ? "- " : "  ") + t + "\n"; }
    // A line under the one before it: a nested bullet, or two more spaces of indent.
    void subLine(const std::string& t) { out += (md ? "  - " : "    ") + t + "\n"; }
    std::string text(const std::string& s) const { return md ? mdText(s) : term(s); }
};

void renderInto(Section& s, const ClusterResult& c) {
    s.out += s.md ? msg("# Cluster\n") : msg("Cluster\n");
    std::size_t analysed = 0;
    for (const auto& r : c.ranks)
        analysed += r.error.empty() ? 1 : 0;
    s.out += msg("{} ranks found, {} analysed; {} collectives matched across ranks.\n", c.ranks.size(),
                         analysed, c.collectivesMatched);
    s.heading(msg("Slow ranks"));
    // A verdict per rank; below it the terms of its cause, which add up to its lateness against the median rank.
    for (const auto& v : clusterVerdicts(c))
        s.line(s.text(v));
    for (const auto& e : c.slowRanks) {
        const SlowCause& k = e.cause;
        if (k.lead.empty()) continue;
        s.subLine(s.text(msg("{} against the step's median rank: arrives {} later = step start {}, prelaunch {}, "
                             "computing {}, idle {}, exposed communication {}, rest {}.",
                             rankName(c.ranks[static_cast<std::size_t>(e.rank)]), ms(k.lateness), signedMs(k.stepStart),
                             signedMs(k.prelaunch), signedMs(k.computing), signedMs(k.free), signedMs(k.commExposed),
                             signedMs(k.rest))));
        for (const auto& w : k.windows)
            s.subLine(s.text(w.medianDur < 0
                                 ? msg("Step {}: {} ({}, {}) — the median rank has no window there{}.", w.step, w.id,
                                       w.scope, ms(w.dur), w.userLine.empty() ? "" : msg("; user code: {}", w.userLine))
                                 : msg("Step {}: {} ({}, {}) — {} at the median rank{}.", w.step, w.id, w.scope,
                                       ms(w.dur), ms(w.medianDur), w.userLine.empty() ? "" : msg("; user code: {}", w.userLine))));
    }
    s.heading(msg("Clocks"));
    std::size_t shown = 0;
    for (const auto& o : c.clockOffsets) {
        const RankSummary& r = c.ranks[static_cast<std::size_t>(o.rank)];
        if (!r.error.empty()) continue;
        if (++shown > 20) break;
        if (o.reference == o.rank)
            s.line(s.text(msg("{}: the reference clock.", rankName(r))));
        else
            s.line(s.text(msg("{}: {} from {} (spread {}, {} collectives{}).", rankName(r), signedUs(o.offset),
                              rankName(c.ranks[static_cast<std::size_t>(o.reference)]), us(o.spread), o.collectives,
                              o.via >= 0 ? msg("; through {}", rankName(c.ranks[static_cast<std::size_t>(o.via)])) : "")));
    }
    if (shown > 20) s.line(msg("… and the other ranks (the JSON lists every one)."));
    s.heading(msg("Per step and rank (ms)"));
    const std::string hdr = fmt::format("{:<8} {:>6} {:>10} {:>20} {:>10} {:>10} {:>10} {:>10}", render(msg("rank")),
                                        render(msg("step")), render(msg("computing")), "comm_not_overlapped",
                                        render(msg("overlapped")), render(msg("free")), render(msg("preparing")),
                                        "comm_wait");
    if (s.md)
        s.out += msg("| rank | step | computing | comm not overlapped | overlapped | free | preparing | comm wait |\n"
                 "|---|---|---|---|---|---|---|---|\n");
    else
        s.out += "  " + hdr + "\n";
    for (const auto& r : c.ranks) {
        if (!r.error.empty()) {
            const std::string why = msg("{} ({}) was not analysed: {}", rankName(r), r.label, r.error);
            // In Markdown a row of the table, which a list line would end.
            if (s.md)
                s.out += "| " + mdText(rankName(r), MdPlace::TableCell) + " | " + mdText(why, MdPlace::TableCell) +
                         " | | | | | | |\n";
            else
                s.line(term(why));
            continue;
        }
        for (const auto& row : r.steps) {
            const std::string wait = row.commFromJson ? fmt::format("{:.3f}", msOf(row.commWait)) : render(msg("n/a"));
            const std::string cells[] = {s.text(rankName(r)),
                                         std::to_string(row.step),
                                         fmt::format("{:.3f}", msOf(row.computing)),
                                         fmt::format("{:.3f}", msOf(row.commNotOverlapped)),
                                         fmt::format("{:.3f}", msOf(row.overlapped)),
                                         fmt::format("{:.3f}", msOf(row.free)),
                                         fmt::format("{:.3f}", msOf(row.preparing)),
                                         wait};
            std::string l;
            if (s.md) {
                for (const auto& x : cells)
                    l += "| " + x + " ";
                s.out += l + "|\n";
            } else {
                s.out += fmt::format("  {:<8} {:>6} {:>10} {:>20} {:>10} {:>10} {:>10} {:>10}\n", cells[0], cells[1],
                                     cells[2], cells[3], cells[4], cells[5], cells[6], cells[7]);
            }
        }
    }
    s.heading(msg("Collectives with the latest arrival"));
    if (c.collectives.empty()) s.line(msg("No collective is shared by two ranks (no communication.json, or no common names)."));
    for (const auto& cc : c.collectives) {
        if (cc.lastArriver < 0) {
            s.line(s.text(msg("{} (step {}): undetermined — the latest arrivals are {} apart, within the clocks' "
                              "uncertainty; the longest wait is {}.",
                              cc.key, cc.step, ms3(cc.secondGap), ms(cc.maxWait))));
            continue;
        }
        const RankSummary& last = c.ranks[static_cast<std::size_t>(cc.lastArriver)];
        s.line(s.text(cc.confidence == "high"
                          ? msg("{} (step {}): {} arrives last, {} after the first; the earliest rank's synchronization "
                                "{} agrees (confidence high).",
                                cc.key, cc.step, rankName(last), ms3(cc.lateness), ms3(cc.earliestSync))
                          : msg("{} (step {}): {} arrives last, {} after the first, but the synchronization of {} of "
                                "the {} other ranks does not match their gap (the earliest rank's is {}; confidence "
                                "medium).",
                                cc.key, cc.step, rankName(last), ms3(cc.lateness), cc.others - cc.corroborating,
                                cc.others, ms3(cc.earliestSync))));
    }
    // A rank that was not analysed is said once, in its place in the step table above.
    std::vector<const ClusterFinding*> findings;
    for (const auto& f : c.findings)
        if (f.id != "rank_not_analysed") findings.push_back(&f);
    if (!findings.empty()) {
        s.heading(msg("Findings"));
        for (const ClusterFinding* f : findings)
            s.line(s.text(f->message));
    }
    if (c.crossCheck.available) {
        s.heading(msg("Cross-check with {}", "cluster_step_trace_time.csv"));
        s.line(s.text(msg("{} figures compared, {} differ by more than 0.5 % and 1 us.", c.crossCheck.compared,
                                  c.crossCheck.mismatches)));
        for (const auto& n : c.crossCheck.mismatchNotes)
            s.line(s.text(n));
    }
}

} // namespace

std::string renderClusterText(const ClusterResult& c) {
    Section s{false, {}};
    renderInto(s, c);
    return render(s.out);
}

std::string renderClusterMarkdown(const ClusterResult& c) {
    Section s{true, {}};
    renderInto(s, c);
    return render(s.out);
}

} // namespace bs
