#include "load_job.h"
#include "language.h"
#include "i18n/message.h"
#include "background_job.h"

#include "analysis/analysis_run.h"
#include "cluster/cluster_analysis.h"
#include "io/discovery.h"
#include "io/profile_loader.h"
#include "report/text_report.h"

#include <QElapsedTimer>

namespace bs::ui {

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
        auto rank = std::make_shared<LoadedRank>();
        rank->label = out.rankLabels.value(idx);
        rank->folder = coreText(found.ranks[static_cast<std::size_t>(idx)].root);
        post([this] { emit progress(QStringLiteral("analysing"), 1000); });
        auto analysis = std::make_shared<AnalysisResult>(analyzeProfile(*loaded.profile));
        post([this] { emit progress(QStringLiteral("report"), 1000); });
        rank->text = coreText(renderTextReport(*loaded.profile, *analysis));
        rank->profile = std::shared_ptr<const Profile>(std::move(loaded.profile));
        rank->analysis = analysis;
        out.rank = rank;
        return out;
    };
    d->runner.start(work, [this](const LoadOutcome& outcome) { emit finished(outcome); });
}

} // namespace bs::ui
