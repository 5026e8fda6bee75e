// bench-ranks (issue 44, item 6): the window's multi-rank timeline on a folder of ranks.
//   1. The cluster analysis as the window runs it (every rank's merged lanes kept): wall time, peak RSS, the
//      lanes' size, against the largest rank's trace (goal: 64 ranks of 200 MB in <= 1.5 GB).
//   2. The Ranks tab's timeline painting frames off screen at 1600 px wide, every rank in view: ms per frame
//      fitted to the capture, to one step, and zoomed to one collective (goal <= 16 ms at 64 ranks).
// Usage: bubblescope-bench-ranks PARENT [FRAMES]   (QT_QPA_PLATFORM=offscreen is set when unset)
#include "analysis/rulebook.h"
#include "bench_util.h"
#include "cluster/cluster_analysis.h"
#include "ranks_timeline.h"

#include <QApplication>
#include <QImage>
#include <QPainter>

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <vector>

namespace fs = std::filesystem;

namespace {

// ms per frame: the widget painted into an image `frames` times (the first frame, which lays out, excluded).
double msPerFrame(bs::ui::RanksTimeline& w, int frames) {
    QImage img(w.size(), QImage::Format_ARGB32_Premultiplied);
    w.render(&img);
    const auto t0 = benchutil::Clock::now();
    for (int i = 0; i < frames; ++i)
        w.render(&img);
    return benchutil::since(t0) * 1e3 / frames;
}

std::uintmax_t largestTrace(const std::string& parent) {
    std::uintmax_t largest = 0;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().filename() == "trace_view.json") largest = std::max(largest, fs::file_size(it->path(), ec));
    return largest;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        fmt::print(stderr, "usage: bubblescope-bench-ranks PARENT [FRAMES]\n");
        return 2;
    }
    if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
    const std::string parent = argv[1];
    const int frames = argc == 3 ? std::atoi(argv[2]) : 30;

    benchutil::resetPeakRss();
    const auto t0 = benchutil::Clock::now();
    auto cluster = std::make_shared<bs::ClusterResult>(bs::analyzeClusterFolder(parent, bs::Rulebook{}, true));
    const double wall = benchutil::since(t0);
    const double peakMb = static_cast<double>(benchutil::peakRssKb()) / 1024.0;
    std::size_t intervals = 0;
    for (const auto& r : cluster->ranks)
        if (r.lanes) intervals += r.lanes->busy.size() + r.lanes->comm.size() + r.lanes->steps.size();
    const double traceMb = benchutil::mb(largestTrace(parent));
    fmt::print("cluster analysis with lanes: {} ranks, {:.1f} s, peak RSS {:.1f} MB ({:.2f} x the largest trace, "
               "{:.1f} MB; goal: 64 ranks of 200 MB in <= 1536 MB); lanes: {} intervals, {:.1f} MB\n",
               cluster->ranks.size(), wall, peakMb, traceMb > 0 ? peakMb / traceMb : 0.0, traceMb, intervals,
               benchutil::mb(intervals * 16));

    QApplication app(argc, argv);
    bs::ui::RanksTimeline w;
    w.setCluster(cluster);
    const int height = std::max(400, w.rankGroupRect(w.rankCount() - 1).bottom() + 40);
    w.resize(1600, height);
    w.fit();
    const double fitMs = msPerFrame(w, frames);
    double stepMs = -1, collMs = -1;
    if (!cluster->steps.empty() && w.fitStep(cluster->steps[cluster->steps.size() / 2])) stepMs = msPerFrame(w, frames);
    if (!cluster->collectives.empty()) {
        const auto arrivals = w.arrivals(0);
        if (!arrivals.empty()) {
            bs::TimeNs a = arrivals.front().arrival, b = arrivals.front().waitEnd;
            for (const auto& x : arrivals)
                a = std::min(a, x.arrival), b = std::max(b, x.waitEnd);
            w.focusRange(a, b + 1);
            collMs = msPerFrame(w, frames);
        }
    }
    fmt::print("Ranks tab, {} ranks at 1600x{} px, {} frames each: fit {:.2f} ms/frame, one step {:.2f} ms/frame, "
               "one collective {:.2f} ms/frame (goal <= 16 ms)\n",
               w.rankCount(), height, frames, fitMs, stepMs, collMs);
    return 0;
}
