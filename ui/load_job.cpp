#include "load_job.h"

#include "analysis/analysis_run.h"
#include "cluster/cluster_analysis.h"
#include "io/discovery.h"
#include "io/profile_loader.h"
#include "report/text_report.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QMetaObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

namespace bs::ui {

struct LoadJob::Impl {
    std::shared_ptr<std::atomic<bool>> cancelFlag;
    QFutureWatcher<LoadOutcome>* watcher = nullptr;
    quint64 generation = 0;
};

LoadJob::LoadJob(QObject* parent) : QObject(parent), d(std::make_unique<Impl>()) {
    qRegisterMetaType<bs::ui::LoadOutcome>("bs::ui::LoadOutcome");
}

LoadJob::~LoadJob() {
    cancel();
    if (d->watcher) d->watcher->waitForFinished();
}

bool LoadJob::isRunning() const {
    return d->watcher && d->watcher->isRunning();
}

void LoadJob::cancel() {
    if (d->cancelFlag) d->cancelFlag->store(true);
}

void LoadJob::start(const QString& path, int rankIndex) {
    cancel();
    if (d->watcher) {
        d->watcher->disconnect(this);
        d->watcher->deleteLater(); // the stale job finishes in the background; its result is dropped
    }
    auto flag = std::make_shared<std::atomic<bool>>(false);
    d->cancelFlag = flag;
    const quint64 gen = ++d->generation;
    QPointer<LoadJob> self(this);
    const std::string p = path.toStdString();
    auto work = [flag, p, rankIndex, self, gen]() -> LoadOutcome {
        LoadOutcome out;
        DiscoveryResult found = discoverProfiles(p);
        if (found.ranks.empty()) {
            out.error = QString::fromStdString(found.error);
            return out;
        }
        // Only real ranks, as the cluster analysis counts them: cluster_analysis_output and advisor
        // folders are not (unless that is all the user opened).
        std::vector<RankFolder> ranks;
        for (const auto& r : found.ranks)
            if (isRankFolder(r)) ranks.push_back(r);
        if (!ranks.empty()) found.ranks = std::move(ranks);
        for (const auto& r : found.ranks)
            out.rankLabels << QString::fromStdString(r.label);
        const int idx = rankIndex >= 0 && rankIndex < static_cast<int>(found.ranks.size()) ? rankIndex : 0;
        LoadControl ctl;
        ctl.cancel = flag.get();
        QElapsedTimer throttle;
        throttle.start();
        ctl.progress = [self, gen, &throttle](const std::string& stage, std::uint64_t done,
                                              std::uint64_t total) {
            if (throttle.elapsed() < 50 && done < total) return;
            throttle.restart();
            const int permille = total ? static_cast<int>(done * 1000 / total) : 0;
            const QString s = QString::fromStdString(stage);
            QMetaObject::invokeMethod(
                self,
                [self, gen, s, permille] {
                    if (self && self->d->generation == gen) emit self->progress(s, permille);
                },
                Qt::QueuedConnection);
        };
        LoadResult loaded = loadRank(found.ranks[static_cast<std::size_t>(idx)], ctl);
        if (loaded.cancelled) {
            out.cancelled = true;
            return out;
        }
        if (loaded.tooLarge) {
            out.error = QString::fromStdString(loaded.profile->loadFindings.front().seen + " " +
                                               loaded.profile->loadFindings.front().fix);
            return out;
        }
        if (!loaded.hasAnyData) {
            out.error = QString::fromStdString(
                noDataMessage(found.ranks[static_cast<std::size_t>(idx)], loaded));
            return out;
        }
        auto rank = std::make_shared<LoadedRank>();
        rank->label = out.rankLabels.value(idx);
        auto analysis = std::make_shared<AnalysisResult>(analyzeProfile(*loaded.profile));
        rank->text = QString::fromStdString(renderTextReport(*loaded.profile, *analysis));
        rank->profile = std::shared_ptr<const Profile>(std::move(loaded.profile));
        rank->analysis = analysis;
        out.rank = rank;
        return out;
    };
    d->watcher = new QFutureWatcher<LoadOutcome>(this);
    connect(d->watcher, &QFutureWatcher<LoadOutcome>::finished, this, [this, gen] {
        if (gen != d->generation) return;
        emit finished(d->watcher->result());
    });
    d->watcher->setFuture(QtConcurrent::run(work));
}

} // namespace bs::ui
