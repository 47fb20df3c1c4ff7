#pragma once
// The Fusion dock: the fusion stepper of the compile on show. A step shows its pair in the
// other panes; a scheduler node clicked in its graph is selected.

#include "panes/pane.h"

namespace fusescope::gui {

class FusionStepper;

class FusionPane : public Pane {
    Q_OBJECT
public:
    explicit FusionPane(SelectionContext* context, QWidget* parent = nullptr);

    FusionStepper* stepper() const { return stepper_; }

protected:
    void showCompile(const CompileArtifacts& compile) override;

private:
    FusionStepper* stepper_;
};

}  // namespace fusescope::gui
