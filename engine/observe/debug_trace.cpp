#include "observe/debug_trace.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "observe/log_registry.h"

namespace fusescope {

void DebugTraceWriter::consume(const Event& event) {
    if (const auto* e = std::get_if<GraphCapturedEvent>(&event)) {
        Pending& p = pending_[e->graphName];
        p.compileId = e->compileId;
        p.function = e->function;
        p.files["fx_graph_readable.py"] = e->readable;
        p.files["fx_graph_runnable.py"] = e->runnable;
    } else if (const auto* e = std::get_if<IrDumpEvent>(&event)) {
        pending_[e->graph].files[e->stage + (e->stage.rfind("fx_", 0) == 0 ? ".py" : ".txt")] = e->text;
    } else if (const auto* e = std::get_if<FusionDecisionEvent>(&event)) {
        pending_[e->graph].decisions.push_back(eventToJson(event));
    } else if (const auto* e = std::get_if<KernelSourceEvent>(&event)) {
        auto it = pending_.find(e->graph);
        if (it == pending_.end()) return;
        it->second.files["output_code.cpp"] = e->source;
        if (!e->llvmIr.empty()) it->second.files["output_code.ll"] = e->llvmIr;
        if (!e->assembly.empty()) it->second.files["output_code.s"] = e->assembly;
        write(e->graph, it->second);
        pending_.erase(it);
    }
}

void DebugTraceWriter::write(const std::string& graph, Pending& p) {
    namespace fs = std::filesystem;
    std::string id = p.compileId;
    std::replace(id.begin(), id.end(), '/', '_');
    std::string name = fmt::format("{}_{}", p.function, id);
    if (foldersPerCompile_[name]++ > 0) name += "_" + graph;  // later graphs of a compile (after a break)
    fs::path folder = fs::absolute(fs::path(root_) / name);
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) {
        logger_.log("inductor", LogLevel::Warning, p.compileId,
                    fmt::format("cannot write the debug trace to {}: {}", folder.string(), ec.message()));
        return;
    }
    p.files["fusion_decisions.json"] = p.decisions.dump(2) + "\n";
    for (const auto& [file, text] : p.files) std::ofstream(folder / file, std::ios::binary) << text;
    logger_.log("inductor", LogLevel::Warning, p.compileId, "debug trace: " + folder.string());
}

}  // namespace fusescope
