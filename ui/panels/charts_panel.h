#pragma once
// The Charts tab: where each step's time goes (busy, prelaunch, internal bubbles, tail) as shares of the
// step (100 % bars, so one long step — a compile in the capture — does not flatten the others) or in ms,
// a click on a bar zooming onto its step; and the top ops by total kernel time.
#include <QWidget>

class QCategoryAxis;
class QCheckBox;
class QHBoxLayout;

namespace bs {
struct AnalysisResult;
} // namespace bs

namespace bs::ui {

class ChartsPanel : public QWidget {
    Q_OBJECT
  public:
    explicit ChartsPanel(QWidget* parent = nullptr);
    void setResults(const AnalysisResult& analysis);
    void clear(); // no charts (the results they were drawn from are going away)
    bool showsShares() const;
    void setShowsShares(bool on);
    // Idle time only (prelaunch, internal bubbles, tail in ms, busy left out): the bubbles at full height.
    void setIdleOnly(bool on);
    // For tests: the steps drawn (indices into the step list, at most 200 evenly picked) and the values
    // of one segment kind (0 busy, 1 prelaunch, 2 internal, 3 tail) as drawn (% or ms).
    const QVector<int>& drawnSteps() const { return steps_; }
    QVector<double> drawnValues(int kind) const;
    // The step numbers written under the bars, and every how many bars (1, 2, 5 x 10^k: as many as fit).
    QStringList drawnStepLabels() const;
    int stepLabelEvery() const { return labelEvery_; }

  signals:
    void stepActivated(int stepIndex);

  protected:
    void changeEvent(QEvent* e) override; // LanguageChange
    void resizeEvent(QResizeEvent* e) override; // as many step labels as fit the new width

  private:
    void retranslate();
    void rebuild();
    int labelEveryForWidth() const;
    void labelSteps();
    const AnalysisResult* analysis_ = nullptr;
    QCheckBox* shares_;
    QCheckBox* idleOnly_;
    QHBoxLayout* charts_;
    QVector<int> steps_;
    QStringList cats_;                  // each drawn bar's step number
    QCategoryAxis* stepAxis_ = nullptr; // the bars' axis (owned by its chart)
    int labelEvery_ = 0;
    int widestLabel_ = 0; // px, the widest of cats_ in the axis's font
    QVector<double> values_[4];
};

} // namespace bs::ui
