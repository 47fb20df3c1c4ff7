#pragma once
// The texts one compile produced, gathered from the event stream: its graphs' readable code,
// the IR before and after fusion, and the generated code with what its toolchain made of it.
// A compile with several graphs (graph breaks) gets each graph's text under a header line;
// what is drawn and linked (the graph, provenance, AOT graphs, fusion steps) is of one of
// them, the first unless another is asked for.

#include <map>
#include <string>
#include <vector>

#include <QString>

#include "model/compile_provenance.h"
#include "model/fusion_steps_model.h"
#include "model/run_store.h"

namespace fusescope::gui {

struct CompileArtifacts {
    QString compileId;
    QStringList graphNames;  // the compile's captured graphs, in order
    QString graphName;       // the one on show: drawn, linked, stepped through
    QString backend;         // what compiled it ("" when the events do not say)
    QString graphs;          // fx_graph_readable of each graph
    DrawnGraph graph;        // the graph on show, empty when none
    // The graph on show's later graphs, by stage: a training graph's AOT Autograd graphs
    // (aot_joint_graph, aot_forward_graph, aot_backward_graph), each node naming the captured
    // node it computes or differentiates (`captured`); of a TORCH_TRACE log also
    // aot_inference_graph and inductor's pre- and post-grad graphs.
    std::map<std::string, DrawnGraph> stageGraphs;
    bool fromPyTorch = false;  // read from PyTorch's TORCH_TRACE log, not compiled by our engine
    QString preFusion;     // ir_pre_fusion
    QString postFusion;    // ir_post_fusion
    QString language;      // of the generated code: "cpp", "cuda", or PyTorch's "python"
    QString source;        // output_code (C++ or CUDA)
    // What the toolchain made of the code, by kernel_source artifact name: llvm_ir and asm
    // (cpp), ptx and sass (cuda, sass when the toolkit has nvdisasm).
    std::map<std::string, QString> codeArtifacts;
    CompileProvenance provenance;  // of the graph on show, with line numbers of the texts above
    std::vector<FusionStep> fusionSteps;  // as the Fusion stepper shows them
};

// Why the compile has no loop IR, fusion or generated code to show, in words that say what
// to do; "" when it has them (or may still get them: inductor still compiling).
QString whyNoLoopIr(const CompileArtifacts& compile);
// The same for the generated code, which PyTorch's log has without the loop IR.
QString whyNoGeneratedCode(const CompileArtifacts& compile);

// The captured graph `graphName` of a compile; empty when there is none.
DrawnGraph capturedGraph(const RunStore& store, const QString& compileId, const QString& graphName);

// `graphName`: the graph on show; empty or unknown, the first.
CompileArtifacts compileArtifacts(const RunStore& store, const QString& compileId, const QString& graphName = {});

}  // namespace fusescope::gui
