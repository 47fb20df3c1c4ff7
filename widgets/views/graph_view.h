#pragma once
// A graph drawn as a layered node-link diagram: the captured graph, or the scheduler's nodes
// at a fusion step. The layout (widgets/graph/) runs on a worker thread; the scene is
// rebuilt when it is ready. Wheel zooms around the cursor, dragging pans, F fits; clicking
// a node reports its name, Ctrl+click adds it to the selection. Nodes are filled by their
// "group" (the fused kernel they end up in) and can be exported as PNG or SVG.

#include <optional>

#include <QFutureWatcher>
#include <QGraphicsView>
#include <QHash>
#include <QStringList>
#include <nlohmann/json.hpp>

#include "graph/layered_layout.h"

namespace fusescope::gui {

class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr);

    // Draws a graph in the engine's graph JSON form: {"nodes": [{name, op, target, inputs,
    // group?, members?}...]}. With keepPositions, nodes keep the places they had in the
    // previous drawing, and a node listing `members` takes the place of those it merges,
    // so stepping through fusion moves little.
    void showGraph(const nlohmann::json& graph, bool keepPositions = false);
    void clearGraph();
    // Selects and centres the node with this name; false when there is none.
    bool findNode(const QString& name);
    // Outlines these nodes (the linked selection), without reporting a click.
    void setHighlighted(const QStringList& names);
    QStringList highlighted() const { return highlighted_; }
    QStringList selectedNames() const;  // what the user clicked, Ctrl+click included
    void fitAll();
    int nodeCount() const { return static_cast<int>(names_.size()); }
    QStringList nodeNames() const;
    QColor fillOf(const QString& name) const;  // for tests
    QPoint nodeCentre(const QString& name) const;  // in viewport coordinates, for tests
    bool layoutPending() const { return watcher_.isRunning(); }
    // Writes the whole graph as SVG (by the extension) or a PNG; false with `error` set.
    bool exportImage(const QString& path, QString* error = nullptr);

Q_SIGNALS:
    void nodeClicked(const QString& name);
    void layoutFinished();

protected:
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    struct Pending {
        std::vector<QString> names, labels, groups;
        LayeredLayout layout;
        bool fit = true;
    };
    void draw(const Pending& pending);
    void applyHighlight();
    void showHighlighted();  // scrolls the first highlighted node into view
    int stableId(const QString& name);
    LayoutHint hintFor(const nlohmann::json& nodes);

    QGraphicsScene scene_;
    QFutureWatcher<Pending> watcher_;
    std::vector<QString> names_;
    QHash<QString, QGraphicsRectItem*> items_;
    QStringList highlighted_;
    // Stable layout across redraws: ids by name, the last layout, every place a node had.
    QHash<QString, int> ids_;
    LayeredLayout last_;
    QHash<int, PreviousPlacement> remembered_;
};

}  // namespace fusescope::gui
