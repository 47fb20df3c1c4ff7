#include "views/empty_view_note.h"

#include <QAbstractItemView>
#include <QEvent>
#include <QPainter>

#include "model/run_store.h"

namespace fusescope::gui {

namespace {

class EmptyViewNote : public QObject {
public:
    EmptyViewNote(QAbstractItemView* view, std::function<QString()> note) : QObject(view), view_(view), note_(std::move(note)) {
        setObjectName("emptyViewNote");
        view->viewport()->installEventFilter(this);
    }
    QString shown() const {
        const QAbstractItemModel* model = view_->model();
        return model && model->rowCount() == 0 ? note_() : QString();
    }
    bool eventFilter(QObject*, QEvent* event) override {
        if (event->type() != QEvent::Paint) return false;
        if (const QString text = shown(); !text.isEmpty()) {
            QPainter painter(view_->viewport());
            painter.setPen(view_->palette().color(QPalette::PlaceholderText));
            painter.drawText(view_->viewport()->rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap, text);
        }
        return false;
    }

private:
    QAbstractItemView* view_;
    std::function<QString()> note_;
};

}  // namespace

void noteWhenEmpty(QAbstractItemView* view, const RunStore* store, std::function<QString()> note) {
    new EmptyViewNote(view, std::move(note));
    auto repaint = [view] { view->viewport()->update(); };
    QObject::connect(store, &RunStore::eventAppended, view, repaint);
    QObject::connect(store, &RunStore::reset, view, repaint);
}

QString emptyViewNote(const QAbstractItemView* view) {
    const auto* note = view->findChild<QObject*>("emptyViewNote", Qt::FindDirectChildrenOnly);
    return note ? static_cast<const EmptyViewNote*>(note)->shown() : QString();
}

}  // namespace fusescope::gui
