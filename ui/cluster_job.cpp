#include "cluster_job.h"

#include "analysis/analysis_run.h"
#include "analysis/rulebook.h"
#include "cluster/cluster_analysis.h"
#include "io/discovery.h"
#include "io/profile_loader.h"
#include "model/profile.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QMetaObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <new>

namespace bs::ui {

struct ClusterJob::Impl {
    std::shared_ptr<std::atomic<bool>> cancelFlag;
    QFutureWatcher<ClusterOutcome>* watcher = nullptr;
    quint64 generation = 0;
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
        return summarizeRank(rank, *loaded.profile, result);
    } catch (const std::bad_alloc&) {
        return failedRank(rank, "memory ran out while analysing it");
    }
}

} // namespace

ClusterJob::ClusterJob(QObject* parent) : QObject(parent), d(std::make_unique<Impl>()) {
    qRegisterMetaType<bs::ui::ClusterOutcome>("bs::ui::ClusterOutcome");
}

ClusterJob::~ClusterJob() {
    cancel();
    if (d->watcher) d->watcher->waitForFinished();
}

bool ClusterJob::isRunning() const {
    return d->watcher && d->watcher->isRunning();
}

void ClusterJob::cancel() {
    if (d->cancelFlag) d->cancelFlag->store(true);
}

void ClusterJob::start(const QString& path) {
    cancel();
    if (d->watcher) {
        d->watcher->disconnect(this);
        d->watcher->deleteLater(); // the stale job finishes in the background; its result is dropped
    }
    auto flag = std::make_shared<std::atomic<bool>>(false);
    d->cancelFlag = flag;
    const quint64 gen = ++d->generation;
    QPointer<ClusterJob> self(this);
    // Delivers a signal on the GUI thread unless a newer job replaced this one.
    auto post = [self, gen](auto emitter) {
        if (!self) return; // the view is gone: nobody to tell
        QMetaObject::invokeMethod(
            self,
            [self, gen, emitter] {
                if (self && self->d->generation == gen) emitter(self.data());
            },
            Qt::QueuedConnection);
    };
    auto work = [flag, path, post]() -> ClusterOutcome {
        ClusterOutcome out;
        out.path = path;
        const DiscoveryResult found = discoverProfiles(path.toStdString());
        std::vector<RankFolder> ranks;
        for (const auto& r : found.ranks)
            if (isRankFolder(r)) ranks.push_back(r);
        for (const auto& r : ranks)
            out.rankLabels << QString::fromStdString(r.label);
        const QStringList labels = out.rankLabels;
        post([labels](ClusterJob* j) { emit j->ranksFound(labels); });
        if (ranks.size() < 2) {
            out.error = QString::fromStdString(found.error);
            return out;
        }
        ClusterBuilder builder; // folds each rank in as it comes: bounded memory
        QElapsedTimer throttle;
        throttle.start();
        const auto n = static_cast<std::uint64_t>(ranks.size());
        for (std::uint64_t i = 0; i < n; ++i) {
            const QString label = labels.value(static_cast<int>(i));
            LoadControl ctl;
            ctl.cancel = flag.get();
            ctl.progress = [&, i, label](const std::string& stage, std::uint64_t done, std::uint64_t total) {
                if (throttle.elapsed() < 100 && done < total) return;
                throttle.restart();
                const int permille = static_cast<int>((i * 1000 + (total ? done * 1000 / total : 0)) / n);
                const QString s = QStringLiteral("%1 (%2)").arg(label, QString::fromStdString(stage));
                post([s, permille](ClusterJob* j) { emit j->progress(s, permille); });
            };
            ctl.report("rank", 0, 1);
            bool cancelled = false;
            RankSummary summary = summarizeOne(ranks[i], ctl, cancelled);
            if (cancelled || flag->load()) {
                out.cancelled = true;
                return out;
            }
            builder.add(std::move(summary));
            releaseFreedMemory();
        }
        out.result = std::make_shared<const ClusterResult>(builder.finish(path.toStdString()));
        return out;
    };
    d->watcher = new QFutureWatcher<ClusterOutcome>(this);
    connect(d->watcher, &QFutureWatcher<ClusterOutcome>::finished, this, [this, gen] {
        if (gen != d->generation) return;
        emit finished(d->watcher->result());
    });
    d->watcher->setFuture(QtConcurrent::run(work));
}

} // namespace bs::ui
