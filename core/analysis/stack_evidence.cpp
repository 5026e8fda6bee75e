#include "analysis/stack_evidence.h"

#include "analysis/intervals.h"
#include "i18n/message.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace bs {

namespace {

constexpr std::size_t kTopLines = 5;
constexpr std::size_t kMaxLabel = 160; // a frame or op name in a path (hostile input: bounded)

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

std::string bounded(std::string_view s) {
    if (s.size() <= kMaxLabel) return std::string(s);
    std::size_t n = kMaxLabel;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) // do not cut a UTF-8 sequence
        --n;
    return std::string(s.substr(0, n)) + "…";
}

StackFrame parseFrame(std::string_view text) {
    StackFrame f;
    f.text = text;
    f.function = text;
    const std::size_t close = text.find("): ");
    if (close != std::string_view::npos) {
        const std::size_t open = text.rfind('(', close);
        if (open != std::string_view::npos && open + 1 < close) {
            const std::string_view digits = text.substr(open + 1, close - open - 1);
            if (digits.size() <= 9 &&
                std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
                f.file = text.substr(0, open);
                f.line = std::stol(std::string(digits));
                f.function = text.substr(close + 3);
            }
        }
    }
    f.user = !isLibraryFile(f.file);
    return f;
}

bool hasComponent(std::string_view path, std::string_view name) {
    for (std::size_t pos = 0; pos <= path.size();) {
        std::size_t next = path.find_first_of("/\\", pos);
        if (next == std::string_view::npos) next = path.size();
        // A folder only: the last component is the file itself.
        if (next < path.size() && path.substr(pos, next - pos) == name) return true;
        pos = next + 1;
    }
    return false;
}

bool inStandardLibrary(std::string_view file) {
    for (std::string_view root : {std::string_view("lib/python"), std::string_view("lib64/python")}) {
        for (std::size_t at = file.find(root); at != std::string_view::npos; at = file.find(root, at + 1)) {
            const std::size_t v = at + root.size();
            const bool folder = at == 0 || file[at - 1] == '/' || file[at - 1] == '\\';
            if (folder && v < file.size() && std::isdigit(static_cast<unsigned char>(file[v]))) return true;
        }
    }
    return false;
}

struct Accumulator {
    std::map<std::uint32_t, std::vector<Interval>> perLane;
    std::vector<Interval> all;
    std::vector<std::size_t> indices;
    std::size_t events = 0;
    // The event that shows the path: the largest overlap, then the shorter (innermost) event.
    TimeNs bestOverlap = -1;
    std::size_t bestEvent = 0, bestFrame = 0;
};

} // namespace

bool isLibraryFile(std::string_view file) {
    if (file.empty() || file.front() == '<') return true;
    return hasComponent(file, "site-packages") || hasComponent(file, "dist-packages") ||
           inStandardLibrary(file) || hasComponent(file, "torch") || hasComponent(file, "torch_npu");
}

const char* libraryRuleText() {
    // A message (rendered by the report), kept for the life of the program behind the header's const char*.
    static const std::string text =
        msg("a frame is library code when its file is under a site-packages or dist-packages folder, in the "
            "Python standard library (lib/pythonX.Y, lib64/pythonX.Y), in a torch or torch_npu package "
            "folder, "
            "or a pseudo-file such as <string>; every other frame is user code");
    return text.c_str();
}

std::vector<StackFrame> splitStack(std::string_view stack) {
    std::vector<StackFrame> out;
    std::size_t pos = 0;
    while (pos < stack.size() && out.size() < kMaxFrames) {
        // A frame ends at ";" followed by a line break or the end of the text.
        std::size_t end = pos;
        for (;; ++end) {
            end = stack.find(';', end);
            if (end == std::string_view::npos || end + 1 == stack.size() || stack[end + 1] == '\r' ||
                stack[end + 1] == '\n')
                break;
        }
        const std::string_view frame =
            trim(stack.substr(pos, end == std::string_view::npos ? stack.npos : end - pos));
        if (!frame.empty()) out.push_back(parseFrame(frame));
        if (end == std::string_view::npos) break;
        pos = end + 1;
    }
    return out;
}

std::string frameLabel(const StackFrame& f) {
    if (f.file.empty()) return bounded(f.text);
    const std::size_t slash = f.file.find_last_of("/\\");
    const std::string_view base = slash == std::string_view::npos ? f.file : f.file.substr(slash + 1);
    return bounded(base) + ":" + std::to_string(f.line) + " " + bounded(trim(f.function));
}

StackEvidenceBuilder::StackEvidenceBuilder(const Profile& p, const HostIndex& host) : p_(p), host_(host) {
    collected_ = std::any_of(p.hostEvents.begin(), p.hostEvents.end(),
                             [](const TraceEvent& e) { return (e.flags & EvHasStack) != 0; });
}

const std::vector<StackFrame>& StackEvidenceBuilder::framesOf(StrId stack) const {
    auto it = frames_.find(stack);
    if (it == frames_.end()) it = frames_.emplace(stack, splitStack(p_.str(stack))).first;
    return it->second;
}

StackEvidence StackEvidenceBuilder::evidence(Interval w) const {
    StackEvidence ev;
    ev.collected = collected_;
    if (w.length() <= 0) return ev;
    // Every overlapping event is counted; only those with a call stack are attributed to frames (a nest
    // of events without stacks costs two binary searches here, however deep).
    ev.eventsInWindow = host_.countOverlapping(w);
    const auto hits = host_.overlappingWithStack(w);
    std::map<std::string_view, Accumulator> user, innermost;
    auto add = [&](Accumulator& acc, const TraceEvent& e, TimeNs overlap, std::size_t idx,
                   std::size_t frame) {
        const Interval iv{std::max(e.ts, w.a), std::min(e.end(), w.b)};
        acc.perLane[e.lane].push_back(iv);
        acc.all.push_back(iv);
        acc.indices.push_back(idx);
        ++acc.events;
        if (overlap > acc.bestOverlap ||
            (overlap == acc.bestOverlap && e.dur < p_.hostEvents[acc.bestEvent].dur)) {
            acc.bestOverlap = overlap;
            acc.bestEvent = idx;
            acc.bestFrame = frame;
        }
    };
    for (const auto& [overlap, idx] : hits) {
        const TraceEvent& e = p_.hostEvents[idx];
        if (!e.stack) continue;
        const auto& frames = framesOf(e.stack);
        if (frames.empty()) continue;
        ++ev.eventsWithStack;
        add(innermost[frames.front().text], e, overlap, idx, 0);
        for (std::size_t i = 0; i < frames.size(); ++i)
            if (frames[i].user) {
                add(user[frames[i].text], e, overlap, idx, i);
                break;
            }
    }
    const double len = static_cast<double>(w.length());
    auto lines = [&](std::map<std::string_view, Accumulator>& accs) {
        std::vector<StackLine> out;
        for (auto& [text, acc] : accs) {
            const auto& frames = framesOf(p_.hostEvents[acc.bestEvent].stack);
            StackLine l;
            l.frameText = bounded(text);
            l.frame = frameLabel(frames[acc.bestFrame]);
            l.user = frames[acc.bestFrame].user;
            for (auto& [lane, v] : acc.perLane)
                l.hostTime += totalLength(mergeIntervals(std::move(v)));
            l.share = static_cast<double>(totalLength(mergeIntervals(std::move(acc.all)))) / len;
            l.events = acc.events;
            l.eventIndices = std::move(acc.indices);
            std::sort(l.eventIndices.begin(), l.eventIndices.end());
            l.pathEvent = acc.bestEvent;
            // The path starts at the innermost user frame when it is outside this frame (the op's own
            // innermost frame is then reached through the library frames).
            std::size_t start = acc.bestFrame;
            for (std::size_t i = acc.bestFrame; i < frames.size(); ++i)
                if (frames[i].user) {
                    start = i;
                    break;
                }
            std::vector<std::string> parts;
            for (std::size_t i = start + 1; i-- > 0;)
                parts.push_back(frameLabel(frames[i]));
            if (parts.size() > 4)
                parts.erase(parts.begin() + 2, parts.end() - 1), parts.insert(parts.end() - 1, "…");
            parts.push_back(bounded(p_.str(p_.hostEvents[acc.bestEvent].name)));
            for (const auto& part : parts)
                l.path += (l.path.empty() ? "" : " → ") + part;
            out.push_back(std::move(l));
        }
        std::sort(out.begin(), out.end(), [](const StackLine& x, const StackLine& y) {
            if (x.hostTime != y.hostTime) return x.hostTime > y.hostTime;
            return x.frameText < y.frameText;
        });
        if (out.size() > kTopLines) out.resize(kTopLines);
        return out;
    };
    ev.userFrames = lines(user);
    ev.innermostFrames = lines(innermost);
    return ev;
}

void aggregateGroupStackLines(AnomalyResult& a) {
    for (auto& g : a.groups) {
        struct Seen {
            RecurringStackLine line;
            std::set<int> steps;
        };
        std::map<std::string, Seen> byFrame; // by frame text: two files may share a base name
        for (const auto& w : a.windows) {
            if (w.groupId != g.id || w.boundary || w.stacks.userFrames.empty()) continue;
            const StackLine& top = w.stacks.userFrames.front();
            Seen& s = byFrame[top.frameText];
            s.line.frame = top.frame;
            s.line.frameText = top.frameText;
            s.steps.insert(w.stepIndex);
            ++s.line.windows;
            s.line.hostTime = addSaturating(s.line.hostTime, top.hostTime);
        }
        g.recurringUserLines.clear();
        for (auto& [text, s] : byFrame) {
            s.line.steps = s.steps.size();
            if (s.line.steps >= kMinRecurringSteps) g.recurringUserLines.push_back(std::move(s.line));
        }
        std::sort(g.recurringUserLines.begin(), g.recurringUserLines.end(),
                  [](const RecurringStackLine& x, const RecurringStackLine& y) {
                      if (x.steps != y.steps) return x.steps > y.steps;
                      if (x.hostTime != y.hostTime) return x.hostTime > y.hostTime;
                      return x.frameText < y.frameText;
                  });
        if (g.recurringUserLines.size() > 3) g.recurringUserLines.resize(3);
    }
}

} // namespace bs
