#pragma once
// The Compiles dock: every compiled function and its compiles; the current row is the
// compile on show, and picking one shows it everywhere.

#include "panes/pane.h"

class QTreeView;

namespace fusescope::gui {

class CompilesModel;

class CompilesPane : public Pane {
    Q_OBJECT
public:
    explicit CompilesPane(SelectionContext* context, QWidget* parent = nullptr);

    QTreeView* view() const { return view_; }

protected:
    void showCompile(const CompileArtifacts& compile) override;

private:
    CompilesModel* model_;
    QTreeView* view_;
};

}  // namespace fusescope::gui
