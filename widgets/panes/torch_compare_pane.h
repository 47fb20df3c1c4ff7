#pragma once
// The Ours vs PyTorch dock (TorchCompareView): our run's compiles paired with real PyTorch's
// run of the same script (TorchSide). Picking a pair selects our compile everywhere; a
// compile selected elsewhere selects its pair; PyTorch's side's progress and failures show
// above the table.

#include "panes/pane.h"

namespace fusescope::gui {

class TorchCompareView;
class TorchSide;

class TorchComparePane : public Pane {
    Q_OBJECT
public:
    TorchComparePane(SelectionContext* context, TorchSide* torchSide, QWidget* parent = nullptr);

    TorchCompareView* view() const { return view_; }

protected:
    void showCompile(const CompileArtifacts& compile) override;

private:
    TorchCompareView* view_;
};

}  // namespace fusescope::gui
