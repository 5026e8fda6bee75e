#include "load_job.h"
#include "language.h"
#include "i18n/message.h"
#include "background_job.h"
#include "layer_tree_model.h"
#include "range_stats.h"
#include "timeline_data.h"

#include "pipeline/analysis_run.h"
#include "cluster/cluster_analysis.h"
#include "io/discovery.h"
#include "io/file_buffer.h"
#include "io/profile_loader.h"
#include "model/profile.h"
#include "report/text_report.h"

#include <QElapsedTimer>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace bs::ui {

namespace {

std::uint64_t residentBytes() {
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (!f) return 0;
    char line[256];
    std::uint64_t kb = 0;
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, "VmRSS:", 6) == 0) kb = std::strtoull(line + 6, nullptr, 10);
    std::fclose(f);
    return kb << 10;
}

// The memory still free for the window: availableMemoryBytes() is what is left (MemAvailable, the
// address-space and cgroup headroom, with the model already loaded) — except BUBBLESCOPE_MEMORY_LIMIT_MB,
// a limit on the whole process, from which what the process holds is taken.
std::uint64_t headroomBytes() {
    const std::uint64_t avail = availableMemoryBytes();
    if (!std::getenv("BUBBLESCOPE_MEMORY_LIMIT_MB")) return avail;
    const std::uint64_t rss = residentBytes();
    return avail > rss ? avail - rss : 0;
}

} // namespace

// What the window holds beside the core model (issue 18), per item of the model: the timeline's tracks
// (a 24-byte item and an 8-byte running end per kernel; host events twice, by lane and by call depth),
// the range statistics' prefix sums (12 bytes per kernel), the Layers tree (a lazy model: 4 bytes per
// kernel leaf and ~300 bytes per role / layer / pass row) and the flow links; plus 64 MB for what these
// terms miss (the report and summary documents, the charts, the allocator's slack) and as a margin.
// bubblescope-bench-timeline --gui prints this estimate beside an upper bound of what the window adds: the
// GUI's peak RSS minus that of `analyze PATH -q` (the same model and text report, no JSON export), which
// also counts Qt's own ~19 MB (an empty shown window), resident before the guard is asked. 200 MB default
// shape (106 k kernels): 144.5 vs 101.8 MB; 1 GB (540 k kernels): 473.9 vs 320.4 MB. Without the 64 MB the
// estimate (80.5 MB) fell short of the window's addition at 200 MB (~83 MB once Qt's own is taken off).
std::uint64_t windowBytes(const Profile& p) {
    constexpr std::uint64_t kFixed = 64ULL << 20;
    const std::uint64_t events = p.hostEvents.size() + p.hcclEvents.size() + p.overlapEvents.size();
    return kFixed + p.kernels.size() * 400 + events * 60 + p.flows.size() * 24;
}

struct LoadJob::Impl {
    explicit Impl(QObject* owner) : runner(owner) {}
    BackgroundRunner<LoadOutcome> runner;
};

LoadJob::LoadJob(QObject* parent) : QObject(parent), d(std::make_unique<Impl>(this)) {
    qRegisterMetaType<bs::ui::LoadOutcome>("bs::ui::LoadOutcome");
}

LoadJob::~LoadJob() = default;

bool LoadJob::isRunning() const {
    return d->runner.isRunning();
}

void LoadJob::cancel() {
    d->runner.cancel();
}

void LoadJob::start(const QString& path, int rankIndex) {
    const std::string p = path.toStdString();
    auto work = [this, p, rankIndex, language = currentLanguage()](
                    const std::atomic<bool>& cancelled, const BackgroundRunner<LoadOutcome>::Poster& post) -> LoadOutcome {
        const ScopedLanguage scoped(language); // the text report in the window's language
        LoadOutcome out;
        DiscoveryResult found = discoverProfiles(p);
        if (found.ranks.empty()) {
            out.error = coreText(found.error);
            return out;
        }
        // Only real ranks, as the cluster analysis counts them: cluster_analysis_output and advisor
        // folders are not (unless that is all the user opened).
        std::vector<RankFolder> ranks;
        for (const auto& r : found.ranks)
            if (isRankFolder(r)) ranks.push_back(r);
        if (!ranks.empty()) found.ranks = std::move(ranks);
        for (const auto& r : found.ranks)
            out.rankLabels << coreText(r.label);
        const int idx = rankIndex >= 0 && rankIndex < static_cast<int>(found.ranks.size()) ? rankIndex : 0;
        LoadControl ctl;
        ctl.cancel = &cancelled;
        QElapsedTimer throttle;
        throttle.start();
        ctl.progress = [this, &post, &throttle](const std::string& stage, std::uint64_t done, std::uint64_t total) {
            if (throttle.elapsed() < 50 && done < total) return;
            throttle.restart();
            const int permille = total ? static_cast<int>(done * 1000 / total) : 0;
            const QString s = coreText(stage);
            post([this, s, permille] { emit progress(s, permille); });
        };
        LoadResult loaded = loadRank(found.ranks[static_cast<std::size_t>(idx)], ctl);
        if (loaded.cancelled) {
            out.cancelled = true;
            return out;
        }
        if (loaded.tooLarge) {
            out.error = coreText(loaded.profile->loadFindings.front().seen + " " +
                                               loaded.profile->loadFindings.front().fix);
            return out;
        }
        if (!loaded.hasAnyData) {
            out.error = coreText(
                noDataMessage(found.ranks[static_cast<std::size_t>(idx)], loaded));
            return out;
        }
        // The core's guard counted the model; the window's own footprint is checked here, before it is built.
        if (const std::uint64_t need = windowBytes(*loaded.profile), avail = headroomBytes(); need > avail) {
            out.error = tr("Showing this profile needs about %1 MiB more for the timeline and its panels, but only "
                           "%2 MiB of memory are left. Nothing was shown. Free memory, or analyse it without the "
                           "window: bubblescope analyze %3")
                            .arg(need >> 20)
                            .arg(avail >> 20)
                            .arg(QString::fromStdString(p));
            return out;
        }
        auto rank = std::make_shared<LoadedRank>();
        rank->label = out.rankLabels.value(idx);
        rank->folder = coreText(found.ranks[static_cast<std::size_t>(idx)].root);
        post([this] { emit progress(QStringLiteral("analysing"), 1000); });
        rank->profile = std::shared_ptr<const Profile>(std::move(loaded.profile));
        const Profile& profile = *rank->profile;
        // The timeline's tracks that need no analysis and the range statistics beside the analysis (two
        // cores at most); the timeline is handed to the window as soon as both are done, the text report
        // and the Layers rows are built while the window paints it.
        auto timeline = std::make_shared<TimelineData>();
        QFuture<void> tracks = QtConcurrent::run([&] {
            *timeline = buildTimelineTracks(profile);
            rank->rangeStats = std::make_shared<const RangeStats>(profile);
        });
        struct WaitOnExit { // it reads this frame's locals: also when the analysis throws
            QFuture<void>& f;
            ~WaitOnExit() { f.waitForFinished(); }
        } waitForTracks{tracks};
        auto analysis = std::make_shared<const AnalysisResult>(analyzeProfile(profile));
        rank->analysis = analysis;
        tracks.waitForFinished();
        addAnalysisToTimeline(*timeline, *analysis);
        if (cancelled.load()) {
            out.cancelled = true;
            return out;
        }
        {
            LoadOutcome partial;
            partial.rankLabels = out.rankLabels;
            partial.rank = std::make_shared<LoadedRank>();
            partial.rank->label = rank->label;
            partial.rank->folder = rank->folder;
            partial.rank->profile = rank->profile;
            partial.rank->analysis = analysis;
            partial.rank->rangeStats = rank->rangeStats;
            partial.rank->timeline = std::move(timeline);
            post([this, partial] { emit analysed(partial); });
        }
        post([this] { emit progress(QStringLiteral("report"), 1000); });
        // One thread from here on: the window takes the other core to show the timeline.
        rank->layers = buildLayerTree(profile, *analysis);
        rank->text = coreText(renderTextReport(profile, *analysis));
        out.rank = rank;
        return out;
    };
    d->runner.start(work, [this](const LoadOutcome& outcome) { emit finished(outcome); });
}

} // namespace bs::ui
