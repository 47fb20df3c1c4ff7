#include "selection/selection_context.h"

#include "graph/module_groups.h"

namespace fusescope::gui {

SelectionContext::SelectionContext(const RunStore* store, QObject* parent) : QObject(parent), store_(store) {}

void SelectionContext::setCompileId(const QString& id) {
    if (id == compileId_) return;
    compileId_ = id;
    graphNode_.clear();
    buffer_.clear();
    module_.clear();
    moduleBuffers_.clear();
    compile_ = compileArtifacts(*store_, id);
    Q_EMIT compileChanged(id);
    Q_EMIT compileShown(compile_);
}

void SelectionContext::refreshCompile() {
    compile_ = compileArtifacts(*store_, compileId_);
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

void SelectionContext::selectKernel(const QString& compileId, const QString& kernel) {
    setCompileId(compileId);
    for (const auto& n : provenance().preFusionNodes())
        if (provenance().kernelOf(n.name) == kernel) {
            selectSchedulerNode(provenance().fusedNodeOf(n.name));
            return;
        }
}

}  // namespace fusescope::gui
