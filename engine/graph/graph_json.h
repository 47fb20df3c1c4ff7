#pragma once
// The JSON form of a captured graph, with every node's provenance (source line, user
// stack, inline depth), so views built from the event stream can link nodes to code.

#include <nlohmann/json.hpp>

#include "graph/graph.h"

namespace fusescope {

nlohmann::json graphToJson(const Graph& graph);

}  // namespace fusescope
