// The Graph view's module groups (widgets/graph/module_groups.h, views/graph_view.h): which
// modules a model's graph opens with, the visible graph of an expansion, parameters joining
// their module, and expanding and collapsing with the mouse and the keyboard.
#include <QSignalSpy>
#include <QTest>

#include "graph/module_groups.h"
#include "views/graph_view.h"

using namespace fusescope::gui;

namespace {

nlohmann::json scope(const std::string& path, const std::string& cls) { return {{"path", path}, {"class", cls}}; }

// A model of six blocks, each an attention of 10 ops and an MLP of 8 (with its weight as a
// parameter input) and a residual add, then a head; 129 nodes.
DrawnGraph modelGraph() {
    nlohmann::json nodes = nlohmann::json::array();
    auto add = [&](const std::string& name, const std::string& op, std::vector<std::string> inputs, nlohmann::json stack) {
        nodes.push_back({{"name", name}, {"op", op}, {"target", op == "placeholder" ? "" : "aten.op"}, {"inputs", inputs},
                         {"nn_module_stack", stack}});
    };
    add("l_x_", "placeholder", {}, nlohmann::json::array());
    std::string last = "l_x_";
    for (int b = 0; b < 6; ++b) {
        std::string block = "layers." + std::to_string(b);
        nlohmann::json blockStack = {scope(block, "Block")};
        nlohmann::json attn = blockStack, mlp = blockStack;
        attn.push_back(scope(block + ".attn", "Attention"));
        mlp.push_back(scope(block + ".mlp", "MLP"));
        std::string in = last;
        for (int i = 0; i < 10; ++i) {
            std::string name = "attn_" + std::to_string(b) + "_" + std::to_string(i);
            add(name, "call_function", {i == 0 ? in : nodes.back()["name"].get<std::string>()}, attn);
        }
        std::string weight = "l_self_modules_layers_modules_" + std::to_string(b) + "_modules_mlp_parameters_weight_";
        add(weight, "placeholder", {}, nlohmann::json::array());
        for (int i = 0; i < 8; ++i) {
            std::string name = "mlp_" + std::to_string(b) + "_" + std::to_string(i);
            std::string previous = i == 0 ? "attn_" + std::to_string(b) + "_9" : "mlp_" + std::to_string(b) + "_" + std::to_string(i - 1);
            add(name, "call_function", i == 0 ? std::vector<std::string>{previous, weight} : std::vector<std::string>{previous}, mlp);
        }
        last = "add_" + std::to_string(b);
        add(last, "call_function", {in, "mlp_" + std::to_string(b) + "_7"}, blockStack);
    }
    add("head", "call_function", {last}, {scope("head", "Linear")});
    add("output", "output", {"head"}, nlohmann::json::array());
    return DrawnGraph::fromJson({{"nodes", nodes}});
}

bool waitForLayout(GraphView& view) {
    return QTest::qWaitFor([&] { return !view.layoutPending(); }, 10000);
}

QStringList modulesMatching(const QStringList& paths, const QString& part) {
    QStringList out;
    for (const QString& p : paths)
        if (p.contains(part)) out << p;
    return out;
}

}  // namespace

class ModuleGroupsTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theVisibleGraphMergesEdgesIntoCollapsedModules() {
        // Nodes 0 and 3 outside, 1 and 2 in module a, 2 in its submodule a.b.
        ModuleTree tree({{}, {{"a", "A"}}, {{"a", "A"}, {"a.b", "B"}}, {}});
        QCOMPARE(tree.modules().size(), size_t(2));
        QCOMPARE(tree.modules()[0].nodeCount, 2);
        QCOMPARE(tree.modules()[1].depth, 1);
        std::vector<std::pair<int, int>> edges{{0, 1}, {0, 2}, {1, 2}, {2, 3}, {1, 3}};
        VisibleGraph collapsed = visibleGraph(tree, {0, 0}, edges);
        QCOMPARE(collapsed.items.size(), size_t(3));  // 0, a, 3
        QCOMPARE(collapsed.items[1].module, 0);
        QCOMPARE(collapsed.edges, (std::vector<std::pair<int, int>>{{0, 1}, {1, 2}}));  // one of each, no loop
        VisibleGraph open = visibleGraph(tree, {1, 0}, edges);
        QCOMPARE(open.items.size(), size_t(4));  // 0, 1, a.b, 3
        QCOMPARE(open.items[2].module, 1);
        QCOMPARE(open.edges.size(), size_t(5));
    }

    void aGraphOpensWithTheTopLevelsThatFitItsBudget() {
        std::vector<std::vector<ModuleScopeName>> stacks;
        for (int b = 0; b < 4; ++b)
            for (int i = 0; i < 20; ++i) stacks.push_back({{"b" + std::to_string(b), "Block"}, {"b" + std::to_string(b) + ".inner", "Inner"}});
        ModuleTree tree(stacks);
        // Top level: 4 boxes; the blocks open: 4 inner boxes; the inner ones: 80 nodes.
        QCOMPARE(initialExpansion(tree, 10), (std::vector<char>{1, 0, 1, 0, 1, 0, 1, 0}));
        QCOMPARE(initialExpansion(tree, 3), (std::vector<char>(8, 0)));
        QCOMPARE(initialExpansion(tree, 80), (std::vector<char>(8, 1)));
    }

    // A graph is read once into its typed form: nodes that are not objects, have no name or
    // repeat one are left out, and a field of another kind reads as its default.
    void aGraphIsReadOnceLeavingOutWhatIsNoNode() {
        const DrawnGraph graph = DrawnGraph::fromJson(
            {{"nodes", {7, {{"op", "placeholder"}}, {{"name", "x"}, {"op", "placeholder"}, {"line", "3"}},
                        {{"name", "mul"}, {"op", "call_function"}, {"target", "aten.mul"}, {"inputs", {"x", 5, "x"}}, {"file", "m.py"},
                         {"line", 4}, {"source", "y = x * x"}, {"nn_module_stack", {scope("fc", "Linear"), "junk"}}, {"saved", "f32[2]"},
                         {"captured", "mul_1"}, {"members", {"a", "b"}}, {"group", "buf0"}},
                        {{"name", "x"}, {"op", "output"}}}}});
        QCOMPARE(graph.nodes.size(), size_t(2));
        QCOMPARE(graph.nodes[0].name, std::string("x"));
        QCOMPARE(graph.nodes[0].line, 0);
        const DrawnNode& mul = graph.nodes[1];
        QCOMPARE(mul.inputs, (std::vector<std::string>{"x", "x"}));
        QCOMPARE(mul.file + ":" + std::to_string(mul.line) + " " + mul.source, std::string("m.py:4 y = x * x"));
        QCOMPARE(mul.moduleStack.size(), size_t(1));
        QCOMPARE(mul.moduleStack[0].path + " " + mul.moduleStack[0].className, std::string("fc Linear"));
        QCOMPARE(mul.saved + " " + mul.captured + " " + mul.group + " " + mul.target, std::string("f32[2] mul_1 buf0 aten.mul"));
        QCOMPARE(mul.members, (std::vector<std::string>{"a", "b"}));
        QVERIFY(DrawnGraph::fromJson(nullptr).empty());
        QVERIFY(DrawnGraph::fromJson({{"nodes", "x"}}).empty());
    }

    void aParameterJoinsTheModulesAllItsUsersShare() {
        nlohmann::json nodes = nlohmann::json::array(
            {{{"name", "l_self_modules_fc_parameters_weight_"}, {"op", "placeholder"}},
             {{"name", "l_self_modules_emb_parameters_weight_"}, {"op", "placeholder"}},
             {{"name", "l_x_"}, {"op", "placeholder"}},
             {{"name", "linear"}, {"op", "call_function"}, {"inputs", {"l_x_", "l_self_modules_fc_parameters_weight_"}},
              {"nn_module_stack", {scope("fc", "Linear")}}},
             {{"name", "embedding"}, {"op", "call_function"}, {"inputs", {"l_self_modules_emb_parameters_weight_"}},
              {"nn_module_stack", {scope("emb", "Embedding")}}},
             {{"name", "tied"}, {"op", "call_function"}, {"inputs", {"l_self_modules_emb_parameters_weight_"}},
              {"nn_module_stack", {scope("head", "Linear")}}}});
        const DrawnGraph list = DrawnGraph::fromJson({{"nodes", nodes}});
        std::vector<std::vector<ModuleScopeName>> stacks = moduleStacks(list).stacks;
        QCOMPARE(stacks[0].size(), size_t(1));
        QCOMPARE(stacks[0][0].path, std::string("fc"));
        QVERIFY(stacks[1].empty());  // tied: used by emb and head
        QVERIFY(stacks[2].empty());  // an input, not a parameter
        // Numbered in the order the graph's ops use them, the adopted weight's listing first aside.
        ModuleTree tree(moduleStacks(list));
        QCOMPARE(tree.modules()[0].path, std::string("fc"));
        QCOMPARE(tree.modules()[1].path, std::string("emb"));
    }

    void aModelGraphOpensWithItsBlocksExpandedAndTheirPartsCollapsed() {
        GraphView view;
        view.resize(1000, 800);
        view.showGraph(modelGraph());
        QVERIFY(waitForLayout(view));
        QCOMPARE(view.modulePaths().size(), 19);
        QVERIFY(view.isModuleExpanded("layers.0"));
        QVERIFY(!view.isModuleExpanded("layers.0.attn"));
        QCOMPARE(view.collapsedModules().size(), 12);
        QCOMPARE(modulesMatching(view.collapsedModules(), "layers.3"), (QStringList{"layers.3.attn", "layers.3.mlp"}));
        // Drawn: the input, the six adds, head (its module is expanded) and the output.
        QCOMPARE(view.nodeCount(), 9);
        QVERIFY(!view.nodeNames().contains("l_self_modules_layers_modules_0_modules_mlp_parameters_weight_"));
    }

    void expandingOrCollapsingAModuleRedrawsTheGraph() {
        GraphView view;
        view.showGraph(modelGraph());
        QVERIFY(waitForLayout(view));
        QVERIFY(view.expandModule("layers.2.mlp"));
        QVERIFY(!view.expandModule("layers.2.mlp"));  // no change
        QVERIFY(!view.expandModule("no.such.module"));
        QVERIFY(waitForLayout(view));
        QCOMPARE(view.nodeCount(), 9 + 9);  // its 8 ops and its weight
        QVERIFY(view.nodeNames().contains("l_self_modules_layers_modules_2_modules_mlp_parameters_weight_"));
        QVERIFY(!view.collapsedModules().contains("layers.2.mlp"));
        QVERIFY(view.collapseModule("layers.2"));
        QVERIFY(waitForLayout(view));
        QVERIFY(view.collapsedModules().contains("layers.2"));
        QVERIFY(modulesMatching(view.collapsedModules(), "layers.2.").isEmpty());
        QCOMPARE(view.nodeCount(), 8);  // add_2 went into the box
        QVERIFY(view.isModuleExpanded("layers.2.mlp"));  // remembered inside the collapsed block
    }

    void findingOrHighlightingAHiddenNode() {
        GraphView view;
        view.showGraph(modelGraph());
        QVERIFY(waitForLayout(view));
        // Highlighted while hidden: its module's box is outlined.
        view.setHighlighted({"attn_1_4", "add_1"});
        QCOMPARE(view.outlined(), (QStringList{"module:layers.1.attn", "add_1"}));
        // Found: the modules around it open and it is selected once drawn.
        QVERIFY(view.findNode("attn_4_7"));
        QVERIFY(waitForLayout(view));
        QVERIFY(view.isModuleExpanded("layers.4.attn"));
        QCOMPARE(view.selectedNames(), QStringList{"attn_4_7"});
        QVERIFY(!view.findNode("no_such_node"));
        // Cleared, the graph and its modules are gone, and a layout still running is not drawn.
        view.clearGraph();
        QVERIFY(!view.findNode("attn_2_3"));
        QVERIFY(view.modulePaths().isEmpty());
        view.showGraph(modelGraph());
        view.clearGraph();
        QVERIFY(!view.layoutPending());
        QTest::qWait(300);
        QCOMPARE(view.nodeCount(), 0);
    }

    void theMouseAndTheKeyboardExpandAndCollapse() {
        GraphView view;
        view.resize(1200, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.showGraph(modelGraph());
        QVERIFY(waitForLayout(view));
        QVERIFY(view.revealModule("layers.0.mlp"));
        QSignalSpy clicked(&view, &GraphView::moduleClicked);
        QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, view.moduleCentre("layers.0.mlp"));
        QCOMPARE(clicked.size(), 1);
        QCOMPARE(clicked[0][0].toString(), QString("layers.0.mlp"));
        // A double-click on the box expands it.
        QTest::mouseDClick(view.viewport(), Qt::LeftButton, {}, view.moduleCentre("layers.0.mlp"));
        QVERIFY(waitForLayout(view));
        QVERIFY(view.isModuleExpanded("layers.0.mlp"));
        // One on its frame's title collapses it again.
        QVERIFY(view.revealModule("layers.0.mlp"));
        QTest::mouseDClick(view.viewport(), Qt::LeftButton, {}, view.moduleCentre("layers.0.mlp"));
        QVERIFY(waitForLayout(view));
        QVERIFY(!view.isModuleExpanded("layers.0.mlp"));
        // + on a selected box expands it; - on a node collapses the module it ran in.
        QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, view.moduleCentre("layers.0.mlp"));
        QTest::keyClick(view.viewport(), Qt::Key_Plus);
        QVERIFY(waitForLayout(view));
        QVERIFY(view.isModuleExpanded("layers.0.mlp"));
        QVERIFY(view.findNode("mlp_0_3"));
        QTest::keyClick(view.viewport(), Qt::Key_Minus);
        QVERIFY(waitForLayout(view));
        QVERIFY(!view.isModuleExpanded("layers.0.mlp"));
    }
};

QTEST_MAIN(ModuleGroupsTest)
#include "module_groups_test.moc"
