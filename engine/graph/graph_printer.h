#pragma once
// Text forms of a Graph: Python code in the style of an FX GraphModule's print_readable
// (the graph_code artifact and fx_graph_readable.py) and the tabular form of
// Graph.print_tabular (the graph artifact).

#include <string>

#include "graph/graph.h"

namespace fusescope {

// "f32", "f16", "bf16", "f64", "i64", "i32", "b8"
std::string dtypeAbbreviation(DType dtype);
// FX's opcode: placeholder, call_function, call_method, output.
std::string opcodeName(NodeOp op);
// The Python operator module's name for an op used as an operator: div -> truediv.
std::string pythonOperatorName(const std::string& opName);
// How explain() lists an op: <built-in function mul>, <built-in method relu of type object>
std::string opDisplayName(const Node& node);
// "L['x']" -> "l_x_", "L['ys'][0]" -> "l_ys_0_"
std::string placeholderName(const std::string& source);
// Python spelling of a constant: 2, 2.0, 'a', None, torch.float32, [1, 2], (3,)
std::string constantRepr(const IValue& value);
std::string argumentCode(const Argument& arg);
// The right-hand side of a node's line: "l_x_ * 2", "torch.add(l_x_, 1)", "l_x_.view(3, 3)"
std::string nodeCode(const Node& node);

// class GraphModule(torch.nn.Module): def forward(self, l_x_: "f32[3]"): ... with a
// "# File: script.py:4 in fn, code: ..." comment before the nodes of each source line.
std::string graphReadable(const Graph& graph);
// opcode / name / target / args / kwargs table.
std::string graphTabular(const Graph& graph);
// fx_graph_runnable.py: a script (valid PyTorch, and runnable by Fusescope) that makes
// random inputs of the graph's shapes and dtypes, runs the graph's code and prints what
// came out.
std::string graphRunnable(const Graph& graph, const std::string& graphName);

}  // namespace fusescope
