#include "timeline_data.h"

#include "language.h"
#include "timeline_index.h"

#include "pipeline/analysis_run.h"
#include "model/profile.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>
#include <map>

namespace bs::ui {

namespace {

// What the layers were told apart by (core's markerSource: an id of a closed set), in the window's language.
QString markerSourceText(const std::string& source) {
    static const char* const kSources[] = {QT_TRANSLATE_NOOP("Timeline", "attention kernels"),
                                           QT_TRANSLATE_NOOP("Timeline", "repeating kernel pattern")};
    for (const char* k : kSources)
        if (source == k) return QCoreApplication::translate("Timeline", k);
    return coreText(source);
}

Track makeTrack(QString name, QString detail, TrackKind kind, QString group) {
    Track t;
    t.name = std::move(name);
    t.detail = std::move(detail);
    t.kind = kind;
    t.group = std::move(group);
    return t;
}

enum Palette : std::uint16_t {
    kCompute,
    kVector,
    kMix,
    kAicpu,
    kComm,
    kOther,
    kStepA,
    kStepB,
    kBusy,
    kHost,
    kHostSync,
    kHostComm,
    kDense,
    kMoeDfc,
    kMoeGmm,
    kLayerOther,
    kOverlap,
    kPaletteSize
};

std::uint16_t kernelColor(const Kernel& k, std::string_view taskType) {
    switch (k.cls) {
    case TaskClass::Comm:
        return kComm;
    case TaskClass::AiCpu:
        return kAicpu;
    case TaskClass::Other:
        return kOther;
    case TaskClass::ComputeCore:
        if (taskType == "AI_VECTOR_CORE" || taskType == "MIX_AIV") return kVector;
        if (taskType == "MIX_AIC") return kMix;
        return kCompute;
    }
    return kOther;
}

} // namespace

void ItemSeries::finish() {
    // Longer first on equal starts: an enclosing host event comes before the ones it contains. The items
    // usually come in that order already (events and kernels are sorted by start, then longer first):
    // checked in one pass, sorted only when they are not (at 1 GB of trace the sorts cost ~0.2 s).
    const auto before = [](const TimelineItem& a, const TimelineItem& b) {
        return a.start != b.start ? a.start < b.start : a.end > b.end;
    };
    if (!std::is_sorted(items.begin(), items.end(), before)) std::sort(items.begin(), items.end(), before);
    prefixMaxEnd.resize(items.size());
    maxDuration = 0;
    TimeNs m = INT64_MIN;
    for (std::size_t k = 0; k < items.size(); ++k) {
        maxDuration = std::max(maxDuration, items[k].end - items[k].start);
        m = std::max(m, items[k].end);
        prefixMaxEnd[k] = m;
    }
}

std::pair<std::size_t, std::size_t> ItemSeries::visibleSlice(TimeNs start, TimeNs end) const {
    const auto byStart = [](const TimelineItem& i, TimeNs v) { return i.start < v; };
    const auto first = std::lower_bound(items.begin(), items.end(), start - maxDuration, byStart);
    const auto last = std::lower_bound(first, items.end(), end, byStart);
    return {static_cast<std::size_t>(first - items.begin()), static_cast<std::size_t>(last - items.begin())};
}

std::pair<const FlowLink*, const FlowLink*> TimelineData::linksOf(std::uint32_t kernel) const {
    const auto r = std::equal_range(flowLinks.begin(), flowLinks.end(), FlowLink{kernel},
                                    [](const FlowLink& a, const FlowLink& b) { return a.kernel < b.kernel; });
    return {flowLinks.data() + (r.first - flowLinks.begin()), flowLinks.data() + (r.second - flowLinks.begin())};
}

QColor scopeColor(int scope) {
    switch (static_cast<WindowScope>(scope)) {
    case WindowScope::Prelaunch:
        return QColor(230, 120, 40, 70);
    case WindowScope::Tail:
        return QColor(150, 90, 200, 70);
    case WindowScope::Global:
        return QColor(120, 120, 120, 70);
    case WindowScope::StepInternal:
        break;
    }
    return QColor(220, 40, 40, 70);
}

QColor colorForName(const QString& name) {
    const uint h = qHash(name);
    return QColor::fromHsv(static_cast<int>(h % 360), 110 + static_cast<int>((h >> 9) % 60), 200);
}

namespace {

// Legend names per palette index; bands (steps, layers, busy, overlap) are named by their lanes.
QString paletteName(std::uint16_t c) {
    switch (c) {
    case kCompute:
        return QCoreApplication::translate("Timeline", "AI Core");
    case kVector:
        return QCoreApplication::translate("Timeline", "AI Vector");
    case kMix:
        return QCoreApplication::translate("Timeline", "Mix (AIC)");
    case kAicpu:
        return QCoreApplication::translate("Timeline", "AI CPU");
    case kComm:
        return QCoreApplication::translate("Timeline", "Communication");
    case kOther:
        return QCoreApplication::translate("Timeline", "Other");
    case kHost:
        return QCoreApplication::translate("Timeline", "Host op");
    case kHostSync:
        return QCoreApplication::translate("Timeline", "Host sync / copy");
    case kHostComm:
        return QCoreApplication::translate("Timeline", "Host communication");
    default:
        return {};
    }
}

QString scopeName(WindowScope s) {
    switch (s) {
    case WindowScope::Prelaunch:
        return QCoreApplication::translate("Timeline", "Bubble: prelaunch");
    case WindowScope::Tail:
        return QCoreApplication::translate("Timeline", "Bubble: tail");
    case WindowScope::Global:
        return QCoreApplication::translate("Timeline", "Bubble: global");
    case WindowScope::StepInternal:
        break;
    }
    return QCoreApplication::translate("Timeline", "Bubble: step-internal");
}

} // namespace

void buildLegend(TimelineData& d) {
    // Only the colours some item of the model is drawn in: device kernels, then host ops, then scopes.
    std::vector<bool> device(kPaletteSize, false), host(kPaletteSize, false);
    for (const auto& t : d.tracks) {
        if (t.kind != TrackKind::Stream && t.kind != TrackKind::Host && t.kind != TrackKind::Hccl) continue;
        auto& used = t.kind == TrackKind::Host ? host : device;
        for (const auto& it : t.items)
            used[it.color] = true;
    }
    for (std::uint16_t c = 0; c < kPaletteSize; ++c)
        if (device[c]) d.legend.push_back({LegendEntry::Kind::Device, paletteName(c), d.palette[c]});
    for (std::uint16_t c = 0; c < kPaletteSize; ++c)
        if (host[c]) d.legend.push_back({LegendEntry::Kind::Host, paletteName(c), d.palette[c]});
    bool scopes[4] = {false, false, false, false};
    for (const auto& b : d.bubbles)
        if (b.scope >= 0 && b.scope < 4) scopes[b.scope] = true;
    for (int s = 0; s < 4; ++s)
        if (scopes[s]) {
            QColor c = scopeColor(s);
            c.setAlpha(150);
            d.legend.push_back({LegendEntry::Kind::Bubble, scopeName(static_cast<WindowScope>(s)), c});
        }
}

TimelineData buildTimelineTracks(const Profile& p) {
    TimelineData d;
    d.palette.resize(kPaletteSize);
    d.palette[kCompute] = QColor(0x3b, 0x7d, 0xd8);
    d.palette[kVector] = QColor(0x2e, 0xa8, 0x8f);
    d.palette[kMix] = QColor(0x6a, 0x5a, 0xcd);
    d.palette[kAicpu] = QColor(0xe0, 0x6c, 0x2f);
    d.palette[kComm] = QColor(0xd9, 0xa4, 0x1c);
    d.palette[kOther] = QColor(0x8a, 0x8f, 0x98);
    d.palette[kStepA] = QColor(0x55, 0x60, 0x70);
    d.palette[kStepB] = QColor(0x78, 0x84, 0x96);
    d.palette[kBusy] = QColor(0x35, 0x4f, 0x6e);
    d.palette[kHost] = QColor(0x9b, 0xb5, 0xd6);
    d.palette[kHostSync] = QColor(0xd6, 0x5d, 0x5d);
    d.palette[kHostComm] = QColor(0xe3, 0xb5, 0x4a);
    d.palette[kDense] = QColor(0x5b, 0x9b, 0xd5);
    d.palette[kMoeDfc] = QColor(0x9e, 0x6b, 0xc9);
    d.palette[kMoeGmm] = QColor(0xc9, 0x6b, 0x9e);
    d.palette[kLayerOther] = QColor(0x9a, 0xa5, 0xb1);
    d.palette[kOverlap] = QColor(0x7f, 0x9f, 0x7f);

    // Device busy union.
    Track busy = makeTrack(QCoreApplication::translate("Timeline", "Device busy"),
                           QCoreApplication::translate("Timeline", "union of all streams"),
                           TrackKind::DeviceBusy, QStringLiteral("Device"));
    {
        std::vector<Interval> iv;
        iv.reserve(p.kernels.size());
        for (const auto& k : p.kernels)
            iv.push_back({k.start, k.end()});
        const auto merged = mergeIntervals(std::move(iv));
        for (std::size_t i = 0; i < merged.size(); ++i)
            busy.items.push_back({merged[i].a, merged[i].b, static_cast<std::uint32_t>(i), kBusy});
    }
    busy.finish();
    d.tracks.push_back(std::move(busy));
    // One track per stream, with its dominant task types.
    std::map<int, Track> streams;
    std::map<int, std::map<std::string, TimeNs>> typeTime;
    for (std::size_t i = 0; i < p.kernels.size(); ++i) {
        const Kernel& k = p.kernels[i];
        const std::string_view tt = p.str(k.taskType);
        auto& t = streams[k.stream];
        t.items.push_back({k.start, k.end(), static_cast<std::uint32_t>(i), kernelColor(k, tt)});
        typeTime[k.stream][std::string(tt.empty() ? taskClassName(k.cls) : tt)] += k.dur;
    }
    for (auto& [s, t] : streams) {
        t.kind = TrackKind::Stream;
        t.stream = s;
        t.group = QStringLiteral("Device");
        std::vector<std::pair<TimeNs, std::string>> tt;
        for (const auto& [n, v] : typeTime[s])
            tt.emplace_back(v, n);
        std::sort(tt.rbegin(), tt.rend());
        for (std::size_t i = 0; i < tt.size() && i < 2; ++i)
            t.detail += (i ? QStringLiteral(", ") : QString()) + coreText(tt[i].second);
        if (s >= 0) {
            t.name = QCoreApplication::translate("Timeline", "Stream %1").arg(s);
        } else {
            // Kernels whose stream nothing gave (no Stream ID in the table, no trace to recover it from): named
            // by what they run, which is all the data says about them.
            t.name = t.detail.isEmpty() ? QCoreApplication::translate("Timeline", "Stream unknown")
                                        : QCoreApplication::translate("Timeline", "%1 (stream unknown)").arg(t.detail);
            t.detail.clear();
        }
        t.finish();
        d.streamTrack[s] = static_cast<int>(d.tracks.size());
        d.tracks.push_back(std::move(t));
    }
    // HCCL and host lanes, Overlap Analysis lanes.
    auto laneName = [&](std::uint32_t lane) {
        const auto& l = p.lanes[lane];
        QString proc;
        auto pit = p.processes.find(l.pid);
        if (pit != p.processes.end()) proc = coreText(pit->second.name);
        auto tit = p.threads.find({l.pid, l.tid});
        QString thread = tit != p.threads.end() ? coreText(tit->second.name) : QString();
        // The profiler names a thread it knows nothing about "Thread <its id>": that is no name, only the id,
        // so it is written in the window's language like a thread without one.
        if (thread.isEmpty() || thread == QStringLiteral("Thread %1").arg(l.tid))
            thread = QCoreApplication::translate("Timeline", "Thread %1").arg(l.tid);
        return proc.isEmpty() ? thread : proc + QStringLiteral(" · ") + thread;
    };
    auto addLanes = [&](const std::vector<TraceEvent>& evs, TrackKind kind, const QString& group,
                        bool collapsed) {
        std::map<std::uint32_t, Track> byLane;
        for (std::size_t i = 0; i < evs.size(); ++i) {
            const auto& e = evs[i];
            std::uint16_t c =
                kind == TrackKind::Hccl ? kComm : (kind == TrackKind::Overlap ? kOverlap : kHost);
            if (kind == TrackKind::Host) {
                const std::string_view n = p.str(e.name);
                if (n.find("Synchronize") != std::string_view::npos || n == "aten::item" || n == "aten::to" ||
                    n.rfind("aclrtMemcpy", 0) == 0)
                    c = kHostSync;
                else if (n.rfind("c10d", 0) == 0 || n.find("Hccl") != std::string_view::npos)
                    c = kHostComm;
            }
            byLane[e.lane].items.push_back(
                {e.ts, std::max(e.end(), e.ts + 1), static_cast<std::uint32_t>(i), c});
        }
        for (auto& [lane, t] : byLane) {
            t.name = laneName(lane);
            t.lane = lane;
            t.kind = kind;
            t.group = group;
            t.collapsed = collapsed;
            t.finish();
            d.laneTrack[lane] = static_cast<int>(d.tracks.size());
            d.tracks.push_back(std::move(t));
        }
    };
    addLanes(p.hcclEvents, TrackKind::Hccl, QStringLiteral("HCCL"), false);
    addLanes(p.hostEvents, TrackKind::Host, QStringLiteral("Host"), false);
    addLanes(p.overlapEvents, TrackKind::Overlap, QStringLiteral("Overlap Analysis"), true);

    d.start = p.kernels.empty() ? 0 : p.kernels.front().start;
    d.end = d.start + 1;
    for (const auto& k : p.kernels)
        d.end = std::max(d.end, k.end());
    buildHostDepth(d, p);
    buildFlowLinks(d, p);
    return d;
}

void addAnalysisToTimeline(TimelineData& d, const AnalysisResult& r) {
    // The Steps and Layers bands go first: the indices of the tracks after them move by as many.
    std::vector<Track> bands;
    // Step band.
    Track steps = makeTrack(QCoreApplication::translate("Timeline", "Steps"), {}, TrackKind::Steps,
                            QStringLiteral("Device"));
    for (std::size_t i = 0; i < r.steps.steps.size(); ++i)
        steps.items.push_back({r.steps.steps[i].start, r.steps.steps[i].end, static_cast<std::uint32_t>(i),
                               static_cast<std::uint16_t>(i % 2 ? kStepB : kStepA)});
    steps.finish();
    bands.push_back(std::move(steps));
    // Layer band (structures).
    Track layers = makeTrack(QCoreApplication::translate("Timeline", "Layers"),
                             markerSourceText(r.architecture.markerSource), TrackKind::Layers,
                             QStringLiteral("Device"));
    for (std::size_t i = 0; i < r.architecture.structures.size(); ++i) {
        const auto& s = r.architecture.structures[i];
        std::uint16_t c = kLayerOther;
        if (s.type.rfind("Dense", 0) == 0)
            c = kDense;
        else if (s.type.rfind("MoE+DFC", 0) == 0)
            c = kMoeDfc;
        else if (s.type.rfind("MoE+GMM", 0) == 0)
            c = kMoeGmm;
        layers.items.push_back({s.span.a, s.span.b, static_cast<std::uint32_t>(i), c});
    }
    layers.finish();
    bands.push_back(std::move(layers));
    const int moved = static_cast<int>(bands.size());
    d.tracks.insert(d.tracks.begin(), std::make_move_iterator(bands.begin()), std::make_move_iterator(bands.end()));
    for (auto& [stream, index] : d.streamTrack)
        index += moved;
    for (auto& [lane, index] : d.laneTrack)
        index += moved;
    for (std::size_t i = 0; i < r.anomaly.windows.size(); ++i) {
        const auto& w = r.anomaly.windows[i];
        d.bubbles.push_back({w.span.a, w.span.b, static_cast<int>(w.scope), static_cast<int>(i + 1),
                             coreText(w.id)});
    }
    for (const auto& s : r.steps.steps) {
        d.start = std::min(d.start, s.start);
        d.end = std::max(d.end, s.end);
    }
    buildLegend(d);
}

TimelineData buildTimelineData(const Profile& p, const AnalysisResult& r) {
    TimelineData d = buildTimelineTracks(p);
    addAnalysisToTimeline(d, r);
    return d;
}

} // namespace bs::ui
