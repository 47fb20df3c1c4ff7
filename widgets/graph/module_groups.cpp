#include "graph/module_groups.h"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace fusescope::gui {

namespace {

// Each parameter or buffer placeholder (Dynamo names them ..._parameters_... and
// ..._buffers_...) takes the stack its users share.
void adoptParameters(const std::vector<DrawnNode>& list, std::vector<std::vector<ModuleScopeName>>& stacks) {
    std::unordered_map<std::string, size_t> index;
    for (size_t i = 0; i < list.size(); ++i) index.emplace(list[i].name, i);
    std::vector<std::optional<std::vector<ModuleScopeName>>> shared(stacks.size());
    for (size_t user = 0; user < list.size(); ++user) {
        for (const std::string& input : list[user].inputs) {
            auto it = index.find(input);
            if (it == index.end()) continue;
            const std::string& name = it->first;
            if (list[it->second].op != "placeholder" || !stacks[it->second].empty() ||
                (name.find("_parameters_") == std::string::npos && name.find("_buffers_") == std::string::npos))
                continue;
            auto& common = shared[it->second];
            if (!common) {
                common = stacks[user];
                continue;
            }
            size_t same = 0;
            while (same < common->size() && same < stacks[user].size() && (*common)[same].path == stacks[user][same].path) ++same;
            common->resize(same);
        }
    }
    for (size_t i = 0; i < shared.size(); ++i)
        if (shared[i]) stacks[i] = *shared[i];
}

// The script line that made each node, 0 for an input or a node of no known line.
std::vector<int> madeAtLines(const std::vector<DrawnNode>& nodes) {
    std::vector<int> lines;
    for (const DrawnNode& node : nodes) lines.push_back(node.op != "placeholder" ? node.line : 0);
    return lines;
}

// Whether one box per line would feed itself through other boxes: the lines of a loop
// ("line 7" -> "line 8" -> "line 7" of the next pass), or of a helper called twice.
bool lineBoxesFormACycle(const std::vector<DrawnNode>& nodes, const std::vector<int>& lines) {
    std::unordered_map<std::string, size_t> index;
    for (size_t i = 0; i < nodes.size(); ++i) index.emplace(nodes[i].name, i);
    std::unordered_map<int, std::unordered_set<int>> next;  // line -> the lines it feeds
    for (size_t user = 0; user < nodes.size(); ++user) {
        if (lines[user] == 0) continue;
        for (const std::string& input : nodes[user].inputs) {
            auto it = index.find(input);
            if (it != index.end() && lines[it->second] != 0 && lines[it->second] != lines[user]) next[lines[it->second]].insert(lines[user]);
        }
    }
    // Depth-first, iteratively: a line reached again while still on the path closes a cycle.
    enum : char { Unseen, OnPath, Done };
    std::unordered_map<int, char> state;
    for (const auto& [root, unused] : next) {
        if (state[root] != Unseen) continue;
        std::vector<std::pair<int, std::vector<int>>> path{{root, {next[root].begin(), next[root].end()}}};
        state[root] = OnPath;
        while (!path.empty()) {
            auto& [line, todo] = path.back();
            if (todo.empty()) {
                state[line] = Done;
                path.pop_back();
                continue;
            }
            int to = todo.back();
            todo.pop_back();
            if (state[to] == OnPath) return true;
            if (state[to] == Done) continue;
            state[to] = OnPath;
            auto found = next.find(to);
            path.push_back({to, found == next.end() ? std::vector<int>{} : std::vector<int>(found->second.begin(), found->second.end())});
        }
    }
    return false;
}

// "line 7" or "lines 7-9".
std::string linesLabel(int first, int last) {
    return first == last ? "line " + std::to_string(first) : "lines " + std::to_string(first) + "-" + std::to_string(last);
}

// Nodes grouped by pass: a run of nodes in graph order that comes back to none of its lines
// (one pass of a loop's body, "lines 7-9, pass 12"; one of a model's repeated blocks). A box
// is then a stretch of the graph's order, which is topological, so no box feeds itself. Many
// passes are chunked ("lines 7-9, passes 1-85"), each chunk a box of its passes, so a
// 1,700-pass loop opens as 20 boxes.
std::vector<std::vector<ModuleScopeName>> passStacks(const std::vector<DrawnNode>& nodes, const std::vector<int>& lines) {
    struct Pass {
        int first = 0, last = 0;           // the lines it spans
        std::vector<size_t> members;
    };
    std::vector<Pass> passes;
    std::unordered_set<int> seen;  // the lines of the pass so far
    int previous = 0;
    for (size_t i = 0; i < nodes.size(); ++i) {
        if (lines[i] == 0) continue;
        if (passes.empty() || (lines[i] != previous && seen.count(lines[i]))) {
            passes.emplace_back();
            seen.clear();
        }
        seen.insert(lines[i]);
        Pass& pass = passes.back();
        pass.first = pass.members.empty() ? lines[i] : std::min(pass.first, lines[i]);
        pass.last = std::max(pass.last, lines[i]);
        pass.members.push_back(i);
        previous = lines[i];
    }
    constexpr size_t kChunks = 20;
    const size_t perChunk = passes.size() > 2 * kChunks ? (passes.size() + kChunks - 1) / kChunks : 1;
    std::vector<std::vector<ModuleScopeName>> stacks(nodes.size());
    for (size_t start = 0; start < passes.size(); start += perChunk) {
        size_t end = std::min(passes.size(), start + perChunk);
        int first = passes[start].first, last = passes[start].last;
        for (size_t p = start; p < end; ++p) first = std::min(first, passes[p].first), last = std::max(last, passes[p].last);
        ModuleScopeName chunk{linesLabel(first, last) + ", passes " + std::to_string(start + 1) + "-" + std::to_string(end), ""};
        for (size_t p = start; p < end; ++p) {
            const Pass& pass = passes[p];
            ModuleScopeName own{linesLabel(pass.first, pass.last) + ", pass " + std::to_string(p + 1),
                                nodes[pass.members.front()].source};
            for (size_t member : pass.members) {
                if (perChunk > 1) stacks[member].push_back(chunk);
                stacks[member].push_back(own);
            }
        }
    }
    return stacks;
}

}  // namespace

ModuleStacks moduleStacks(const DrawnGraph& graph) {
    ModuleStacks out;
    for (const DrawnNode& node : graph.nodes) out.stacks.push_back(node.moduleStack);
    std::vector<std::vector<ModuleScopeName>> own = out.stacks;
    adoptParameters(graph.nodes, out.stacks);
    for (size_t i = 0; i < own.size(); ++i) out.adopted.push_back(own[i].empty() && !out.stacks[i].empty());
    return out;
}

ModuleStacks sourceLineStacks(const DrawnGraph& graph) {
    const std::vector<DrawnNode>& nodes = graph.nodes;
    std::vector<int> lines = madeAtLines(nodes);
    ModuleStacks out;
    out.adopted.assign(nodes.size(), 0);
    if (lineBoxesFormACycle(nodes, lines)) {
        out.stacks = passStacks(nodes, lines);
        return out;
    }
    for (size_t i = 0; i < nodes.size(); ++i) {
        if (lines[i] > 0) out.stacks.push_back({{"line " + std::to_string(lines[i]), nodes[i].source}});
        else out.stacks.emplace_back();
    }
    return out;
}

std::vector<std::string> nodesInModule(const DrawnGraph& graph, const std::string& path) {
    std::vector<std::string> names;
    ModuleStacks stacks = moduleStacks(graph);
    for (size_t i = 0; i < graph.nodes.size(); ++i)
        for (const ModuleScopeName& scope : stacks.stacks[i])
            if (scope.path == path) {
                names.push_back(graph.nodes[i].name);
                break;
            }
    return names;
}

ModuleTree::ModuleTree(const std::vector<std::vector<ModuleScopeName>>& stacks, const std::vector<char>& late) {
    std::unordered_map<std::string, int>& index = index_;
    stackOf_.resize(stacks.size());
    std::vector<size_t> order;
    for (int pass = 0; pass < 2; ++pass)
        for (size_t node = 0; node < stacks.size(); ++node)
            if ((node < late.size() && late[node]) == (pass == 1)) order.push_back(node);
    for (size_t node : order) {
        int parent = -1;
        for (const ModuleScopeName& scope : stacks[node]) {
            auto [it, added] = index.emplace(scope.path, static_cast<int>(modules_.size()));
            if (added) {
                ModuleGroup group{scope.path, scope.className, parent, parent < 0 ? 0 : modules_[parent].depth + 1, {}, 0, 0};
                modules_.push_back(std::move(group));
                if (parent >= 0) modules_[parent].children.push_back(it->second);
            }
            // A stack that disagrees with the first one seen (another parent) is read as the
            // first one had it: the tree stays a tree.
            parent = it->second;
        }
        for (int m = parent; m >= 0; m = modules_[m].parent) stackOf_[node].push_back(m);
        std::reverse(stackOf_[node].begin(), stackOf_[node].end());
        if (parent >= 0) ++modules_[parent].directNodes;
        for (int m : stackOf_[node]) ++modules_[m].nodeCount;
    }
}

int ModuleTree::find(const std::string& path) const {
    auto it = index_.find(path);
    return it == index_.end() ? -1 : it->second;
}

std::vector<int> ModuleTree::topLevel() const {
    std::vector<int> out;
    for (size_t m = 0; m < modules_.size(); ++m)
        if (modules_[m].parent < 0) out.push_back(static_cast<int>(m));
    return out;
}

bool ModuleTree::contains(int module, int node) const {
    const std::vector<int>& stack = stackOf_[node];
    return std::find(stack.begin(), stack.end(), module) != stack.end();
}

VisibleGraph visibleGraph(const ModuleTree& tree, const std::vector<char>& expanded, const std::vector<std::pair<int, int>>& nodeEdges) {
    VisibleGraph out;
    int nodes = tree.nodeCount();
    out.itemOfNode.assign(nodes, -1);
    std::vector<int> itemOfModule(tree.modules().size(), -1);
    for (int node = 0; node < nodes; ++node) {
        int collapsed = -1;
        for (int m : tree.stackOf(node))
            if (!expanded[m]) {
                collapsed = m;
                break;
            }
        if (collapsed < 0) {
            out.itemOfNode[node] = static_cast<int>(out.items.size());
            out.items.push_back({node, -1});
            continue;
        }
        if (itemOfModule[collapsed] < 0) {
            itemOfModule[collapsed] = static_cast<int>(out.items.size());
            out.items.push_back({-1, collapsed});
        }
        out.itemOfNode[node] = itemOfModule[collapsed];
    }
    std::unordered_set<long long> seen;
    for (const auto& [from, to] : nodeEdges) {
        if (from < 0 || to < 0 || from >= nodes || to >= nodes) continue;
        int a = out.itemOfNode[from], b = out.itemOfNode[to];
        if (a == b || !seen.insert(static_cast<long long>(a) << 32 | static_cast<unsigned>(b)).second) continue;
        out.edges.emplace_back(a, b);
    }
    return out;
}

std::vector<char> initialExpansion(const ModuleTree& tree, int budget) {
    const std::vector<ModuleGroup>& modules = tree.modules();
    std::vector<char> expanded(modules.size(), 0);
    int outside = tree.nodeCount();  // nodes in no module
    for (int m : tree.topLevel()) outside -= modules[m].nodeCount;
    std::vector<int> level = tree.topLevel();
    int visible = outside + static_cast<int>(level.size());
    while (!level.empty()) {
        // Expanding a module shows its own nodes and its submodules in its place.
        int after = visible;
        std::vector<int> next;
        for (int m : level) {
            after += modules[m].directNodes + static_cast<int>(modules[m].children.size()) - 1;
            next.insert(next.end(), modules[m].children.begin(), modules[m].children.end());
        }
        if (after > budget) break;
        for (int m : level) expanded[m] = 1;
        visible = after;
        level = std::move(next);
    }
    return expanded;
}

}  // namespace fusescope::gui
