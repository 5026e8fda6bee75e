#pragma once
// The Summary tab: the five Bubble-first answers, what to do next (the prioritised recommendations, each
// linked to what it names), the per-step table and the profiler cross-check. Every named thing is a link:
// a bubble id selects the bubble, a step zooms to it, an op opens it in the Ops tab.
#include <QTextBrowser>

namespace bs {
struct Profile;
struct AnalysisResult;
} // namespace bs

namespace bs::ui {

class SummaryPanel : public QTextBrowser {
    Q_OBJECT
  public:
    explicit SummaryPanel(QWidget* parent = nullptr);
    void setResults(const Profile& profile, const AnalysisResult& analysis);
    // No results: `text` only (a load's error, or nothing), and no link into results gone.
    void showMessage(const QString& text);
    // The panel's HTML (no widget: any thread). The step table and the profiler cross-check stop after
    // kRows rows (a cross-check mismatch is shown past it, up to kRows of them) with "… N more": every
    // step is in the Charts and Text report tabs, every cross-check row in the Text report tab and the
    // exported JSON. A long table is what makes QTextDocument slow (its layout).
    static constexpr int kRows = 30;
    static QString html(const Profile& profile, const AnalysisResult& analysis, int rows = kRows);

  signals:
    void bubbleActivated(int windowIndex); // index into AnomalyResult::windows
    void stepActivated(int stepIndex);     // index into the step list
    void opActivated(const QString& name);

  private:
    void onLink(const QUrl& url);
    const AnalysisResult* analysis_ = nullptr;
};

// Bubble ids in an escaped HTML text ("b0003") turned into links to them ("bubble:b0003").
QString linkBubbleIds(const QString& escapedHtml);

} // namespace bs::ui
