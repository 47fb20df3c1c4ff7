#pragma once
// The Guards dock: the guards of the compile on show and the run's recompiles; activating
// one with a script line shows it in the editor.

#include "panes/pane.h"

namespace fusescope::gui {

class GuardsView;

class GuardsPane : public Pane {
    Q_OBJECT
public:
    explicit GuardsPane(SelectionContext* context, QWidget* parent = nullptr);

    GuardsView* view() const { return view_; }

private:
    GuardsView* view_;
};

}  // namespace fusescope::gui
