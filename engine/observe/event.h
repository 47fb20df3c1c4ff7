#pragma once
// Everything the engine reports is one of these events. The log printer, the CLI's
// --events file, and later the GUI, the debug-trace directory and the trace bundle are all
// consumers of the one stream (docs/architecture.md, principle 2).

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "profile/trace_record.h"

namespace fusescope {

// One frame of a user stack, as Python's FrameSummary prints it.
struct StackFrame {
    std::string file;
    int line = 0;
    std::string function;
    std::string sourceLine;  // stripped text of the line
    // Dynamo's marker under the expression the frame was evaluating, aligned to sourceLine
    // ("~~~~~^^^^^^" under print("hi")); empty when not known
    std::string marker;
    std::string str() const;  // File "script.py", line 4, in fn
};

// One nn.Module a traced op ran inside (an entry of Dynamo's nn_module_stack): its name
// under the compiled module ("blocks.0.attn"; under a global, "model.blocks.0") and class.
struct ModuleScope {
    std::string path;
    std::string className;
    bool operator==(const ModuleScope&) const = default;
};

struct CompileStartedEvent {
    std::string compileId;  // "0/1"
    std::string function;
    SourceLocation where;   // the def line
    std::vector<StackFrame> userStack{};  // the calls that led to the compile, outermost first (when known)
};

struct GraphCapturedEvent {
    std::string compileId;
    std::string function;
    std::string graphName;  // __compiled_fn_0
    std::string readable;  // Python code of the graph (fx_graph_readable.py)
    std::string runnable;  // a script that rebuilds inputs and runs it (fx_graph_runnable.py)
    std::string tabular;   // opcode/name/target/args/kwargs table
    nlohmann::json graph;  // nodes with provenance (graph/graph_json.h)
    int opCount = 0;
    std::string breakReason;  // why this graph ended early; empty when it ran to return
    std::string backend;      // what compiles it (inductor, eager, ...); empty when unknown
};

struct GuardsEvent {
    std::string compileId;
    std::vector<std::string> guards;  // each "code   # source line"
    std::vector<int> lines;           // the script line of each guard, 0 when unknown
};

struct GuardFailureEvent {
    std::string compileId;            // the entry that failed
    std::string function;
    std::vector<std::string> reasons;
};

// A change to a program's text: `text` inserted at the start of `line` of `file`.
struct SourceInsert {
    std::string file;
    int line = 0;
    std::string text;  // empty: no change
};

struct RecompileEvent {
    std::string compileId;  // the new compile
    std::string function;
    SourceLocation where;
    std::string message;    // the full "Recompiling function ..." text
    // The doctor's one-click fix where one is known (capture/first_call.h): marking the
    // changed dim dynamic before the first call.
    SourceInsert fix{};
};

struct GraphBreakEvent {
    std::string compileId;
    std::string reason;  // the break's type, as PyTorch's registry names it (gb_type)
    std::vector<StackFrame> userStack;
    // PyTorch's registry entry: GB id (empty for a break PyTorch does not make), and what
    // the break says (observe/graph_break.h)
    std::string gbId;
    std::string explanation;
    std::vector<std::string> hints;
    std::string context;
};

// What a graph break cost over the run (the doctor, docs/graph-breaks.md): the two graphs
// it kept apart, the time between them (the Python the break made run, summed over the
// calls that ran both), what compiling each took, and the kernels inductor makes of them
// apart and as one graph (the fusion the break prevented). Sent once, at the run's end.
struct GraphBreakCostEvent {
    std::string compileId;
    std::string function;
    std::string reason;                 // the break's gb_type
    std::vector<StackFrame> userStack;  // where it is, innermost last
    std::string graphBefore, graphAfter;
    int opsBefore = 0, opsAfter = 0;
    int calls = 0;
    double pythonSeconds = 0;
    double compileSecondsBefore = 0, compileSecondsAfter = 0;
    int kernelsBefore = -1, kernelsAfter = -1, kernelsJoined = -1;  // -1: inductor can't lower one of them
    // Fusions the break prevented (0 when a count is not known).
    int fusionsLost() const {
        return kernelsJoined < 0 || kernelsBefore < 0 || kernelsAfter < 0 ? 0 : kernelsBefore + kernelsAfter - kernelsJoined;
    }
};

struct CacheLimitEvent {
    std::string function;
    SourceLocation where;
    int limit = 0;
    std::string lastReason;
};

// A compiled graph that failed: its compile raised (then it ran eagerly: WON'T CONVERT),
// its run raised, or, under accuracy checking, its results differed from eager. The
// minifier starts from one (docs/minifier.md).
struct GraphFailureEvent {
    std::string compileId;
    std::string function;
    std::string graph;     // __compiled_fn_0
    std::string backend;
    std::string kind;      // "compile", "runtime" or "accuracy"
    std::string error;     // "ReluCompileError: ...", or the first output element that differs
    SourceLocation where;  // the script line it points at, when known
};

// A compiled graph that runs eagerly instead: its backend's compile failed (WON'T CONVERT,
// with suppress_errors) or inductor could not lower one of its ops. The reason is the
// error or the op and why it has no lowering. Without a graph: the whole frame runs eagerly
// (a graph break in its loop skipped it), its compile ending there.
struct EagerFallbackEvent {
    std::string compileId;
    std::string graph;  // __compiled_fn_0; empty: the frame
    std::string backend;
    std::string reason;
};

enum class LogLevel { Debug = 10, Info = 20, Warning = 30, Error = 40 };

struct LogEvent {
    std::string compileId;  // may be empty
    std::string name;       // component ("dynamo") or artifact ("recompiles")
    bool isArtifact = false;
    LogLevel level = LogLevel::Info;
    std::string message;
    std::string formatted() const;  // the line(s) as printed: "[0/1] [__recompiles] ..."
};

struct ErrorEvent {
    std::string message;
    SourceLocation where;
};

struct ScriptOutputEvent {
    std::string text;  // what the script printed (stdout)
};

// A module of the script's own that it imported (a file beside it, `from model import GPT`):
// bundles and the workbench keep it with the script.
struct ModuleImportedEvent {
    std::string file;    // as locations name it: the script's directory joined to path
    std::string path;    // under the script's directory: "model.py", "pkg/layers.py"
    std::string source;  // its text as it ran
};

// A text dump of one stage of the inductor pipeline for one graph: "fx_graph_transformed",
// "ir_pre_fusion" or "ir_post_fusion" (the event's type is the stage name), or, read from
// real PyTorch's TORCH_TRACE log, one of its graphs (isIrDumpStage lists them).
// Scheduler nodes carry their provenance so a viewer can link graph nodes, IR buffers and
// kernels without parsing the text.
struct IrNodeInfo {
    std::string name;                  // buf0, buf0_buf1
    std::string kind;                  // SchedulerNode, ExternKernelSchedulerNode, FusedSchedulerNode
    std::vector<std::string> origins;  // the captured-graph nodes it computes
    std::vector<std::string> reads;    // buffers and graph inputs it reads (its dependencies)
    std::vector<std::string> members;  // a fused node's buffers, in execution order
    std::string realizedBecause{};     // why its buffer is not inlined into its consumers ("" for fused nodes)
};

struct IrDumpEvent {
    std::string compileId;
    std::string graph;  // __compiled_fn_0
    std::string stage;
    std::string text;
    std::vector<IrNodeInfo> nodes;  // ir_pre_fusion / ir_post_fusion: the nodes in the text, in order
    // The graph stages (aot_joint_graph, aot_forward_graph, aot_backward_graph; of a TORCH_TRACE
    // log also aot_inference_graph and the pre- and post-grad graphs): nodes with provenance as
    // graph/graph_json.h writes them; ours each name the captured node they compute or
    // differentiate ("captured"). Null for other stages.
    nlohmann::json graphJson = nullptr;
};

// One step of fusion, in order, so a viewer can replay them.
struct FusionDecisionEvent {
    std::string compileId;
    std::string graph;
    int step = 0;
    std::string node1, node2;
    std::string kind;  // vertical / horizontal
    int64_t score = 0;
    bool fused = false;
    std::string reason;
    std::string result;  // the fused node, when fused
};

// The generated code of one graph and what the toolchain made of it.
struct KernelSourceEvent {
    std::string compileId;
    std::string graph;
    std::string language;  // "cpp" or "cuda"
    std::string source;
    std::vector<std::string> kernels;  // kernel function names, in call order
    // Provenance: the 1-based, inclusive source line ranges computing each buffer, and the
    // kernel (or extern kernel) each buffer is computed in.
    std::map<std::string, std::vector<std::pair<int, int>>> bufferLines;
    std::map<std::string, std::string> bufferKernels;
    // What the toolchain made of the source, by name, each text non-empty: llvm_ir (the
    // optimised LLVM IR) and asm (host assembly) for cpp; ptx and sass (when the toolkit
    // has nvdisasm) for cuda.
    std::map<std::string, std::string> artifacts;
    std::string arch;  // cuda: the GPU architecture compiled for (sm_90)
    bool fromCache = false;
    double compileSeconds = 0;
    std::string error;  // the compiler's message when it failed
};

// One profiled span (an op, annotation, compiled call, kernel or compile phase) when the
// session records a trace (SessionOptions::trace).
struct TraceEvent {
    TraceRecord record;
};

using Event = std::variant<CompileStartedEvent, GraphCapturedEvent, GuardsEvent, GuardFailureEvent,
                           RecompileEvent, GraphBreakEvent, GraphBreakCostEvent, CacheLimitEvent, GraphFailureEvent, EagerFallbackEvent, LogEvent, ErrorEvent,
                           ScriptOutputEvent, ModuleImportedEvent, IrDumpEvent, FusionDecisionEvent, KernelSourceEvent, TraceEvent>;

std::string eventType(const Event& event);  // "compile_started", "graph_captured", ...
// Whether an event type names an IrDumpEvent's stage: ours, or a PyTorch graph of a
// TORCH_TRACE log (aot_forward_graph, inductor_post_grad_graph, fx_graph_runnable, ...).
bool isIrDumpStage(std::string_view type);
nlohmann::json eventToJson(const Event& event);

// Fan-out of events to consumers, in subscription order.
class EventBus {
public:
    using Consumer = std::function<void(const Event&)>;
    void subscribe(Consumer consumer) { consumers_.push_back(std::move(consumer)); }
    void emit(const Event& event) const {
        for (const auto& c : consumers_) c(event);
    }

private:
    std::vector<Consumer> consumers_;
};

}  // namespace fusescope
