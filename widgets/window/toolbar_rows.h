#pragma once
// Keeps two toolbars of a window on one row while the window is wide enough for both, and
// puts the second under the first when it is not, so neither hides actions behind its
// overflow button (a 1024-pixel window).

#include <QObject>

class QMainWindow;
class QToolBar;

namespace fusescope::gui {

class ToolBarRows : public QObject {
public:
    ToolBarRows(QMainWindow* window, QToolBar* first, QToolBar* second);
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fit();

    QMainWindow* window_;
    QToolBar* first_;
    QToolBar* second_;
};

}  // namespace fusescope::gui
