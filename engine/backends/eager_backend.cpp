#include <unordered_map>

#include "backends/backend.h"
#include "core/error.h"
#include "ops/op_registry.h"

namespace fusescope {

namespace {

using Results = std::unordered_map<const Node*, IValue>;

class EagerBackend : public GraphCompiler {
public:
    explicit EagerBackend(std::string name) : name_(std::move(name)) {}
    std::string name() const override { return name_; }
    CompiledGraph compile(std::shared_ptr<const Graph> graph, const CompileRequest&) const override {
        return [graph](const std::vector<Tensor>& inputs) { return runGraphEagerly(*graph, inputs); };
    }

private:
    std::string name_;
};

}  // namespace

std::vector<Tensor> runGraphEagerly(const Graph& graph, const std::vector<Tensor>& inputs) {
    const OpRegistry& registry = OpRegistry::instance();
    Results results;
    auto resultOf = [&](const Node* n) -> const IValue* {
        auto it = results.find(n);
        return it == results.end() ? nullptr : &it->second;
    };
    auto resolve = [&](const Argument& a) {
        auto v = argumentValue(a, resultOf);
        if (!v) throw Error("internal error: graph node used before it was computed");
        return *v;
    };
    size_t nextInput = 0;
    for (const auto& node : graph.nodes()) {
        if (node->op == NodeOp::Placeholder) {
            if (nextInput >= inputs.size()) throw Error("internal error: graph called with too few inputs");
            results[node.get()] = IValue(inputs[nextInput++]);
            continue;
        }
        IValueList args;
        for (const auto& a : node->args) args.push_back(resolve(a));
        Kwargs kwargs;
        for (const auto& [name, a] : node->kwargs) kwargs.emplace_back(name, resolve(a));
        try {
            results[node.get()] = registry.call(node->target, args, kwargs);
        } catch (Error& e) {
            e.setWhereIfUnknown(node->where);
            throw;
        }
    }
    std::vector<Tensor> outputs;
    for (const auto& out : graph.outputs()) outputs.push_back(resolve(out).toTensor());
    return outputs;
}

const GraphCompiler* findBackend(const std::string& name) {
    static const EagerBackend eager("eager");
    if (name == "eager") return &eager;
    if (name == "inductor") return &inductorBackend();
    return nullptr;
}

std::vector<std::string> backendNames() { return {"eager", "inductor"}; }

}  // namespace fusescope
