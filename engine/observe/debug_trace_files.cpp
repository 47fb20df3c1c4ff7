#include "core/json_text.h"
#include "observe/debug_trace_files.h"

#include <algorithm>

#include <fmt/format.h>

namespace fusescope {

namespace {

constexpr const char* kGuardsFile = "guards.txt";

std::string guardsText(const GuardsEvent& e) {
    std::string text;
    for (const auto& g : e.guards) text += g + "\n";
    return text;
}

// output_code.<extension>: the extension the artifact's tools give its files, else its name
// (output_code.ptx, output_code.sass).
std::string artifactFileName(const std::string& artifact) {
    static const std::map<std::string, std::string> extensions = {{"llvm_ir", "ll"}, {"asm", "s"}};
    auto it = extensions.find(artifact);
    return "output_code." + (it == extensions.end() ? artifact : it->second);
}

}  // namespace

std::vector<DebugTraceFiles::Update> DebugTraceFiles::consume(const Event& event) {
    std::vector<Update> updates;
    if (const auto* e = std::get_if<GraphCapturedEvent>(&event)) {
        Pending& p = pending_[e->graphName];
        p.compileId = e->compileId;
        p.function = e->function;
        functionOf_[e->graphName] = e->function;
        p.files["fx_graph_readable.py"] = e->readable;
        p.files["fx_graph_runnable.py"] = e->runnable;
    } else if (const auto* e = std::get_if<IrDumpEvent>(&event)) {
        Pending& p = pending_[e->graph];
        if (p.function.empty()) {  // a graph compiled without being captured: a training graph's backward
            std::string forward = e->graph.substr(0, e->graph.rfind("_backward"));
            p.compileId = e->compileId;
            p.function = functionOf_.count(forward) ? functionOf_[forward] : forward;
        }
        p.files[e->stage + (e->stage.rfind("fx_", 0) == 0 ? ".py" : ".txt")] = e->text;
    } else if (const auto* e = std::get_if<FusionDecisionEvent>(&event)) {
        pending_[e->graph].decisions.push_back(eventToJson(event));
    } else if (const auto* e = std::get_if<KernelSourceEvent>(&event)) {
        auto it = pending_.find(e->graph);
        if (it == pending_.end()) return updates;
        auto& files = it->second.files;
        files[e->language == "cuda" ? "output_code.cu" : "output_code.cpp"] = e->source;
        for (const auto& [name, text] : e->artifacts) files[artifactFileName(name)] = text;
        updates.push_back(finish(e->graph, it->second));
        pending_.erase(it);
    } else if (const auto* e = std::get_if<GuardsEvent>(&event)) {
        std::string text = guardsText(*e);
        guards_[e->compileId] = text;
        auto [first, last] = foldersOfCompile_.equal_range(e->compileId);
        for (auto it = first; it != last; ++it) updates.push_back({it->second, e->compileId, false, {{kGuardsFile, text}}});
    }
    return updates;
}

DebugTraceFiles::Update DebugTraceFiles::finish(const std::string& graph, Pending& p) {
    std::string id = p.compileId;
    std::replace(id.begin(), id.end(), '/', '_');
    std::string name = fmt::format("{}_{}", p.function, id);
    if (foldersPerCompile_[name]++ > 0) name += "_" + graph;  // later graphs of a compile (after a break)
    foldersOfCompile_.emplace(p.compileId, name);
    p.files["fusion_decisions.json"] = jsonText(p.decisions, 2) + "\n";
    // A graph compiled on a replay of a cached entry comes after that entry's guards.
    if (auto g = guards_.find(p.compileId); g != guards_.end()) p.files[kGuardsFile] = g->second;
    return {name, p.compileId, true, std::move(p.files)};
}

}  // namespace fusescope
