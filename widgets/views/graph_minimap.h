#pragma once
// A big graph's minimap: the whole drawing, small, in the bottom-right corner of its view,
// the part on screen framed. Clicking or dragging on it brings that part into view. It
// shows only while the drawing is bigger than the view.

#include <QPixmap>
#include <QWidget>

class QGraphicsView;

namespace fusescope::gui {

class GraphMinimap : public QWidget {
    Q_OBJECT
public:
    explicit GraphMinimap(QGraphicsView* view);

    void redraw();  // the scene changed
    void place();   // the view was resized or scrolled

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    QRectF pictureRect() const;  // where the scene is drawn, its aspect kept
    void centreAt(QPointF point);

    QGraphicsView* view_;
    QPixmap picture_;
};

}  // namespace fusescope::gui
