#pragma once
// Where everything of one compile's graph came from and went (docs/architecture.md, principle 4), from
// the events' provenance fields (compileArtifacts fills it): which captured-graph nodes each scheduler node computes,
// which IR dump lines describe it, which generated C++ lines compute it, which kernel it is
// in. Views ask it to turn a selection in one view into what to highlight in the others.

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <utility>

#include "observe/event.h"

namespace fusescope::gui {

using LineRange = std::pair<int, int>;  // 1-based, inclusive
using LineRanges = QList<LineRange>;

struct SchedulerNodeInfo {
    QString name;          // buf0, buf0_buf1
    QString kind;          // SchedulerNode, ExternKernelSchedulerNode, FusedSchedulerNode
    QStringList origins;   // captured-graph nodes it computes
    QStringList reads;     // buffers and graph inputs it reads
    QStringList members;   // a fused node's buffers
    QString realizedBecause;  // why its value is a buffer ("a reduction", a limit); "" for fused nodes
};

class CompileProvenance {
public:
    // From one graph's events; `lineOffset`: the lines shown above the event's text.
    void addPreFusion(const IrDumpEvent& event, int lineOffset);
    void addPostFusion(const IrDumpEvent& event, int lineOffset);
    void addKernelSource(const KernelSourceEvent& event, int lineOffset);

    const QList<SchedulerNodeInfo>& preFusionNodes() const { return pre_; }
    const QList<SchedulerNodeInfo>& postFusionNodes() const { return post_; }

    // The buffer where a graph node's value is first computed ("" when none, e.g. an input).
    QString bufferOfGraphNode(const QString& node) const;
    // The captured-graph nodes a buffer or fused node computes.
    QStringList graphNodesOf(const QString& buffer) const;
    // The post-fusion node (kernel group) holding a buffer; the buffer itself when unfused.
    QString fusedNodeOf(const QString& buffer) const;
    QString kernelOf(const QString& buffer) const;
    // Why a buffer is one rather than inlined into its readers ("" when unknown or fused).
    QString realizedBecause(const QString& buffer) const;

    // Lines of the IR dumps (before / after fusion) that describe a node, and the node a
    // line belongs to (the innermost block, so a fused node's member wins over the group).
    LineRanges preFusionLines(const QString& node) const { return preLines_.value(node); }
    LineRanges postFusionLines(const QString& node) const { return postLines_.value(node); }
    QString preFusionNodeAt(int line) const { return nodeAt(preLines_, line); }
    QString postFusionNodeAt(int line) const { return nodeAt(postLines_, line); }

    // Generated C++ lines computing a buffer (a fused node: all its members'), and the
    // buffer a line computes (the first one, for lines a kernel's members share). Of
    // PyTorch's output code (a TORCH_TRACE log with provenance tracking), the "buffers" are
    // its post-grad nodes and the lines their kernel's.
    LineRanges cppLines(const QString& buffer) const;
    QString bufferAtCppLine(int line) const;

private:
    static QString nodeAt(const QHash<QString, LineRanges>& blocks, int line);
    const SchedulerNodeInfo* preNode(const QString& name) const;  // null when none
    const SchedulerNodeInfo* postNode(const QString& name) const;

    // The nodes and, for lookups in constant time on graphs of thousands of nodes, where
    // each is in them, the post-fusion node holding each member, and the first buffer
    // computing each graph node.
    QList<SchedulerNodeInfo> pre_, post_;
    QHash<QString, qsizetype> preIndex_, postIndex_;
    QHash<QString, QString> groupOfMember_, bufferOfNode_;
    QHash<QString, LineRanges> preLines_, postLines_, cppLines_;
    QHash<QString, QString> kernels_;
};

// The line ranges of each node's block in an IR dump ("buf0: SchedulerNode(...)" up to the
// next block, a fused node's "snodes[i] =" line, or the end); exposed for tests.
QHash<QString, LineRanges> irDumpBlocks(const QString& text);

}  // namespace fusescope::gui
