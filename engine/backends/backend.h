#pragma once
// Backends turn a captured graph into something callable: `eager` replays the graph's nodes
// through the op registry, `inductor` generates and compiles code, and the debugging
// backends (debug_backends.cpp) isolate the stage where a compile goes wrong.

#include <string>
#include <vector>

#include "graph/graph_compiler.h"
#include "graph/graph_interpreter.h"
#include "ops/op_registry.h"

namespace fusescope {

// The backend registered under `name`, or null.
const GraphCompiler* findBackend(const std::string& name);
// torch.compile's default: decompose, lower, schedule with fusion, generate C++, JIT it.
const GraphCompiler& inductorBackend();
// Every registered name, in the order a bisection tries them, then the testing-only ones.
std::vector<std::string> backendNames();

}  // namespace fusescope
