#include "selection/selection_context.h"

#include "graph/module_groups.h"

namespace fusescope::gui {

namespace {

// The fused group a kernel of the graph computes ("" when none does).
QString groupOfKernel(const CompileProvenance& provenance, const QString& kernel) {
    for (const auto& n : provenance.preFusionNodes())
        if (provenance.kernelOf(n.name) == kernel) return provenance.fusedNodeOf(n.name);
    return {};
}

}  // namespace

SelectionContext::SelectionContext(const RunStore* store, QObject* parent) : QObject(parent), store_(store) {}

void SelectionContext::setCompileId(const QString& id) {
    if (id == compileId_) return;
    compileId_ = id;
    clearNodeSelection();
    compile_ = compileArtifacts(*store_, id);
    Q_EMIT compileChanged(id);
    Q_EMIT compileShown(compile_);
}

void SelectionContext::setGraph(const QString& graphName) {
    if (graphName == compile_.graphName || !compile_.graphNames.contains(graphName)) return;
    clearNodeSelection();
    compile_ = compileArtifacts(*store_, compileId_, graphName);
    Q_EMIT compileShown(compile_);
}

void SelectionContext::clearNodeSelection() {
    graphNode_.clear();
    buffer_.clear();
    module_.clear();
    moduleBuffers_.clear();
}

void SelectionContext::refreshCompile() {
    compile_ = compileArtifacts(*store_, compileId_, compile_.graphName);
    Q_EMIT compileShown(compile_);
}

void SelectionContext::setNode(const QString& graphNode, const QString& buffer) {
    if (graphNode == graphNode_ && buffer == buffer_) return;
    graphNode_ = graphNode;
    buffer_ = buffer;
    Q_EMIT nodeChanged(graphNode, buffer);
}

void SelectionContext::selectModule(const QString& path) {
    if (path == module_) return;
    module_ = path;
    moduleBuffers_.clear();
    if (!path.isEmpty())
        for (const std::string& node : nodesInModule(compile_.graph, path.toStdString()))
            if (QString buffer = provenance().bufferOfGraphNode(QString::fromStdString(node));
                !buffer.isEmpty() && !moduleBuffers_.contains(buffer))
                moduleBuffers_ << buffer;
    Q_EMIT moduleChanged(path);
}

void SelectionContext::selectGraphNode(const QString& node) { setNode(node, provenance().bufferOfGraphNode(node)); }

void SelectionContext::selectSchedulerNode(const QString& node) {
    if (!node.isEmpty()) setNode(provenance().graphNodesOf(node).value(0), node);
}

void SelectionContext::selectKernel(const QString& compileId, const QString& kernel, const QString& buffer) {
    setCompileId(compileId);
    auto groupIn = [&](const CompileProvenance& p) {
        return !buffer.isEmpty() && p.kernelOf(buffer) == kernel ? p.fusedNodeOf(buffer) : groupOfKernel(p, kernel);
    };
    QString group = groupIn(provenance());
    // A kernel of another graph of the compile (after a graph break) shows that graph.
    const QStringList graphs = compile_.graphNames;
    for (const QString& graph : graphs)
        if (group.isEmpty() && graph != compile_.graphName && !groupIn(compileArtifacts(*store_, compileId_, graph).provenance).isEmpty()) {
            setGraph(graph);
            group = groupIn(provenance());
        }
    if (!group.isEmpty()) selectSchedulerNode(group);
}

}  // namespace fusescope::gui
