#include "torch_trace/trace_log_import.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/json_text.h"
#include "core/read_fields.h"
#include "observe/compile_report.h"
#include "observe/graph_break_registry.h"
#include "observe/json_nesting.h"
#include "torch_trace/fx_readable_graph.h"
#include "torch_trace/line_scan.h"
#include "torch_trace/trace_log_shapes.h"

namespace fusescope {

namespace {

// Entry kinds this reader turns into events or metrics, or reads and keeps out of the
// views (tensor descriptions, symbolic-shape bookkeeping).
const std::set<std::string>& knownKinds() {
    static const std::set<std::string> kinds = {
        "dynamo_start", "dynamo_output_graph", "dynamo_guards", "dynamo_cpp_guards_str", "compilation_metrics",
        "bwd_compilation_metrics", "artifact", "chromium_event", "inductor_output_code", "aot_joint_graph",
        "aot_forward_graph", "aot_backward_graph", "aot_inference_graph", "inductor_pre_grad_graph",
        "inductor_post_grad_graph", "compiled_autograd_graph", "describe_tensor", "describe_storage", "describe_source",
        "create_symbol", "create_unbacked_symbol", "guard_added", "guard_added_fast", "symbolic_shape_specialization"};
    return kinds;
}

// Graph dumps that become IR dump events, by entry kind or artifact name, with the stage
// they show as. Newer PyTorch sends the pre/post-grad graphs as artifacts.
const std::map<std::string, std::string>& graphStages() {
    static const std::map<std::string, std::string> stages = {
        {"aot_joint_graph", "aot_joint_graph"},
        {"aot_forward_graph", "aot_forward_graph"},
        {"aot_backward_graph", "aot_backward_graph"},
        {"aot_inference_graph", "aot_inference_graph"},
        {"inductor_pre_grad_graph", "inductor_pre_grad_graph"},
        {"after_pre_grad_graph", "inductor_pre_grad_graph"},
        {"inductor_post_grad_graph", "inductor_post_grad_graph"},
        {"compiled_autograd_graph", "compiled_autograd_graph"},
    };
    return stages;
}

// What tlparse's compilation metrics page shows of a compile, one line per part, each part
// only where the log has its fields: where the time went, the graph's size, guards and
// caches.
std::string metricsDetail(const nlohmann::json& m) {
    if (!m.is_object()) return "";
    auto parts = [&m](std::initializer_list<std::pair<const char*, const char*>> fields, double scale = 1.0) {
        std::vector<std::string> out;
        for (const auto& [key, label] : fields)
            if (auto v = m.find(key); v != m.end() && v->is_number()) out.push_back(fmt::format("{} {:g}", label, v->get<double>() * scale));
        return out;
    };
    std::string text;
    auto line = [&text](const char* title, const std::vector<std::string>& items) {
        if (!items.empty()) text += fmt::format("\n  {}: {}", title, fmt::join(items, ", "));
    };
    line("time (s)", parts({{"entire_frame_compile_time_s", "entire frame"}, {"backend_compile_time_s", "backend"},
                            {"inductor_compile_time_s", "inductor"}, {"code_gen_time_s", "code gen"}}));
    line("passes (ms)", parts({{"pre_grad_pass_time_us", "pre-grad"}, {"joint_graph_pass_time_us", "joint graph"},
                               {"post_grad_pass_time_us", "post-grad"}}, 1e-3));
    line("graph", parts({{"graph_op_count", "ops"}, {"graph_node_count", "nodes"}, {"graph_input_count", "inputs"},
                         {"num_graph_breaks", "graph breaks"}}));
    line("guards", parts({{"guard_count", "count"}, {"shape_env_guard_count", "shape env"}, {"guard_latency_us", "latency us"}}));
    line("cache", parts({{"cache_size", "size"}, {"accumulated_cache_size", "accumulated"},
                         {"inductor_fx_local_cache_hit_count", "fx local hits"}, {"inductor_fx_local_cache_miss_count", "fx local misses"},
                         {"inductor_fx_remote_cache_hit_count", "fx remote hits"}, {"inductor_fx_remote_cache_miss_count", "fx remote misses"},
                         {"aotautograd_local_cache_hit_count", "aotautograd local hits"},
                         {"aotautograd_local_cache_miss_count", "aotautograd local misses"}}));
    return text;
}

// "0/0_1" -> "0/0": an attempt belongs to its compile.
std::string compileOf(const std::string& id) {
    size_t slash = id.rfind('/');
    size_t underscore = id.find('_', slash == std::string::npos ? 0 : slash);
    return underscore == std::string::npos ? id : id.substr(0, underscore);
}

std::string graphNameOf(const std::string& compileId) {
    std::string name = "graph_";
    for (char c : compileId) name += c == '/' ? std::string("_") : c == '!' ? std::string("ca") : std::string(1, c);
    return name;
}

std::vector<StackFrame> stackOf(const nlohmann::json& frames, const std::map<int64_t, std::string>& strings) {
    std::vector<StackFrame> stack;
    if (!frames.is_array()) return stack;
    for (const auto& f : frames) {
        if (!f.is_object()) continue;
        StackFrame frame;
        if (auto file = f.find("filename"); file != f.end()) {
            if (file->is_number_integer()) {
                auto it = strings.find(file->get<int64_t>());
                frame.file = it == strings.end() ? fmt::format("<string {}>", file->get<int64_t>()) : it->second;
            } else if (file->is_string()) {
                frame.file = file->get<std::string>();
            }
        }
        frame.line = static_cast<int>(integerField(f, "line"));
        frame.function = stringField(f, "name");
        frame.sourceLine = stringField(f, "loc");
        stack.push_back(std::move(frame));
    }
    return stack;
}

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

std::string trimmed(const std::string& s) {
    size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The leaf guards of dynamo_cpp_guards_str's tree (`| +- KIND: code  # where`), without
// the managers that hold them.
std::vector<std::string> guardsOf(const std::string& tree) {
    std::vector<std::string> guards;
    for (const std::string& text : linesOf(tree)) {
        std::string_view line = text;
        size_t mark = line.find("+- ");
        if (mark == std::string_view::npos) continue;
        std::string_view guard = line.substr(mark + 3);
        if (guard.starts_with("GuardManager") || guard.starts_with("RootGuardManager") || guard.starts_with("DictGuardManager") ||
            guard.find("GuardManager:") != std::string_view::npos)
            continue;
        guards.emplace_back(guard);
    }
    return guards;
}

// The reasons a recompile_reasons artifact gives: a JSON list or string, or plain text.
std::vector<std::string> recompileReasons(const std::string& payload) {
    nlohmann::json j = parseUntrustedJson(payload);
    std::vector<std::string> reasons;
    if (j.is_array()) {
        for (const auto& r : j)
            if (r.is_string()) reasons.push_back(r.get<std::string>());
    } else if (j.is_string()) {
        reasons.push_back(j.get<std::string>());
    } else if (!payload.empty()) {
        reasons.push_back(payload);
    }
    return reasons;
}

// A traceback's `File "FILE", line LINE, in FUNCTION` (FILE the longest that leaves the
// rest well-formed).
std::optional<StackFrame> tracebackFrameOf(std::string_view line) {
    size_t file = scan::literalEnd(line, scan::spacesEnd(line, 0), "File \"");
    if (file == scan::npos) return std::nullopt;
    for (size_t quote = line.rfind("\", line "); quote != scan::npos && quote >= file; quote = quote ? line.rfind("\", line ", quote - 1) : scan::npos) {
        size_t digits = scan::digitsEnd(line, quote + 8), function = digits == scan::npos ? scan::npos : scan::literalEnd(line, digits, ", in ");
        if (function != scan::npos)
            return StackFrame{std::string(line.substr(file, quote - file)), intOfDigits(std::string(line.substr(quote + 8, digits - quote - 8))),
                              std::string(line.substr(function)), ""};
    }
    return std::nullopt;
}

// A graph break artifact: "Graph break in user code at FILE:LINE", "Graph Break Reason: ..."
// (what Dynamo could not trace, its explanation and hints), "User code traceback:" (frames as
// Python prints them), then Dynamo's own traceback, which is left out. The reason starts
// with the break's kind (its gb_type), which names its registry entry; its explanation, hints
// and developer context are kept apart.
GraphBreakEvent graphBreakOf(const std::string& compileId, const std::string& payload) {
    GraphBreakEvent e;
    e.compileId = compileId;
    std::vector<std::string> lines = linesOf(payload);
    std::vector<std::string> reason;
    std::string kind, explanation;
    enum { Header, Reason, Stack, Rest } part = Header;
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string& line = lines[i];
        if (line.starts_with("Graph Break Reason: ")) {
            part = Reason;
            reason.push_back(line.substr(20));
            if (!reason.back().starts_with("Encountered graph break")) kind = reason.back();
        } else if (line.starts_with("User code traceback:")) {
            part = Stack;
        } else if (line.starts_with("Traceback (most recent call last):")) {
            part = Rest;
        } else if (part == Reason) {
            reason.push_back(line);
            std::string t = trimmed(line);
            if (t.starts_with("Explanation: ")) explanation = t.substr(13);
            else if (t.starts_with("Hint: ")) e.hints.push_back(t.substr(6));
            else if (t.starts_with("Developer debug context: ")) e.context = t.substr(25);
            else if (kind.empty() && !t.empty() && !line.starts_with(" ") && !t.starts_with("Encountered graph break")) kind = t;
        } else if (part == Stack) {
            if (auto f = tracebackFrameOf(line)) {
                if (i + 1 < lines.size() && !tracebackFrameOf(lines[i + 1])) f->sourceLine = trimmed(lines[i + 1]);
                e.userStack.push_back(std::move(*f));
            }
        }
    }
    while (!reason.empty() && trimmed(reason.back()).empty()) reason.pop_back();
    if (reason.empty()) reason.push_back(lines.empty() ? "" : lines.front());
    std::string full;
    for (const auto& line : reason) full += (full.empty() ? "" : "\n") + line;
    e.reason = kind.empty() ? full : kind;
    e.explanation = explanation;
    if (const GraphBreakRegistryEntry* entry = kind.empty() ? nullptr : graph_break_registry::byType(kind)) e.gbId = entry->gbId;
    if (e.userStack.empty() && !lines.empty()) {  // no traceback: the header's place
        std::string_view header = lines.front();  // "Graph break in user code at FILE:LINE"
        size_t colon = header.rfind(':'), at = scan::literalEnd(header, 0, "Graph break in user code at ");
        if (at != scan::npos && colon != scan::npos && colon >= at && scan::digitsEnd(header, colon + 1) == header.size())
            e.userStack.push_back(StackFrame{std::string(header.substr(at, colon - at)), intOfDigits(std::string(header.substr(colon + 1))), "", ""});
    }
    return e;
}

// One compile phase from a chromium_event payload: "B" opens a span of its name, "E" closes
// the latest open one of that name; "X" is whole. Times are microseconds. PyTorch's phases
// nest (dynamo > entire_frame_compile > compile_attempt_0 > bytecode_tracing): a span's
// parent is the innermost one open where it begins, as tlparse's chromium_events.json keeps it.
class PhaseSpans {
public:
    void add(const nlohmann::json& event, const std::string& compileId, std::vector<Event>& out) {
        std::string ph = stringField(event, "ph"), name = stringField(event, "name");
        auto ts = event.find("ts");
        if (name.empty() || ts == event.end() || !ts->is_number()) return;
        std::optional<int64_t> at = nanosecondsOfMicros(*ts);
        if (!at) return;
        int64_t ns = *at;
        std::string id = compileId.empty() && event.contains("args") ? stringField(event["args"], "compile_id") : compileId;
        if (ph == "B") {
            open_.push_back(opened(name, ns, id));
        } else if (ph == "E") {
            auto it = std::find_if(open_.rbegin(), open_.rend(), [&](const Open& o) { return o.name == name; });
            if (it == open_.rend()) return;
            Open begun = std::move(*it);
            open_.erase(std::next(it).base());
            if (begun.compileId.empty()) begun.compileId = id;
            out.push_back(TraceEvent{span(begun, ns)});
        } else if (ph == "X") {
            auto dur = event.find("dur");
            int64_t length = dur != event.end() ? nanosecondsOfMicros(*dur).value_or(0) : 0;
            out.push_back(TraceEvent{span(opened(name, ns, id), ns + length)});
        }
    }

private:
    struct Open {
        std::string name;
        int64_t beginNs = 0;
        std::string compileId;
        int64_t rfId = 0, parentId = 0;
    };
    // Ids in begin order (a trace view links spans by id), under the innermost open span.
    Open opened(const std::string& name, int64_t begin, const std::string& compileId) {
        return {name, begin, compileId, ++spans_, open_.empty() ? 0 : open_.back().rfId};
    }
    static TraceRecord span(const Open& begun, int64_t end) {
        TraceRecord r;
        r.rfId = begun.rfId;
        r.parentId = begun.parentId;
        r.category = TraceCategory::Compile;
        r.name = begun.name;
        r.beginNs = begun.beginNs;
        r.endNs = end;
        r.compileId = begun.compileId;
        return r;
    }
    std::vector<Open> open_;  // outermost first
    int64_t spans_ = 0;
};

// What a compile's records tell of it, which its earlier events need too.
struct CompileFacts {
    std::string function;
    SourceLocation where;
    std::string breakReason;  // the first graph break in it
};

// `NAME = async_compile.KIND(` starting a kernel's definition in an output code file.
std::optional<OutputCodeKernel> kernelDefinitionOf(std::string_view line, int number) {
    size_t nameEnd = scan::wordEnd(line, 0), kind = nameEnd == scan::npos ? scan::npos : scan::literalEnd(line, nameEnd, " = async_compile.");
    if (kind == scan::npos) return std::nullopt;
    for (std::string_view k : {"cpp_pybinding", "cpp", "triton", "cuda"})
        if (scan::literalEnd(line, kind, std::string(k) + "(") != scan::npos)
            return OutputCodeKernel{std::string(line.substr(0, nameEnd)), k == "cpp_pybinding" ? "cpp" : std::string(k), number, 0};
    return std::nullopt;
}

// The number after "limit" in a recompile-limit failure ("limit (8)", "limit: 8", "limit of
// 8", "limit 8"), or 0.
int recompileLimitIn(std::string_view reason) {
    for (size_t at = reason.find("limit"); at != scan::npos; at = reason.find("limit", at + 1)) {
        size_t after = at + 5, spaced = scan::spacesEnd(reason, after);
        for (size_t number : {scan::literalEnd(reason, spaced, "("), scan::literalEnd(reason, after, ":"),
                              spaced > after ? scan::literalEnd(reason, spaced, "of") : scan::npos, after}) {
            if (number == scan::npos) continue;
            size_t digits = scan::spacesEnd(reason, number), end = scan::digitsEnd(reason, digits);
            if (end != scan::npos) return intOfDigits(std::string(reason.substr(digits, end - digits)));
        }
    }
    return 0;
}

}  // namespace

std::vector<OutputCodeKernel> outputCodeKernels(const std::string& wrapper) {
    std::vector<OutputCodeKernel> kernels;
    int number = 0;
    for (const std::string& line : linesOf(wrapper)) {
        ++number;
        if (auto kernel = kernelDefinitionOf(line, number)) {
            if (!kernels.empty() && !kernels.back().lastLine) kernels.back().lastLine = number - 1;
            kernels.push_back(std::move(*kernel));
        } else if (!kernels.empty() && !kernels.back().lastLine && (line.starts_with("'''") || line.starts_with("\"\"\""))) {
            kernels.back().lastLine = number;  // the kernel's source string closes here
        }
    }
    if (!kernels.empty() && !kernels.back().lastLine) kernels.back().lastLine = number;
    return kernels;
}

namespace {

// One pass over the records: each becomes its events as it is read, and a payload is moved
// into its event, so a log is never held whole. What a compile's events say that only later
// records tell (its function from compilation_metrics, its first graph break, the op count)
// is filled in at the end.
class TraceLogImporter {
public:
    void add(TraceLogRecord& r, const std::map<int64_t, std::string>& strings);
    TorchTraceImport finish();

private:
    void learn(const TraceLogRecord& r, const std::string& id, const std::map<int64_t, std::string>& strings);
    void linkKernelsToPostGradNodes(const std::string& id, const std::string& mappings);
    // A record of the Logs pane holding the payload whole (its metadata where it has none).
    void keepAsRecord(const std::string& id, const std::string& name, const TraceLogRecord& r) {
        imported_.events.push_back(LogEvent{id, name, true, LogLevel::Info, r.payload.empty() ? jsonText(r.metadata) : r.payload});
    }
    // A described tensor that a source names is one of the compile's inputs.
    void noteInput(const TraceLogRecord& r, const std::string& id) {
        std::pair<int64_t, int64_t> key{integerField(r.metadata, "describer_id", -1), integerField(r.metadata, "id", -1)};
        if (r.kind == "describe_tensor") described_[key] = tensorLayoutText(r.metadata);
        else if (auto d = described_.find(key); r.kind == "describe_source" && d != described_.end())
            imported_.metrics[id].inputs.push_back(stringField(r.metadata, "source", "?") + ": " + d->second);
    }
    void emit(Event event, const std::string& id) {
        completed_.emplace_back(imported_.events.size(), id);
        imported_.events.push_back(std::move(event));
    }
    std::string functionOf(const std::string& id) {
        const std::string& f = facts_[id].function;
        return f.empty() ? functionOfFrame_[id.substr(0, id.rfind('/'))] : f;
    }

    TorchTraceImport imported_;
    std::map<std::string, CompileFacts> facts_;
    std::map<std::string, std::string> functionOfFrame_;  // frame id -> function, for compiles that never started
    std::vector<std::pair<size_t, std::string>> completed_;  // events to complete from the facts: index, compile id
    std::map<size_t, std::vector<std::string>> recompileReasons_;  // by event index
    PhaseSpans phases_;
    std::set<std::string> started_;
    std::map<std::pair<int64_t, int64_t>, std::string> described_;  // (describer, tensor id) -> its layout
};

void TraceLogImporter::learn(const TraceLogRecord& r, const std::string& id, const std::map<int64_t, std::string>& strings) {
    if (r.kind == "compilation_metrics" || r.kind == "bwd_compilation_metrics") {
        (r.kind == "compilation_metrics" ? imported_.metrics[id].forward : imported_.metrics[id].backward) = r.metadata;
        std::string function = stringField(r.metadata, "co_name");
        if (facts_[id].function.empty() && !function.empty()) facts_[id].function = function;
    } else if (r.kind == "dynamo_start") {
        std::vector<StackFrame> stack = stackOf(jsonField(r.metadata, "stack"), strings);
        if (!stack.empty()) {
            facts_[id].function = stack.back().function;
            facts_[id].where = SourceLocation{stack.back().file, stack.back().line, 0};
            functionOfFrame_[id.substr(0, id.rfind('/'))] = stack.back().function;
        }
    } else if (r.kind == "artifact" && stringField(r.metadata, "name") == "dynamo_graph_break_reason" && facts_[id].breakReason.empty()) {
        facts_[id].breakReason = graphBreakOf(id, r.payload).reason;
    }
}

void TraceLogImporter::add(TraceLogRecord& r, const std::map<int64_t, std::string>& strings) {
    ++imported_.kindCounts[r.kind];
    if (!knownKinds().count(r.kind)) {
        ++imported_.unknownKinds[r.kind];
        return;
    }
    std::string id = compileOf(r.compileId);
    learn(r, id, strings);
    std::string artifact = r.kind == "artifact" ? stringField(r.metadata, "name") : "";
    const std::string& stageKey = artifact.empty() ? r.kind : artifact;
    if (r.kind == "dynamo_start") {
        if (started_.insert(id).second)  // not a restarted attempt
            emit(CompileStartedEvent{id, "", {}, stackOf(jsonField(r.metadata, "stack"), strings)}, id);
    } else if (r.kind == "dynamo_output_graph") {
        GraphCapturedEvent e;
        e.compileId = id;
        e.graphName = graphNameOf(id);
        e.graph = graphJsonFromReadable(r.payload);
        e.readable = std::move(r.payload);
        for (const auto& node : e.graph["nodes"]) e.opCount += stringField(node, "op") != "placeholder";
        emit(std::move(e), id);
    } else if (artifact == "dynamo_graph_break_reason") {
        imported_.events.push_back(graphBreakOf(id, r.payload));
    } else if (artifact == "recompile_reasons") {
        imported_.metrics[id].recompileReasons = recompileReasons(r.payload);
        recompileReasons_[imported_.events.size()] = imported_.metrics[id].recompileReasons;
        emit(RecompileEvent{id, "", {}, ""}, id);
    } else if (r.kind == "dynamo_cpp_guards_str" || r.kind == "dynamo_guards") {
        GuardsEvent e;
        e.compileId = id;
        if (r.kind == "dynamo_cpp_guards_str") {
            keepAsRecord(id, r.kind, r);  // the guard tree as PyTorch printed it
            e.guards = guardsOf(r.payload);
        } else if (nlohmann::json list = parseUntrustedJson(r.payload); list.is_array()) {
            for (const auto& g : list) e.guards.push_back(g.is_object() ? stringField(g, "code", jsonText(g)) : jsonText(g));
        }
        e.lines.assign(e.guards.size(), 0);
        imported_.events.push_back(std::move(e));
    } else if (graphStages().count(stageKey)) {  // drawn, as the captured graph is
        nlohmann::json graph = graphJsonFromReadable(r.payload);
        imported_.events.push_back(IrDumpEvent{id, graphNameOf(id), graphStages().at(stageKey), std::move(r.payload), {}, std::move(graph)});
    } else if (artifact == "inductor_provenance_tracking_node_mappings") {
        linkKernelsToPostGradNodes(id, r.payload);
        keepAsRecord(id, artifact, r);
    } else if (artifact.starts_with("fx_graph_cache_") || artifact.starts_with("aotautograd_cache_")) {
        ++imported_.metrics[id].cacheVerdicts[artifact];
        keepAsRecord(id, artifact, r);  // and why: the cache key's parts, as tlparse shows them
    } else if (artifact == "torch_version") {
        nlohmann::json v = parseUntrustedJson(r.payload);
        imported_.torchVersion = v.is_object() ? stringField(v, "pytorch_version", r.payload) : v.is_string() ? v.get<std::string>() : r.payload;
    } else if (r.kind == "inductor_output_code") {
        KernelSourceEvent e;
        e.compileId = id;
        e.graph = graphNameOf(id);
        e.language = "python";
        for (const auto& k : outputCodeKernels(r.payload)) e.kernels.push_back(k.name);
        e.source = std::move(r.payload);
        imported_.events.push_back(std::move(e));
    } else if (r.kind == "chromium_event") {
        nlohmann::json event = parseUntrustedJson(r.payload);
        if (event.is_object()) phases_.add(event, r.compileId.empty() ? "" : id, imported_.events);
        else imported_.warnings.push_back(fmt::format("line {}: a chromium_event whose payload is not JSON", r.line));
    } else if (isShapeEntry(r.kind)) {
        noteInput(r, id);
        std::vector<StackFrame> stack = stackOf(jsonField(r.metadata, "user_stack"), strings);
        std::string text = shapeEntryText(r.kind, r.metadata, stack.empty() ? nullptr : &stack.back());
        imported_.events.push_back(LogEvent{id, r.kind, true, LogLevel::Info, std::move(text)});
    } else if (!artifact.empty()) {
        if (artifact == "inductor_collective_schedule")
            if (nlohmann::json ops = parseUntrustedJson(r.payload); ops.is_array())
                for (const auto& op : ops) imported_.metrics[id].collectives.push_back(op.is_string() ? op.get<std::string>() : jsonText(op));
        // PyTorch's other artifacts (the runnable graph, runtime wrappers, forward metadata, the
        // graph before pre-grad passes, ...): a Logs record each, by name.
        keepAsRecord(id, artifact, r);
    }
    if (r.kind == "compilation_metrics") {
        std::string failType = stringField(r.metadata, "fail_type"), failReason = stringField(r.metadata, "fail_reason");
        if (failReason.find("recompile limit") != std::string::npos || failReason.find("cache_size_limit") != std::string::npos)
            emit(CacheLimitEvent{"", {}, recompileLimitIn(failReason), ""}, id);
        else if (!failType.empty())
            emit(GraphFailureEvent{id, "", graphNameOf(id), "", "compile", failType + ": " + failReason, {}}, id);
    }
}

// Inductor's provenance tracking (trace.provenance_tracking_level): which kernel of the
// compile's output code computes each post-grad node ("postToCppCode": {"relu":
// ["cpp_fused_relu_0:2"]}, postToTritonCode on a GPU). The output code logged last for the
// compile gets, per post-grad node, the lines of its kernel's definition and of the call
// under its "[Provenance debug handles]" comment: what our own kernels' provenance holds per
// buffer, so a post-grad node and its kernel select each other.
void TraceLogImporter::linkKernelsToPostGradNodes(const std::string& id, const std::string& mappings) {
    nlohmann::json map = parseUntrustedJson(mappings);
    if (!map.is_object()) return;
    KernelSourceEvent* code = nullptr;
    for (auto it = imported_.events.rbegin(); it != imported_.events.rend() && !code; ++it)
        if (auto* e = std::get_if<KernelSourceEvent>(&*it); e && e->compileId == id) code = e;
    if (!code) return;
    std::map<std::string, std::pair<int, int>> definitions;  // kernel -> its lines
    for (const OutputCodeKernel& k : outputCodeKernels(code->source)) definitions[k.name] = {k.firstLine, k.lastLine};
    constexpr std::string_view kHandles = "# [Provenance debug handles] ";
    std::map<std::string, int> calls;  // debug handle -> the line of its comment (the call is below)
    std::vector<std::string> lines = linesOf(code->source);
    for (size_t i = 0; i < lines.size(); ++i)
        if (size_t at = lines[i].find(kHandles); at != std::string::npos)
            calls[trimmed(lines[i].substr(at + kHandles.size()))] = static_cast<int>(i) + 1;
    for (const char* key : {"postToCppCode", "postToTritonCode"}) {
        auto table = map.find(key);
        if (table == map.end() || !table->is_object()) continue;
        for (const auto& [node, handles] : table->items()) {
            if (!handles.is_array()) continue;
            for (const auto& handle : handles) {
                if (!handle.is_string()) continue;
                std::string name = handle.get<std::string>(), kernel = name.substr(0, name.rfind(':'));
                auto& ranges = code->bufferLines[node];
                if (auto d = definitions.find(kernel); d != definitions.end()) ranges.push_back(d->second);
                if (auto c = calls.find(name); c != calls.end()) ranges.push_back({c->second, c->second + 1});
                code->bufferKernels.emplace(node, kernel);
            }
        }
    }
}

TorchTraceImport TraceLogImporter::finish() {
    std::map<std::string, std::string> lastRecompileReason;  // by function, as of each event in order
    for (const auto& [index, id] : completed_) {
        const CompileFacts& fact = facts_[id];
        Event& event = imported_.events[index];
        if (auto* e = std::get_if<CompileStartedEvent>(&event)) {
            e->function = fact.function;
            e->where = fact.where;
        } else if (auto* e = std::get_if<GraphCapturedEvent>(&event)) {
            e->function = fact.function;
            e->breakReason = fact.breakReason;
            if (auto m = imported_.metrics.find(id); m != imported_.metrics.end())
                e->opCount = static_cast<int>(integerField(m->second.forward, "graph_op_count", e->opCount));
        } else if (auto* e = std::get_if<RecompileEvent>(&event)) {
            const std::vector<std::string>& reasons = recompileReasons_[index];
            e->function = functionOf(id);
            e->where = fact.where;
            e->message = fmt::format("Recompiling function {} in {}:{}\n    triggered by the following guard failure(s):", e->function,
                                     fact.where.file, fact.where.line);
            for (const auto& reason : reasons) e->message += "\n    - " + reason;
            if (!reasons.empty()) lastRecompileReason[e->function] = reasons.front();
        } else if (auto* e = std::get_if<CacheLimitEvent>(&event)) {
            e->function = functionOf(id);
            e->where = fact.where;
            e->lastReason = lastRecompileReason[e->function];
        } else if (auto* e = std::get_if<GraphFailureEvent>(&event)) {
            e->function = functionOf(id);
            e->where = fact.where;
        }
    }
    for (const auto& [id, m] : imported_.metrics)
        imported_.events.push_back(LogEvent{id, "compilation_metrics", true, LogLevel::Info, metricsText(m) + metricsDetail(m.forward)});
    return std::move(imported_);
}

}  // namespace

TorchTraceImport importTraceLog(std::istream& in) {
    TraceLogReader reader(in);
    TraceLogImporter importer;
    for (TraceLogRecord record; reader.next(record);) importer.add(record, reader.strings());
    TorchTraceImport imported = importer.finish();
    imported.warnings.insert(imported.warnings.begin(), reader.warnings().begin(), reader.warnings().end());
    return imported;
}

std::string metricsText(const TorchCompileMetrics& m) {
    std::vector<std::string> parts;
    const nlohmann::json& f = m.forward;
    if (f.is_object()) {
        if (auto t = f.find("entire_frame_compile_time_s"); t != f.end() && t->is_number())
            parts.push_back(fmt::format("compiled in {:.3f} s", t->get<double>()));
        if (auto g = f.find("guard_count"); g != f.end() && g->is_number_integer())
            parts.push_back(fmt::format("guard_count {}", g->get<int64_t>()));
    }
    if (auto d = m.backward.find("duration_us"); m.backward.is_object() && d != m.backward.end() && d->is_number())
        parts.push_back(fmt::format("backward compiled in {:.3f} s", d->get<double>() / 1e6));
    for (const auto& [verdict, count] : m.cacheVerdicts) parts.push_back(fmt::format("{} x{}", verdict, count));
    std::string text = fmt::format("{}", fmt::join(parts, ", "));
    if (f.is_object()) {
        if (auto restarts = f.find("restart_reasons"); restarts != f.end() && restarts->is_array())
            for (const auto& reason : *restarts)
                if (reason.is_string())
                    text += fmt::format("\n  restarted: {}", reason.get<std::string>().substr(0, reason.get<std::string>().find('\n')));
        std::string failType = stringField(f, "fail_type");
        if (!failType.empty()) {
            std::string reason = stringField(f, "fail_reason");
            text += fmt::format("\n  failed: {}: {}", failType, reason.substr(0, reason.find('\n')));
        }
    }
    return text;
}

std::string torchTraceReport(const TorchTraceImport& imported) {
    CompileReport report;
    for (const Event& e : imported.events) report.consume(e);
    std::string out = report.render();
    out += "\nWhat PyTorch logged\n===================\n";
    if (!imported.torchVersion.empty()) out += fmt::format("torch {}\n", imported.torchVersion);
    for (const auto& [id, m] : imported.metrics) out += fmt::format("{}: {}\n", id, metricsText(m));
    if (!imported.unknownKinds.empty()) {
        out += "Entry kinds not read:";
        for (const auto& [kind, count] : imported.unknownKinds) out += fmt::format(" {} x{}", kind, count);
        out += "\n";
    }
    for (const auto& w : imported.warnings) out += "warning: " + w + "\n";
    return out;
}

}  // namespace fusescope
