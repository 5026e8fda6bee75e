#pragma once
// The Cluster view's Ranks tab: the multi-rank timeline (ranks_timeline.h) with its controls — raw or
// aligned clocks, fit, a step to fit, find (a rank number or a collective's name) — and the legend. A
// cluster merged from summaries has no lanes: the tab says so instead.
#include "model/time.h"

#include <QByteArray>
#include <QSize>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;

namespace bs {
struct ClusterResult;
} // namespace bs

namespace bs::ui {

class RanksTimeline;

class RanksTab : public QWidget {
    Q_OBJECT
  public:
    explicit RanksTab(QWidget* parent = nullptr);
    ~RanksTab() override;
    void setCluster(std::shared_ptr<const ClusterResult> cluster);
    RanksTimeline* timeline() const { return timeline_; }
    QCheckBox* rawClocks() const { return raw_; }
    QLineEdit* findEdit() const { return find_; }
    QLabel* message() const { return message_; } // shown instead of the timeline when there are no lanes
    bool showsTimeline() const;
    void activateFind(); // Ctrl+F: the find field, its text selected
    // Fits the view to `step`'s windows (the step picker follows); false when no rank has it.
    bool fitStep(std::int64_t step);

  signals:
    void rankClicked(int rank);
    void rankActivated(int rank, qint64 rawTime, qint64 span);

  protected:
    void changeEvent(QEvent* e) override; // LanguageChange

  private:
    void retranslate();
    void fillSteps();
    void runFind();

    std::shared_ptr<const ClusterResult> cluster_;
    RanksTimeline* timeline_;
    QStackedWidget* stack_;
    QLabel* message_;
    QCheckBox* raw_;
    QPushButton* fit_;
    QLabel* stepLabel_;
    QComboBox* step_;
    QLineEdit* find_;
    QLabel* status_;
    QLabel* legend_;
    bool partsCut_ = false; // a collective has more ranks than the cluster keeps parts of
};

// The Ranks tab's picture of `cluster` (which must carry lanes), drawn off screen at `size`: the whole
// capture, or `step`'s windows across the ranks when step >= 0. Encoded as `format` ("png" / "svg");
// empty with `error` set on failure (no lanes, no such step).
QByteArray ranksPicture(std::shared_ptr<const ClusterResult> cluster, std::int64_t step, bool useStep,
                        QSize size, const QString& format, QString* error);

} // namespace bs::ui
