#pragma once
// The one selection every pane shares (docs/architecture.md, "GUI"; RenderDoc's pattern):
// a pane reports what the user picked, every pane follows. Setting the same value again
// emits nothing, so panes that follow each other cannot loop.
//
// It owns what the compile on show produced (CompileArtifacts), gathered once per change, so
// panes fill themselves from it instead of being handed data. A compile with graph breaks
// has several graphs: one is on show (drawn, linked, stepped through), the first unless the
// user picks another. Within it, the selection is a captured-graph node and the scheduler
// node (buffer or fused group) it went into; picking either sets both through the graph's
// provenance.

#include <QObject>
#include <QString>
#include <QStringList>

#include "model/compile_artifacts.h"
#include "model/run_store.h"

namespace fusescope::gui {

class SelectionContext : public QObject {
    Q_OBJECT
public:
    explicit SelectionContext(const RunStore* store, QObject* parent = nullptr);

    const RunStore& store() const { return *store_; }
    const QString& compileId() const { return compileId_; }
    const QString& graphName() const { return compile_.graphName; }
    const QString& graphNode() const { return graphNode_; }
    const QString& buffer() const { return buffer_; }
    const QString& module() const { return module_; }  // an nn.Module's path in the compile's graph
    // The scheduler nodes (buffers) the selected module's graph nodes went into, in graph order.
    const QStringList& moduleBuffers() const { return moduleBuffers_; }
    // What the compile on show produced; empty without one.
    const CompileArtifacts& compile() const { return compile_; }
    const CompileProvenance& provenance() const { return compile_.provenance; }

    // A new compile clears the node selection and shows its first graph.
    void setCompileId(const QString& id);
    // Shows another graph of the compile (a name of compile().graphNames); clears the node
    // selection.
    void setGraph(const QString& graphName);
    // Gathers the compile on show again (a live run's compile gains its IR and kernels).
    void refreshCompile();
    void setNode(const QString& graphNode, const QString& buffer);
    void selectGraphNode(const QString& node);
    void selectSchedulerNode(const QString& node);  // a buffer or fused group; "" is ignored
    // A kernel (of the execution trace) selects its compile, the graph it belongs to and the
    // group it computes.
    // The scheduler node a kernel computes: `buffer`'s where given (calls of one extern kernel
    // share its name), else the first that kernel computes.
    void selectKernel(const QString& compileId, const QString& kernel, const QString& buffer = {});
    // The pair of nodes a fusion step joins, for the panes that show both ("" when none).
    void showFusionPair(const QString& node1, const QString& node2) { Q_EMIT fusionPairChanged(node1, node2); }
    // Asks for a line (1-based) of a file of the run to be shown in its editor: the script's
    // ("" or its name) or a module's it imported, as the run's events name the file.
    void showSourceLine(const QString& file, int line) { Q_EMIT sourceLineRequested(file, line); }
    // Asks for `text` to be inserted at the start of 1-based `line` of the script (a doctor's
    // fix), and the script run again.
    void applyFix(const QString& file, int line, const QString& text) { Q_EMIT fixRequested(file, line, text); }
    // A module of the compile's graph (a path of its nodes' nn_module_stack); a new compile
    // clears it.
    void selectModule(const QString& path);
    // Asks the Graph view to expand the module, or collapse it when expanded.
    void toggleModule(const QString& path) { Q_EMIT moduleToggleRequested(path); }

Q_SIGNALS:
    void compileChanged(const QString& compileId);
    void compileShown(const CompileArtifacts& compile);  // after compileChanged, and on refreshCompile
    void nodeChanged(const QString& graphNode, const QString& buffer);
    void fusionPairChanged(const QString& node1, const QString& node2);
    void sourceLineRequested(const QString& file, int line);
    void fixRequested(const QString& file, int line, const QString& text);
    void moduleChanged(const QString& path);
    void moduleToggleRequested(const QString& path);

private:
    const RunStore* store_;
    void clearNodeSelection();

    QString compileId_, graphNode_, buffer_, module_;
    QStringList moduleBuffers_;
    CompileArtifacts compile_;
};

}  // namespace fusescope::gui
