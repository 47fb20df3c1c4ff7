#pragma once
// The minifier: shrinks a failing graph (a compile error, a run-time error or an accuracy
// failure; backends/checked_compiler.h) by delta debugging while the failure still
// reproduces, as PyTorch's fx_minifier does, and writes the smallest graph found as a
// standalone repro script. Strategies, repeated until none shrinks the graph:
//   truncate suffix          end the graph at the earliest node where it still fails
//   remove outputs           drop one output and what only it needed
//   remove single nodes      drop one op whose input is like its output (same size and
//                            dtype): its users read the input instead
//   replace nodes by inputs  feed a run of nodes' values (from an eager run) as fresh
//                            inputs, halving the run length down to single nodes
//   remove unused inputs     drop inputs nothing reads

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/checked_compiler.h"

namespace fusescope {

struct MinifyOptions {
    std::function<void(const std::string&)> progress;  // one line at a time
    std::function<bool()> cancelled;                   // polled between attempts; may be empty
};

struct MinifiedGraph {
    std::shared_ptr<Graph> graph;
    std::vector<Tensor> inputs;
    std::string error;  // the failure as the smallest graph reproduces it
    int startNodes = 0, endNodes = 0;  // inputs plus op nodes
    int queries = 0;                   // compiles tried
};

// The graph of `failure` (`after` "dynamo": as captured; "aot": after AOT decompositions)
// shrunk while `backend` still fails on it the same way: the same kind of failure with the
// same exception type. Throws Error when the failure does not reproduce at the start, or
// when cancelled.
MinifiedGraph minifyGraph(const GraphFailure& failure, const GraphCompiler& backend, const std::string& after,
                          const MinifyOptions& options);

// repro.py: the graph as a function with its inputs written out, compiled with `backend`
// the way that fails (suppress_errors off; for an accuracy failure an assertion against
// eager). It runs under fusescope-cli and under real PyTorch.
std::string reproScript(const MinifiedGraph& minified, const GraphFailure& failure);

}  // namespace fusescope
