#pragma once
// AOT Autograd's graphs for a captured graph whose inputs require grad (PyTorch's
// aot_function): the joint graph (the forward, then its backward recorded by running each
// op's derivative on meta tensors, autograd/argument_gradients.h), partitioned into a
// forward graph that also returns what backward needs and a backward graph that takes
// those values and the outputs' gradients. The partitioner saves every forward value the
// backward reads (PyTorch's default partition; its min-cut one recomputes cheap pointwise
// values instead). A graph of dynamic sizes is traced at two sizes, and the derivatives'
// size arguments that differ become SymInt nodes (aot_graphs.cpp, docs/autograd.md).

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace fusescope {

// The graph cannot go through AOT Autograd here; what() says why. The caller compiles it
// without a backward graph: backward through its outputs raises, saying this.
struct AotUnsupported : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A value the backward graph takes first, in order: a forward graph result (after the
// user's outputs) or an input of the compiled function.
struct SavedValue {
    std::string name;      // its name in the forward graph: "relu", "primals_2"
    int forwardOutput = -1;  // index among the forward graph's results, or
    int input = -1;          // index among the inputs
    TensorMeta meta;
};

struct AotGraphs {
    std::shared_ptr<Graph> joint;     // primals, tangents -> user outputs, input gradients
    std::shared_ptr<Graph> forward;   // primals -> user outputs, then saved values
    std::shared_ptr<Graph> backward;  // saved values, tangents -> input gradients
    size_t userOutputs = 0;
    std::vector<SavedValue> saved;
    // The user outputs that require grad (backward takes a gradient for each, in order).
    std::vector<size_t> outputsWithTangent;
    // The inputs backward gives a gradient for, in the order of its results.
    std::vector<size_t> inputsWithGradient;
    std::string partitioner = "default (every forward value the backward reads is saved)";
};

// `inputRequiresGrad`: per placeholder of `graph`. Throws AotUnsupported.
AotGraphs aotGraphs(const Graph& graph, const std::vector<bool>& inputRequiresGrad);

}  // namespace fusescope
