#pragma once
// The captured graph drawn as a layered node-link diagram. The layout (widgets/graph/) runs
// on a worker thread; the scene is rebuilt when it is ready. Wheel zooms around the cursor,
// dragging pans, F fits; clicking a node reports its name.

#include <QFutureWatcher>
#include <QGraphicsView>
#include <QHash>
#include <nlohmann/json.hpp>

#include "graph/layered_layout.h"

namespace fusescope::gui {

class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr);

    // Draws a graph in the engine's graph JSON form ({"nodes": [{name, op, target, inputs}...]}).
    void showGraph(const nlohmann::json& graph);
    void clearGraph();
    // Selects and centres the node with this name; false when there is none.
    bool findNode(const QString& name);
    void fitAll();
    int nodeCount() const { return static_cast<int>(names_.size()); }
    bool layoutPending() const { return watcher_.isRunning(); }

Q_SIGNALS:
    void nodeClicked(const QString& name);
    void layoutFinished();

protected:
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    struct Pending {
        std::vector<QString> names, labels;
        LayeredLayout layout;
    };
    void draw(const Pending& pending);

    QGraphicsScene scene_;
    QFutureWatcher<Pending> watcher_;
    std::vector<QString> names_;
    QHash<QString, QGraphicsItem*> items_;
};

}  // namespace fusescope::gui
