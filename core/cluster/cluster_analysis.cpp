// Compares the ranks' summaries: the step × rank table, collectives matched by name, slow ranks.
#include "cluster/cluster_analysis.h"

#include "analysis/analysis_run.h"
#include "io/csv_reader.h"
#include "io/file_buffer.h"
#include "io/profile_loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <new>

namespace bs {

namespace {

constexpr double kSpreadThreshold = 0.05; // msprof-analyze's slow-rank rule

std::string ms(TimeNs ns) {
    return fmt::format("{:.2f} ms", static_cast<double>(ns) / 1e6);
}

std::string rankName(const RankSummary& r) {
    if (r.rankId < 0) return r.label;
    return r.idShared ? fmt::format("rank {} ({})", r.rankId, r.label) : fmt::format("rank {}", r.rankId);
}

TimeNs median(std::vector<TimeNs> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

template <class T> T majority(const std::vector<T>& values) {
    std::map<T, std::size_t> count;
    for (const auto& v : values)
        ++count[v];
    return std::max_element(count.begin(), count.end(), [](const auto& a, const auto& b) {
               return a.second < b.second;
           })->first;
}

std::vector<std::int64_t> stepNumbers(const RankSummary& r) {
    std::vector<std::int64_t> v;
    for (const auto& s : r.steps)
        v.push_back(s.step);
    return v;
}

std::string configOf(const RankSummary& r) {
    return "level " + (r.profilerLevel.empty() ? std::string("(not written)") : r.profilerLevel) + ", AI Core metrics " +
           (r.aicMetrics.empty() ? std::string("(not written)") : r.aicMetrics) + ", activities " +
           (r.activities.empty() ? std::string("(not written)") : r.activities);
}

void findDifferentRanks(ClusterResult& c) {
    std::vector<std::size_t> ok;
    for (std::size_t i = 0; i < c.ranks.size(); ++i) {
        if (c.ranks[i].error.empty())
            ok.push_back(i);
        else
            c.findings.push_back({"rank_not_analysed", "error", rankName(c.ranks[i]) + " (" + c.ranks[i].label +
                                                                     ") was not analysed: " + c.ranks[i].error});
    }
    if (ok.empty()) return;
    std::vector<std::vector<std::int64_t>> steps;
    std::vector<std::string> configs;
    for (std::size_t i : ok) {
        steps.push_back(stepNumbers(c.ranks[i]));
        configs.push_back(configOf(c.ranks[i]));
    }
    c.steps = majority(steps);
    const std::string config = majority(configs);
    auto list = [](const std::vector<std::int64_t>& v) {
        std::string s;
        for (auto n : v)
            s += (s.empty() ? "" : ", ") + (n < 0 ? std::string("whole capture") : std::to_string(n));
        return s.empty() ? std::string("none") : s;
    };
    for (std::size_t k = 0; k < ok.size(); ++k) {
        const RankSummary& r = c.ranks[ok[k]];
        if (steps[k] != c.steps)
            c.findings.push_back({"rank_steps_differ", "warning",
                                  fmt::format("{} captured steps {} while most ranks captured {}; it is still "
                                              "analysed, compared on the steps they share.",
                                              rankName(r), list(steps[k]), list(c.steps))});
        if (configs[k] != config)
            c.findings.push_back({"rank_config_differs", "warning",
                                  fmt::format("{} was collected with {} while most ranks used {}; its figures "
                                              "may not be comparable.",
                                              rankName(r), configs[k], config)});
    }
    std::map<int, std::size_t> ids;
    for (const auto& r : c.ranks)
        if (r.rankId >= 0) ++ids[r.rankId];
    for (auto& r : c.ranks)
        r.idShared = r.rankId >= 0 && ids[r.rankId] > 1;
    ids.clear();
    for (std::size_t i : ok)
        if (c.ranks[i].rankId >= 0 && ids[c.ranks[i].rankId]++ == 1)
            c.findings.push_back({"rank_id_repeated", "warning",
                                  fmt::format("More than one folder is rank {}; the ranks may come from "
                                              "different collections.",
                                              c.ranks[i].rankId)});
}

// The part that arrived last: the smallest wait, ties to the latest start; -1 when several parts share
// both (nobody arrived last).
template <class Parts, class Wait, class Start> int lastOf(const Parts& parts, Wait wait, Start start) {
    int best = -1;
    bool tie = false;
    for (int i = 0; i < static_cast<int>(parts.size()); ++i) {
        if (best < 0) {
            best = i;
            continue;
        }
        const auto& p = parts[static_cast<std::size_t>(i)];
        const auto& b = parts[static_cast<std::size_t>(best)];
        if (wait(p) < wait(b) || (wait(p) == wait(b) && start(p) > start(b))) {
            best = i;
            tie = false;
        } else if (wait(p) == wait(b) && start(p) == start(b)) {
            tie = true;
        }
    }
    return tie ? -1 : best;
}

void matchCollectives(ClusterResult& c) {
    std::map<std::pair<std::int64_t, std::string>, ClusterCollective> byKey;
    for (std::size_t i = 0; i < c.ranks.size(); ++i)
        for (const auto& op : c.ranks[i].collectives) {
            ClusterCollective& cc = byKey[{op.step, op.key}];
            cc.key = op.key;
            cc.step = op.step;
            cc.parts.push_back({static_cast<int>(i), op.start, op.elapse, op.wait, op.transit});
        }
    c.lastArriverCount.assign(c.ranks.size(), 0);
    std::vector<ClusterCollective> all;
    for (auto& [k, cc] : byKey) {
        if (cc.parts.size() < 2) continue;
        const int last = lastOf(cc.parts, [](const CollectivePart& p) { return p.wait; },
                                [](const CollectivePart& p) { return p.start; });
        TimeNs lo = cc.parts.front().start, hi = lo, sumWait = 0, sumTransit = 0;
        for (const auto& p : cc.parts) {
            lo = std::min(lo, p.start);
            hi = std::max(hi, p.start);
            cc.maxWait = std::max(cc.maxWait, p.wait);
            sumWait += p.wait;
            sumTransit += p.transit;
        }
        cc.lastArriver = last < 0 ? -1 : cc.parts[static_cast<std::size_t>(last)].rank;
        cc.skew = hi - lo;
        cc.waitRatio = sumWait + sumTransit > 0
                           ? std::round(1e6 * static_cast<double>(sumWait) / static_cast<double>(sumWait + sumTransit)) / 1e6
                           : 0.0;
        if (cc.lastArriver >= 0) ++c.lastArriverCount[static_cast<std::size_t>(cc.lastArriver)];
        all.push_back(std::move(cc));
    }
    c.collectivesMatched = all.size();
    std::stable_sort(all.begin(), all.end(),
                     [](const ClusterCollective& a, const ClusterCollective& b) { return a.maxWait > b.maxWait; });
    if (all.size() > 20) all.resize(20);
    c.collectives = std::move(all);
}

// The rank's collectives of `step` at which it arrived last (recomputed over every match, not only the top 20).
void corroborate(SlowRankEntry& e, const ClusterResult& c) {
    std::map<std::string, std::vector<std::pair<int, const RankCollective*>>> ops;
    for (std::size_t i = 0; i < c.ranks.size(); ++i)
        for (const auto& op : c.ranks[i].collectives)
            if (op.step == e.step) ops[op.key].push_back({static_cast<int>(i), &op});
    for (const auto& [key, parts] : ops) {
        if (parts.size() < 2) continue;
        ++e.collectivesInStep;
        using Part = std::pair<int, const RankCollective*>;
        const int last = lastOf(parts, [](const Part& p) { return p.second->wait; },
                                [](const Part& p) { return p.second->start; });
        TimeNs othersMax = 0;
        if (last < 0 || parts[static_cast<std::size_t>(last)].first != e.rank) continue;
        for (const auto& p : parts)
            if (p.first != e.rank) othersMax = std::max(othersMax, p.second->wait);
        ++e.lastAtCollectives;
        if (othersMax > e.othersWaitMax) {
            e.othersWaitMax = othersMax;
            e.worstCollective = key;
        }
    }
}

TimeNs metricOf(const RankStepRow& r, const std::string& metric) {
    if (metric == "computing") return r.computing;
    if (metric == "free") return r.free;
    if (metric == "prelaunch") return r.preparing;
    return r.commNotOverlapped;
}

void addEvidence(SlowRankEntry& e, const ClusterResult& c) {
    const RankSummary& r = c.ranks[static_cast<std::size_t>(e.rank)];
    const std::string name = rankName(r);
    const bool low = e.metric == "comm_not_overlapped";
    e.evidence.push_back(fmt::format("{}'s {} in step {} is {} against a cluster median of {} ({} {}).", name,
                                     e.metric == "prelaunch" ? "prelaunch" : e.metric, e.step, ms(e.value),
                                     ms(e.median), ms(e.excess), low ? "less: the others wait for it" : "more"));
    if (e.collectivesInStep == 0)
        e.evidence.push_back("No communication.json op is shared by the ranks in this step, so who waits for whom "
                             "cannot be checked: the spread alone names it.");
    if (e.lastAtCollectives > 0)
        e.evidence.push_back(fmt::format(
            "It arrives last at {} of the {} collectives of step {} that several ranks share; at {} another rank "
            "waits {} for it.",
            e.lastAtCollectives, e.collectivesInStep, e.step, e.worstCollective, ms(e.othersWaitMax)));
    e.restatedEvidence = e.evidence.size();
    for (const auto& w : r.topWindows) {
        if (w.step != std::to_string(e.step)) continue;
        std::string labels;
        for (const auto& l : w.labels)
            labels += (labels.empty() ? "" : ", ") + l;
        e.evidence.push_back(fmt::format("Its largest idle window in that step is {} ({}, {}){}.", w.id, w.scope,
                                         ms(w.dur), labels.empty() ? "" : ": " + labels));
        break;
    }
}

void findSlowRanks(ClusterResult& c) {
    bool anyJson = false;
    for (const auto& r : c.ranks)
        anyJson = anyJson || r.hasCommunicationJson;
    for (std::int64_t step : c.steps) {
        std::vector<std::pair<int, const RankStepRow*>> rows;
        for (std::size_t i = 0; i < c.ranks.size(); ++i)
            for (const auto& s : c.ranks[i].steps)
                if (s.step == step) {
                    rows.push_back({static_cast<int>(i), &s});
                    break;
                }
        if (rows.size() < 2) continue;
        for (const std::string metric : {"computing", "free", "prelaunch", "comm_not_overlapped"}) {
            std::vector<TimeNs> v;
            for (const auto& [i, row] : rows)
                v.push_back(metricOf(*row, metric));
            const auto [mn, mx] = std::minmax_element(v.begin(), v.end());
            double mean = 0;
            for (TimeNs x : v)
                mean += static_cast<double>(x);
            mean /= static_cast<double>(v.size());
            if (mean <= 0) continue;
            const double spread = static_cast<double>(*mx - *mn) / mean;
            if (spread <= kSpreadThreshold) continue;
            const bool low = metric == "comm_not_overlapped";
            const std::size_t at = static_cast<std::size_t>((low ? mn : mx) - v.begin());
            SlowRankEntry e;
            e.rank = rows[at].first;
            e.step = step;
            e.metric = metric;
            e.value = v[at];
            e.median = median(v);
            e.excess = low ? e.median - e.value : e.value - e.median;
            e.spread = std::round(spread * 1e6) / 1e6;
            corroborate(e, c);
            e.corroborated = !anyJson || e.lastAtCollectives > 0;
            if (!e.corroborated) {
                c.findings.push_back(
                    {"spread_not_corroborated", "info",
                     fmt::format("In step {} the {} of the ranks spreads by {:.1f} % ({} stands out at {}), but it "
                                 "arrives last at none of the step's shared collectives, so it is not named slow.",
                                 step, metric, spread * 100, rankName(c.ranks[e.rank]), ms(e.value))});
                continue;
            }
            addEvidence(e, c);
            c.slowRanks.push_back(std::move(e));
        }
    }
}

double usOf(TimeNs ns) {
    return static_cast<double>(ns) / 1e3;
}

void crossCheckClusterCsv(ClusterResult& c, const std::string& parentDir) {
    const std::filesystem::path file =
        std::filesystem::path(parentDir) / "cluster_analysis_output" / "cluster_step_trace_time.csv";
    std::error_code ec;
    if (parentDir.empty() || !std::filesystem::is_regular_file(file, ec)) return;
    c.crossCheck.file = file.string();
    FileBuffer fb = readWholeFile(file.string(), 256ULL << 20);
    if (!fb.error.empty()) {
        c.findings.push_back({"cluster_csv_unreadable", "warning", "Cannot read " + file.string() + ": " + fb.error});
        return;
    }
    CsvReader csv(fb.view());
    std::vector<std::string_view> f;
    if (!csv.next(f)) return;
    const CsvHeader h(f);
    const int cStep = h.find({"Step"}), cType = h.find({"Type"}), cIndex = h.find({"Index"});
    if (cType < 0 || cIndex < 0) {
        c.findings.push_back({"cluster_csv_unusable", "warning",
                              file.string() + " has no Type or Index column; it is not compared."});
        return;
    }
    c.crossCheck.available = true;
    struct Col {
        const char* name;
        TimeNs RankStepRow::*field;
    };
    const Col cols[] = {{"Computing", &RankStepRow::computing},
                        {"Communication(Not Overlapped)", &RankStepRow::commNotOverlapped},
                        {"Overlapped", &RankStepRow::overlapped},
                        {"Communication", &RankStepRow::communication},
                        {"Free", &RankStepRow::free},
                        {"Stage", &RankStepRow::stage},
                        {"Preparing", &RankStepRow::preparing}};
    while (csv.next(f)) {
        if (static_cast<int>(f.size()) <= std::max(cType, cIndex) || f[static_cast<std::size_t>(cType)] != "rank")
            continue;
        const auto idx = parseInt(f[static_cast<std::size_t>(cIndex)]);
        const auto stepNo = cStep >= 0 && cStep < static_cast<int>(f.size()) ? parseInt(f[static_cast<std::size_t>(cStep)])
                                                                              : std::optional<std::int64_t>{};
        if (!idx) continue;
        for (const auto& r : c.ranks) {
            if (r.rankId != *idx || !r.error.empty()) continue;
            const RankStepRow* row = nullptr;
            for (const auto& s : r.steps)
                if (!stepNo || s.step == *stepNo || r.steps.size() == 1) row = &s;
            if (!row) continue;
            for (const Col& col : cols) {
                const int k = h.find({col.name});
                if (k < 0 || k >= static_cast<int>(f.size())) continue;
                const std::string text(f[static_cast<std::size_t>(k)]);
                char* end = nullptr;
                const double theirs = std::strtod(text.c_str(), &end);
                if (end == text.c_str()) continue;
                const double ours = usOf(row->*(col.field));
                ++c.crossCheck.compared;
                const double diff = std::fabs(ours - theirs);
                if (diff > 1.0 && diff > 0.005 * std::fabs(theirs)) {
                    ++c.crossCheck.mismatches;
                    if (c.crossCheck.mismatchNotes.size() < 10)
                        c.crossCheck.mismatchNotes.push_back(fmt::format(
                            "{} step {} {}: ours {:.3f} us, the profiler's {:.3f} us", rankName(r), row->step,
                            col.name, ours, theirs));
                }
            }
            break;
        }
    }
}

} // namespace

ClusterResult analyzeCluster(std::vector<RankSummary> ranks, const std::string& parentDir) {
    ClusterResult c;
    c.ranks = std::move(ranks);
    findDifferentRanks(c);
    matchCollectives(c);
    findSlowRanks(c);
    crossCheckClusterCsv(c, parentDir);
    return c;
}

ClusterResult analyzeClusterFolder(const std::string& parentDir, const Rulebook& rules) {
    const DiscoveryResult found = discoverProfiles(parentDir);
    std::vector<RankSummary> summaries;
    for (const RankFolder& rank : found.ranks) {
        if (!isRankFolder(rank)) continue;
        // One rank's model at a time: it is freed when this iteration ends.
        try {
            LoadResult loaded = loadRank(rank);
            if (loaded.tooLarge || !loaded.hasAnyData || !loaded.profile) {
                summaries.push_back(failedRank(rank, loaded.tooLarge && loaded.profile && !loaded.profile->loadFindings.empty()
                                                         ? loaded.profile->loadFindings.front().seen
                                                         : noDataMessage(rank, loaded)));
                continue;
            }
            const AnalysisResult result = analyzeProfile(*loaded.profile, rules);
            summaries.push_back(summarizeRank(rank, *loaded.profile, result));
        } catch (const std::bad_alloc&) {
            summaries.push_back(failedRank(rank, "memory ran out while analysing it"));
        }
    }
    return analyzeCluster(std::move(summaries), parentDir);
}

} // namespace bs
