#include "load_job.h"
#include "language.h"
#include "i18n/message.h"
#include "background_job.h"
#include "panel_models.h"
#include "range_stats.h"
#include "timeline_data.h"

#include "analysis/analysis_run.h"
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

// What the window holds beside the core model (issue 18), per item of the model: the timeline's tracks
// (a 24-byte item and an 8-byte running end per kernel; host events twice, by lane and by call depth),
// the range statistics' prefix sums (12 bytes per kernel), the Layers tree (four QStandardItems per kernel
// leaf, ~1 kB) and the flow links: ~300 MB beside the model for a 200 MB default-shape trace (106 k
// kernels, ~1 M events), measured with bubblescope-bench-timeline --gui.
std::uint64_t windowBytes(const Profile& p) {
    const std::uint64_t events = p.hostEvents.size() + p.hcclEvents.size() + p.overlapEvents.size();
    return p.kernels.size() * 1600 + events * 120 + p.flows.size() * 24;
}

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
        auto analysis = std::make_shared<AnalysisResult>(analyzeProfile(*loaded.profile));
        // The timeline's tracks and the range statistics beside the text report (two cores at most).
        auto timeline = QtConcurrent::run([&] {
            rank->timeline = std::make_shared<TimelineData>(buildTimelineData(*loaded.profile, *analysis));
        });
        post([this] { emit progress(QStringLiteral("report"), 1000); });
        rank->text = coreText(renderTextReport(*loaded.profile, *analysis));
        rank->rangeStats = std::make_shared<const RangeStats>(*loaded.profile);
        rank->layers = std::make_shared<LayerRows>(buildLayerRows(*loaded.profile, *analysis));
        timeline.waitForFinished();
        rank->profile = std::shared_ptr<const Profile>(std::move(loaded.profile));
        rank->analysis = analysis;
        out.rank = rank;
        return out;
    };
    d->runner.start(work, [this](const LoadOutcome& outcome) { emit finished(outcome); });
}

} // namespace bs::ui
