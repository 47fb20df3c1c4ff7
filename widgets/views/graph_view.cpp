#include "views/graph_view.h"

#include <algorithm>

#include <QFileInfo>
#include <QFontMetricsF>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QImage>
#include <QKeyEvent>
#include <QPainter>
#include <QPainterPath>
#include <QSvgGenerator>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>

#include "model/json_fields.h"

namespace fusescope::gui {

namespace {

constexpr double kPadding = 8;
constexpr int kNameRole = 0;  // QGraphicsItem::data key holding the node name

QString labelOf(const nlohmann::json& node) {
    QString name = qstringField(node, "name"), op = qstringField(node, "op"), target = qstringField(node, "target");
    // A call shows its target under its name, unless the name says it already ("add").
    if ((op == "call_function" || op == "call_method") && target != name) return name + "\n" + target;
    return name;
}

// A pale colour per group, the same for a group name in every drawing.
QColor groupColour(const QString& group, const QColor& none) {
    if (group.isEmpty()) return none;
    return QColor::fromHsv(static_cast<int>(qHash(group) % 360), 60, 250);
}

}  // namespace

GraphView::GraphView(QWidget* parent) : QGraphicsView(parent) {
    setScene(&scene_);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    connect(&watcher_, &QFutureWatcher<Pending>::finished, this, [this] {
        draw(watcher_.result());
        Q_EMIT layoutFinished();
    });
}

int GraphView::stableId(const QString& name) {
    auto it = ids_.find(name);
    if (it == ids_.end()) it = ids_.insert(name, static_cast<int>(ids_.size()));
    return it.value();
}

LayoutHint GraphView::hintFor(const nlohmann::json& nodes) {
    LayoutHint hint = hintFrom(last_);
    for (auto it = remembered_.begin(); it != remembered_.end(); ++it) hint.nodes.emplace(it.key(), it.value());
    for (const auto& node : nodes) {
        QString name = qstringField(node, "name");
        auto members = node.find("members");
        if (ids_.contains(name) || members == node.end() || !members->is_array()) continue;
        std::vector<int> merged;
        for (const auto& m : *members)
            if (m.is_string() && ids_.contains(QString::fromStdString(m.get<std::string>())))
                merged.push_back(ids_.value(QString::fromStdString(m.get<std::string>())));
        if (!merged.empty()) hint = mergedHint(std::move(hint), merged, stableId(name));
    }
    return hint;
}

void GraphView::showGraph(const nlohmann::json& graph, bool keepPositions) {
    Pending pending;
    pending.fit = !keepPositions || names_.empty();
    std::vector<LayoutNode> nodes;
    std::vector<LayoutEdge> edges;
    if (!keepPositions) {
        ids_.clear();
        remembered_.clear();
        last_ = {};
    }
    nlohmann::json list = graph.contains("nodes") && graph["nodes"].is_array() ? graph["nodes"] : nlohmann::json::array();
    std::optional<LayoutHint> hint;
    if (keepPositions) hint = hintFor(list);
    QHash<QString, int> ids;
    QFontMetricsF metrics(font());
    for (const auto& node : list) {
        QString name = qstringField(node, "name");
        if (name.isEmpty() || ids.contains(name)) continue;
        int id = stableId(name);
        ids.insert(name, id);
        pending.names.push_back(name);
        pending.labels.push_back(labelOf(node));
        pending.groups.push_back(qstringField(node, "group"));
        QRectF box = metrics.boundingRect(QRectF(0, 0, 1000, 1000), Qt::AlignCenter, pending.labels.back());
        nodes.push_back({id, box.width() + 2 * kPadding, box.height() + 2 * kPadding});
    }
    for (const auto& node : list) {
        auto inputs = node.find("inputs");
        int to = ids.value(qstringField(node, "name"), -1);
        if (inputs == node.end() || !inputs->is_array() || to < 0) continue;
        for (const auto& input : *inputs)
            if (input.is_string() && ids.contains(QString::fromStdString(input.get<std::string>())))
                edges.push_back({ids.value(QString::fromStdString(input.get<std::string>())), to});
    }
    // Layout is a pure function: run it off the GUI thread, draw when it is done.
    watcher_.setFuture(QtConcurrent::run([pending = std::move(pending), nodes = std::move(nodes), edges = std::move(edges),
                                          hint = std::move(hint)]() mutable {
        pending.layout = layoutLayered(nodes, edges, {}, hint ? &*hint : nullptr);
        return pending;
    }));
}

void GraphView::clearGraph() {
    scene_.clear();
    items_.clear();
    names_.clear();
}

void GraphView::draw(const Pending& pending) {
    clearGraph();
    names_ = pending.names;
    last_ = pending.layout;
    for (const PlacedNode& n : last_.nodes) remembered_[n.id] = {n.layer, n.x};
    QHash<int, size_t> index;  // layout id -> position in pending's lists
    for (size_t i = 0; i < pending.names.size(); ++i) index.insert(ids_.value(pending.names[i]), i);
    QPen edgePen(palette().color(QPalette::Mid), 1.2);
    for (const RoutedEdge& e : pending.layout.edges) {
        if (e.points.empty()) continue;
        QPainterPath path(QPointF(e.points.front().x, e.points.front().y));
        for (size_t i = 1; i < e.points.size(); ++i) path.lineTo(e.points[i].x, e.points[i].y);
        scene_.addPath(path, edgePen);
    }
    for (const PlacedNode& n : pending.layout.nodes) {
        size_t i = index.value(n.id);
        auto* text = new QGraphicsSimpleTextItem(pending.labels[i]);
        QRectF textBox = text->boundingRect();
        QRectF box(n.x - textBox.width() / 2 - kPadding, n.y - textBox.height() / 2 - kPadding,
                   textBox.width() + 2 * kPadding, textBox.height() + 2 * kPadding);
        auto* rect = scene_.addRect(box, QPen(palette().color(QPalette::Dark)),
                                    groupColour(pending.groups[i], palette().color(QPalette::Base)));
        rect->setFlag(QGraphicsItem::ItemIsSelectable);
        rect->setData(kNameRole, pending.names[i]);
        rect->setToolTip(pending.groups[i].isEmpty() ? pending.names[i] : tr("%1 (kernel %2)").arg(pending.names[i], pending.groups[i]));
        text->setParentItem(rect);
        text->setPos(box.left() + kPadding, box.top() + kPadding);
        items_.insert(pending.names[i], rect);
    }
    applyHighlight();
    if (pending.fit) fitAll();
    showHighlighted();
}

bool GraphView::findNode(const QString& name) {
    QGraphicsItem* item = items_.value(name);
    if (!item) return false;
    scene_.clearSelection();
    item->setSelected(true);
    centerOn(item);
    return true;
}

void GraphView::setHighlighted(const QStringList& names) {
    highlighted_ = names;
    applyHighlight();
    showHighlighted();
}

void GraphView::applyHighlight() {
    QPen normal(palette().color(QPalette::Dark)), strong(QColor(230, 120, 0), 3);
    for (auto it = items_.begin(); it != items_.end(); ++it) it.value()->setPen(highlighted_.contains(it.key()) ? strong : normal);
}

QStringList GraphView::selectedNames() const {
    QStringList out;
    for (QGraphicsItem* item : scene_.selectedItems())
        if (!item->data(kNameRole).isNull()) out << item->data(kNameRole).toString();
    out.sort();
    return out;
}

QStringList GraphView::nodeNames() const {
    QStringList out;
    for (const auto& n : names_) out << n;
    return out;
}

QColor GraphView::fillOf(const QString& name) const {
    QGraphicsRectItem* item = items_.value(name);
    return item ? item->brush().color() : QColor();
}

QPoint GraphView::nodeCentre(const QString& name) const {
    QGraphicsRectItem* item = items_.value(name);
    return item ? mapFromScene(item->sceneBoundingRect().center()) : QPoint();
}

void GraphView::fitAll() {
    if (scene_.items().isEmpty()) return;
    QRectF bounds = scene_.itemsBoundingRect().adjusted(-20, -20, 20, 20);
    fitInView(bounds, Qt::KeepAspectRatio);
    // A small graph is shown at its natural size rather than blown up, a big one no smaller
    // than its labels can be read, from its inputs down (the rest is a scroll or a wheel away).
    constexpr double kSmallest = 0.75;
    if (transform().m11() > 1) setTransform(QTransform());
    if (transform().m11() >= kSmallest) return;
    setTransform(QTransform::fromScale(kSmallest, kSmallest));
    double halfHeight = viewport()->height() / (2 * kSmallest);
    // Centred on the nodes in that first screenful: a long graph drifts sideways as it goes
    // down, so the middle of the whole picture may be empty at the top.
    QRectF top;
    for (const QGraphicsRectItem* item : items_)
        if (QRectF box = item->sceneBoundingRect(); box.top() < bounds.top() + 2 * halfHeight) top |= box;
    centerOn(top.isNull() ? bounds.center().x() : top.center().x(), std::min(bounds.center().y(), bounds.top() + halfHeight));
}

void GraphView::showHighlighted() {
    for (const auto& name : highlighted_)
        if (QGraphicsItem* item = items_.value(name)) {
            ensureVisible(item, 40, 40);
            return;
        }
}

bool GraphView::exportImage(const QString& path, QString* error) {
    QRectF source = scene_.itemsBoundingRect().adjusted(-20, -20, 20, 20);
    if (scene_.items().isEmpty()) {
        if (error) *error = tr("There is no graph to export.");
        return false;
    }
    if (QFileInfo(path).suffix().compare("svg", Qt::CaseInsensitive) == 0) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(source.size().toSize());
        svg.setViewBox(QRectF(QPointF(0, 0), source.size()));
        svg.setTitle(tr("Fusescope graph"));
        QPainter painter;
        if (!painter.begin(&svg)) {
            if (error) *error = tr("Cannot write %1.").arg(path);
            return false;
        }
        scene_.render(&painter, QRectF(QPointF(0, 0), source.size()), source);
        return painter.end();
    }
    QImage image((source.size() * 2).toSize(), QImage::Format_ARGB32);  // 2x: sharp on high-DPI screens
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    scene_.render(&painter, QRectF(image.rect()), source);
    painter.end();
    if (!image.save(path)) {
        if (error) *error = tr("Cannot write %1.").arg(path);
        return false;
    }
    return true;
}

void GraphView::wheelEvent(QWheelEvent* event) {
    double factor = event->angleDelta().y() > 0 ? 1.15 : 1 / 1.15;
    scale(factor, factor);
}

void GraphView::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_F) fitAll();
    else QGraphicsView::keyPressEvent(event);
}

void GraphView::mousePressEvent(QMouseEvent* event) {
    QGraphicsItem* item = itemAt(event->pos());
    while (item && item->data(kNameRole).isNull()) item = item->parentItem();
    if (item && event->modifiers() & Qt::ControlModifier) {
        item->setSelected(!item->isSelected());
        return;
    }
    if (item) {
        scene_.clearSelection();
        item->setSelected(true);
        Q_EMIT nodeClicked(item->data(kNameRole).toString());
    }
    QGraphicsView::mousePressEvent(event);
}

}  // namespace fusescope::gui
