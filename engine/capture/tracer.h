#pragma once
// Symbolic tracing of one call of a compiled function. Tensor ops become graph nodes over
// meta ("lazy") tensors that carry sizes but no data; real tensors the code touches are
// lifted into placeholders and guarded by their source. Where the code needs data (print,
// a branch on a tensor, graph_break(), .item()), the graph so far is compiled and run, every
// lazy tensor becomes real in place, and tracing resumes into a fresh graph.
//
// On a cache hit the same code is traced again in replay mode: the entry's guards promise
// the same graphs, so each flush finds its graph among the entry's compiled segments (by
// fingerprint) instead of compiling; only a path never taken before compiles. A hit that
// finds the state a traced call saw skips even that (direct_call.h).

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "graph/graph_compiler.h"
#include "capture/direct_call.h"
#include "capture/guard.h"
#include "capture/size_expression.h"
#include "capture/symbol_names.h"
#include "capture/symbolic_sizes.h"
#include "observe/log_registry.h"
#include "script/interpreter.h"

namespace fusescope {

struct FunctionObject;

struct Segment;

// Where a graph input came from: output `output` of the graph `segment` ran earlier in the
// same call, before a graph break (null: from anywhere else).
struct InputLink {
    const Segment* segment = nullptr;
    int output = -1;
};

// One compiled graph of a cache entry: the code between two graph breaks.
struct Segment {
    std::shared_ptr<Graph> graph;
    CompiledGraph run;
    std::string fingerprint;
    std::string name;         // __compiled_fn_3
    std::string compileId;    // of the entry that made it
    std::string function;     // ... and its function
    std::string breakReason;  // why it ended early; empty when it ran to the return
    std::vector<StackFrame> breakStack;  // ... and where (the traced frames, innermost last)
    std::vector<InputLink> inputsFrom;   // per placeholder
    double compileSeconds = 0;
};

// An entry's graphs. A deque: a segment stays where it is made (InputLink points at it).
using Segments = std::deque<Segment>;

// Time between two segments, summed over the calls that ran one after the other: the Python
// a graph break makes run between them (the doctor's cost of the break).
struct BreakTiming {
    int64_t ns = 0;
    int calls = 0;
};

// The graphs one call runs, across the frames it runs in (the compiled frame, then a resume
// function after each graph break in its own code): which ran last and when it ended, and
// which made each tensor, so the doctor can pair the graphs a break keeps apart.
struct BreakTimeline {
    const Segment* last = nullptr;
    int64_t lastRunEndNs = 0;
    struct Produced {
        std::weak_ptr<TensorImpl> impl;
        InputLink link;
    };
    std::unordered_map<const TensorImpl*, Produced> producedBy;
    // `after` ran `ns` after `before` ended.
    std::function<void(const Segment& before, const Segment& after, int64_t ns)> ranAfter;
};

// A graph break in the compiled frame's own code that Dynamo resumes after (resume_point.h):
// what the resume function's frame is made of.
struct ResumeRequest {
    const FunctionObject* function = nullptr;  // the compiled frame's
    const Expr* at = nullptr;                  // the call or subscript that broke, or the if's test
    std::optional<bool> branch;                // after a test: the branch taken
    int line = 0;                              // where it broke
    std::vector<Value*> stack;                 // the values left on the stack, the result last
    ScopePtr scope;                            // the frame's locals
};

struct BreakRecord {
    GraphBreak why;
    std::vector<StackFrame> userStack;  // the traced frames, with markers
    bool endedGraph = false;  // the graph before it had ops (explain() counts only those, as Dynamo)
    std::vector<StackFrame> explainStack;  // explain()'s "User Stack" (Dynamo's frame summary)
    int torchContexts = 0;  // the compiled frame's torch context managers its resume function enters again
};

// The graph breaks the graph_breaks log gave in full: (gb_type, file, line). PyTorch gives a
// break it already gave there only its first lines ("user stack suppressed").
using LoggedBreaks = std::set<std::tuple<std::string, std::string, int>>;

struct TraceContext {
    std::string compileId;
    std::string builtinsDict;  // the global Dynamo keeps the builtins under for this compile ("__builtins_dict___0")
    int outputGraph = 0;       // Dynamo's OutputGraph.compile_id: the traces (restarts too) the process made before this one
    std::string function;
    std::string resumedAs;                          // the resume function it runs as ("" in the compiled frame)
    SourceLocation functionWhere;                   // its def
    const GraphCompiler* backend = nullptr;
    bool suppressErrors = true;                     // torch._dynamo.config.suppress_errors
    CompileSettings settings;                       // the session's, with the script's torch._inductor.config
    const Logger* logger = nullptr;
    const EventBus* bus = nullptr;
    bool recording = true;                          // false: replaying a cached entry
    bool fullgraph = false;                         // a graph break is an error
    Segments* segments = nullptr;                   // recording: filled; replay: reused
    bool allDynamic = false;                        // dynamic=True
    bool automaticDynamic = true;                   // dims whose size changed become symbolic
    bool staticParameters = true;                   // ... except a parameter's or buffer's (force_parameter_static_shapes)
    const std::map<std::string, Shape>* seenSizes = nullptr;  // previous compiles' input sizes
    int* graphCounter = nullptr;                    // numbers __compiled_fn_N across the session
    DirectCallRecorder* direct = nullptr;           // learns a direct call from this one (direct_call.h)
    BreakTimeline* timeline = nullptr;              // the call's, across its frames
    LoggedBreaks* loggedBreaks = nullptr;           // the session's
    std::set<std::string>* warningsGiven = nullptr; // the session's: GraphBreak::warning's given once
    // Recording the frame's trace from its start: a break Dynamo does not resume from where it
    // happens (in a function the frame calls, in a loop) restarts the trace (Tracer::restart).
    bool mayRestart = false;
    // Calls of the frame's own code inside which an earlier trace broke the graph: the graph
    // ends at each, which then runs eagerly (the entry's, so its cache hits break there too).
    std::map<const Expr*, BreakRecord>* breaksAtCalls = nullptr;
    // Runs a call eagerly, each script function it calls compiled in a frame of its own.
    std::function<Value(const Value& callee, CallArgs& args)> callEagerly;
    // A break inside the frame's call `at` that ends the graph where the call began (the entry's
    // breaksAtCalls learns it), the rest of the call running eagerly, as callEagerly runs one,
    // until it returns to the frame (at index `frame` of the interpreter's stack).
    std::function<void(const Expr& at, const BreakRecord& record, std::size_t frame)> endAtCall;
    // Goes on in the resume function after a break in the frame's own code: this tracer's
    // guards then end, another's begin. False where it does not (the trace goes on).
    std::function<bool(ResumeRequest&)> resume;
    // The value a source names in the call being traced (its frame as the call began); null
    // when it does not resolve.
    std::function<const Value*(const Source&)> resolve;
};

// Why `graph` cannot compile: the SymInts and SymFloats it computes (a sym_size node, an item
// of a float input, ...); "" when none.
std::string symbolicScalarNodes(const Graph& graph);
// What a compiling backend gets: `graph` with the sizes of its views and reshapes taken from
// their results where that holds for every size (one symbolic dim: -1), without the SymInts
// nothing reads then (x.view(x.size(0), -1) needs none).
std::shared_ptr<Graph> withSizesFromMeta(const Graph& graph);
// `graph` with its SymFloats read as f64[] tensors where every read allows it
// (capture/tensorified_floats.cpp); null where it has none, or one is read otherwise.
std::shared_ptr<Graph> withFloatsAsTensors(const Graph& graph);

class Tracer : public TraceHooks {
public:
    Tracer(Interpreter& interp, TraceContext context);
    ~Tracer() override;

    IValue captureOp(const OpCall& call) override;
    bool isLazy(const Tensor& t) const override;
    Device deviceOf(const Tensor& t) const override;
    void graphBreak(const GraphBreak& why) override;
    std::string computationTrace(const Tensor& t) const override;
    std::string producingOp(const Tensor& t) const override;
    // An exception leaving the traced function: a graph break at its raise, as Dynamo
    // reports it (the exception then propagates as eager's would).
    // `moduleCalls`: the nn.Module calls PyTorch runs the frame under (Interpreter::callFunction).
    void exceptionEscaped(const ScriptError& e, const FunctionObject& fn, int moduleCalls);
    void onStatement(const Stmt& stmt) override;
    void onInputUse(const Value& value) override;
    // A tensor a resume function gets on its stack (___stack0): its source known from the
    // start, read (for the guards' order) where an op first uses it, as Dynamo wraps it lazily.
    void onStackInput(const Value& value);
    void onLengthUse(const Value& value) override;
    void onDictWalk(const Value& dict) override;
    void onModuleHooksRead(const Value& dict) override;
    void onDictTruth(const Value& dict) override;
    bool valuesByPosition(const Value& dict) const override { return dict.source && hookDicts_.count(dict.source->str()); }
    void onContainsUse(const Value& dict, const Value& key, bool found) override;
    void onHasAttribute(const Value& object, const std::string& name, bool found) override;
    void onModuleUse(const Value& module) override;
    void onCalleeUse(const Value& callee) override;
    void onRealize(const Value& value) override;
    void onReturn(const Value& result) override;
    void onListMethod(const Value& list, const std::string& name) override;
    SourcePtr mroOwnerSource(const ClassObject& owner, const std::string& name, const SourcePtr& reached) override;
    // Whether a graph of this trace had a call node (a SymInt's too): a frame without one Dynamo skips.
    bool madeCalls() const { return madeCalls_; }
    void onRefusedModuleCall(const Value& module, const ValueList& args) override;
    void onCellLoad(const Value& value) override;
    void onInheritedMethod(const Value& instance, const ClassObject& definer, const std::string& name) override;
    SourcePtr firstSourceOf(const Value& module) override;
    bool onNnModuleCall(bool readGlobalHooks) override;
    SourcePtr builtinSource(const std::string& name) override;
    std::optional<Value> symbolicInput(const Value& value) override;
    void onSizeUse(const Tensor& t, int64_t dim) override;
    // SymInts (capture/traced_sizes.cpp).
    SymbolicIntPtr symbolicSize(const Tensor& t, int64_t dim) override;
    std::optional<Value> symbolicArithmetic(BinaryOperator op, const Value& left, const Value& right) override;
    std::optional<Value> symbolicNegative(const Value& value) override;
    std::optional<bool> symbolicCompare(CompareOperator op, const Value& left, const Value& right) override;
    std::optional<Value> floatReadByOp(const Value& value, const std::string& madeIn) override;
    // Whether an op read a SymFloat of this graph as a number, for a backend through AOT
    // Autograd: its tensorify pass then restarts the trace with the float specialized (Dynamo's
    // counter drew for the discarded trace).
    bool floatsReadByOps() const { return floatsReadByOps_; }
    void onObjectTouch(const Value& object) override;
    void onScopeTouch(const ScopePtr& scope, const std::string& name) override;
    void onGradRead(const Tensor& base) override;
    void onTensorTypeRead(const Value& tensor) override;
    void onDictWrite(const Value& dict) override;
    std::optional<Value> runInsteadOfTracing(const Value& callee, CallArgs& args) override;
    std::optional<Value> tracedDictItem(const Value& dict, const std::string& key) override;
    void onUntracedEffect(const std::string& what) override;
    std::optional<Value> callAtBreak(const Expr& call, const Value& callee, CallArgs& args) override;
    void resumeAfter(const Expr& at, Value& value) override;
    void resumeInBranch(const Expr& test, bool taken) override;
    // Why the trace threw TraceRestart: Dynamo skips the frame (a break in a loop), or breaks
    // the graph at `call`, the frame's own call inside which `record` broke.
    struct Restart {
        bool skipFrame = false;
        const Expr* call = nullptr;
        BreakRecord record;
    };
    const std::optional<Restart>& restart() const { return restart_; }
    // The hooks it replaced (a resume function's tracer replaces those, not this one).
    TraceHooks* previousHooks() const { return previousHooks_; }

    // Compiles and runs what is left at the function's return.
    void finish();

    // The guards in the order PyTorch's guard manager checks them (so a call failing several
    // reports the same first one): by the first read of each guard's source, as Dynamo
    // installs a guard when it first wraps a value; the shape-environment guards after all.
    std::vector<Guard> guards() const;
    const std::vector<BreakRecord>& breaks() const { return breaks_; }
    // Sizes of the sourced input tensors this trace lifted (for automatic dynamic shapes);
    // dims made symbolic are -1.
    const std::map<std::string, Shape>& liftedSizes() const { return liftedSizes_; }

private:
    void guardKeyOrder(const Value& dict);
    void realizeValues(const Value& dict);  // each value of a dict input built (guarded) now, as Dynamo builds them
    void registerInput(const Value& value);  // onInputUse, its read aside
    struct LazyRef {
        Node* node = nullptr;
        int outputIndex = -1;
        std::weak_ptr<TensorImpl> impl;
        size_t order = 0;
        std::optional<Device> device;  // of the tensor it stands for; nullopt when unknown
    };
    struct Lifted {
        Node* placeholder = nullptr;
        Tensor meta;
        std::string source;  // "" when the tensor has none
        std::vector<TensorProduct> strides = {};  // its strides as products, where a size is dynamic
    };

    Argument argumentFor(const IValue& value, IValue& metaValue);
    Argument liftTensor(const Tensor& real, Tensor& meta);
    void realizeTensorInput(const Value& value);  // an input tensor the code hands on whole: a graph input, guarded
    void realizeStackValue(const Value& value);
    bool addGuard(Guard guard);  // false when an equal guard was already made
    void addTensorGuards(const Tensor& real, const SourcePtr& source, const TensorMeta& meta,
                         const std::vector<TensorProduct>& strides, const Node* placeholder);
    // Strides (capture/traced_strides.cpp): a dynamic input's as PyTorch's ShapeEnv makes them
    // (tm.strideSymbols; each stride as a product), and their guards. The contiguity check's
    // guard waits for the input's first op (guardContiguityAt), or the graph's end.
    std::vector<TensorProduct> makeSymbolicStrides(const Tensor& real, const std::string& sourceText, TensorMeta& tm);
    std::string printedProduct(const TensorProduct& product, const SourcePtr& source) const;
    Guard strideRelation(const SourcePtr& source, int64_t dim, CompareOperator relation, const TensorProduct& product) const;
    void addStrideGuards(const SourcePtr& source, const std::vector<TensorProduct>& strides, const Node* placeholder);
    void guardContiguityAt(const Node& op, const OpDef& def);
    void guardContiguityLeft();
    void unifyStrideSymbols(const std::string& replaced, const std::string& kept);
    void fixStrides(const std::string& source);  // its sizes all static again: its strides the numbers they were
    std::map<const Node*, std::vector<Guard>> pendingContiguity_;
    bool madeCalls_ = false;
    static Guard tensorMatch(const Tensor& real, const SourcePtr& source, const TensorMeta& meta);
    Guard madeHere(Guard guard) const;  // with the line, source and user stack that made it
    bool keepGuard(Guard guard);        // once per kind, source and dim
    static std::string guardKey(const Guard& guard);  // what keepGuard keeps one of
    void flush(const std::string& reason);
    void registerLazy(const Tensor& meta, Node* node, int outputIndex, std::optional<Device> device);
    std::optional<Device> resultDevice(const OpDef& op, const BoundArgs& bound, const IValueList& args,
                                       const Kwargs& kwargs) const;
    void log(const std::string& artifact, const std::string& message) const;
    void recordBreak(GraphBreak why, const SourceLocation& at, std::vector<StackFrame> userStack,
                     std::vector<StackFrame> logStack);
    // Dynamo's "Stack variable source attribution": where each graph value the compiled frame
    // holds on its stack at the break was made ("" when none).
    // `loops`: the compiled frame's loop iterators first (a break in a loop).
    std::string stackAttribution(bool loops) const;
    std::string loopOrigin(const Frame::Loop& loop) const;  // "  File ..., line N\n    <line>": where its iterator was made
    // Whether the break `why` at `at` restarts the trace (restart_ set, the break recorded).
    bool restarts(GraphBreak& why, const SourceLocation& at);
    std::optional<Restart> restart_;
    // The compiled frame, where its own code runs now (not a function it calls, nor a
    // comprehension); null elsewhere.
    const Frame* compiledFrameRunning() const;
    // Whether the code runs in a function of torch's the compiled frame called and Dynamo inlines
    // (optimizer.py's _use_grad): a break there is one in a function called, though no script
    // frame is above the compiled one.
    bool inInlinedTorchFunction() const;
    bool onlyTorchCodeSince(const Frame& compiled) const;
    bool inTracedTry() const;  // inside a try block of the compiled frame or a function it inlines
    std::string compileErrorMessage(const GraphBreak& why, const CallSite* site = nullptr) const;  // every frame the compiled frame called is torch's Python
    static bool isOptimizer(const ClassObject& cls);  // an instance of a torch.optim.Optimizer subclass
    bool matchStatic(const Value& tensor);  // (optimizer_variable.cpp) whether its ID_MATCH was made now
    void guardParamGroups(const Value& groups);
    void realizeAll(const Value& value);
    std::unordered_set<const DictObject*> capturableGroups_;  // param groups whose capturable traces as True
    void guardOptimizerState(const Value& optimizer);
    void guardGrads(const ValueList& params);
    void sourceFilledLists(const Value& optimizer, CallArgs& args);
    std::set<std::string> optimizerSources_;                // optimizers the trace read, matched by id
    std::unordered_set<const TensorImpl*> staticTensors_;   // their parameters: matched by id, no TENSOR_MATCH
    // The function name Dynamo gives the code after this trace's last break:
    // torch_dynamo_resume_in_f_at_5; `function` itself before any.
    std::string resumeName(const std::string& function) const;
    // The traced frames where a guard is made: the compiled frame named as the resume function it runs as.
    std::vector<StackFrame> guardStack() const;
    const Node* producer(const Tensor& t) const;
    void markRequiresGrad(const OpDef& op, const BoundArgs& metaArgs, const IValue& results) const;
    // Reports the capture of the graph that just ended as a compile-phase span.
    void recordCapture(const std::string& graphName) const;
    std::string currentLine() const;
    // Where in the user's code a value is made, as Dynamo notes it: "return x + 1  # f.py:5 in fn".
    std::string userCodeNote() const;
    // `symbol` is fixed at its example value by a guard: dims that depend on it alone are static.
    void specializeSymbol(std::string symbol);
    // Size `dim` of `source` (symbol `symbol`) is read as a plain int: guarded to stay `size`,
    // and its symbol fixed.
    void specializeDim(const SourcePtr& source, int64_t dim, const std::string& symbol, int64_t size,
                       const std::string& why = "the script reads it as a Python int");
    // Whether lifting `real` (read through `source`) makes its dim `d` symbolic.
    bool dimBecomesDynamic(const Tensor& real, const SourcePtr& source, size_t d) const;
    bool heldByTorchNnModule(const Source* source) const;
    // A SymInt of the graph being traced: the node `op` adds (its last; written with
    // `operatorSymbol` when one is given, "+"), computing `expression`.
    SymbolicIntPtr tracedSize(const std::string& op, const std::string& operatorSymbol, IValueList args, const std::string& symbol,
                              SizeExpressionPtr expression);
    Guard sizeRelation(SizeExpressionPtr lhs, CompareOperator relation, SizeExpressionPtr rhs);
    // A guard the graph's compile made on its sizes (CompileRequest::guardSize; compiled_size_guards.cpp).
    void guardCompiledSize(const IndexExpr& size, bool atMost, int64_t bound, const std::string& madeIn);
    SizeExpressionPtr sizeExpressionOf(const IndexExpr& size) const;  // null: a symbol no input's size gives
    // AOT Autograd's trace asks each result whether it is contiguous, which asks whether each of
    // its sizes is 1: a size that may be (s77 - 1) is guarded not to be (compiled_size_guards.cpp).
    void guardSizesNotOne(const Graph& graph);
    // The last guard raising the range of size `dim` of `source` (5 <= L['x'].size()[0]); null when none.
    const Guard* raisedBound(const std::string& source, int64_t dim) const;
    void eraseGuard(const Guard* guard);  // one of guards_
    // A slice of `self`'s static dim `dim` up to SymInt `end` is followed as the end's size:
    // guarded so (PyTorch's n <= 16).
    void guardEndWithin(const IValue& end, const Tensor& self, int64_t dim);
    // A slice from 0 of a static dim to a SymInt end past it (table[:n], n > 10) is the whole
    // dim for every such end: guarded so (PyTorch's 11 <= n); false for any other node.
    bool guardEndPastDim(const Node& node, const IValueList& args, const IValueList& metaArgs);
    // select(self, dim, i) of a dynamic dim holds for sizes past i only (i from the end: -i
    // and more): guarded so (PyTorch's meta_select: 3 <= L['x'].size()[1] for x[:, -3]).
    void guardIndexWithin(const Node& node, const IValueList& args);
    // The node computing a SymInt (SymFloat) of this trace's current graph; null for any other.
    Node* nodeOf(const SymbolicInt& value) const;
    Node* nodeOf(const SymbolicFloat& value);  // made now where the float input has none yet
    // What a SymInt of this trace's current graph computes; null for anything else.
    SizeExpressionPtr expressionOf(const Value& value) const;
    friend class TracedSize;
    friend class TracedFloat;

    Interpreter& interp_;
    TraceContext ctx_;
    std::shared_ptr<Graph> graph_;
    std::unordered_map<TensorImpl*, LazyRef> lazy_;       // meta tensors made by the graph
    std::unordered_map<TensorImpl*, LazyRef> overrides_;  // real tensors mutated in the graph
    std::unordered_map<TensorImpl*, Lifted> lifted_;
    std::vector<Tensor> inputs_;  // real tensors, in placeholder order
    SymbolicSizes symbolic_;      // names the symbolic dims of the graph's nodes
    // Why the graph's sizes can't all be symbolic: it then runs eagerly (right for every size
    // its guards admit). Empty while they can.
    std::string notSymbolic_;
    int64_t graphStartNs_ = 0;    // when capture of the current graph began (for the trace)
    size_t nextOrder_ = 0;
    SymbolNames symbolNames_;  // PyTorch's s77 for L['x'].size()[0]
    // Held by this tracer's SymInts (weakly): they specialize through it while it lives.
    std::shared_ptr<Tracer*> self_ = std::make_shared<Tracer*>(this);
    uint64_t graphGeneration_ = 0;  // counts flushes: a SymInt is a node of its generation's graph
    std::set<std::string> specializedSymbols_;
    // Each dynamic dim's symbol: where it was first seen and its example size. Under
    // dynamic=True dims of one example size share a symbol (PyTorch's duck sizing); a dim made
    // dynamic by a recompile or mark_dynamic has its own, unified with another only where an
    // op needs the two equal (guarded so).
    struct SymbolOrigin {
        std::string name;
        SourcePtr source;
        int64_t dim;
        int64_t size;
        bool duck;
    };
    std::vector<SymbolOrigin> sizeSymbols_;
    const SymbolOrigin* symbolOrigin(const std::string& name) const;
    void guardUnified();  // the symbols symbolic_ unified: each pair guarded equal
    // Int arguments made dynamic, by source: their symbol and SymInt (read through the size of a
    // one-element input expanded to the int, so the graph computes it on every call).
    struct IntInput {
        std::string symbol;
        SourcePtr source;
        int64_t value;
        SymbolicIntPtr symint;
    };
    std::map<std::string, IntInput> intInputs_;
    void specializeInt(const std::string& symbol);
    // A tensor `node` makes with a dynamic int as a size (torch.ones(n)): guarded 2 <= n.
    void guardIntSizes(const Node& node);
    // A graph input carrying a Python scalar (an int's size-carrier, a float's f64[] tensor),
    // read through `source`.
    Node* addScalarInput(const SourcePtr& source, const Tensor& carrier, std::vector<std::string> symbols);
    // Float inputs made dynamic, by source (capture/traced_floats.cpp).
    struct FloatInput {
        std::string symbol;
        SourcePtr source;
        double value;
        SymbolicFloatPtr symfloat;
        bool specialized;  // read as a plain float: guarded by its value from then on
        bool foundEqual = false;  // guarded equal to its value (ShapeEnv's replacement): compared without guards
    };
    std::map<std::string, FloatInput> floatInputs_;
    std::optional<Value> symbolicFloatInput(const Value& value);
    Node* floatInputNode(const std::string& source, double value, const std::string& symbol);
    std::optional<Value> symbolicFloatArithmetic(BinaryOperator op, const Value& left, const Value& right);
    std::optional<bool> symbolicFloatCompare(CompareOperator op, const Value& left, const Value& right);
    void guardFloatRelation(FloatInput& input, CompareOperator relation, double bound, const std::string& madeIn);
    bool floatsReadByOps_ = false;
    void specializeFloat(const std::string& source);
    void specializeSizingFloats(const OpCall& call);
    // Removes the guards of these kinds on `source` (a float specialized: its type guard goes).
    void dropGuards(const std::string& source, std::initializer_list<Guard::Kind> kinds);

    // Every source a real tensor was read through (an input passed twice has two).
    std::unordered_map<TensorImpl*, std::vector<SourcePtr>> tensorSources_;
    std::vector<Guard> guards_;
    std::vector<std::size_t> guardReads_;  // per guard: reads before it was made
    std::map<std::string, std::size_t> firstRead_;  // per source: how many reads came before its first
    std::set<std::string> guardKeys_;
    // Dynamo builds what the code reads lazily, and guards it where it is realized: a constant or
    // an object where the code first consumes it (onRealize), a tensor at its first op, but a
    // module's parameter or buffer where it was loaded.
    std::set<std::string> unrealized_;  // sources whose guards still carry their read's stack
    std::set<std::string> hookDicts_;   // the nn.Module hooks dicts read (onModuleHooksRead): never type-matched
    // List inputs the code changes (onListMethod): each list, and a copy of its items as read.
    std::vector<std::pair<Value, Value>> changedLists_;
    void returned(const Value& result);
    std::set<std::pair<const ClassObject*, std::string>> absentGuarded_;  // (class, name) guarded not to define it
    std::map<std::pair<const ClassObject*, std::string>, SourcePtr> mroSources_;  // mroOwnerSource's
    std::set<std::string> matchedTuples_;  // sources of tuples guarded whole (EQUALS_MATCH)
    bool insideMatchedTuple(const Source& source) const;
    std::map<std::string, std::vector<StackFrame>> tensorLoads_;  // per parameter/buffer/cell source: its first load
    std::map<std::string, std::string> moduleNames_;  // per guarded module's source: its name ("torch.nn.functional")
    std::map<const Object*, SourcePtr> moduleSources_;  // each module's first source
    std::map<std::string, SourcePtr> modulesByName_;     // each module's first source, by its name (a view of it too)
    std::set<std::pair<std::string, int64_t>> specialized_;  // (source, dim) read as ints
    // Input tensors whose sizes the code read, with the guard made at the first read: kept at
    // the end for those never lifted into the graph.
    struct SizeRead {
        Tensor tensor;  // keeps the impl the key points at alive
        Guard guard;
    };
    std::unordered_map<TensorImpl*, SizeRead> sizeReads_;
    std::vector<BreakRecord> breaks_;
    std::map<std::string, Shape> liftedSizes_;
    std::vector<InputLink> inputsFrom_;  // per placeholder of the current graph (the doctor's)
    std::unordered_map<const Node*, std::string> markedLines_;  // the compiled frame's nodes: their line, marked
    // The break Dynamo resumes after, once the expression it broke in is done (null: none).
    // Where the compiled frame's latest call began: the graph's node count and the guards made
    // then (endsAtCallStart drops those the call made).
    struct CallStart {
        const Expr* call = nullptr;
        uint64_t graphGeneration = 0;
        std::size_t nodes = 0;
        std::size_t guards = 0;
        bool gradMode = true;
    } callStart_;
    // A break in a function the frame called that it cannot restart at: the graph ends where
    // the call began, while the call added nothing to it.
    bool endsAtCallStart(GraphBreak& why, const SourceLocation& at);
    struct PendingResume {
        const Expr* at = nullptr;
        std::size_t frame = 0;  // the compiled frame's index in the interpreter's stack
        int line = 0;
    };
    std::optional<PendingResume> pendingResume_;
    // Hands over to the resume function where `at` is the expression the break waits for.
    void resumeAt(const Expr& at, Value* result, std::optional<bool> branch);
    TraceHooks* previousHooks_ = nullptr;
};

}  // namespace fusescope
