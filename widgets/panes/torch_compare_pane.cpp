#include "panes/torch_compare_pane.h"

#include "views/torch_compare_view.h"
#include "engine/torch_side.h"

namespace fusescope::gui {

TorchComparePane::TorchComparePane(SelectionContext* context, TorchSide* torchSide, QWidget* parent)
    : Pane(context, parent), view_(new TorchCompareView(&context->store(), &torchSide->store(), this)) {
    setContent(view_);
    connect(view_, &TorchCompareView::compileSelected, context, &SelectionContext::setCompileId);
    connect(torchSide, &TorchSide::progress, view_, &TorchCompareView::setTorchSource);
    connect(torchSide, &TorchSide::loaded, view_, &TorchCompareView::setTorchSource);
    connect(torchSide, &TorchSide::failed, this, [this](const QString& message) {
        view_->setTorchSource(tr("PyTorch's side failed: %1").arg(message.section('\n', 0, 0)));
    });
}

void TorchComparePane::showCompile(const CompileArtifacts&) { view_->showCompile(context().compileId()); }

}  // namespace fusescope::gui
