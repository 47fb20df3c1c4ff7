#include "panes/ranks_pane.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "model/trace_ranks.h"

namespace fusescope::gui {

namespace {

QString text(const std::string& s) { return QString::fromStdString(s); }

enum Column { RankColumn, CompilesColumn, BreaksColumn, RecompilesColumn, HitsColumn, MissesColumn, TimeColumn, DiffersColumn };

// The checks a rank is grouped apart from the first rank in.
QStringList checksDifferingFromFirst(const RankComparison& c, int rank) {
    QStringList names;
    for (const RankCheck& check : c.checks) {
        auto groupOf = [&check](int r) {
            return std::find_if(check.groups.begin(), check.groups.end(),
                                [r](const RankCheck::Group& g) { return std::find(g.ranks.begin(), g.ranks.end(), r) != g.ranks.end(); });
        };
        if (!c.ranks.empty() && groupOf(rank) != groupOf(c.ranks.front().rank)) names << text(check.name);
    }
    return names;
}

}  // namespace

RanksPane::RanksPane(SelectionContext* context, TraceRanks* ranks, QWidget* parent)
    : Pane(context, parent),
      ranks_(ranks),
      picker_(new QComboBox(this)),
      divergence_(new QLabel(this)),
      table_(new QTableWidget(this)),
      checks_(new QTreeWidget(this)) {
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 0);
    auto* row = new QHBoxLayout;
    picker_->setObjectName("rankPicker");
    picker_->setToolTip(tr("The rank whose log every pane shows"));
    row->addWidget(new QLabel(tr("Rank:"), content));
    row->addWidget(picker_);
    row->addStretch(1);
    layout->addLayout(row);
    divergence_->setObjectName("rankDivergence");
    divergence_->setWordWrap(true);
    divergence_->setTextFormat(Qt::RichText);
    divergence_->setTextInteractionFlags(Qt::TextBrowserInteraction);
    layout->addWidget(divergence_);

    table_->setObjectName("ranksTable");
    table_->setColumnCount(DiffersColumn + 1);
    table_->setHorizontalHeaderLabels({tr("Rank"), tr("Compiles"), tr("Graph breaks"), tr("Recompiles"), tr("Cache hits"),
                                       tr("Cache misses"), tr("Compile time"), tr("Differs in")});
    table_->horizontalHeaderItem(DiffersColumn)->setToolTip(tr("The checks across ranks this rank differs from the first rank in"));
    table_->setWordWrap(false);
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setToolTip(tr("Activate a rank (double-click, Enter) to show its log in every pane"));
    checks_->setObjectName("rankChecks");
    checks_->setHeaderLabels({tr("Check across ranks"), tr("What the ranks have")});
    checks_->setColumnCount(2);
    checks_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    auto* split = new QSplitter(Qt::Horizontal, content);  // a bottom dock is wide and low
    split->addWidget(table_);
    split->addWidget(checks_);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    setContent(content);

    connect(ranks_, &TraceRanks::changed, this, &RanksPane::fill);
    connect(picker_, &QComboBox::activated, this, [this](int index) { ranks_->request(picker_->itemData(index).toInt()); });
    connect(table_, &QTableWidget::activated, this,
            [this](const QModelIndex& index) { ranks_->request(table_->item(index.row(), RankColumn)->data(Qt::UserRole).toInt()); });
    connect(divergence_, &QLabel::linkActivated, this, &RanksPane::followLink);
    fill();
}

void RanksPane::fill() {
    const RankComparison* c = ranks_->comparison();
    if (!c) {
        showEmptyNote(tr("A distributed run's ranks show here side by side: open the TORCH_TRACE folder torchrun's processes wrote, "
                         "with a log per rank (dedicated_log_torch_trace_rank_N_*.log)."));
        return;
    }
    showEmptyNote({});
    {
        QSignalBlocker block(picker_);
        picker_->clear();
        for (const RankSummary& r : c->ranks) picker_->addItem(tr("rank %1").arg(r.rank), r.rank);
    }
    if (const auto& d = c->divergence) {
        const QString at = QString("%1:%2").arg(text(d->where.file)).arg(d->where.line);
        QString html = tr("<b>The ranks diverge first</b> at <a href=\"source:%1\">%2</a>: %3.")
                           .arg(at.toHtmlEscaped(), text(d->where.file).section('/', -1).toHtmlEscaped() + QString(":%1").arg(d->where.line),
                                text(d->summary).toHtmlEscaped());
        for (const auto& line : d->details) html += "<br>&nbsp;&nbsp;" + text(line).toHtmlEscaped();
        if (!d->ranksWithCompile.empty())
            html += "<br>" + tr("<a href=\"compile:%1:%2\">Show compile %2 on rank %1</a>")
                                 .arg(d->ranksWithCompile.front())
                                 .arg(text(d->compileId).toHtmlEscaped());
        divergence_->setText(html);
    } else {
        divergence_->setText(tr("<b>The ranks compiled alike:</b> every check is the same on every rank."));
    }
    table_->setRowCount(static_cast<int>(c->ranks.size()));
    for (int row = 0; row < table_->rowCount(); ++row) {
        const RankSummary& r = c->ranks[row];
        const QStringList values = {QString::number(r.rank), QString::number(r.compiles), QString::number(r.graphBreaks),
                                    QString::number(r.recompiles), QString::number(r.cacheHits), QString::number(r.cacheMisses),
                                    tr("%1 s").arg(r.compileSeconds, 0, 'f', 3), checksDifferingFromFirst(*c, r.rank).join(", ")};
        for (int column = 0; column < values.size(); ++column) {
            auto* item = new QTableWidgetItem(values[column]);
            if (column < DiffersColumn) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            else item->setToolTip(values[column]);
            table_->setItem(row, column, item);
        }
        table_->item(row, RankColumn)->setData(Qt::UserRole, r.rank);
    }
    checks_->clear();
    for (const RankCheck& check : c->checks) {
        const QString same = check.groups.empty() ? QString() : text(check.groups.front().value);
        auto* item = new QTreeWidgetItem(checks_, {text(check.name), check.diverges() ? tr("differ") : tr("same on every rank: %1").arg(same)});
        item->setToolTip(1, item->text(1));
        if (!check.diverges()) continue;
        item->setForeground(1, QColor(0xc0, 0x39, 0x2b));
        for (const auto& g : check.groups) {
            auto* group = new QTreeWidgetItem(item, {text(ranksNamed(g.ranks)), text(g.value)});
            group->setToolTip(1, text(g.value));
        }
        item->setExpanded(true);
    }
    showShownRank();
}

void RanksPane::showShownRank() {
    const int shown = ranks_->shownRank();
    picker_->setCurrentIndex(picker_->findData(shown));
    for (int row = 0; row < table_->rowCount(); ++row)
        for (int column = 0; column < table_->columnCount(); ++column) {
            QFont font = table_->item(row, column)->font();
            font.setBold(table_->item(row, RankColumn)->data(Qt::UserRole).toInt() == shown);
            table_->item(row, column)->setFont(font);
        }
}

void RanksPane::followLink(const QString& link) {
    if (link.startsWith("source:")) {  // source:FILE:LINE
        const QString where = link.mid(7);
        context().showSourceLine(where.section(':', 0, -2), where.section(':', -1).toInt());
    } else if (link.startsWith("compile:")) {  // compile:RANK:ID
        ranks_->request(link.section(':', 1, 1).toInt(), link.section(':', 2));
    }
}

}  // namespace fusescope::gui
