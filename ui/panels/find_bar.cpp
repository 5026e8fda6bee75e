#include "find_bar.h"

#include <QAbstractTableModel>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QSignalBlocker>
#include <QTableView>
#include <QKeyEvent>
#include <QLabel>
#include <QEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace bs::ui {

// The matches as rows; the texts come from the window (which knows the model and the lanes) on demand.
class MatchListModel final : public QAbstractTableModel {
  public:
    using QAbstractTableModel::QAbstractTableModel;
    void set(int count, FindBar::MatchCell cell) {
        beginResetModel();
        count_ = std::max(0, count);
        cell_ = std::move(cell);
        endResetModel();
    }
    void setHeaders(QStringList headers) {
        headers_ = std::move(headers);
        emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
    }
    int rowCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : count_; }
    int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : 4; }
    QVariant data(const QModelIndex& i, int role) const override {
        if (!i.isValid() || !cell_ || i.row() >= count_) return {};
        if (role == Qt::DisplayRole || role == Qt::ToolTipRole) return cell_(i.row(), i.column());
        if (role == Qt::TextAlignmentRole && i.column() == 2)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    QVariant headerData(int section, Qt::Orientation o, int role) const override {
        if (o == Qt::Horizontal && role == Qt::DisplayRole && section >= 0 && section < headers_.size())
            return headers_[section];
        return QAbstractTableModel::headerData(section, o, role);
    }

  private:
    int count_ = 0;
    FindBar::MatchCell cell_;
    QStringList headers_;
};

FindBar::FindBar(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(2);
    auto* row = new QHBoxLayout;
    edit_ = new QLineEdit(this);
    edit_->setObjectName(QStringLiteral("findEdit"));
    edit_->setClearButtonEnabled(true);
    edit_->installEventFilter(this);
    auto* prev = new QToolButton(this);
    prev->setText(QStringLiteral("\u25b2"));
    prev->setObjectName(QStringLiteral("findPrevious"));
    auto* nextButton = new QToolButton(this);
    nextButton->setText(QStringLiteral("\u25bc"));
    nextButton->setObjectName(QStringLiteral("findNext"));
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("\u2715"));
    close->setObjectName(QStringLiteral("findClose"));
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("findStatus"));
    row->addWidget(edit_, 2);
    row->addWidget(prev);
    row->addWidget(nextButton);
    row->addWidget(status_, 3);
    row->addWidget(close);
    outer->addLayout(row);
    names_ = new QListWidget(this);
    names_->setObjectName(QStringLiteral("findNames"));
    names_->setMaximumHeight(110);
    names_->setVisible(false);
    resultsModel_ = new MatchListModel(this);
    results_ = new QTableView(this);
    results_->setObjectName(QStringLiteral("findResults"));
    results_->setModel(resultsModel_);
    results_->setSelectionBehavior(QAbstractItemView::SelectRows);
    results_->setSelectionMode(QAbstractItemView::SingleSelection);
    results_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    results_->verticalHeader()->hide();
    results_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed); // a million rows stay cheap
    results_->verticalHeader()->setDefaultSectionSize(results_->fontMetrics().height() + 4);
    results_->horizontalHeader()->setStretchLastSection(true);
    results_->setWordWrap(false);
    results_->setMaximumHeight(150);
    results_->setVisible(false);
    retranslate();
    auto* lists = new QHBoxLayout;
    lists->addWidget(names_, 2);
    lists->addWidget(results_, 5);
    outer->addLayout(lists);
    connect(results_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& row) {
                if (row.isValid()) emit matchChosen(row.row());
            });
    debounce_ = new QTimer(this);
    debounce_->setSingleShot(true);
    debounce_->setInterval(150);
    connect(edit_, &QLineEdit::textChanged, debounce_, qOverload<>(&QTimer::start));
    connect(debounce_, &QTimer::timeout, this, [this] { emit searchChanged(edit_->text()); });
    connect(prev, &QToolButton::clicked, this, &FindBar::previous);
    connect(nextButton, &QToolButton::clicked, this, &FindBar::next);
    connect(close, &QToolButton::clicked, this, [this] {
        hide();
        emit closed();
    });
    connect(names_, &QListWidget::itemActivated, this, [this](QListWidgetItem* it) {
        edit_->setText(it->data(Qt::UserRole).toString());
        debounce_->stop();
        emit searchChanged(edit_->text());
        edit_->setFocus();
    });
    connect(names_, &QListWidget::itemClicked, names_, &QListWidget::itemActivated);
    setVisible(false);
}

void FindBar::activate() {
    setVisible(true);
    edit_->setFocus();
    edit_->selectAll();
}

QString FindBar::text() const {
    return edit_->text();
}

void FindBar::setText(const QString& text) {
    edit_->setText(text);
    debounce_->stop();
    emit searchChanged(text);
}

void FindBar::setResults(std::size_t kernels, std::size_t hostOps, std::size_t bubbles,
                         const QVector<QPair<QString, int>>& names) {
    if (edit_->text().isEmpty())
        counts_.clear();
    else
        counts_ = tr("%1 kernels · %2 host ops · %3 bubbles").arg(kernels).arg(hostOps).arg(bubbles);
    status_->setText(counts_);
    names_->clear();
    for (const auto& [name, count] : names) {
        auto* it = new QListWidgetItem(QStringLiteral("%1  \u00d7%2").arg(name).arg(count), names_);
        it->setData(Qt::UserRole, name);
        it->setToolTip(name);
    }
    // The list drops down while it narrows the search: not for one exact name.
    names_->setVisible(names.size() > 1 || (names.size() == 1 && names.front().first != edit_->text()));
}

void FindBar::setCurrent(int index, int count) {
    status_->setText(count > 0 ? QStringLiteral("%1 / %2 \u2014 %3").arg(index + 1).arg(count).arg(counts_) : counts_);
    if (index < 0 || index >= resultsModel_->rowCount()) return;
    const QModelIndex row = resultsModel_->index(index, 0);
    if (results_->currentIndex().row() == index) return;
    const QSignalBlocker quiet(results_->selectionModel()); // the walk came from the timeline: no echo
    results_->selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    results_->scrollTo(row);
    results_->viewport()->update();
}

void FindBar::setMatchList(int count, MatchCell cell) {
    resultsModel_->set(count, std::move(cell));
    results_->setVisible(count > 0);
    if (count > 0) {
        results_->resizeColumnToContents(0);
        results_->setColumnWidth(1, std::max(results_->columnWidth(1), 260));
        results_->resizeColumnToContents(2);
    }
}

bool FindBar::eventFilter(QObject* o, QEvent* e) {
    if (o == edit_ && e->type() == QEvent::KeyPress) {
        auto* k = static_cast<QKeyEvent*>(e);
        if (k->key() == Qt::Key_Return || k->key() == Qt::Key_Enter || k->key() == Qt::Key_F3) {
            if (debounce_->isActive()) { // typed and pressed Enter at once: search first
                debounce_->stop();
                emit searchChanged(edit_->text());
            }
            (k->modifiers() & Qt::ShiftModifier) ? emit previous() : emit next();
            return true;
        }
        if (k->key() == Qt::Key_Escape) {
            hide();
            emit closed();
            return true;
        }
        if (k->key() == Qt::Key_Down && names_->isVisible() && names_->count() > 0) {
            names_->setFocus();
            names_->setCurrentRow(0);
            return true;
        }
    }
    return QWidget::eventFilter(o, e);
}

void FindBar::retranslate() {
    edit_->setPlaceholderText(tr("Find a kernel, a host op or a bubble id (b0001)"));
    findChild<QToolButton*>(QStringLiteral("findPrevious"))->setToolTip(tr("Previous match (Shift+F3)"));
    findChild<QToolButton*>(QStringLiteral("findNext"))->setToolTip(tr("Next match (Enter, F3)"));
    findChild<QToolButton*>(QStringLiteral("findClose"))->setToolTip(tr("Close (Esc)"));
    names_->setToolTip(tr("The names matched, with how often; click one to find exactly it."));
    resultsModel_->setHeaders({tr("Kind"), tr("Name"), tr("Time (ms)"), tr("Lane")});
    results_->setToolTip(tr("Every match in time order; choose one to go to it on the timeline."));
}

void FindBar::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::LanguageChange) retranslate();
}

} // namespace bs::ui
