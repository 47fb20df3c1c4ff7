#include "timeline/timeline_view.h"

#include <algorithm>
#include <cmath>

#include <QKeyEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>

namespace fusescope::gui {

namespace {

constexpr int kRowHeight = 18;
constexpr int kHeaderHeight = 20;

QColor categoryColour(SpanCategory c) {
    switch (c) {
        case SpanCategory::UserAnnotation: return QColor(120, 170, 230);
        case SpanCategory::Kernel: return QColor(240, 150, 80);
        case SpanCategory::Compile: return QColor(170, 140, 210);
        case SpanCategory::CpuOp: break;
    }
    return QColor(130, 195, 130);
}

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QAbstractScrollArea(parent) {
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setMouseTracking(false);
    connect(verticalScrollBar(), &QScrollBar::valueChanged, viewport(), [this] { viewport()->update(); });
}

void TimelineView::setSpans(std::shared_ptr<const TraceSpans> spans) {
    bool first = !spans_ || spans_->spans.empty();
    spans_ = std::move(spans);
    selected_ = -1;
    layoutRows();
    if (first) fitAll();
    viewport()->update();
}

void TimelineView::layoutRows() {
    rows_.clear();
    int y = 0;
    if (spans_)
        for (size_t t = 0; t < spans_->tracks.size(); ++t) {
            rows_.push_back({static_cast<int>(t), -1, y});
            y += kHeaderHeight;
            for (size_t d = 0; d < spans_->tracks[t].rows.size(); ++d) {
                rows_.push_back({static_cast<int>(t), static_cast<int>(d), y});
                y += kRowHeight;
            }
        }
    contentHeight_ = y;
    updateScrollBar();
}

void TimelineView::updateScrollBar() {
    verticalScrollBar()->setRange(0, std::max(0, contentHeight_ - viewport()->height()));
    verticalScrollBar()->setPageStep(viewport()->height());
    verticalScrollBar()->setSingleStep(kRowHeight);
}

void TimelineView::fitAll() {
    if (!spans_ || spans_->spans.empty()) return;
    int64_t span = std::max<int64_t>(1, spans_->last - spans_->first);
    nsPerPixel_ = span * 1.02 / std::max(1, viewport()->width());
    viewStart_ = spans_->first - static_cast<int64_t>(span * 0.01);
    fitted_ = true;
    viewport()->update();
}

std::pair<int64_t, int64_t> TimelineView::visibleRange() const { return {viewStart_, timeAt(viewport()->width())}; }

void TimelineView::zoomAround(double x, double factor) {
    int64_t anchor = timeAt(x);
    double widest = spans_ && !spans_->spans.empty() ? 4.0 * (spans_->last - spans_->first + 1) / std::max(1, viewport()->width()) : 1e9;
    nsPerPixel_ = std::clamp(nsPerPixel_ / factor, 0.01, std::max(widest, 0.01));
    viewStart_ = anchor - static_cast<int64_t>(x * nsPerPixel_);
    fitted_ = false;
    viewport()->update();
}

void TimelineView::paintTimeline(QPainter& painter, const QSize& size) const {
    painter.fillRect(QRect(QPoint(0, 0), size), palette().color(QPalette::Base));
    if (!spans_) return;
    const int scroll = verticalScrollBar()->value();
    const int64_t t0 = timeAt(0), t1 = timeAt(size.width()) + 1;
    const QFontMetrics metrics(painter.font());
    for (const Row& row : rows_) {
        int y = row.y - scroll;
        if (y + kRowHeight < 0 || y > size.height()) continue;
        const TraceTrack& track = spans_->tracks[static_cast<size_t>(row.track)];
        if (row.depth < 0) {
            painter.fillRect(0, y, size.width(), kHeaderHeight, palette().color(QPalette::AlternateBase));
            painter.setPen(palette().color(QPalette::Text));
            painter.drawText(QRect(6, y, size.width() - 12, kHeaderHeight), Qt::AlignVCenter, (track.tid < 0 ? tr("GPU %1").arg(-1 - track.tid) : tr("Thread %1").arg(track.tid)));
            continue;
        }
        const auto& spanRow = track.rows[static_cast<size_t>(row.depth)];
        auto [first, last] = spans_->rowRange(row.track, row.depth, t0, t1);
        for (size_t i = first; i < last;) {
            const TraceSpan& s = spans_->spans[static_cast<size_t>(spanRow[i])];
            double x0 = std::max(-1.0, xOf(s.begin)), x1 = std::min(size.width() + 1.0, xOf(s.end));
            QColor colour = categoryColour(s.category);
            if (x1 - x0 < 1) {
                // Too narrow to see alone: one pixel column stands for every span starting in it.
                int column = static_cast<int>(std::floor(x0));
                painter.fillRect(column, y + 1, 1, kRowHeight - 2, colour.darker(115));
                // Skip the rest starting in this column, except a last one wide enough to draw.
                size_t next = std::max(i + 1, spans_->firstBeginningAt(row.track, row.depth, timeAt(column + 1)));
                const TraceSpan& lastInColumn = spans_->spans[static_cast<size_t>(spanRow[next - 1])];
                i = next - 1 > i && xOf(lastInColumn.end) - xOf(lastInColumn.begin) >= 1 ? next - 1 : next;
                continue;
            }
            QRectF bar(x0, y + 1, x1 - x0, kRowHeight - 2);
            painter.fillRect(bar, spanRow[i] == selected_ ? colour.darker(150) : colour);
            if (s.warmUp) painter.fillRect(bar, QBrush(QColor(0, 0, 0, 70), Qt::BDiagPattern));  // a first call: hatched
            if (bar.width() > 24) {
                painter.setPen(Qt::black);
                painter.drawText(bar.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                                 metrics.elidedText(QString::fromStdString(spans_->nameOf(spanRow[i])), Qt::ElideRight,
                                                    static_cast<int>(bar.width()) - 5));
            }
            ++i;
        }
    }
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter painter(viewport());
    paintTimeline(painter, viewport()->size());
}

void TimelineView::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBar();
    // Fitted while its dock was hidden (another width), or the window resized: fit the new
    // width, until the user zooms, pans or a selection moves the view.
    if (fitted_) fitAll();
}

int32_t TimelineView::spanAt(const QPoint& pos) const {
    if (!spans_) return -1;
    int y = pos.y() + verticalScrollBar()->value();
    for (const Row& row : rows_)
        if (row.depth >= 0 && y >= row.y && y < row.y + kRowHeight) {
            // Within a pixel's time either side, so a one-pixel span can still be hit.
            int32_t s = spans_->spanAt(row.track, row.depth, timeAt(pos.x()));
            if (s < 0) s = spans_->spanAt(row.track, row.depth, timeAt(pos.x() - 1));
            if (s < 0) s = spans_->spanAt(row.track, row.depth, timeAt(pos.x() + 1));
            return s;
        }
    return -1;
}

QPoint TimelineView::centreOf(int32_t span) const {
    if (!spans_ || span < 0) return {};
    const TraceSpan& s = spans_->spans[static_cast<size_t>(span)];
    for (const Row& row : rows_)
        if (row.track == s.track && row.depth == s.depth)
            return QPoint(static_cast<int>((xOf(s.begin) + xOf(s.end)) / 2), row.y - verticalScrollBar()->value() + kRowHeight / 2);
    return {};
}

void TimelineView::selectSpan(int32_t span) {
    if (!spans_ || span >= static_cast<int32_t>(spans_->spans.size())) return;
    selected_ = span;
    if (span >= 0) {
        const TraceSpan& s = spans_->spans[static_cast<size_t>(span)];
        double width = std::max(1, viewport()->width());
        // Zoom in until it is a few pixels wide, and bring it to the middle when it is off screen.
        if ((s.end - s.begin) / nsPerPixel_ < 6) {
            nsPerPixel_ = std::max(0.01, (s.end - s.begin) * 3.0 / width);
            fitted_ = false;
        }
        if (xOf(s.end) < 0 || xOf(s.begin) > width || (s.end - s.begin) / nsPerPixel_ < 6) {
            viewStart_ = (s.begin + s.end) / 2 - static_cast<int64_t>(width / 2 * nsPerPixel_);
            fitted_ = false;
        }
        for (const Row& row : rows_)
            if (row.track == s.track && row.depth == s.depth) {
                int top = verticalScrollBar()->value();
                if (row.y < top || row.y + kRowHeight > top + viewport()->height())
                    verticalScrollBar()->setValue(row.y - viewport()->height() / 2);
            }
    }
    viewport()->update();
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    if (event->modifiers() & Qt::ShiftModifier) {
        verticalScrollBar()->setValue(verticalScrollBar()->value() - event->angleDelta().y() / 2);
        return;
    }
    zoomAround(event->position().x(), std::pow(1.25, event->angleDelta().y() / 120.0));
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    pressPos_ = lastPos_ = event->pos();
    dragged_ = false;
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    QPoint delta = event->pos() - lastPos_;
    lastPos_ = event->pos();
    if ((event->pos() - pressPos_).manhattanLength() > 3) dragged_ = true;
    if (!dragged_) return;
    viewStart_ -= static_cast<int64_t>(delta.x() * nsPerPixel_);
    fitted_ = false;
    verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
    viewport()->update();
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    if (dragged_) return;
    int32_t span = spanAt(event->pos());
    selected_ = span;
    viewport()->update();
    Q_EMIT spanSelected(span);
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent*) { fitAll(); }

void TimelineView::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_F) fitAll();
    else QAbstractScrollArea::keyPressEvent(event);
}

}  // namespace fusescope::gui
