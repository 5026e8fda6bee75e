// Compares the ranks' summaries: the step × rank table, collectives matched by name, slow ranks.
#include "cluster/cluster_analysis.h"

#include "pipeline/analysis_run.h"
#include "replay/replay.h"
#include "report/gain_text.h"
#include "analysis/anomaly_model.h"
#include "io/csv_reader.h"
#include "io/file_buffer.h"
#include "io/profile_loader.h"

#include "i18n/message.h"
#include <fmt/format.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <array>
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
std::string signedMs(TimeNs ns) {
    return fmt::format("{:+.2f} ms", static_cast<double>(ns) / 1e6);
}
std::string signedMs3(TimeNs ns) {
    return fmt::format("{:+.3f} ms", static_cast<double>(ns) / 1e6);
}
std::string us(TimeNs ns) {
    return fmt::format("{:.1f} us", static_cast<double>(ns) / 1e3);
}
std::string signedUs(TimeNs ns) {
    return fmt::format("{:+.1f} us", static_cast<double>(ns) / 1e3);
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

// One collective of one step: every rank's part (the clock alignment needs each rank's end).
struct CollectiveAgg {
    std::int64_t step = -1;
    std::uint32_t key = 0; // index into Table::keys
    std::vector<CollectivePart> parts;
    // Per part, the rank's device before the op (RankCollective::before*), parallel to `parts`.
    std::vector<std::array<TimeNs, 3>> before;
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
    void fold(std::uint32_t key, std::int64_t step, const CollectivePart& part, std::array<TimeNs, 3> before) {
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
        aggs[at].parts.push_back(part);
        aggs[at].before.push_back(before);
    }
    const std::string& keyOf(const CollectiveAgg& a) const { return *keys[a.key]; }
};

namespace {

// ---- ANALYSIS.md §13.1: one clock ----

constexpr TimeNs kSpreadFindingNs = 50'000;    // ends that disagree by more: drift or a wrong match
constexpr TimeNs kOffsetFindingNs = 1'000'000; // clocks of different nodes
constexpr TimeNs kArrivalFloorNs = 1'000;      // timestamps are written in µs: a smaller gap is a tie
constexpr TimeNs kCorroborateFloorNs = 50'000; // §13.2: synchronization within max(50 µs, 10 %) of the gap
constexpr TimeNs kCostFloorNs = 100'000;       // §13.3: slow when the cost ≥ max(0.1 ms, 0.5 % of service)

TimeNs endOf(const CollectivePart& p) {
    return p.start + p.elapse;
}

// Median absolute deviation.
TimeNs mad(const std::vector<TimeNs>& v, TimeNs med) {
    std::vector<TimeNs> d;
    d.reserve(v.size());
    for (TimeNs x : v)
        d.push_back(x > med ? x - med : med - x);
    return median(std::move(d));
}

// The order in which ranks become references: the lowest rank id first (ids unknown last), then discovery.
std::vector<int> referenceOrder(const ClusterResult& c) {
    std::vector<int> order;
    for (std::size_t i = 0; i < c.ranks.size(); ++i)
        if (c.ranks[i].error.empty()) order.push_back(static_cast<int>(i));
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const int x = c.ranks[static_cast<std::size_t>(a)].rankId, y = c.ranks[static_cast<std::size_t>(b)].rankId;
        if ((x < 0) != (y < 0)) return y < 0;
        return x < y;
    });
    return order;
}

void alignClocks(ClusterResult& c, ClusterBuilder::Table& t) {
    const std::size_t n = c.ranks.size();
    c.clockOffsets.assign(n, ClockOffset{});
    for (std::size_t i = 0; i < n; ++i)
        c.clockOffsets[i].rank = static_cast<int>(i);
    std::vector<char> resolved(n, 0);
    // Round by round: ranks resolved in earlier rounds measure the ranks they share collectives with.
    for (int ref : referenceOrder(c)) {
        if (resolved[static_cast<std::size_t>(ref)]) continue;
        resolved[static_cast<std::size_t>(ref)] = 1;
        c.clockOffsets[static_cast<std::size_t>(ref)].reference = ref;
        std::vector<int> frontier{ref};
        while (!frontier.empty()) {
            std::vector<char> inFrontier(n, 0);
            for (int f : frontier)
                inFrontier[static_cast<std::size_t>(f)] = 1;
            // diffs[r][via]: end(r) − end(via) over the collectives they share.
            std::map<int, std::map<int, std::vector<TimeNs>>> diffs;
            for (const CollectiveAgg& a : t.aggs) {
                const CollectivePart* via = nullptr;
                for (const auto& p : a.parts)
                    if (p.start > 0 && inFrontier[static_cast<std::size_t>(p.rank)] && (!via || p.rank < via->rank))
                        via = &p;
                if (!via) continue;
                for (const auto& p : a.parts)
                    if (p.start > 0 && !resolved[static_cast<std::size_t>(p.rank)])
                        diffs[p.rank][via->rank].push_back(endOf(p) - endOf(*via));
            }
            std::vector<int> next;
            for (auto& [r, byVia] : diffs) {
                // The rank measured the most collectives against, the lowest index on a tie.
                auto best = byVia.begin();
                for (auto it = byVia.begin(); it != byVia.end(); ++it)
                    if (it->second.size() > best->second.size()) best = it;
                const TimeNs med = median(best->second);
                ClockOffset& o = c.clockOffsets[static_cast<std::size_t>(r)];
                const ClockOffset& v = c.clockOffsets[static_cast<std::size_t>(best->first)];
                o.reference = ref;
                o.via = best->first == ref ? -1 : best->first;
                o.offset = v.offset + med;
                o.spread = mad(best->second, med);
                o.collectives = best->second.size();
                resolved[static_cast<std::size_t>(r)] = 1;
                next.push_back(r);
            }
            frontier = std::move(next);
        }
    }
    for (auto& a : t.aggs)
        for (auto& p : a.parts)
            p.aligned = p.start - c.clockOffsets[static_cast<std::size_t>(p.rank)].offset;
    for (const ClockOffset& o : c.clockOffsets) {
        const RankSummary& r = c.ranks[static_cast<std::size_t>(o.rank)];
        if (!r.error.empty() || o.reference == o.rank) continue;
        if (o.spread > kSpreadFindingNs)
            c.findings.push_back({"clock_spread", "warning",
                                  msg("The collectives' ends of {} and {} disagree by {} (median absolute deviation "
                                      "over {} collectives, more than 50 us): the clocks drift during the capture, or "
                                      "ops of the same name are not the same collective. Arrival times of {} are "
                                      "uncertain by that much.",
                                      rankName(r), rankName(c.ranks[static_cast<std::size_t>(o.via >= 0 ? o.via : o.reference)]),
                                      us(o.spread), o.collectives, rankName(r))});
        if (o.offset > kOffsetFindingNs || o.offset < -kOffsetFindingNs)
            c.findings.push_back({"clock_offset", "info",
                                  msg("The clock of {} is {} from the clock of {} (from the ends of {} collectives): "
                                      "they are different hosts' clocks. Every comparison across ranks uses the "
                                      "aligned times.",
                                      rankName(r), signedUs(o.offset),
                                      rankName(c.ranks[static_cast<std::size_t>(o.reference)]), o.collectives)});
    }
    // Ranks with collectives that share none with another rank: compared on their own clocks.
    for (std::size_t i = 0; i < n; ++i) {
        const RankSummary& r = c.ranks[i];
        if (!r.error.empty() || c.clockOffsets[i].reference != static_cast<int>(i)) continue;
        bool sharesAny = false;
        for (std::size_t j = 0; j < n && !sharesAny; ++j)
            sharesAny = j != i && c.clockOffsets[j].reference == static_cast<int>(i);
        bool others = false;
        for (std::size_t j = 0; j < n && !others; ++j)
            others = j != i && c.ranks[j].error.empty() && c.clockOffsets[j].reference != static_cast<int>(i);
        if (!sharesAny && others && r.hasCommunicationJson)
            c.findings.push_back({"clock_unaligned", "warning",
                                  msg("{} shares no collective with the other ranks, so its clock cannot be aligned "
                                      "with theirs; its times are compared as written.",
                                      rankName(r))});
    }
}

// ---- §13.2: who arrives last ----

struct Arrival {
    int last = -1;               // -1: undetermined
    std::string confidence;
    TimeNs lateness = 0, secondGap = 0, earliestSync = 0, skew = 0;
    std::size_t corroborating = 0, others = 0;
};

Arrival arrivalOf(const CollectiveAgg& a, const ClusterResult& c) {
    Arrival out;
    const CollectivePart* last = nullptr;
    const CollectivePart* second = nullptr;
    const CollectivePart* earliest = nullptr;
    std::size_t timed = 0;
    for (const auto& p : a.parts) {
        if (p.start <= 0) continue;
        ++timed;
        if (!earliest || p.aligned < earliest->aligned) earliest = &p;
        if (!last || p.aligned > last->aligned) {
            second = last;
            last = &p;
        } else if (!second || p.aligned > second->aligned) {
            second = &p;
        }
    }
    if (timed < 2) {
        out.confidence = "undetermined";
        return out;
    }
    out.lateness = last->aligned - earliest->aligned;
    out.skew = out.lateness;
    out.secondGap = last->aligned - second->aligned;
    out.earliestSync = earliest->sync;
    const TimeNs uncertainty = std::max({kArrivalFloorNs, c.clockOffsets[static_cast<std::size_t>(last->rank)].spread,
                                         c.clockOffsets[static_cast<std::size_t>(second->rank)].spread});
    if (out.secondGap <= uncertainty) {
        out.confidence = "undetermined";
        return out;
    }
    out.last = last->rank;
    for (const auto& p : a.parts) {
        if (p.start <= 0 || &p == last) continue;
        ++out.others;
        const TimeNs gap = last->aligned - p.aligned;
        const TimeNs diff = p.sync > gap ? p.sync - gap : gap - p.sync;
        if (diff <= std::max(kCorroborateFloorNs, gap / 10)) ++out.corroborating;
    }
    out.confidence = out.corroborating * 2 >= out.others ? "high" : "medium";
    return out;
}

// The others' waits for the last arriver: each one's gap to its arrival.
std::vector<TimeNs> othersGaps(const CollectiveAgg& a, int last) {
    TimeNs at = 0;
    for (const auto& p : a.parts)
        if (p.rank == last) at = p.aligned;
    std::vector<TimeNs> gaps;
    for (const auto& p : a.parts)
        if (p.start > 0 && p.rank != last) gaps.push_back(at - p.aligned);
    return gaps;
}

const char* kMetrics[] = {"computing", "free", "prelaunch", "comm_not_overlapped"};

TimeNs metricOf(const RankStepRow& r, std::string_view metric) {
    if (metric == "computing") return r.computing;
    if (metric == "free") return r.free;
    if (metric == "prelaunch") return r.preparing;
    return r.commNotOverlapped;
}

// The metric as a sentence names it (the id is for the code; the reader gets the heatmap's words).
std::string metricWords(std::string_view metric) {
    if (metric == "computing") return msg("computing time");
    if (metric == "free") return msg("free time (internal bubbles)");
    if (metric == "prelaunch") return msg("prelaunch time");
    return msg("exposed communication time");
}

// A rank's row of a step: its rows are sorted by step number once, in finish(), so a lookup is a binary
// search (the cost, threshold and imbalance loops make steps x ranks of them).
const RankStepRow* stepRow(const RankSummary& r, std::int64_t step) {
    const auto it = std::lower_bound(r.steps.begin(), r.steps.end(), step,
                                     [](const RankStepRow& row, std::int64_t n) { return row.step < n; });
    return it != r.steps.end() && it->step == step ? &*it : nullptr;
}

// ---- §13.3: cost and cause ----

// §15: one waiting rank's part in what the late rank's arriving on time is worth in a step.
struct WaitGain {
    TimeNs gap = 0;     // Σ of its waits for the late rank (aligned gaps)
    TimeNs gain = 0;    // Σ of min(its replayed gain there alone, its gap)
    std::uint32_t waits = 0;  // the collectives where it waited for the late rank (sync > 0)
    bool alone = true;        // each of them was replayed alone
    bool replayed = true;     // each of them is in its step's all-at-once replay
};

struct StepCost {
    TimeNs cost = 0, loss = 0;
    const CollectiveAgg* worst = nullptr; // the collective the others wait longest for it at
    TimeNs worstCost = 0;
    std::size_t worstWaiting = 0;
    TimeNs worstLateness = 0;
    std::map<int, WaitGain> waiting; // by waiting rank
};

// The median rank of a step among the ranks other than `r` that have the collective: by service, the lower
// middle (with two ranks, the other one).
int medianRank(const ClusterResult& c, std::int64_t step, const CollectiveAgg& a, int r) {
    std::vector<std::pair<TimeNs, int>> v;
    for (const auto& p : a.parts) {
        if (p.rank == r || p.start <= 0) continue;
        if (const RankStepRow* row = stepRow(c.ranks[static_cast<std::size_t>(p.rank)], step))
            v.push_back({row->service, p.rank});
    }
    if (v.empty()) return -1;
    std::sort(v.begin(), v.end());
    return v[(v.size() - 1) / 2].second;
}

struct PartRef {
    const CollectivePart* part = nullptr;
    const std::array<TimeNs, 3>* before = nullptr;
};

PartRef partOf(const CollectiveAgg& a, int rank) {
    for (std::size_t i = 0; i < a.parts.size(); ++i)
        if (a.parts[i].rank == rank) return {&a.parts[i], &a.before[i]};
    return {};
}

struct OpSum {
    double callsMedian = 0, callsRank = 0;
    TimeNs delta = 0;
};

std::string windowKey(const RankWindow& w) {
    return w.scope + '\x1f' + w.before + '\x1f' + w.after + '\x1f' + std::to_string(w.occurrence);
}

void addCause(SlowRank& sr, const ClusterResult& c, const std::vector<std::pair<std::int64_t, const StepCost*>>& slow) {
    SlowCause& k = sr.cause;
    std::map<std::string, OpSum> ops;
    std::size_t counted = 0;
    for (const auto& [step, sc] : slow) {
        const CollectiveAgg& a = *sc->worst;
        const int m = medianRank(c, step, a, sr.rank);
        if (m < 0) continue;
        const RankSummary& R = c.ranks[static_cast<std::size_t>(sr.rank)];
        const RankSummary& M = c.ranks[static_cast<std::size_t>(m)];
        const RankStepRow* rs = stepRow(R, step);
        const RankStepRow* ms_ = stepRow(M, step);
        const PartRef pr = partOf(a, sr.rank), pm = partOf(a, m);
        if (!rs || !ms_ || !pr.part || !pm.part) continue;
        ++counted;
        const TimeNs offR = c.clockOffsets[static_cast<std::size_t>(sr.rank)].offset;
        const TimeNs offM = c.clockOffsets[static_cast<std::size_t>(m)].offset;
        const TimeNs dStart = (rs->start - offR) - (ms_->start - offM);
        const TimeNs dPre = rs->preparing - ms_->preparing;
        const TimeNs dComp = (*pr.before)[0] - (*pm.before)[0];
        const TimeNs dFree = (*pr.before)[1] - (*pm.before)[1];
        const TimeNs dExp = (*pr.before)[2] - (*pm.before)[2];
        const TimeNs late = pr.part->aligned - pm.part->aligned;
        k.stepStart += dStart, k.prelaunch += dPre, k.computing += dComp, k.free += dFree, k.commExposed += dExp;
        k.lateness += late;
        // Ops: the rank's device time per op name against the median rank's, over the whole step.
        std::map<std::string_view, std::pair<const RankOpTotal*, const RankOpTotal*>> byName;
        for (const auto& o : rs->ops)
            byName[o.name].first = &o;
        for (const auto& o : ms_->ops)
            byName[o.name].second = &o;
        for (const auto& [name, pair] : byName) {
            OpSum& s = ops[std::string(name)];
            s.callsRank += pair.first ? pair.first->calls : 0;
            s.callsMedian += pair.second ? pair.second->calls : 0;
            s.delta += (pair.first ? pair.first->dur : 0) - (pair.second ? pair.second->dur : 0);
        }
        // Windows before its arrival that the median rank lacks or has ≥ 5 % shorter (matched by position).
        std::map<std::string, const RankWindow*> theirs;
        for (const auto& w : ms_->windows)
            theirs[windowKey(w)] = &w;
        for (const auto& w : rs->windows) {
            if (w.start >= pr.part->start) continue;
            if (w.scope != "prelaunch" && w.scope != "step_internal") continue;
            const auto t = theirs.find(windowKey(w));
            if (t != theirs.end() && t->second->dur * 20 > w.dur * 19) continue; // the same size there
            k.windows.push_back({step, w.id, w.scope, w.userLine, w.dur, t != theirs.end() ? t->second->dur : -1,
                                 w.labels});
        }
    }
    if (counted == 0) return;
    const auto per = [&](TimeNs& x) { x /= static_cast<TimeNs>(counted); };
    per(k.stepStart), per(k.prelaunch), per(k.computing), per(k.free), per(k.commExposed), per(k.lateness);
    k.rest = k.lateness - (k.stepStart + k.prelaunch + k.computing + k.free + k.commExposed);
    const std::pair<const char*, TimeNs> terms[] = {{"step_start", k.stepStart}, {"prelaunch", k.prelaunch},
                                                    {"computing", k.computing},   {"free", k.free},
                                                    {"comm_exposed", k.commExposed}};
    TimeNs best = 0;
    for (const auto& [name, v] : terms)
        if (v > best) best = v, k.lead = name;
    if (k.lead.empty()) k.lead = "unexplained";
    for (auto& [name, s] : ops) {
        if (s.delta <= 0) continue;
        k.ops.push_back({name, s.callsMedian / static_cast<double>(counted), s.callsRank / static_cast<double>(counted),
                         s.delta / static_cast<TimeNs>(counted)});
    }
    std::stable_sort(k.ops.begin(), k.ops.end(), [](const CauseOp& x, const CauseOp& y) { return x.delta > y.delta; });
    if (k.ops.size() > 3) k.ops.resize(3);
    std::stable_sort(k.windows.begin(), k.windows.end(),
                     [](const CauseWindow& x, const CauseWindow& y) { return x.dur > y.dur; });
    if (k.windows.size() > 5) k.windows.resize(5);
}

std::string termName(const std::string& lead) {
    if (lead == "step_start") return msg("a later step start");
    if (lead == "prelaunch") return msg("a longer prelaunch");
    if (lead == "computing") return msg("computing");
    if (lead == "free") return msg("idle time");
    if (lead == "comm_exposed") return msg("exposed communication");
    return msg("nothing the device figures show");
}

TimeNs termValue(const SlowCause& k) {
    if (k.lead == "step_start") return k.stepStart;
    if (k.lead == "prelaunch") return k.prelaunch;
    if (k.lead == "computing") return k.computing;
    if (k.lead == "free") return k.free;
    if (k.lead == "comm_exposed") return k.commExposed;
    return k.rest;
}

std::string callsDelta(const CauseOp& o) {
    const long d = std::lround(o.callsRank - o.callsMedian);
    if (d == 0) return msg("the same calls");
    if (d == 1) return msg("1 call more");
    if (d == -1) return msg("1 call fewer");
    return d > 0 ? msg("{} calls more", d) : msg("{} calls fewer", -d);
}

// §15: "If it arrived on time, each waiting rank: expected gain ≈ 3.00 ms per step (…), replayed; replay error
// 0.0 % (9.00 ms of device time in the cluster)."
std::string arrivalGainText(const SlowRank& sr) {
    if (!sr.predicted) return msg("If it arrived on time: no predicted gain: {}.", sr.replayMissing);
    ReplayPrediction p;
    p.gainMs = static_cast<double>(sr.predictedGain) / 1e6;
    p.gainPct = sr.predictedGainPct;
    p.errorPct = sr.replayErrorPct;
    p.lowConfidence = sr.lowConfidence;
    std::string v;
    if (sr.ranksPredicted < sr.ranksWaitingAll) // some waits could not be replayed: say of how many it speaks
        v = msg("If it arrived on time, the median of the {} of {} ranks waiting for it whose waits could be "
                "replayed: {} ({} of device time in the cluster per step for those).",
                sr.ranksPredicted, sr.ranksWaitingAll, gainText(p), ms(sr.predictedLoss));
    else if (sr.ranksPredicted == 1)
        v = msg("If it arrived on time, the rank waiting for it: {}.", gainText(p));
    else
        v = msg("If it arrived on time, the median of the {} ranks waiting for it: {} ({} of device time in the "
                "cluster per step).",
                sr.ranksPredicted, gainText(p), ms(sr.predictedLoss));
    // Less than half of what they wait: say where the wait goes (the replay keeps their step end).
    if (sr.predictedGain * 2 < sr.cost)
        v += " " + msg("That is less than their wait: in their traces, what ends their step does not start right "
                       "after the collective (within 1 us), so the replay cannot bring it forward; the wait may "
                       "move elsewhere in their step.");
    return v;
}

void writeVerdict(SlowRank& sr, const ClusterResult& c) {
    const RankSummary& r = c.ranks[static_cast<std::size_t>(sr.rank)];
    std::string v = sr.ranksWaiting == 1
                        ? msg("{} is slow in {} of {} steps: it arrives {} late at {} and the other rank waits {} for it "
                              "per step.",
                              rankName(r), sr.steps.size(), sr.stepsCompared, ms(sr.lateness), sr.collective, ms(sr.cost))
                        : msg("{} is slow in {} of {} steps: it arrives {} late at {} and {} ranks wait {} each ({} of "
                              "device time per step).",
                              rankName(r), sr.steps.size(), sr.stepsCompared, ms(sr.lateness), sr.collective,
                              sr.ranksWaiting, ms(sr.cost), ms(sr.clusterLoss));
    const SlowCause& k = sr.cause;
    if (!k.lead.empty()) {
        std::string cause = msg("Cause: {} {} before the collective", termName(k.lead), signedMs(termValue(k)));
        if (k.lead == "computing" && !k.ops.empty()) {
            std::string list;
            for (const auto& o : k.ops)
                list += (list.empty() ? "" : msg("; ")) + o.name + ": " + callsDelta(o) + ", " + signedMs3(o.delta);
            cause += " — " + list;
        } else if ((k.lead == "prelaunch" || k.lead == "free") && !k.windows.empty()) {
            std::string list;
            for (const auto& w : k.windows) {
                if (list.size() > 0 && w.scope != (k.lead == "prelaunch" ? "prelaunch" : "step_internal")) continue;
                std::string item = w.id + " (" + w.scope + ", " + ms(w.dur) + ")";
                if (!w.userLine.empty()) item += msg(" at {}", w.userLine);
                list += (list.empty() ? "" : msg("; ")) + item;
            }
            cause += " — " + list;
        }
        v += " " + cause + ".";
    }
    sr.prediction = arrivalGainText(sr);
    v += " " + sr.prediction;
    sr.verdict = std::move(v);
}

// The late rank's collective `a`: each other rank's wait for it and the replayed gain of that wait alone.
void addWaitGains(StepCost& sc, const CollectiveAgg& a, int last) {
    TimeNs at = 0;
    for (const auto& p : a.parts)
        if (p.rank == last) at = p.aligned;
    for (const auto& p : a.parts) {
        if (p.start <= 0 || p.rank == last) continue;
        WaitGain& w = sc.waiting[p.rank];
        const TimeNs gap = std::max<TimeNs>(0, at - p.aligned);
        w.gap += gap;
        if (p.sync <= 0) continue; // it did not wait inside the op: nothing of it to remove
        ++w.waits;
        w.replayed = w.replayed && p.gain != kGainNotReplayed;
        w.alone = w.alone && p.gain >= 0;
        if (p.gain >= 0) w.gain += std::min(p.gain, gap);
    }
}

// ANALYSIS.md §15 for §13.3 (core/cluster/README.md, "What a slow rank's arriving on time is worth"): per slow
// step, each waiting rank saves its replayed gain — all of its step's waits removed at once when the late rank
// is the one it waited for at every one of them, else the sum of the gains of those waits alone (capped by the
// all-at-once figure); never more than its waits for the late rank. The step's figure is the median over the
// waiting ranks, and their sum; the verdict gives the mean over the slow steps.
void predictArrivalGain(SlowRank& sr, const ClusterResult& c,
                        const std::vector<std::pair<std::int64_t, const StepCost*>>& slow) {
    TimeNs gainSum = 0, lossSum = 0, serviceSum = 0;
    std::size_t stepsPredicted = 0, ranks = 0, waiting = 0;
    double error = 0;
    bool anyWaits = false;
    for (const auto& [step, sc] : slow) {
        std::vector<TimeNs> gains, services;
        TimeNs loss = 0;
        for (const auto& [rank, w] : sc->waiting) {
            if (w.gap <= 0) continue;
            const RankStepRow* row = stepRow(c.ranks[static_cast<std::size_t>(rank)], step);
            if (!row) continue;
            services.push_back(row->service);
            if (w.waits > 0) anyWaits = true;
            if (row->waitsGain < 0 || w.waits == 0 || !w.replayed) continue;
            TimeNs g = 0;
            if (w.waits == row->waitsReplayed)
                g = std::min(row->waitsGain, w.gap); // every wait of its step was for the late rank
            else if (w.alone)
                g = std::min(w.gain, row->waitsGain);
            else
                continue;
            gains.push_back(g);
            loss += g;
            if (row->service > 0)
                error = std::max(error, 100.0 * static_cast<double>(row->replayError) / static_cast<double>(row->service));
        }
        if (gains.empty()) continue;
        ++stepsPredicted;
        ranks = std::max(ranks, gains.size());
        waiting = std::max(waiting, services.size());
        gainSum += median(gains);
        lossSum += loss;
        serviceSum += median(services);
    }
    if (stepsPredicted == 0) {
        sr.replayMissing = anyWaits ? msg("the waiting ranks' collectives are not in their traces, so their waits "
                                          "could not be replayed")
                                    : msg("the waiting ranks' communication.json shows no synchronization time, so "
                                          "there is no wait to remove");
        return;
    }
    sr.predicted = true;
    const auto n = static_cast<TimeNs>(stepsPredicted);
    sr.predictedGain = gainSum / n;
    sr.predictedLoss = lossSum / n;
    sr.predictedGainPct = serviceSum > 0 ? 100.0 * static_cast<double>(gainSum) / static_cast<double>(serviceSum) : 0.0;
    sr.replayErrorPct = error;
    sr.lowConfidence = error > kReplayLowConfidencePct;
    sr.ranksPredicted = ranks;
    sr.ranksWaitingAll = std::max(waiting, ranks);
}

void findSlowRanks(ClusterResult& c, const ClusterBuilder::Table& t) {
    const std::size_t n = c.ranks.size();
    c.lastArriverCount.assign(n, 0);
    c.stepCost.assign(c.steps.size(), std::vector<TimeNs>(n, 0));
    std::vector<std::vector<StepCost>> cost(c.steps.size(), std::vector<StepCost>(n));
    std::vector<std::pair<const CollectiveAgg*, Arrival>> matched;
    std::unordered_map<std::int64_t, std::size_t> stepIndex; // step number -> index into c.steps (the first)
    for (std::size_t i = c.steps.size(); i-- > 0;)
        stepIndex[c.steps[i]] = i;
    for (const CollectiveAgg& a : t.aggs) {
        if (a.parts.size() < 2) continue;
        Arrival arr = arrivalOf(a, c);
        if (arr.last >= 0) {
            ++c.lastArriverCount[static_cast<std::size_t>(arr.last)];
            const auto si = stepIndex.find(a.step);
            if (si != stepIndex.end()) {
                const auto gaps = othersGaps(a, arr.last);
                StepCost& sc = cost[si->second][static_cast<std::size_t>(arr.last)];
                const TimeNs med = median(gaps);
                TimeNs sum = 0;
                for (TimeNs g : gaps)
                    sum += g;
                sc.cost += med;
                sc.loss += sum;
                addWaitGains(sc, a, arr.last);
                if (!sc.worst || med > sc.worstCost)
                    sc.worst = &a, sc.worstCost = med, sc.worstWaiting = gaps.size(), sc.worstLateness = arr.lateness;
            }
        }
        matched.push_back({&a, std::move(arr)});
    }
    c.collectivesMatched = matched.size();
    // The collectives table: the latest arrivals first.
    std::stable_sort(matched.begin(), matched.end(), [&](const auto& x, const auto& y) {
        if (x.second.lateness != y.second.lateness) return x.second.lateness > y.second.lateness;
        if (x.first->step != y.first->step) return x.first->step < y.first->step;
        return t.keyOf(*x.first) < t.keyOf(*y.first);
    });
    for (std::size_t i = 0; i < matched.size() && i < 20; ++i) {
        const CollectiveAgg& a = *matched[i].first;
        const Arrival& arr = matched[i].second;
        ClusterCollective cc;
        cc.key = t.keyOf(a);
        cc.step = a.step;
        cc.ranksTotal = a.parts.size();
        cc.parts = a.parts; // every rank's part (the window draws them all; the JSON lists the extremes)
        std::sort(cc.parts.begin(), cc.parts.end(),
                  [](const CollectivePart& x, const CollectivePart& y) { return x.rank < y.rank; });
        cc.lastArriver = arr.last;
        cc.confidence = arr.confidence;
        cc.lateness = arr.lateness;
        cc.secondGap = arr.secondGap;
        cc.earliestSync = arr.earliestSync;
        cc.corroborating = arr.corroborating;
        cc.others = arr.others;
        cc.skew = arr.skew;
        TimeNs sumWait = 0, sumTransit = 0;
        for (const auto& p : a.parts) {
            cc.maxWait = std::max(cc.maxWait, p.wait);
            sumWait += p.wait;
            sumTransit += p.transit;
        }
        cc.waitRatio = sumWait + sumTransit > 0
                           ? std::round(1e6 * static_cast<double>(sumWait) / static_cast<double>(sumWait + sumTransit)) / 1e6
                           : 0.0;
        c.collectives.push_back(std::move(cc));
    }
    // Slow: the cost reaches max(0.1 ms, 0.5 % of the step's median service).
    std::map<int, std::vector<std::pair<std::int64_t, const StepCost*>>> slowSteps;
    std::vector<std::size_t> compared(n, 0);
    std::vector<std::vector<char>> slowIn(c.steps.size(), std::vector<char>(n, 0));
    for (std::size_t si = 0; si < c.steps.size(); ++si) {
        std::vector<TimeNs> services;
        for (std::size_t r = 0; r < n; ++r)
            if (const RankStepRow* row = c.ranks[r].error.empty() ? stepRow(c.ranks[r], c.steps[si]) : nullptr) {
                services.push_back(row->service);
                ++compared[r];
            }
        if (services.size() < 2) continue;
        const TimeNs threshold = std::max(kCostFloorNs, median(services) / 200);
        for (std::size_t r = 0; r < n; ++r) {
            c.stepCost[si][r] = cost[si][r].cost;
            if (cost[si][r].worst && cost[si][r].cost >= threshold) {
                slowSteps[static_cast<int>(r)].push_back({c.steps[si], &cost[si][r]});
                slowIn[si][r] = 1;
            }
        }
    }
    for (auto& [r, steps] : slowSteps) {
        SlowRank sr;
        sr.rank = r;
        sr.stepsCompared = compared[static_cast<std::size_t>(r)];
        const StepCost* worst = nullptr;
        for (const auto& [step, sc] : steps) {
            sr.steps.push_back(step);
            sr.cost += sc->cost;
            sr.clusterLoss += sc->loss;
            if (!worst || sc->worstCost > worst->worstCost) worst = sc, sr.collectiveStep = step;
        }
        sr.cost /= static_cast<TimeNs>(steps.size());
        sr.clusterLoss /= static_cast<TimeNs>(steps.size());
        sr.collective = t.keyOf(*worst->worst);
        sr.ranksWaiting = worst->worstWaiting;
        sr.lateness = worst->worstLateness;
        addCause(sr, c, steps);
        predictArrivalGain(sr, c, steps);
        writeVerdict(sr, c);
        c.slowRanks.push_back(std::move(sr));
    }
    // A metric that spreads across the ranks where nobody waits for the rank at its extreme: an imbalance.
    for (const char* metric : kMetrics) {
        std::size_t stepsSpread = 0;
        double worstSpread = 0;
        std::int64_t worstStep = -1;
        int worstRank = -1;
        TimeNs worstValue = 0, worstMedian = 0;
        for (std::size_t si = 0; si < c.steps.size(); ++si) {
            std::vector<std::pair<TimeNs, int>> v;
            for (std::size_t r = 0; r < n; ++r)
                if (const RankStepRow* row = c.ranks[r].error.empty() ? stepRow(c.ranks[r], c.steps[si]) : nullptr)
                    v.push_back({metricOf(*row, metric), static_cast<int>(r)});
            if (v.size() < 2) continue;
            const auto [mn, mx] = std::minmax_element(v.begin(), v.end());
            double mean = 0;
            for (const auto& x : v)
                mean += static_cast<double>(x.first);
            mean /= static_cast<double>(v.size());
            if (mean <= 0) continue;
            const double spread = static_cast<double>(mx->first - mn->first) / mean;
            if (spread <= kSpreadThreshold) continue;
            const auto& extreme = std::string_view(metric) == "comm_not_overlapped" ? *mn : *mx;
            if (slowIn[si][static_cast<std::size_t>(extreme.second)]) continue;
            ++stepsSpread;
            if (spread > worstSpread) {
                std::vector<TimeNs> values;
                for (const auto& x : v)
                    values.push_back(x.first);
                worstSpread = spread, worstStep = c.steps[si], worstRank = extreme.second;
                worstValue = extreme.first, worstMedian = median(values);
            }
        }
        if (stepsSpread == 0) continue;
        c.findings.push_back(
            {"imbalance", "info",
             msg("In {} of {} steps the {} of the ranks spreads by more than 5 % (most in step {}: {:.1f} %, {} at {} "
                 "against a median of {}), but no rank waits for the rank at the extreme there: an imbalance, not a "
                 "slow rank.",
                 stepsSpread, c.steps.size(), metricWords(metric), worstStep, worstSpread * 100,
                 rankName(c.ranks[static_cast<std::size_t>(worstRank)]), ms(worstValue), ms(worstMedian))});
    }
    bool anyJson = false;
    for (const auto& r : c.ranks)
        anyJson = anyJson || (r.error.empty() && r.hasCommunicationJson);
    std::size_t analysed = 0;
    for (const auto& r : c.ranks)
        analysed += r.error.empty() ? 1 : 0;
    if (analysed >= 2 && c.collectivesMatched == 0)
        c.findings.push_back({"no_shared_collectives", "warning",
                              anyJson ? msg("No collective of communication.json is shared by two ranks, so who waits "
                                            "for whom cannot be measured and no rank is named slow.")
                                      : msg("No rank has communication.json (collect with the communication data of "
                                            "profiler level 1 or above), so who waits for whom cannot be measured "
                                            "and no rank is named slow.")});
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
        t_->fold(t_->keyId(op.key), op.step, {at, op.start, op.elapse, op.wait, op.transit, op.sync, 0, op.gain},
                 {op.beforeComputing, op.beforeFree, op.beforeExposed});
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

void ClusterBuilder::addCollective(int rank, std::uint32_t key, const RankCollective& op) {
    t_->fold(key, op.step, {rank, op.start, op.elapse, op.wait, op.transit, op.sync, 0, op.gain},
             {op.beforeComputing, op.beforeFree, op.beforeExposed});
}

ClusterResult ClusterBuilder::finish(const std::string& parentDir) {
    ClusterResult c;
    c.ranks = std::move(t_->ranks);
    for (auto& r : c.ranks) // by step number, for stepRow's binary search (already so when read in order)
        std::stable_sort(r.steps.begin(), r.steps.end(),
                         [](const RankStepRow& a, const RankStepRow& b) { return a.step < b.step; });
    findDifferentRanks(c);
    alignClocks(c, *t_);
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

ClusterResult analyzeClusterFolder(const std::string& parentDir, const Rulebook& rules, bool withLanes) {
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
            summaries.add(summarizeRank(rank, *loaded.profile, result, withLanes));
        } catch (const std::bad_alloc&) {
            summaries.add(failedRank(rank, msg("memory ran out while analysing it")));
        }
        releaseFreedMemory();
    }
    return summaries.finish(parentDir);
}

} // namespace bs
