// Autograd as scripts reach it (autograd/backward_engine.h does the work): tensor.backward(),
// tensor.grad, tensor.retain_grad(), tensor.grad_fn (name(), next_functions, an
// AccumulateGrad's variable), and torch.autograd.grad.
#include <fmt/format.h>

#include "autograd/argument_gradients.h"
#include "autograd/backward_engine.h"
#include "core/autograd_node.h"
#include "core/grad_mode.h"
#include "dispatch/dispatcher.h"
#include "script/graph_break_kinds.h"
#include "script/interpreter.h"
#include "script/types/method_table.h"
#include "script/trace_hooks.h"
#include "script/types/type_slots.h"

namespace fusescope {

namespace {

// A backward node as scripts see it: printed "<MulBackward0 object at 0x...>".
struct GradFnObject : RecordObject {
    std::shared_ptr<AutogradNode> node;
    const TypeSlots* slots() const override;
};

// A grad_fn's next_functions ((node, input number) for each tensor argument): made when
// asked for, so a long graph is not walked to print one node.
Value nextFunctions(Interpreter&, const Value& self) {
    ValueList edges;
    for (const AutogradEdge& edge : self.as<GradFnObject>()->node->next)
        edges.push_back(makeTuple({gradFnValue(edge.node), Value(int64_t{edge.inputNr})}));
    return makeTuple(std::move(edges));
}

const TypeSlots* GradFnObject::slots() const {
    static const GetterTable getters({{"next_functions", nextFunctions}});
    static const TypeSlots type{.name = "grad_fn", .getters = &getters, .getattr = recordAttribute, .repr = recordRepr};
    return &type;
}

// The tensors of a tensor or a sequence of them (torch.autograd.grad's outputs and inputs).
std::vector<Tensor> tensorsOf(Interpreter& in, const Value& value, const char* what) {
    if (value.isTensor()) return {value.asTensor()};
    std::vector<Tensor> tensors;
    if (const ValueList* items = sequenceItems(value))
        for (const Value& item : *items) {
            if (!item.isTensor()) in.fail("TypeError", std::string("grad(): ") + what + " must be tensors, not " + pythonTypeName(item));
            tensors.push_back(item.asTensor());
        }
    else
        in.fail("TypeError", std::string("grad(): ") + what + " must be a tensor or a sequence of tensors");
    return tensors;
}

bool flagArgument(Interpreter& in, CallArgs& a, size_t position, const char* name, bool fallback) {
    const Value v = argumentOr(a, position, name);
    return v.isNone() ? fallback : in.truthy(v);
}

}  // namespace

Value tensorBackward(Interpreter& in, const Value& self, CallArgs& a) {
    // As Dynamo: the backward pass is not part of the forward graph being captured.
    if (in.tracer()) in.tracer()->graphBreak(graph_breaks::backwardCall());
    const Tensor& root = self.asTensor();
    const Value gradient = argumentOr(a, 0, "gradient");
    if (flagArgument(in, a, 2, "create_graph", false)) in.fail("RuntimeError", "Fusescope does not support backward(create_graph=True) yet");
    BackwardOptions options;
    options.retainGraph = flagArgument(in, a, 1, "retain_graph", false);
    if (!root.requiresGrad()) in.fail("RuntimeError", "element 0 of tensors does not require grad and does not have a grad_fn");
    Tensor grad = gradient.isNone() ? implicitGradient(root) : gradient.asTensor();
    runBackward({root}, {grad}, options);
    return Value();
}

Value tensorRetainGrad(Interpreter& in, const Value& self) {
    const Tensor& t = self.asTensor();
    if (!t.requiresGrad()) in.fail("RuntimeError", "can't retain_grad on Tensor that has requires_grad=False");
    if (t.isLeaf()) return Value();  // a leaf keeps its .grad anyway
    AutogradMeta& meta = t.impl()->autograd;
    meta.retainsGrad = true;
    auto& retained = meta.gradFn->retained;
    retained.resize(static_cast<size_t>(meta.gradFn->outputs));
    retained[static_cast<size_t>(meta.outputNr)] = t.implPtr();
    return Value();
}

Value gradFnValue(const std::shared_ptr<AutogradNode>& node) {
    if (!node) return Value();
    auto object = std::make_shared<GradFnObject>();
    object->node = node;
    object->type = node->name;
    object->text = fmt::format("<{} object at {}>", node->name, static_cast<const void*>(node.get()));
    // name() is the C++ class's name: namespaced for the hand-written nodes, as in PyTorch.
    const bool handWritten = node->name == "AccumulateGrad" || node->name == "CopyBackwards";
    std::string name = handWritten ? "torch::autograd::" + node->name : node->name;
    object->attrs["name"] = makeBuiltin(node->name + ".name", [name](Interpreter&, CallArgs&) { return Value(name); });
    if (auto leaf = node->leaf.lock()) object->attrs["variable"] = Value(Tensor(leaf));
    return Value(ObjectPtr(object));
}

Value tensorGrad(const Tensor& t) { return t.impl()->autograd.grad ? Value(Tensor(t.impl()->autograd.grad)) : Value(); }

void setTensorGrad(Interpreter& in, const Tensor& t, const Value& grad) {
    if (grad.isNone()) {
        t.impl()->autograd.grad = nullptr;
        return;
    }
    if (!grad.isTensor()) in.fail("TypeError", "assigned grad expected to be a Tensor or None but got grad of type " + pythonTypeName(grad));
    if (grad.asTensor().sizes() != t.sizes()) in.fail("RuntimeError", "assigned grad has data of a different size");
    t.impl()->autograd.grad = grad.asTensor().implPtr();
}

// The tensors of what a custom Function's forward returned: itself, or a tuple's items.
std::vector<Tensor> forwardOutputs(const Value& outputs) {
    std::vector<Tensor> tensors;
    if (outputs.isTensor()) tensors.push_back(outputs.asTensor());
    if (const auto* tuple = outputs.as<TupleObject>())
        for (const Value& item : tuple->items)
            if (item.isTensor()) tensors.push_back(item.asTensor());
    return tensors;
}

// Replaces, in what forward returned, an output that is one of the inputs by a new tensor for
// the same data (as PyTorch gives it a history of its own, the input keeping its).
Value ownedOutputs(const Value& outputs, const ValueList& inputs) {
    auto own = [&](const Value& v) {
        if (!v.isTensor()) return v;
        for (const Value& input : inputs)
            if (input.isTensor() && input.asTensor().impl() == v.asTensor().impl()) return Value(withoutHistory(v.asTensor()));
        return v;
    };
    if (const auto* tuple = outputs.as<TupleObject>()) {
        ValueList items;
        for (const Value& item : tuple->items) items.push_back(own(item));
        return makeTuple(std::move(items));
    }
    return own(outputs);
}

// The backward node of one call of a custom torch.autograd.Function: the Function's backward
// (a script callable) turns the outputs' gradients into one per input of apply().
std::shared_ptr<AutogradNode> customFunctionNode(Interpreter& in, const std::string& name, const ValueList& inputs,
                                                 const std::vector<Tensor>& outputs, Value backward, bool materializeGrads) {
    auto node = std::make_shared<AutogradNode>();
    node->name = name;
    for (const Value& input : inputs) node->next.push_back(input.isTensor() ? gradientEdge(input.asTensor()) : AutogradEdge{});
    node->outputs = std::max<int>(1, static_cast<int>(outputs.size()));
    std::vector<std::pair<Shape, DType>> metas;  // for zeros where an output got no gradient
    for (const Tensor& out : outputs) metas.emplace_back(out.sizes(), out.dtype());
    auto callable = std::make_shared<Value>(std::move(backward));
    node->apply = [&in, name, callable, metas, materializeGrads, count = inputs.size()](const std::vector<Tensor>& gradOutputs) {
        if (callable->isNone()) throw ScriptError("RuntimeError", kBackwardTwice);
        CallArgs call;
        for (size_t i = 0; i < metas.size(); ++i) {
            const Tensor grad = i < gradOutputs.size() ? gradOutputs[i] : Tensor();
            if (grad.defined()) call.args.emplace_back(grad);
            else if (!materializeGrads) call.args.emplace_back();
            else call.args.emplace_back(dispatch("zeros", {IValue::intList(metas[i].first)}, {{"dtype", IValue(metas[i].second)}}).toTensor());
        }
        Value result;
        {
            GradModeGuard noGrad(false);
            result = in.call(*callable, call);
        }
        ValueList grads = result.as<TupleObject>() ? result.as<TupleObject>()->items : ValueList{result};
        if (grads.size() != count)
            throw ScriptError("RuntimeError", fmt::format("function {} returned an incorrect number of gradients (expected {}, got {})",
                                                          name, count, grads.size()));
        std::vector<Tensor> inputGrads;
        for (const Value& g : grads) inputGrads.push_back(g.isTensor() ? g.asTensor() : Tensor());
        return inputGrads;
    };
    node->release = [callable] { *callable = Value(); };  // frees the ctx and what it saved
    return node;
}

void populateAutogradModule(ModuleObject& autograd) {
    // grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, ..., allow_unused=None)
    autograd.attrs["grad"] = makeBuiltin("torch.autograd.grad", [](Interpreter& in, CallArgs& a) {
        const Value outputs = argumentOr(a, 0, "outputs");
        const Value inputs = argumentOr(a, 1, "inputs");
        if (outputs.isNone() || inputs.isNone()) in.fail("TypeError", "grad() missing required arguments 'outputs' and 'inputs'");
        std::vector<Tensor> roots = tensorsOf(in, outputs, "outputs");
        BackwardOptions options;
        options.inputs = tensorsOf(in, inputs, "inputs");
        options.retainGraph = flagArgument(in, a, 3, "retain_graph", false);
        options.allowUnused = flagArgument(in, a, 6, "allow_unused", false);
        if (flagArgument(in, a, 4, "create_graph", false)) in.fail("RuntimeError", "Fusescope does not support grad(create_graph=True) yet");
        std::vector<Tensor> grads;
        const Value given = argumentOr(a, 2, "grad_outputs");
        if (!given.isNone()) grads = tensorsOf(in, given, "grad_outputs");
        else
            for (const Tensor& root : roots) grads.push_back(implicitGradient(root));
        if (grads.size() != roots.size()) in.fail("RuntimeError", "grad(): grad_outputs must have one tensor per output");
        ValueList result;
        for (const Tensor& g : runBackward(roots, grads, options)) result.push_back(g.defined() ? Value(g) : Value());
        return makeTuple(std::move(result));
    });
    // torch.autograd._untraced(reason)(fn): a compiled function's graph breaks where fn is
    // called, for that reason, and fn runs eagerly (the library's Function.apply).
    autograd.attrs["_untraced"] = makeBuiltin("torch.autograd._untraced", [](Interpreter& in, CallArgs& a) {
        if (a.args.size() != 1 || !a.args[0].isString()) in.fail("TypeError", "_untraced(reason) takes the graph break's reason");
        return makeBuiltin("torch.autograd._untraced.<decorator>", [reason = a.args[0].asString()](Interpreter& in2, CallArgs& b) {
            auto* fn = b.args.size() == 1 ? b.args[0].as<FunctionObject>() : nullptr;
            if (!fn) in2.fail("TypeError", "_untraced's decorator takes a function defined in Python");
            fn->dynamoSkip = FunctionObject::DynamoSkip::Untraced;
            fn->dynamoSkipReason = reason;
            return b.args[0];
        });
    });
    // torch.autograd._custom_function(name, inputs, forward, backward): torch.autograd.Function
    // .apply (library torch/autograd/function.py, which compiled functions do not trace).
    // Runs forward() without recording (it gives back its outputs, those marked
    // non-differentiable and whether to materialize missing gradients as zeros), then gives
    // its floating outputs one backward node that calls backward(*grads).
    autograd.attrs["_custom_function"] = makeBuiltin("torch.autograd._custom_function", [](Interpreter& in, CallArgs& a) {
        if (a.args.size() != 4 || !a.args[0].isString() || !a.args[1].as<TupleObject>())
            in.fail("TypeError", "_custom_function(name, inputs, forward, backward)");
        const std::string name = a.args[0].asString();
        const ValueList inputs = a.args[1].as<TupleObject>()->items;
        bool differentiable = gradEnabled();
        differentiable = differentiable && std::any_of(inputs.begin(), inputs.end(), [](const Value& v) {
            return v.isTensor() && v.asTensor().requiresGrad();
        });
        Value ran;
        {
            GradModeGuard noGrad(false);
            CallArgs none;
            ran = in.call(a.args[2], none);
        }
        const auto* said = ran.as<TupleObject>();
        if (!said || said->items.size() != 3) in.fail("TypeError", "_custom_function's forward gives (output, non_differentiable, materialize_grads)");
        Value outputs = said->items[0];
        if (!differentiable) return outputs;
        outputs = ownedOutputs(outputs, inputs);
        std::vector<Tensor> tensors = forwardOutputs(outputs);
        auto node = customFunctionNode(in, name, inputs, tensors, a.args[3], in.truthy(said->items[2]));
        std::vector<Tensor> nonDifferentiable = forwardOutputs(said->items[1]);
        for (size_t nr = 0; nr < tensors.size(); ++nr) {
            const Tensor& out = tensors[nr];
            const bool excluded = std::any_of(nonDifferentiable.begin(), nonDifferentiable.end(),
                                              [&](const Tensor& t) { return t.impl() == out.impl(); });
            if (excluded || !isFloating(out.dtype())) continue;
            out.setRequiresGrad(true);
            out.impl()->autograd.gradFn = node;
            out.impl()->autograd.outputNr = static_cast<int>(nr);
        }
        return outputs;
    });
    // torch.autograd._name_backward(result, name): the library's composites (nll_loss,
    // batch_norm, ...) are one op in PyTorch; their last node takes that op's node's name.
    // Its next_functions still show the ops the composite is made of.
    autograd.attrs["_name_backward"] = makeBuiltin("torch.autograd._name_backward", [](Interpreter& in, CallArgs& a) {
        if (a.args.size() != 2 || !a.args[0].isTensor() || !a.args[1].isString())
            in.fail("TypeError", "_name_backward(tensor, name) takes a tensor and a node name");
        const Tensor& t = a.args[0].asTensor();
        if (!in.tracer() && t.impl()->autograd.gradFn) t.impl()->autograd.gradFn->name = a.args[1].asString();
        return a.args[0];
    });
}

}  // namespace fusescope
