#pragma once
// Copying a graph's calls into another through a GraphBuilder, for passes that make a new
// graph from a captured one (functionalization, AOT Autograd's joint, forward and backward
// graphs): each copied node keeps the captured node's provenance.

#include <functional>
#include <map>
#include <utility>

#include "decompose/graph_builder.h"

namespace fusescope {

using ValueKey = std::pair<const Node*, int>;  // a node's result (output index -1: its only one)
using ValueMap = std::map<ValueKey, Argument>;  // a source graph's values -> the new graph's

// `a` with each node reference replaced through `values` (Error for one not copied yet).
Argument mapped(const Argument& a, const ValueMap& values);

void forEachRef(const Argument& a, const std::function<void(const Argument&)>& visit);
void forEachRef(const Node& n, const std::function<void(const Argument&)>& visit);

// Copies call `n` into `b`, its arguments through `values`, which then map its results too.
Node* copyCall(GraphBuilder& b, const Node& n, ValueMap& values);

}  // namespace fusescope
