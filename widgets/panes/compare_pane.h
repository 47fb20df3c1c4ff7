#pragma once
// The Compare dock: two compiles' graph code, guards, IR or C++ as a diff (CompareView). It
// follows the selection: a recompile picked anywhere is compared with the compile before it
// (frame 0's compile 0/2 with 0/1); other compiles leave the pickers as they are.

#include "panes/pane.h"

namespace fusescope::gui {

class CompareView;

class ComparePane : public Pane {
    Q_OBJECT
public:
    explicit ComparePane(SelectionContext* context, QWidget* parent = nullptr);

    CompareView* view() const { return view_; }

protected:
    void showCompile(const CompileArtifacts& compile) override;

private:
    CompareView* view_;
    QString shownCompile_;  // showCompile also comes when the compile on show gains events
};

}  // namespace fusescope::gui
