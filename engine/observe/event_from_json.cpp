#include "observe/event_from_json.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <utility>

namespace fusescope {

using nlohmann::json;

namespace {

// A line number as an int: a bundle made elsewhere may hold any integer there.
int clampedInt(const json& v) {
    int64_t n = v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(INT64_MAX) ? INT64_MAX : v.get<int64_t>();
    return static_cast<int>(std::clamp<int64_t>(n, INT_MIN, INT_MAX));
}

// Field readers that take a missing field, or one of another kind, as the default.
std::string text(const json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

template <class T>
T number(const json& j, const char* key, T fallback = 0) {
    auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<T>() : fallback;
}

// A line or column: an integer, else 0.
int line(const json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_number_integer() ? clampedInt(*it) : 0;
}

bool flag(const json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_boolean() && it->get<bool>();
}

std::vector<std::string> texts(const json& j, const char* key) {
    std::vector<std::string> out;
    auto it = j.find(key);
    if (it == j.end() || !it->is_array()) return out;
    for (const auto& v : *it)
        if (v.is_string()) out.push_back(v.get<std::string>());
    return out;
}

// The array of objects at `key`: elements of another kind are skipped.
template <class F>
void forEachObject(const json& j, const char* key, F&& f) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_array()) return;
    for (const auto& v : *it)
        if (v.is_object()) f(v);
}

SourceLocation location(const json& j) {
    auto it = j.find("where");
    if (it == j.end() || !it->is_object()) return {};
    return {text(*it, "file"), line(*it, "line"), line(*it, "column")};
}

SourceInsert sourceInsert(const json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_object()) return {};
    return {text(*it, "file"), line(*it, "line"), text(*it, "text")};
}

LogLevel level(const std::string& name) {
    if (name == "debug") return LogLevel::Debug;
    if (name == "warning") return LogLevel::Warning;
    if (name == "error") return LogLevel::Error;
    return LogLevel::Info;
}

GuardsEvent guards(const json& j) {
    GuardsEvent e{text(j, "compile_id"), {}, {}};
    auto guards = j.find("guards"), lines = j.find("lines");
    if (guards == j.end() || !guards->is_array()) return e;
    // The lines are kept only when there is one per guard (a line of another kind: 0).
    bool hasLines = lines != j.end() && lines->is_array() && lines->size() == guards->size();
    for (size_t i = 0; i < guards->size(); ++i) {
        if (!(*guards)[i].is_string()) continue;
        e.guards.push_back((*guards)[i].get<std::string>());
        if (hasLines) e.lines.push_back((*lines)[i].is_number_integer() ? clampedInt((*lines)[i]) : 0);
    }
    return e;
}

std::vector<StackFrame> userStack(const json& j) {
    std::vector<StackFrame> frames;
    forEachObject(j, "user_stack", [&](const json& f) {
        frames.push_back({text(f, "file"), line(f, "line"), text(f, "function"), text(f, "source"), text(f, "marker")});
    });
    return frames;
}

IrDumpEvent irDump(const json& j, const std::string& stage) {
    IrDumpEvent e{text(j, "compile_id"), text(j, "graph"), stage, text(j, "text"), {}};
    if (auto g = j.find("graph_json"); g != j.end() && g->is_object()) e.graphJson = *g;
    forEachObject(j, "nodes", [&](const json& n) {
        e.nodes.push_back({text(n, "name"), text(n, "kind"), texts(n, "origins"), texts(n, "reads"), texts(n, "members"),
                           text(n, "realized_because")});
    });
    return e;
}

// Events written before the artifacts map (older bundles) carried each artifact in a field
// of its own: field, artifact name.
constexpr std::pair<const char*, const char*> kLegacyArtifactFields[] = {
    {"llvm_ir", "llvm_ir"}, {"assembly", "asm"}, {"ptx", "ptx"}, {"sass", "sass"}};

KernelSourceEvent kernelSource(const json& j) {
    KernelSourceEvent e;
    e.compileId = text(j, "compile_id");
    e.graph = text(j, "graph");
    e.language = text(j, "language");
    e.source = text(j, "source");
    e.kernels = texts(j, "kernels");
    if (auto lines = j.find("buffer_lines"); lines != j.end() && lines->is_object())
        for (const auto& [buffer, ranges] : lines->items()) {
            if (!ranges.is_array()) continue;
            auto& out = e.bufferLines[buffer];
            for (const auto& r : ranges)
                if (r.is_array() && r.size() == 2 && r[0].is_number_integer() && r[1].is_number_integer())
                    out.emplace_back(clampedInt(r[0]), clampedInt(r[1]));
        }
    if (auto kernels = j.find("buffer_kernels"); kernels != j.end() && kernels->is_object())
        for (const auto& [buffer, kernel] : kernels->items())
            if (kernel.is_string()) e.bufferKernels[buffer] = kernel.get<std::string>();
    auto addArtifact = [&e](const std::string& name, std::string text) {
        if (!text.empty()) e.artifacts.emplace(name, std::move(text));
    };
    if (auto artifacts = j.find("artifacts"); artifacts != j.end() && artifacts->is_object())
        for (const auto& [name, artifact] : artifacts->items())
            if (artifact.is_string()) addArtifact(name, artifact.get<std::string>());
    for (const auto& [field, name] : kLegacyArtifactFields) addArtifact(name, text(j, field));
    e.arch = text(j, "arch");
    e.fromCache = flag(j, "from_cache");
    e.compileSeconds = number<double>(j, "compile_seconds");
    e.error = text(j, "error");
    return e;
}

TraceArgs traceArgs(const json& j, const char* key) {
    TraceArgs a;
    auto it = j.find(key);
    if (it == j.end() || !it->is_object()) return a;
    auto list = [&](const char* name) { return it->contains(name) ? (*it)[name] : json(); };
    return {list("values"), list("shapes"), list("types"), list("strides")};
}

// Unlike traceRecordFromJson, which takes only the engine's own records, a trace event
// without its times (or of an unknown category) is read too: a viewer keeps it as any other.
TraceRecord traceRecord(const json& j) {
    TraceRecord r;
    r.rfId = number<int64_t>(j, "rf_id");
    r.parentId = number<int64_t>(j, "parent");
    r.category = traceCategoryFromName(text(j, "cat")).value_or(TraceCategory::CpuOp);
    r.name = text(j, "name");
    r.beginNs = number<int64_t>(j, "begin_ns");
    r.endNs = number<int64_t>(j, "end_ns");
    r.tid = number<int64_t>(j, "tid");
    r.seqId = number<int64_t>(j, "seq_id", -1);
    r.opSchema = text(j, "op_schema");
    r.inputs = traceArgs(j, "inputs");
    r.outputs = traceArgs(j, "outputs");
    r.kernelBackend = text(j, "kernel_backend");
    r.kernelFile = text(j, "kernel_file");
    r.compileId = text(j, "compile_id");
    r.flowId = number<int64_t>(j, "flow_id");
    return r;
}

}  // namespace

std::optional<Event> eventFromJson(const json& j) {
    const std::string type = text(j, "type");
    if (type == "compile_started") return CompileStartedEvent{text(j, "compile_id"), text(j, "function"), location(j), userStack(j)};
    if (type == "graph_captured") {
        auto graph = j.find("graph");
        return GraphCapturedEvent{text(j, "compile_id"), text(j, "function"), text(j, "graph_name"), text(j, "readable"),
                                  text(j, "runnable"), text(j, "tabular"), graph == j.end() ? json() : *graph,
                                  number<int>(j, "op_count"), text(j, "break_reason"), text(j, "backend")};
    }
    if (type == "guards") return guards(j);
    if (type == "guard_failure") return GuardFailureEvent{text(j, "compile_id"), text(j, "function"), texts(j, "reasons")};
    if (type == "recompile")
        return RecompileEvent{text(j, "compile_id"), text(j, "function"), location(j), text(j, "message"), sourceInsert(j, "fix_edit")};
    if (type == "graph_break")
        return GraphBreakEvent{text(j, "compile_id"), text(j, "reason"), userStack(j), text(j, "gb_id"),
                               text(j, "explanation"), texts(j, "hints"), text(j, "context")};
    if (type == "graph_break_cost")
        return GraphBreakCostEvent{text(j, "compile_id"), text(j, "function"), text(j, "reason"), userStack(j),
                                   text(j, "graph_before"), text(j, "graph_after"), number<int>(j, "ops_before"),
                                   number<int>(j, "ops_after"), number<int>(j, "calls"), number<double>(j, "python_seconds"),
                                   number<double>(j, "compile_seconds_before"), number<double>(j, "compile_seconds_after"),
                                   number<int>(j, "kernels_before", -1), number<int>(j, "kernels_after", -1),
                                   number<int>(j, "kernels_joined", -1)};
    if (type == "cache_limit") return CacheLimitEvent{text(j, "function"), location(j), number<int>(j, "limit"), text(j, "last_reason")};
    if (type == "graph_failure")
        return GraphFailureEvent{text(j, "compile_id"), text(j, "function"), text(j, "graph"), text(j, "backend"),
                                 text(j, "kind"), text(j, "error"), location(j)};
    if (type == "eager_fallback") return EagerFallbackEvent{text(j, "compile_id"), text(j, "graph"), text(j, "backend"), text(j, "reason")};
    if (type == "log")
        return LogEvent{text(j, "compile_id"), text(j, "name"), flag(j, "artifact"), level(text(j, "level")), text(j, "message")};
    if (type == "error") return ErrorEvent{text(j, "message"), location(j)};
    if (type == "script_output") return ScriptOutputEvent{text(j, "text")};
    if (type == "module_imported") return ModuleImportedEvent{text(j, "file"), text(j, "path"), text(j, "source")};
    if (isIrDumpStage(type)) return irDump(j, type);
    if (type == "fusion_decision")
        return FusionDecisionEvent{text(j, "compile_id"), text(j, "graph"), number<int>(j, "step"), text(j, "node1"),
                                   text(j, "node2"), text(j, "kind"), number<int64_t>(j, "score"), flag(j, "fused"),
                                   text(j, "reason"), text(j, "result")};
    if (type == "kernel_source") return kernelSource(j);
    if (type == "trace_event") return TraceEvent{traceRecord(j)};
    return std::nullopt;
}

}  // namespace fusescope
