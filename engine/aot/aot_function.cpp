#include "aot/aot_function.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "aot/aot_graphs.h"
#include "aot/functionalize.h"
#include "autograd/argument_gradients.h"
#include "core/autograd_node.h"
#include "core/grad_mode.h"
#include "dispatch/dispatcher.h"
#include "graph/graph_interpreter.h"
#include "graph/graph_json.h"
#include "graph/graph_printer.h"
#include "observe/log_registry.h"

namespace fusescope {

namespace {

// The compiled forward and backward, and how their values line up with the call's.
struct AotPlan {
    AotGraphs graphs;
    CompiledGraph forward, backward;
};

// The backward graph takes contiguous tensors (its placeholders say so): a compiled forward
// may lay a saved view out otherwise than eager did, and a gradient may come expanded.
Tensor contiguous(const Tensor& t) { return t.isContiguous() ? t : dispatch("contiguous", {IValue(t)}).toTensor(); }

// A missing tangent (an output backward reached without a gradient) is zeros of the
// output's sizes (this call's: a dynamic graph's differ between calls) on its device.
struct OutputShape {
    Shape sizes;
    DType dtype;
    Device device;
};
Tensor tangentFor(const Tensor& grad, const OutputShape& output) {
    if (!grad.defined())
        return dispatch("zeros", {IValue::intList(output.sizes)}, {{"dtype", IValue(output.dtype)}, {"device", IValue(output.device)}}).toTensor();
    return contiguous(grad);
}

// The outputs a backward node is given: an output that is one of the inputs (returned as it
// came) is a new object for the same data, so the input keeps its own history.
void ownOutputs(std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs) {
    for (Tensor& out : outputs)
        for (const Tensor& in : inputs)
            if (out.defined() && in.defined() && out.impl() == in.impl()) out = withoutHistory(out);
}

// Makes `out`, result `nr` of a compiled call, require grad with `node` as its grad_fn.
void pointAt(const Tensor& out, const std::shared_ptr<AutogradNode>& node, size_t nr) {
    out.setRequiresGrad(true);
    out.impl()->autograd.gradFn = node;
    out.impl()->autograd.outputNr = static_cast<int>(nr);
}

std::vector<Tensor> runForward(const std::shared_ptr<const AotPlan>& plan, const std::vector<Tensor>& inputs) {
    const AotGraphs& g = plan->graphs;
    bool graded = gradEnabled();  // under no_grad: nothing to differentiate
    std::vector<Tensor> results, saved;
    {
        GradModeGuard forwardOnly(false);  // the compiled forward records no eager autograd
        results = plan->forward(inputs);
        // Saved values keep no history of their own: an output saved for backward would
        // otherwise hold the node that holds it.
        if (graded)
            for (const SavedValue& s : g.saved)
                saved.push_back(withoutHistory(
                    contiguous(s.input >= 0 ? inputs[static_cast<size_t>(s.input)] : results[static_cast<size_t>(s.forwardOutput)])));
    }
    std::vector<Tensor> outputs(results.begin(), results.begin() + static_cast<std::ptrdiff_t>(g.userOutputs));
    if (!graded) return outputs;
    ownOutputs(outputs, inputs);

    auto node = std::make_shared<AutogradNode>();
    node->name = "CompiledFunctionBackward";
    for (const Tensor& input : inputs) node->next.push_back(gradientEdge(input));
    node->outputs = static_cast<int>(outputs.size());
    auto kept = std::make_shared<std::optional<std::vector<Tensor>>>(std::move(saved));
    std::vector<OutputShape> tangentShapes;
    for (size_t o : g.outputsWithTangent) tangentShapes.push_back({outputs[o].sizes(), outputs[o].dtype(), outputs[o].device()});
    node->apply = [plan, kept, tangentShapes, inputCount = inputs.size()](const std::vector<Tensor>& gradOutputs) {
        if (!*kept) throw ScriptError("RuntimeError", kBackwardTwice);
        const AotGraphs& g = plan->graphs;
        std::vector<Tensor> in = **kept;
        for (size_t t = 0; t < g.outputsWithTangent.size(); ++t) {
            size_t o = g.outputsWithTangent[t];
            in.push_back(tangentFor(o < gradOutputs.size() ? gradOutputs[o] : Tensor(), tangentShapes[t]));
        }
        std::vector<Tensor> grads = plan->backward(in);
        std::vector<Tensor> perInput(inputCount);
        for (size_t k = 0; k < g.inputsWithGradient.size() && k < grads.size(); ++k) perInput[g.inputsWithGradient[k]] = grads[k];
        return perInput;
    };
    node->release = [kept] { kept->reset(); };
    for (size_t o : g.outputsWithTangent) pointAt(outputs[o], node, o);
    return outputs;
}

// The three graphs' readable code, written once for the log and the events.
struct AotTexts {
    std::string joint, forward, backward;
};

void logGraphs(const CompileRequest& request, const AotGraphs& g, const AotTexts& texts) {
    if (!request.logger) return;
    auto text = [&](const char* title, const std::string& code) {
        return fmt::format("TRACED GRAPH\n ===== {} graph {} =====\n{}", title, request.graphName, code);
    };
    request.logger->artifact("aot_joint_graph", request.compileId, text("Joint", texts.joint));
    request.logger->artifact("aot_graphs", request.compileId, text("Forward", texts.forward));
    request.logger->artifact("aot_graphs", request.compileId, text("Backward", texts.backward));
    std::string saved;
    for (const SavedValue& s : g.saved) saved += fmt::format("\n  {}: {}", s.name, s.meta.str());
    request.logger->log("aot", LogLevel::Info, request.compileId,
                        fmt::format("{}: partitioner {}; saved for backward ({}):{}", request.graphName, g.partitioner, g.saved.size(), saved));
}

// A graph's JSON with each value saved for backward marked with its type and sizes
// ("saved": "f32[2, 4]"): in the forward graph the node computing it, in the backward the
// placeholder taking it.
nlohmann::json withSavedMarked(const Graph& graph, const AotGraphs& g) {
    nlohmann::json json = graphToJson(graph);
    if (!json.contains("nodes") || !json["nodes"].is_array()) return json;
    for (auto& node : json["nodes"])
        for (const SavedValue& s : g.saved)
            if (node.is_object() && node.value("name", "") == s.name) node["saved"] = s.meta.str();
    return json;
}

void emitGraphs(const CompileRequest& request, const AotGraphs& g, const AotTexts& texts) {
    if (!request.bus) return;
    request.bus->emit(IrDumpEvent{request.compileId, request.graphName, "aot_joint_graph", texts.joint, {}, graphToJson(*g.joint)});
    request.bus->emit(IrDumpEvent{request.compileId, request.graphName, "aot_forward_graph", texts.forward, {}, withSavedMarked(*g.forward, g)});
    request.bus->emit(IrDumpEvent{request.compileId, request.graphName, "aot_backward_graph", texts.backward, {}, withSavedMarked(*g.backward, g)});
}

// Eager's results of a graph under one node named as a compiled call's (PyTorch's
// CompiledFunctionBackward): the node hands each output's gradient on to the history eager
// recorded for it.
std::vector<Tensor> underCompiledFunctionNode(std::vector<Tensor> outputs, const std::vector<Tensor>& inputs) {
    auto node = std::make_shared<AutogradNode>();
    node->name = "CompiledFunctionBackward";
    node->outputs = static_cast<int>(outputs.size());
    for (const Tensor& out : outputs) node->next.push_back(out.defined() && out.requiresGrad() ? gradientEdge(out) : AutogradEdge{});
    node->apply = [](const std::vector<Tensor>& gradOutputs) { return gradOutputs; };
    for (size_t o = 0; o < outputs.size(); ++o) {
        Tensor& out = outputs[o];
        bool isInput = std::any_of(inputs.begin(), inputs.end(), [&](const Tensor& in) { return in.defined() && in.impl() == out.impl(); });
        if (!out.defined() || !out.requiresGrad() || isInput) continue;
        out = withoutHistory(out);
        pointAt(out, node, o);
    }
    return outputs;
}

// A graph AOT Autograd cannot differentiate here (dynamic sizes it cannot follow, an op without
// a derivative on a gradient's path, an in-place op it could not functionalize) runs compiled where no
// input requires grad; where one does, it runs eagerly under autograd, eager's backward then
// differentiating it (or raising as eager does: "derivative for aten::floor_divide is not
// implemented"). A graph that changes an input that requires grad in place keeps the
// compiled forward, and backward through it raises, saying why.
CompiledGraph forwardOnly(std::shared_ptr<const Graph> graph, const CompileRequest& request, const CompileOneGraph& compile,
                          const std::string& why, bool changesInputs) {
    std::string reason = fmt::format("AOT Autograd could not differentiate {} ({})", request.graphName, why);
    if (request.logger)
        request.logger->log("aot", LogLevel::Info, request.compileId,
                            reason + (changesInputs ? "" : "; where its inputs require grad it runs eagerly, under eager autograd"));
    CompiledGraph forward = compile(graph, request);
    return [forward, graph, reason, changesInputs](const std::vector<Tensor>& inputs) {
        bool graded = gradEnabled() && std::any_of(inputs.begin(), inputs.end(), [](const Tensor& t) { return t.defined() && t.requiresGrad(); });
        if (graded && !changesInputs) return underCompiledFunctionNode(runGraphEagerly(*graph, inputs), inputs);
        std::vector<Tensor> outputs = forward(inputs);
        if (!graded) return outputs;
        ownOutputs(outputs, inputs);
        auto node = opaqueGradFn("CompiledFunctionBackward", reason);
        node->outputs = static_cast<int>(outputs.size());  // a gradient slot for each output
        for (size_t o = 0; o < outputs.size(); ++o)
            if (outputs[o].defined() && isFloating(outputs[o].dtype()) && !outputs[o].impl()->autograd.gradFn)  // not eager's
                pointAt(outputs[o], node, o);
        return outputs;
    };
}

// A graph without in-place calls whose inputs require grad, compiled with its forward and
// backward graphs.
CompiledGraph compileDifferentiable(std::shared_ptr<const Graph> graph, const CompileRequest& request,
                                    const CompileOneGraph& compile, const std::vector<bool>& requiresGrad) {
    auto plan = std::make_shared<AotPlan>();
    try {
        plan->graphs = aotGraphs(*graph, requiresGrad);
    } catch (const AotUnsupported& e) {
        bool changesInputs = std::any_of(request.outputsOfChangedInputs.begin(), request.outputsOfChangedInputs.end(),
                                         [&](const auto& change) { return requiresGrad.at(change.second); });
        return forwardOnly(graph, request, compile, e.what(), changesInputs);
    }
    // No output requires grad (an optimizer step under no_grad): nothing to differentiate.
    if (plan->graphs.outputsWithTangent.empty()) return compile(graph, request);
    const AotGraphs& g = plan->graphs;
    AotTexts texts{graphReadable(*g.joint), graphReadable(*g.forward), graphReadable(*g.backward)};
    logGraphs(request, g, texts);
    emitGraphs(request, g, texts);
    CompileRequest forwardRequest = request;
    forwardRequest.outputsOfChangedInputs.clear();  // the forward graph numbers its outputs otherwise
    plan->forward = compile(plan->graphs.forward, forwardRequest);
    CompileRequest backwardRequest = forwardRequest;
    backwardRequest.graphName = request.graphName + "_backward";
    backwardRequest.exampleInputs = nullptr;
    plan->backward = compile(plan->graphs.backward, backwardRequest);
    std::shared_ptr<const AotPlan> run = plan;
    return [run](const std::vector<Tensor>& inputs) { return runForward(run, inputs); };
}

// A graph without in-place calls, compiled with its forward and backward graphs when its
// inputs require grad.
CompiledGraph compileFunctional(std::shared_ptr<const Graph> graph, const CompileRequest& request, const CompileOneGraph& compile,
                                const std::vector<bool>& requiresGrad) {
    if (!gradEnabled() || std::none_of(requiresGrad.begin(), requiresGrad.end(), [](bool b) { return b; }))
        return compile(graph, request);
    return compileDifferentiable(graph, request, compile, requiresGrad);
}

// Whether two tensors' elements may share memory (same storage, overlapping byte ranges).
bool mayOverlap(const Tensor& a, const Tensor& b) {
    if (!a.defined() || !b.defined() || !a.storage() || a.storage() != b.storage() || a.numel() == 0 || b.numel() == 0) return false;
    auto span = [](const Tensor& t) {
        int64_t last = t.storageOffset();
        for (int64_t d = 0; d < t.dim(); ++d) last += (t.sizes()[d] - 1) * std::abs(t.strides()[d]);
        return std::pair<int64_t, int64_t>{t.storageOffset() * static_cast<int64_t>(dtypeSize(t.dtype())),
                                           (last + 1) * static_cast<int64_t>(dtypeSize(t.dtype()))};
    };
    auto [aBegin, aEnd] = span(a);
    auto [bBegin, bEnd] = span(b);
    return aBegin < bEnd && bBegin < aEnd;
}

// Runs a functionalized graph as the captured one: the new value of each input it changed
// is copied into that input, and an output that is such an input is the input itself.
// Functionalization reads every input before any change, so a call whose changed input
// shares memory with another input (f(base[2:6], base[4:8]) adding to the first, reading
// the second) runs the captured graph eagerly instead: AOT Autograd's synthetic base.
CompiledGraph withInputsChanged(CompiledGraph compiled, const FunctionalGraph& f, std::shared_ptr<const Graph> captured) {
    return [compiled, captured, changed = f.changedInputs, users = f.userOutputs, isInput = f.outputIsInput](const std::vector<Tensor>& inputs) {
        for (size_t k : changed)
            for (size_t j = 0; j < inputs.size(); ++j)
                if (j != k && mayOverlap(inputs[k], inputs[j])) return runGraphEagerly(*captured, inputs);
        std::vector<Tensor> results = compiled(inputs);
        GradModeGuard noGrad(false);
        // A new value that is (a view of) an input is copied first: copying back into that
        // input must not change it before it is read.
        auto sharesAnInput = [&inputs](const Tensor& t) {
            return std::any_of(inputs.begin(), inputs.end(), [&t](const Tensor& in) { return in.defined() && in.storage() && in.storage() == t.storage(); });
        };
        // A value computed in its input's own storage (schedule/in_place_outputs.h) is there
        // already: only its version counter moves, as copy_ would move it.
        auto inItsInput = [&](size_t k) {
            const Tensor& v = results[users + k];
            const Tensor& in = inputs[changed[k]];
            return v.storage() && v.storage() == in.storage() && v.storageOffset() == in.storageOffset() &&
                   v.sizes() == in.sizes() && v.strides() == in.strides();
        };
        std::vector<Tensor> values;
        for (size_t k = 0; k < changed.size(); ++k) {
            const Tensor& v = results[users + k];
            values.push_back(inItsInput(k) || !sharesAnInput(v) ? v : dispatch("clone", {IValue(v)}).toTensor());
        }
        for (size_t k = 0; k < changed.size(); ++k) {
            if (inItsInput(k)) inputs[changed[k]].storage()->bumpVersion();
            else dispatch("copy_", {IValue(inputs[changed[k]]), IValue(values[k])});
        }
        results.resize(users);
        for (size_t o = 0; o < users; ++o)
            if (isInput[o] >= 0) results[o] = inputs[static_cast<size_t>(isInput[o])];
        return results;
    };
}

void logFunctionalized(const CompileRequest& request, const Graph& captured, const FunctionalGraph& f) {
    if (!request.logger) return;
    std::string changed;
    for (size_t input : f.changedInputs) changed += (changed.empty() ? "" : ", ") + captured.placeholders()[input]->name;
    request.logger->log("aot", LogLevel::Info, request.compileId,
                        fmt::format("{}: functionalized {} in-place call(s); inputs changed in place, copied back after each call: {}",
                                    request.graphName, f.inPlaceCalls, changed.empty() ? "none" : changed));
}

}  // namespace

CompiledGraph compileThroughAot(std::shared_ptr<const Graph> graph, const CompileRequest& request, const CompileOneGraph& compile) {
    std::vector<bool> requiresGrad;
    if (request.exampleInputs)
        for (const Tensor& t : *request.exampleInputs) requiresGrad.push_back(t.defined() && t.requiresGrad());
    std::optional<FunctionalGraph> functional;
    try {
        functional = functionalize(*graph, requiresGrad);
    } catch (const AotUnsupported& e) {  // the graph keeps its in-place calls: it runs eagerly, without a backward graph
        if (request.logger)
            request.logger->log("aot", LogLevel::Info, request.compileId, fmt::format("{}: cannot functionalize: {}", request.graphName, e.what()));
    }
    if (!functional) return compileFunctional(graph, request, compile, requiresGrad);
    logFunctionalized(request, *graph, *functional);
    CompileRequest changing = request;
    for (size_t k = 0; k < functional->changedInputs.size(); ++k)
        changing.outputsOfChangedInputs.emplace_back(functional->userOutputs + k, functional->changedInputs[k]);
    return withInputsChanged(compileFunctional(functional->graph, changing, compile, requiresGrad), *functional, graph);
}

}  // namespace fusescope
