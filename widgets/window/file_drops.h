#pragma once
// Files dropped on the window or on the editor are opened (a script, bundle, trace log,
// profiler trace or TORCH_TRACE folder), where the editor would paste a dropped file's path.
// The window's own drag handlers call the two functions; the editor's drops come through the
// filter.

#include <QObject>
#include <QString>

class QDropEvent;

namespace fusescope::gui {

class MainWindow;

// Accepts a drag that carries a file the window opens.
void acceptOpenableDrag(QDropEvent& event);
// The first local file dropped, accepting the drop; "" when none.
QString takeDroppedFile(QDropEvent& event);

class EditorFileDrops : public QObject {
public:
    // `editor`: the editor's viewport, which would take drops first.
    EditorFileDrops(MainWindow* window, QWidget* editor);
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    MainWindow* window_;
};

}  // namespace fusescope::gui
