#pragma once
// The Execution Trace timeline: one track per thread, spans drawn as bars nested by depth
// and coloured by category. The wheel zooms around the cursor, dragging pans, F or a
// double-click fits everything (and a resize fits again until the user zooms or pans);
// clicking a span selects it. Painting visits only what is
// on screen: per depth row, a binary search finds the first visible span, and runs of spans
// narrower than a pixel are drawn as one pixel column and skipped by another search, so a
// repaint costs about (rows on screen) x (pixels across), not the number of spans.

#include <memory>

#include <QAbstractScrollArea>

#include "timeline/trace_spans.h"

namespace fusescope::gui {

class TimelineView : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);

    void setSpans(std::shared_ptr<const TraceSpans> spans);  // keeps the view when it still fits
    void fitAll();
    void selectSpan(int32_t span);  // scrolls and zooms so it shows; -1 clears
    int32_t selectedSpan() const { return selected_; }
    int32_t spanAt(const QPoint& viewportPos) const;
    QPoint centreOf(int32_t span) const;  // viewport position, for tests
    std::pair<int64_t, int64_t> visibleRange() const;  // ns shown across the width
    // Paints the timeline into any painter (the bench renders into an image).
    void paintTimeline(QPainter& painter, const QSize& size) const;

Q_SIGNALS:
    void spanSelected(int32_t span);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    struct Row {
        int track, depth, y;  // depth -1: the track's header
    };
    void layoutRows();
    void updateScrollBar();
    double xOf(int64_t t) const { return (t - viewStart_) / nsPerPixel_; }
    int64_t timeAt(double x) const { return viewStart_ + static_cast<int64_t>(x * nsPerPixel_); }
    void zoomAround(double x, double factor);

    std::shared_ptr<const TraceSpans> spans_;
    std::vector<Row> rows_;
    int contentHeight_ = 0;
    int64_t viewStart_ = 0;
    double nsPerPixel_ = 1;
    int32_t selected_ = -1;
    QPoint pressPos_, lastPos_;
    bool dragged_ = false;
    bool fitted_ = false;  // showing everything, since the last fit
};

}  // namespace fusescope::gui
