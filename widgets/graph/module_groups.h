#pragma once
// A graph's nodes grouped by the nn.Modules they ran in (each node's nn_module_stack), as the
// Graph view draws them: a module is expanded (its nodes and submodules drawn inside a
// frame) or collapsed into one box. What an expansion shows is the visible graph: a node
// stands for itself when every module around it is expanded, else its outermost collapsed
// module stands for it; edges between the same two items are drawn once.

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "graph/drawn_graph.h"

namespace fusescope::gui {

struct ModuleGroup {
    std::string path, className;
    int parent = -1;            // index of the enclosing module; -1 at the top
    int depth = 0;              // 0 at the top
    std::vector<int> children;  // submodules, in first-use order
    int directNodes = 0;        // nodes whose innermost module this is
    int nodeCount = 0;          // nodes inside it, submodules' included
};

// The modules of each node of a graph (its nn_module_stack). A module's
// parameters and buffers are graph inputs outside any module (as Dynamo lifts them): each
// joins the modules all its users ran in, so a collapsed module holds its weights too;
// other inputs stay outside.
struct ModuleStacks {
    std::vector<std::vector<ModuleScopeName>> stacks;  // per node
    std::vector<char> adopted;                         // per node: a parameter that joined its users' modules
};
ModuleStacks moduleStacks(const DrawnGraph& graph);
// The same grouping by the script line that made each node ("line 7", its source text as
// the class): a line's nodes collapse into one box. Inputs stay outside. Where boxes of lines
// would feed themselves (a loop's lines), by pass instead: each run of nodes that comes back
// to none of its lines is a box ("lines 7-9, pass 12"), many passes chunked in boxes of passes.
ModuleStacks sourceLineStacks(const DrawnGraph& graph);
// The names of the graph's nodes that ran inside the module at `path` (its submodules' and
// its adopted parameters included), in graph order.
std::vector<std::string> nodesInModule(const DrawnGraph& graph, const std::string& path);

class ModuleTree {
public:
    ModuleTree() = default;
    // stacks[i]: node i's modules, outermost first. A path keeps the parent and class it
    // first came with. Modules are numbered in the order nodes first ran in them; the nodes
    // marked `late` (adopted parameters, which a graph lists first) count after the others.
    explicit ModuleTree(const std::vector<std::vector<ModuleScopeName>>& stacks, const std::vector<char>& late = {});
    explicit ModuleTree(const ModuleStacks& stacks) : ModuleTree(stacks.stacks, stacks.adopted) {}

    const std::vector<ModuleGroup>& modules() const { return modules_; }
    bool empty() const { return modules_.empty(); }
    int nodeCount() const { return static_cast<int>(stackOf_.size()); }
    int find(const std::string& path) const;           // -1 when no module has this path
    const std::vector<int>& stackOf(int node) const { return stackOf_[node]; }  // outermost first
    std::vector<int> topLevel() const;                 // modules with no parent
    bool contains(int module, int node) const;         // the node ran inside the module

private:
    std::vector<ModuleGroup> modules_;
    std::unordered_map<std::string, int> index_;  // path -> module
    std::vector<std::vector<int>> stackOf_;
};

// An item of the visible graph: a node, or a collapsed module.
struct VisibleItem {
    int node = -1;    // the node's index, or -1
    int module = -1;  // the collapsed module's index, or -1
};

struct VisibleGraph {
    std::vector<VisibleItem> items;          // nodes in graph order, each module at its first node
    std::vector<int> itemOfNode;             // node -> index in items
    std::vector<std::pair<int, int>> edges;  // between items, no repeats, no loops
};

// `expanded` has an entry per module; `nodeEdges` are (from, to) node indices.
VisibleGraph visibleGraph(const ModuleTree& tree, const std::vector<char>& expanded,
                          const std::vector<std::pair<int, int>>& nodeEdges);

// The expansion a graph opens with: the top levels, level by level, while the visible items
// stay within `budget` (everything, for a small graph).
std::vector<char> initialExpansion(const ModuleTree& tree, int budget);

}  // namespace fusescope::gui
