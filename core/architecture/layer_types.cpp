#include "architecture/layer_types.h"

#include "architecture/kernel_roles.h"
#include "i18n/message.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <set>
#include <unordered_map>

namespace bs {

namespace {

const char* kPrevious = "previous layer (still running)";

// Kernel symbols for sequence comparison: the op type when recorded, else the name with digit runs
// masked (collectives carry a running index: hcom_allReduce__586_0_1).
class Symbols {
  public:
    std::uint32_t of(const Profile& p, const Kernel& k) {
        std::string key;
        if (k.opType) {
            key = "t:" + std::string(p.str(k.opType));
        } else {
            key = "n:";
            for (char c : p.str(k.name))
                if (c >= '0' && c <= '9') {
                    if (key.back() != '#') key.push_back('#');
                } else {
                    key.push_back(c);
                }
        }
        return ids_.emplace(key, static_cast<std::uint32_t>(ids_.size())).first->second;
    }

  private:
    std::unordered_map<std::string, std::uint32_t> ids_;
};

using Seq = std::vector<std::uint32_t>;

struct LayerSeqs {
    std::vector<Seq> seq;                 // per layer
    std::vector<std::size_t> first, last; // kernel range per layer
};

LayerSeqs layerSequences(const Profile& p, const ArchitectureResult& a) {
    LayerSeqs s;
    Symbols sym;
    for (const auto& l : a.layers) {
        const std::size_t ka = kernelIndexAt(p, l.span.a), kb = kernelIndexAt(p, l.span.b);
        Seq q;
        q.reserve(kb - ka);
        for (std::size_t k = ka; k < kb; ++k)
            q.push_back(sym.of(p, p.kernels[k]));
        s.seq.push_back(std::move(q));
        s.first.push_back(ka);
        s.last.push_back(kb);
    }
    return s;
}

// The most common sequence among `layers` (ties: the one seen first) and how many layers follow it.
std::pair<Seq, std::size_t> modalSequence(const LayerSeqs& s, const std::vector<int>& layers) {
    std::map<Seq, std::pair<std::size_t, int>> count; // → (count, first layer)
    for (int li : layers) {
        auto& c = count.try_emplace(s.seq[static_cast<std::size_t>(li)], 0, li).first->second;
        ++c.first;
    }
    const Seq* best = nullptr;
    std::size_t n = 0;
    int first = 0;
    for (const auto& [q, c] : count)
        if (!best || c.first > n || (c.first == n && c.second < first))
            best = &q, n = c.first, first = c.second;
    return {best ? *best : Seq{}, n};
}

// Of the layers following `modal`, the one whose wall is the median (lower median; ties: the earliest).
int medianLayer(const ArchitectureResult& a, const LayerSeqs& s, const std::vector<int>& layers,
                const Seq* modal) {
    std::vector<int> c;
    for (int li : layers)
        if (!modal || s.seq[static_cast<std::size_t>(li)] == *modal) c.push_back(li);
    if (c.empty()) return -1;
    std::stable_sort(c.begin(), c.end(), [&](int x, int y) {
        return a.layers[static_cast<std::size_t>(x)].clocks.wall <
               a.layers[static_cast<std::size_t>(y)].clocks.wall;
    });
    const TimeNs med = a.layers[static_cast<std::size_t>(c[(c.size() - 1) / 2])].clocks.wall;
    int best = -1;
    for (int li : c)
        if (a.layers[static_cast<std::size_t>(li)].clocks.wall == med && (best < 0 || li < best)) best = li;
    return best;
}

const std::string& phaseOf(const ArchitectureResult& a, int li) {
    return a.passes[static_cast<std::size_t>(a.layers[static_cast<std::size_t>(li)].pass)].phase;
}

// Characteristics of a type from its representative (modal-sequence) layer.
void characterize(LayerTypeSummary& t) {
    static const std::set<std::string> ffnRoles = {
        "MoE routing", "expert dispatch+FFN+combine", "expert FFN", "expert combine", "EP comm", "dense FFN",
        "AICPU op"};
    bool moe = false;
    for (const auto& k : t.sequence) {
        if (ffnRoles.count(k.role)) {
            if (!t.ffnPath.empty() && t.ffnPath.back().first == k.display)
                ++t.ffnPath.back().second;
            else
                t.ffnPath.emplace_back(k.display, 1);
            moe |= k.role.rfind("MoE", 0) == 0 || k.role.rfind("expert", 0) == 0 || k.role == "EP comm";
        }
        auto tally = [&](std::vector<std::pair<std::string, std::size_t>>& v) {
            auto it = std::find_if(v.begin(), v.end(), [&](const auto& x) { return x.first == k.display; });
            if (it == v.end())
                v.emplace_back(k.display, 1);
            else
                ++it->second;
        };
        if (k.role == "TP comm" || k.role == "EP comm") tally(t.collectives);
        if (k.role == "sampling") tally(t.sampling);
    }
    auto list = [](const std::vector<std::pair<std::string, std::size_t>>& v, const char* sep) {
        std::string o;
        for (const auto& [n, c] : v)
            o += (o.empty() ? "" : sep) + fmt::format("`{}`", n) + (c > 1 ? fmt::format(" ×{}", c) : "");
        return o;
    };
    std::vector<std::string> parts;
    parts.push_back(t.ffnPath.empty() ? msg("FFN path: none seen")
                                      : msg("FFN path: {}", list(t.ffnPath, " → ")));
    if (!moe) parts.push_back(msg("no MoE kernel"));
    parts.push_back(t.collectives.empty() ? msg("collectives: none")
                                          : msg("collectives: {}", list(t.collectives, ", ")));
    if (!t.sampling.empty()) parts.push_back(msg("sampling: {}", list(t.sampling, ", ")));
    parts.push_back(
        msg("modal sequence of {} kernels in {} of {} layers", t.modalKernels, t.modalLayers, t.occurrences));
    for (std::size_t i = 0; i < parts.size(); ++i)
        t.characteristics += (i ? "; " : "") + parts[i];
}

// Display names of the kernels of [first, last) whose symbol is in `want` (first-seen order, distinct).
std::vector<std::string> namesOf(const Profile& p, const LayerSeqs& s, int li,
                                 const std::map<std::uint32_t, int>& want, bool positive) {
    std::vector<std::string> out;
    const auto l = static_cast<std::size_t>(li);
    for (std::size_t k = s.first[l]; k < s.last[l]; ++k) {
        auto it = want.find(s.seq[l][k - s.first[l]]);
        if (it == want.end() || (positive ? it->second <= 0 : it->second >= 0)) continue;
        const std::string n = kernelDisplayName(p, p.kernels[k]);
        if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
    }
    return out;
}

// What every layer of the type shows, not only the representative one.
void scanLayers(const Profile& p, const ArchitectureResult& a, const LayerSeqs& s,
                const std::vector<int>& layers, const Seq* modal, LayerTypeSummary& t) {
    auto& an = t.anomalies;
    std::map<std::string, std::size_t> aicpuAt;
    std::map<std::pair<std::vector<std::string>, std::vector<std::string>>, std::size_t> devAt;
    for (int li : layers) {
        const auto l = static_cast<std::size_t>(li);
        for (std::size_t k = s.first[l]; k < s.last[l]; ++k) {
            const Kernel& kr = p.kernels[k];
            if (kr.cls != TaskClass::AiCpu) continue;
            const std::string n = kernelDisplayName(p, kr);
            auto [it, fresh] = aicpuAt.try_emplace(n, an.aicpu.size());
            if (fresh) an.aicpu.push_back({n, {}, 0, 0});
            auto& u = an.aicpu[it->second];
            if (u.layers.empty() || u.layers.back() != li) u.layers.push_back(li);
            ++u.kernels;
            u.total = addSaturating(u.total, kr.dur);
        }
        if (!modal || s.seq[l] == *modal) continue;
        ++an.deviatingLayers;
        std::map<std::uint32_t, int> diff;
        for (auto x : s.seq[l])
            ++diff[x];
        for (auto x : *modal)
            --diff[x];
        auto key =
            std::make_pair(namesOf(p, s, li, diff, true), namesOf(p, s, t.representative, diff, false));
        auto [it, fresh] = devAt.try_emplace(key, an.deviations.size());
        if (fresh) an.deviations.push_back({key.first, key.second, 0, {}});
        auto& d = an.deviations[it->second];
        ++d.count;
        if (d.layers.size() < 8) d.layers.push_back(li);
    }
    std::stable_sort(an.deviations.begin(), an.deviations.end(),
                     [](const auto& x, const auto& y) { return x.count > y.count; });
    // (The type's bubble windows are added by placeWindowsInLayerTypes.)
    // Warm-up: the first layer of the type, in the representative phase, against that phase's average.
    double sum = 0;
    int n = 0, first = -1;
    for (int li : layers)
        if (phaseOf(a, li) == t.representativePhase) {
            if (first < 0) first = li;
            sum += nsToMs(a.layers[static_cast<std::size_t>(li)].clocks.wall), ++n;
        }
    an.phaseAvgMs = n ? sum / n : 0;
    if (first >= 0 && an.phaseAvgMs > 0 &&
        nsToMs(a.layers[static_cast<std::size_t>(first)].clocks.wall) > 1.5 * an.phaseAvgMs)
        an.warmupLayer = first;
}

void wallStats(const ArchitectureResult& a, const std::vector<int>& layers, LayerTypeSummary& t) {
    std::vector<double> walls;
    for (int li : layers)
        walls.push_back(nsToMs(a.layers[static_cast<std::size_t>(li)].clocks.wall));
    t.occurrences = walls.size();
    if (walls.empty()) return;
    t.wallMinMs = *std::min_element(walls.begin(), walls.end());
    t.wallMaxMs = *std::max_element(walls.begin(), walls.end());
    double s = 0, s2 = 0;
    for (double w : walls)
        s += w, s2 += w * w;
    t.wallAvgMs = s / static_cast<double>(walls.size());
    t.wallStdMs =
        std::sqrt(std::max(0.0, s2 / static_cast<double>(walls.size()) - t.wallAvgMs * t.wallAvgMs));
}

// The significant window each gap is (none before the windows are placed).
void markWindows(const ArchitectureResult& a, LayerTiming& lt) {
    for (auto& g : lt.gaps)
        for (const auto& wp : a.windowPlaces)
            if (wp.span.a < g.span.b && wp.span.b > g.span.a) {
                g.windowId = wp.windowId;
                break;
            }
}

} // namespace

LayerTiming layerTiming(const Profile& p, const ArchitectureResult& a, int layer) {
    LayerTiming lt;
    lt.layer = layer;
    const ArchLayer& l = a.layers[static_cast<std::size_t>(layer)];
    const Interval span = l.span;
    lt.wall = span.length();
    const std::size_t ka = kernelIndexAt(p, span.a), kb = kernelIndexAt(p, span.b);
    const auto roles = layerKernels(p, l, a.marker);
    std::map<int, TimeNs> computeByStream;
    for (std::size_t k = ka; k < kb; ++k)
        if (p.kernels[k].cls == TaskClass::ComputeCore)
            computeByStream[p.kernels[k].stream] =
                addSaturating(computeByStream[p.kernels[k].stream], p.kernels[k].dur);
    TimeNs best = -1;
    for (const auto& [st, t] : computeByStream)
        if (t > best) best = t, lt.mainStream = st;
    // Items: this layer's kernels with their roles, and kernels of earlier layers still running at its start.
    struct Item {
        Interval iv;
        int comp;
        bool main;
        std::size_t kernel;
    };
    std::vector<Item> items;
    std::vector<std::vector<Interval>> compIv;
    auto compIndex = [&](const std::string& role) {
        for (std::size_t i = 0; i < lt.components.size(); ++i)
            if (lt.components[i].role == role) return static_cast<int>(i);
        lt.components.push_back({role, 0, 0, {}, {}});
        compIv.emplace_back();
        return static_cast<int>(lt.components.size() - 1);
    };
    auto add = [&](std::size_t k, const std::string& role) {
        const Kernel& kr = p.kernels[k];
        const Interval iv{std::max(kr.start, span.a), std::min(kr.end(), span.b)};
        if (iv.b <= iv.a) return;
        const int c = compIndex(role);
        auto& comp = lt.components[static_cast<std::size_t>(c)];
        if (std::find(comp.streams.begin(), comp.streams.end(), kr.stream) == comp.streams.end())
            comp.streams.push_back(kr.stream);
        const std::string n = kernelDisplayName(p, kr);
        if (std::find(comp.kernels.begin(), comp.kernels.end(), n) == comp.kernels.end())
            comp.kernels.push_back(n);
        compIv[static_cast<std::size_t>(c)].push_back(iv);
        items.push_back({iv, c, kr.stream == lt.mainStream, k});
    };
    // Straddlers: kernels are start-sorted, so look back until no earlier kernel can still run at span.a.
    TimeNs maxDur = 0;
    for (const auto& kr : p.kernels)
        maxDur = std::max(maxDur, kr.dur);
    std::vector<std::size_t> straddlers;
    for (std::size_t k = ka; k-- > 0 && p.kernels[k].start >= span.a - maxDur;)
        if (p.kernels[k].end() > span.a) straddlers.push_back(k);
    for (auto it = straddlers.rbegin(); it != straddlers.rend(); ++it)
        add(*it, kPrevious);
    for (std::size_t k = ka; k < kb; ++k)
        add(k, roles[k - ka].role);
    for (std::size_t c = 0; c < lt.components.size(); ++c) {
        lt.components[c].busy = totalLength(mergeIntervals(compIv[c]));
        std::sort(lt.components[c].streams.begin(), lt.components[c].streams.end());
    }
    // Sweep: each elementary interval goes to the running main-stream kernel (earliest started), else the
    // earliest-started running kernel, else idle.
    struct Ev {
        TimeNs t;
        bool open;
        std::size_t item;
    };
    std::vector<Ev> ev;
    for (std::size_t i = 0; i < items.size(); ++i) {
        ev.push_back({items[i].iv.a, true, i});
        ev.push_back({items[i].iv.b, false, i});
    }
    std::sort(ev.begin(), ev.end(),
              [](const Ev& x, const Ev& y) { return x.t < y.t || (x.t == y.t && !x.open && y.open); });
    std::set<std::tuple<int, TimeNs, std::size_t>> active; // (0 main / 1 other, start, item)
    auto keyOf = [&](std::size_t i) {
        return std::make_tuple(items[i].main ? 0 : 1, p.kernels[items[i].kernel].start, i);
    };
    TimeNs t = span.a;
    std::string lastEnded;
    IdleGap open;
    bool inGap = false;
    auto attribute = [&](TimeNs to) {
        if (to <= t) return;
        if (active.empty()) {
            if (!inGap) open = {{t, to}, lastEnded, "", ""}, inGap = true;
            open.span.b = to;
            lt.idle += to - t;
        } else {
            auto& c = lt.components[static_cast<std::size_t>(items[std::get<2>(*active.begin())].comp)];
            c.wall += to - t;
        }
        t = to;
    };
    for (std::size_t e = 0; e < ev.size();) {
        attribute(ev[e].t);
        const TimeNs now = ev[e].t;
        for (; e < ev.size() && ev[e].t == now; ++e) {
            const std::size_t i = ev[e].item;
            if (ev[e].open) {
                if (inGap) {
                    if (open.after.empty()) open.after = std::string(p.str(p.kernels[items[i].kernel].name));
                }
                active.insert(keyOf(i));
            } else {
                active.erase(keyOf(i));
                lastEnded = std::string(p.str(p.kernels[items[i].kernel].name));
            }
        }
        if (inGap && !active.empty()) lt.gaps.push_back(open), inGap = false;
    }
    attribute(span.b);
    if (inGap) lt.gaps.push_back(open);
    markWindows(a, lt);
    return lt;
}

void summarizeLayerTypes(const Profile& p, const std::string& modal, ArchitectureResult& a) {
    // Types in the order of a modal pass (prefill first when there is one), with their layer ranges.
    const ArchPass* rep = nullptr;
    for (const auto& ps : a.passes)
        if (a.crossCheck[static_cast<std::size_t>(ps.index)].signature == modal &&
            (!rep || (rep->phase != "prefill" && ps.phase == "prefill")))
            rep = &ps;
    if (!rep) return;
    for (int li : rep->layers) {
        const auto& l = a.layers[static_cast<std::size_t>(li)];
        auto it = std::find_if(a.types.begin(), a.types.end(),
                               [&](const LayerTypeSummary& t) { return t.type == l.type; });
        if (it == a.types.end()) {
            a.types.push_back({});
            it = std::prev(a.types.end());
            it->type = l.type;
            it->representativePhase = rep->phase;
        }
        if (it->ranges.empty() || it->ranges.back().second != l.index - 1)
            it->ranges.emplace_back(l.index, l.index);
        else
            it->ranges.back().second = l.index;
        ++it->count;
    }
    const LayerSeqs seqs = layerSequences(p, a);
    for (auto& t : a.types) {
        std::vector<int> layers, inPhase, decode;
        for (std::size_t li = 0; li < a.layers.size(); ++li)
            if (a.layers[li].type == t.type) {
                layers.push_back(static_cast<int>(li));
                if (phaseOf(a, static_cast<int>(li)) == t.representativePhase)
                    inPhase.push_back(static_cast<int>(li));
                if (phaseOf(a, static_cast<int>(li)) == "decode") decode.push_back(static_cast<int>(li));
            }
        wallStats(a, layers, t);
        const auto [modal, modalN] = modalSequence(seqs, layers);
        const Seq* modalSeq = modalN ? &modal : nullptr;
        t.modalLayers = modalN;
        t.modalKernels = modal.size();
        // Representative: a modal-sequence layer of the representative phase (else of any phase), median
        // wall.
        t.representative = medianLayer(a, seqs, inPhase, modalSeq);
        if (t.representative < 0) t.representative = medianLayer(a, seqs, layers, modalSeq);
        if (t.representative < 0) continue;
        t.representativePhase = phaseOf(a, t.representative);
        t.sequence = layerKernels(p, a.layers[static_cast<std::size_t>(t.representative)], a.marker);
        t.timing = layerTiming(p, a, t.representative);
        characterize(t);
        if (!decode.empty()) {
            const Seq decodeModal = modalSequence(seqs, decode).first;
            t.decodeRepresentative = medianLayer(a, seqs, decode, &decodeModal);
            t.decodeSequence =
                layerKernels(p, a.layers[static_cast<std::size_t>(t.decodeRepresentative)], a.marker);
            t.decodeTiming = layerTiming(p, a, t.decodeRepresentative);
        }
        scanLayers(p, a, seqs, layers, modalSeq, t);
    }
}

void placeWindowsInLayerTypes(ArchitectureResult& a) {
    for (auto& t : a.types) {
        if (t.representative < 0) continue; // no representative layer: the type was not scanned
        markWindows(a, t.timing);
        markWindows(a, t.decodeTiming);
        auto& an = t.anomalies;
        an.windows.clear();
        an.windowTimeAtStart = an.windowTimeInside = 0;
        for (std::size_t i = 0; i < a.windowPlaces.size(); ++i) {
            const auto& wp = a.windowPlaces[i];
            if (wp.layer < 0 || a.layers[static_cast<std::size_t>(wp.layer)].type != t.type) continue;
            an.windows.push_back(static_cast<int>(i));
            (wp.position == "layer_start" ? an.windowTimeAtStart : an.windowTimeInside) += wp.span.length();
        }
    }
}

} // namespace bs
