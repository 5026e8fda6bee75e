#include "timeline_index.h"

#include "model/profile.h"
#include "timeline_data.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <vector>
#include <unordered_map>

namespace bs::ui {

namespace {

constexpr std::size_t kMaxDepthRows = 32; // deeper events share the last row

struct OpenEvent {
    TimeNs end;
    std::uint32_t ref;
    std::uint32_t depth;
};

// The open events of a lane in start order. Events on a thread nest, but not always: torch_npu's
// ProfilerStep#N starts inside a record_function call that ends first. So an event's parent is the
// innermost open event that still encloses it, not merely the top of the stack, and ended events are
// skipped where they lie (popped once they reach the top).
class OpenStack {
  public:
    void clear() { open_.clear(); }
    // The innermost open event containing [start, end), or nullptr.
    const OpenEvent* enclosing(TimeNs start, TimeNs end) {
        while (!open_.empty() && open_.back().end < start)
            open_.pop_back();
        for (auto it = open_.rbegin(); it != open_.rend(); ++it)
            if (it->end >= end) return &*it;
        return nullptr;
    }
    void push(OpenEvent e, TimeNs now) {
        if (open_.size() > 4096) // partial overlaps left many ended events inside: drop them
            std::erase_if(open_, [&](const OpenEvent& o) { return o.end < now; });
        open_.push_back(e);
    }

  private:
    std::vector<OpenEvent> open_;
};

} // namespace

void buildHostDepth(TimelineData& d, const Profile& p) {
    d.hostDepth.assign(p.hostEvents.size(), 0);
    OpenStack open;
    for (auto& t : d.tracks) {
        if (t.kind != TrackKind::Host) continue;
        open.clear();
        for (const auto& it : t.items) {
            // An event that ends where the next starts is no parent of it (hence start + 1).
            const OpenEvent* parent = open.enclosing(it.start + 1, it.end);
            const std::size_t depth = std::min<std::size_t>(parent ? parent->depth + 1 : 0, kMaxDepthRows - 1);
            d.hostDepth[it.ref] = static_cast<std::uint8_t>(depth);
            if (t.levels.size() <= depth) t.levels.resize(depth + 1);
            t.levels[depth].items.push_back(it);
            open.push({it.end, it.ref, static_cast<std::uint32_t>(depth)}, it.start);
        }
        for (auto& level : t.levels)
            level.finish();
    }
}

// Flow id → index of its first 's' on a host lane: open addressing in one flat array (at 1 GB of trace a
// million ids; std::unordered_map's nodes and division cost ~0.6 s there, two cache misses a lookup).
class FlowStarts {
  public:
    explicit FlowStarts(std::size_t n) {
        std::size_t cap = 16;
        while (cap < 2 * n + 1)
            cap *= 2;
        slots_.assign(cap, {0, 0});
        mask_ = cap - 1;
    }
    void addFirst(std::uint64_t id, std::uint32_t index) { // keeps the first index given for an id
        for (std::size_t i = slotOf(id);; i = (i + 1) & mask_) {
            Slot& s = slots_[i];
            if (s.indexPlus1 == 0) {
                s = {id, index + 1};
                return;
            }
            if (s.id == id) return;
        }
    }
    std::optional<std::uint32_t> find(std::uint64_t id) const {
        for (std::size_t i = slotOf(id);; i = (i + 1) & mask_) {
            const Slot& s = slots_[i];
            if (s.indexPlus1 == 0) return std::nullopt;
            if (s.id == id) return s.indexPlus1 - 1;
        }
    }

  private:
    struct Slot {
        std::uint64_t id;
        std::uint32_t indexPlus1; // 0: empty
    };
    std::size_t slotOf(std::uint64_t id) const {
        return static_cast<std::size_t>((id * 0x9E3779B97F4A7C15ULL) >> 20) & mask_;
    }
    std::vector<Slot> slots_;
    std::size_t mask_ = 0;
};

void buildFlowLinks(TimelineData& d, const Profile& p) {
    const auto& fl = p.flows;
    FlowStarts startById(fl.size() / 2 + 1);
    for (std::uint32_t i = 0; i < fl.size(); ++i)
        if (fl[i].phase == 's' && fl[i].lane < p.lanes.size() && p.lanes[fl[i].lane].kind == LaneKind::Host)
            startById.addFirst(fl[i].id, i);
    // Flows are sorted by (ts, id): for each 'f' on a device lane, the kernel starting at that instant on
    // the lane's stream (kernels are sorted by (start, stream)). The first kernel at or after the 'f' moves
    // forward with it (searched afresh should a flow come before the previous one).
    const auto byStart = [](const Kernel& k, TimeNs t) { return k.start < t; };
    auto cursor = p.kernels.begin();
    TimeNs lastTs = INT64_MIN;
    for (const auto& f : fl) {
        if (f.phase != 'f' || f.lane >= p.lanes.size() || p.lanes[f.lane].kind != LaneKind::Device) continue;
        const auto s = startById.find(f.id);
        if (!s) continue;
        const auto stream = static_cast<std::int64_t>(p.lanes[f.lane].tid);
        if (f.ts < lastTs) cursor = std::lower_bound(p.kernels.begin(), p.kernels.end(), f.ts, byStart);
        while (cursor != p.kernels.end() && cursor->start < f.ts)
            ++cursor;
        lastTs = f.ts;
        auto k = cursor;
        const auto first = k;
        for (; k != p.kernels.end() && k->start == f.ts; ++k)
            if (k->stream == stream) break;
        // A kernel without a known stream still takes the flow when it is the only one at that instant.
        if (k == p.kernels.end() || k->start != f.ts) {
            k = first;
            if (k == p.kernels.end() || k->start != f.ts || k->stream >= 0 ||
                (k + 1 != p.kernels.end() && (k + 1)->start == f.ts))
                continue;
        }
        const FlowEvent& sf = fl[*s];
        d.flowLinks.push_back({static_cast<std::uint32_t>(k - p.kernels.begin()), FlowLink::kNone, *s,
                               sf.ts, sf.lane});
    }
    std::stable_sort(d.flowLinks.begin(), d.flowLinks.end(),
                     [](const FlowLink& a, const FlowLink& b) { return a.kernel < b.kernel; });
    // The host event of each 's': one sweep per lane over its events (start order) and the queries (ts
    // order); the innermost open event at the query is the top of the stack.
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> queries; // lane → link indices
    for (std::uint32_t i = 0; i < d.flowLinks.size(); ++i)
        queries[d.flowLinks[i].lane].push_back(i);
    OpenStack open;
    for (auto& [lane, q] : queries) {
        const auto t = d.laneTrack.find(lane);
        if (t == d.laneTrack.end()) continue;
        const auto& items = d.tracks[static_cast<std::size_t>(t->second)].items;
        std::sort(q.begin(), q.end(),
                  [&](std::uint32_t a, std::uint32_t b) { return d.flowLinks[a].startTs < d.flowLinks[b].startTs; });
        open.clear();
        std::size_t next = 0;
        for (std::uint32_t li : q) {
            FlowLink& link = d.flowLinks[li];
            for (; next < items.size() && items[next].start <= link.startTs; ++next)
                open.push({items[next].end, items[next].ref, 0}, items[next].start);
            if (const OpenEvent* e = open.enclosing(link.startTs, link.startTs)) link.hostEvent = e->ref;
        }
    }
}

} // namespace bs::ui
