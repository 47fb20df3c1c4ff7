#include "model/compile_artifacts.h"

#include "model/json_fields.h"

namespace fusescope::gui {

namespace {

// Appends one graph's text; a second graph of the compile gets a header so they can be told
// apart. Returns how many lines precede the text (-1 when there is none).
int add(QString& to, const nlohmann::json& event, const char* field) {
    QString text = qstringField(event, field);
    if (text.isEmpty()) return -1;
    QString graph = qstringField(event, "graph_name");  // graph_captured
    if (graph.isEmpty()) graph = qstringField(event, "graph");  // the IR dumps and kernel_source
    if (!to.isEmpty()) to += "\n";
    if (!graph.isEmpty()) to += "# ===== " + graph + " =====\n";
    int offset = static_cast<int>(to.count('\n'));
    to += text;
    return offset;
}

}  // namespace

CompileArtifacts compileArtifacts(const RunStore& store, const QString& compileId) {
    CompileArtifacts a;
    const std::string id = compileId.toStdString();
    std::string firstGraph;  // provenance follows the graph the Graph view shows
    for (int i : store.compileEvents(id)) {
        const nlohmann::json& e = store.at(i);
        const std::string type = stringField(e, "type");
        if (type == "graph_captured") {
            add(a.graphs, e, "readable");
            if (a.graph.is_null() && e.contains("graph")) {
                a.graph = e["graph"];
                firstGraph = stringField(e, "graph_name");
            }
        }
        bool first = stringField(e, "graph") == firstGraph;
        if (type == "ir_pre_fusion") {
            int offset = add(a.preFusion, e, "text");
            if (first && offset >= 0) a.provenance.addPreFusion(e, offset);
        } else if (type == "ir_post_fusion") {
            int offset = add(a.postFusion, e, "text");
            if (first && offset >= 0) a.provenance.addPostFusion(e, offset);
        } else if (type == "kernel_source") {
            int offset = add(a.source, e, "source");
            if (first && offset >= 0) a.provenance.addKernelSource(e, offset);
            if (a.language.isEmpty()) a.language = qstringField(e, "language");
            add(a.llvmIr, e, "llvm_ir");
            add(a.assembly, e, "assembly");
            add(a.ptx, e, "ptx");
            add(a.sass, e, "sass");
        }
    }
    return a;
}

}  // namespace fusescope::gui
