#include "cluster_job.h"
#include "language.h"
#include "background_job.h"

#include "pipeline/analysis_run.h"
#include "analysis/rulebook.h"
#include "cluster/cluster_analysis.h"
#include "cluster/summary_json.h"
#include "io/discovery.h"
#include "io/profile_loader.h"
#include "model/profile.h"

#include <QElapsedTimer>

#include <atomic>
#include <new>

namespace bs::ui {

struct ClusterJob::Impl {
    explicit Impl(QObject* owner) : runner(owner) {}
    BackgroundRunner<ClusterOutcome> runner;
};

namespace {

// One rank reduced to its summary; its full model is freed when this returns.
RankSummary summarizeOne(const RankFolder& rank, const LoadControl& ctl, bool& cancelled) {
    try {
        LoadResult loaded = loadRank(rank, ctl);
        if (loaded.cancelled) {
            cancelled = true;
            return {};
        }
        if (loaded.tooLarge && loaded.profile && !loaded.profile->loadFindings.empty())
            return failedRank(rank, loaded.profile->loadFindings.front().seen);
        if (!loaded.hasAnyData || !loaded.profile) return failedRank(rank, noDataMessage(rank, loaded));
        const AnalysisResult result = analyzeProfile(*loaded.profile, Rulebook{});
        return summarizeRank(rank, *loaded.profile, result, /*withLanes=*/true); // the Ranks tab's lanes
    } catch (const std::bad_alloc&) {
        return failedRank(rank, "memory ran out while analysing it");
    }
}

} // namespace

ClusterJob::ClusterJob(QObject* parent) : QObject(parent), d(std::make_unique<Impl>(this)) {
    qRegisterMetaType<bs::ui::ClusterOutcome>("bs::ui::ClusterOutcome");
}

ClusterJob::~ClusterJob() = default;

bool ClusterJob::isRunning() const {
    return d->runner.isRunning();
}

void ClusterJob::cancel() {
    d->runner.cancel();
}

void ClusterJob::start(const QString& path) {
    auto work = [this, path](const std::atomic<bool>& flag, const BackgroundRunner<ClusterOutcome>::Poster& post) -> ClusterOutcome {
        ClusterOutcome out;
        out.path = path;
        // A folder of rank summaries (a job array's output): merged, no rank analysed again.
        if (const auto files = summaryFilesIn(path.toStdString()); !files.empty()) {
            SummaryMergeOptions options;
            options.producer = summaryProducer();
            SummaryMerge m = mergeSummaries(files, options);
            out.fromSummaries = true;
            for (const auto& r : m.cluster.ranks)
                out.rankLabels << coreText(r.label);
            const QStringList labels = out.rankLabels;
            post([this, labels] { emit ranksFound(labels); });
            if (m.merged == 0) {
                out.error = tr("No summary in %1 could be merged.").arg(path);
                return out;
            }
            out.result = std::make_shared<const ClusterResult>(std::move(m.cluster));
            return out;
        }
        const DiscoveryResult found = discoverProfiles(path.toStdString());
        std::vector<RankFolder> ranks;
        for (const auto& r : found.ranks)
            if (isRankFolder(r)) ranks.push_back(r);
        for (const auto& r : ranks)
            out.rankLabels << coreText(r.label);
        const QStringList labels = out.rankLabels;
        post([this, labels] { emit ranksFound(labels); });
        if (ranks.size() < 2) {
            out.error = coreText(found.error);
            return out;
        }
        ClusterBuilder builder; // folds each rank in as it comes: bounded memory
        QElapsedTimer throttle;
        throttle.start();
        const auto n = static_cast<std::uint64_t>(ranks.size());
        for (std::uint64_t i = 0; i < n; ++i) {
            const QString label = labels.value(static_cast<int>(i));
            LoadControl ctl;
            ctl.cancel = &flag;
            ctl.progress = [&, i, label](const std::string& stage, std::uint64_t done, std::uint64_t total) {
                if (throttle.elapsed() < 100 && done < total) return;
                throttle.restart();
                const int permille = static_cast<int>((i * 1000 + (total ? done * 1000 / total : 0)) / n);
                const QString s = QStringLiteral("%1 (%2)").arg(label, coreText(stage));
                post([this, s, permille] { emit progress(s, permille); });
            };
            ctl.report("rank", 0, 1);
            bool cancelled = false;
            RankSummary summary = summarizeOne(ranks[i], ctl, cancelled);
            if (cancelled || flag.load()) {
                out.cancelled = true;
                return out;
            }
            builder.add(std::move(summary));
            releaseFreedMemory();
        }
        out.result = std::make_shared<const ClusterResult>(builder.finish(path.toStdString()));
        return out;
    };
    d->runner.start(work, [this](const ClusterOutcome& outcome) { emit finished(outcome); });
}

} // namespace bs::ui
