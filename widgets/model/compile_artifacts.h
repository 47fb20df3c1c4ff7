#pragma once
// The texts one compile produced, gathered from the event stream: its graphs' readable code,
// the IR before and after fusion, and the generated code with what its toolchain made of it.
// A compile with several graphs (graph breaks) gets each graph's text under a header line.

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
    QString graphs;        // fx_graph_readable of each graph
    nlohmann::json graph;  // the first graph's nodes (graph JSON), null when none
    // A training graph's (the first graph's) AOT Autograd graphs, by stage (aot_joint_graph,
    // aot_forward_graph, aot_backward_graph); each node names the captured node it computes
    // or differentiates ("captured"). Empty when the graph needed no gradients.
    std::map<std::string, nlohmann::json> aotGraphs;
    QString preFusion;     // ir_pre_fusion; of a TORCH_TRACE log, PyTorch's AOT graphs
    QString postFusion;    // ir_post_fusion; of a TORCH_TRACE log, inductor's post-grad graph
    QString language;      // of the generated code: "cpp" or "cuda"
    QString source;        // output_code (C++ or CUDA)
    // What the toolchain made of the code, by kernel_source artifact name: llvm_ir and asm
    // (cpp), ptx and sass (cuda, sass when the toolkit has nvdisasm).
    std::map<std::string, QString> codeArtifacts;
    CompileProvenance provenance;  // of the first graph, with line numbers of the texts above
    std::vector<FusionStep> fusionSteps;  // as the Fusion stepper shows them
};

CompileArtifacts compileArtifacts(const RunStore& store, const QString& compileId);

}  // namespace fusescope::gui
