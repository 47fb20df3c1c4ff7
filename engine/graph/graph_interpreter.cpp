#include "graph/graph_interpreter.h"

#include "core/device_context.h"
#include "core/grad_mode.h"
#include "core/error.h"
#include "core/graph_replay.h"
#include "dispatch/dispatcher.h"

namespace fusescope {

std::vector<Tensor> GraphInterpreter::run(const std::vector<Tensor>& inputs) {
    GraphReplayScope replay;  // computes as compiled code: no eager-only refusals
    results_.clear();
    auto resultOf = [&](const Node* n) -> const IValue* {
        auto it = results_.find(n);
        return it == results_.end() ? nullptr : &it->second;
    };
    auto resolve = [&](const Argument& a) {
        auto v = argumentValue(a, resultOf);
        if (!v) throw Error("internal error: graph node used before it was computed");
        return *v;
    };
    size_t nextInput = 0;
    for (const auto& node : graph_.nodes()) {
        if (node->op == NodeOp::Placeholder) {
            if (nextInput >= inputs.size()) throw Error("internal error: graph called with too few inputs");
            results_[node.get()] = IValue(inputs[nextInput++]);
            continue;
        }
        IValueList args;
        for (const auto& a : node->args) args.push_back(resolve(a));
        Kwargs kwargs;
        for (const auto& [name, a] : node->kwargs) kwargs.emplace_back(name, resolve(a));
        try {
            GradModeGuard mode(node->gradEnabled && gradEnabled());  // as traced: no_grad blocks stay so
            results_[node.get()] = callNode(*node, args, kwargs);
        } catch (Error& e) {
            e.setWhereIfUnknown(node->where);
            throw;
        }
    }
    std::vector<Tensor> outputs;
    for (const auto& out : graph_.outputs()) outputs.push_back(resolve(out).toTensor());
    return outputs;
}

IValue GraphInterpreter::callNode(const Node& node, const IValueList& args, const Kwargs& kwargs) {
    return dispatch(node.target, args, kwargs);
}

std::vector<Tensor> runGraphEagerly(const Graph& graph, const std::vector<Tensor>& inputs) {
    return GraphInterpreter(graph).run(inputs);
}

CompiledGraph eagerRunner(std::shared_ptr<const Graph> graph, Device device) {
    if (device.isCpu()) return [graph](const std::vector<Tensor>& inputs) { return runGraphEagerly(*graph, inputs); };
    return [graph, device](const std::vector<Tensor>& inputs) {
        struct DefaultDeviceScope {  // puts the script's default device back, raise or not
            Device before = defaultDevice();
            ~DefaultDeviceScope() { setDefaultDevice(before); }
        } scope;
        setDefaultDevice(device);
        return runGraphEagerly(*graph, inputs);
    };
}

}  // namespace fusescope
