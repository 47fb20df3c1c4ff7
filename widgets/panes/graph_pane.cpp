#include "panes/graph_pane.h"

#include <limits>

#include <QTabWidget>

#include "model/json_fields.h"
#include "views/code_view.h"
#include "views/graph_view.h"

namespace fusescope::gui {

GraphPane::GraphPane(SelectionContext* context, QWidget* parent) : Pane(context, parent) {
    auto* tabs = new QTabWidget(this);
    captured_ = new GraphView(tabs);
    afterFusion_ = new GraphView(tabs);
    code_ = new CodeView(CodeView::Language::Python, tabs);
    tabs->addTab(captured_, tr("Captured"));
    tabs->addTab(afterFusion_, tr("After fusion"));
    tabs->addTab(code_, tr("Code"));
    setContent(tabs);
    connect(captured_, &GraphView::nodeClicked, context, &SelectionContext::selectGraphNode);
    connect(afterFusion_, &GraphView::nodeClicked, context, &SelectionContext::selectSchedulerNode);
    connect(captured_, &GraphView::moduleClicked, context, &SelectionContext::selectModule);
    connect(context, &SelectionContext::moduleToggleRequested, captured_, &GraphView::toggleModule);
}

void GraphPane::showCompile(const CompileArtifacts& a) {
    const CompileProvenance& provenance = a.provenance;
    code_->showText(a.graphs);
    if (a.graph.is_null()) {
        captured_->clearGraph();
    } else {
        // Each node filled by the kernel it ends up in.
        nlohmann::json graph = a.graph;
        if (graph.contains("nodes") && graph["nodes"].is_array())
            for (auto& node : graph["nodes"])
                if (node.is_object())
                    node["group"] = provenance.fusedNodeOf(provenance.bufferOfGraphNode(qstringField(node, "name"))).toStdString();
        captured_->showGraph(graph);
    }
    if (provenance.preFusionNodes().isEmpty()) afterFusion_->clearGraph();
    else afterFusion_->showGraph(schedulerGraphAt(provenance, a.fusionSteps, std::numeric_limits<int>::max()));
}

void GraphPane::showNode(const QString& graphNode, const QString& buffer) {
    const CompileProvenance& provenance = context().provenance();
    captured_->setHighlighted(graphNode.isEmpty() ? provenance.graphNodesOf(buffer) : QStringList{graphNode});
    afterFusion_->setHighlighted({provenance.fusedNodeOf(buffer)});
}

void GraphPane::showModule(const QString& path) {
    if (!path.isEmpty()) captured_->revealModule(path);
}

}  // namespace fusescope::gui
