#pragma once
// Dynamo's graph as real PyTorch prints it (`print_readable`, a TORCH_TRACE log's
// dynamo_output_graph payload) read back into the graph JSON our captured graphs have
// (graph/graph_json.h): one node per placeholder and per call, with its inputs, its
// "f32[8][1]cpu" meta and the `# File: PATH:LINE in FN, code: ...` provenance above it, so the
// graph view draws PyTorch's graph and a node selects its source line.

#include <string>

#include <nlohmann/json.hpp>

namespace fusescope {

// {"nodes": [...], "outputs": [...]}; nodes lacking a line of their own are skipped, never fatal.
nlohmann::json graphJsonFromReadable(const std::string& readable);

}  // namespace fusescope
