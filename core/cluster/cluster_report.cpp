// The cluster's JSON object, text section and Markdown section; every sentence from the summaries.
#include "cluster/cluster_report.h"

#include "report/escape.h"

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
std::string ms(TimeNs ns) {
    return fmt::format("{:.2f} ms", msOf(ns));
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

std::vector<std::string> clusterVerdicts(const ClusterResult& c) {
    std::vector<std::string> out;
    std::map<int, std::vector<const SlowRankEntry*>> byRank;
    for (const auto& e : c.slowRanks)
        byRank[e.rank].push_back(&e);
    std::size_t analysed = 0;
    for (const auto& r : c.ranks)
        analysed += r.error.empty() ? 1 : 0;
    if (byRank.empty()) {
        out.push_back(msg("No rank is slow: across the {} analysed ranks no step metric spreads by more than "
                                  "5 % with the rank at the extreme arriving last at a shared collective.",
                                  analysed));
        return out;
    }
    for (const auto& [rank, entries] : byRank) {
        const RankSummary& r = c.ranks[static_cast<std::size_t>(rank)];
        std::string parts;
        for (const auto* e : entries)
            parts += (parts.empty() ? std::string() : msg("; ")) +
                     (e->metric == "comm_not_overlapped"
                          ? msg("step {} {} {} against a cluster median of {} ({} less)", e->step, e->metric,
                                ms(e->value), ms(e->median), ms(e->excess))
                          : msg("step {} {} {} against a cluster median of {} ({} more)", e->step, e->metric,
                                ms(e->value), ms(e->median), ms(e->excess)));
        std::string s = msg("{} is slow: {}.", rankName(r), parts);
        // Who waits for it: said once, from the entry whose collective makes another rank wait longest; the
        // other entries' sentences (other steps) follow the verdict in the reports.
        const SlowRankEntry* best = entries.front();
        for (const auto* e : entries)
            if (e->othersWaitMax > best->othersWaitMax) best = e;
        if (best->restatedEvidence > 1) s += " " + best->evidence[1];
        out.push_back(std::move(s));
    }
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
    Json slow = Json::array();
    for (const auto& e : c.slowRanks)
        slow.push_back({{"rank", c.ranks[static_cast<std::size_t>(e.rank)].rankId},
                        {"label", nameAt(c, e.rank)},
                        {"step", e.step},
                        {"metric", e.metric},
                        {"value_ms", msOf(e.value)},
                        {"cluster_median_ms", msOf(e.median)},
                        {"excess_ms", msOf(e.excess)},
                        {"spread", e.spread},
                        {"last_at_collectives", e.lastAtCollectives},
                        {"collectives_in_step", e.collectivesInStep},
                        {"worst_collective", e.worstCollective},
                        {"others_wait_max_ms", msOf(e.othersWaitMax)},
                        {"evidence", e.evidence}});
    j["slow_ranks"] = std::move(slow);
    j["verdicts"] = clusterVerdicts(c);
    j["collectives_matched"] = c.collectivesMatched;
    Json coll = Json::array();
    for (const auto& cc : c.collectives) {
        Json parts = Json::array();
        for (const auto& p : cc.parts)
            parts.push_back({{"rank", c.ranks[static_cast<std::size_t>(p.rank)].rankId},
                             {"start_ns", p.start},
                             {"elapse_ms", msOf(p.elapse)},
                             {"wait_ms", msOf(p.wait)},
                             {"transit_ms", msOf(p.transit)}});
        coll.push_back({{"name", cc.key},
                        {"step", cc.step},
                        {"last_arriver", cc.lastArriver >= 0 ? Json(c.ranks[static_cast<std::size_t>(cc.lastArriver)].rankId) : Json(nullptr)},
                        {"last_arriver_label", nameAt(c, cc.lastArriver)},
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
    // Each verdict already carries the metric against the median and who waits at which collective; below it
    // come only the evidence sentences it does not say (the rank's idle windows), each once.
    const auto verdicts = clusterVerdicts(c);
    std::vector<int> verdictRanks;
    for (const auto& e : c.slowRanks)
        if (std::find(verdictRanks.begin(), verdictRanks.end(), e.rank) == verdictRanks.end())
            verdictRanks.push_back(e.rank);
    std::sort(verdictRanks.begin(), verdictRanks.end());
    for (std::size_t v = 0; v < verdicts.size(); ++v) {
        s.line(s.text(verdicts[v]));
        if (v >= verdictRanks.size()) continue;
        std::vector<std::string> said;
        for (const auto& e : c.slowRanks) {
            if (e.rank != verdictRanks[v]) continue;
            for (std::size_t k = std::min<std::size_t>(e.restatedEvidence, 1); k < e.evidence.size(); ++k) {
                if (verdicts[v].find(e.evidence[k]) != std::string::npos) continue; // the verdict says it
                if (std::find(said.begin(), said.end(), e.evidence[k]) != said.end()) continue;
                said.push_back(e.evidence[k]);
                s.subLine(s.text(e.evidence[k]));
            }
        }
    }
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
    s.heading(msg("Collectives with the largest wait"));
    if (c.collectives.empty()) s.line(msg("No collective is shared by two ranks (no communication.json, or no common names)."));
    for (const auto& cc : c.collectives) {
        if (cc.lastArriver < 0) {
            s.line(s.text(msg("{} (step {}): the smallest wait is shared by ranks that start together, so none arrives "
                                      "last; the longest wait is {}.",
                                      cc.key, cc.step, ms(cc.maxWait))));
            continue;
        }
        const RankSummary& last = c.ranks[static_cast<std::size_t>(cc.lastArriver)];
        TimeNs lastWait = 0;
        for (const auto& p : cc.parts)
            if (p.rank == cc.lastArriver) lastWait = p.wait;
        s.line(s.text(msg("{} (step {}): {} arrives last (waits {}); the longest wait is {}; start skew {}.",
                                  cc.key, cc.step, rankName(last), ms(lastWait), ms(cc.maxWait), ms(cc.skew))));
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
