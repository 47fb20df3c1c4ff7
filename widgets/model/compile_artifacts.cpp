#include "model/compile_artifacts.h"

#include "model/json_fields.h"

namespace fusescope::gui {

namespace {

// Appends one graph's text; a second graph of the compile gets a header so they can be told apart.
void add(QString& to, const nlohmann::json& event, const char* field) {
    QString text = qstringField(event, field);
    if (text.isEmpty()) return;
    QString graph = qstringField(event, "graph_name");  // graph_captured
    if (graph.isEmpty()) graph = qstringField(event, "graph");  // the IR dumps and kernel_source
    if (!to.isEmpty()) to += "\n";
    if (!graph.isEmpty()) to += "# ===== " + graph + " =====\n";
    to += text;
}

}  // namespace

CompileArtifacts compileArtifacts(const RunStore& store, const QString& compileId) {
    CompileArtifacts a;
    const std::string id = compileId.toStdString();
    for (const auto& e : store.events()) {
        if (stringField(e, "compile_id") != id) continue;
        const std::string type = stringField(e, "type");
        if (type == "graph_captured") {
            add(a.graphs, e, "readable");
            if (a.graph.is_null() && e.contains("graph")) a.graph = e["graph"];
        }
        else if (type == "ir_pre_fusion") add(a.preFusion, e, "text");
        else if (type == "ir_post_fusion") add(a.postFusion, e, "text");
        else if (type == "kernel_source") {
            add(a.source, e, "source");
            add(a.llvmIr, e, "llvm_ir");
            add(a.assembly, e, "assembly");
        }
    }
    return a;
}

}  // namespace fusescope::gui
