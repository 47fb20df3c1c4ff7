#pragma once
// Functionalization, AOT Autograd's first step (PyTorch's functionalize): a captured graph
// whose calls change tensors in place (a BatchNorm's running statistics and its counter in
// train mode) becomes one without, which lowering and differentiation can take. Each
// in-place call becomes its functional op (add_ -> add, copy_ -> its source in self's dtype
// and shape, fill_ -> full_like, zero_ -> zeros_like); later uses already read its result.
// The graph then returns, after its own outputs, the last value of each input it changed:
// the caller copies each back into its input after every call (PyTorch's epilogue for
// mutated inputs). A change it cannot express raises AotUnsupported: of a view (the base
// would change too) or of a tensor a view of which is read afterwards, of an input that
// requires grad while grad mode is on, or an in-place op with no functional form.

#include <memory>
#include <optional>
#include <vector>

#include "graph/graph.h"

namespace fusescope {

struct FunctionalGraph {
    std::shared_ptr<Graph> graph;  // the captured graph's outputs, then one per changed input
    size_t userOutputs = 0;
    std::vector<size_t> changedInputs;  // the placeholder each extra output is copied into
    // Per user output: the placeholder it is (the last value of an input changed in place,
    // which eager returns as the input itself), or -1.
    std::vector<int> outputIsInput;
    int inPlaceCalls = 0;
};

// Nothing when `graph` changes nothing in place. `inputRequiresGrad`: per placeholder.
std::optional<FunctionalGraph> functionalize(const Graph& graph, const std::vector<bool>& inputRequiresGrad);

}  // namespace fusescope
