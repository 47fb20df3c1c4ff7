#pragma once
// The Compiles dock: every compiled function and its compiles (Functions tab), or every
// compile under the call sites that led to it (Call stacks tab); the current row is the
// compile on show, and picking one shows it everywhere.

#include "panes/pane.h"

class QTreeView;
class QTabWidget;

namespace fusescope::gui {

class CompilesModel;
class StackTrieView;

class CompilesPane : public Pane {
    Q_OBJECT
public:
    explicit CompilesPane(SelectionContext* context, QWidget* parent = nullptr);

    QTreeView* view() const { return view_; }
    StackTrieView* stackTrie() const { return stacks_; }
    QTabWidget* tabs() const { return tabs_; }

protected:
    void showCompile(const CompileArtifacts& compile) override;

private:
    CompilesModel* model_;
    QTreeView* view_;
    StackTrieView* stacks_;
    QTabWidget* tabs_;
};

}  // namespace fusescope::gui
