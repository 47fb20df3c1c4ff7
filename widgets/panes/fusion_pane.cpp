#include "panes/fusion_pane.h"

#include "engine/engine_client.h"
#include "model/json_fields.h"
#include "views/fusion_stepper.h"

namespace fusescope::gui {

namespace {

// explain_fusion's answer in words (docs/protocol.md).
QString explanationText(const nlohmann::json& result) {
    QString n1 = qstringField(result, "node1"), n2 = qstringField(result, "node2"), reason = qstringField(result, "reason");
    bool fused = result.value("fused", false) == true;
    if (fused) return FusionPane::tr("%1 and %2 are one kernel (%3): %4").arg(n1, n2, qstringField(result, "kernel1"), reason);
    return FusionPane::tr("%1 and %2 are separate kernels: %3").arg(n1, n2, reason);
}

}  // namespace

FusionPane::FusionPane(SelectionContext* context, EngineClient* engine, QWidget* parent)
    : Pane(context, parent), stepper_(new FusionStepper(&context->store(), this)) {
    setContent(stepper_, GraphPicker::Yes);
    connect(stepper_, &FusionStepper::nodeClicked, context, &SelectionContext::selectSchedulerNode);
    connect(stepper_, &FusionStepper::stepChanged, context,
            [context](int, const QString& node1, const QString& node2) { context->showFusionPair(node1, node2); });
    connect(stepper_, &FusionStepper::explainRequested, this, [this, context, engine](const QString& node1, const QString& node2) {
        explainRequest_ = engine->explainFusion(context->compileId(), node1, node2);
    });
    connect(engine, &EngineClient::answered, this, [this](int id, const nlohmann::json& result) {
        if (id == explainRequest_) stepper_->showExplanation(explanationText(result));
    });
    connect(engine, &EngineClient::failed, this, [this](int id, const QString&, const QString& message) {
        if (id == explainRequest_) stepper_->showExplanation(message);
    });
}

void FusionPane::showCompile(const CompileArtifacts& a) {
    showEmptyNote(whyNoLoopIr(a));
    stepper_->setCompile(a.compileId, a.graphName, a.provenance);
}

}  // namespace fusescope::gui
