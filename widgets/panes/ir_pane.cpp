#include "panes/ir_pane.h"

#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include "views/code_view.h"

namespace fusescope::gui {

IrPane::IrPane(SelectionContext* context, QWidget* parent) : Pane(context, parent) {
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    why_ = new QLabel(content);
    why_->setObjectName("realizationReason");
    why_->setWordWrap(true);
    why_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    why_->setContentsMargins(4, 2, 4, 2);
    why_->hide();
    auto* split = new QSplitter(Qt::Horizontal, content);
    preFusion_ = new CodeView(CodeView::Language::IrDump, split);
    postFusion_ = new CodeView(CodeView::Language::IrDump, split);
    split->addWidget(preFusion_);
    split->addWidget(postFusion_);
    layout->addWidget(why_);
    layout->addWidget(split, 1);
    setContent(content, GraphPicker::Yes);
    connect(preFusion_, &CodeView::lineClicked, this,
            [this](int line) { this->context().selectSchedulerNode(this->context().provenance().preFusionNodeAt(line)); });
    connect(postFusion_, &CodeView::lineClicked, this,
            [this](int line) { this->context().selectSchedulerNode(this->context().provenance().postFusionNodeAt(line)); });
    connect(context, &SelectionContext::fusionPairChanged, this, &IrPane::showFusionPair);
}

void IrPane::showCompile(const CompileArtifacts& a) {
    showEmptyNote(whyNoLoopIr(a));
    preFusion_->showText(a.preFusion);
    postFusion_->showText(a.postFusion);
    if (a.graphNames.size() > 1)
        for (CodeView* view : {preFusion_, postFusion_}) view->scrollToGraph(a.graphName);
}

void IrPane::showNode(const QString&, const QString& buffer) {
    showRealization(buffer);
    highlightBuffers(buffer.isEmpty() ? QStringList{} : QStringList{buffer});
}

void IrPane::showModule(const QString&) {
    showRealization({});
    highlightBuffers(context().moduleBuffers());
}

void IrPane::highlightBuffers(const QStringList& buffers) {
    // A fused node is its members' blocks before fusion; a buffer is its own block after it
    // (nested in its group's).
    const CompileProvenance& provenance = context().provenance();
    LineRanges pre, post;
    for (const QString& buffer : buffers) {
        pre += provenance.preFusionLines(buffer);
        for (const auto& n : provenance.postFusionNodes())
            if (n.name == buffer)
                for (const auto& member : n.members) pre += provenance.preFusionLines(member);
        post += provenance.postFusionLines(buffer);
    }
    preFusion_->highlightLines(pre);
    postFusion_->highlightLines(post);
}

void IrPane::showRealization(const QString& buffer) {
    // A fused node: each member's reason; a buffer: its own.
    const CompileProvenance& provenance = context().provenance();
    QStringList buffers{buffer};
    for (const auto& n : provenance.postFusionNodes())
        if (n.name == buffer && !n.members.isEmpty()) buffers = n.members;
    QStringList reasons;
    for (const QString& b : buffers)
        if (QString why = provenance.realizedBecause(b); !why.isEmpty())
            reasons << tr("%1 is a buffer: %2").arg(b, why.toHtmlEscaped());
    why_->setText(reasons.join("<br>"));
    why_->setVisible(!reasons.isEmpty());
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
