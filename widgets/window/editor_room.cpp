#include "window/editor_room.h"

#include <algorithm>

#include <QDockWidget>
#include <QEvent>
#include <QList>
#include <QMainWindow>
#include <QTimer>

namespace fusescope::gui {

namespace {

constexpr double kEditorShare = 1.0 / 3;  // of the window's width, at least, after a resize
constexpr int kLeftFloor = 300, kRightFloor = 250;  // a dock column gives width down to these

}  // namespace

EditorRoom::EditorRoom(QMainWindow* window, QWidget* central) : QObject(window), window_(window), central_(central) {
    window->installEventFilter(this);
}

bool EditorRoom::eventFilter(QObject* watched, QEvent* event) {
    if (watched == window_ && event->type() == QEvent::Resize && !pending_) {
        pending_ = true;  // once the resize's layout pass has given the docks and the editor their sizes
        QTimer::singleShot(0, this, [this] {
            pending_ = false;
            makeRoom();
        });
    }
    return QObject::eventFilter(watched, event);
}

void EditorRoom::makeRoom() {
    int missing = static_cast<int>(window_->width() * kEditorShare) - central_->width();
    if (missing <= 0) return;
    // The columns of docks beside the editor, the right ones first: the graph reads well
    // narrower than the Compiles table, whose function names need its 300 pixels.
    struct Column {
        int left = 0, width = 0, floor = 0;
        QList<QDockWidget*> docks;
    };
    QList<Column> columns;
    for (Qt::DockWidgetArea area : {Qt::RightDockWidgetArea, Qt::LeftDockWidgetArea})
        for (QDockWidget* dock : window_->findChildren<QDockWidget*>()) {
            // A dock behind another's tab is "visible" but not on screen: its front tab stands for it.
            if (dock->isFloating() || dock->visibleRegion().isEmpty() || window_->dockWidgetArea(dock) != area) continue;
            int left = dock->mapTo(window_, QPoint(0, 0)).x();
            auto column = std::find_if(columns.begin(), columns.end(), [&](const Column& c) { return c.left == left; });
            if (column == columns.end())
                column = columns.insert(columns.end(), {left, dock->width(), area == Qt::LeftDockWidgetArea ? kLeftFloor : kRightFloor, {}});
            column->docks << dock;
        }
    QList<QDockWidget*> docks;
    QList<int> widths;
    for (Column& column : columns) {
        int given = std::clamp(column.width - column.floor, 0, missing);
        missing -= given;
        for (QDockWidget* dock : column.docks) {
            docks << dock;
            widths << column.width - given;
        }
    }
    if (!docks.isEmpty()) window_->resizeDocks(docks, widths, Qt::Horizontal);
}

}  // namespace fusescope::gui
