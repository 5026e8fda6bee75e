#pragma once
#include <QMainWindow>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QComboBox;

namespace bs::ui {

class LoadJob;
struct LoadOutcome;

// The application window. This shell shows the inventory, the health findings and the per-step
// bubble table of the loaded profile; the timeline and inspector panels plug in here.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;
    void openPath(const QString& path, int rankIndex = 0);
    // Opens the embedded sample and says so in a banner until another profile is opened.
    void openSample(const QString& path);
    void showMessage(const QString& text);
    bool isShowingSample() const;
    QString reportText() const;

signals:
    void loadFinished(bool ok);

private:
    void onOpenFolder();
    void onFinished(const LoadOutcome& outcome);

    LoadJob* job_;
    QPlainTextEdit* report_;
    QProgressBar* progress_;
    QPushButton* cancel_;
    QLabel* status_;
    QComboBox* rankPicker_;
    QLabel* sampleBanner_;
    QLabel* rankLabel_;
    QString currentPath_;
};

} // namespace bs::ui
