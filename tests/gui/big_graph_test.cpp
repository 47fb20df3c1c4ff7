// Reading a big graph (issue: a shared input fanning out to hundreds of consumers drew a grey
// band, with no search, minimap or collapsing): many edges from one source or into one
// target become one comb; a function's big graph opens grouped by source line; nodes can be
// found by name or target; a graph bigger than its view has a minimap that moves the view.
#include <QComboBox>
#include <QLineEdit>
#include <QMouseEvent>
#include <QScrollBar>
#include <QTest>

#include "graph/edge_bundles.h"
#include "panes/graph_pane.h"
#include "selection/selection_context.h"
#include "views/graph_view.h"

using namespace fusescope::gui;
using nlohmann::json;

namespace {

// x, then `n` pairs add_i = x + i (line 8) and sin_i = sin(add_i) (line 8), stacked (line 9).
DrawnGraph fanGraph(int n) {
    json nodes = json::array();
    nodes.push_back({{"name", "x"}, {"op", "placeholder"}, {"target", "L['x']"}});
    json stacked = json::array();
    for (int i = 0; i < n; ++i) {
        std::string add = "add_" + std::to_string(i), sin = "sin_" + std::to_string(i);
        nodes.push_back({{"name", add}, {"op", "call_function"}, {"target", "add"}, {"inputs", {"x"}}, {"line", 8}, {"source", "outs.append(torch.sin(x + i))"}});
        nodes.push_back({{"name", sin}, {"op", "call_function"}, {"target", "sin"}, {"inputs", {add}}, {"line", 8}, {"source", "outs.append(torch.sin(x + i))"}});
        stacked.push_back(sin);
    }
    nodes.push_back({{"name", "stack"}, {"op", "call_function"}, {"target", "stack"}, {"inputs", stacked}, {"line", 9}, {"source", "return torch.stack(outs)"}});
    return DrawnGraph::fromJson({{"nodes", nodes}});
}

// A loop of n passes over lines 7-9: mul_i (line 7), add_i (line 8), relu_i (line 9), each
// reading the one before, as `for i in range(n): x = x * 1.001; x = x + 0.5; x = x.relu()`.
DrawnGraph loopGraph(int n) {
    json nodes = json::array();
    nodes.push_back({{"name", "x"}, {"op", "placeholder"}, {"target", "L['x']"}});
    std::string last = "x";
    for (int i = 0; i < n; ++i)
        for (const auto& [op, line] : {std::pair{"mul", 7}, {"add", 8}, {"relu", 9}}) {
            std::string name = std::string(op) + "_" + std::to_string(i);
            nodes.push_back({{"name", name}, {"op", "call_function"}, {"target", op}, {"inputs", {last}}, {"line", line}, {"source", op}});
            last = name;
        }
    return DrawnGraph::fromJson({{"nodes", nodes}});
}

void waitForLayout(const GraphView& view) { QTRY_VERIFY_WITH_TIMEOUT(!view.layoutPending(), 20000); }

}  // namespace

class BigGraphTest : public QObject {
    Q_OBJECT
private slots:
    void manyEdgesFromOneSourceOrIntoOneTargetAreOneComb() {
        // One source above ten targets in a row, one target below them.
        std::vector<RoutedEdge> edges;
        for (int i = 0; i < 10; ++i) edges.push_back({0, 1 + i, false, {{0, 10}, {100.0 * i, 90}}});
        for (int i = 0; i < 10; ++i) edges.push_back({1 + i, 20, false, {{100.0 * i, 110}, {450, 190}}});
        edges.push_back({20, 21, false, {{450, 210}, {450, 290}}});  // a lone edge stays as routed
        BundledEdges fewer = bundledEdges(edges, 11);
        QCOMPARE(fewer.combs, 0);
        QCOMPARE(fewer.lines.size(), edges.size());
        BundledEdges bundled = bundledEdges(edges, 8);
        QCOMPARE(bundled.combs, 2);
        // An arrowhead where each line reaches its target: the fan-out's ten drops, the fan-in's
        // trunk, the lone edge's end, each pointing along its last segment.
        QCOMPARE(bundled.heads.size(), size_t(10 + 1 + 1));
        QCOMPARE(fewer.heads.size(), edges.size());
        QCOMPARE(fewer.heads.back().first.y, 210.0);
        QCOMPARE(fewer.heads.back().second.y, 290.0);
        // Per comb: a trunk, one bus, a line per edge; plus the lone edge.
        QCOMPARE(bundled.lines.size(), size_t(2 * (1 + 1 + 10) + 1));
        // The fan-out's bus runs just above the targets, across all of them and the source.
        bool bus = false;
        for (const Polyline& line : bundled.lines)
            bus |= line.size() == 2 && line[0].y == 80 && line[1].y == 80 && line[0].x == 0 && line[1].x == 900;
        QVERIFY(bus);
    }

    void aFunctionsBigGraphOpensGroupedBySourceLineAndFindsItsNodes() {
        GraphView view;
        view.resize(500, 400);
        view.show();
        view.showGraph(fanGraph(100));
        waitForLayout(view);
        QCOMPARE(view.collapsedModules(), (QStringList{"line 8", "line 9"}));
        QCOMPARE(view.nodeCount(), 1);  // x; the rest inside the two boxes
        // Found by name or target; finding one inside a box opens it.
        QCOMPARE(view.matchingNodes("SIN_1").size(), 11);  // sin_1, sin_10 .. sin_19
        QCOMPARE(view.matchingNodes("stack"), QStringList{"stack"});
        QVERIFY(view.matchingNodes("  ").isEmpty());
        QVERIFY(view.findNode("sin_42"));
        waitForLayout(view);
        QVERIFY(view.isModuleExpanded("line 8"));
        QVERIFY(view.viewport()->rect().contains(view.nodeCentre("sin_42")));
        // By module (it has none): every node, x's 100 edges and stack's 100 as two combs.
        view.setGrouping(GraphView::Grouping::Modules);
        waitForLayout(view);
        QCOMPARE(view.nodeCount(), 202);
        QCOMPARE(view.bundleCount(), 2);
        // Far bigger than the view: the minimap shows, and a click on it moves the view.
        QVERIFY(view.minimap() && view.minimap()->isVisible());
        // It keeps to a corner: at most a third of the view each way (and its frame, 2 pixels a
        // side, and a pixel of rounding), in a small view too.
        QVERIFY(view.minimap()->width() <= view.viewport()->width() / 3 + 5);
        QVERIFY(view.minimap()->height() <= view.viewport()->height() / 3 + 5);
        view.resize(360, 230);
        QTRY_VERIFY(view.minimap()->width() <= view.viewport()->width() / 3 + 5);
        QVERIFY(view.minimap()->height() <= view.viewport()->height() / 3 + 5);
        view.resize(500, 400);
        int before = view.horizontalScrollBar()->value();
        QWidget* map = view.minimap();
        QTest::mouseClick(map, Qt::LeftButton, {}, QPoint(map->width() - 4, map->height() / 2));
        QVERIFY(view.horizontalScrollBar()->value() > before);
    }

    // A loop's 5,100 ops (issue 67 item 8): one box per line made boxes feeding each other in a
    // circle, and expanding one drew its 1,700 nodes in one row. By pass, each box is a
    // stretch of the graph's order: a column of boxes of passes, each a column of passes.
    void aLoopsGraphOpensAsAColumnOfItsPasses() {
        GraphView view;
        view.resize(500, 400);
        view.show();
        view.showGraph(loopGraph(1700));
        waitForLayout(view);
        QStringList chunks = view.collapsedModules();
        QCOMPARE(chunks.size(), 20);
        QVERIFY(chunks.contains("lines 7-9, passes 1-85") && chunks.contains("lines 7-9, passes 1616-1700"));
        QCOMPARE(view.nodeCount(), 1);  // x
        QVERIFY(view.expandModule("lines 7-9, passes 1-85"));
        waitForLayout(view);
        QStringList shown = view.collapsedModules();
        QCOMPARE(shown.size(), 85 + 19);
        QVERIFY(shown.contains("lines 7-9, pass 1") && shown.contains("lines 7-9, pass 85"));
        QVERIFY(view.expandModule("lines 7-9, pass 2"));
        waitForLayout(view);
        QCOMPARE(view.nodeCount(), 4);  // x, mul_1, add_1, relu_1
        // In a column: each below the one it reads.
        QVERIFY(view.nodeCentre("mul_1").y() < view.nodeCentre("add_1").y());
        QVERIFY(view.nodeCentre("add_1").y() < view.nodeCentre("relu_1").y());

        // Without a loop, a line is one box as before; no grouping draws every node.
        view.showGraph(loopGraph(1));
        waitForLayout(view);
        QCOMPARE(view.nodeCount(), 4);
        view.setGrouping(GraphView::Grouping::SourceLines);
        waitForLayout(view);
        QCOMPARE(view.modulePaths(), (QStringList{"line 7", "line 8", "line 9"}));  // small: drawn expanded
        view.showGraph(loopGraph(1700));
        view.setGrouping(GraphView::Grouping::None);
        waitForLayout(view);
        QCOMPARE(view.nodeCount(), 5101);
        QVERIFY(view.collapsedModules().isEmpty());
    }

    // A highlighted pair (a fusion step's two nodes) below the view comes into it whole, both
    // nodes, not just the first one at the edge.
    void aHighlightedPairComesIntoViewWhole() {
        json nodes = json::array({{{"name", "n0"}, {"op", "placeholder"}, {"target", "L['x']"}}});
        for (int i = 1; i <= 20; ++i)
            nodes.push_back({{"name", "n" + std::to_string(i)}, {"op", "call_function"}, {"target", "relu"},
                             {"inputs", {"n" + std::to_string(i - 1)}}});
        GraphView view;
        view.resize(400, 300);
        view.show();
        view.showGraph(DrawnGraph::fromJson({{"nodes", nodes}}));
        waitForLayout(view);
        QVERIFY(!view.viewport()->rect().contains(view.nodeCentre("n10")));  // far below the view
        view.setHighlighted({"n8", "n10"});
        QVERIFY(view.viewport()->rect().contains(view.nodeCentre("n8")));
        QVERIFY(view.viewport()->rect().contains(view.nodeCentre("n10")));
    }

    void thePanesFindFieldWalksTheMatches() {
        RunStore store;
        SelectionContext context(&store);
        GraphPane pane(&context);
        pane.resize(600, 500);
        pane.show();
        QVERIFY(QTest::qWaitForWindowActive(&pane));  // Ctrl+F gives focus only in the active window
        pane.capturedView()->showGraph(fanGraph(30));
        waitForLayout(*pane.capturedView());
        QCOMPARE(pane.groupingPicker()->currentText(), QString("Group automatically"));
        QLineEdit* find = pane.findField();
        QTest::keyClick(&pane, Qt::Key_F, Qt::ControlModifier);
        QVERIFY(find->hasFocus());
        QTest::keyClicks(find, "sin_2");  // sin_2, sin_20 .. sin_29
        waitForLayout(*pane.capturedView());
        QCOMPARE(pane.capturedView()->selectedNames(), QStringList{"sin_2"});
        QCOMPARE(context.graphNode(), QString());  // typing shows the match, chooses nothing
        QTest::keyClick(find, Qt::Key_Return);  // Enter chooses the match on show, as a click would
        QCOMPARE(pane.capturedView()->selectedNames(), QStringList{"sin_2"});
        QCOMPARE(context.graphNode(), QString("sin_2"));
        QTest::keyClick(find, Qt::Key_Return);  // then the next one
        QCOMPARE(pane.capturedView()->selectedNames(), QStringList{"sin_20"});
        QCOMPARE(context.graphNode(), QString("sin_20"));
    }
};

QTEST_MAIN(BigGraphTest)
#include "big_graph_test.moc"
