#include "panes/fusion_pane.h"

#include "views/fusion_stepper.h"

namespace fusescope::gui {

FusionPane::FusionPane(SelectionContext* context, QWidget* parent)
    : Pane(context, parent), stepper_(new FusionStepper(&context->store(), this)) {
    setContent(stepper_, GraphPicker::Yes);
    connect(stepper_, &FusionStepper::nodeClicked, context, &SelectionContext::selectSchedulerNode);
    connect(stepper_, &FusionStepper::stepChanged, context,
            [context](int, const QString& node1, const QString& node2) { context->showFusionPair(node1, node2); });
}

void FusionPane::showCompile(const CompileArtifacts& a) {
    showEmptyNote(whyNoLoopIr(a));
    stepper_->setCompile(a.compileId, a.graphName, a.provenance);
}

}  // namespace fusescope::gui
