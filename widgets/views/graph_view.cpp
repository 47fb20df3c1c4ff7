#include "views/graph_view.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

#include <QCoreApplication>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QImage>
#include <QKeyEvent>
#include <QPainter>
#include <QPainterPath>
#include <QSvgGenerator>
#include <QScrollBar>
#include <QWheelEvent>
#include <QtConcurrent/QtConcurrentRun>

#include "graph/edge_bundles.h"
#include "views/elided_name.h"
#include "views/graph_minimap.h"

namespace fusescope::gui {

namespace {

constexpr double kPadding = 8;
constexpr int kNameRole = 0;    // QGraphicsItem::data key holding the node name
constexpr int kModuleRole = 1;  // ... a module's path (its box or frame)
constexpr int kFrameRole = 2;   // ... true on an expanded module's frame
constexpr int kBundleFan = 8;  // a source or target with this many edges gets a comb
constexpr int kInitialItems = 60;  // a graph opens with the top module levels that fit in this many items
constexpr double kFrameMargin = 10;
const QString kModuleKey = QStringLiteral("module:");  // layout ids of boxes (node names have no ':')

QString labelOf(const DrawnNode& node) {
    QString name = QString::fromStdString(node.name), op = QString::fromStdString(node.op), target = QString::fromStdString(node.target);
    // A call shows its target under its name, unless the name says it already ("add").
    QString label = (op == "call_function" || op == "call_method") && target != name ? name + "\n" + target : name;
    label = elideLongNames(label);  // the tooltip has the whole name
    // A value AOT Autograd saves for backward says so, with its type and sizes.
    if (!node.saved.empty()) label += "\n" + QCoreApplication::translate("GraphView", "saved %1").arg(QString::fromStdString(node.saved));
    return label;
}

// A pale colour per group, the same for a group name in every drawing.
QColor groupColour(const QString& group, const QColor& none) {
    if (group.isEmpty()) return none;
    return QColor::fromHsv(static_cast<int>(qHash(group) % 360), 60, 250);
}

}  // namespace

GraphView::GraphView(QWidget* parent) : QGraphicsView(parent) {
    setScene(&scene_);
    minimap_ = new GraphMinimap(this);
    connect(horizontalScrollBar(), &QScrollBar::valueChanged, minimap_, &GraphMinimap::place);
    connect(verticalScrollBar(), &QScrollBar::valueChanged, minimap_, &GraphMinimap::place);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    connect(&watcher_, &QFutureWatcher<Pending>::finished, this, [this] {
        if (std::exchange(discardLayout_, false)) return;  // the graph was cleared meanwhile
        draw(watcher_.result());
        layoutPending_ = false;
        Q_EMIT layoutFinished();
    });
}

// The scene's items go after the view's own parts: their selection changes are nobody's news.
GraphView::~GraphView() { scene_.blockSignals(true); }

int GraphView::stableId(const QString& name) {
    auto it = ids_.find(name);
    if (it == ids_.end()) it = ids_.insert(name, static_cast<int>(ids_.size()));
    return it.value();
}

LayoutHint GraphView::hintFor(const DrawnGraph& graph) {
    LayoutHint hint = hintFrom(last_);
    for (auto it = remembered_.begin(); it != remembered_.end(); ++it) hint.nodes.emplace(it.key(), it.value());
    for (const DrawnNode& node : graph.nodes) {
        QString name = QString::fromStdString(node.name);
        if (ids_.contains(name) || node.members.empty()) continue;
        std::vector<int> merged;
        for (const std::string& member : node.members)
            if (QString m = QString::fromStdString(member); ids_.contains(m)) merged.push_back(ids_.value(m));
        if (!merged.empty()) hint = mergedHint(std::move(hint), merged, stableId(name));
    }
    return hint;
}

void GraphView::showGraph(DrawnGraph graph, bool keepPositions) {
    if (!keepPositions) {
        ids_.clear();
        remembered_.clear();
        last_ = {};
    }
    std::optional<LayoutHint> hint;
    if (keepPositions) hint = hintFor(graph);
    shown_ = std::move(graph);
    nodes_.clear();
    nodeIndex_.clear();
    nodeEdges_.clear();
    for (const DrawnNode& node : shown_.nodes) {
        QString name = QString::fromStdString(node.name);
        nodeIndex_.insert(name, static_cast<int>(nodes_.size()));
        nodes_.push_back({name, labelOf(node), QString::fromStdString(node.group), QString::fromStdString(node.target)});
    }
    for (size_t to = 0; to < shown_.nodes.size(); ++to)
        for (const std::string& input : shown_.nodes[to].inputs)
            if (int from = nodeIndex_.value(QString::fromStdString(input), -1); from >= 0) nodeEdges_.emplace_back(from, static_cast<int>(to));
    buildGroups();
    revealPending_.clear();
    layoutVisible(!keepPositions || names_.empty(), std::move(hint));
}

void GraphView::buildGroups() {
    if (grouping_ == Grouping::None) tree_ = ModuleTree(std::vector<std::vector<ModuleScopeName>>(shown_.nodes.size()));  // no node in any group
    else tree_ = ModuleTree(grouping_ == Grouping::SourceLines ? sourceLineStacks(shown_) : moduleStacks(shown_));
    // A big graph without modules (a function's) reads best by source line.
    if (grouping_ == Grouping::Auto && tree_.empty() && static_cast<int>(shown_.nodes.size()) > kInitialItems)
        tree_ = ModuleTree(sourceLineStacks(shown_));
    expanded_ = initialExpansion(tree_, kInitialItems);
}

void GraphView::setGrouping(Grouping grouping) {
    if (grouping == grouping_) return;
    grouping_ = grouping;
    if (nodes_.empty()) return;
    buildGroups();
    layoutVisible(true, std::nullopt);
}

QStringList GraphView::matchingNodes(const QString& text) const {
    QStringList out;
    const QString wanted = text.trimmed();
    if (wanted.isEmpty()) return out;
    for (const GraphNode& n : nodes_)
        if (n.name.contains(wanted, Qt::CaseInsensitive) || n.target.contains(wanted, Qt::CaseInsensitive)) out << n.name;
    return out;
}

QWidget* GraphView::minimap() const { return minimap_; }

void GraphView::relayout() { layoutVisible(false, hintFor({})); }

void GraphView::layoutVisible(bool fit, std::optional<LayoutHint> hint) {
    Pending pending;
    pending.fit = fit;
    pending.visible = visibleGraph(tree_, expanded_, nodeEdges_);
    const std::vector<ModuleGroup>& modules = tree_.modules();
    std::vector<int> frameOfModule(modules.size(), -1);
    std::function<int(int)> frameOf = [&](int m) {
        if (frameOfModule[m] < 0) {
            int parent = modules[m].parent < 0 ? -1 : frameOf(modules[m].parent);
            frameOfModule[m] = static_cast<int>(pending.frames.size());
            QString path = QString::fromStdString(modules[m].path), className = QString::fromStdString(modules[m].className);
            pending.frames.push_back({path, className.isEmpty() ? path : tr("%1 (%2)").arg(path, className), modules[m].depth, parent});
        }
        return frameOfModule[m];
    };
    std::vector<LayoutNode> nodes;
    QFontMetricsF metrics(font());
    for (const VisibleItem& item : pending.visible.items) {
        std::vector<int> around;  // the expanded modules around the item, outermost first
        if (item.node >= 0) {
            const GraphNode& n = nodes_[item.node];
            pending.names.push_back(n.name);
            pending.labels.push_back(n.label);
            pending.groups.push_back(n.group);
            pending.modules.emplace_back();
            around = tree_.stackOf(item.node);
        } else {
            const ModuleGroup& m = modules[item.module];
            QString path = QString::fromStdString(m.path);
            pending.names.push_back(kModuleKey + path);
            pending.labels.push_back(m.className.empty() ? tr("%1\n%n op(s)", nullptr, m.nodeCount).arg(path)
                                                         : tr("%1\n%2 · %n op(s)", nullptr, m.nodeCount).arg(path, QString::fromStdString(m.className)));
            pending.groups.emplace_back();
            pending.modules.push_back(path);
            for (int p = m.parent; p >= 0; p = modules[p].parent) around.insert(around.begin(), p);
        }
        std::vector<int> frames;
        for (int m : around) frames.push_back(frameOf(m));
        pending.framesOf.push_back(std::move(frames));
        QRectF box = metrics.boundingRect(QRectF(0, 0, 1000, 1000), Qt::AlignCenter, pending.labels.back());
        nodes.push_back({stableId(pending.names.back()), box.width() + 2 * kPadding, box.height() + 2 * kPadding});
    }
    std::vector<LayoutEdge> edges;
    for (const auto& [from, to] : pending.visible.edges) edges.push_back({nodes[from].id, nodes[to].id});
    // Layout is a pure function: run it off the GUI thread, draw when it is done.
    layoutPending_ = true;
    discardLayout_ = false;
    watcher_.setFuture(QtConcurrent::run([pending = std::move(pending), nodes = std::move(nodes), edges = std::move(edges),
                                          hint = std::move(hint)]() mutable {
        pending.layout = layoutLayered(nodes, edges, {}, hint ? &*hint : nullptr);
        return pending;
    }));
}

void GraphView::clearGraph() {
    discardLayout_ = layoutPending_;  // a layout not drawn yet (running, or its result queued) is not drawn
    layoutPending_ = false;
    shown_ = {};
    nodes_.clear();
    nodeIndex_.clear();
    nodeEdges_.clear();
    tree_ = {};
    expanded_.clear();
    drawn_ = {};
    revealPending_.clear();
    clearScene();
}

void GraphView::clearScene() {
    scene_.clear();
    scene_.setSceneRect(QRectF());  // empty: no scroll range
    minimap_->redraw();
    items_.clear();
    moduleBoxes_.clear();
    frames_.clear();
    names_.clear();
}

namespace {

// A filled arrowhead at the end of each segment, pointing along it: which way data flows,
// also up an edge that closes a cycle.
QPainterPath arrowheads(const std::vector<std::pair<LayoutPoint, LayoutPoint>>& heads) {
    constexpr double kLength = 7, kHalfWidth = 3.5;
    QPainterPath path;
    for (const auto& [from, to] : heads) {
        QPointF tip(to.x, to.y), along = tip - QPointF(from.x, from.y);
        double length = std::hypot(along.x(), along.y());
        if (length < 1e-6) continue;
        along /= length;
        QPointF across(-along.y(), along.x()), base = tip - along * kLength;
        path.addPolygon(QPolygonF{tip, base + across * kHalfWidth, base - across * kHalfWidth, tip});
    }
    return path;
}

}  // namespace

void GraphView::draw(const Pending& pending) {
    clearScene();
    drawn_ = pending.visible;
    last_ = pending.layout;
    for (const PlacedNode& n : last_.nodes) remembered_[n.id] = {n.layer, n.x};
    QHash<int, size_t> index;  // layout id -> position in pending's lists
    for (size_t i = 0; i < pending.names.size(); ++i) index.insert(ids_.value(pending.names[i]), i);
    QPen edgePen(palette().color(QPalette::Mid), 1.2);
    BundledEdges edges = bundledEdges(pending.layout.edges, kBundleFan);
    for (const Polyline& line : edges.lines) {
        QPainterPath path(QPointF(line.front().x, line.front().y));
        for (size_t i = 1; i < line.size(); ++i) path.lineTo(line[i].x, line[i].y);
        scene_.addPath(path, edgePen);
    }
    scene_.addPath(arrowheads(edges.heads), Qt::NoPen, edgePen.color());  // one item for them all
    bundles_ = edges.combs;
    std::vector<QRectF> boxes(pending.names.size());
    QPen modulePen(palette().color(QPalette::Dark), 1.5, Qt::DashLine);
    QColor moduleFill = palette().color(QPalette::AlternateBase);
    for (const PlacedNode& n : pending.layout.nodes) {
        size_t i = index.value(n.id);
        const QString& module = pending.modules[i];
        auto* text = new QGraphicsSimpleTextItem(pending.labels[i]);
        QRectF textBox = text->boundingRect();
        QRectF box(n.x - textBox.width() / 2 - kPadding, n.y - textBox.height() / 2 - kPadding,
                   textBox.width() + 2 * kPadding, textBox.height() + 2 * kPadding);
        boxes[i] = box;
        QGraphicsRectItem* rect = module.isEmpty() ? scene_.addRect(box, QPen(palette().color(QPalette::Dark)),
                                                                   groupColour(pending.groups[i], palette().color(QPalette::Base)))
                                                   : scene_.addRect(box, modulePen, moduleFill);
        rect->setFlag(QGraphicsItem::ItemIsSelectable);
        text->setParentItem(rect);
        text->setPos(box.left() + kPadding, box.top() + kPadding);
        if (!module.isEmpty()) {
            rect->setData(kModuleRole, module);
            rect->setToolTip(tr("%1: double-click (or +) to expand").arg(module));
            moduleBoxes_.insert(module, rect);
            continue;
        }
        rect->setData(kNameRole, pending.names[i]);
        rect->setToolTip(pending.groups[i].isEmpty() ? pending.names[i] : tr("%1 (kernel %2)").arg(pending.names[i], pending.groups[i]));
        items_.insert(pending.names[i], rect);
        names_.push_back(pending.names[i]);
    }
    drawFrames(pending, boxes);
    // The scene's own bounds grow only at the next event loop turn: until then the view
    // could not scroll to a node outside the previous drawing's.
    scene_.setSceneRect(scene_.itemsBoundingRect().adjusted(-20, -20, 20, 20));
    applyHighlight();
    minimap_->redraw();
    followPlacement_ = true;
    fitted_ = pending.fit;
    if (pending.fit) fitAll();
    if (!revealPending_.isEmpty()) {
        QGraphicsItem* item = items_.value(revealPending_);
        if (!item) item = moduleBoxes_.value(revealPending_);
        if (!item) item = frames_.value(revealPending_);
        revealPending_.clear();
        if (item) selectAndCentre(item);
    } else {
        showHighlighted();
    }
}

// Each expanded module's frame: around its items and, a margin further out, its
// submodules' frames, with its title above; the outer frames behind the inner ones.
void GraphView::drawFrames(const Pending& pending, const std::vector<QRectF>& boxes) {
    std::vector<QRectF> bounds(pending.frames.size());
    for (size_t i = 0; i < boxes.size(); ++i)
        for (int f : pending.framesOf[i]) bounds[f] |= boxes[i];
    std::vector<size_t> order(pending.frames.size());
    for (size_t f = 0; f < order.size(); ++f) order[f] = f;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return pending.frames[a].depth > pending.frames[b].depth; });
    QFontMetricsF metrics(font());
    for (size_t f : order) {  // innermost first: each grows its parent's bounds
        const Frame& frame = pending.frames[f];
        QRectF box = bounds[f].adjusted(-kFrameMargin, -kFrameMargin - metrics.height(), kFrameMargin, kFrameMargin);
        if (frame.parent >= 0) bounds[frame.parent] |= box;
        QColor fill = palette().color(QPalette::Highlight);
        fill.setAlpha(14);
        auto* rect = scene_.addRect(box, QPen(palette().color(QPalette::Mid), 1, Qt::DashLine), fill);
        rect->setZValue(-100 + frame.depth);
        rect->setData(kModuleRole, frame.path);
        rect->setData(kFrameRole, true);
        rect->setToolTip(tr("%1: double-click the title (or -) to collapse").arg(frame.path));
        auto* title = new QGraphicsSimpleTextItem(frame.title, rect);
        title->setBrush(palette().color(QPalette::Text));
        title->setPos(box.left() + 4, box.top() + 2);
        frames_.insert(frame.path, rect);
    }
}

bool GraphView::findNode(const QString& name) {
    if (QGraphicsItem* item = items_.value(name)) {
        selectAndCentre(item);
        return true;
    }
    int node = nodeIndex_.value(name, -1);
    if (node < 0) return false;
    // Inside a collapsed module: open the modules around it, select it once it is drawn.
    for (int m : tree_.stackOf(node)) expanded_[m] = 1;
    revealPending_ = name;
    relayout();
    return true;
}

bool GraphView::chooseNode(const QString& name) {
    if (!findNode(name)) return false;
    Q_EMIT nodeClicked(name);
    return true;
}

void GraphView::selectAndCentre(QGraphicsItem* item) {
    scene_.clearSelection();
    item->setSelected(true);
    centerOn(item->data(kFrameRole).toBool() ? item->sceneBoundingRect().topLeft() + QPointF(100, 40) : item->sceneBoundingRect().center());
}

void GraphView::setHighlighted(const QStringList& names) {
    highlighted_ = names;
    applyHighlight();
    showHighlighted();
}

QGraphicsRectItem* GraphView::shownFor(const QString& node) const {
    if (QGraphicsRectItem* item = items_.value(node)) return item;
    int index = nodeIndex_.value(node, -1);
    if (index < 0 || index >= static_cast<int>(drawn_.itemOfNode.size())) return nullptr;
    const VisibleItem& item = drawn_.items[drawn_.itemOfNode[index]];
    return item.module < 0 ? nullptr : moduleBoxes_.value(QString::fromStdString(tree_.modules()[item.module].path));
}

void GraphView::applyHighlight() {
    QPen normal(palette().color(QPalette::Dark)), strong(QColor(230, 120, 0), 3);
    QPen module(palette().color(QPalette::Dark), 1.5, Qt::DashLine), strongModule(QColor(230, 120, 0), 3, Qt::DashLine);
    for (auto it = items_.begin(); it != items_.end(); ++it) it.value()->setPen(normal);
    for (auto* box : moduleBoxes_) box->setPen(module);
    // A highlighted node inside a collapsed module outlines the module's box.
    for (const QString& name : highlighted_)
        if (QGraphicsRectItem* item = shownFor(name)) item->setPen(item->data(kModuleRole).isNull() ? strong : strongModule);
}

QStringList GraphView::outlined() const {
    QStringList out;
    for (const QString& name : highlighted_)
        if (QGraphicsRectItem* item = shownFor(name))
            out << (item->data(kModuleRole).isNull() ? name : kModuleKey + item->data(kModuleRole).toString());
    out.removeDuplicates();
    return out;
}

QStringList GraphView::modulePaths() const {
    QStringList out;
    std::function<void(int)> visit = [&](int m) {
        out << QString::fromStdString(tree_.modules()[m].path);
        for (int child : tree_.modules()[m].children) visit(child);
    };
    for (int m : tree_.topLevel()) visit(m);
    return out;
}

bool GraphView::isModuleExpanded(const QString& path) const {
    int m = tree_.find(path.toStdString());
    return m >= 0 && expanded_[m];
}

QStringList GraphView::collapsedModules() const {
    QStringList out = moduleBoxes_.keys();
    out.sort();
    return out;
}

bool GraphView::expandModule(const QString& path) {
    int m = tree_.find(path.toStdString());
    bool changed = false;
    for (int at = m; at >= 0; at = tree_.modules()[at].parent) {
        changed |= !expanded_[at];
        expanded_[at] = 1;
    }
    if (changed) relayout();
    return changed;
}

bool GraphView::collapseModule(const QString& path) {
    int m = tree_.find(path.toStdString());
    if (m < 0 || !expanded_[m]) return false;
    expanded_[m] = 0;
    revealPending_ = path;
    relayout();
    return true;
}

bool GraphView::toggleModule(const QString& path) { return isModuleExpanded(path) ? collapseModule(path) : expandModule(path); }

bool GraphView::revealModule(const QString& path) {
    int m = tree_.find(path.toStdString());
    if (m < 0) return false;
    bool changed = false;
    for (int at = tree_.modules()[m].parent; at >= 0; at = tree_.modules()[at].parent) {
        changed |= !expanded_[at];
        expanded_[at] = 1;
    }
    if (changed) {
        revealPending_ = path;
        relayout();
    } else if (QGraphicsItem* item = moduleBoxes_.contains(path) ? moduleBoxes_.value(path) : frames_.value(path)) {
        if (!item->isSelected()) selectAndCentre(item);  // a box the user clicked stays where it is
    }
    return true;
}

QPoint GraphView::moduleCentre(const QString& path) const {
    if (QGraphicsRectItem* box = moduleBoxes_.value(path)) return mapFromScene(box->sceneBoundingRect().center());
    if (QGraphicsRectItem* frame = frames_.value(path)) return mapFromScene(frame->sceneBoundingRect().topLeft() + QPointF(12, 8));
    return {};
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

QString GraphView::nodeLabel(const QString& name) const {
    for (const GraphNode& n : nodes_)
        if (n.name == name) return n.label;
    return {};
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
    for (const auto* boxes : {&items_, &moduleBoxes_})
        for (const QGraphicsRectItem* item : *boxes)
            if (QRectF box = item->sceneBoundingRect(); box.top() < bounds.top() + 2 * halfHeight) top |= box;
    centerOn(top.isNull() ? bounds.center().x() : top.center().x(), std::min(bounds.center().y(), bounds.top() + halfHeight));
}

void GraphView::showHighlighted() {
    QRectF all;
    QGraphicsItem* first = nullptr;
    for (const auto& name : highlighted_)
        if (QGraphicsItem* item = items_.value(name)) {
            if (!first) first = item;
            all |= item->sceneBoundingRect();
        }
    if (!first) return;
    // Both nodes of a fusion pair where they fit in the view together (scrolling to the first
    // alone left the second half cut off at the edge), else the first.
    const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
    if (all.width() + 80 <= visible.width() && all.height() + 80 <= visible.height()) ensureVisible(all, 40, 40);
    else ensureVisible(first, 40, 40);
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

void GraphView::setEmptyNote(const QString& note) {
    emptyNote_ = note;
    viewport()->update();
}

void GraphView::paintEvent(QPaintEvent* event) {
    QGraphicsView::paintEvent(event);
    QString note = emptyNote();
    if (note.isEmpty()) return;
    QPainter painter(viewport());
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(viewport()->rect().adjusted(24, 24, -24, -24), Qt::AlignCenter | Qt::TextWordWrap, note);
}

void GraphView::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    minimap_->place();
    if (!followPlacement_) return;
    if (fitted_) fitAll();
    QList<QGraphicsItem*> selected = scene_.selectedItems();
    if (!selected.isEmpty()) centerOn(selected.first());
    else showHighlighted();
}

void GraphView::wheelEvent(QWheelEvent* event) {
    followPlacement_ = false;
    double factor = event->angleDelta().y() > 0 ? 1.15 : 1 / 1.15;
    scale(factor, factor);
}

void GraphView::keyPressEvent(QKeyEvent* event) {
    followPlacement_ = false;
    bool isModule = false;
    QString selected = selectedModuleOrNode(&isModule);
    if (event->key() == Qt::Key_F) {
        fitAll();
    } else if ((event->key() == Qt::Key_Plus || event->key() == Qt::Key_Equal) && isModule) {
        expandModule(selected);
    } else if (event->key() == Qt::Key_Minus && !selected.isEmpty()) {
        // The box's enclosing module, or the node's innermost one.
        int node = nodeIndex_.value(selected, -1), m = isModule ? tree_.find(selected.toStdString()) : -1;
        int enclosing = isModule ? (m >= 0 ? tree_.modules()[m].parent : -1)
                                 : (node >= 0 && !tree_.stackOf(node).empty() ? tree_.stackOf(node).back() : -1);
        if (enclosing >= 0) collapseModule(QString::fromStdString(tree_.modules()[enclosing].path));
    } else {
        QGraphicsView::keyPressEvent(event);
    }
}

QString GraphView::selectedModuleOrNode(bool* isModule) const {
    for (QGraphicsItem* item : scene_.selectedItems()) {
        *isModule = !item->data(kModuleRole).isNull();
        return (*isModule ? item->data(kModuleRole) : item->data(kNameRole)).toString();
    }
    return {};
}

// The node, module box or frame under the pointer (a label is its box's child).
static QGraphicsItem* pickedItem(QGraphicsItem* item) {
    while (item && item->data(kNameRole).isNull() && item->data(kModuleRole).isNull()) item = item->parentItem();
    return item;
}

void GraphView::mousePressEvent(QMouseEvent* event) {
    followPlacement_ = false;
    QGraphicsItem* item = pickedItem(itemAt(event->pos()));
    if (item && item->data(kFrameRole).toBool()) item = nullptr;  // a frame's inside pans, as the background does
    if (item && event->modifiers() & Qt::ControlModifier) {
        item->setSelected(!item->isSelected());
        // Its release is ours too: the hand-drag mode would take a press that no item
        // accepted, after the pointer moved, for a click on the background and clear the
        // selection.
        toggledOnPress_ = true;
        event->accept();
        return;
    }
    if (item) {
        scene_.clearSelection();
        item->setSelected(true);
        if (item->data(kModuleRole).isNull()) Q_EMIT nodeClicked(item->data(kNameRole).toString());
        else Q_EMIT moduleClicked(item->data(kModuleRole).toString());
    }
    QGraphicsView::mousePressEvent(event);
}

void GraphView::mouseReleaseEvent(QMouseEvent* event) {
    if (std::exchange(toggledOnPress_, false)) return event->accept();
    QGraphicsView::mouseReleaseEvent(event);
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* event) {
    QGraphicsItem* item = pickedItem(itemAt(event->pos()));
    if (!item || item->data(kModuleRole).isNull()) return QGraphicsView::mouseDoubleClickEvent(event);
    QString path = item->data(kModuleRole).toString();
    if (!item->data(kFrameRole).toBool()) {
        expandModule(path);
        return;
    }
    // A frame collapses from its title line only: elsewhere the double-click is on the graph.
    QPointF at = mapToScene(event->pos());
    if (at.y() < item->sceneBoundingRect().top() + QFontMetricsF(font()).height() + kFrameMargin) collapseModule(path);
}

}  // namespace fusescope::gui
