#include "io/trace_json_reader.h"

#include "i18n/message.h"
#include "io/json_value_scanner.h"
#include "io/trace_element_parser.h"

#include <simdjson.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <system_error>
#include <thread>
#include <unistd.h>
#include <unordered_map>

namespace bs {

namespace {

constexpr std::size_t kNpos = kScanIncomplete;
constexpr std::size_t kPad = kElementPadding;
constexpr std::size_t kMaxElementBytes = 512u << 20;

// The parser's reasons (trace_element_parser.inc) as messages; an unknown reason stays as written.
std::string parseErrorText(const char* error) {
    const std::string_view e = error ? error : "";
    if (e == "not valid JSON") return msg("not valid JSON");
    if (e == "not a JSON object") return msg("not a JSON object");
    if (e == "malformed field") return msg("malformed field");
    if (e == "'ph' is not a string") return msg("'ph' is not a string");
    if (e == "malformed args") return msg("malformed args");
    return std::string(e);
}

bool isWs(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

std::uint64_t flowIdOf(std::string_view t) {
    std::uint64_t v = 0;
    bool digits = !t.empty() && t.size() <= 19;
    for (char c : t) {
        if (c < '0' || c > '9') {
            digits = false;
            break;
        }
        v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (digits) return v;
    std::uint64_t h = 1469598103934665603ULL;
    for (char c : t)
        h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    return h | (1ULL << 63);
}

// Copy of [data, data+len) with every byte that is not part of a valid UTF-8 sequence replaced by U+FFFD,
// padded for the element parser (its size() is the text's length + kPad; `textLen` receives the length).
// Names written in another encoding (GBK) are kept that way instead of dropping their events.
std::vector<char> withValidUtf8(const char* data, std::size_t len, std::size_t& textLen) {
    std::vector<char> out;
    out.reserve(len + len / 4 + kPad);
    auto u = [&](std::size_t i) { return static_cast<unsigned char>(data[i]); };
    auto cont = [&](std::size_t i) { return i < len && (u(i) & 0xC0) == 0x80; };
    for (std::size_t i = 0; i < len;) {
        const unsigned char c = u(i);
        std::size_t n = 0;
        if (c < 0x80)
            n = 1;
        else if (c >= 0xC2 && c <= 0xDF && cont(i + 1))
            n = 2;
        else if (c >= 0xE0 && c <= 0xEF && cont(i + 1) && cont(i + 2) && !(c == 0xE0 && u(i + 1) < 0xA0) &&
                 !(c == 0xED && u(i + 1) >= 0xA0))
            n = 3;
        else if (c >= 0xF0 && c <= 0xF4 && cont(i + 1) && cont(i + 2) && cont(i + 3) &&
                 !(c == 0xF0 && u(i + 1) < 0x90) && !(c == 0xF4 && u(i + 1) >= 0x90))
            n = 4;
        if (n) {
            out.insert(out.end(), data + i, data + i + n);
            i += n;
        } else {
            out.insert(out.end(), {'\xEF', '\xBF', '\xBD'});
            ++i;
        }
    }
    textLen = out.size();
    out.resize(textLen + kPad, '\0');
    return out;
}

struct PairHash {
    std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& k) const noexcept {
        return std::hash<std::uint64_t>{}(k.first * 0x9E3779B97F4A7C15ULL ^
                                          (k.second + 0x632BE59BD9B4E019ULL));
    }
};

// Runs a() on a second thread while b() runs on this one (alone, one after the other, when no thread
// can be started).
template <class A, class B> void inParallel(A&& a, B&& b) {
    std::thread other;
    try {
        other = std::thread(a);
    } catch (const std::system_error&) {
        a();
        b();
        return;
    }
    b();
    other.join();
}

// Sorts [first, last), nearly in order, by insertion (linear when each element is a few places from its
// own); past 8 moves per element on average it sorts the rest with std::sort. `less` is a total order, so
// both give the same sequence.
template <class It, class Less> void sortNearlySorted(It first, It last, Less less) {
    std::size_t budget = 8 * static_cast<std::size_t>(last - first) + 64;
    for (It i = first + (first != last); i < last; ++i) {
        if (!less(*i, *(i - 1))) continue;
        const auto x = *i;
        It j = i;
        do {
            *j = *(j - 1);
            --j;
            if (--budget == 0) {
                *j = x; // a permutation again
                std::sort(first, last, less);
                return;
            }
        } while (j > first && less(x, *(j - 1)));
        *j = x;
    }
}

} // namespace

// The trace writes each start just after its op and the finishes in runs of their own, interleaved in
// time with the starts' runs: each run of one phase is nearly in order, so it is sorted by insertion
// and the runs are merged in place, a pair of runs already in order costing one comparison. Copying the
// starts and finishes apart first cost more than the sort saved (13 MB of fresh memory at 200 MB of
// trace). Many short runs (phases alternating) go to std::sort.
void sortFlows(std::vector<FlowEvent>& flows) {
    auto less = [](const FlowEvent& a, const FlowEvent& b) {
        if (a.ts != b.ts) return a.ts < b.ts;
        if (a.id != b.id) return a.id < b.id;
        if (a.phase != b.phase) return a.phase < b.phase;
        if (a.lane != b.lane) return a.lane < b.lane;
        return a.cat < b.cat;
    };
    const std::size_t n = flows.size();
    std::vector<std::size_t> bounds{0};
    for (std::size_t i = 1; i < n; ++i)
        if (flows[i].phase != flows[i - 1].phase) bounds.push_back(i);
    bounds.push_back(n);
    const auto at = [&](std::size_t i) { return flows.begin() + static_cast<std::ptrdiff_t>(i); };
    if (bounds.size() - 1 > n / 16 + 1) {
        std::sort(flows.begin(), flows.end(), less);
        return;
    }
    for (std::size_t k = 0; k + 1 < bounds.size(); ++k)
        sortNearlySorted(at(bounds[k]), at(bounds[k + 1]), less);
    while (bounds.size() > 2) {
        std::vector<std::size_t> merged{0};
        std::size_t k = 0;
        for (; k + 2 < bounds.size(); k += 2) {
            const std::size_t mid = bounds[k + 1];
            if (less(flows[mid], flows[mid - 1])) std::inplace_merge(at(bounds[k]), at(mid), at(bounds[k + 2]), less);
            merged.push_back(bounds[k + 2]);
        }
        if (k + 1 < bounds.size()) merged.push_back(bounds.back()); // an odd run left: carried
        bounds = std::move(merged);
    }
}

namespace {

// Every lane kind and the flows by time. The events' sorts are the same std::sort as ever (not a stable
// sort: that would need a second buffer the size of the data); the flows' order is total, so sortFlows
// gives std::sort's sequence. Split over two threads: host, device and HCCL events beside overlap events
// and flows.
void sortTimeline(Profile& prof) {
    auto byTs = [](const TraceEvent& a, const TraceEvent& b) {
        if (a.ts != b.ts) return a.ts < b.ts;
        if (a.dur != b.dur) return a.dur > b.dur;
        if (a.lane != b.lane) return a.lane < b.lane;
        return a.name < b.name;
    };
    // 200 MB default shape: host 13.5 ms, device 3.7, HCCL 0.3 beside overlap 12.1 and flows 7-14 ms.
    inParallel(
        [&] {
            std::sort(prof.hostEvents.begin(), prof.hostEvents.end(), byTs);
            std::sort(prof.deviceEvents.begin(), prof.deviceEvents.end(), byTs);
            std::sort(prof.hcclEvents.begin(), prof.hcclEvents.end(), byTs);
        },
        [&] {
            std::sort(prof.overlapEvents.begin(), prof.overlapEvents.end(), byTs);
            sortFlows(prof.flows);
        });
}

// A call stack is interned once per distinct text. Bounds (hostile input): a stack longer than
// kMaxStackBytes is cut after its last whole frame within the bound (the innermost frames come first, so
// the frames nearest the op survive); once distinct stacks hold kStackBudgetBytes, new ones are not kept
// (the event still counts as having a stack). Both are counted and reported.
constexpr std::size_t kMaxStackBytes = 16 * 1024;
constexpr std::size_t kStackBudgetBytes = 64u << 20;

// A text of a prepared event: its bytes in its chunk's arena.
struct Text {
    std::uint32_t off = 0, len = 0;
};

// One element of the trace, read as far as that needs nothing shared (stage 1, on a parse thread): the
// numbers parsed, the texts copied out of the parser's buffers. The builder (stage 2, in file order)
// interns the texts, puts the event on its lane and pairs B with E: the same steps, in the same order, as
// when one thread did both (string ids, and so every tie in the sorts, come out the same).
struct PreEvent {
    enum Kind : std::uint8_t { Event, NotObject, Unparsable };
    enum Number : std::uint8_t { Absent, Valid, Invalid };
    std::uint64_t off = 0;       // file offset of the element
    const char* error = nullptr; // Unparsable: the parser's reason
    Kind kind = Event;
    char ph = 0;
    Number ts = Absent, dur = Absent;
    bool hasName = false, hasStack = false, hasShapes = false;
    bool repairedUtf8 = false; // bytes that are not UTF-8 were replaced before parsing
    bool stackCut = false;     // longer than kMaxStackBytes: cut
    bool hasPid = false, pidIsText = false, hasTid = false, tidIsText = false;
    TimeNs tsNs = 0, durNs = 0;
    std::uint64_t pid = 0, tid = 0, flowId = 0;
    std::int64_t sortIndex = 0;
    std::int32_t streamArg = -1;
    bool badStreamArg = false; // a "Stream Id" that is not an integer from 0 to 2^31 - 1
    Text name, cat, taskType, stack, pidText, tidText, argName, argLabels; // arg*: metadata events only
};

// The elements of one chunk, prepared, in file order.
struct Prepared {
    std::vector<PreEvent> events;
    std::string arena;
    std::uint64_t doneTo = 0; // the file is read up to here once these are built (progress)
    bool cancelled = false;   // stage 1 stopped inside the chunk (the caller cancelled)

    Text keep(std::string_view s) {
        Text t{static_cast<std::uint32_t>(arena.size()), static_cast<std::uint32_t>(s.size())};
        arena.append(s);
        return t;
    }
    std::string_view view(Text t) const { return std::string_view(arena.data() + t.off, t.len); }
};

// Stage 1 of one element: pure (no profile, no messages), so that chunks can be prepared side by side.
void prepareEvent(const RawEvent& r, std::uint64_t off, bool repairedUtf8, Prepared& out) {
    PreEvent& p = out.events.emplace_back();
    p.off = off;
    p.repairedUtf8 = repairedUtf8;
    p.ph = r.ph;
    const bool flow = r.ph == 's' || r.ph == 'f' || r.ph == 't';
    p.hasName = r.hasName;
    if (r.hasName && !flow) p.name = out.keep(r.name); // flow names ("HostToDevice<id>") are never used
    if (!r.cat.empty()) p.cat = out.keep(r.cat);
    if (!r.id.empty()) p.flowId = flowIdOf(trimField(r.id));
    if (!r.taskType.empty()) p.taskType = out.keep(r.taskType);
    // Out-of-range values are rejected (by the builder) so that no later sum overflows (core/model/time.h).
    if (!r.ts.empty()) {
        const auto ts = parseMicrosToNs(r.ts);
        p.ts = ts && *ts >= -kMaxAbsoluteNs && *ts <= kMaxAbsoluteNs ? PreEvent::Valid : PreEvent::Invalid;
        p.tsNs = ts.value_or(0);
    }
    if (!r.dur.empty()) {
        const auto dur = parseMicrosToNs(r.dur);
        p.dur = dur && *dur <= kMaxDurationNs ? PreEvent::Valid : PreEvent::Invalid;
        p.durNs = dur.value_or(0);
    }
    // A pid / tid is an integer, or else a name (quoted, or not an integer): the builder maps a name to a
    // stable synthetic id.
    auto idOf = [&](std::string_view raw, bool& has, bool& isText, std::uint64_t& value, Text& text) {
        if (raw.empty()) return;
        has = true;
        while (!raw.empty() && isWs(raw.front()))
            raw.remove_prefix(1);
        while (!raw.empty() && isWs(raw.back()))
            raw.remove_suffix(1);
        if (raw.empty() || raw.front() != '"') {
            if (auto v = parseInt(raw)) {
                value = static_cast<std::uint64_t>(*v);
                return;
            }
        }
        isText = true;
        text = out.keep(trimField(raw));
    };
    idOf(r.pid, p.hasPid, p.pidIsText, p.pid, p.pidText);
    idOf(r.tid, p.hasTid, p.tidIsText, p.tid, p.tidText);
    if (!r.streamId.empty()) {
        if (auto x = parseInt(r.streamId); x && *x >= 0 && *x < (1LL << 31))
            p.streamArg = static_cast<std::int32_t>(*x);
        else
            p.badStreamArg = true;
    }
    p.hasStack = r.hasStack;
    p.hasShapes = r.hasShapes;
    if (!r.stack.empty()) {
        std::string_view text = r.stack;
        if (text.size() > kMaxStackBytes) {
            const std::size_t cut = text.substr(0, kMaxStackBytes).rfind(';');
            text = text.substr(0, cut == std::string_view::npos ? kMaxStackBytes : cut);
            p.stackCut = true;
        }
        p.stack = out.keep(text);
        if (text.empty()) p.stack.len = 0; // cut to nothing: no stack kept
    }
    if (r.ph == 'M') {
        p.argName = out.keep(r.argName);
        p.argLabels = out.keep(r.argLabels);
        if (!r.sortIndex.empty()) p.sortIndex = parseInt(r.sortIndex).value_or(0);
    }
}

class TraceBuilder {
  public:
    TraceBuilder(Profile& p, FindingSink& s, std::string path) : prof_(p), sink_(s), path_(std::move(path)) {}

    // Stage 2 of one element: false when it is not a valid event (reported here).
    bool build(const PreEvent& p, const Prepared& chunk);
    void finish();
    void reserve(std::size_t events) {
        events_.reserve(events);
        prof_.flows.reserve(prof_.flows.size() + events / 2);
    }

    std::size_t counters = 0, metadata = 0, ignored = 0, unmatchedEnd = 0, invalidUtf8 = 0;
    std::size_t stacksCut = 0, stacksDropped = 0;
    std::size_t badStreams = 0; // events whose "Stream Id" is out of range: placed by their thread id
    std::uint64_t badStreamExample = 0;

  private:
    StrId stackOf(std::string_view text);
    std::uint64_t idOf(bool isText, std::uint64_t value, std::string_view text) {
        return isText ? (1ULL << 63) | prof_.strings.intern(text) : value;
    }
    std::uint32_t laneOf(std::uint64_t pid, std::uint64_t tid) {
        auto key = std::make_pair(pid, tid);
        if (haveLast_ && key == lastLaneKey_) return lastLane_; // events come in runs of one lane
        auto it = laneIndex_.find(key);
        std::uint32_t idx;
        if (it != laneIndex_.end()) {
            idx = it->second;
        } else {
            idx = static_cast<std::uint32_t>(prof_.lanes.size());
            prof_.lanes.push_back({pid, tid, LaneKind::Host});
            laneIndex_.emplace(key, idx);
        }
        haveLast_ = true;
        lastLaneKey_ = key;
        lastLane_ = idx;
        return idx;
    }
    void bad(std::uint64_t offset, const std::string& what) {
        sink_.add({"trace_bad_event", Severity::Warning, path_, -1, static_cast<long long>(offset),
                   msg("Event at byte {} was skipped: {}.", offset, what),
                   msg("That one event is missing from the timeline; the rest of the file is read."),
                   msg("Re-run the profiler's offline analysis to rewrite the file."), ""});
    }

    Profile& prof_;
    FindingSink& sink_;
    std::string path_;
    std::unordered_map<std::pair<std::uint64_t, std::uint64_t>, std::uint32_t, PairHash> laneIndex_;
    std::pair<std::uint64_t, std::uint64_t> lastLaneKey_{};
    std::uint32_t lastLane_ = 0;
    bool haveLast_ = false;
    std::vector<TraceEvent> events_;
    std::size_t stackBytes_ = 0;
    std::unordered_map<std::uint32_t, std::vector<TraceEvent>> open_;
};

StrId TraceBuilder::stackOf(std::string_view text) {
    StrId id = 0;
    if (prof_.strings.find(text, id)) return id;
    if (stackBytes_ + text.size() > kStackBudgetBytes) {
        ++stacksDropped;
        return 0;
    }
    stackBytes_ += text.size();
    return prof_.strings.intern(text);
}

bool TraceBuilder::build(const PreEvent& p, const Prepared& chunk) {
    const std::uint64_t off = p.off;
    if (p.repairedUtf8) ++invalidUtf8;
    if (p.kind == PreEvent::NotObject) {
        sink_.add({"trace_bad_event", Severity::Warning, path_, -1, static_cast<long long>(off),
                   msg("Array element at byte {} is not an event object; skipped.", off), msg("None beyond this element."),
                   msg("Re-run the profiler's offline analysis."), ""});
        return false;
    }
    if (p.kind == PreEvent::Unparsable) return bad(off, parseErrorText(p.error)), false;
    const char ph = p.ph;
    const bool flow = ph == 's' || ph == 'f' || ph == 't';
    const StrId name = p.hasName && !flow ? prof_.strings.intern(chunk.view(p.name)) : 0;
    const StrId cat = p.cat.len == 0 ? 0 : prof_.strings.intern(chunk.view(p.cat));
    const std::uint64_t flowId = p.flowId;
    const StrId taskType = p.taskType.len == 0 ? 0 : prof_.strings.intern(chunk.view(p.taskType));
    if (p.ts == PreEvent::Invalid) return bad(off, msg("'ts' is not a plausible decimal timestamp (us)")), false;
    if (p.dur == PreEvent::Invalid) return bad(off, msg("'dur' is not a plausible decimal duration (us)")), false;
    const std::uint64_t pid = p.hasPid ? idOf(p.pidIsText, p.pid, chunk.view(p.pidText)) : 0;
    const std::uint64_t tid = p.hasTid ? idOf(p.tidIsText, p.tid, chunk.view(p.tidText)) : 0;
    std::uint16_t flags = 0;
    if (p.hasStack) flags |= EvHasStack;
    if (p.hasShapes) flags |= EvHasShapes;
    if (p.stackCut) ++stacksCut;
    if (p.badStreamArg && ++badStreams == 1) badStreamExample = off;
    const StrId stack = p.stack.len == 0 ? 0 : stackOf(chunk.view(p.stack));
    switch (ph) {
    case 'X':
    case 'B':
    case 'E':
    case 'i':
    case 'I': {
        if (p.ts == PreEvent::Absent) return bad(off, msg("event has no 'ts'")), false;
        TraceEvent e;
        e.ts = p.tsNs;
        e.lane = laneOf(pid, tid);
        e.name = name;
        e.cat = cat;
        e.taskType = taskType;
        e.streamArg = p.streamArg;
        e.flags = flags;
        e.stack = stack;
        if (ph == 'X') {
            e.dur = p.dur == PreEvent::Valid ? p.durNs : 0;
            if (e.dur < 0) return bad(off, msg("negative 'dur'")), false;
            events_.push_back(e);
        } else if (ph == 'B') {
            open_[e.lane].push_back(e);
        } else if (ph == 'E') {
            auto it = open_.find(e.lane);
            if (it == open_.end() || it->second.empty()) {
                ++unmatchedEnd;
                return true;
            }
            TraceEvent b = it->second.back();
            it->second.pop_back();
            // Both ends are bounded (kMaxAbsoluteNs), so the difference cannot overflow; the span itself
            // gets the same bound as an 'X' event's 'dur'.
            if (e.ts - b.ts > kMaxDurationNs)
                return bad(off, msg("'E' ends more than {} s after its 'B'; the pair is not plausible",
                                    kMaxDurationNs / 1000000000)),
                       false;
            b.dur = std::max<TimeNs>(0, e.ts - b.ts);
            b.flags |= EvFromBeginEnd;
            events_.push_back(b);
        } else {
            e.dur = 0;
            e.flags |= EvInstant;
            events_.push_back(e);
        }
        return true;
    }
    case 'C':
        ++counters;
        return true;
    case 's':
    case 'f': {
        if (p.ts == PreEvent::Absent) return bad(off, msg("flow event has no 'ts'")), false;
        FlowEvent fl;
        fl.ts = p.tsNs;
        fl.id = flowId;
        fl.cat = cat;
        fl.lane = laneOf(pid, tid);
        fl.phase = ph;
        prof_.flows.push_back(fl);
        return true;
    }
    case 'M': {
        ++metadata;
        std::string_view n = prof_.strings.view(name);
        if (n == "process_name")
            prof_.processes[pid].name = chunk.view(p.argName);
        else if (n == "process_labels")
            prof_.processes[pid].labels = chunk.view(p.argLabels);
        else if (n == "process_sort_index")
            prof_.processes[pid].sortIndex = p.sortIndex;
        else if (n == "thread_name")
            prof_.threads[{pid, tid}].name = chunk.view(p.argName);
        else if (n == "thread_sort_index")
            prof_.threads[{pid, tid}].sortIndex = p.sortIndex;
        return true;
    }
    case 0:
        return bad(off, msg("event has no 'ph'")), false;
    default:
        ++ignored;
        return true;
    }
}

void TraceBuilder::finish() {
    std::size_t unclosed = 0;
    for (auto& [lane, stack] : open_) {
        for (auto& b : stack) {
            // An unclosed B (cut capture) is kept as an instant so it still shows; counted below.
            b.dur = 0;
            b.flags |= EvFromBeginEnd;
            events_.push_back(b);
            ++unclosed;
        }
    }
    if (unclosed || unmatchedEnd) {
        sink_.add(
            {"trace_unbalanced_begin_end", Severity::Warning, path_, -1, -1,
             msg("{} 'B' event(s) without a matching 'E' and {} 'E' event(s) without a 'B'.", unclosed,
                 unmatchedEnd),
             msg("Unclosed ranges are shown as zero-length markers; unmatched ends are ignored."),
             msg("Usually a capture stopped mid-range; see collection-problems.md, \"Truncated timeline\"."),
             "collection-problems.md#truncated-timeline"});
    }
    if (badStreams) {
        sink_.add({"trace_bad_stream_id", Severity::Warning, path_, -1, static_cast<std::int64_t>(badStreamExample),
                   msg("{} event(s) have a 'Stream Id' that is not an integer from 0 to 2147483647 (the first at "
                       "byte {}).",
                       badStreams, badStreamExample),
                   msg("Those events are placed on the lane of their thread id instead of a stream lane."),
                   msg("The file was edited or written by an unknown profiler version: export it again with the "
                       "profiler."),
                   ""});
    }
    if (stacksCut || stacksDropped) {
        sink_.add(
            {"trace_stacks_bounded", Severity::Info, path_, -1, -1,
             msg("{} call stack(s) longer than {} KiB were cut after their last whole frame within that "
                 "length; {} distinct stack(s) beyond {} MiB of stack text were not kept.",
                 stacksCut, kMaxStackBytes / 1024, stacksDropped, kStackBudgetBytes >> 20),
             msg("Stack evidence uses the frames kept (the innermost come first); events whose stack was not "
                 "kept count as having no stack."),
             "", ""});
    }
    if (invalidUtf8) {
        sink_.add(
            {"trace_invalid_utf8", Severity::Warning, path_, -1, -1,
             msg("{} event(s) hold text that is not valid UTF-8 (names written in another encoding, such "
                 "as GBK).",
                 invalidUtf8),
             msg("The events are kept; the bytes that are not UTF-8 are shown as \xEF\xBF\xBD (U+FFFD), so "
                 "those names read differently from the kernel table's."),
             msg("Run the training script with a UTF-8 locale (LANG=C.UTF-8 or zh_CN.UTF-8) so that names "
                 "are "
                 "written as UTF-8."),
             ""});
    }
    // Lane kinds from process names / labels. A lane whose process was never named (metadata lost in a
    // cut file) is a device lane when its events carry a "Task Type" (only device tasks do).
    std::vector<char> laneHasTaskType(prof_.lanes.size(), 0);
    for (const auto& e : events_)
        if (e.taskType) laneHasTaskType[e.lane] = 1;
    std::size_t unnamedDeviceLanes = 0;
    for (std::size_t li = 0; li < prof_.lanes.size(); ++li) {
        auto& lane = prof_.lanes[li];
        auto it = prof_.processes.find(lane.pid);
        std::string_view pname =
            it != prof_.processes.end() ? std::string_view(it->second.name) : std::string_view{};
        std::string_view labels =
            it != prof_.processes.end() ? std::string_view(it->second.labels) : std::string_view{};
        if (pname == "Ascend Hardware")
            lane.kind = LaneKind::Device;
        else if (pname == "HCCL")
            lane.kind = LaneKind::Hccl;
        else if (pname == "Overlap Analysis")
            lane.kind = LaneKind::Overlap;
        else if (labels.rfind("NPU", 0) == 0)
            lane.kind = LaneKind::OtherDevice;
        else if (pname.empty() && laneHasTaskType[li]) {
            lane.kind = LaneKind::Device;
            ++unnamedDeviceLanes;
        } else
            lane.kind = LaneKind::Host;
    }
    if (unnamedDeviceLanes) {
        sink_.add(
            {"trace_lanes_unnamed", Severity::Warning, path_, -1, -1,
             msg("{} lane(s) carry device tasks but their process is not named (no process_name metadata).",
                 unnamedDeviceLanes),
             msg("They are taken as device streams because their events have a Task Type; HCCL and Overlap "
                 "Analysis lanes without names cannot be told from host threads."),
             msg("The file is probably cut before its metadata (see collection-problems.md, \"Truncated "
                 "timeline\"); re-run the profiler's analysis."),
             "collection-problems.md#truncated-timeline"});
    }
    // Split by lane kind without a second full copy: device, HCCL and overlap events are copied out and
    // host events (usually the largest part) are moved up in place, each in file order. The file's order
    // is nearly the time order, which the sorts below then find cheaply (a partition scrambled it).
    std::size_t device = 0, hccl = 0, overlap = 0; // counted first: the vectors never reallocate
    for (const auto& e : events_) {
        const LaneKind kind = prof_.lanes[e.lane].kind;
        device += kind == LaneKind::Device;
        hccl += kind == LaneKind::Hccl;
        overlap += kind == LaneKind::Overlap;
    }
    prof_.deviceEvents.reserve(prof_.deviceEvents.size() + device);
    prof_.hcclEvents.reserve(prof_.hcclEvents.size() + hccl);
    prof_.overlapEvents.reserve(prof_.overlapEvents.size() + overlap);
    auto hostEnd = events_.begin();
    for (auto it = events_.begin(); it != events_.end(); ++it) {
        switch (prof_.lanes[it->lane].kind) {
        case LaneKind::Host:
            *hostEnd++ = *it;
            break;
        case LaneKind::Device:
            prof_.deviceEvents.push_back(*it);
            break;
        case LaneKind::Hccl:
            prof_.hcclEvents.push_back(*it);
            break;
        case LaneKind::Overlap:
            prof_.overlapEvents.push_back(*it);
            break;
        default:
            break;
        }
    }
    events_.erase(hostEnd, events_.end());
    if (prof_.hostEvents.empty()) {
        prof_.hostEvents = std::move(events_);
    } else {
        prof_.hostEvents.insert(prof_.hostEvents.end(), events_.begin(), events_.end());
        events_.clear();
    }
    sortTimeline(prof_);
}

// One buffer of the trace cut into complete elements, ready to be parsed.
struct Chunk {
    std::vector<char> buf;                                  // text, then kPad zero bytes
    std::uint64_t base = 0;                                 // file offset of buf[0]
    std::vector<std::pair<std::size_t, std::size_t>> elems; // complete elements; commas between them blanked
    bool utf8 = true;                                       // the run of elements is valid UTF-8
    std::uint64_t doneTo = 0; // the file is read up to here once this chunk is parsed (progress)
};

// Reads the file chunk by chunk and cuts each into its complete top-level elements: the prefix ('[' or
// the object holding "traceEvents"), the element scan, the UTF-8 check, the carried tail, a buffer grown
// for an element larger than the chunk. What it reports (the file is no trace, cut, an event too large)
// comes after every event before it, so it is kept in its own sink and appended last.
class ChunkReader {
  public:
    ChunkReader(std::FILE* f, std::size_t chunk, const std::string& path, std::uint64_t fileBytes)
        : f_(f), chunk_(chunk), cap_(chunk), path_(path), fileBytes_(fileBytes) {}

    // The next chunk (its elements may be none); false when the file holds no more.
    bool next(Chunk& c);

    FindingSink sink;
    bool truncated = false;
    std::uint64_t cutOffset = 0;
    bool pastPrefix() const { return phase_ != Phase::Prefix; }

  private:
    enum class Phase { Prefix, Keys, Array, Done };
    std::FILE* f_;
    std::size_t chunk_; // text bytes per chunk as configured
    std::size_t cap_;   // text bytes per chunk now: grown while an element larger than a chunk is read
    const std::string& path_;
    std::uint64_t fileBytes_;
    std::vector<char> carry_; // the incomplete tail of the previous chunk
    std::uint64_t base_ = 0;  // file offset of carry_[0]
    bool eof_ = false, finished_ = false;
    Phase phase_ = Phase::Prefix;
};

bool ChunkReader::next(Chunk& c) {
    if (finished_) return false;
    c.elems.clear();
    c.utf8 = true;
    c.base = base_;
    // Once an element larger than a chunk has been passed on, chunks are their configured size again, and
    // a buffer grown for it is given back: with several chunks in flight, keeping them all at the size of
    // the largest element multiplied it (one 100 MB event then 150 MB of small ones: 1.2 GB peak).
    if (cap_ > chunk_ && carry_.size() < chunk_) cap_ = chunk_;
    if (c.buf.capacity() > 2 * (cap_ + kPad)) std::vector<char>().swap(c.buf);
    c.buf.resize(cap_ + kPad);
    std::size_t len = carry_.size();
    if (len) std::memcpy(c.buf.data(), carry_.data(), len);
    while (!eof_ && len < cap_) {
        const std::size_t n = std::fread(c.buf.data() + len, 1, cap_ - len, f_);
        if (n == 0) eof_ = true;
        len += n;
    }
    std::memset(c.buf.data() + len, 0, kPad);
    char* buf = c.buf.data();
    const char* b = buf;
    const std::uint64_t base = base_;
    const std::string& path = path_;
    bool failed = false;
    std::size_t p = 0;
    std::size_t consumed = 0;
    if (phase_ == Phase::Prefix) {
        if (base == 0 && len >= 3 && static_cast<unsigned char>(b[0]) == 0xEF) p = 3; // BOM
        while (p < len && isWs(b[p]))
            ++p;
        if (p < len && b[p] == '[') {
            phase_ = Phase::Array;
            ++p;
        } else if (p < len && b[p] == '{') {
            phase_ = Phase::Keys;
            ++p;
        } else if (p < len || eof_) {
            sink.add({"trace_not_chrome_format", Severity::Error, path, -1, static_cast<long long>(base + p),
                      len == 0 ? msg("The file is empty.")
                               : msg("The file does not start with '[' or '{{' (Chrome trace format expected)."),
                      msg("No trace events are read from it."),
                      msg("The collection probably failed before writing the timeline; see "
                          "collection-problems.md, "
                          "\"Only the timeline, no CSV\" and \"Truncated timeline\"."),
                      "collection-problems.md#only-the-timeline-no-csv"});
            finished_ = true;
            return false;
        }
        consumed = p;
    }
    if (phase_ == Phase::Keys) {
        // The members of the top-level object one by one, each value skipped whole: a "traceEvents"
        // key nested in another member (otherData…) or inside a string is never taken for the array.
        std::size_t member = p;
        while (true) {
            std::size_t q = member;
            while (q < len && (isWs(b[q]) || b[q] == ','))
                ++q;
            if (q >= len) break;
            if (b[q] == '}' || b[q] != '"') {
                sink.add({"trace_not_chrome_format", Severity::Error, path, -1, static_cast<long long>(base + q),
                          b[q] == '}' ? msg("The file is a JSON object without a top-level "
                                            "\"traceEvents\" array.")
                                      : msg("A key (a string) was expected at byte {} of the top-level object.",
                                            base + q),
                          msg("No trace events are read from it."),
                          msg("Point BubbleScope at the profiler's trace_view.json / msprof_*.json."), ""});
                failed = true;
                break;
            }
            const std::size_t keyEnd = scanJsonValue(b, q, len);
            if (keyEnd == kNpos) break;
            const std::string_view key(b + q + 1, keyEnd - q - 2);
            std::size_t v = keyEnd;
            while (v < len && isWs(b[v]))
                ++v;
            if (v < len && b[v] == ':') ++v;
            while (v < len && isWs(b[v]))
                ++v;
            if (v >= len) break;
            if (key == "traceEvents") {
                if (b[v] == '[') {
                    phase_ = Phase::Array;
                    member = v + 1;
                } else {
                    sink.add({"trace_not_chrome_format", Severity::Error, path, -1, static_cast<long long>(base + v),
                              msg("\"traceEvents\" is not an array."), msg("No trace events are read from it."),
                              msg("Point BubbleScope at the profiler's trace_view.json / msprof_*.json."), ""});
                    failed = true;
                }
                break;
            }
            const std::size_t valueEnd = scanJsonValue(b, v, len);
            if (valueEnd == kNpos) break; // carried whole to the next buffer (which grows if needed)
            member = valueEnd;
        }
        if (failed) {
            finished_ = true;
            return false;
        }
        p = member;
        consumed = p;
    }
    if (phase_ == Phase::Array) {
        // Collect the complete elements of this buffer, blanking the commas between them so that the
        // run can be parsed as a stream of whitespace-separated documents.
        while (true) {
            std::size_t q = p;
            while (q < len && (isWs(b[q]) || b[q] == ',')) {
                if (b[q] == ',') buf[q] = ' ';
                ++q;
            }
            p = q;
            if (p >= len) break;
            if (b[p] == ']') {
                phase_ = Phase::Done;
                break;
            }
            std::size_t end = scanJsonValue(b, p, len);
            if (end == kNpos) break; // incomplete: carried to the next buffer
            // A stray '}' ends a scalar before its first byte: it is an element by itself (not an event
            // object, reported as such), so that the cut always moves on.
            if (end == p) end = p + 1;
            c.elems.emplace_back(p, end);
            p = end;
        }
        c.utf8 = c.elems.empty() || simdjson::validate_utf8(b + c.elems.front().first,
                                                             c.elems.back().second - c.elems.front().first);
        // Done: past the ']'. Otherwise p is at the incomplete element (or the end): carry from there.
        consumed = phase_ == Phase::Done ? p + 1 : p;
    }
    c.doneTo = base + consumed;
    if (phase_ == Phase::Done) {
        finished_ = true;
        return true;
    }
    if (eof_) {
        finished_ = true;
        if (phase_ == Phase::Keys) {
            sink.add({"trace_not_chrome_format", Severity::Error, path, -1, static_cast<long long>(base + consumed),
                      msg("The file ends (byte {}) before a top-level \"traceEvents\" array.", fileBytes_),
                      msg("No trace events are read from it."),
                      msg("The file is cut or is not a trace: re-run the profiler's offline analysis."),
                      "collection-problems.md#truncated-timeline"});
            return true;
        }
        if (phase_ == Phase::Array) {
            truncated = true;
            cutOffset = base + consumed;
        }
        return true;
    }
    // Carry the incomplete tail to the next chunk.
    carry_.assign(buf + consumed, buf + len);
    base_ = base + consumed;
    if (carry_.size() == cap_) {
        if (cap_ + kPad > kMaxElementBytes) {
            sink.add({"trace_event_too_large", Severity::Error, path, -1, static_cast<long long>(base_),
                      msg("One event at byte {} is larger than 512 MB.", base_),
                      msg("Reading stops here; events before it are kept."), msg("The file is probably corrupt."),
                      ""});
            truncated = true;
            cutOffset = base_;
            finished_ = true;
            return true;
        }
        cap_ *= 2;
    }
    return true;
}

// Stage 1 of a chunk: its elements parsed into PreEvents, in batches over runs of objects, one at a time
// where a batch cannot go. A batch restart costs its length, so batches start small after a stop and
// double while they succeed: the work stays linear however many elements are bad (numbers, broken
// objects). Each parse thread has its own.
class ChunkParser {
  public:
    void parse(const Chunk& c, Prepared& out, const LoadControl& control);

  private:
    void single(const char* data, std::size_t len, std::uint64_t off, bool repaired, Prepared& out) {
        RawEvent r;
        const char* error = nullptr;
        if (parser_->parse(data, len, r, error)) return prepareEvent(r, off, repaired, out);
        PreEvent& p = out.events.emplace_back();
        p.kind = PreEvent::Unparsable;
        p.off = off;
        p.error = error;
        p.repairedUtf8 = repaired;
    }

    static constexpr std::size_t kMinBatch = 64;
    std::unique_ptr<ElementParser> parser_ = makeElementParser();
    std::size_t budget_ = kMinBatch; // kept from chunk to chunk: a clean file is parsed in whole chunks
};

void ChunkParser::parse(const Chunk& c, Prepared& out, const LoadControl& control) {
    out.events.clear();
    out.arena.clear();
    if (out.arena.capacity() > 4 * c.buf.size()) std::string().swap(out.arena); // grown for a large element
    out.doneTo = c.doneTo;
    out.cancelled = false;
    const char* b = c.buf.data();
    const std::uint64_t base = c.base;
    const auto& elems = c.elems;
    const bool bufferUtf8 = c.utf8;
    out.events.reserve(elems.size());
    auto batchable = [&](std::size_t k) {
        const auto [s0, e0] = elems[k];
        return b[s0] == '{' && (bufferUtf8 || simdjson::validate_utf8(b + s0, e0 - s0));
    };
    auto one = [&](std::size_t k) {
        const auto [s0, e0] = elems[k];
        if (b[s0] != '{') {
            PreEvent& p = out.events.emplace_back();
            p.kind = PreEvent::NotObject;
            p.off = base + s0;
        } else if (!bufferUtf8 && !simdjson::validate_utf8(b + s0, e0 - s0)) {
            std::size_t n = 0;
            const std::vector<char> fixed = withValidUtf8(b + s0, e0 - s0, n);
            single(fixed.data(), n, base + s0, true, out);
        } else {
            single(b + s0, e0 - s0, base + s0, false, out);
        }
    };
    std::size_t i = 0;
    while (i < elems.size() && !out.cancelled) {
        if (!batchable(i)) {
            one(i++);
            continue;
        }
        std::size_t j = i + 1;
        while (j < elems.size() && j - i < budget_ && batchable(j))
            ++j;
        const std::size_t from = elems[i].first;
        std::size_t maxDoc = 0;
        for (std::size_t k = i; k < j; ++k)
            maxDoc = std::max(maxDoc, elems[k].second - elems[k].first);
        std::size_t k = i;
        bool stop = false;
        parser_->parseBatch(b + from, elems[j - 1].second - from, maxDoc, [&](std::size_t off, RawEvent& r) {
            // Documents arrive in order; anything else means the batch and our scan disagree.
            if (stop || k >= j || elems[k].first - from != off) {
                stop = true;
                return;
            }
            ++k;
            prepareEvent(r, base + from + off, false, out);
        });
        i = k;
        if (i < j) {
            one(i++); // where the batch stopped
            budget_ = kMinBatch;
        } else {
            budget_ = std::min<std::size_t>(budget_ * 2, std::size_t(1) << 20);
        }
        if (control.cancelled()) out.cancelled = true;
    }
}

// The trace in three stages: reader.next() on one thread a few chunks ahead, parse(thread, chunk,
// prepared) on `parsers` threads side by side, and build(prepared) on this one, in file order (each
// stage one after the other here when no thread can be started). build returns false to stop early; an
// exception in any stage stops them all and reaches the caller. Memory is bounded by the chunks and
// prepared chunks in flight, two per parse thread and two more.
template <class Parse, class Build>
void readPipelined(ChunkReader& reader, std::size_t parsers, Parse&& parse, Build&& build) {
    const std::size_t depth = 2 * parsers + 2;
    std::mutex m;
    // Each side waits on its own condition, so that a chunk passed on wakes only the thread it is for.
    std::condition_variable chunkFree, work, built; // reader, parse threads, this thread
    std::deque<std::pair<std::uint64_t, Chunk>> read; // in file order, waiting for a parse thread
    std::vector<Chunk> spareChunks(depth);
    std::unordered_map<std::uint64_t, Prepared> ready; // by chunk number, waiting to be built
    std::vector<Prepared> sparePrepared(depth);
    std::uint64_t chunksRead = 0, nextBuilt = 0;
    bool end = false, stop = false;
    std::exception_ptr error;
    auto fail = [&] {
        std::lock_guard<std::mutex> l(m);
        if (!error) error = std::current_exception();
        stop = true;
        chunkFree.notify_all();
        work.notify_all();
        built.notify_all();
    };
    auto halt = [&](std::vector<std::thread>& threads) {
        {
            std::lock_guard<std::mutex> l(m);
            stop = true;
        }
        chunkFree.notify_all();
        work.notify_all();
        built.notify_all();
        for (auto& t : threads)
            t.join();
        threads.clear();
    };
    std::vector<std::thread> threads;
    threads.reserve(parsers + 1); // no reallocation once a thread runs
    try {
        for (std::size_t w = 0; w < parsers; ++w)
            threads.emplace_back([&, w] {
                try {
                    for (;;) {
                        std::pair<std::uint64_t, Chunk> job;
                        Prepared out;
                        {
                            std::unique_lock<std::mutex> l(m);
                            work.wait(l, [&] {
                                return stop || (end && read.empty()) || (!read.empty() && !sparePrepared.empty());
                            });
                            if (stop || read.empty()) return;
                            job = std::move(read.front());
                            read.pop_front();
                            out = std::move(sparePrepared.back());
                            sparePrepared.pop_back();
                        }
                        parse(w, job.second, out);
                        std::lock_guard<std::mutex> l(m);
                        spareChunks.push_back(std::move(job.second));
                        ready.emplace(job.first, std::move(out));
                        chunkFree.notify_one();
                        built.notify_one();
                    }
                } catch (...) {
                    fail();
                }
            });
        threads.emplace_back([&] {
            try {
                for (;;) {
                    Chunk c;
                    {
                        std::unique_lock<std::mutex> l(m);
                        chunkFree.wait(l, [&] { return stop || !spareChunks.empty(); });
                        if (stop) return;
                        c = std::move(spareChunks.back());
                        spareChunks.pop_back();
                    }
                    const bool more = reader.next(c);
                    std::lock_guard<std::mutex> l(m);
                    if (more) {
                        read.emplace_back(chunksRead++, std::move(c));
                        work.notify_one();
                    } else {
                        end = true;
                        work.notify_all();
                        built.notify_one();
                        return;
                    }
                }
            } catch (...) {
                fail();
            }
        });
    } catch (const std::system_error&) {
        halt(threads); // nothing was read yet: the reader only starts with the last thread
        Chunk c;
        Prepared out;
        while (reader.next(c)) {
            parse(0, c, out);
            if (!build(out)) break;
        }
        return;
    } catch (...) { // out of memory while starting a thread: stop those started before leaving
        halt(threads);
        throw;
    }
    try {
        for (;;) {
            Prepared p;
            {
                std::unique_lock<std::mutex> l(m);
                built.wait(l, [&] { return stop || ready.count(nextBuilt) || (end && nextBuilt == chunksRead); });
                if (stop) break;
                auto it = ready.find(nextBuilt);
                if (it == ready.end()) break; // every chunk read is built
                p = std::move(it->second);
                ready.erase(it);
            }
            ++nextBuilt;
            const bool go = build(p);
            {
                std::lock_guard<std::mutex> l(m);
                sparePrepared.push_back(std::move(p));
            }
            work.notify_one();
            if (!go) break;
        }
    } catch (...) {
        halt(threads);
        throw;
    }
    halt(threads);
    if (error) std::rethrow_exception(error);
}

} // namespace

TraceReadResult readTraceJson(const std::string& path, Profile& profile, FindingSink& sink,
                              const LoadControl& control, const TraceReadOptions& options) {
    TraceReadResult res;
    // Open first, then look at what was opened: a path checked before opening can be swapped for a FIFO
    // in between. O_NONBLOCK keeps open() from waiting for a FIFO's writer.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st {};
    if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        const std::string why = fd < 0 ? msg("cannot open {}: {}", path, std::strerror(errno))
                                       : msg("{} is not a regular file (a FIFO, device or folder)", path);
        if (fd >= 0) ::close(fd);
        sink.add({"file_unreadable", Severity::Error, path, -1, -1, why,
                  msg("No trace events (host activity, flows, device lanes) are available."),
                  msg("Point BubbleScope at the profiler's own output files; check the file's permissions."),
                  ""});
        return res;
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    std::FILE* f = ::fdopen(fd, "rb");
    if (!f) {
        ::close(fd);
        sink.add({"file_unreadable", Severity::Error, path, -1, -1,
                  msg("cannot open {}: {}", path, std::strerror(errno)),
                  msg("No trace events (host activity, flows, device lanes) are available."),
                  msg("Check the file's permissions."), ""});
        return res;
    }
    res.fileBytes = static_cast<std::uint64_t>(st.st_size);
    // Closed however this function is left (an exception from the reading included).
    struct Close {
        void operator()(std::FILE* file) const { std::fclose(file); }
    };
    std::unique_ptr<std::FILE, Close> closeFile(f);

    TraceBuilder builder(profile, sink, path);
    // Reserve address space for the expected event count (~170+ bytes of JSON per event). Untouched
    // pages cost no memory; growing by reallocation would hold two copies at once.
    builder.reserve(static_cast<std::size_t>(res.fileBytes / 120) + 1024);
    const std::size_t chunk = std::max<std::size_t>(options.chunkBytes, 4096);
    ChunkReader reader(f, chunk, path, res.fileBytes);
    // Parsing is most of the work (measured: the parse thread was busy all the time while the reader and
    // the builder were busy a quarter of it each): two parse threads, three on more than two cores.
    std::size_t parsers = options.parseThreads;
    if (parsers == 0) parsers = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 2, 3);
    std::vector<ChunkParser> chunkParsers(parsers);
    readPipelined(
        reader, parsers, [&](std::size_t w, const Chunk& c, Prepared& out) { chunkParsers[w].parse(c, out, control); },
        [&](const Prepared& p) {
            for (const PreEvent& e : p.events)
                ++(builder.build(e, p) ? res.elements : res.badElements);
            if (p.cancelled) res.cancelled = true;
            control.report("trace", p.doneTo, res.fileBytes);
            if (!res.cancelled && control.cancelled()) res.cancelled = true;
            return !res.cancelled;
        });
    for (auto& finding : reader.sink.take())
        sink.add(std::move(finding));
    if (reader.truncated) {
        res.truncated = true;
        res.cutOffset = reader.cutOffset;
    }
    closeFile.reset();
    if (res.cancelled) return res; // the caller drops the profile: no need to sort what was read
    builder.finish();
    res.ok = res.elements > 0 || reader.pastPrefix();
    profile.inventory.traceEventCount += res.elements;
    profile.inventory.counterEventCount += builder.counters;
    profile.inventory.metadataEventCount += builder.metadata;
    if (res.truncated) {
        profile.inventory.traceTruncated = true;
        profile.inventory.truncatedAtByte = res.cutOffset;
        sink.add({"trace_truncated", Severity::Error, path, -1, static_cast<long long>(res.cutOffset),
                  res.cutOffset < res.fileBytes
                      ? msg("The trace is cut: the file ends at byte {} inside an event that starts at byte "
                            "{}. The {} "
                            "complete events before byte {} were kept.",
                            res.fileBytes, res.cutOffset, res.elements, res.cutOffset)
                      : msg("The trace is cut: the file ends at byte {} without the closing ']'. The {} "
                            "complete events "
                            "before byte {} were kept.",
                            res.fileBytes, res.elements, res.cutOffset),
                  msg("Everything after the cut is missing: the last step may be incomplete and bubbles near "
                      "the end "
                      "of the capture are not trustworthy."),
                  msg("The profiler was stopped while still recording (\"Incorrect schedule\" warning): call "
                      "prof.step() at least skip_first + warmup + active + 1 times, or once more after the "
                      "loop (see "
                      "collection-problems.md, \"Truncated timeline\")."),
                  "collection-problems.md#truncated-timeline"});
    }
    return res;
}

} // namespace bs
