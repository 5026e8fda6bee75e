#include "ops_panel.h"

#include "panel_models.h"
#include "pipeline/analysis_run.h"

#include <QEvent>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace bs::ui {

OpsPanel::OpsPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    filter_ = new QLineEdit(this);
    filter_->setPlaceholderText(tr("Filter ops by name…"));
    filter_->setClearButtonEnabled(true);
    table_ = new QTableView(this);
    model_ = new OpsGroupModel(this);
    table_->setModel(model_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(OpsTableModel::Total, Qt::DescendingOrder); // the op that takes the most device time first
    table_->verticalHeader()->hide();
    layout->addWidget(filter_);
    layout->addWidget(table_);
    table_->installEventFilter(this);
    connect(filter_, &QLineEdit::textChanged, model_, &OpsGroupModel::setFilterText);
    connect(table_, &QTableView::clicked, this, [this](const QModelIndex& i) {
        if (i.column() == OpsTableModel::Name && i.data(OpsGroupModel::KindRole).toInt() == OpsGroupModel::Group)
            toggleGroup(i.row());
    });
    connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& i) {
        if (i.data(OpsGroupModel::KindRole).toInt() == OpsGroupModel::Group) return; // a group is no kernel name
        const QString name = i.data(OpsGroupModel::NameRole).toString();
        if (!name.isEmpty()) emit instancesRequested(name);
    });
}

void OpsPanel::toggleGroup(int row, int expand) {
    // The model lays its rows out again: the group stays the current row.
    const QString name = model_->index(row, 0).data(OpsGroupModel::NameRole).toString();
    const int column = std::max(0, table_->currentIndex().column());
    if (expand < 0)
        model_->toggle(row);
    else
        model_->setExpanded(row, expand > 0);
    // Instances' names may be longer than the groups' the column was sized for: it grows, never shrinks.
    const int width = table_->columnWidth(OpsTableModel::Name);
    table_->resizeColumnToContents(OpsTableModel::Name);
    if (table_->columnWidth(OpsTableModel::Name) < width) table_->setColumnWidth(OpsTableModel::Name, width);
    for (int r = 0; r < model_->rowCount(); ++r)
        if (model_->index(r, 0).data(OpsGroupModel::KindRole).toInt() == OpsGroupModel::Group &&
            model_->index(r, 0).data(OpsGroupModel::NameRole).toString() == name) {
            table_->setCurrentIndex(model_->index(r, column));
            break;
        }
}

bool OpsPanel::eventFilter(QObject* watched, QEvent* e) {
    if (watched == table_ && e->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(e)->key();
        const QModelIndex at = table_->currentIndex();
        if ((key == Qt::Key_Right || key == Qt::Key_Left) && at.isValid() &&
            at.data(OpsGroupModel::KindRole).toInt() == OpsGroupModel::Group) {
            toggleGroup(at.row(), key == Qt::Key_Right ? 1 : 0);
            return true;
        }
    }
    return QWidget::eventFilter(watched, e);
}

void OpsPanel::setAnalysis(std::shared_ptr<const AnalysisResult> analysis, const Profile* profile) {
    model_->setAnalysis(std::move(analysis), profile);
    table_->resizeColumnsToContents();
}

void OpsPanel::clear() {
    filter_->clear();
    model_->setAnalysis(nullptr, nullptr);
    QHeaderView* header = table_->horizontalHeader(); // no column sized for the names of ops gone
    for (int c = 0; c < header->count(); ++c)
        header->resizeSection(c, header->defaultSectionSize());
}

void OpsPanel::filterTo(const QString& name) {
    filter_->setText(name);
}

void OpsPanel::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::LanguageChange) filter_->setPlaceholderText(tr("Filter ops by name…"));
}

} // namespace bs::ui
