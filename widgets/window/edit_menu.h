#pragma once
// The Edit menu: Undo, Redo, Cut, Copy, Paste and Select All on the editor tab on show, then
// Find, Find Next, Find Previous and Replace through its find bar. Their shortcuts work where
// the focus is inside `scope` (the editor and its find bar), so a table keeps its own Ctrl+C
// and the graph pane its own Ctrl+F; chosen from the menu they act on the editor tab on show.

#include <QCoreApplication>

class QMenu;
class QWidget;

namespace fusescope::gui {

class FindBar;
class ScriptTabs;

class EditMenu {
    Q_DECLARE_TR_FUNCTIONS(EditMenu)
public:
    static void fill(QMenu* menu, ScriptTabs* tabs, FindBar* find, QWidget* scope);
};

}  // namespace fusescope::gui
