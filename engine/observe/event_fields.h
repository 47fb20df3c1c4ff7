#pragma once
// Each event's fields, described once, the way RenderDoc's serialisers are: describeFields
// lists a struct's fields with their JSON names, and three visitors ("Io"s) walk the same
// lists: the writer (eventToJson, traceRecordToJson: event.cpp), the reader (eventFromJson:
// event_from_json.cpp) and the schema check (eventFieldProblem: event_schema.cpp). A field's
// C++ type decides its JSON kind, so the three cannot disagree.
//
//   io.field(name, member)           always written
//   io.field(name, member, written)  written only when `written` (the empty fields left out)
//
// Reading and checking take every field described, written or not. Adding a field: add it
// to its struct (event.h) and one io.field line to its describeFields here.

#include <concepts>
#include <cstddef>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

#include "observe/event.h"

namespace fusescope {

// T is U or const U: one description serves the writer (const events) and the reader.
template <class T, class U>
concept FieldsOf = std::same_as<std::remove_const_t<T>, U>;

// The few fields read otherwise than their type says, as wrappers each Io knows.

// kernel_source's artifacts: an empty text is left out when read.
template <class Map>
struct NonEmptyTexts {
    Map& texts;
};

// An artifact in the field of its own that events written before the artifacts map had:
// read into the map under `name` (unless empty or already there), never written.
template <class Map>
struct LegacyArtifact {
    Map& texts;
    const char* name;
    static constexpr bool readOnly = true;
};

// guards' lines, kept only when there is one per element of the array field `of` (a
// guard that is not text drops its line; a line of another kind reads as 0).
template <class Lines>
struct LinesPer {
    Lines& lines;
    const char* of;
};

// An integer a bundle made elsewhere may write as any number (fusion_decision's score):
// checked as a number, a fraction dropped when read.
template <class Integer>
struct AnyNumber {
    Integer& number;
};

// Enums go by name; a name not known reads as the field's default.
inline constexpr std::pair<LogLevel, std::string_view> kLogLevelNames[] = {
    {LogLevel::Debug, "debug"}, {LogLevel::Info, "info"}, {LogLevel::Warning, "warning"}, {LogLevel::Error, "error"}};
inline std::string_view enumName(LogLevel level) {
    for (const auto& [l, name] : kLogLevelNames)
        if (l == level) return name;
    return "info";
}
inline std::optional<LogLevel> enumFromName(std::string_view name, LogLevel) {
    for (const auto& [l, n] : kLogLevelNames)
        if (n == name) return l;
    return std::nullopt;
}
inline std::string_view enumName(TraceCategory category) { return traceCategoryName(category); }
inline std::optional<TraceCategory> enumFromName(std::string_view name, TraceCategory) { return traceCategoryFromName(name); }

void describeFields(auto& io, FieldsOf<SourceLocation> auto& w) {
    io.field("file", w.file);
    io.field("line", w.line);
    io.field("column", w.column);
}

void describeFields(auto& io, FieldsOf<StackFrame> auto& f) {
    io.field("file", f.file);
    io.field("line", f.line);
    io.field("function", f.function);
    io.field("source", f.sourceLine);
    io.field("marker", f.marker, !f.marker.empty());
}

void describeFields(auto& io, FieldsOf<SourceInsert> auto& s) {
    io.field("file", s.file);
    io.field("line", s.line);
    io.field("text", s.text);
}

void describeFields(auto& io, FieldsOf<IrNodeInfo> auto& n) {
    io.field("name", n.name);
    io.field("kind", n.kind);
    io.field("origins", n.origins);
    io.field("reads", n.reads);
    io.field("members", n.members);
    io.field("realized_because", n.realizedBecause, !n.realizedBecause.empty());
}

void describeFields(auto& io, FieldsOf<TraceRecord> auto& r) {
    io.field("rf_id", r.rfId);
    io.field("parent", r.parentId);
    io.field("cat", r.category);
    io.field("name", r.name);
    io.field("begin_ns", r.beginNs);
    io.field("end_ns", r.endNs);
    io.field("tid", r.tid);
    io.field("seq_id", r.seqId);
    io.field("inputs", r.inputs);
    io.field("outputs", r.outputs);
    io.field("op_schema", r.opSchema, !r.opSchema.empty());
    io.field("kernel_backend", r.kernelBackend, !r.kernelBackend.empty());
    io.field("kernel_file", r.kernelFile, !r.kernelFile.empty());
    io.field("compile_id", r.compileId, !r.compileId.empty());
    io.field("flow_id", r.flowId, r.flowId != 0);
    io.field("buffers", r.buffers, !r.buffers.empty());
}

void describeFields(auto& io, FieldsOf<CompileStartedEvent> auto& e) {
    io.field("compile_id", e.compileId);
    io.field("function", e.function);
    io.field("where", e.where);
    io.field("user_stack", e.userStack, !e.userStack.empty());
}

void describeFields(auto& io, FieldsOf<GraphCapturedEvent> auto& e) {
    io.field("compile_id", e.compileId);
    io.field("function", e.function);
    io.field("graph_name", e.graphName);
    io.field("readable", e.readable);
    io.field("runnable", e.runnable);
    io.field("tabular", e.tabular);
    io.field("graph", e.graph);
    io.field("op_count", e.opCount);
    io.field("break_reason", e.breakReason);
    io.field("backend", e.backend);
}

void describeFields(auto& io, FieldsOf<GuardsEvent> auto& e) {
    io.field("compile_id", e.compileId);
    io.field("guards", e.guards);
    io.field("lines", LinesPer{e.lines, "guards"});
}

void describeFields(auto& io, FieldsOf<GuardFailureEvent> auto& e) {
    io.field("compile_id", e.compileId);
    io.field("function", e.function);
    io.field("reasons", e.reasons);
}

void describeFields(auto& io, FieldsOf<RecompileEvent> auto& e) {
    io.field("compile_id", e.compileId);
    io.field("function", e.function);
    io.field("where", e.where);
    io.field("message", e.message);
    io.field("fix_edit", e.fix, !e.fix.text.empty());
}

void describeFields(auto& io, FieldsOf<GraphBreakEvent> auto& e) {
    io.field("compile_id", e.compileId);
    io.field("reason", e.reason);
    io.field("user_stack", e.userStack);
    io.field("gb_id", e.gbId, !e.gbId.empty());
    io.field("explanation", e.explanation, !e.explanation.empty());
    io.field("hints", e.hints, !e.hints.empty());
    io.field("context", e.context, !e.context.empty());
}

void describeFields(auto& io, FieldsOf<GraphBreakCostEvent> auto& e) {
    io.field("compile_id", e.compileId);
    io.field("function", e.function);
    io.field("reason", e.reason);
    io.field("user_stack", e.userStack);
    io.field("graph_before", e.graphBefore);
    io.field("graph_after", e.graphAfter);
    io.field("ops_before", e.opsBefore);
    io.field("ops_after", e.opsAfter);
    io.field("calls", e.calls);
    io.field("python_seconds", e.pythonSeconds);
    io.field("compile_seconds_before", e.compileSecondsBefore);
    io.field("compile_seconds_after", e.compileSecondsAfter);
    io.field("kernels_before", e.kernelsBefore);
    io.field("kernels_after", e.kernelsAfter);
    io.field("kernels_joined", e.kernelsJoined);
}

void describeFields(auto& io, FieldsOf<CacheLimitEvent> auto& e) {
    io.field("function", e.function);
    io.field("where", e.where);
    io.field("limit", e.limit);
    io.field("last_reason", e.lastReason);
}

void describeFields(auto& io, FieldsOf<GraphFailureEvent> auto& e) {
    io.field("compile_id", e.compileId);
    io.field("function", e.function);
    io.field("graph", e.graph);
    io.field("backend", e.backend);
    io.field("kind", e.kind);
    io.field("error", e.error);
    io.field("where", e.where);
}

void describeFields(auto& io, FieldsOf<EagerFallbackEvent> auto& e) {
    io.field("compile_id", e.compileId);
    io.field("graph", e.graph);
    io.field("backend", e.backend);
    io.field("reason", e.reason);
}

void describeFields(auto& io, FieldsOf<LogEvent> auto& e) {
    io.field("compile_id", e.compileId);
    io.field("name", e.name);
    io.field("artifact", e.isArtifact);
    io.field("level", e.level);
    io.field("message", e.message);
}

void describeFields(auto& io, FieldsOf<ErrorEvent> auto& e) {
    io.field("message", e.message);
    io.field("where", e.where);
}

void describeFields(auto& io, FieldsOf<ScriptOutputEvent> auto& e) { io.field("text", e.text); }

void describeFields(auto& io, FieldsOf<ModuleImportedEvent> auto& e) {
    io.field("file", e.file);
    io.field("path", e.path);
    io.field("source", e.source);
}

// The stage is the event's type, not a field.
void describeFields(auto& io, FieldsOf<IrDumpEvent> auto& e) {
    io.field("compile_id", e.compileId);
    io.field("graph", e.graph);
    io.field("text", e.text);
    io.field("graph_json", e.graphJson, !e.graphJson.is_null());
    // The graph stages have no scheduler nodes.
    io.field("nodes", e.nodes, !(e.stage == "fx_graph_transformed" || e.stage.starts_with("aot_")));
}

void describeFields(auto& io, FieldsOf<FusionDecisionEvent> auto& e) {
    io.field("compile_id", e.compileId);
    io.field("graph", e.graph);
    io.field("step", e.step);
    io.field("node1", e.node1);
    io.field("node2", e.node2);
    io.field("kind", e.kind);
    io.field("score", AnyNumber{e.score});
    io.field("fused", e.fused);
    io.field("reason", e.reason);
    io.field("result", e.result);
}

void describeFields(auto& io, FieldsOf<KernelSourceEvent> auto& e) {
    io.field("compile_id", e.compileId);
    io.field("graph", e.graph);
    io.field("language", e.language);
    io.field("source", e.source);
    io.field("kernels", e.kernels);
    io.field("buffer_lines", e.bufferLines);
    io.field("buffer_kernels", e.bufferKernels);
    io.field("artifacts", NonEmptyTexts{e.artifacts});
    io.field("llvm_ir", LegacyArtifact{e.artifacts, "llvm_ir"});
    io.field("assembly", LegacyArtifact{e.artifacts, "asm"});
    io.field("ptx", LegacyArtifact{e.artifacts, "ptx"});
    io.field("sass", LegacyArtifact{e.artifacts, "sass"});
    io.field("arch", e.arch);
    io.field("from_cache", e.fromCache);
    io.field("compile_seconds", e.compileSeconds);
    io.field("error", e.error);
}

// A trace event is its record's fields, at the top level.
void describeFields(auto& io, FieldsOf<TraceEvent> auto& e) { describeFields(io, e.record); }

// A struct with a description: written as a JSON object of its fields.
template <class T>
concept DescribedStruct = requires(T& value, int& anyIo) { describeFields(anyIo, value); };
// A list of them (user_stack, nodes): a JSON array of objects.
template <class T>
concept DescribedList = requires { typename T::value_type; } && DescribedStruct<typename T::value_type>;

// The type name each event is written with (an IrDumpEvent's is its stage: isIrDumpStage).
template <class E>
inline constexpr std::string_view kEventTypeName = {};
template <> inline constexpr std::string_view kEventTypeName<CompileStartedEvent> = "compile_started";
template <> inline constexpr std::string_view kEventTypeName<GraphCapturedEvent> = "graph_captured";
template <> inline constexpr std::string_view kEventTypeName<GuardsEvent> = "guards";
template <> inline constexpr std::string_view kEventTypeName<GuardFailureEvent> = "guard_failure";
template <> inline constexpr std::string_view kEventTypeName<RecompileEvent> = "recompile";
template <> inline constexpr std::string_view kEventTypeName<GraphBreakEvent> = "graph_break";
template <> inline constexpr std::string_view kEventTypeName<GraphBreakCostEvent> = "graph_break_cost";
template <> inline constexpr std::string_view kEventTypeName<CacheLimitEvent> = "cache_limit";
template <> inline constexpr std::string_view kEventTypeName<GraphFailureEvent> = "graph_failure";
template <> inline constexpr std::string_view kEventTypeName<EagerFallbackEvent> = "eager_fallback";
template <> inline constexpr std::string_view kEventTypeName<LogEvent> = "log";
template <> inline constexpr std::string_view kEventTypeName<ErrorEvent> = "error";
template <> inline constexpr std::string_view kEventTypeName<ScriptOutputEvent> = "script_output";
template <> inline constexpr std::string_view kEventTypeName<ModuleImportedEvent> = "module_imported";
template <> inline constexpr std::string_view kEventTypeName<FusionDecisionEvent> = "fusion_decision";
template <> inline constexpr std::string_view kEventTypeName<KernelSourceEvent> = "kernel_source";
template <> inline constexpr std::string_view kEventTypeName<TraceEvent> = "trace_event";

// The index in Event of the alternative a type name names; nullopt for a type this engine
// does not know (a newer engine's).
std::optional<size_t> eventIndexOf(std::string_view type);

// Calls f(std::type_identity<E>{}) with the alternative E at `index` of Event.
template <class F>
void withEventAlternative(size_t index, F&& f) {
    [&]<size_t... I>(std::index_sequence<I...>) {
        ((I == index ? (f(std::type_identity<std::variant_alternative_t<I, Event>>{}), true) : false) || ...);
    }(std::make_index_sequence<std::variant_size_v<Event>>{});
}

}  // namespace fusescope
