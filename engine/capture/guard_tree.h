#pragma once
// The guards log as PyTorch 2.15 prints it (TORCH_LOGS=guards): Dynamo's TREE_GUARD_MANAGER,
// one GuardManager per source reached (L['x'], G, G['w'], L['ys'][0]) nested by how it is
// read, each with its leaf guards (TENSOR_MATCH, EQUALS_MATCH, ...), the ambient guards first
// and the shape guards last. Users compare it line by line with their own PyTorch's log.

#include <functional>
#include <string>
#include <vector>

#include "capture/guard.h"
#include "core/autocast.h"
#include "core/parallel.h"

namespace fusescope {

struct Param;

// What the root's GLOBAL_STATE guard holds (torch._C._dynamo's global state JSON).
struct GuardedGlobalState {
    bool gradMode = true;
    AutocastSetting autocastCpu, autocastCuda;
    int numThreads = parallelThreads();  // torch.get_num_threads()
};

struct GuardTreeScope {
    // The compiled frame's local names in CPython's co_varnames order (FrameLocalsGuardAccessor's
    // framelocals_idx is the position of a name here).
    std::vector<std::string> frameLocals;
    // The value a source names in the call that compiled (for each manager's type=); null when
    // the source no longer resolves.
    std::function<const Value*(const Source&)> resolve;
    GuardedGlobalState state;
};

// Dynamo's GuardSource of a source (torch/_guards.py): local 0 or global 1, moved to 12/13 once
// the way passes through an nn.Module of the script's or a torch.nn container, to 14/15 through
// another of torch.nn's own (which stays so below it).
int guardSourceRank(const Source& source, const GuardTreeScope& scope);

// The log text after "GUARDS:": an empty line, "TREE_GUARD_MANAGER:", the tree, then the shape
// guards (LAMBDA_GUARD) at the root's level, ending with an empty line, as PyTorch's
// GuardManagerWrapper prints it.
std::string guardTreeText(const std::vector<Guard>& guards, const GuardTreeScope& scope);

// The guards' indices in the order PyTorch's guard manager checks them (the tree's, depth first;
// then OBJECT_ALIASING, then the shape guards): the first to fail is a recompile's reason.
std::vector<std::size_t> guardCheckOrder(const std::vector<Guard>& guards, const GuardTreeScope& scope);

// The code of each shape guard (the LAMBDA_GUARDs at the tree's end), in the tree's order.
std::vector<std::string> shapeGuardCodes(const std::vector<Guard>& guards);

// A Python 3.11 frame's locals in order: its parameters as CPython's co_varnames has them
// (positional ones, keyword-only ones, then *args and **kwargs), its other `localCount` local
// names (unnamed here: no guard reads them at the call), then its free variables.
std::vector<std::string> frameLocalNames(const std::vector<Param>& params, std::size_t localCount,
                                         const std::vector<std::string>& freeVariables);

}  // namespace fusescope
