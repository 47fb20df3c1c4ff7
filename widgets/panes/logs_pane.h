#pragma once
// The Logs dock: the run's log records with a search box and level, artifact and compile
// filters (the compile filter follows the compile on show).

#include "panes/pane.h"

namespace fusescope::gui {

class LogsPane : public Pane {
    Q_OBJECT
public:
    explicit LogsPane(SelectionContext* context, QWidget* parent = nullptr);
};

}  // namespace fusescope::gui
