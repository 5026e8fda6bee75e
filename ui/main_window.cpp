#include "main_window.h"

#include "load_job.h"

#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>

namespace bs::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), job_(new LoadJob(this)) {
    setWindowTitle(tr("BubbleScope"));
    resize(1280, 800);

    auto* fileMenu = menuBar()->addMenu(tr("&File"));
    auto* openAct = fileMenu->addAction(tr("&Open Folder…"), this, &MainWindow::onOpenFolder);
    openAct->setShortcut(QKeySequence::Open);
    fileMenu->addSeparator();
    auto* quitAct = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quitAct->setShortcut(QKeySequence::Quit);

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    sampleBanner_ = new QLabel(tr("<b>Sample profile</b> — a generated 8-layer MoE capture with every planted anomaly. "
                                  "Open your own profiling folder with File ▸ Open Folder… (Ctrl+O)."),
                               central);
    sampleBanner_->setObjectName(QStringLiteral("sampleBanner"));
    sampleBanner_->setStyleSheet(QStringLiteral("QLabel { background: #fff4ce; color: #5c4400; border: 1px solid #e0c060; "
                                                "padding: 6px; border-radius: 3px; }"));
    sampleBanner_->setVisible(false);
    layout->addWidget(sampleBanner_);
    auto* top = new QHBoxLayout;
    rankPicker_ = new QComboBox(central);
    rankPicker_->setToolTip(tr("Rank to analyse"));
    rankPicker_->setVisible(false);
    rankLabel_ = new QLabel(tr("Rank:"), central);
    rankLabel_->setVisible(false);
    top->addWidget(rankLabel_);
    top->addWidget(rankPicker_);
    top->addStretch(1);
    layout->addLayout(top);
    report_ = new QPlainTextEdit(central);
    report_->setReadOnly(true);
    report_->setLineWrapMode(QPlainTextEdit::NoWrap);
    report_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    report_->setPlaceholderText(tr("Open a profiling folder (File ▸ Open Folder…): a *_ascend_pt rank folder, "
                                   "ASCEND_PROFILER_OUTPUT, a msprof PROF_* folder, or a parent of several ranks."));
    layout->addWidget(report_);
    setCentralWidget(central);

    status_ = new QLabel(tr("Ready"), this);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(240);
    progress_->setVisible(false);
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setVisible(false);
    statusBar()->addWidget(status_, 1);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);

    connect(cancel_, &QPushButton::clicked, job_, &LoadJob::cancel);
    connect(job_, &LoadJob::progress, this, [this](const QString& stage, int permille) {
        status_->setText(tr("Loading %1…").arg(stage));
        progress_->setValue(permille);
    });
    connect(job_, &LoadJob::finished, this, &MainWindow::onFinished);
    connect(rankPicker_, &QComboBox::activated, this, [this](int index) { openPath(currentPath_, index); });
}

MainWindow::~MainWindow() = default;

QString MainWindow::reportText() const { return report_->toPlainText(); }

void MainWindow::onOpenFolder() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Profiling Folder"));
    if (!dir.isEmpty()) openPath(dir);
}

void MainWindow::openSample(const QString& path) {
    openPath(path);
    sampleBanner_->setVisible(true);
}

bool MainWindow::isShowingSample() const { return sampleBanner_->isVisible(); }

void MainWindow::showMessage(const QString& text) {
    report_->setPlainText(text);
    status_->setText(text);
}

void MainWindow::openPath(const QString& path, int rankIndex) {
    sampleBanner_->setVisible(false);
    currentPath_ = path;
    status_->setText(tr("Loading %1…").arg(path));
    progress_->setValue(0);
    progress_->setVisible(true);
    cancel_->setVisible(true);
    job_->start(path, rankIndex);
}

void MainWindow::onFinished(const LoadOutcome& outcome) {
    progress_->setVisible(false);
    cancel_->setVisible(false);
    if (outcome.cancelled) {
        status_->setText(tr("Loading cancelled."));
        emit loadFinished(false);
        return;
    }
    if (!outcome.error.isEmpty()) {
        report_->setPlainText(outcome.error);
        status_->setText(tr("Nothing loaded."));
        emit loadFinished(false);
        return;
    }
    const bool several = outcome.rankLabels.size() > 1;
    rankPicker_->setVisible(several);
    rankLabel_->setVisible(several);
    if (several) {
        rankPicker_->blockSignals(true);
        rankPicker_->clear();
        rankPicker_->addItems(outcome.rankLabels);
        rankPicker_->setCurrentText(outcome.rank->label);
        rankPicker_->blockSignals(false);
    }
    report_->setPlainText(outcome.rank->text);
    setWindowTitle(sampleBanner_->isVisible() ? tr("Sample profile — BubbleScope") : tr("%1 — BubbleScope").arg(outcome.rank->label));
    status_->setText(tr("Loaded %1").arg(currentPath_));
    emit loadFinished(true);
}

} // namespace bs::ui
