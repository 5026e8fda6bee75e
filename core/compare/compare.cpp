// Two CompareSides → a Comparison (ANALYSIS.md §14): scope check, step figures, op and layer diffs,
// windows matched by position, the fate of the base's top 5, verdict lines.
#include "compare/compare.h"

#include "i18n/message.h"
#include "report/gain_text.h"
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace bs {

namespace {

std::optional<double> percentOf(double delta, double base) {
    if (base == 0) return std::nullopt;
    return delta / base * 100.0;
}

std::string text(const std::optional<bool>& b) {
    return b ? std::string(*b ? "true" : "false") : msg("not recorded");
}

std::string joined(const std::vector<std::string>& v, const char* sep = ", ") {
    std::string s;
    for (const auto& x : v)
        s += (s.empty() ? "" : sep) + x;
    return s;
}

std::string stepList(const std::vector<std::int64_t>& steps) {
    if (steps.empty()) return msg("none");
    std::vector<std::string> parts;
    for (std::size_t i = 0; i < steps.size();) {
        std::size_t j = i;
        while (j + 1 < steps.size() && steps[j + 1] == steps[j] + 1 && steps[j] >= 0)
            ++j;
        auto name = [](std::int64_t n) { return n < 0 ? std::string("pseudo") : std::to_string(n); };
        parts.push_back(j > i + 1 ? name(steps[i]) + "–" + name(steps[j]) : name(steps[i]));
        if (j == i + 1) parts.push_back(name(steps[j]));
        i = j + 1;
    }
    return fmt::format("{} ({})", steps.size(), joined(parts));
}

void checkScope(Comparison& c) {
    const CompareScope& a = c.base.scope;
    const CompareScope& b = c.next.scope;
    auto warn = [&](const char* what, const std::string& name, const std::string& x, const std::string& y) {
        if (x == y) return;
        c.warnings.push_back({what, x, y, msg("{} differs: {} in base, {} in new.", name, x, y)});
    };
    auto orNone = [](const std::string& s) { return s.empty() ? msg("not recorded") : s; };
    warn("profiler_level", msg("The profiler level"), orNone(a.profilerLevel), orNone(b.profilerLevel));
    warn("with_stack", "with_stack", text(a.withStack), text(b.withStack));
    warn("record_shapes", "record_shapes", text(a.recordShapes), text(b.recordShapes));
    warn("activities", msg("The activities"), a.activities ? orNone(joined(*a.activities)) : msg("not recorded"),
         b.activities ? orNone(joined(*b.activities)) : msg("not recorded"));
    warn("steps", msg("The steps"), stepList(a.stepNumbers), stepList(b.stepNumbers));
    warn("rank", msg("The rank"), a.rankId < 0 ? msg("unknown") : std::to_string(a.rankId),
         b.rankId < 0 ? msg("unknown") : std::to_string(b.rankId));
    warn("kernel_source", msg("The kernel source"), orNone(a.kernelSource), orNone(b.kernelSource));
}

void addNotes(Comparison& c) {
    const CompareSide& a = c.base;
    const CompareSide& b = c.next;
    if (a.groupId.empty() || b.groupId.empty()) {
        c.notes.push_back(a.groupId.empty() ? msg("The base has no step group: the step figures are not compared.")
                                            : msg("The new side has no step group: the step figures are not compared."));
        return;
    }
    if (a.groupTemplate != b.groupTemplate)
        c.notes.push_back(msg(
            "The dominant groups have different kernel sequences ({} kernels per step in base, {} in new): each "
            "side's own dominant group is compared.",
            a.groupKernelCount, b.groupKernelCount));
    if (a.groupSteps != b.groupSteps)
        c.notes.push_back(msg("The dominant groups hold different steps: base {} steps {}, new {} steps {}.",
                                      a.groupId, stepList(a.groupSteps), b.groupId, stepList(b.groupSteps)));
    if (a.bubbleMinUs != b.bubbleMinUs)
        c.notes.push_back(msg("The sides were analysed with different bubble_min_us ({} and {} µs).",
                                      a.bubbleMinUs, b.bubbleMinUs));
}

void compareFigures(Comparison& c) {
    if (c.base.figures.empty() || c.next.figures.empty()) return;
    for (const FigureInfo& info : compareFigureKeys()) {
        auto find = [&](const CompareSide& s) -> const GroupFigure* {
            for (const auto& f : s.figures)
                if (f.key == info.key) return &f;
            return nullptr;
        };
        const GroupFigure* x = find(c.base);
        const GroupFigure* y = find(c.next);
        FigureDelta d;
        d.key = info.key;
        d.name = info.name;
        d.unit = info.unit;
        d.known = x && y && x->known && y->known;
        if (d.known) {
            d.baseAvg = x->avg;
            d.newAvg = y->avg;
            d.deltaAvg = y->avg - x->avg;
            d.deltaAvgPct = percentOf(d.deltaAvg, x->avg);
            d.baseP50 = x->p50;
            d.newP50 = y->p50;
            d.deltaP50 = y->p50 - x->p50;
            d.deltaP50Pct = percentOf(d.deltaP50, x->p50);
        }
        c.figures.push_back(std::move(d));
    }
}

void compareOps(Comparison& c) {
    std::map<std::pair<std::string, std::string>, OpDelta> all;
    for (const auto& o : c.base.ops) {
        OpDelta& d = all[{o.name, o.taskType}];
        d.name = o.name;
        d.taskType = o.taskType;
        d.baseCalls = o.calls;
        d.baseTotal = o.durTotal;
        d.baseAvgUs = o.durAvgUs;
        d.baseWaitAvgUs = o.waitAvgUs;
        d.status = "removed";
    }
    for (const auto& o : c.next.ops) {
        OpDelta& d = all[{o.name, o.taskType}];
        const bool inBase = !d.status.empty();
        d.name = o.name;
        d.taskType = o.taskType;
        d.newCalls = o.calls;
        d.newTotal = o.durTotal;
        d.newAvgUs = o.durAvgUs;
        d.newWaitAvgUs = o.waitAvgUs;
        d.status = inBase ? "changed" : "new";
    }
    // One name under two task types (Level0 reads them from the trace, Level1 from the kernel table): listed
    // as removed and new, as name + task type says, and pointed out.
    std::size_t retyped = 0;
    std::string example;
    for (const auto& [key, d] : all) {
        if (d.status != "removed") continue;
        for (auto it = all.lower_bound({key.first, ""}); it != all.end() && it->first.first == key.first; ++it)
            if (it->second.status == "new") {
                if (retyped++ == 0)
                    example = msg("`{}`: {} in base, {} in new", key.first, key.second, it->first.second);
                break;
            }
    }
    if (retyped > 0)
        c.notes.push_back(msg("{} op name{} appear{} under another task type on each side ({}); each is "
                              "listed as removed and as new.",
                                      retyped, retyped == 1 ? "" : "s", retyped == 1 ? "s" : "", example));
    for (auto& [key, d] : all) {
        d.deltaTotal = d.newTotal - d.baseTotal;
        d.deltaTotalPct = d.status == "changed" ? percentOf(static_cast<double>(d.deltaTotal),
                                                            static_cast<double>(d.baseTotal))
                                                : std::nullopt;
        if (d.status == "changed" && d.deltaTotal == 0 && d.baseCalls == d.newCalls &&
            d.baseWaitAvgUs == d.newWaitAvgUs)
            d.status = "unchanged";
        std::size_t& n = d.status == "changed"     ? c.opsChanged
                         : d.status == "unchanged" ? c.opsUnchanged
                         : d.status == "new"       ? c.opsNew
                                                   : c.opsRemoved;
        ++n;
        c.ops.push_back(std::move(d));
    }
    std::stable_sort(c.ops.begin(), c.ops.end(), [](const OpDelta& x, const OpDelta& y) {
        const TimeNs ax = x.deltaTotal < 0 ? -x.deltaTotal : x.deltaTotal;
        const TimeNs ay = y.deltaTotal < 0 ? -y.deltaTotal : y.deltaTotal;
        return ax > ay;
    });
}

void compareLayers(Comparison& c) {
    if (c.base.fromSummary || c.next.fromSummary) {
        // Said once, whatever the other side holds: a summary keeps no layers.
        c.notes.push_back(msg("Layers are not compared: {} is a stored rank summary, which holds no layers (the ops, "
                              "steps and windows are compared).",
                              c.base.fromSummary ? "BASE" : "NEW"));
        return;
    }
    if (c.base.layers.empty() || c.next.layers.empty()) {
        if (!c.base.layers.empty() || !c.next.layers.empty())
            c.notes.push_back(c.base.layers.empty()
                                  ? msg("Layers are not compared: the base has no layers (no attention kernels found).")
                                  : msg("Layers are not compared: the new side has no layers (no attention kernels "
                                        "found)."));
        return;
    }
    c.layersCompared = true;
    std::map<std::pair<std::string, std::string>, LayerDelta> all;
    for (const auto& l : c.base.layers) {
        LayerDelta& d = all[{l.type, l.phase}];
        d.type = l.type;
        d.phase = l.phase;
        d.baseCount = l.count;
        d.baseWallMs = l.wallAvgMs;
    }
    for (const auto& l : c.next.layers) {
        LayerDelta& d = all[{l.type, l.phase}];
        d.type = l.type;
        d.phase = l.phase;
        d.newCount = l.count;
        d.newWallMs = l.wallAvgMs;
    }
    for (auto& [key, d] : all) {
        if (d.baseWallMs && d.newWallMs) {
            d.deltaMs = *d.newWallMs - *d.baseWallMs;
            d.deltaPct = percentOf(*d.deltaMs, *d.baseWallMs);
        }
        c.layers.push_back(std::move(d));
    }
}

// Steps of the two sides paired: by step number when the sides share numbers, else by order.
std::map<int, int> pairSteps(const CompareScope& a, const CompareScope& b) {
    std::map<int, int> pairs;
    std::map<std::int64_t, int> newByNumber;
    for (std::size_t i = 0; i < b.stepNumbers.size(); ++i)
        if (b.stepNumbers[i] >= 0) newByNumber.emplace(b.stepNumbers[i], static_cast<int>(i));
    for (std::size_t i = 0; i < a.stepNumbers.size(); ++i)
        if (auto it = newByNumber.find(a.stepNumbers[i]); a.stepNumbers[i] >= 0 && it != newByNumber.end())
            pairs[static_cast<int>(i)] = it->second;
    if (!pairs.empty()) return pairs;
    for (std::size_t i = 0; i < std::min(a.stepNumbers.size(), b.stepNumbers.size()); ++i)
        pairs[static_cast<int>(i)] = static_cast<int>(i);
    return pairs;
}

using WindowKey = std::tuple<int, std::string, std::string, std::string, std::size_t>;

WindowKey keyOf(const CompareWindow& w, int step) {
    return {step, w.scope, w.before, w.after, w.occurrence};
}

std::string classOf(TimeNs base, TimeNs delta) {
    const double limit = kWindowUnchangedFraction * static_cast<double>(base);
    const double d = static_cast<double>(delta);
    if (std::fabs(d) < limit) return "unchanged";
    return delta < 0 ? "shrunk" : "grew";
}

void matchWindows(Comparison& c) {
    const std::map<int, int> pairs = pairSteps(c.base.scope, c.next.scope);
    std::map<WindowKey, int> newAt;
    for (std::size_t i = 0; i < c.next.windows.size(); ++i)
        newAt.emplace(keyOf(c.next.windows[i], c.next.windows[i].stepIndex), static_cast<int>(i));
    std::vector<char> taken(c.next.windows.size(), 0);
    for (std::size_t i = 0; i < c.base.windows.size(); ++i) {
        const CompareWindow& w = c.base.windows[i];
        WindowMatch m;
        m.base = static_cast<int>(i);
        m.dominant = w.dominant;
        int step = -1;
        bool paired = w.stepIndex < 0;
        if (auto p = pairs.find(w.stepIndex); p != pairs.end()) step = p->second, paired = true;
        const auto it = paired ? newAt.find(keyOf(w, step)) : newAt.end();
        if (it == newAt.end() || taken[static_cast<std::size_t>(it->second)]) {
            m.cls = "removed";
        } else {
            const CompareWindow& n = c.next.windows[static_cast<std::size_t>(it->second)];
            taken[static_cast<std::size_t>(it->second)] = 1;
            m.next = it->second;
            m.deltaDur = n.dur - w.dur;
            m.deltaPct = percentOf(static_cast<double>(m.deltaDur), static_cast<double>(w.dur));
            m.cls = classOf(w.dur, m.deltaDur);
        }
        c.matches.push_back(std::move(m));
    }
    for (std::size_t i = 0; i < c.next.windows.size(); ++i) {
        if (taken[i]) continue;
        WindowMatch m;
        m.cls = "new";
        m.next = static_cast<int>(i);
        m.dominant = c.next.windows[i].dominant;
        c.matches.push_back(std::move(m));
    }
    for (const auto& m : c.matches) {
        if (!m.dominant) continue;
        std::size_t& n = m.cls == "removed"  ? c.removed
                         : m.cls == "new"    ? c.added
                         : m.cls == "shrunk" ? c.shrunk
                         : m.cls == "grew"   ? c.grew
                                             : c.unchanged;
        ++n;
    }
}

std::string msText(TimeNs ns) {
    return fmt::format("{:.2f} ms", nsToMs(ns));
}

std::string windowTitle(const CompareWindow& w) {
    std::string s = fmt::format("{} ({} {}", w.id, msText(w.dur), w.scope);
    if (!w.labels.empty()) s += ", " + joined(w.labels);
    return s + ")";
}

void stateTopFates(Comparison& c) {
    for (std::size_t i = 0; i < c.matches.size(); ++i) {
        const WindowMatch& m = c.matches[i];
        if (m.base < 0 || m.base >= 5) continue;
        const CompareWindow& w = c.base.windows[static_cast<std::size_t>(m.base)];
        std::string s = windowTitle(w);
        if (m.next < 0) {
            s += msg(" removed");
        } else {
            const CompareWindow& n = c.next.windows[static_cast<std::size_t>(m.next)];
            if (m.cls == "unchanged")
                s += msg(" unchanged ({}, {} in new)", msText(n.dur), n.id);
            else if (m.cls == "shrunk")
                s += msg(" shrunk to {} ({}, {} in new)", msText(n.dur), formatPercent(m.deltaPct), n.id);
            else
                s += msg(" grew to {} ({}, {} in new)", msText(n.dur), formatPercent(m.deltaPct), n.id);
        }
        c.topFates.push_back({m.base, i, s});
    }
    std::sort(c.topFates.begin(), c.topFates.end(), [](const WindowFate& x, const WindowFate& y) { return x.base < y.base; });
}

const FigureDelta* figure(const Comparison& c, const char* key) {
    for (const auto& f : c.figures)
        if (f.key == key) return &f;
    return nullptr;
}

// §15: each prediction of the base beside the step service change and the fate of the windows it edited.
void checkPredictions(Comparison& c) {
    const FigureDelta* service = figure(c, "service_ms");
    for (std::size_t i = 0; i < c.base.predictions.size(); ++i) {
        const ComparePrediction& p = c.base.predictions[i];
        Comparison::PredictionCheck pc;
        pc.prediction = i;
        if (service && service->known) pc.achievedMs = service->deltaAvg;
        std::vector<std::string> fates;
        for (const std::string& id : p.windows) {
            int base = -1;
            for (std::size_t k = 0; k < c.base.windows.size() && base < 0; ++k)
                if (c.base.windows[k].id == id) base = static_cast<int>(k);
            for (const WindowMatch& m : c.matches)
                if (base >= 0 && m.base == base) {
                    fates.push_back(fmt::format("{} {}", id, m.cls == "removed" ? msg("removed")
                                                            : m.cls == "shrunk" ? msg("shrunk")
                                                            : m.cls == "grew"   ? msg("grew")
                                                                                : msg("unchanged")));
                    break;
                }
            if (fates.size() == 5 && p.windows.size() > 5) {
                fates.push_back(msg("{} more", p.windows.size() - 5));
                break;
            }
        }
        pc.windows = joined(fates, ", ");
        pc.sentence = msg("{} {}: predicted {} per step, achieved {} (step service, dominant group average){}",
                          p.priority, p.edit, gainMsText(-p.gainMs),
                          pc.achievedMs ? gainMsText(*pc.achievedMs) : msg("n/a"),
                          pc.windows.empty() ? std::string() : msg("; its windows: {}", pc.windows));
        c.predictions.push_back(std::move(pc));
    }
}

void writeVerdict(Comparison& c) {
    std::vector<std::string> step;
    if (const FigureDelta* f = figure(c, "service_ms"); f && f->known)
        step.push_back(msg("step service {} ({:.3f} → {:.3f} ms, dominant group average)",
                                   formatPercent(f->deltaAvgPct), f->baseAvg, f->newAvg));
    if (const FigureDelta* f = figure(c, "underfeed_ratio"); f && f->known)
        // Two decimals as a reader says it; four when two would hide the change.
        step.push_back(fmt::format(fmt::runtime(fmt::format("{:.2f}", f->baseAvg) == fmt::format("{:.2f}", f->newAvg) &&
                                                        f->deltaAvg != 0
                                                    ? "underfeed {:.4f} → {:.4f}"
                                                    : "underfeed {:.2f} → {:.2f}"),
                                   f->baseAvg, f->newAvg));
    if (const FigureDelta* f = figure(c, "kernel_count"); f && f->known)
        step.push_back(msg("kernels per step {:.0f} → {:.0f}", f->baseAvg, f->newAvg));
    if (!step.empty()) c.verdict.push_back(joined(step, msg("; ").c_str()));
    for (const auto& f : c.topFates)
        c.verdict.push_back(f.sentence);
    for (const auto& p : c.predictions)
        c.verdict.push_back(p.sentence);
    if (!c.ops.empty() && c.ops.front().deltaTotal != 0) {
        const OpDelta& o = c.ops.front();
        const std::string op =
            fmt::format("`{}` ({})", o.name, o.taskType.empty() ? msg("task type unknown") : o.taskType);
        if (o.status == "new")
            c.verdict.push_back(msg("largest op change: {} is new ({} in {} calls)", op, msText(o.newTotal),
                                            o.newCalls));
        else if (o.status == "removed")
            c.verdict.push_back(msg("largest op change: {} is gone ({} in {} calls in base)", op,
                                            msText(o.baseTotal), o.baseCalls));
        else
            c.verdict.push_back(msg("largest op change: {} total {} → {} ({}){}", op, msText(o.baseTotal),
                                            msText(o.newTotal), formatPercent(o.deltaTotalPct),
                                            o.newCalls != o.baseCalls
                                                ? msg(", calls {} → {}", o.baseCalls, o.newCalls)
                                                : std::string()));
    }
    c.verdict.push_back(msg("ops of the dominant group: {} changed, {} unchanged, {} new, {} removed",
                                    c.opsChanged, c.opsUnchanged, c.opsNew, c.opsRemoved));
    c.verdict.push_back(
        msg("windows of the dominant group: {} removed, {} new, {} shrunk, {} grew, {} unchanged", c.removed,
                    c.added, c.shrunk, c.grew, c.unchanged));
}

} // namespace

std::string formatPercent(std::optional<double> pct) {
    if (!pct) return "n/a";
    const double r = std::round(*pct * 10.0) / 10.0;
    if (r == 0) return "0.0 %";
    return fmt::format("{}{:.1f} %", r < 0 ? "\u2212" : "+", std::fabs(r));
}

Comparison compareSides(CompareSide base, CompareSide next) {
    Comparison c;
    c.base = std::move(base);
    c.next = std::move(next);
    checkScope(c);
    addNotes(c);
    compareFigures(c);
    compareOps(c);
    compareLayers(c);
    matchWindows(c);
    stateTopFates(c);
    checkPredictions(c);
    writeVerdict(c);
    return c;
}

} // namespace bs
