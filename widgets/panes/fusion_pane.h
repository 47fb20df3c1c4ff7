#pragma once
// The Fusion dock: the fusion stepper of the compile on show. A step shows its pair in the
// other panes; a scheduler node clicked in its graph is selected; "Why not fused?" asks the
// engine (explain_fusion) and shows its answer in words.

#include "panes/pane.h"

namespace fusescope::gui {

class EngineClient;
class FusionStepper;

class FusionPane : public Pane {
    Q_OBJECT
public:
    FusionPane(SelectionContext* context, EngineClient* engine, QWidget* parent = nullptr);

    FusionStepper* stepper() const { return stepper_; }

protected:
    void showCompile(const CompileArtifacts& compile) override;

private:
    FusionStepper* stepper_;
    int explainRequest_ = 0;  // the engine's answer to it goes to the stepper
};

}  // namespace fusescope::gui
