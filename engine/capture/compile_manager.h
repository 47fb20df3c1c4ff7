#pragma once
// The cache of compiled entries per function (per code object, as in PyTorch): guard
// checks on every call, recompiles with their reasons, automatic dynamic shapes, the cache
// size limit, and explain().

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "capture/first_call.h"
#include "capture/tracer.h"
#include "core/autocast.h"

namespace fusescope {

struct CacheEntry {
    std::string compileId;  // "0/1"
    std::string function;   // its qualified name
    // The global state guarded before every other guard, as Dynamo's GLOBAL_STATE: grad mode
    // and autocast's setting for each device type.
    bool gradMode = true;
    AutocastSetting autocastCpu, autocastCuda;
    std::string backend;    // the torch.compile backend the script named for it (Dynamo's BACKEND_MATCH guard) ...
    std::string dynamic;    // ... and its `dynamic` option, which PyTorch's backend callable holds
    std::string builtinsDict;  // where its guards read builtins from: "__builtins_dict___0" (Dynamo's numbering)
    ScopePtr globals;          // what its guards' G['x'] reads: the compiled function's module's (null: the script's)
    std::vector<Guard> guards;
    // How often each guard was the first to fail: guards are checked most-failed first, as
    // PyTorch's guard manager reorders its checks, so the reason reported is the one it gives.
    std::vector<int> guardFailures;
    std::vector<std::size_t> checkOrder;  // guard indices: the tree's order, then by guardFailures, most first
    Segments segments;
    // Calls of the frame's own code inside which its first trace broke: the graph ends at
    // each, which runs eagerly (Dynamo's graph break at the CALL after its restart).
    std::map<const Expr*, BreakRecord> breaksAtCalls;
    // Cache hits that find the state one of these saw run its graph directly (direct_call.h).
    std::vector<DirectCallPlan> directPlans;
    std::string noDirectCall;  // why the last traced call made no plan (logged when it changes)
};

// Two graphs that a graph break kept apart (in one entry, or the compiled frame's and its
// resume function's), and the time between them (the doctor's measure of what the break cost).
struct SplitGraphs {
    std::string compileId;
    std::string function;
    const Segment* before = nullptr;
    const Segment* after = nullptr;
    std::vector<int> afterReads;  // per placeholder of `after`: the output of `before` it is, or -1
    BreakTiming timing;
};

// The state kept for one compiled function, or for one resume function (the code after a
// graph break in a compiled frame's own code: a frame of its own in PyTorch).
struct FrameState {
    int frameId = -1;
    std::string name;      // as logs name the function: "f", "torch_dynamo_resume_in_f_at_9"
    std::string qualname;  // as events name it
    SourceLocation where;  // where it starts
    std::vector<std::unique_ptr<CacheEntry>> entries;  // most recently used (or made) last
    std::map<std::string, Shape> seenSizes;            // input sizes of earlier compiles
    bool limitWarned = false;
    // A graph break in a loop skipped it (Dynamo's "graph break in loop"): it runs eagerly, each
    // script function it calls compiled in a frame of its own.
    bool skipped = false;
    std::optional<FirstCall> firstCall;                // where the doctor's fix of a size recompile goes
};

// What one explain() run collected.
struct ExplainReport {
    std::vector<std::shared_ptr<Graph>> graphs;
    std::vector<BreakRecord> breaks;
    std::vector<Guard> guards;
    double compileSeconds = 0;
    // The frames its call compiled besides the function's own (a call a graph break ended at
    // runs eagerly, its functions compiled), apart from the session's.
    std::map<const void*, std::shared_ptr<FrameState>> frames;
    std::string text() const;  // the printed form (PyTorch 2.15's ExplainOutput.__str__)
    // As PyTorch 2.15 counts them: the breaks that ended a graph with ops (a break right
    // after another compiles nothing, so Dynamo keeps no reason for it), and a graph's ops
    // as its function calls (not its method calls, nor its size reads: PyTorch's graph takes those as inputs).
    std::vector<const BreakRecord*> countedBreaks() const;
    static std::vector<const Node*> ops(const Graph& graph);
    int opCount() const;
};

class CompileManager {
public:
    CompileManager(const Logger& logger, const EventBus& bus, CompilerLookup compilers, std::string availableBackends,
                   CompileSettings settings)
        : logger_(logger), bus_(bus), compilers_(std::move(compilers)), availableBackends_(std::move(availableBackends)),
          settings_(std::move(settings)) {}

    // A call of a torch.compile'd function.
    Value call(Interpreter& interp, CompiledFunctionObject& fn, CallArgs& args);
    // torch._dynamo.explain(fn)(*args): runs fn once with a fresh cache and reports.
    ExplainReport explain(Interpreter& interp, const FunctionObject& fn, CallArgs& args, Value& result);
    // torch.compiler.set_stance: "default" compiles, "force_eager" runs every compiled
    // function eagerly, "eager_on_recompile" runs cached code where its guards pass and eager
    // code where not, "fail_on_recompile" raises where a compile would be needed. Returns the
    // previous stance.
    std::string setStance(const std::string& stance);
    // torch._dynamo.reset()
    void reset();
    // A new torch.compile(...): each graph break is logged in full again (PyTorch's
    // graph_break_dup_warning_checker starts afresh).
    void forgetLoggedBreaks() { loggedBreaks_.clear(); }

    // Compiles across the session (for metrics).
    int compileCount() const { return compileCount_; }
    // Cache hits that ran their graph without the function's Python.
    int directCallCount() const { return directCallCount_; }
    // Every pair of graphs a break kept apart, in compile order (valid until the next call).
    std::vector<SplitGraphs> splitGraphs() const;

private:
    struct Section;
    struct CallState;
    std::string stance_ = "default";
    // Runs the call traced, in the frame's entry `hit` (null: a compile), then in each resume
    // function's after a graph break. `compiled`: null for explain(), which learns no direct calls.
    Value runTraced(Interpreter& interp, const CompiledFunctionObject* compiled, const FunctionObject& fn, CallArgs& args,
                    const std::shared_ptr<FrameState>& frame, CacheEntry* hit, const CompileOptions& options,
                    ExplainReport* report);
    // Starts tracing in `frame`: replaying `hit`, or compiling a new entry where it is null.
    // `restarts`: for the frame's own trace, how often it restarted so far (-1: a resume function's).
    void openSection(CallState& state, const std::shared_ptr<FrameState>& frame, CacheEntry* hit,
                     std::map<std::string, Value> locals, std::vector<std::string> localNames, const CallArgs* args,
                     const std::string& resumedAs, int restarts = -1);
    // Runs `run` eagerly, as Dynamo runs a skipped frame or the call a graph break ends at: each
    // script function it calls is a frame of its own, compiled (compileFrame) under `options`.
    Value runIntercepting(Interpreter& interp, const CompileOptions& options, ExplainReport* report,
                          const std::function<Value()>& run);
    // A script function called from code running eagerly inside a compiled call, in its own
    // frame's cache (explain()'s own where `report` is given); nullopt where Dynamo runs it as it
    // is (no torch in its frame, skipped, ...).
    std::optional<Value> compileFrame(Interpreter& interp, const FunctionObject& fn, CallArgs& args,
                                      const CompileOptions& options, ExplainReport* report);
    // The frame of `fn`'s code (made at its first call), in `frames`.
    std::shared_ptr<FrameState> frameOf(Interpreter& interp, const FunctionObject& fn,
                                        std::map<const void*, std::shared_ptr<FrameState>>& frames);
    // Ends it: a compile's entry joins its frame's cache, its guards logged.
    // `resumed`: a graph break's resume function takes over.
    void closeSection(CallState& state, Section& section, const Value& result, bool resumed);
    // Ends the running section with a graph break (its entry made, its guards logged), once.
    void closeRunning(CallState& state);
    // A graph break's resume function takes over the call (tracer.h ResumeRequest); false where
    // Dynamo would not resume there.
    bool resumeFrame(CallState& state, ResumeRequest& request);
    // The entry of `frame` whose guards `locals` pass, moved to most recently used; null when
    // none does, with each entry's failing guards in `failed` (most recently used first).
    using Failures = std::vector<std::pair<std::string, std::vector<std::string>>>;
    CacheEntry* lookup(const Interpreter& interp, FrameState& frame, const std::map<std::string, Value>& locals,
                       const CompileOptions& options, Failures& failed);
    // What a miss does under the stance and the recompile limit: true to compile (the
    // recompile logged), false to run eagerly; throws for fail_on_recompile.
    bool mayCompile(Interpreter& interp, FrameState& frame, const Failures& failed, const CompileOptions& options);
    void logGuardTree(const Interpreter& interp, const Section& section);
    // A cache hit's direct call, where a plan matches.
    std::optional<Value> directCall(Interpreter& interp, const Value& function, const FunctionObject& fn,
                                    const CallArgs& args, const CacheEntry& entry);
    // A recorder for this call, or nullopt when the entry's plans are full.
    std::optional<DirectCallRecorder> directRecorder(Interpreter& interp, const Value& function, const FunctionObject& fn,
                                                     const CallArgs& args, const CacheEntry& entry) const;
    void learnDirectCall(CacheEntry& entry, DirectCallRecorder& recorder, const Value& result,
                         const FunctionObject& fn) const;
    // Why `entry` does not take a call whose frame starts with `locals` (empty: it does), its
    // guards checked most-failed first; the first failing guard's count goes up.
    std::vector<std::string> failures(const Interpreter& interp, const std::map<std::string, Value>& locals, const CompileOptions& options,
                                      CacheEntry& entry) const;
    const GraphCompiler& backendFor(const CompileOptions& options) const;
    TraceContext traceContext(Interpreter& interp, CacheEntry& entry, FrameState& frame, const CompileOptions& options,
                              bool recording);
    // The frame a graph break's resume function runs in (explain()'s own, apart from the session's).
    std::shared_ptr<FrameState> resumeFrameState(const CallState& state, const std::string& key, const std::string& name,
                                                 const SourceLocation& where);

    const Logger& logger_;
    const EventBus& bus_;
    CompilerLookup compilers_;
    std::string availableBackends_;  // for the message naming an unknown backend
    CompileSettings settings_;
    // Shared: a call in flight keeps its frame (and the entry it runs) through a reset() it makes.
    std::map<const void*, std::shared_ptr<FrameState>> frames_;
    std::map<std::string, std::shared_ptr<FrameState>> resumeFrames_;  // by break site, branch and arguments
    // What the code reads after a break site (and branch: -1 none, 0, 1); each function's locals in binding order.
    std::map<std::pair<const Expr*, int>, std::optional<std::set<std::string>>> resumeSites_;
    std::map<const FunctionDef*, std::vector<std::string>> bindingOrders_;
    // Graph pairs a break kept apart, in the order first run; each keeps the frames its
    // segments are in alive.
    struct Split {
        const Segment* before;
        const Segment* after;
        BreakTiming timing;
        std::vector<std::shared_ptr<FrameState>> frames;
    };
    std::vector<Split> splits_;
    LoggedBreaks loggedBreaks_;
    std::set<std::string> warningsGiven_;  // as Dynamo's functools.cache: torch._dynamo.reset() keeps them
    int nextFrameId_ = 0;
    int graphCounter_ = 0;
    int compileCount_ = 0;
    int uniqueIds_ = 0;  // Dynamo's unique_id counter: builtins dicts, compiled graphs, resume functions
    int outputGraphs_ = 0;  // Dynamo's OutputGraph count: each trace, and each restart of one
    int directCallCount_ = 0;
};

}  // namespace fusescope
