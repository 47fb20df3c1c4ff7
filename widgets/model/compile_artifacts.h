#pragma once
// The texts one compile produced, gathered from the event stream: its graphs' readable code,
// the IR before and after fusion, and the generated code with its LLVM IR and assembly.
// A compile with several graphs (graph breaks) gets each graph's text under a header line.

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
    QString preFusion;     // ir_pre_fusion
    QString postFusion;    // ir_post_fusion
    QString language;      // of the generated code: "cpp" or "cuda"
    QString source;        // output_code (C++ or CUDA)
    QString llvmIr;        // cpp
    QString assembly;      // cpp
    QString ptx;           // cuda
    QString sass;          // cuda, when the toolkit has nvdisasm
    CompileProvenance provenance;  // of the first graph, with line numbers of the texts above
    std::vector<FusionStep> fusionSteps;  // as the Fusion stepper shows them
};

CompileArtifacts compileArtifacts(const RunStore& store, const QString& compileId);

}  // namespace fusescope::gui
