#include "panes/graph_pane.h"

#include <limits>

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTabWidget>
#include <QVBoxLayout>

#include "views/code_view.h"
#include "views/graph_view.h"

namespace fusescope::gui {

GraphPane::GraphPane(SelectionContext* context, QWidget* parent) : Pane(context, parent) {
    tabs_ = new QTabWidget(this);
    captured_ = new GraphView(tabs_);
    tabs_->addTab(captured_, tr("Captured"));
    // In the order PyTorch makes them; each tab shows where the compile has its graph.
    for (const auto& [stage, title] : {std::pair{"inductor_pre_grad_graph", tr("Pre-grad")}, {"aot_joint_graph", tr("Joint")},
                                       {"aot_forward_graph", tr("Forward")}, {"aot_backward_graph", tr("Backward")},
                                       {"aot_inference_graph", tr("Inference")}, {"inductor_post_grad_graph", tr("Post-grad")}}) {
        auto* view = new GraphView(tabs_);
        view->setObjectName(stage);
        tabs_->setTabVisible(tabs_->addTab(view, title), false);
        stages_.push_back({stage, view, {}});
        connect(view, &GraphView::nodeClicked, this, [this, i = stages_.size() - 1](const QString& node) {
            auto it = stages_[i].captured.find(node);  // a gradient sum made by no one op selects nothing
            if (it != stages_[i].captured.end() && capturedNodes_.contains(it->second)) this->context().selectGraphNode(it->second);
            // PyTorch's post-grad node whose kernel provenance tracking named: that kernel.
            else if (!this->context().provenance().kernelOf(node).isEmpty()) this->context().selectSchedulerNode(node);
        });
    }
    afterFusion_ = new GraphView(tabs_);
    tabs_->addTab(afterFusion_, tr("After fusion"));
    code_ = new CodeView(CodeView::Language::Python, tabs_);
    tabs_->addTab(code_, tr("Code"));
    auto* content = new QWidget(this);
    auto* column = new QVBoxLayout(content);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    column->addWidget(buildToolRow());
    column->addWidget(tabs_, 1);
    setContent(content, GraphPicker::Yes);
    connect(captured_, &GraphView::nodeClicked, context, &SelectionContext::selectGraphNode);
    connect(afterFusion_, &GraphView::nodeClicked, context, &SelectionContext::selectSchedulerNode);
    connect(captured_, &GraphView::moduleClicked, context, &SelectionContext::selectModule);
    connect(context, &SelectionContext::moduleToggleRequested, captured_, &GraphView::toggleModule);
}

void GraphPane::showCompile(const CompileArtifacts& a) {
    const CompileProvenance& provenance = a.provenance;
    code_->showText(a.graphs);
    capturedNodes_.clear();
    for (const DrawnNode& node : a.graph.nodes) capturedNodes_.insert(QString::fromStdString(node.name));
    if (a.graph.empty()) {
        captured_->clearGraph();
    } else {
        DrawnGraph graph = a.graph;  // each node filled by the kernel it ends up in
        for (DrawnNode& node : graph.nodes)
            node.group = provenance.fusedNodeOf(provenance.bufferOfGraphNode(QString::fromStdString(node.name))).toStdString();
        captured_->showGraph(std::move(graph));
    }
    if (provenance.preFusionNodes().isEmpty()) afterFusion_->clearGraph();
    else afterFusion_->showGraph(schedulerGraphAt(provenance, a.fusionSteps, std::numeric_limits<int>::max()));
    afterFusion_->setEmptyNote(a.fromPyTorch ? tr("PyTorch's TORCH_TRACE log does not list inductor's scheduler nodes, so "
                                                  "there is nothing to draw after fusion: its fused kernels are in Generated Code "
                                                  "(Output code), the graph they were made from in Post-grad.")
                                             : whyNoLoopIr(a));
    for (StageTab& tab : stages_) {
        auto graph = a.stageGraphs.find(tab.stage.toStdString());
        bool shown = graph != a.stageGraphs.end();
        tabs_->setTabVisible(tabs_->indexOf(tab.view), shown);
        tab.captured.clear();
        if (!shown) {
            tab.view->clearGraph();
            continue;
        }
        // Values saved for backward (labelled "saved f32[...]") are filled alike.
        DrawnGraph drawn = graph->second;
        for (DrawnNode& node : drawn.nodes) {
            tab.captured[QString::fromStdString(node.name)] = QString::fromStdString(node.captured);
            if (!node.saved.empty()) node.group = "saved for backward";
        }
        tab.view->showGraph(std::move(drawn));
    }
}

QWidget* GraphPane::buildToolRow() {
    auto* row = new QWidget(this);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(4, 2, 4, 0);
    find_ = new QLineEdit(row);
    find_->setObjectName("graphFind");
    find_->setPlaceholderText(tr("Find a node by name or target (Ctrl+F)"));
    find_->setToolTip(tr("Typing shows the first match; Enter chooses it, as a click would; Enter again goes to the next"));
    find_->setClearButtonEnabled(true);
    auto* focus = new QAction(this);
    focus->setShortcut(QKeySequence::Find);
    focus->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(focus, &QAction::triggered, find_, [this] {
        find_->setFocus();
        find_->selectAll();
    });
    addAction(focus);
    found_ = new QLabel(row);
    grouping_ = new QComboBox(row);
    grouping_->addItem(tr("Group automatically"), int(GraphView::Grouping::Auto));
    grouping_->addItem(tr("Group by module"), int(GraphView::Grouping::Modules));
    grouping_->addItem(tr("Group by source line"), int(GraphView::Grouping::SourceLines));
    grouping_->addItem(tr("No grouping"), int(GraphView::Grouping::None));
    grouping_->setToolTip(tr("Collapse the nodes an nn.Module ran, or those one script line made, into one box "
                             "(automatically: by module where the graph has modules, else by source line once it is big), "
                             "or draw every node"));
    layout->addWidget(find_, 1);
    layout->addWidget(found_);
    layout->addWidget(grouping_);
    connect(find_, &QLineEdit::textChanged, this, [this] {
        GraphView* view = viewOnShow();
        matches_ = view ? view->matchingNodes(find_->text()) : QStringList();
        match_ = matches_.isEmpty() ? -1 : 0;
        matchChosen_ = false;
        const auto n = matches_.size();
        found_->setText(find_->text().trimmed().isEmpty() ? QString() : n == 1 ? tr("1 match") : tr("%1 matches").arg(n));
        if (!matches_.isEmpty()) view->findNode(matches_[0]);
    });
    connect(find_, &QLineEdit::returnPressed, this, &GraphPane::findNext);
    connect(grouping_, &QComboBox::currentIndexChanged, this, [this] {
        auto grouping = static_cast<GraphView::Grouping>(grouping_->currentData().toInt());
        captured_->setGrouping(grouping);
        for (StageTab& tab : stages_) tab.view->setGrouping(grouping);
    });
    return row;
}

bool GraphPane::showStageGraph(const QString& stage) {
    if (!stageTabShown(stage)) return false;
    tabs_->setCurrentWidget(stageView(stage));
    return true;
}

GraphView* GraphPane::viewOnShow() const { return qobject_cast<GraphView*>(tabs_->currentWidget()); }

void GraphPane::findNext() {
    GraphView* view = viewOnShow();
    if (!view || matches_.isEmpty()) return;
    if (matchChosen_ || match_ < 0) match_ = (match_ + 1) % static_cast<int>(matches_.size());
    matchChosen_ = true;
    view->chooseNode(matches_[match_]);
    found_->setText(tr("%1 of %2").arg(match_ + 1).arg(matches_.size()));
}

GraphView* GraphPane::stageView(const QString& stage) const {
    for (const StageTab& tab : stages_)
        if (tab.stage == stage) return tab.view;
    return nullptr;
}

bool GraphPane::stageTabShown(const QString& stage) const {
    GraphView* view = stageView(stage);
    return view && tabs_->isTabVisible(tabs_->indexOf(view));
}

void GraphPane::showStageNodes(const QStringList& capturedNodes) {
    for (const StageTab& tab : stages_) {
        QStringList names;
        for (const auto& [node, captured] : tab.captured)
            if (capturedNodes.contains(captured)) names << node;
        tab.view->setHighlighted(names);
    }
}

void GraphPane::showNode(const QString& graphNode, const QString& buffer) {
    const CompileProvenance& provenance = context().provenance();
    QStringList capturedNodes = graphNode.isEmpty() ? provenance.graphNodesOf(buffer) : QStringList{graphNode};
    captured_->setHighlighted(capturedNodes);
    afterFusion_->setHighlighted({provenance.fusedNodeOf(buffer)});
    showStageNodes(capturedNodes);
    showPostGradNodesOfKernel(provenance.kernelOf(buffer));
}

void GraphPane::showPostGradNodesOfKernel(const QString& kernel) {
    if (kernel.isEmpty()) return;
    for (const StageTab& tab : stages_) {
        if (tab.stage != "inductor_post_grad_graph") continue;
        QStringList computed;  // by the kernel, as PyTorch's provenance tracking says
        for (const auto& [node, captured] : tab.captured)
            if (context().provenance().kernelOf(node) == kernel) computed << node;
        tab.view->setHighlighted(computed);
    }
}

void GraphPane::showModule(const QString& path) {
    if (!path.isEmpty()) captured_->revealModule(path);
}

}  // namespace fusescope::gui
