#include "ops_panel.h"

#include "panel_models.h"
#include "analysis/analysis_run.h"

#include <QEvent>
#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace bs::ui {

OpsPanel::OpsPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    filter_ = new QLineEdit(this);
    filter_->setPlaceholderText(tr("Filter ops by name…"));
    filter_->setClearButtonEnabled(true);
    table_ = new QTableView(this);
    model_ = new OpsTableModel(this);
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(Qt::UserRole);
    proxy_->setFilterKeyColumn(OpsTableModel::Name);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(OpsTableModel::Total, Qt::DescendingOrder); // the op that takes the most device time first
    table_->verticalHeader()->hide();
    layout->addWidget(filter_);
    layout->addWidget(table_);
    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& i) {
        const QString name = i.sibling(i.row(), OpsTableModel::Name).data().toString();
        if (!name.isEmpty()) emit instancesRequested(name);
    });
}

void OpsPanel::setAnalysis(std::shared_ptr<const AnalysisResult> analysis) {
    model_->setAnalysis(std::move(analysis));
    table_->resizeColumnsToContents();
}

void OpsPanel::clear() {
    filter_->clear();
    model_->setAnalysis(nullptr);
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
