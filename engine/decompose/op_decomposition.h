#pragma once
// An op's decomposition, as its definition holds it (OpDef::decomposition): the core ops a
// composite rewrites into (decompose.h lists them).

#include <functional>
#include <map>
#include <optional>
#include <string>

#include "graph/graph.h"

namespace fusescope {

class Rewrite;  // decompose.cpp: one composite node being rewritten

struct OpDecomposition {
    // Emits the core ops; nullopt (before emitting anything) when the op must stay.
    std::function<std::optional<Argument>(Rewrite&)> rewrite;
    bool inAot = false;  // AOT Autograd applies it too (a CompositeImplicitAutograd op)
};

// The decompositions of op families that still keep them here, keyed by registry name
// (opdefs/ attaches them, refusing any name that is not an op).
const std::map<std::string, OpDecomposition>& decompositionTable();

}  // namespace fusescope
