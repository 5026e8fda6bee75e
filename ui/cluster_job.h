#pragma once
// Runs the cluster analysis of a parent folder off the GUI thread: the core loads, analyses and
// summarizes one rank at a time (bounded memory); this forwards throttled progress and the cancel flag.
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

namespace bs {
struct ClusterResult;
} // namespace bs

namespace bs::ui {

struct ClusterOutcome {
    QString path;
    QStringList rankLabels; // the core's rank list (no cluster_analysis_output / advisor folders)
    std::shared_ptr<const ClusterResult> result; // null with fewer than two ranks, on error or cancel
    QString error;
    bool cancelled = false;
    bool fromSummaries = false; // merged from a folder of rank summaries (bubblescope analyze --summary)
};

class ClusterJob : public QObject {
    Q_OBJECT
  public:
    explicit ClusterJob(QObject* parent = nullptr);
    ~ClusterJob() override;
    // Analyses every rank under `path`; a running job is cancelled and its result dropped.
    void start(const QString& path);
    void cancel();
    bool isRunning() const;

  signals:
    // The ranks were discovered (before any is loaded): the window can show the Cluster view at once.
    void ranksFound(const QStringList& labels);
    void progress(const QString& stage, int permille);
    void finished(const bs::ui::ClusterOutcome& outcome);

  private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace bs::ui
