#include "window/saved_layout.h"

#include <algorithm>

#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QScreen>
#include <QSettings>
#include <QTimer>

namespace fusescope::gui {

namespace {

// Smaller than this, the editor is not a place to read a script (an elided name once
// squeezed it to 40 px).
constexpr int kEditorMinWidth = 120, kEditorMinHeight = 60;

}  // namespace

QSize SavedLayout::defaultSize(const QWidget& window) {
    QSize screen = window.screen()->availableGeometry().size();
    return {std::min(1400, screen.width() * 9 / 10), std::min(900, screen.height() * 9 / 10)};
}

SavedLayout::SavedLayout(QMainWindow* window, QWidget* central)
    : QObject(window), window_(window), central_(central), defaultState_(window->saveState()) {
    QSettings settings;
    QByteArray geometry = settings.value("window/geometry").toByteArray(), state = settings.value("window/state").toByteArray();
    if (geometry.isEmpty() && state.isEmpty()) return;
    window->restoreGeometry(geometry);
    window->restoreState(state);
    checkOnShow_ = true;
    window->installEventFilter(this);
}

bool SavedLayout::fits() const {
    QSize screen = window_->screen()->availableGeometry().size(), frame = window_->frameGeometry().size();
    return frame.width() <= screen.width() && frame.height() <= screen.height() && central_->width() >= kEditorMinWidth &&
           central_->height() >= kEditorMinHeight;
}

void SavedLayout::save() const {
    if (!fits()) return;
    QSettings settings;
    settings.setValue("window/geometry", window_->saveGeometry());
    settings.setValue("window/state", window_->saveState());
}

void SavedLayout::reset() {
    window_->restoreState(defaultState_);
    for (QDockWidget* d : window_->findChildren<QDockWidget*>()) d->show();
    if (!fits()) window_->resize(defaultSize(*window_));
}

bool SavedLayout::eventFilter(QObject* watched, QEvent* event) {
    if (watched == window_ && event->type() == QEvent::Show && std::exchange(checkOnShow_, false)) {
        window_->removeEventFilter(this);
        // Sizes are known once the show's layout pass has run.
        QTimer::singleShot(0, this, [this] {
            if (fits()) return;
            window_->showNormal();
            window_->resize(defaultSize(*window_));
            window_->restoreState(defaultState_);
            Q_EMIT resetForNotFitting();
        });
    }
    return QObject::eventFilter(watched, event);
}

}  // namespace fusescope::gui
