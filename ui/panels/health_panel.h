#pragma once
// The Health tab: every data-quality finding of the rank (what was seen, its effect on the analysis, how
// to fix the collection, the file and line), then the analysis's notes; in the window's language.
#include <QTextBrowser>

namespace bs {
struct AnalysisResult;
}

namespace bs::ui {

class HealthPanel : public QTextBrowser {
    Q_OBJECT
  public:
    explicit HealthPanel(QWidget* parent = nullptr);
    void setResults(const AnalysisResult& r);
    // "Health" or "Health (N)": the tab's title for these results.
    static QString title(const AnalysisResult& r);
};

} // namespace bs::ui
