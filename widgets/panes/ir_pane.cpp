#include "panes/ir_pane.h"

#include <QSplitter>

#include "views/code_view.h"

namespace fusescope::gui {

IrPane::IrPane(SelectionContext* context, QWidget* parent) : Pane(context, parent) {
    auto* split = new QSplitter(Qt::Horizontal, this);
    preFusion_ = new CodeView(CodeView::Language::IrDump, split);
    postFusion_ = new CodeView(CodeView::Language::IrDump, split);
    split->addWidget(preFusion_);
    split->addWidget(postFusion_);
    setContent(split);
    connect(preFusion_, &CodeView::lineClicked, this,
            [this](int line) { this->context().selectSchedulerNode(this->context().provenance().preFusionNodeAt(line)); });
    connect(postFusion_, &CodeView::lineClicked, this,
            [this](int line) { this->context().selectSchedulerNode(this->context().provenance().postFusionNodeAt(line)); });
    connect(context, &SelectionContext::fusionPairChanged, this, &IrPane::showFusionPair);
}

void IrPane::showCompile(const CompileArtifacts& a) {
    preFusion_->showText(a.preFusion);
    postFusion_->showText(a.postFusion);
}

void IrPane::showNode(const QString&, const QString& buffer) {
    const CompileProvenance& provenance = context().provenance();
    if (buffer.isEmpty()) {
        preFusion_->highlightLines({});
        postFusion_->highlightLines({});
        return;
    }
    // A fused node is its members' blocks before fusion; a buffer is its own block after it
    // (nested in its group's).
    LineRanges pre = provenance.preFusionLines(buffer);
    for (const auto& n : provenance.postFusionNodes())
        if (n.name == buffer)
            for (const auto& member : n.members) pre += provenance.preFusionLines(member);
    preFusion_->highlightLines(pre);
    postFusion_->highlightLines(provenance.postFusionLines(buffer));
}

void IrPane::showFusionPair(const QString& node1, const QString& node2) {
    // A group one of the steps made is its buffers' blocks before fusion.
    const CompileArtifacts& compile = context().compile();
    LineRanges pre, post;
    for (const QString& node : {node1, node2}) {
        if (node.isEmpty()) continue;
        post += compile.provenance.postFusionLines(node);
        for (const QString& buffer : fusedBuffers(compile.fusionSteps, node)) pre += compile.provenance.preFusionLines(buffer);
    }
    preFusion_->highlightLines(pre);
    postFusion_->highlightLines(post);
}

}  // namespace fusescope::gui
