// Compares the ranks' summaries: the step × rank table, collectives matched by name, slow ranks.
#include "cluster/cluster_analysis.h"

#include "analysis/analysis_run.h"
#include "io/csv_reader.h"
#include "io/file_buffer.h"
#include "io/profile_loader.h"

#include "i18n/message.h"
#include <fmt/format.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <string_view>
#include <unordered_map>
#include <new>

namespace bs {

namespace {

constexpr double kSpreadThreshold = 0.05; // msprof-analyze's slow-rank rule

std::string ms(TimeNs ns) {
    return fmt::format("{:.2f} ms", static_cast<double>(ns) / 1e6);
}

std::string rankName(const RankSummary& r) {
    if (r.rankId < 0) return r.label;
    return r.idShared ? msg("rank {} ({})", r.rankId, r.label) : msg("rank {}", r.rankId);
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
    return msg("level {}, AI Core metrics {}, activities {}",
               r.profilerLevel.empty() ? msg("(not written)") : r.profilerLevel,
               r.aicMetrics.empty() ? msg("(not written)") : r.aicMetrics,
               r.activities.empty() ? msg("(not written)") : r.activities);
}

void findDifferentRanks(ClusterResult& c) {
    std::vector<std::size_t> ok;
    for (std::size_t i = 0; i < c.ranks.size(); ++i) {
        if (c.ranks[i].error.empty())
            ok.push_back(i);
        else
            c.findings.push_back({"rank_not_analysed", "error", msg("{} ({}) was not analysed: {}", rankName(c.ranks[i]),
                                                                         c.ranks[i].label, c.ranks[i].error)});
    }
    // Analysed, but without part of its data: its figures rest on what could be read.
    for (const auto& r : c.ranks)
        for (const auto& problem : r.dataProblems)
            c.findings.push_back({"rank_data_quality", "warning",
                                  msg("{} ({}) was analysed without part of its data: {}", rankName(r), r.label, problem)});
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
            s += (s.empty() ? "" : ", ") + (n < 0 ? msg("whole capture") : std::to_string(n));
        return s.empty() ? msg("none") : s;
    };
    for (std::size_t k = 0; k < ok.size(); ++k) {
        const RankSummary& r = c.ranks[ok[k]];
        if (steps[k] != c.steps)
            c.findings.push_back({"rank_steps_differ", "warning",
                                  msg("{} captured steps {} while most ranks captured {}; it is still "
                                              "analysed, compared on the steps they share.",
                                              rankName(r), list(steps[k]), list(c.steps))});
        if (configs[k] != config)
            c.findings.push_back({"rank_config_differs", "warning",
                                  msg("{} was collected with {} while most ranks used {}; its figures "
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
                                  msg("More than one folder is rank {}; the ranks may come from "
                                              "different collections.",
                                              c.ranks[i].rankId)});
}

// One collective of one step over every rank folded in so far: running figures, so who arrived last and
// who waits longest are known without keeping every rank's part.
struct CollectiveAgg {
    std::int64_t step = -1;
    std::uint32_t key = 0; // index into Table::keys
    std::uint32_t count = 0;
    TimeNs minStart = 0, maxStart = 0, maxWait = 0, sumWait = 0, sumTransit = 0;
    // The last arriver: the smallest wait, ties to the latest start; `tie` when another rank shares both
    // (nobody arrived last). Ranks come in index order, so ties resolve as over the full list.
    int last = -1;
    TimeNs lastWait = 0, lastStart = 0;
    bool tie = false;
    std::vector<CollectivePart> parts; // sorted by wait while folding; bounded by kCollectivePartsKept

    void add(const CollectivePart& p) {
        if (count == 0) {
            minStart = maxStart = p.start;
            last = p.rank, lastWait = p.wait, lastStart = p.start;
        } else {
            minStart = std::min(minStart, p.start);
            maxStart = std::max(maxStart, p.start);
            if (p.wait < lastWait || (p.wait == lastWait && p.start > lastStart)) {
                last = p.rank, lastWait = p.wait, lastStart = p.start;
                tie = false;
            } else if (p.wait == lastWait && p.start == lastStart) {
                tie = true;
            }
        }
        ++count;
        maxWait = std::max(maxWait, p.wait);
        sumWait += p.wait;
        sumTransit += p.transit;
        const auto at = std::upper_bound(parts.begin(), parts.end(), p.wait,
                                         [](TimeNs w, const CollectivePart& q) { return w < q.wait; });
        parts.insert(at, p);
        if (parts.size() > kCollectivePartsKept) // drop the middle: keep the smallest and the largest waits
            parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(kCollectivePartsKept / 2));
    }
    int lastArriver() const { return tie ? -1 : last; }
};

} // namespace

struct ClusterBuilder::Table {
    // Heterogeneous lookup by string_view (no std::string per lookup).
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view v) const { return std::hash<std::string_view>{}(v); }
    };
    std::vector<RankSummary> ranks;
    std::unordered_map<std::string, std::uint32_t, Hash, std::equal_to<>> keyIds;
    std::vector<const std::string*> keys;
    // Per key id, its (step, agg index) entries: almost always one (a name recurs only across steps).
    std::vector<std::vector<std::pair<std::int64_t, std::uint32_t>>> index;
    std::vector<CollectiveAgg> aggs;

    std::uint32_t keyId(std::string_view key) {
        auto k = keyIds.find(key);
        if (k == keyIds.end()) {
            k = keyIds.emplace(std::string(key), static_cast<std::uint32_t>(keys.size())).first;
            keys.push_back(&k->first);
            index.emplace_back();
        }
        return k->second;
    }
    void fold(std::uint32_t key, std::int64_t step, const CollectivePart& part) {
        auto& slots = index[key];
        std::uint32_t at = 0;
        auto it = std::find_if(slots.begin(), slots.end(), [&](const auto& e) { return e.first == step; });
        if (it != slots.end()) {
            at = it->second;
        } else {
            at = static_cast<std::uint32_t>(aggs.size());
            slots.push_back({step, at});
            aggs.emplace_back();
            aggs.back().step = step;
            aggs.back().key = key;
        }
        aggs[at].add(part);
    }

    const std::string& keyOf(const CollectiveAgg& a) const { return *keys[a.key]; }
    // Shared collectives (two ranks or more) of one step (all steps when `step` is null), by name.
    std::vector<const CollectiveAgg*> shared(const std::int64_t* step) const {
        std::vector<const CollectiveAgg*> out;
        for (const auto& a : aggs)
            if (a.count >= 2 && (!step || a.step == *step)) out.push_back(&a);
        std::sort(out.begin(), out.end(), [this](const CollectiveAgg* x, const CollectiveAgg* y) {
            return x->step != y->step ? x->step < y->step : keyOf(*x) < keyOf(*y);
        });
        return out;
    }
};

namespace {

void matchCollectives(ClusterResult& c, const ClusterBuilder::Table& t) {
    c.lastArriverCount.assign(c.ranks.size(), 0);
    std::vector<const CollectiveAgg*> all = t.shared(nullptr);
    for (const CollectiveAgg* a : all)
        if (a->lastArriver() >= 0) ++c.lastArriverCount[static_cast<std::size_t>(a->lastArriver())];
    c.collectivesMatched = all.size();
    std::stable_sort(all.begin(), all.end(),
                     [](const CollectiveAgg* a, const CollectiveAgg* b) { return a->maxWait > b->maxWait; });
    if (all.size() > 20) all.resize(20);
    for (const CollectiveAgg* a : all) {
        ClusterCollective cc;
        cc.key = t.keyOf(*a);
        cc.step = a->step;
        cc.ranksTotal = a->count;
        cc.parts = a->parts;
        std::sort(cc.parts.begin(), cc.parts.end(),
                  [](const CollectivePart& x, const CollectivePart& y) { return x.rank < y.rank; });
        cc.lastArriver = a->lastArriver();
        cc.skew = a->maxStart - a->minStart;
        cc.maxWait = a->maxWait;
        cc.waitRatio = a->sumWait + a->sumTransit > 0
                           ? std::round(1e6 * static_cast<double>(a->sumWait) /
                                        static_cast<double>(a->sumWait + a->sumTransit)) /
                                 1e6
                           : 0.0;
        c.collectives.push_back(std::move(cc));
    }
}

// The rank's collectives of `step` at which it arrived last (over every match, not only the top 20).
void corroborate(SlowRankEntry& e, const ClusterBuilder::Table& t) {
    for (const CollectiveAgg* a : t.shared(&e.step)) {
        ++e.collectivesInStep;
        if (a->lastArriver() != e.rank) continue;
        ++e.lastAtCollectives;
        // The last arriver has the smallest wait, so the largest wait is another rank's (or, all waits
        // being equal, the same figure).
        const TimeNs othersMax = a->maxWait;
        if (othersMax > e.othersWaitMax) {
            e.othersWaitMax = othersMax;
            e.worstCollective = t.keyOf(*a);
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
    e.evidence.push_back(low ? msg("{}'s {} in step {} is {} against a cluster median of {} ({} less: the others wait "
                                   "for it).",
                                   name, e.metric, e.step, ms(e.value), ms(e.median), ms(e.excess))
                             : msg("{}'s {} in step {} is {} against a cluster median of {} ({} more).", name,
                                   e.metric, e.step, ms(e.value), ms(e.median), ms(e.excess)));
    if (e.collectivesInStep == 0)
        e.evidence.push_back(msg("No communication.json op is shared by the ranks in this step, so who waits for whom "
                                 "cannot be checked: the spread alone names it."));
    if (e.lastAtCollectives > 0)
        e.evidence.push_back(msg(
            "It arrives last at {} of the {} collectives of step {} that several ranks share; at {} another rank "
            "waits {} for it.",
            e.lastAtCollectives, e.collectivesInStep, e.step, e.worstCollective, ms(e.othersWaitMax)));
    e.restatedEvidence = e.evidence.size();
    for (const auto& w : r.topWindows) {
        if (w.step != std::to_string(e.step)) continue;
        std::string labels;
        for (const auto& l : w.labels)
            labels += (labels.empty() ? "" : ", ") + l;
        e.evidence.push_back(msg("Its largest idle window in that step is {} ({}, {}){}.", w.id, w.scope,
                                         ms(w.dur), labels.empty() ? "" : ": " + labels));
        break;
    }
}

void findSlowRanks(ClusterResult& c, const ClusterBuilder::Table& t) {
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
            corroborate(e, t);
            e.corroborated = !anyJson || e.lastAtCollectives > 0;
            if (!e.corroborated) {
                c.findings.push_back(
                    {"spread_not_corroborated", "info",
                     msg("In step {} the {} of the ranks spreads by {:.1f} % ({} stands out at {}), but it "
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
        c.findings.push_back({"cluster_csv_unreadable", "warning", msg("Cannot read {}: {}", file.string(), fb.error)});
        return;
    }
    CsvReader csv(fb.view());
    std::vector<std::string_view> f;
    if (!csv.next(f)) return;
    const CsvHeader h(f);
    const int cStep = h.find({"Step"}), cType = h.find({"Type"}), cIndex = h.find({"Index"});
    if (cType < 0 || cIndex < 0) {
        c.findings.push_back({"cluster_csv_unusable", "warning",
                              msg("{} has no Type or Index column; it is not compared.", file.string())});
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
                        c.crossCheck.mismatchNotes.push_back(msg(
                            "{} step {} {}: ours {:.3f} us, the profiler's {:.3f} us", rankName(r), row->step,
                            col.name, ours, theirs));
                }
            }
            break;
        }
    }
}

} // namespace

void releaseFreedMemory() {
#ifdef __GLIBC__
    // The rank's model was freed; hand glibc's free pages back so the next rank's model does not land on a
    // fragmented heap (the peak otherwise creeps up rank after rank).
    malloc_trim(0);
#endif
}

ClusterBuilder::ClusterBuilder() : t_(std::make_unique<Table>()) {}
ClusterBuilder::~ClusterBuilder() = default;
ClusterBuilder::ClusterBuilder(ClusterBuilder&&) noexcept = default;
ClusterBuilder& ClusterBuilder::operator=(ClusterBuilder&&) noexcept = default;

std::size_t ClusterBuilder::size() const {
    return t_->ranks.size();
}

void ClusterBuilder::add(RankSummary rank) {
    const int at = beginRank(std::move(rank));
    RankSummary& r = t_->ranks.back();
    for (const RankCollective& op : r.collectives)
        t_->fold(t_->keyId(op.key), op.step, {at, op.start, op.elapse, op.wait, op.transit});
    r.collectives.clear();
    r.collectives.shrink_to_fit();
}

int ClusterBuilder::beginRank(RankSummary rank) {
    t_->ranks.push_back(std::move(rank));
    return static_cast<int>(t_->ranks.size()) - 1;
}

std::uint32_t ClusterBuilder::collectiveKey(std::string_view key) {
    return t_->keyId(key);
}

void ClusterBuilder::addCollective(int rank, std::uint32_t key, std::int64_t step, TimeNs start, TimeNs elapse,
                                   TimeNs wait, TimeNs transit) {
    t_->fold(key, step, {rank, start, elapse, wait, transit});
}

ClusterResult ClusterBuilder::finish(const std::string& parentDir) {
    ClusterResult c;
    c.ranks = std::move(t_->ranks);
    findDifferentRanks(c);
    matchCollectives(c, *t_);
    findSlowRanks(c, *t_);
    crossCheckClusterCsv(c, parentDir);
    *t_ = Table{};
    return c;
}

ClusterResult analyzeCluster(std::vector<RankSummary> ranks, const std::string& parentDir) {
    ClusterBuilder b;
    for (auto& r : ranks)
        b.add(std::move(r));
    return b.finish(parentDir);
}

ClusterResult analyzeClusterFolder(const std::string& parentDir, const Rulebook& rules) {
    const DiscoveryResult found = discoverProfiles(parentDir);
    ClusterBuilder summaries;
    for (const RankFolder& rank : found.ranks) {
        if (!isRankFolder(rank)) continue;
        // One rank's model at a time: it is freed when this iteration ends.
        try {
            LoadResult loaded = loadRank(rank);
            if (loaded.tooLarge || !loaded.hasAnyData || !loaded.profile) {
                summaries.add(failedRank(rank, loaded.tooLarge && loaded.profile && !loaded.profile->loadFindings.empty()
                                                   ? loaded.profile->loadFindings.front().seen
                                                   : noDataMessage(rank, loaded)));
                continue;
            }
            const AnalysisResult result = analyzeProfile(*loaded.profile, rules);
            summaries.add(summarizeRank(rank, *loaded.profile, result));
        } catch (const std::bad_alloc&) {
            summaries.add(failedRank(rank, msg("memory ran out while analysing it")));
        }
        releaseFreedMemory();
    }
    return summaries.finish(parentDir);
}

} // namespace bs
