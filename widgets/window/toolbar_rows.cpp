#include "window/toolbar_rows.h"

#include <QEvent>
#include <QMainWindow>
#include <QToolBar>

namespace fusescope::gui {

ToolBarRows::ToolBarRows(QMainWindow* window, QToolBar* first, QToolBar* second)
    : QObject(window), window_(window), first_(first), second_(second) {
    window->installEventFilter(this);
}

bool ToolBarRows::eventFilter(QObject*, QEvent* event) {
    // A layout request too: restoring a saved or the default layout puts the rows back as saved.
    const auto type = event->type();
    if (type == QEvent::Resize || type == QEvent::Show || type == QEvent::LayoutRequest) fit();
    return false;
}

void ToolBarRows::fit() {
    // Only while both sit in the top area: a toolbar moved elsewhere stays where the user put it.
    if (window_->toolBarArea(first_) != Qt::TopToolBarArea || window_->toolBarArea(second_) != Qt::TopToolBarArea) return;
    const bool fits = first_->sizeHint().width() + second_->sizeHint().width() <= window_->width();
    const bool broken = window_->toolBarBreak(second_);
    if (fits && broken) window_->removeToolBarBreak(second_);
    if (!fits && !broken) window_->insertToolBarBreak(second_);
}

}  // namespace fusescope::gui
