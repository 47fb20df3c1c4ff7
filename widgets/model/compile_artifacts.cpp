#include "model/compile_artifacts.h"

namespace fusescope::gui {

namespace {

// Appends one graph's text; a second graph of the compile gets a header so they can be told
// apart. Returns how many lines precede the text (-1 when there is none).
int add(QString& to, const std::string& graph, const std::string& text) {
    if (text.empty()) return -1;
    if (!to.isEmpty()) to += "\n";
    if (!graph.empty()) to += "# ===== " + QString::fromStdString(graph) + " =====\n";
    int offset = static_cast<int>(to.count('\n'));
    to += QString::fromStdString(text);
    return offset;
}

// The IR stages our engine writes; the others are PyTorch's, read from a TORCH_TRACE log.
bool isOurStage(const std::string& stage) {
    return stage == "ir_pre_fusion" || stage == "ir_post_fusion" || stage == "fx_graph_transformed" || stage == "aot_joint_graph" ||
           stage == "aot_forward_graph" || stage == "aot_backward_graph";
}

}  // namespace

QString whyNoGeneratedCode(const CompileArtifacts& a) { return a.source.isEmpty() ? whyNoLoopIr(a) : QString(); }

QString whyNoLoopIr(const CompileArtifacts& a) {
    if (a.compileId.isEmpty()) return QObject::tr("No compile on show: run the script (Ctrl+R), or pick a compile in Compiles.");
    if (!a.preFusion.isEmpty()) return {};
    if (a.fromPyTorch)
        return QObject::tr("PyTorch's TORCH_TRACE log has no loop IR: inductor writes its IR before and after fusion only "
                           "under TORCH_COMPILE_DEBUG=1 (ir_pre_fusion.txt, ir_post_fusion.txt). The graphs it logged are "
                           "in the Graph pane's tabs, its output code in Generated Code.");
    if (!a.backend.isEmpty() && a.backend != "inductor")
        return QObject::tr("Backend %1 makes no loop IR, fusion or generated code: pick inductor in the Backend picker "
                           "(or write torch.compile(backend=\"inductor\")) and run again.").arg(a.backend);
    return {};
}

DrawnGraph capturedGraph(const RunStore& store, const QString& compileId, const QString& graphName) {
    for (int i : store.compileEvents(compileId.toStdString()))
        if (const auto* captured = std::get_if<GraphCapturedEvent>(&store.at(i)); captured && captured->graphName == graphName.toStdString())
            return DrawnGraph::fromJson(captured->graph);
    return {};
}

CompileArtifacts compileArtifacts(const RunStore& store, const QString& compileId, const QString& graphName) {
    CompileArtifacts a;
    a.compileId = compileId;
    const std::vector<int>& events = store.compileEvents(compileId.toStdString());
    for (int i : events)
        if (const auto* captured = std::get_if<GraphCapturedEvent>(&store.at(i))) a.graphNames << QString::fromStdString(captured->graphName);
    a.graphName = a.graphNames.contains(graphName) ? graphName : a.graphNames.value(0);
    const std::string shown = a.graphName.toStdString();  // provenance follows the graph the Graph view shows
    for (int i : events) {
        const Event& e = store.at(i);
        if (const auto* captured = std::get_if<GraphCapturedEvent>(&e)) {
            add(a.graphs, captured->graphName, captured->readable);
            if (captured->graphName == shown) {
                a.graph = DrawnGraph::fromJson(captured->graph);
                a.backend = QString::fromStdString(captured->backend);
            }
        } else if (const auto* ir = std::get_if<IrDumpEvent>(&e)) {
            bool onShow = ir->graph == shown;
            if (ir->stage == "ir_pre_fusion") {
                int offset = add(a.preFusion, ir->graph, ir->text);
                if (onShow && offset >= 0) a.provenance.addPreFusion(*ir, offset);
            } else if (ir->stage == "ir_post_fusion") {
                int offset = add(a.postFusion, ir->graph, ir->text);
                if (onShow && offset >= 0) a.provenance.addPostFusion(*ir, offset);
            } else if (!ir->graphJson.is_null()) {  // AOT Autograd's graphs, PyTorch's pre- and post-grad ones: drawn
                add(a.graphs, ir->graph + " " + ir->stage, ir->text);
                if (onShow) a.stageGraphs[ir->stage] = DrawnGraph::fromJson(ir->graphJson);
            }
            if (!isOurStage(ir->stage)) a.fromPyTorch = true;
        } else if (const auto* kernel = std::get_if<KernelSourceEvent>(&e)) {
            if (kernel->language == "python") a.fromPyTorch = true;  // inductor's output code, as a TORCH_TRACE log has it
            int offset = add(a.source, kernel->graph, kernel->source);
            if (kernel->graph == shown && offset >= 0) a.provenance.addKernelSource(*kernel, offset);
            if (a.language.isEmpty()) a.language = QString::fromStdString(kernel->language);
            for (const auto& [name, text] : kernel->artifacts) add(a.codeArtifacts[name], kernel->graph, text);
        }
    }
    a.fusionSteps = compileFusionSteps(store, compileId, a.graphName);
    return a;
}

}  // namespace fusescope::gui
