#pragma once
// A graph drawn as a layered node-link diagram: the captured graph, or the scheduler's nodes
// at a fusion step. The layout (widgets/graph/) runs on a worker thread; the scene is
// rebuilt when it is ready. Wheel zooms around the cursor, dragging pans, F fits; clicking
// a node reports its name, Ctrl+click adds it to the selection. Nodes are filled by their
// "group" (the fused kernel they end up in) and can be exported as PNG or SVG.
//
// Nodes that ran inside nn.Modules are grouped by module (graph/module_groups.h): a
// collapsed module is one box (dashed, "path / Class · N ops"), an expanded one a frame
// around its nodes and submodules. A big graph opens with only its top levels expanded.
// Double-click a box to expand it, a frame's title to collapse it; + and - do the same for
// the selected box or node. Grouped by source line instead, a box is every node one script
// line made. The many edges of a fanned-out source are drawn as one comb
// (graph/edge_bundles.h), and a graph bigger than the view gets a minimap in its corner.

#include <optional>

#include <QFutureWatcher>
#include <QGraphicsView>
#include <QHash>
#include <QStringList>

#include "graph/drawn_graph.h"
#include "graph/layered_layout.h"
#include "graph/module_groups.h"

namespace fusescope::gui {

class GraphMinimap;

class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    explicit GraphView(QWidget* parent = nullptr);
    ~GraphView() override;

    // Draws a graph, each node filled by its group. With keepPositions, nodes keep the places
    // they had in the previous drawing, and a node listing `members` takes the place of those
    // it merges, so stepping through fusion moves little.
    void showGraph(DrawnGraph graph, bool keepPositions = false);
    void clearGraph();
    // Selects and centres the node with this name; false when there is none.
    bool findNode(const QString& name);
    // findNode, then reports the node as a click on it does (nodeClicked): the one selection follows.
    bool chooseNode(const QString& name);
    // The nodes whose name or target contains `text` (case-insensitive), in graph order.
    QStringList matchingNodes(const QString& text) const;

    // Auto: by module where the graph has modules, else by source line once it is big; None:
    // every node drawn.
    enum class Grouping { Auto, Modules, SourceLines, None };
    void setGrouping(Grouping grouping);  // redraws the graph on show grouped so
    Grouping grouping() const { return grouping_; }
    int bundleCount() const { return bundles_; }  // combs drawn, for tests
    QWidget* minimap() const;
    // Outlines these nodes (the linked selection), without reporting a click.
    void setHighlighted(const QStringList& names);
    QStringList highlighted() const { return highlighted_; }
    QStringList outlined() const;  // the nodes and module boxes drawn highlighted, for tests
    QStringList selectedNames() const;  // what the user clicked, Ctrl+click included
    void fitAll();
    int nodeCount() const { return static_cast<int>(names_.size()); }
    QStringList nodeNames() const;
    QColor fillOf(const QString& name) const;  // for tests
    QString nodeLabel(const QString& name) const;  // as drawn, for tests
    QPoint nodeCentre(const QString& name) const;  // in viewport coordinates, for tests
    bool layoutPending() const { return layoutPending_; }  // until the next layout is drawn

    // Module groups: every module path in tree order; whether one is expanded; the
    // collapsed boxes drawn now.
    QStringList modulePaths() const;
    bool isModuleExpanded(const QString& path) const;
    QStringList collapsedModules() const;
    // Expanding also expands the modules around it; each relays the graph out (false for
    // an unknown module or no change).
    bool expandModule(const QString& path);
    bool collapseModule(const QString& path);
    bool toggleModule(const QString& path);
    // Expands what encloses the module, then selects and centres its box or frame.
    bool revealModule(const QString& path);
    QPoint moduleCentre(const QString& path) const;  // of its box or its frame's title, for tests
    // A line drawn in the middle of the view while it has no graph, saying why ("" for none).
    void setEmptyNote(const QString& note);
    QString emptyNote() const { return nodes_.empty() && !layoutPending_ ? emptyNote_ : QString(); }  // as drawn now
    // Writes the whole graph as SVG (by the extension) or a PNG; false with `error` set.
    bool exportImage(const QString& path, QString* error = nullptr);

Q_SIGNALS:
    void nodeClicked(const QString& name);
    void moduleClicked(const QString& path);  // a collapsed module's box
    void layoutFinished();

protected:
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    struct GraphNode {
        QString name, label, group, target;
    };
    struct Frame {  // an expanded module with something drawn inside it
        QString path, title;
        int depth = 0;
        int parent = -1;  // the enclosing module's frame
    };
    struct Pending {
        std::vector<QString> names, labels, groups;  // per visible item
        std::vector<QString> modules;                // per visible item: a collapsed module's path, or ""
        std::vector<std::vector<int>> framesOf;      // per visible item: the frames around it
        std::vector<Frame> frames;
        VisibleGraph visible;
        LayeredLayout layout;
        bool fit = true;
    };
    void layoutVisible(bool fit, std::optional<LayoutHint> hint);
    void clearScene();  // the drawing only; the graph stays
    void relayout();  // after an expansion changed, keeping what stays where it was
    void draw(const Pending& pending);
    void drawFrames(const Pending& pending, const std::vector<QRectF>& boxes);
    void applyHighlight();
    void showHighlighted();  // scrolls the highlighted nodes into view (the first where not all fit)
    void selectAndCentre(QGraphicsItem* item);
    QGraphicsRectItem* shownFor(const QString& node) const;  // its box, or its collapsed module's
    QString selectedModuleOrNode(bool* isModule) const;
    int stableId(const QString& name);
    LayoutHint hintFor(const DrawnGraph& graph);

    void buildGroups();  // tree_ and expanded_ from shown_ by grouping_

    QString emptyNote_;
    QGraphicsScene scene_;
    DrawnGraph shown_;  // the graph on show
    Grouping grouping_ = Grouping::Auto;
    int bundles_ = 0;
    GraphMinimap* minimap_ = nullptr;
    QFutureWatcher<Pending> watcher_;
    // The graph on show, and how its modules are expanded.
    std::vector<GraphNode> nodes_;
    QHash<QString, int> nodeIndex_;
    std::vector<std::pair<int, int>> nodeEdges_;
    ModuleTree tree_;
    std::vector<char> expanded_;
    VisibleGraph drawn_;     // what the scene shows
    QString revealPending_;  // a node or module to select once the next layout is drawn
    bool layoutPending_ = false;
    bool discardLayout_ = false;  // clearGraph() came while a layout ran
    bool toggledOnPress_ = false;
    // Until the user zooms or pans, a resize (a hidden dock raised: its view had another size
    // when it was drawn) fits again when the drawing was fitted, and brings the selected or
    // highlighted node back into view.
    bool followPlacement_ = false;
    bool fitted_ = false;  // a Ctrl+click toggled a node: its release is not a background click
    // The scene's items: visible nodes by name, collapsed modules' boxes and expanded ones'
    // frames by path.
    std::vector<QString> names_;
    QHash<QString, QGraphicsRectItem*> items_;
    QHash<QString, QGraphicsRectItem*> moduleBoxes_;
    QHash<QString, QGraphicsRectItem*> frames_;
    QStringList highlighted_;
    // Stable layout across redraws: ids by name, the last layout, every place a node had.
    QHash<QString, int> ids_;
    LayeredLayout last_;
    QHash<int, PreviousPlacement> remembered_;
};

}  // namespace fusescope::gui
