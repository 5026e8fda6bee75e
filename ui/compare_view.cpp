#include "compare_view.h"

#include "language.h"
#include "pipeline/analysis_run.h"
#include "background_job.h"
#include "cluster/cluster_analysis.h"
#include "compare/compare.h"
#include "i18n/message.h"
#include "io/discovery.h"
#include "io/profile_loader.h"
#include "model/profile.h"
#include "timeline_widget.h"

#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QTableWidget>
#include <QTabWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <new>

namespace bs::ui {

struct CompareOutcome {
    std::shared_ptr<const Comparison> comparison;
    std::shared_ptr<const Profile> newProfile;
    std::shared_ptr<const AnalysisResult> newAnalysis;
    QString newLabel, error;
    bool cancelled = false;
};

struct CompareView::Job {
    explicit Job(QObject* owner) : runner(owner) {}
    BackgroundRunner<CompareOutcome> runner;
};

namespace {

QString esc(const std::string& s) {
    return coreText(s).toHtmlEscaped();
}

QString number(double v, int decimals) {
    return QString::number(v, 'f', decimals);
}

QString signedNumber(double v, int decimals) {
    // U+2212 for minus, as the core's percentages; "0" without a sign.
    const QString s = QString::number(std::fabs(v), 'f', decimals);
    if (s.toDouble() == 0) return s;
    return (v < 0 ? QStringLiteral("\u2212") : QStringLiteral("+")) + s;
}

QString percent(const std::optional<double>& p) {
    return coreText(formatPercent(p));
}

int decimalsFor(const std::string& unit) {
    if (unit == "count") return 1;
    if (unit.empty()) return 4; // ratios
    return 3;                   // ms
}

QTableWidgetItem* cell(const QString& text, Qt::Alignment align = Qt::AlignRight | Qt::AlignVCenter) {
    auto* it = new QTableWidgetItem(text);
    it->setTextAlignment(align);
    it->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return it;
}

// A sortable table cell: shown as text, sorted by its number.
QStandardItem* numberItem(double v, const QString& text) {
    auto* it = new QStandardItem(text);
    it->setData(v, Qt::UserRole);
    it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    it->setEditable(false);
    return it;
}

QStandardItem* textItem(const QString& text) {
    auto* it = new QStandardItem(text);
    it->setData(text, Qt::UserRole);
    it->setEditable(false);
    return it;
}

QColor fateColour(const std::string& cls) {
    if (cls == "removed") return QColor(0x2e, 0x8b, 0x57);
    if (cls == "shrunk") return QColor(0x66, 0xa8, 0x3a);
    if (cls == "grew") return QColor(0xd9, 0x6c, 0x1e);
    if (cls == "new") return QColor(0xc0, 0x39, 0x2b);
    return QColor(0x80, 0x80, 0x80);
}

// A window's fate and an op's status are ids in the JSON (what a script matches on); a cell is read, so it is
// written in the window's language. Unknown ids are shown as they are.
QString fateText(const std::string& cls) {
    if (cls == "removed") return CompareView::tr("removed", "a bubble window's fate");
    if (cls == "shrunk") return CompareView::tr("shrunk", "a bubble window's fate");
    if (cls == "grew") return CompareView::tr("grew", "a bubble window's fate");
    if (cls == "new") return CompareView::tr("new", "a bubble window's fate");
    if (cls == "unchanged") return CompareView::tr("unchanged", "a bubble window's fate");
    return coreText(cls);
}

// A step figure's name: the core names it in English (compareFigureKeys, also for the JSON) with the words of
// its message catalog, so a cell in Chinese takes the catalog's.
QString figureText(const std::string& name) {
    if (currentLanguage() == Language::Chinese)
        if (const char* zh = findTranslation(name, Language::Chinese)) return QString::fromUtf8(zh);
    return coreText(name);
}

QString statusText(const std::string& status) {
    if (status == "changed") return CompareView::tr("changed", "an op's status");
    if (status == "unchanged") return CompareView::tr("unchanged", "an op's status");
    if (status == "new") return CompareView::tr("new", "an op's status");
    if (status == "removed") return CompareView::tr("removed", "an op's status");
    return coreText(status);
}

// The rank of `found` that corresponds to the base: the same label, else the only / first rank.
const RankFolder* pickRank(const std::vector<RankFolder>& ranks, const std::string& baseLabel) {
    for (const auto& r : ranks)
        if (r.label == baseLabel) return &r;
    return ranks.empty() ? nullptr : &ranks.front();
}

int rankIdOf(const std::string& folder, const Profile& profile, const AnalysisResult& result) {
    const DiscoveryResult found = discoverProfiles(folder);
    if (found.ranks.empty()) return -1;
    return summarizeRank(found.ranks.front(), profile, result).rankId;
}

} // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent), job_(std::make_unique<Job>(this)) {
    qRegisterMetaType<bs::ui::CompareOutcome>("bs::ui::CompareOutcome");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    status_ = new QLabel(tr("File \u25b8 Compare with\u2026 compares the open rank (base) with another profile (new)."), this);
    status_->setWordWrap(true);
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(240);
    progress_->setVisible(false);
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setVisible(false);
    connect(cancel_, &QPushButton::clicked, this, &CompareView::cancel);
    row->addWidget(status_, 1);
    row->addWidget(progress_);
    row->addWidget(cancel_);
    layout->addLayout(row);

    auto* split = new QSplitter(Qt::Vertical, this);
    layout->addWidget(split, 1);
    auto* top = new QSplitter(Qt::Horizontal, split);
    verdict_ = new QTextBrowser(top);
    verdict_->setObjectName(QStringLiteral("compareVerdict"));
    verdict_->setOpenLinks(false);
    tabs_ = new QTabWidget(top);

    steps_ = new QTableWidget(tabs_);
    steps_->setColumnCount(7);
    steps_->verticalHeader()->setVisible(false);
    steps_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    steps_->setSelectionBehavior(QAbstractItemView::SelectRows);
    steps_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    tabs_->addTab(steps_, tr("Steps"));

    auto* opsBox = new QWidget(tabs_);
    auto* opsLayout = new QVBoxLayout(opsBox);
    opsLayout->setContentsMargins(0, 0, 0, 0);
    opsFilter_ = new QLineEdit(opsBox);
    opsFilter_->setClearButtonEnabled(true);
    opsLayout->addWidget(opsFilter_);
    opsModel_ = new QStandardItemModel(this);
    opsProxy_ = new QSortFilterProxyModel(this);
    opsProxy_->setSourceModel(opsModel_);
    opsProxy_->setSortRole(Qt::UserRole);
    opsProxy_->setFilterKeyColumn(-1);
    opsProxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(opsFilter_, &QLineEdit::textChanged, opsProxy_, &QSortFilterProxyModel::setFilterFixedString);
    ops_ = new QTableView(opsBox);
    ops_->setModel(opsProxy_);
    ops_->setSortingEnabled(true);
    ops_->setSelectionBehavior(QAbstractItemView::SelectRows);
    ops_->verticalHeader()->setVisible(false);
    ops_->setAlternatingRowColors(true);
    opsModel_->setColumnCount(11); // the header texts come in retranslate(); the sections exist for their modes
    ops_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    opsLayout->addWidget(ops_);
    tabs_->addTab(opsBox, tr("Ops"));

    bubbles_ = new QTableWidget(tabs_);
    bubbles_->setColumnCount(10);
    bubbles_->verticalHeader()->setVisible(false);
    bubbles_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    bubbles_->setSelectionBehavior(QAbstractItemView::SelectRows);
    bubbles_->setSelectionMode(QAbstractItemView::SingleSelection);
    bubbles_->horizontalHeader()->setSectionResizeMode(5, QHeaderView::Stretch);
    connect(bubbles_, &QTableWidget::currentCellChanged, this, [this](int r) {
        if (r >= 0) selectMatch(bubbles_->item(r, 0)->data(Qt::UserRole).toInt());
    });
    tabs_->addTab(bubbles_, tr("Bubbles"));
    retranslate();
    top->addWidget(verdict_);
    top->addWidget(tabs_);
    top->setStretchFactor(0, 2);
    top->setStretchFactor(1, 3);

    auto* lanes = new QWidget(split);
    auto* lanesLayout = new QVBoxLayout(lanes);
    lanesLayout->setContentsMargins(0, 0, 0, 0);
    lanesLayout->setSpacing(2);
    baseLabel_ = new QLabel(lanes);
    newLabel_ = new QLabel(lanes);
    baseTimeline_ = new TimelineWidget(lanes);
    newTimeline_ = new TimelineWidget(lanes);
    baseTimeline_->setObjectName(QStringLiteral("compareBaseTimeline"));
    newTimeline_->setObjectName(QStringLiteral("compareNewTimeline"));
    lanesLayout->addWidget(baseLabel_);
    lanesLayout->addWidget(baseTimeline_, 1);
    lanesLayout->addWidget(newLabel_);
    lanesLayout->addWidget(newTimeline_, 1);
    split->addWidget(top);
    split->addWidget(lanes);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({330, 500});
}

CompareView::~CompareView() = default;

bool CompareView::isRunning() const {
    return job_->runner.isRunning();
}

void CompareView::cancel() {
    job_->runner.cancel();
}

void CompareView::compare(std::shared_ptr<const Profile> baseProfile, std::shared_ptr<const AnalysisResult> baseAnalysis,
                          const QString& baseLabel, const QString& baseFolder, const QString& newPath) {
    baseProfile_ = std::move(baseProfile);
    baseAnalysis_ = std::move(baseAnalysis);
    status_->setText(tr("Comparing with %1 \u2026").arg(newPath));
    progress_->setValue(0);
    progress_->setVisible(true);
    cancel_->setVisible(true);
    auto work = [this, base = baseProfile_, baseResult = baseAnalysis_, bl = baseLabel.toStdString(),
                 bf = baseFolder.toStdString(), np = newPath.toStdString()](
                    const std::atomic<bool>& cancelled, const BackgroundRunner<CompareOutcome>::Poster& post) {
        CompareOutcome out;
        const DiscoveryResult found = discoverProfiles(np);
        std::vector<RankFolder> ranks;
        for (const auto& r : found.ranks)
            if (isRankFolder(r)) ranks.push_back(r);
        if (ranks.empty()) ranks = found.ranks;
        const std::string shortLabel = bl.substr(bl.find_last_of('/') == std::string::npos ? 0 : bl.find_last_of('/') + 1);
        const RankFolder* rank = pickRank(ranks, shortLabel);
        if (!rank) {
            out.error = coreText(found.error);
            return out;
        }
        LoadControl ctl;
        ctl.cancel = &cancelled;
        QElapsedTimer throttle;
        throttle.start();
        ctl.progress = [this, &post, &throttle](const std::string& stage, std::uint64_t done, std::uint64_t total) {
            if (throttle.elapsed() < 50 && done < total) return;
            throttle.restart();
            const int permille = total ? static_cast<int>(done * 1000 / total) : 0;
            post([this, permille] { progress_->setValue(permille); });
            (void)stage;
        };
        try {
            LoadResult loaded = loadRank(*rank, ctl);
            if (loaded.cancelled) {
                out.cancelled = true;
                return out;
            }
            if (loaded.tooLarge || !loaded.hasAnyData || !loaded.profile) {
                out.error = coreText(loaded.tooLarge && loaded.profile && !loaded.profile->loadFindings.empty()
                                                       ? loaded.profile->loadFindings.front().seen
                                                       : noDataMessage(*rank, loaded));
                return out;
            }
            auto analysis = std::make_shared<AnalysisResult>(analyzeProfile(*loaded.profile));
            const int baseId = rankIdOf(bf, *base, *baseResult);
            const int newId = summarizeRank(*rank, *loaded.profile, *analysis).rankId;
            CompareSide b = digestForCompare(*base, *baseResult, bl, bf, baseId);
            CompareSide n = digestForCompare(*loaded.profile, *analysis, rank->label, rank->root, newId);
            out.comparison = std::make_shared<const Comparison>(compareSides(std::move(b), std::move(n)));
            out.newLabel = coreText(rank->label);
            out.newProfile = std::shared_ptr<const Profile>(std::move(loaded.profile));
            out.newAnalysis = analysis;
        } catch (const std::bad_alloc&) {
            out.error = tr("Memory ran out while loading %1 for the comparison.").arg(coreText(rank->root));
        }
        return out;
    };
    job_->runner.start(work, [this](const CompareOutcome& outcome) { onFinished(outcome); });
}

void CompareView::retranslate() {
    cancel_->setText(tr("Cancel"));
    steps_->setHorizontalHeaderLabels({tr("Dominant step group"), tr("Base avg"), tr("New avg"), tr("\u0394 avg"),
                                       tr("\u0394 %"), tr("Base P50"), tr("New P50")});
    opsFilter_->setPlaceholderText(tr("Filter ops by name, task type or status (changed, new, removed, unchanged)"));
    opsModel_->setHorizontalHeaderLabels({tr("Op"), tr("Task type"), tr("Status"), tr("Calls base"), tr("Calls new"),
                                          tr("Total base (ms)"), tr("Total new (ms)"), tr("\u0394 total (ms)"),
                                          tr("\u0394 %"), tr("Avg base (\u00b5s)"), tr("Avg new (\u00b5s)")});
    bubbles_->setHorizontalHeaderLabels({tr("Fate"), tr("Base"), tr("New"), tr("Scope"), tr("Step"),
                                         tr("Between (before \u2192 after, #)"), tr("Base (ms)"),
                                         tr("New (ms)"), tr("\u0394 (ms)"), tr("\u0394 %")});
    tabs_->setTabText(0, tr("Steps"));
    tabs_->setTabText(1, tr("Ops"));
    tabs_->setTabText(2, tr("Bubbles"));
}

void CompareView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() != QEvent::LanguageChange) return;
    retranslate();
    // The comparison in the new language (verdict, tables), or the hint when there is none yet.
    if (comparison_ && !isRunning())
        showComparison();
    else if (!isRunning() && !comparison_)
        status_->setText(tr("File \u25b8 Compare with\u2026 compares the open rank (base) with another profile (new)."));
}

void CompareView::onFinished(const CompareOutcome& outcome) {
    progress_->setVisible(false);
    cancel_->setVisible(false);
    if (outcome.cancelled) {
        status_->setText(tr("Comparison cancelled."));
        emit comparisonFinished(false, status_->text());
        return;
    }
    if (!outcome.comparison) {
        status_->setText(tr("Not compared: %1").arg(outcome.error));
        emit comparisonFinished(false, status_->text());
        return;
    }
    comparison_ = outcome.comparison;
    newProfile_ = outcome.newProfile;
    newAnalysis_ = outcome.newAnalysis;
    showComparison();
    emit comparisonFinished(true, status_->text());
}

void CompareView::showComparison() {
    const Comparison& c = *comparison_;
    status_->setText(tr("Base: %1 \u2014 new: %2").arg(coreText(c.base.folder), coreText(c.next.folder)));
    QString html;
    if (!c.warnings.empty()) {
        html += QStringLiteral("<p style='color:#b35900'><b>%1</b></p><ul>").arg(tr("Not the same scope"));
        for (const auto& w : c.warnings)
            html += QStringLiteral("<li style='color:#b35900'>%1</li>").arg(esc(w.message));
        html += QStringLiteral("</ul>");
    }
    html += QStringLiteral("<p><b>%1</b></p><ul>").arg(tr("Verdict"));
    for (const auto& v : c.verdict)
        html += QStringLiteral("<li>%1</li>").arg(esc(v));
    html += QStringLiteral("</ul>");
    if (!c.topFates.empty()) {
        html += QStringLiteral("<p><b>%1</b></p><ul>").arg(tr("The base's top bubbles"));
        for (const auto& f : c.topFates)
            html += QStringLiteral("<li>%1</li>").arg(esc(f.sentence));
        html += QStringLiteral("</ul>");
    }
    for (const auto& n : c.notes)
        html += QStringLiteral("<p><i>%1</i></p>").arg(esc(n));
    verdict_->setHtml(html);
    fillSteps();
    fillOps();
    fillBubbles();
    baseTimeline_->setModel(baseProfile_, baseAnalysis_);
    newTimeline_->setModel(newProfile_, newAnalysis_);
    if (bubbles_->rowCount() > 0) bubbles_->selectRow(0);
}

void CompareView::fillSteps() {
    const Comparison& c = *comparison_;
    steps_->setRowCount(static_cast<int>(c.figures.size()));
    for (int r = 0; r < static_cast<int>(c.figures.size()); ++r) {
        const FigureDelta& f = c.figures[static_cast<std::size_t>(r)];
        const int d = decimalsFor(f.unit);
        const QString unit = f.unit == "ms" ? QStringLiteral(" (ms)") : QString();
        steps_->setItem(r, 0, cell(figureText(f.name) + unit, Qt::AlignLeft | Qt::AlignVCenter));
        if (!f.known) {
            steps_->setItem(r, 1, cell(tr("not known on both sides")));
            for (int k = 2; k < 7; ++k)
                steps_->setItem(r, k, cell(QString()));
            continue;
        }
        steps_->setItem(r, 1, cell(number(f.baseAvg, d)));
        steps_->setItem(r, 2, cell(number(f.newAvg, d)));
        steps_->setItem(r, 3, cell(signedNumber(f.deltaAvg, d)));
        steps_->setItem(r, 4, cell(percent(f.deltaAvgPct)));
        steps_->setItem(r, 5, cell(number(f.baseP50, d)));
        steps_->setItem(r, 6, cell(number(f.newP50, d)));
    }
    steps_->resizeColumnsToContents();
    steps_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
}

void CompareView::fillOps() {
    const Comparison& c = *comparison_;
    opsModel_->removeRows(0, opsModel_->rowCount());
    for (const OpDelta& o : c.ops) {
        QList<QStandardItem*> row;
        row << textItem(coreText(o.name)) << textItem(coreText(o.taskType))
            << textItem(statusText(o.status))
            << numberItem(static_cast<double>(o.baseCalls), QString::number(o.baseCalls))
            << numberItem(static_cast<double>(o.newCalls), QString::number(o.newCalls))
            << numberItem(static_cast<double>(o.baseTotal) / 1e6, number(static_cast<double>(o.baseTotal) / 1e6, 3))
            << numberItem(static_cast<double>(o.newTotal) / 1e6, number(static_cast<double>(o.newTotal) / 1e6, 3))
            << numberItem(static_cast<double>(o.deltaTotal) / 1e6, signedNumber(static_cast<double>(o.deltaTotal) / 1e6, 3))
            << numberItem(o.deltaTotalPct.value_or(0), percent(o.deltaTotalPct))
            << numberItem(o.baseAvgUs, number(o.baseAvgUs, 2)) << numberItem(o.newAvgUs, number(o.newAvgUs, 2));
        if (o.status != "unchanged")
            row[2]->setForeground(o.status == "removed" || (o.status == "changed" && o.deltaTotal < 0)
                                      ? QColor(0x2e, 0x8b, 0x57)
                                      : QColor(0xc0, 0x39, 0x2b));
        opsModel_->appendRow(row);
    }
    // The core's order (largest |Δ total| first) until the user sorts by a column.
    ops_->horizontalHeader()->setSortIndicator(-1, Qt::DescendingOrder);
    opsProxy_->sort(-1);
    ops_->resizeColumnsToContents();
    ops_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
}

void CompareView::fillBubbles() {
    const Comparison& c = *comparison_;
    bubbles_->setRowCount(0);
    bubbles_->setRowCount(static_cast<int>(c.matches.size()));
    for (int r = 0; r < static_cast<int>(c.matches.size()); ++r) {
        const WindowMatch& m = c.matches[static_cast<std::size_t>(r)];
        const CompareWindow* b = m.base >= 0 ? &c.base.windows[static_cast<std::size_t>(m.base)] : nullptr;
        const CompareWindow* n = m.next >= 0 ? &c.next.windows[static_cast<std::size_t>(m.next)] : nullptr;
        const CompareWindow* w = b ? b : n;
        auto* fate = cell(fateText(m.cls), Qt::AlignLeft | Qt::AlignVCenter);
        fate->setData(Qt::UserRole, r);
        fate->setForeground(fateColour(m.cls));
        QFont bold = fate->font();
        bold.setBold(true);
        fate->setFont(bold);
        bubbles_->setItem(r, 0, fate);
        bubbles_->setItem(r, 1, cell(b ? coreText(b->id) : QString(), Qt::AlignLeft | Qt::AlignVCenter));
        bubbles_->setItem(r, 2, cell(n ? coreText(n->id) : QString(), Qt::AlignLeft | Qt::AlignVCenter));
        bubbles_->setItem(r, 3, cell(coreText(w->scope), Qt::AlignLeft | Qt::AlignVCenter));
        bubbles_->setItem(r, 4, cell(w->step >= 0 ? QString::number(w->step) : QStringLiteral("\u2014")));
        QString between = coreText(w->before) + QStringLiteral(" \u2192 ") + coreText(w->after);
        if (w->stepIndex >= 0) between += QStringLiteral(" (#%1)").arg(w->occurrence + 1);
        auto* pos = cell(between, Qt::AlignLeft | Qt::AlignVCenter);
        pos->setToolTip(between);
        bubbles_->setItem(r, 5, pos);
        bubbles_->setItem(r, 6, cell(b ? number(static_cast<double>(b->dur) / 1e6, 3) : QString()));
        bubbles_->setItem(r, 7, cell(n ? number(static_cast<double>(n->dur) / 1e6, 3) : QString()));
        bubbles_->setItem(r, 8, cell(b && n ? signedNumber(static_cast<double>(m.deltaDur) / 1e6, 3) : QString()));
        bubbles_->setItem(r, 9, cell(b && n ? percent(m.deltaPct) : QString()));
    }
    bubbles_->resizeColumnsToContents();
    bubbles_->horizontalHeader()->setSectionResizeMode(5, QHeaderView::Stretch);
}

void CompareView::selectMatch(int match) {
    if (!comparison_ || match < 0 || match >= static_cast<int>(comparison_->matches.size())) return;
    const Comparison& c = *comparison_;
    const WindowMatch& m = c.matches[static_cast<std::size_t>(match)];
    if (bubbles_->currentRow() != match) {
        const QSignalBlocker block(bubbles_);
        bubbles_->selectRow(match);
    }
    const CompareWindow* b = m.base >= 0 ? &c.base.windows[static_cast<std::size_t>(m.base)] : nullptr;
    const CompareWindow* n = m.next >= 0 ? &c.next.windows[static_cast<std::size_t>(m.next)] : nullptr;
    // The step of the other side: the same step number, else the same index.
    auto counterpart = [](const AnalysisResult& a, const CompareWindow* w) -> const Step* {
        if (!w || w->stepIndex < 0) return nullptr;
        for (const auto& s : a.steps.steps)
            if (s.number == w->step) return &s;
        if (static_cast<std::size_t>(w->stepIndex) < a.steps.steps.size())
            return &a.steps.steps[static_cast<std::size_t>(w->stepIndex)];
        return nullptr;
    };
    const Step* stepB = b ? counterpart(*baseAnalysis_, b) : counterpart(*baseAnalysis_, n);
    const Step* stepN = n ? counterpart(*newAnalysis_, n) : counterpart(*newAnalysis_, b);
    if (b && b->stepIndex >= 0) stepB = &baseAnalysis_->steps.steps[static_cast<std::size_t>(b->stepIndex)];
    if (n && n->stepIndex >= 0) stepN = &newAnalysis_->steps.steps[static_cast<std::size_t>(n->stepIndex)];
    baseTimeline_->selectBubble(m.base);
    newTimeline_->selectBubble(m.next);
    const QString baseSide = tr("<b>Base</b> %1").arg(esc(c.base.label)), newSide = tr("<b>New</b> %1").arg(esc(c.next.label));
    baseLabel_->setText(baseSide);
    newLabel_->setText(newSide);
    if (!stepB || !stepN) return; // a global window: each timeline shows its own
    // Both views show the same span measured from their step's start: the union of the windows' offsets,
    // padded. A window that only one side has is placed in the other side's step at the same offset; when
    // that step ends before it (a faster step), both sides measure from the step's end instead.
    TimeNs lo = 0, hi = 0;
    bool any = false;
    auto extend = [&](const CompareWindow* w, const Step* s) {
        if (!w) return;
        const TimeNs a = w->start - s->start, z = a + w->dur;
        lo = any ? std::min(lo, a) : a;
        hi = any ? std::max(hi, z) : z;
        any = true;
    };
    extend(b, stepB);
    extend(n, stepN);
    const Step* lone = !b ? stepB : !n ? stepN : nullptr; // the side without the window
    const CompareWindow* present = b ? b : n;
    // The lone side: the kernels around the window where it was (or will be) — the kernel named as the one
    // after it, where it follows the kernel named as the one before it, at the same occurrence in the step.
    std::optional<TimeNs> anchor;
    if (lone) {
        const Profile& p = lone == stepB ? *baseProfile_ : *newProfile_;
        auto k = std::lower_bound(p.kernels.begin(), p.kernels.end(), lone->start,
                                  [](const Kernel& x, TimeNs t) { return x.start < t; });
        std::string_view prev;
        std::size_t seen = 0;
        for (; k != p.kernels.end() && k->start < lone->end && !anchor; ++k) {
            const std::string_view name = p.str(k->name);
            if (prev == present->before && name == present->after && seen++ == present->occurrence) anchor = k->start;
            prev = name;
        }
    }
    const bool fromEnd = lone && !anchor && lo > lone->service();
    const TimeNs pad = std::max<TimeNs>((hi - lo) / 2, 20'000);
    const Step* ref = b ? stepB : stepN;
    // Each side's origin (the time its view is measured from) and the words saying how it was chosen.
    auto place = [&](QLabel* label, const QString& side, const Step* s, const Step* other) -> TimeNs {
        if (s == lone && anchor) {
            // The kernel after the window sits where the window ends on the other side.
            label->setText(tr("%1 \u2014 %2: no window here; aligned on the kernel after it (%3)")
                               .arg(side, coreText(s->label), coreText(present->after).toHtmlEscaped()));
            return *anchor - (present->start + present->dur - ref->start);
        }
        label->setText(fromEnd && s == lone
                           ? tr("%1 \u2014 %2: the window's place measured from the step's end (this step is %3 ms, "
                                "shorter than the window's offset in the other)")
                                 .arg(side, coreText(s->label), number(static_cast<double>(s->service()) / 1e6, 3))
                           : tr("%1 \u2014 %2, from %3 ms after the step's start")
                                 .arg(side, coreText(s->label), number(static_cast<double>(lo) / 1e6, 3)));
        return fromEnd ? s->end - (other->end - other->start) : s->start;
    };
    // From the end: the offsets are taken on the side that has the window (its step is the reference).
    const TimeNs originB = place(baseLabel_, baseSide, stepB, ref), originN = place(newLabel_, newSide, stepN, ref);
    baseTimeline_->setView(originB + lo - pad, originB + hi + pad);
    newTimeline_->setView(originN + lo - pad, originN + hi + pad);
    // A view the timeline held inside its data (near the capture's start or end) is shared by the other, so
    // both keep the same span at the same offsets.
    const TimeNs relLo = std::max(baseTimeline_->viewStart() - originB, newTimeline_->viewStart() - originN);
    const TimeNs relHi = std::min(baseTimeline_->viewEnd() - originB, newTimeline_->viewEnd() - originN);
    if (relHi > relLo) {
        baseTimeline_->setView(originB + relLo, originB + relHi);
        newTimeline_->setView(originN + relLo, originN + relHi);
    }
}

} // namespace bs::ui
