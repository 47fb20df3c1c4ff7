#include "panes/graph_breaks_pane.h"

#include <QHeaderView>
#include <QTableView>

#include "model/graph_breaks_model.h"

namespace fusescope::gui {

GraphBreaksPane::GraphBreaksPane(SelectionContext* context, QWidget* parent) : Pane(context, parent), view_(new QTableView(this)) {
    view_->setModel(new GraphBreaksModel(&context->store(), this));
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->verticalHeader()->hide();
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    setContent(view_);
    connect(view_, &QTableView::activated, context,
            [context](const QModelIndex& index) { context->showScriptLine(index.data(GraphBreaksModel::LineRole).toInt()); });
}

}  // namespace fusescope::gui
