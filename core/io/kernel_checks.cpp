#include "io/kernel_checks.h"

#include "i18n/message.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>

namespace bs {

namespace {

std::int64_t streamOf(const Profile& prof, const TraceEvent& e) {
    return e.streamArg >= 0 ? e.streamArg : static_cast<std::int64_t>(prof.lanes[e.lane].tid);
}

// The device events that share one ts, with the first of them per stream and per name. Built once per
// distinct ts, so n kernels against g events at one ts cost O(n + g), not O(n * g).
class EventGroup {
  public:
    EventGroup(const Profile& prof, std::size_t first, std::size_t last) : first_(first) {
        for (std::size_t i = first; i < last; ++i) {
            byStream_.try_emplace(streamOf(prof, prof.deviceEvents[i]), i);
            byName_.try_emplace(prof.deviceEvents[i].name, i);
        }
    }
    // The event a kernel joins: same stream (kernel with a stream) or same name (kernel without one),
    // else the first event at that ts.
    std::size_t match(const Kernel& k) const {
        if (k.stream >= 0) {
            auto it = byStream_.find(k.stream);
            return it == byStream_.end() ? first_ : it->second;
        }
        auto it = byName_.find(k.name); // one string pool: equal ids are equal names
        return it == byName_.end() ? first_ : it->second;
    }

  private:
    std::size_t first_;
    std::unordered_map<std::int64_t, std::size_t> byStream_;
    std::unordered_map<StrId, std::size_t> byName_;
};

} // namespace

void joinKernelsWithTrace(Profile& prof) {
    if (prof.deviceEvents.empty()) return;
    const auto& ev = prof.deviceEvents;
    std::size_t typeFilled = 0, streamFilled = 0, streamMissing = 0;
    // The kernel table and the trace round their microsecond texts separately: the same task can start at
    // …241.563 in kernel_details.csv and …241.564 in trace_view.json (real L1 rank 0's collectives). A
    // kernel joins the events at its own start, else those within kJoinToleranceNs of it (the nearest).
    constexpr TimeNs kJoinToleranceNs = 1;
    std::size_t cursor = 0, groupStart = ev.size(), groupEnd = 0;
    std::optional<EventGroup> group; // the events at ev[groupStart].ts, built on first use
    for (auto& k : prof.kernels) {
        const bool needType = prof.str(k.taskType).empty();
        const bool needStream = k.stream < 0;
        if (!needType && !needStream) continue;
        if (needStream) ++streamMissing;
        // Kernels are in start order: search forward of the previous kernel's events (binary searches, so
        // many kernels at one start stay O(n log n)). lower_bound gives the first event of its ts.
        auto firstAtOrAfter = [&](TimeNs t) {
            return static_cast<std::size_t>(
                std::lower_bound(ev.begin() + static_cast<std::ptrdiff_t>(cursor), ev.end(), t,
                                 [](const TraceEvent& e, TimeNs x) { return e.ts < x; }) -
                ev.begin());
        };
        const std::size_t lo = firstAtOrAfter(k.start - kJoinToleranceNs);
        cursor = lo;
        std::size_t at = firstAtOrAfter(k.start);
        if (at == ev.size() || ev[at].ts != k.start) { // no event at the exact start: the nearest within
            if (lo < ev.size() && ev[lo].ts < k.start)
                at = lo;
            else if (at == ev.size() || ev[at].ts > k.start + kJoinToleranceNs)
                continue;
        }
        if (!group || groupStart != at) {
            groupStart = at;
            groupEnd = at;
            while (groupEnd < ev.size() && ev[groupEnd].ts == ev[at].ts)
                ++groupEnd;
            group.emplace(prof, at, groupEnd);
        }
        const TraceEvent& best = ev[group->match(k)];
        if (needType && best.taskType) {
            k.taskType = best.taskType;
            k.cls = classifyTaskType(prof.str(k.taskType), prof.str(k.name));
            ++typeFilled;
        }
        if (needStream) {
            const std::int64_t stream = streamOf(prof, best);
            if (stream >= 0 && stream < (1LL << 31)) {
                k.stream = static_cast<std::int32_t>(stream);
                ++streamFilled;
            }
        }
    }
    prof.inventory.kernelsTaskTypeFromTrace = typeFilled;
    prof.inventory.kernelsWithoutStream = streamMissing;
    prof.inventory.streamsFromTrace = streamFilled;
}

namespace {

// A value 1000x off the median (µs written as ns, or the reverse) cannot be from the same capture.
void dropOtherScales(Profile& prof, FindingSink& sink) {
    auto& ks = prof.kernels;
    std::vector<TimeNs> starts;
    for (std::size_t i = 0; i < ks.size(); i += std::max<std::size_t>(1, ks.size() / 1001))
        starts.push_back(ks[i].start);
    std::nth_element(starts.begin(), starts.begin() + static_cast<long>(starts.size() / 2), starts.end());
    const TimeNs median = starts[starts.size() / 2];
    if (median <= 1'000'000'000'000LL) return;
    auto off = [&](const Kernel& k) { return k.start < median / 100 || k.start / 100 > median; };
    const auto scaleOff = static_cast<std::size_t>(std::count_if(ks.begin(), ks.end(), off));
    if (!scaleOff) return;
    ks.erase(std::remove_if(ks.begin(), ks.end(), off), ks.end());
    sink.add({"timestamp_scale_mixed", Severity::Warning, prof.inventory.kernelSourceFile, -1, -1,
              msg("{} kernel(s) have start times more than 100x away from the capture's (a nanosecond value in a "
                  "microsecond column, or the reverse).",
                  scaleOff),
              msg("They are left out; every other kernel is analysed."),
              msg("Re-export the kernel table from the profiler."), ""});
}

// A row that repeats an earlier one exactly (name, stream, start, duration) is dropped. Rows are in start
// order, so repeats sit in the run of one start time; each run is sorted by (duration, name, stream,
// position) to find them: O(g log g) per run of g rows. Comparing each row with every earlier row of its
// run was O(g^2) (200 k rows at one start: 75 s).
void dropDuplicates(Profile& prof, FindingSink& sink) {
    auto& ks = prof.kernels;
    std::vector<char> dup(ks.size(), 0);
    std::size_t dups = 0;
    std::vector<std::size_t> run;
    for (std::size_t a = 0; a < ks.size();) {
        std::size_t b = a + 1;
        while (b < ks.size() && ks[b].start == ks[a].start)
            ++b;
        if (b - a > 1) {
            run.clear();
            for (std::size_t i = a; i < b; ++i)
                run.push_back(i);
            auto key = [&](std::size_t i) { return std::make_tuple(ks[i].dur, ks[i].name, ks[i].stream, i); };
            std::sort(run.begin(), run.end(), [&](std::size_t x, std::size_t y) { return key(x) < key(y); });
            for (std::size_t r = 1; r < run.size(); ++r) {
                const Kernel& x = ks[run[r - 1]];
                const Kernel& y = ks[run[r]];
                if (x.dur == y.dur && x.name == y.name && x.stream == y.stream) {
                    dup[run[r]] = 1; // a later copy of the first row of its key
                    ++dups;
                }
            }
        }
        a = b;
    }
    if (!dups) return;
    std::size_t w = 0;
    for (std::size_t i = 0; i < ks.size(); ++i)
        if (!dup[i]) ks[w++] = ks[i];
    ks.resize(w);
    sink.add({"duplicate_kernel_rows", Severity::Warning, prof.inventory.kernelSourceFile, -1, -1,
              msg("{} kernel row(s) repeat another row exactly (same name, stream, start and duration).", dups),
              msg("Duplicates are counted once; otherwise kernel counts and sums would be inflated."),
              msg("The table was probably concatenated twice; re-export it."), ""});
}

// A stream runs its tasks in order: a task that starts well before the previous one on its stream ends
// is reported (HCCL tasks overlap each other by design). One map entry per stream: O(n log streams).
void reportStreamOverlaps(const Profile& prof, FindingSink& sink) {
    std::map<int, TimeNs> lastEnd;
    std::size_t overlaps = 0;
    std::string example;
    for (const auto& k : prof.kernels) {
        if (k.stream < 0 || k.cls == TaskClass::Comm) continue;
        auto [it, fresh] = lastEnd.try_emplace(k.stream, k.end());
        if (fresh) continue;
        if (k.start + 1000 < it->second && ++overlaps == 1)
            example = msg("{} on stream {} at {} us", prof.str(k.name), k.stream, formatNsAsMicros(k.start));
        it->second = std::max(it->second, k.end());
    }
    if (!overlaps) return;
    sink.add({"stream_overlap", Severity::Warning, prof.inventory.kernelSourceFile, -1, -1,
              msg("{} kernel(s) start more than 1 us before the previous kernel on the same stream ends (first: {}).",
                  overlaps, example),
              msg("Busy time is a union, so bubbles stay right; per-stream timings and waits of these kernels are "
                  "suspect."),
              msg("Tasks of one stream run in order: check the export's clock alignment."), ""});
}

} // namespace

void checkKernelTable(Profile& prof, FindingSink& sink) {
    if (prof.kernels.empty()) return;
    dropOtherScales(prof, sink);
    dropDuplicates(prof, sink);
    reportStreamOverlaps(prof, sink);
}

} // namespace bs
