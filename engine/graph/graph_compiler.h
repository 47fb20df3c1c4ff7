#pragma once
// What capture hands a finished graph to: a compiler that turns it into something callable.
// The backends (backends/) implement it; capture only knows this interface, and the
// session tells it which compiler a name stands for.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/device.h"
#include "core/inductor_config.h"
#include "core/test_hooks.h"
#include "graph/graph.h"

namespace fusescope {

class IndexExpr;
class Logger;

// Guards a choice a compile made from the current values of the graph's size symbols (as
// Inductor's size_hint then guard_leq / guard_lt): `size` <= `bound` when `atMost`, else
// `size` > `bound`; `madeIn` says where PyTorch makes that guard.
using SizeGuardSink = std::function<void(const IndexExpr& size, bool atMost, int64_t bound, const std::string& madeIn)>;

// What a session sets once for every graph it compiles.
struct CompileSettings {
    std::string cudaArch;  // the GPU architecture CUDA kernels are built for; empty: the default
    TestHooks testHooks;
    InductorConfig inductor{};  // torch._inductor.config as the script set it when the compile began
};

// Who is compiling what: compilers report through the logger and the event bus under the
// compile id and graph name.
struct CompileRequest {
    std::string compileId;  // "0/1"
    std::string function;   // the compiled function's name
    std::string graphName;  // __compiled_fn_0
    const Logger* logger = nullptr;
    const EventBus* bus = nullptr;
    Device device = Device::cpu();  // where the graph's tensor inputs live (all on one device)
    std::string backend{};          // the name it was compiled under
    SourceLocation functionWhere{}; // the compiled function's def
    // The inputs of the call that triggered the compile (null when there is none).
    const std::vector<Tensor>* exampleInputs = nullptr;
    // torch._dynamo.config.suppress_errors: a failing compile runs eagerly (WON'T CONVERT)
    // rather than raising.
    bool suppressErrors = true;
    CompileSettings settings{};
    // An eager op compiled as a graph of its own (devices/cuda_eager.h): no graph call in
    // the trace, its kernels are the op's.
    bool eagerOp = false;
    // (output, placeholder): outputs that are the new value of an input the graph changed in
    // place, which the caller copies into that input (aot/functionalize.h). A backend may
    // compute them in the input's storage instead (schedule/in_place_outputs.h).
    std::vector<std::pair<size_t, size_t>> outputsOfChangedInputs{};
    // Why a dynamic graph's sizes can't all be symbolic (capture/symbolic_sizes.h): compiled
    // for its example sizes only, it would be wrong for others its guards admit, so it runs
    // eagerly. Empty when they can.
    std::string notSymbolic{};
    // Where the compile's guards on symbolic sizes go (the cache entry's guards); null when
    // nothing guards the compiled code, which must then hold for any size.
    SizeGuardSink guardSize{};
};

// Runs a compiled graph: inputs in placeholder order, outputs in graph-output order.
using CompiledGraph = std::function<std::vector<Tensor>(const std::vector<Tensor>& inputs)>;

class GraphCompiler {
public:
    virtual ~GraphCompiler() = default;
    virtual std::string name() const = 0;
    // Whether the graph goes through AOT Autograd, which gives its outputs one backward node
    // (CompiledFunctionBackward); otherwise they keep those of the ops that made them.
    virtual bool throughAot() const { return false; }
    virtual CompiledGraph compile(std::shared_ptr<const Graph> graph, const CompileRequest& request) const = 0;
};

// Finds the compiler registered under a backend name; null when there is none.
using CompilerLookup = std::function<const GraphCompiler*(const std::string& backendName)>;

}  // namespace fusescope
