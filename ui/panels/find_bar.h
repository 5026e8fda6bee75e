#pragma once
// Find on the timeline (Ctrl+F, "/"): type a kernel name, a host op or a bubble id; the counts per kind
// and "i / n" show as you type, a list of the distinct names matched (with their counts) drops down,
// Enter / F3 walk the matches on the timeline, Shift+F3 walks back, Esc closes.
#include <QWidget>

class QLabel;
class QLineEdit;
class QListWidget;
class QTimer;
class QToolButton;

namespace bs::ui {

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
    void setCurrent(int index, int count); // "i / n"
    QLineEdit* edit() const { return edit_; }
    QListWidget* names() const { return names_; }
    QLabel* status() const { return status_; }

  signals:
    void searchChanged(const QString& text); // after typing pauses
    void next();
    void previous();
    void closed();

  protected:
    void changeEvent(QEvent* e) override; // LanguageChange
    bool eventFilter(QObject* o, QEvent* e) override;

  private:
    void retranslate();
    QLineEdit* edit_;
    QLabel* status_;
    QListWidget* names_;
    QTimer* debounce_;
    QString counts_;
};

} // namespace bs::ui
