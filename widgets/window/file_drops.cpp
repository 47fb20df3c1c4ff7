#include "window/file_drops.h"

#include <QDragEnterEvent>
#include <QMimeData>
#include <QRegularExpression>

#include "model/torch_trace_run.h"
#include "window/main_window.h"

namespace fusescope::gui {

void acceptOpenableDrag(QDropEvent& event) {
    static const QRegularExpression openable(R"(\.(py|fscope|json)$)", QRegularExpression::CaseInsensitiveOption);
    const QList<QUrl> urls = event.mimeData()->urls();
    if (std::any_of(urls.begin(), urls.end(), [](const QUrl& url) {
            return url.isLocalFile() && (openable.match(url.toLocalFile()).hasMatch() || isTorchTracePath(url.toLocalFile().toStdString()));
        }))
        event.acceptProposedAction();
}

QString takeDroppedFile(QDropEvent& event) {
    for (const QUrl& url : event.mimeData()->urls())
        if (url.isLocalFile()) {
            event.acceptProposedAction();
            return url.toLocalFile();
        }
    return {};
}

EditorFileDrops::EditorFileDrops(MainWindow* window, QWidget* editor) : QObject(window), window_(window) {
    editor->installEventFilter(this);
}

bool EditorFileDrops::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() != QEvent::DragEnter && event->type() != QEvent::Drop) return QObject::eventFilter(watched, event);
    auto& drop = static_cast<QDropEvent&>(*event);
    if (!drop.mimeData()->hasUrls()) return false;  // text: the editor's
    if (event->type() == QEvent::DragEnter) acceptOpenableDrag(drop);
    else if (QString path = takeDroppedFile(drop); !path.isEmpty()) window_->openFile(path);
    return true;
}

}  // namespace fusescope::gui
