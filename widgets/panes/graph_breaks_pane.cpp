#include "panes/graph_breaks_pane.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QUrl>

#include "model/graph_breaks_model.h"
#include "views/empty_view_note.h"

namespace fusescope::gui {

GraphBreaksPane::GraphBreaksPane(SelectionContext* context, QWidget* parent)
    : Pane(context, parent), view_(new QTableView(this)), sorted_(new QSortFilterProxyModel(this)), details_(new QTextBrowser(this)) {
    auto* model = new GraphBreaksModel(&context->store(), this);
    sorted_->setSourceModel(model);
    sorted_->setSortRole(GraphBreaksModel::SortRole);
    sorted_->setDynamicSortFilter(true);
    view_->setModel(sorted_);
    // The reason is what the user reads: it takes the room; the source line (tooltip: whole)
    // gets what is left of a third, the rest fit their contents.
    QHeaderView* header = view_->horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(GraphBreaksModel::ReasonColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(GraphBreaksModel::SourceColumn, QHeaderView::Interactive);
    header->resizeSection(GraphBreaksModel::SourceColumn, 220);
    view_->setWordWrap(false);
    view_->setTextElideMode(Qt::ElideRight);
    view_->verticalHeader()->hide();
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    header->setSortIndicatorClearable(true);  // unsorted (the order of the run) until measured or clicked
    header->setSortIndicator(-1, Qt::AscendingOrder);
    view_->setSortingEnabled(true);
    connect(model, &QAbstractItemModel::dataChanged, this, &GraphBreaksPane::sortByCostOnceMeasured);
    connect(model, &QAbstractItemModel::modelReset, this, &GraphBreaksPane::sortByCostOnceMeasured);
    noteWhenEmpty(view_, &context->store(), [context] {
        return context->store().events().empty() ? tr("No run yet: graph breaks show here as the run reports them.")
                                                 : tr("No graph breaks in this run.");
    });
    details_->setObjectName("graphBreakDetails");
    details_->setOpenExternalLinks(true);
    details_->setPlaceholderText(tr("Select a graph break to see what PyTorch says of it."));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(view_);
    split->addWidget(details_);
    split->setStretchFactor(0, 1);  // the table and the selected break's words share the height
    split->setStretchFactor(1, 1);
    setContent(split);
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showDetails(current); });
    connect(view_, &QTableView::activated, context,
            [context](const QModelIndex& index) { context->showSourceLine(index.data(GraphBreaksModel::FileRole).toString(), index.data(GraphBreaksModel::LineRole).toInt()); });
}

void GraphBreaksPane::sortByCostOnceMeasured() {
    QHeaderView* header = view_->horizontalHeader();
    if (header->sortIndicatorSection() >= 0) return;  // the user's (or already by cost)
    for (int row = 0; row < sorted_->rowCount(); ++row)
        if (!sorted_->index(row, GraphBreaksModel::RankColumn).data().toString().isEmpty()) {
            view_->sortByColumn(GraphBreaksModel::RankColumn, Qt::AscendingOrder);
            return;
        }
}

void GraphBreaksPane::showDetails(const QModelIndex& index) {
    if (!index.isValid()) {
        details_->clear();
        return;
    }
    auto text = [](const QString& s) { return s.toHtmlEscaped(); };
    const QString gbId = index.data(GraphBreaksModel::GbIdRole).toString();
    const QUrl link = index.data(GraphBreaksModel::LinkRole).toUrl();
    QString html = "<p><b>" + text(index.siblingAtColumn(GraphBreaksModel::ReasonColumn).data().toString()) + "</b>";
    if (!gbId.isEmpty()) html += QString(" &nbsp;<a href=\"%1\">%2</a>").arg(link.toString(QUrl::FullyEncoded), gbId);
    // Dynamo's explanation keeps its own line breaks and indents (a branch's computation trace).
    html += "</p><p style=\"white-space: pre-wrap\">" + text(index.data(GraphBreaksModel::ExplanationRole).toString()) + "</p>";
    auto bulleted = [&](const QString& title, const QStringList& lines) {
        if (lines.isEmpty()) return;
        html += "<p>" + title + "</p><ul>";
        for (const QString& line : lines) html += "<li>" + text(line) + "</li>";
        html += "</ul>";
    };
    // The doctor's measures first: what the break costs decides whether to fix it.
    bulleted(tr("What it cost on this run:"), index.data(GraphBreaksModel::CostRole).toStringList());
    bulleted(tr("Hints:"), index.data(GraphBreaksModel::HintsRole).toStringList());
    if (const QString context = index.data(GraphBreaksModel::ContextRole).toString(); !context.isEmpty())
        html += "<p><i>" + tr("Developer debug context:") + "</i> " + text(context) + "</p>";
    if (!link.isEmpty())
        html += QString("<p>%1 <a href=\"%2\">%3</a></p>")
                    .arg(tr("More about this graph break:"), link.toString(QUrl::FullyEncoded), link.toString().toHtmlEscaped());
    details_->setHtml(html);
}

}  // namespace fusescope::gui
