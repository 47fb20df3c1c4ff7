#pragma once
// The fusion a graph break prevented (the doctor, docs/graph-breaks.md): the two graphs the
// break kept apart joined into the one graph the code would have made without it, the
// outputs of the first that the second reads wired straight in, and each of the three
// scheduled as inductor schedules it.

#include <memory>
#include <optional>
#include <vector>

#include "graph/graph.h"
#include "graph/graph_compiler.h"

namespace fusescope {

// `before` then `after` as one graph: each placeholder k of `after` with afterReads[k] >= 0
// is that output of `before`. It returns what `after` returns, then the outputs of `before`
// that `after` does not read (the code after the break may read them).
std::shared_ptr<Graph> joinAcrossBreak(const Graph& before, const Graph& after, const std::vector<int>& afterReads);

// How many kernels inductor makes of `graph` (extern kernels included), or nullopt when it
// can't lower one of its ops.
std::optional<int> scheduledKernelCount(const Graph& graph, const CompileSettings& settings);

}  // namespace fusescope
