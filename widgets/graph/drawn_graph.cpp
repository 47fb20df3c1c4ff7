#include "graph/drawn_graph.h"

#include <algorithm>
#include <climits>
#include <unordered_set>

#include "core/read_fields.h"

namespace fusescope::gui {

namespace {

std::vector<std::string> stringsOf(const nlohmann::json& node, const char* key) {
    std::vector<std::string> out;
    auto it = node.find(key);
    if (it == node.end() || !it->is_array()) return out;
    for (const auto& value : *it)
        if (value.is_string()) out.push_back(value.get<std::string>());
    return out;
}

std::vector<ModuleScopeName> moduleStackOf(const nlohmann::json& node) {
    std::vector<ModuleScopeName> stack;
    auto it = node.find("nn_module_stack");
    if (it == node.end() || !it->is_array()) return stack;
    for (const auto& scope : *it)
        if (scope.is_object()) stack.push_back({stringField(scope, "path"), stringField(scope, "class")});
    return stack;
}

}  // namespace

DrawnGraph DrawnGraph::fromJson(const nlohmann::json& graph) {
    DrawnGraph drawn;
    auto list = graph.is_object() ? graph.find("nodes") : graph.end();
    if (list == graph.end() || !list->is_array()) return drawn;
    std::unordered_set<std::string> names;
    for (const auto& node : *list) {
        if (!node.is_object()) continue;
        DrawnNode n;
        n.name = stringField(node, "name");
        if (n.name.empty() || !names.insert(n.name).second) continue;
        n.op = stringField(node, "op");
        n.target = stringField(node, "target");
        n.inputs = stringsOf(node, "inputs");
        n.file = stringField(node, "file");
        n.line = static_cast<int>(std::clamp<int64_t>(integerField(node, "line"), 0, INT_MAX));  // a bundle made elsewhere may hold any integer
        n.source = stringField(node, "source");
        n.moduleStack = moduleStackOf(node);
        n.captured = stringField(node, "captured");
        n.saved = stringField(node, "saved");
        n.members = stringsOf(node, "members");
        n.group = stringField(node, "group");
        drawn.nodes.push_back(std::move(n));
    }
    return drawn;
}

}  // namespace fusescope::gui
