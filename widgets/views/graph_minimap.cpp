#include "views/graph_minimap.h"

#include <QGraphicsScene>
#include <QGraphicsView>
#include <QMouseEvent>
#include <QPainter>

namespace fusescope::gui {

namespace {

constexpr QSize kMaxSize(180, 150);
constexpr int kMargin = 8;

// The picture's size: the scene's shape within kMaxSize and within a third of the view each
// way, so a small view (a 1024-pixel window's graph pane) keeps most of its room.
QSize pictureSizeFor(const QGraphicsView& view) {
    const QSize bound = kMaxSize.boundedTo(view.viewport()->size() / 3);
    return view.sceneRect().size().scaled(bound, Qt::KeepAspectRatio).toSize().expandedTo(QSize(8, 8));
}

}  // namespace

GraphMinimap::GraphMinimap(QGraphicsView* view) : QWidget(view->viewport()), view_(view) {
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("The whole graph: click or drag to move the view"));
    hide();
}

void GraphMinimap::redraw() {
    QRectF scene = view_->sceneRect();
    if (scene.isEmpty()) {
        picture_ = {};
        place();
        return;
    }
    const QSize size = pictureSizeFor(*view_);
    picture_ = QPixmap(size);
    picture_.fill(palette().color(QPalette::Base));
    QPainter painter(&picture_);
    painter.setRenderHint(QPainter::Antialiasing);
    view_->scene()->render(&painter, QRectF(QPointF(0, 0), QSizeF(size)), scene, Qt::KeepAspectRatio);
    place();
}

void GraphMinimap::place() {
    QRectF visible = view_->mapToScene(view_->viewport()->rect()).boundingRect();
    QRectF scene = view_->sceneRect();
    bool needed = !picture_.isNull() && (scene.width() > visible.width() * 1.2 || scene.height() > visible.height() * 1.2);
    setVisible(needed);
    if (!needed) return;
    if (picture_.size() != pictureSizeFor(*view_)) return redraw();  // the view was resized
    QSize area = view_->viewport()->size();
    QSize size = picture_.size() + QSize(4, 4);
    setGeometry(area.width() - size.width() - kMargin, area.height() - size.height() - kMargin, size.width(), size.height());
    update();
}

QRectF GraphMinimap::pictureRect() const { return QRectF(QPointF(2, 2), QSizeF(picture_.size())); }

void GraphMinimap::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Base));
    painter.setPen(palette().color(QPalette::Dark));
    painter.drawRect(rect().adjusted(0, 0, -1, -1));
    painter.drawPixmap(pictureRect().topLeft(), picture_);
    // The part on screen, in the picture's coordinates.
    QRectF scene = view_->sceneRect(), picture = pictureRect();
    QRectF visible = view_->mapToScene(view_->viewport()->rect()).boundingRect() & scene;
    double sx = picture.width() / scene.width(), sy = picture.height() / scene.height();
    QRectF frame(picture.left() + (visible.left() - scene.left()) * sx, picture.top() + (visible.top() - scene.top()) * sy,
                 visible.width() * sx, visible.height() * sy);
    painter.setPen(QPen(QColor(230, 120, 0), 1.5));
    painter.drawRect(frame.adjusted(0, 0, -1, -1).normalized().united(QRectF(frame.topLeft(), QSizeF(3, 3))));
}

void GraphMinimap::centreAt(QPointF point) {
    QRectF scene = view_->sceneRect(), picture = pictureRect();
    view_->centerOn(scene.left() + (point.x() - picture.left()) * scene.width() / picture.width(),
                    scene.top() + (point.y() - picture.top()) * scene.height() / picture.height());
}

void GraphMinimap::mousePressEvent(QMouseEvent* event) { centreAt(event->position()); }

void GraphMinimap::mouseMoveEvent(QMouseEvent* event) {
    if (event->buttons() & Qt::LeftButton) centreAt(event->position());
}

}  // namespace fusescope::gui
