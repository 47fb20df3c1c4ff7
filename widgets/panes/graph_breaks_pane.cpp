#include "panes/graph_breaks_pane.h"

#include <QHeaderView>
#include <QTableView>

#include "model/graph_breaks_model.h"

namespace fusescope::gui {

GraphBreaksPane::GraphBreaksPane(SelectionContext* context, QWidget* parent) : Pane(context, parent), view_(new QTableView(this)) {
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
    setContent(view_);
    connect(view_, &QTableView::activated, context,
            [context](const QModelIndex& index) { context->showSourceLine(index.data(GraphBreaksModel::FileRole).toString(), index.data(GraphBreaksModel::LineRole).toInt()); });
}

}  // namespace fusescope::gui
