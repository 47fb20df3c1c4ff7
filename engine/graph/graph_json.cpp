#include "graph/graph_json.h"

#include "graph/graph_printer.h"

namespace fusescope {

namespace {

nlohmann::json usesOf(const Argument& arg) {
    nlohmann::json uses = nlohmann::json::array();
    if (arg.kind == Argument::Kind::NodeRef) uses.push_back(arg.node->name);
    for (const auto& item : arg.items)
        for (const auto& u : usesOf(item)) uses.push_back(u);
    return uses;
}

}  // namespace

nlohmann::json graphToJson(const Graph& graph) {
    nlohmann::json nodes = nlohmann::json::array();
    for (const auto& n : graph.nodes()) {
        nlohmann::json inputs = nlohmann::json::array();
        for (const auto& a : n->args)
            for (const auto& u : usesOf(a)) inputs.push_back(u);
        for (const auto& [name, a] : n->kwargs)
            for (const auto& u : usesOf(a)) inputs.push_back(u);
        nlohmann::json meta = nlohmann::json::array();
        for (const auto& m : n->meta) meta.push_back(m.str());
        nlohmann::json stack = nlohmann::json::array();
        for (const auto& f : n->stack)
            stack.push_back({{"file", f.file}, {"line", f.line}, {"function", f.function}});
        nlohmann::json modules = nlohmann::json::array();
        for (const auto& m : n->moduleStack) modules.push_back({{"path", m.path}, {"class", m.className}});
        nodes.push_back({{"name", n->name},
                         {"op", opcodeName(n->op)},
                         {"target", n->target},
                         {"code", nodeCode(*n)},
                         {"inputs", inputs},
                         {"meta", meta},
                         {"file", n->where.file},
                         {"line", n->where.line},
                         {"column", n->where.column},
                         {"source", n->sourceLine},
                         {"inline_depth", n->inlineDepth},
                         {"stack", stack},
                         {"nn_module_stack", modules}});
        if (!n->capturedName.empty()) nodes.back()["captured"] = n->capturedName;
    }
    nlohmann::json outputs = nlohmann::json::array();
    for (const auto& o : graph.outputs()) outputs.push_back(argumentCode(o));
    return {{"nodes", nodes}, {"outputs", outputs}};
}

}  // namespace fusescope
