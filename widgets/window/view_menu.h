#pragma once
// The View menu: every dock's toggle (how a closed dock comes back), Reset Layout, and the
// interface's language (applied at the next start).

#include <functional>

#include <QCoreApplication>

class QMainWindow;
class QMenu;

namespace fusescope::gui {

class SavedLayout;

class ViewMenu {
    Q_DECLARE_TR_FUNCTIONS(ViewMenu)
public:
    // `say` puts a message in the status bar. Call once the docks exist.
    static void fill(QMenu* menu, QMainWindow* window, SavedLayout* layout, std::function<void(const QString&)> say);
};

}  // namespace fusescope::gui
