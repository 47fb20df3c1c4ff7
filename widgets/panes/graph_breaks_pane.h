#pragma once
// The Graph Breaks dock: every graph break of the run; activating one (double-click, Enter)
// shows its line in the editor.

#include "panes/pane.h"

class QTableView;

namespace fusescope::gui {

class GraphBreaksPane : public Pane {
    Q_OBJECT
public:
    explicit GraphBreaksPane(SelectionContext* context, QWidget* parent = nullptr);

    QTableView* view() const { return view_; }

private:
    QTableView* view_;
};

}  // namespace fusescope::gui
