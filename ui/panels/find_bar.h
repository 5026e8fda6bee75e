#pragma once
// Find on the timeline (Ctrl+F, "/"): type a kernel name, a host op or a bubble id; the counts per kind
// and "i / n" show as you type, a list of the distinct names matched (with their counts) drops down,
// Enter / F3 walk the matches on the timeline, Shift+F3 walks back, Esc closes. Beside the names, the
// results list: every match (kind, name, time, lane) in the timeline's order; the current one follows the
// walk, and choosing a row walks the timeline to it.
#include <QWidget>

#include <functional>

class QLabel;
class QLineEdit;
class QListWidget;
class QTableView;
class QTimer;
class QToolButton;

namespace bs::ui {

class MatchListModel;

class FindBar : public QWidget {
    Q_OBJECT
  public:
    explicit FindBar(QWidget* parent = nullptr);
    void activate(); // shows the bar with its text selected and the focus in it
    QString text() const;
    void setText(const QString& text);
    // What the search found: counts per kind and the distinct names (name, count), most frequent first.
    void setResults(std::size_t kernels, std::size_t hostOps, std::size_t bubbles,
                    const QVector<QPair<QString, int>>& names);
    void setCurrent(int index, int count); // "i / n", and row `index` of the results list made current
    // The results list: `count` rows, `cell(row, column)` their texts (columns: kind, name, time, lane),
    // read only for the rows shown, so a million matches cost nothing until scrolled to. 0 hides the list.
    using MatchCell = std::function<QString(int row, int column)>;
    void setMatchList(int count, MatchCell cell);
    QTableView* results() const { return results_; }
    QLineEdit* edit() const { return edit_; }
    QListWidget* names() const { return names_; }
    QLabel* status() const { return status_; }

  signals:
    void searchChanged(const QString& text); // after typing pauses
    void next();
    void previous();
    void closed();
    void matchChosen(int index); // a row of the results list chosen (click, Enter, arrows)

  protected:
    void changeEvent(QEvent* e) override; // LanguageChange
    bool eventFilter(QObject* o, QEvent* e) override;

  private:
    void retranslate();
    QLineEdit* edit_;
    QLabel* status_;
    QListWidget* names_;
    QTableView* results_;
    MatchListModel* resultsModel_;
    QTimer* debounce_;
    QString counts_;
};

} // namespace bs::ui
