#pragma once
// Accuracy checking, as Dynamo's accuracy minifier does it: a compiled graph's outputs are
// compared with eager on the same inputs, and with a float64 run where the graph allows
// one. An element fails when it is further from eager than atol + rtol * |eager| and also
// further from the float64 value than twice eager's own error plus atol (generated code
// may sum in another order; that is not a bug).

#include <optional>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace fusescope {

struct AccuracyMismatch {
    size_t output = 0;       // index into the graph's outputs
    std::string outputName;  // the graph node that computes it
    std::string detail;      // what differs: an element with its values, or the shape or dtype
    std::string str() const;  // "output 0 (relu) element [2]: compiled 1.5, eager 0.5 (float64 0.5) ..."
};

// Tolerances by dtype: float64 1e-7, float32 1e-4, float16 and bfloat16 1e-2 (rtol = atol);
// integers and bools must be equal.
double accuracyTolerance(DType dtype);

// The first output element of `compiled` (the graph's outputs on `inputs`) that eager
// disagrees with; nullopt when they agree. The eager runs start from the random generator's
// state as it is: set it to what the compiled run started from.
std::optional<AccuracyMismatch> compareWithEager(const Graph& graph, const std::vector<Tensor>& inputs,
                                                 const std::vector<Tensor>& compiled);

}  // namespace fusescope
