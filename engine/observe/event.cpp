#include "observe/event.h"

#include <fmt/format.h>

namespace fusescope {

using nlohmann::json;

std::string StackFrame::str() const {
    return fmt::format("File \"{}\", line {}, in {}", file, line, function);
}

std::string LogEvent::formatted() const {
    std::string prefix = compileId.empty() ? "" : "[" + compileId + "] ";
    prefix += isArtifact ? "[__" + name + "] " : "[" + name + "] ";
    if (level == LogLevel::Warning) prefix += "WARNING: ";
    if (level == LogLevel::Error) prefix += "ERROR: ";
    return prefix + message;
}

namespace {

json locationJson(const SourceLocation& where) {
    return json{{"file", where.file}, {"line", where.line}, {"column", where.column}};
}

json stackJson(const std::vector<StackFrame>& stack) {
    json frames = json::array();
    for (const auto& f : stack) {
        frames.push_back({{"file", f.file}, {"line", f.line}, {"function", f.function}, {"source", f.sourceLine}});
        if (!f.marker.empty()) frames.back()["marker"] = f.marker;
    }
    return frames;
}

const char* levelName(LogLevel level) {
    switch (level) {
    case LogLevel::Debug: return "debug";
    case LogLevel::Info: return "info";
    case LogLevel::Warning: return "warning";
    case LogLevel::Error: return "error";
    }
    return "info";
}

struct TypeName {
    std::string operator()(const CompileStartedEvent&) const { return "compile_started"; }
    std::string operator()(const GraphCapturedEvent&) const { return "graph_captured"; }
    std::string operator()(const GuardsEvent&) const { return "guards"; }
    std::string operator()(const GuardFailureEvent&) const { return "guard_failure"; }
    std::string operator()(const RecompileEvent&) const { return "recompile"; }
    std::string operator()(const GraphBreakEvent&) const { return "graph_break"; }
    std::string operator()(const GraphBreakCostEvent&) const { return "graph_break_cost"; }
    std::string operator()(const CacheLimitEvent&) const { return "cache_limit"; }
    std::string operator()(const GraphFailureEvent&) const { return "graph_failure"; }
    std::string operator()(const EagerFallbackEvent&) const { return "eager_fallback"; }
    std::string operator()(const LogEvent&) const { return "log"; }
    std::string operator()(const ErrorEvent&) const { return "error"; }
    std::string operator()(const ScriptOutputEvent&) const { return "script_output"; }
    std::string operator()(const ModuleImportedEvent&) const { return "module_imported"; }
    std::string operator()(const IrDumpEvent& e) const { return e.stage; }
    std::string operator()(const FusionDecisionEvent&) const { return "fusion_decision"; }
    std::string operator()(const KernelSourceEvent&) const { return "kernel_source"; }
    std::string operator()(const TraceEvent&) const { return "trace_event"; }
};

struct Payload {
    json operator()(const CompileStartedEvent& e) const {
        json j = {{"compile_id", e.compileId}, {"function", e.function}, {"where", locationJson(e.where)}};
        if (!e.userStack.empty()) j["user_stack"] = stackJson(e.userStack);
        return j;
    }
    json operator()(const GraphCapturedEvent& e) const {
        return {{"compile_id", e.compileId}, {"function", e.function}, {"graph_name", e.graphName},
                {"readable", e.readable}, {"runnable", e.runnable},
                {"tabular", e.tabular}, {"graph", e.graph}, {"op_count", e.opCount}, {"break_reason", e.breakReason},
                {"backend", e.backend}};
    }
    json operator()(const GuardsEvent& e) const {
        return {{"compile_id", e.compileId}, {"guards", e.guards}, {"lines", e.lines}};
    }
    json operator()(const GuardFailureEvent& e) const {
        return {{"compile_id", e.compileId}, {"function", e.function}, {"reasons", e.reasons}};
    }
    json operator()(const RecompileEvent& e) const {
        json out{{"compile_id", e.compileId}, {"function", e.function}, {"where", locationJson(e.where)}, {"message", e.message}};
        if (!e.fix.text.empty()) out["fix_edit"] = {{"file", e.fix.file}, {"line", e.fix.line}, {"text", e.fix.text}};
        return out;
    }
    json operator()(const GraphBreakEvent& e) const {
        json out{{"compile_id", e.compileId}, {"reason", e.reason}, {"user_stack", stackJson(e.userStack)}};
        if (!e.gbId.empty()) out["gb_id"] = e.gbId;
        if (!e.explanation.empty()) out["explanation"] = e.explanation;
        if (!e.hints.empty()) out["hints"] = e.hints;
        if (!e.context.empty()) out["context"] = e.context;
        return out;
    }
    json operator()(const GraphBreakCostEvent& e) const {
        return {{"compile_id", e.compileId}, {"function", e.function}, {"reason", e.reason},
                {"user_stack", stackJson(e.userStack)}, {"graph_before", e.graphBefore}, {"graph_after", e.graphAfter},
                {"ops_before", e.opsBefore}, {"ops_after", e.opsAfter}, {"calls", e.calls},
                {"python_seconds", e.pythonSeconds}, {"compile_seconds_before", e.compileSecondsBefore},
                {"compile_seconds_after", e.compileSecondsAfter}, {"kernels_before", e.kernelsBefore},
                {"kernels_after", e.kernelsAfter}, {"kernels_joined", e.kernelsJoined}};
    }
    json operator()(const CacheLimitEvent& e) const {
        return {{"function", e.function}, {"where", locationJson(e.where)}, {"limit", e.limit},
                {"last_reason", e.lastReason}};
    }
    json operator()(const GraphFailureEvent& e) const {
        return {{"compile_id", e.compileId}, {"function", e.function}, {"graph", e.graph}, {"backend", e.backend},
                {"kind", e.kind}, {"error", e.error}, {"where", locationJson(e.where)}};
    }
    json operator()(const EagerFallbackEvent& e) const {
        return {{"compile_id", e.compileId}, {"graph", e.graph}, {"backend", e.backend}, {"reason", e.reason}};
    }
    json operator()(const LogEvent& e) const {
        return {{"compile_id", e.compileId}, {"name", e.name}, {"artifact", e.isArtifact},
                {"level", levelName(e.level)}, {"message", e.message}};
    }
    json operator()(const ErrorEvent& e) const { return {{"message", e.message}, {"where", locationJson(e.where)}}; }
    json operator()(const ScriptOutputEvent& e) const { return {{"text", e.text}}; }
    json operator()(const ModuleImportedEvent& e) const { return {{"file", e.file}, {"path", e.path}, {"source", e.source}}; }
    json operator()(const IrDumpEvent& e) const {
        json j = {{"compile_id", e.compileId}, {"graph", e.graph}, {"text", e.text}};
        if (!e.graphJson.is_null()) j["graph_json"] = e.graphJson;
        if (e.stage == "fx_graph_transformed" || e.stage.starts_with("aot_")) return j;
        json nodes = json::array();
        for (const auto& n : e.nodes) {
            json node = {{"name", n.name}, {"kind", n.kind}, {"origins", n.origins}, {"reads", n.reads}, {"members", n.members}};
            if (!n.realizedBecause.empty()) node["realized_because"] = n.realizedBecause;
            nodes.push_back(std::move(node));
        }
        j["nodes"] = std::move(nodes);
        return j;
    }
    json operator()(const FusionDecisionEvent& e) const {
        return {{"compile_id", e.compileId}, {"graph", e.graph}, {"step", e.step}, {"node1", e.node1},
                {"node2", e.node2}, {"kind", e.kind}, {"score", e.score}, {"fused", e.fused},
                {"reason", e.reason}, {"result", e.result}};
    }
    json operator()(const KernelSourceEvent& e) const {
        return {{"compile_id", e.compileId}, {"graph", e.graph}, {"language", e.language}, {"source", e.source},
                {"kernels", e.kernels}, {"buffer_lines", e.bufferLines}, {"buffer_kernels", e.bufferKernels},
                {"artifacts", e.artifacts}, {"arch", e.arch}, {"from_cache", e.fromCache}, {"compile_seconds", e.compileSeconds},
                {"error", e.error}};
    }
    json operator()(const TraceEvent& e) const { return traceRecordToJson(e.record); }
};

}  // namespace

bool isIrDumpStage(std::string_view type) {
    static constexpr std::string_view stages[] = {
        "fx_graph_transformed", "ir_pre_fusion", "ir_post_fusion",  // our inductor's
        "aot_joint_graph", "aot_forward_graph", "aot_backward_graph", "aot_inference_graph", "inductor_pre_grad_graph",
        "inductor_post_grad_graph", "compiled_autograd_graph", "fx_graph_runnable"};  // real PyTorch's
    for (std::string_view stage : stages)
        if (type == stage) return true;
    return false;
}

std::string eventType(const Event& event) { return std::visit(TypeName{}, event); }

json eventToJson(const Event& event) {
    json j = std::visit(Payload{}, event);
    j["type"] = eventType(event);
    return j;
}

}  // namespace fusescope
