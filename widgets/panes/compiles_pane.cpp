#include "panes/compiles_pane.h"

#include <QTreeView>

#include "model/compiles_model.h"

namespace fusescope::gui {

CompilesPane::CompilesPane(SelectionContext* context, QWidget* parent)
    : Pane(context, parent), model_(new CompilesModel(&context->store(), this)), view_(new QTreeView(this)) {
    view_->setModel(model_);
    view_->setUniformRowHeights(true);
    setContent(view_);
    connect(view_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& index) { this->context().setCompileId(model_->compileId(index)); });
}

void CompilesPane::showCompile(const CompileArtifacts& a) {
    QModelIndex index = model_->indexForCompileId(a.compileId);
    if (index.isValid() && view_->currentIndex() != index) view_->setCurrentIndex(index);
}

}  // namespace fusescope::gui
