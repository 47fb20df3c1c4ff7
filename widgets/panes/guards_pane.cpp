#include "panes/guards_pane.h"

#include "views/guards_view.h"

namespace fusescope::gui {

GuardsPane::GuardsPane(SelectionContext* context, QWidget* parent)
    : Pane(context, parent), view_(new GuardsView(&context->store(), this)) {
    setContent(view_);
    connect(view_, &GuardsView::lineActivated, context, &SelectionContext::showSourceLine);
    connect(view_, &GuardsView::fixRequested, context, &SelectionContext::applyFix);
    connect(context, &SelectionContext::compileChanged, view_, &GuardsView::setCompileId);
}

}  // namespace fusescope::gui
