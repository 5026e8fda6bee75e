#pragma once
// Find on the timeline: what a search matched (a kernel, a host event or a bubble window), and the
// search itself over the loaded model — names only, never the files.
#include "model/time.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bs {
struct Profile;
struct AnalysisResult;
} // namespace bs

namespace bs::ui {

struct Match {
    enum class Kind : std::uint8_t { Kernel, HostEvent, Bubble };
    Kind kind = Kind::Kernel;
    std::uint32_t index = 0; // into Profile::kernels, Profile::hostEvents or AnalysisResult::anomaly.windows
    friend bool operator==(const Match&, const Match&) = default;
};

struct MatchCounts {
    std::size_t kernels = 0, hostEvents = 0, bubbles = 0;
    std::size_t total() const { return kernels + hostEvents + bubbles; }
};

// [start, end) of what a match points at; {0, 0} when the index is out of range.
std::pair<TimeNs, TimeNs> matchSpan(const Profile& p, const AnalysisResult& r, const Match& m);

// Case-insensitive substring over kernel names, host event names and bubble ids ("b0001"), in time order
// (ties: kernels, host events, bubbles, then by index). Empty text: no matches. Each distinct name is
// compared once (names are interned), so a 10^6-kernel profile costs one pass over its indices.
std::vector<Match> findMatches(const Profile& p, const AnalysisResult& r, const QString& text,
                               MatchCounts* counts = nullptr);
MatchCounts countMatches(const std::vector<Match>& matches);

} // namespace bs::ui
