#pragma once
// Hand-built profiles for the rule tables (tests/rules): every time is written in microseconds from an
// arbitrary origin, so that each expected number can be worked out by hand in the test's comment.
#include "pipeline/analysis_run.h"
#include "analysis/bubble_metrics.h"
#include "analysis/steps.h"
#include "model/profile.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

namespace rules {

// The origin: 1 s, so that no time is 0 (a communication op at 0 reads as "no start").
constexpr bs::TimeNs kOrigin = 1'000'000'000;

// Microseconds after the origin → absolute ns (fractions of a µs allowed: 49.999 → 49 999 ns).
inline bs::TimeNs at(double us) {
    return kOrigin + static_cast<bs::TimeNs>(std::llround(us * 1000.0));
}
// A duration in µs → ns.
inline bs::TimeNs us(double v) {
    return static_cast<bs::TimeNs>(std::llround(v * 1000.0));
}

struct KernelSpec {
    std::string name;
    double start = 0, dur = 0;
    std::string taskType = "AI_CORE";
    int stream = 2;
    double wait = 0;
    std::string shapes;
    int stepId = -1;
};

// Builds one Profile in place (Profile holds an interned string pool: never copied or moved here).
class Fixture {
  public:
    bs::Profile p;

    Fixture() {
        p.processes[1] = {"Python", "", 0};
        p.processes[2] = {"CANN", "", 1};
    }

    Fixture& kernel(const KernelSpec& k) {
        bs::Kernel x;
        x.start = at(k.start);
        x.dur = us(k.dur);
        x.wait = us(k.wait);
        x.name = p.strings.intern(k.name);
        x.opType = x.name;
        x.taskType = p.strings.intern(k.taskType);
        x.inputShapes = k.shapes.empty() ? 0 : p.strings.intern(k.shapes);
        x.stream = k.stream;
        x.stepId = k.stepId;
        x.cls = bs::classifyTaskType(k.taskType, k.name);
        p.kernels.push_back(x);
        return *this;
    }
    // A compute-core kernel [start, start + dur) on stream 2.
    Fixture& k(std::string_view name, double start, double dur, std::string_view taskType = "AI_CORE",
               int stream = 2, double wait = 0) {
        KernelSpec s;
        s.name = std::string(name);
        s.start = start;
        s.dur = dur;
        s.taskType = std::string(taskType);
        s.stream = stream;
        s.wait = wait;
        return kernel(s);
    }
    // A host event on the Python process, thread `tid`.
    Fixture& host(std::string_view name, double start, double dur, std::uint64_t tid = 1) {
        bs::TraceEvent e;
        e.ts = at(start);
        e.dur = us(dur);
        e.lane = laneOf(1, tid);
        e.name = p.strings.intern(name);
        e.cat = p.strings.intern("cpu_op");
        p.hostEvents.push_back(e);
        return *this;
    }
    Fixture& marker(std::string_view name, double start, double dur) { return host(name, start, dur, 1); }
    Fixture& step(int n, double start, double dur) {
        return marker("ProfilerStep#" + std::to_string(n), start, dur);
    }
    // An event on the HCCL process's lanes (not a host event).
    Fixture& hcclLane(std::string_view name, double start, double dur) {
        bs::TraceEvent e;
        e.ts = at(start);
        e.dur = us(dur);
        e.lane = laneOf(9, 1, bs::LaneKind::Hccl);
        e.name = p.strings.intern(name);
        p.hcclEvents.push_back(e);
        return *this;
    }
    // Sorts as the loader does: kernels by (start, stream), events by ts.
    bs::Profile& done() {
        std::stable_sort(p.kernels.begin(), p.kernels.end(), [](const bs::Kernel& a, const bs::Kernel& b) {
            return a.start != b.start ? a.start < b.start : a.stream < b.stream;
        });
        auto byTs = [](const bs::TraceEvent& a, const bs::TraceEvent& b) { return a.ts < b.ts; };
        std::stable_sort(p.hostEvents.begin(), p.hostEvents.end(), byTs);
        std::stable_sort(p.hcclEvents.begin(), p.hcclEvents.end(), byTs);
        p.hasTrace = !p.hostEvents.empty() || !p.hcclEvents.empty();
        return p;
    }

  private:
    std::uint32_t laneOf(std::uint64_t pid, std::uint64_t tid, bs::LaneKind kind = bs::LaneKind::Host) {
        for (std::size_t i = 0; i < p.lanes.size(); ++i)
            if (p.lanes[i].pid == pid && p.lanes[i].tid == tid) return static_cast<std::uint32_t>(i);
        p.lanes.push_back({pid, tid, kind});
        p.threads[{pid, tid}] = {"thread " + std::to_string(tid), static_cast<std::int64_t>(tid)};
        return static_cast<std::uint32_t>(p.lanes.size() - 1);
    }
};

// One step [0, service) (a ProfilerStep#1 marker) whose device is idle for `prelaunch` at the start,
// `tail` at the end and each of `gaps` in between; the busy time is cut into equal kernels K0, K1, …
// (the last one takes the remainder). All in µs.
inline void oneStep(Fixture& f, double service, double prelaunch, const std::vector<double>& gaps,
                    double tail, double origin = 0, int number = 1) {
    f.step(number, origin, service);
    double idle = prelaunch + tail;
    for (double g : gaps)
        idle += g;
    const double busy = service - idle;
    const double piece = std::floor(busy / static_cast<double>(gaps.size() + 1));
    double t = origin + prelaunch;
    for (std::size_t i = 0; i <= gaps.size(); ++i) {
        const double len = i == gaps.size() ? origin + service - tail - t : piece;
        f.k("K" + std::to_string(i), t, len);
        t += len;
        if (i < gaps.size()) t += gaps[i];
    }
}

inline bool hasTag(const std::vector<std::string>& v, std::string_view t) {
    return std::find(v.begin(), v.end(), t) != v.end();
}

inline std::string joined(std::vector<std::string> v, bool sorted = false) {
    if (sorted) std::sort(v.begin(), v.end());
    std::string out;
    for (const auto& s : v)
        out += (out.empty() ? "" : ",") + s;
    return out;
}

} // namespace rules
