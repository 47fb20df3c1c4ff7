#include "panes/graph_breaks_pane.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QUrl>

#include "model/graph_breaks_model.h"

namespace fusescope::gui {

GraphBreaksPane::GraphBreaksPane(SelectionContext* context, QWidget* parent)
    : Pane(context, parent), view_(new QTableView(this)), details_(new QTextBrowser(this)) {
    view_->setModel(new GraphBreaksModel(&context->store(), this));
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
    const QStringList hints = index.data(GraphBreaksModel::HintsRole).toStringList();
    if (!hints.isEmpty()) {
        html += "<p>" + tr("Hints:") + "</p><ul>";
        for (const QString& hint : hints) html += "<li>" + text(hint) + "</li>";
        html += "</ul>";
    }
    if (const QString context = index.data(GraphBreaksModel::ContextRole).toString(); !context.isEmpty())
        html += "<p><i>" + tr("Developer debug context:") + "</i> " + text(context) + "</p>";
    if (!link.isEmpty())
        html += QString("<p>%1 <a href=\"%2\">%3</a></p>")
                    .arg(tr("More about this graph break:"), link.toString(QUrl::FullyEncoded), link.toString().toHtmlEscaped());
    details_->setHtml(html);
}

}  // namespace fusescope::gui
