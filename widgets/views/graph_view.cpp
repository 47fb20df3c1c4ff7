#include "views/graph_view.h"

#include <QFontMetricsF>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QKeyEvent>
#include <QPainterPath>
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

void GraphView::showGraph(const nlohmann::json& graph) {
    Pending pending;
    std::vector<LayoutNode> nodes;
    std::vector<LayoutEdge> edges;
    QHash<QString, int> ids;
    QFontMetricsF metrics(font());
    auto list = graph.find("nodes");
    if (list != graph.end() && list->is_array()) {
        for (const auto& node : *list) {
            QString name = qstringField(node, "name");
            if (name.isEmpty() || ids.contains(name)) continue;
            int id = static_cast<int>(pending.names.size());
            ids.insert(name, id);
            pending.names.push_back(name);
            pending.labels.push_back(labelOf(node));
            QRectF box = metrics.boundingRect(QRectF(0, 0, 1000, 1000), Qt::AlignCenter, pending.labels.back());
            nodes.push_back({id, box.width() + 2 * kPadding, box.height() + 2 * kPadding});
        }
        for (const auto& node : *list) {
            auto inputs = node.find("inputs");
            if (inputs == node.end() || !inputs->is_array()) continue;
            int to = ids.value(qstringField(node, "name"), -1);
            for (const auto& input : *inputs)
                if (input.is_string() && ids.contains(QString::fromStdString(input.get<std::string>())) && to >= 0)
                    edges.push_back({ids.value(QString::fromStdString(input.get<std::string>())), to});
        }
    }
    // Layout is a pure function: run it off the GUI thread, draw when it is done.
    watcher_.setFuture(QtConcurrent::run([pending = std::move(pending), nodes = std::move(nodes), edges = std::move(edges)]() mutable {
        pending.layout = layoutLayered(nodes, edges);
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
    QPen edgePen(palette().color(QPalette::Mid), 1.2);
    for (const RoutedEdge& e : pending.layout.edges) {
        if (e.points.empty()) continue;
        QPainterPath path(QPointF(e.points.front().x, e.points.front().y));
        for (size_t i = 1; i < e.points.size(); ++i) path.lineTo(e.points[i].x, e.points[i].y);
        scene_.addPath(path, edgePen);
    }
    for (const PlacedNode& n : pending.layout.nodes) {
        const QString& label = pending.labels[static_cast<size_t>(n.id)];
        auto* text = new QGraphicsSimpleTextItem(label);
        QRectF textBox = text->boundingRect();
        QRectF box(n.x - textBox.width() / 2 - kPadding, n.y - textBox.height() / 2 - kPadding,
                   textBox.width() + 2 * kPadding, textBox.height() + 2 * kPadding);
        auto* rect = scene_.addRect(box, QPen(palette().color(QPalette::Dark)), palette().color(QPalette::Base));
        rect->setFlag(QGraphicsItem::ItemIsSelectable);
        rect->setData(kNameRole, pending.names[static_cast<size_t>(n.id)]);
        text->setParentItem(rect);
        text->setPos(box.left() + kPadding, box.top() + kPadding);
        items_.insert(pending.names[static_cast<size_t>(n.id)], rect);
    }
    fitAll();
}

bool GraphView::findNode(const QString& name) {
    QGraphicsItem* item = items_.value(name);
    if (!item) return false;
    scene_.clearSelection();
    item->setSelected(true);
    centerOn(item);
    return true;
}

void GraphView::fitAll() {
    if (scene_.items().isEmpty()) return;
    fitInView(scene_.itemsBoundingRect().adjusted(-20, -20, 20, 20), Qt::KeepAspectRatio);
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
    if (item) {
        scene_.clearSelection();
        item->setSelected(true);
        Q_EMIT nodeClicked(item->data(kNameRole).toString());
    }
    QGraphicsView::mousePressEvent(event);
}

}  // namespace fusescope::gui
