#pragma once
// Mutated inputs written in place (Inductor's mutation handling): a functionalized graph
// returns the new value of each input it changed, and the caller copied each back into its
// input after the call (aot/functionalize.h). Where the kernel computing such a value can
// store it straight into the input's storage -- a pointwise loop that reads the input only
// where it writes, with nothing after it reading the input -- the copy and its second pass
// over memory are saved: an optimizer step's parameters and state are updated in one pass.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "lower/ir.h"
#include "schedule/scheduler.h"

namespace fusescope {

// Of the (graph output, placeholder) pairs given -- outputs that are the new value of an
// input changed in place -- those whose buffer may be computed in the input's storage:
// buffer name -> placeholder.
std::map<std::string, int> inPlaceOutputs(const LoweredGraph& graph, const Schedule& schedule,
                                          const std::vector<std::pair<size_t, size_t>>& candidates);

}  // namespace fusescope
