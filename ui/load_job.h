#pragma once
// Loads and analyses a profiling folder off the GUI thread. The core does the parsing; this only
// runs it in a worker, forwards throttled progress, and lets the user cancel.
#include <QObject>
#include <QString>

#include <atomic>
#include <cstdint>
#include <memory>

namespace bs {
struct Profile;
struct AnalysisResult;
} // namespace bs

namespace bs::ui {

struct TimelineData;
struct LayerTree;
class RangeStats;

// The memory the window needs beside the core model for `profile` (its tracks, prefix sums, Layers rows,
// flow links): the load refuses to show a profile when more than this is missing.
std::uint64_t windowBytes(const Profile& profile);

struct LoadedRank {
    QString label;
    QString folder; // the rank folder
    std::shared_ptr<const Profile> profile;
    std::shared_ptr<const AnalysisResult> analysis;
    QString text; // plain-text report
    // Built in the worker too, so the GUI thread only hands them over: the timeline's tracks and the
    // Layers tree's rows (both taken by the window), the range statistics' prefix sums.
    std::shared_ptr<TimelineData> timeline;
    std::shared_ptr<const LayerTree> layers;
    std::shared_ptr<const RangeStats> rangeStats;
};

struct LoadOutcome {
    QString error;                    // non-empty when nothing could be loaded
    QStringList rankLabels;           // every rank found
    std::shared_ptr<LoadedRank> rank; // the analysed rank
    bool cancelled = false;
};

class LoadJob : public QObject {
    Q_OBJECT
  public:
    explicit LoadJob(QObject* parent = nullptr);
    ~LoadJob() override;
    // Starts loading rank `rankIndex` of `path`; a running job is cancelled and its result dropped.
    void start(const QString& path, int rankIndex = 0);
    void cancel();
    bool isRunning() const;

  signals:
    void progress(const QString& stage, int permille);
    // The analysis and the timeline's tracks are ready (rank: profile, analysis, timeline, range statistics;
    // no text report, no Layers rows yet): the window can show the timeline while the rest is built.
    // `finished` follows (with the same profile and analysis, the timeline handed over already).
    void analysed(const bs::ui::LoadOutcome& partial);
    void finished(const bs::ui::LoadOutcome& outcome);

  private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace bs::ui
