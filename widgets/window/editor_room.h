#pragma once
// Keeps the editor in the middle readable when the window narrows: Qt gives a resize's
// pixels to the central widget alone, so a 1400-pixel layout shown at 1024 left the editor
// about 100 pixels wide between docks that kept theirs. After a resize that leaves the
// editor under a third of the window, the docks beside it give back width, the right ones
// first (down to 250 pixels), then the left ones (down to 300: the Compiles table's names).
// Moving a dock's splitter is the user's choice and left alone.

#include <QObject>

class QMainWindow;
class QWidget;

namespace fusescope::gui {

class EditorRoom : public QObject {
    Q_OBJECT
public:
    EditorRoom(QMainWindow* window, QWidget* central);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void makeRoom();

    QMainWindow* window_;
    QWidget* central_;
    bool pending_ = false;
};

}  // namespace fusescope::gui
