#pragma once
// A graph as the views draw, group and link it, read once from graph JSON where it arrives
// (engine/graph/graph_json.h: a captured graph, an AOT or post-grad graph read from PyTorch's
// FX text, the minifier's smallest graph) or built directly (a fusion step's scheduler
// graph): its nodes in graph order with their inputs and what the views show of each. The
// Graph, Modules, Fusion and Minify panes, module grouping and the editor's links share it,
// so none reads a graph's fields by name. Plain C++: grouping runs off the GUI thread.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace fusescope::gui {

struct ModuleScopeName {
    std::string path, className;  // "blocks.0.attn", "CausalSelfAttention"
};

struct DrawnNode {
    std::string name, op, target;  // op as FX names it: placeholder, call_function, ...
    std::vector<std::string> inputs;  // the nodes it reads, by name
    std::string file;                 // the script line that made it: 0 when none is known
    int line = 0;
    std::string source;               // that line's text
    std::vector<ModuleScopeName> moduleStack;  // the nn.Modules it ran in, outermost first
    std::string captured;  // a later graph's node: the captured node it computes or differentiates
    std::string saved;     // a value AOT Autograd saves for backward: its type and sizes ("f32[2, 4]")
    std::vector<std::string> members;  // a fused scheduler node: the two nodes its step joined
    std::string group;  // what fills it (the kernel it ends up in), set by whoever draws it
};

struct DrawnGraph {
    std::vector<DrawnNode> nodes;  // in graph order, names unique

    bool empty() const { return nodes.empty(); }
    // Nodes that are not objects, have no name or repeat one are left out; a field missing
    // or of another kind reads as its default.
    static DrawnGraph fromJson(const nlohmann::json& graph);
};

}  // namespace fusescope::gui
