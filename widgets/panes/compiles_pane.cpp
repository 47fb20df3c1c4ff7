#include "panes/compiles_pane.h"

#include <QHeaderView>
#include <QTabWidget>
#include <QTreeView>

#include "model/compiles_model.h"
#include "views/stack_trie_view.h"

namespace fusescope::gui {

CompilesPane::CompilesPane(SelectionContext* context, QWidget* parent)
    : Pane(context, parent),
      model_(new CompilesModel(&context->store(), this)),
      view_(new QTreeView(this)),
      stacks_(new StackTrieView(&context->store(), this)),
      tabs_(new QTabWidget(this)) {
    view_->setModel(model_);
    view_->setUniformRowHeights(true);
    // The numbers fit their contents, the status "graph break" (longer ones are elided, whole
    // in the tooltip); the function name takes what is left (its tooltip has it whole), so a
    // narrow dock still shows ops and compile time, and "GPT.forward" its name.
    QHeaderView* header = view_->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(CompilesModel::NameColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(CompilesModel::StatusColumn, QHeaderView::Interactive);
    header->resizeSection(CompilesModel::StatusColumn, view_->fontMetrics().horizontalAdvance(CompilesModel::tr("graph break")) + 12);
    view_->setTextElideMode(Qt::ElideRight);
    header->setMinimumSectionSize(24);
    view_->setIndentation(12);
    tabs_->addTab(view_, tr("Functions"));
    tabs_->addTab(stacks_, tr("Call stacks"));
    tabs_->setTabToolTip(1, tr("Each compile under the calls that led to it, outermost first"));
    tabs_->setDocumentMode(true);
    setContent(tabs_);
    connect(stacks_, &StackTrieView::compileSelected, this, [this](const QString& id) { this->context().setCompileId(id); });
    connect(view_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& index) { this->context().setCompileId(model_->compileId(index)); });
}

void CompilesPane::showCompile(const CompileArtifacts& a) {
    QModelIndex index = model_->indexForCompileId(a.compileId);
    if (index.isValid() && view_->currentIndex() != index) view_->setCurrentIndex(index);
    if (index.isValid()) view_->expand(index.parent());  // a rebuilt tree (a bundle opened again) starts collapsed
    stacks_->showCompile(a.compileId);
}

}  // namespace fusescope::gui
