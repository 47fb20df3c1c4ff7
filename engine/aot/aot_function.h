#pragma once
// A captured graph through AOT Autograd, as a backend compiles it (PyTorch's
// aot_function / CompiledFunction): when grad mode is on and an input requires grad, the
// graph's forward and backward graphs (aot/aot_graphs.h) are compiled each by the backend's
// own stages; a call runs the forward (grad mode off), keeps what it saved, and gives the
// outputs that require grad one backward node, CompiledFunctionBackward, which runs the
// compiled backward. Otherwise the graph compiles as it is. A graph AOT Autograd cannot
// differentiate here still compiles; backward through its outputs raises, saying why (and
// the log says so at compile time).

#include <functional>
#include <memory>

#include "graph/graph_compiler.h"

namespace fusescope {

using CompileOneGraph = std::function<CompiledGraph(std::shared_ptr<const Graph>, const CompileRequest&)>;

CompiledGraph compileThroughAot(std::shared_ptr<const Graph> graph, const CompileRequest& request, const CompileOneGraph& compile);

}  // namespace fusescope
