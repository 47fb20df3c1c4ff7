#include "aot/aot_graphs.h"

#include <functional>
#include <map>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "autograd/argument_gradients.h"
#include "autograd/derivative_ops.h"
#include "core/grad_mode.h"
#include "decompose/graph_builder.h"
#include "decompose/rewrite.h"
#include "dispatch/dispatcher.h"

namespace fusescope {

namespace {

using ValueKey = std::pair<const Node*, int>;  // a node's result (output index -1: its only one)
using ValueMap = std::map<ValueKey, Argument>;

Argument mapped(const Argument& a, const ValueMap& values) {
    if (a.kind == Argument::Kind::NodeRef) {
        auto it = values.find({a.node, a.outputIndex});
        if (it == values.end()) throw AotUnsupported(fmt::format("internal error: {} was not copied", a.node->name));
        return it->second;
    }
    if (a.kind == Argument::Kind::Constant) return a;
    std::vector<Argument> items;
    for (const Argument& item : a.items) items.push_back(mapped(item, values));
    return Argument::sequence(std::move(items), a.kind == Argument::Kind::Tuple);
}

void forEachRef(const Argument& a, const std::function<void(const Argument&)>& visit) {
    if (a.kind == Argument::Kind::NodeRef) visit(a);
    for (const Argument& item : a.items) forEachRef(item, visit);
}
void forEachRef(const Node& n, const std::function<void(const Argument&)>& visit) {
    for (const Argument& a : n.args) forEachRef(a, visit);
    for (const auto& kw : n.kwargs) forEachRef(kw.second, visit);
}

// A placeholder named `name` (not the sanitized source a captured input gets), standing for
// the captured node `captured` (its input, or a value backward saved).
Node* namedPlaceholder(GraphBuilder& b, const std::string& name, const TensorMeta& meta, const std::string& captured = "") {
    Node* p = b.placeholder(name, meta, name);
    p->capturedName = captured;
    return p;
}

// Copies call `n` into `b`, its arguments through `values`, which then map its results too.
Node* copyCall(GraphBuilder& b, const Node& n, ValueMap& values) {
    std::vector<Argument> args;
    for (const Argument& a : n.args) args.push_back(mapped(a, values));
    ArgumentKwargs kwargs;
    for (const auto& [name, a] : n.kwargs) kwargs.emplace_back(name, mapped(a, values));
    Node* c = b.call(n.target, std::move(args), std::move(kwargs));
    copyProvenance(n, *c);
    if (c->returnsTuple)
        for (size_t i = 0; i < c->meta.size(); ++i) values[{&n, static_cast<int>(i)}] = Argument::ref(c, static_cast<int>(i));
    else
        values[{&n, -1}] = Argument::ref(c);
    return c;
}

void markRequiresGrad(const IValue& v) {
    if (v.isTensor() && v.toTensor().defined() && isFloating(v.toTensor().dtype())) v.toTensor().setRequiresGrad(true);
    if (v.isSequence())
        for (const IValue& item : v.toSequence()->items) markRequiresGrad(item);
}

// The joint graph as it is traced: primals, tangents, the forward's calls, then every call
// the derivatives made (the engine's op calls, recorded while it is installed). Tensors it
// has seen are references to the node that made them; others are constants.
class TracedJoint : public OpRecorder {
public:
    Graph graph;
    GraphBuilder b{graph};
    std::vector<Node*> backwardCalls;
    const Node* differentiating = nullptr;  // the forward call whose derivative is recorded

    void remember(Node* n) {
        IValue r = b.value(Argument::ref(n));
        if (r.isTensor()) known_[r.toTensor().impl()] = Argument::ref(n);
        if (r.isSequence())
            for (size_t i = 0; i < r.toSequence()->items.size(); ++i)
                if (r.toSequence()->items[i].isTensor())
                    known_[r.toSequence()->items[i].toTensor().impl()] = Argument::ref(n, static_cast<int>(i));
    }
    Argument argumentOf(const IValue& v) const {
        if (v.isTensor() && v.toTensor().defined()) {
            auto it = known_.find(v.toTensor().impl());
            if (it != known_.end()) return it->second;
            if (v.toTensor().isMeta()) throw AotUnsupported("a derivative made a tensor outside the ops it calls");
            return Argument::value(v);
        }
        if (v.isSequence()) {
            std::vector<Argument> items;
            for (const IValue& item : v.toSequence()->items) items.push_back(argumentOf(item));
            return Argument::sequence(std::move(items), v.toSequence()->isTuple);
        }
        return Argument::value(v);
    }
    IValue record(std::string_view op, const IValueList& args, const Kwargs& kwargs) override {
        std::vector<Argument> a;
        for (const IValue& v : args) a.push_back(argumentOf(v));
        ArgumentKwargs kw;
        for (const auto& [name, v] : kwargs) kw.emplace_back(name, argumentOf(v));
        Node* n = b.call(std::string(op), std::move(a), std::move(kw));
        if (differentiating) copyProvenance(*differentiating, *n);  // a backward node points at the forward node it differentiates
        backwardCalls.push_back(n);
        remember(n);
        return b.value(Argument::ref(n));
    }

private:
    std::unordered_map<const TensorImpl*, Argument> known_;
};

// One forward call of the joint graph, as its derivative sees it.
struct ForwardCall {
    Node* node;
    const OpDef* op;
    BoundArgs args;
    IValue result;
};

const Tensor& slotTensor(const BoundArgs& args, const TensorSlot& slot) {
    const IValue& v = args.at(slot.argument);
    return v.isTensor() ? v.toTensor() : v.toSequence()->items[slot.item].toTensor();
}

}  // namespace

AotGraphs aotGraphs(const Graph& graph, const std::vector<bool>& inputRequiresGrad) {
    GradModeGuard noGrad(false);
    TracedJoint joint;
    GraphBuilder& b = joint.b;
    ValueMap fromCaptured;
    std::vector<Node*> primals, tangents;
    std::vector<ForwardCall> calls;
    AotGraphs out;

    // The forward: the captured graph's calls on meta tensors that require grad where its
    // inputs do.
    try {
        for (const auto& n : graph.nodes()) {
            if (n->op == NodeOp::Placeholder) {
                const TensorMeta& meta = n->meta.at(0);
                for (const std::string& symbol : meta.symbols)
                    if (!symbol.empty()) throw AotUnsupported(fmt::format("{} has a dynamic size", n->name));
                Node* p = namedPlaceholder(b, fmt::format("primals_{}", primals.size() + 1), meta);
                p->capturedName = n->name;
                Tensor t = b.value(Argument::ref(p)).toTensor();
                if (primals.size() < inputRequiresGrad.size() && inputRequiresGrad[primals.size()] && isFloating(t.dtype()))
                    t.setRequiresGrad(true);
                joint.remember(p);
                primals.push_back(p);
                fromCaptured[{n.get(), -1}] = Argument::ref(p);
                continue;
            }
            if (n->op == NodeOp::Output) continue;
            if (!n->target.empty() && n->target.back() == '_') throw AotUnsupported(fmt::format("{} is an in-place op", n->name));
            Node* m = copyCall(b, *n, fromCaptured);
            IValueList argValues;
            for (const Argument& a : m->args) argValues.push_back(b.value(a));
            Kwargs kwargValues;
            for (const auto& [name, a] : m->kwargs) kwargValues.emplace_back(name, b.value(a));
            auto [op, bound] = OpRegistry::instance().resolve(m->target, argValues, kwargValues);
            IValue result = b.value(Argument::ref(m));
            bool graded = false;
            if (m->gradEnabled)  // an op under torch.no_grad() is not differentiated
                for (const IValue& v : bound.values_) graded = graded || anyRequiresGrad(v);
            if (graded) markRequiresGrad(result);
            joint.remember(m);
            calls.push_back({m, op, bound, result});
        }
    } catch (const Error& e) {
        throw AotUnsupported(e.what());
    }
    std::vector<Argument> userOutputs;
    for (const Argument& a : graph.outputs()) userOutputs.push_back(mapped(a, fromCaptured));
    out.userOutputs = userOutputs.size();

    // The backward: a tangent for each output that requires grad, then each call's
    // derivative in reverse order, recorded; gradients meeting at a value are added.
    std::unordered_map<const TensorImpl*, Tensor> grads;
    {
        RecordingOps recording(joint);
        auto accumulate = [&grads](const Tensor& value, const Tensor& g) {
            auto [it, fresh] = grads.emplace(value.impl(), g);
            if (!fresh) it->second = grad::add(it->second, g);
        };
        try {
            for (size_t o = 0; o < userOutputs.size(); ++o) {
                IValue v = b.value(userOutputs[o]);
                if (!v.isTensor() || !v.toTensor().defined() || !v.toTensor().requiresGrad()) continue;
                const Tensor& t = v.toTensor();
                Node* tangent = namedPlaceholder(b, fmt::format("tangents_{}", tangents.size() + 1),
                                                 TensorMeta{t.sizes(), contiguousStrides(t.sizes()), t.dtype(), {}});
                joint.remember(tangent);
                tangents.push_back(tangent);
                out.outputsWithTangent.push_back(o);
                accumulate(t, b.value(Argument::ref(tangent)).toTensor());
            }
            for (auto c = calls.rbegin(); c != calls.rend(); ++c) {
                const IValue& r = c->result;
                const IValueList* items = r.isSequence() ? &r.toSequence()->items : nullptr;
                Tensor first = items ? (items->empty() || !(*items)[0].isTensor() ? Tensor() : (*items)[0].toTensor()) : r.toTensor();
                if (items)
                    for (size_t i = 1; i < items->size(); ++i)
                        if ((*items)[i].isTensor() && grads.count((*items)[i].toTensor().impl()))
                            throw AotUnsupported(fmt::format("a gradient flows into result {} of {}", i, c->node->name));
                auto g = first.defined() ? grads.find(first.impl()) : grads.end();
                if (g == grads.end()) continue;
                joint.differentiating = c->node;
                std::vector<TensorSlot> slots = tensorSlots(c->args);
                std::vector<Tensor> argGrads = slotGradients(*c->op, c->args, r, g->second, slots);
                for (size_t s = 0; s < slots.size(); ++s) {
                    const Tensor& arg = slotTensor(c->args, slots[s]);
                    if (argGrads[s].defined() && arg.defined() && arg.requiresGrad()) accumulate(arg, argGrads[s]);
                }
            }
        } catch (const AotUnsupported&) {
            throw;
        } catch (const Error& e) {
            throw AotUnsupported(e.what());
        }
    }
    std::vector<Argument> inputGrads;
    for (size_t i = 0; i < primals.size(); ++i) {
        Tensor t = b.value(Argument::ref(primals[i])).toTensor();
        auto g = grads.find(t.impl());
        if (!t.requiresGrad() || g == grads.end()) continue;
        inputGrads.push_back(joint.argumentOf(IValue(g->second)));
        out.inputsWithGradient.push_back(i);
    }

    // What backward needs: the derivatives' calls that lead to an input's gradient, and the
    // forward values (or inputs) they read.
    std::set<const Node*> backwardSet(joint.backwardCalls.begin(), joint.backwardCalls.end());
    std::set<const Node*> tangentSet(tangents.begin(), tangents.end());
    std::set<const Node*> live;
    std::vector<ValueKey> savedKeys;
    std::function<void(const Argument&)> need = [&](const Argument& a) {
        if (backwardSet.count(a.node)) {
            if (live.insert(a.node).second) forEachRef(*a.node, need);
        } else if (!tangentSet.count(a.node)) {
            ValueKey key{a.node, a.outputIndex};
            if (std::find(savedKeys.begin(), savedKeys.end(), key) == savedKeys.end()) savedKeys.push_back(key);
        }
    };
    for (const Argument& a : inputGrads) forEachRef(a, need);
    std::vector<const Node*> backwardCalls;
    for (const Node* n : joint.backwardCalls)
        if (live.count(n)) backwardCalls.push_back(n);
    // Saved values in the order the backward's calls first read them.
    std::vector<ValueKey> ordered;
    auto addOrdered = [&](const Argument& a) {
        ValueKey key{a.node, a.outputIndex};
        if (std::find(savedKeys.begin(), savedKeys.end(), key) != savedKeys.end() &&
            std::find(ordered.begin(), ordered.end(), key) == ordered.end())
            ordered.push_back(key);
    };
    for (const Node* n : backwardCalls) forEachRef(*n, addOrdered);
    for (const Argument& a : inputGrads) forEachRef(a, addOrdered);

    auto metaOfKey = [](const ValueKey& key) {  // contiguous: what the backward graph takes
        TensorMeta meta = key.first->meta.at(key.second < 0 ? 0 : static_cast<size_t>(key.second));
        meta.strides = contiguousStrides(meta.sizes);
        return meta;
    };
    auto nameOfKey = [](const ValueKey& key) {
        return key.second < 0 ? key.first->name : fmt::format("{}_{}", key.first->name, key.second);
    };

    // The joint graph as PyTorch logs it: primals and tangents in; outputs and gradients out.
    {
        out.joint = std::make_shared<Graph>();
        GraphBuilder jb(*out.joint);
        ValueMap values;
        for (Node* p : primals) values[{p, -1}] = Argument::ref(namedPlaceholder(jb, p->name, p->meta[0], p->capturedName));
        for (Node* t : tangents) values[{t, -1}] = Argument::ref(namedPlaceholder(jb, t->name, t->meta[0]));
        for (const ForwardCall& c : calls) copyCall(jb, *c.node, values);
        for (const Node* n : backwardCalls) copyCall(jb, *n, values);
        std::vector<Argument> outputs;
        for (const Argument& a : userOutputs) outputs.push_back(mapped(a, values));
        for (const Argument& a : inputGrads) outputs.push_back(mapped(a, values));
        out.joint->setOutputs(std::move(outputs));
    }
    // The forward graph: the user's outputs, then the saved forward values.
    {
        out.forward = std::make_shared<Graph>();
        GraphBuilder fb(*out.forward);
        ValueMap values;
        for (Node* p : primals) values[{p, -1}] = Argument::ref(namedPlaceholder(fb, p->name, p->meta[0], p->capturedName));
        for (const ForwardCall& c : calls) copyCall(fb, *c.node, values);
        std::vector<Argument> outputs;
        for (const Argument& a : userOutputs) outputs.push_back(mapped(a, values));
        for (const ValueKey& key : ordered) {
            SavedValue saved{nameOfKey(key), -1, -1, metaOfKey(key)};
            auto primal = std::find(primals.begin(), primals.end(), key.first);
            if (primal != primals.end()) {
                saved.input = static_cast<int>(primal - primals.begin());
            } else {
                saved.forwardOutput = static_cast<int>(outputs.size());
                outputs.push_back(mapped(Argument::ref(const_cast<Node*>(key.first), key.second), values));
            }
            out.saved.push_back(std::move(saved));
        }
        out.forward->setOutputs(std::move(outputs));
    }
    // The backward graph: saved values and tangents in, the inputs' gradients out.
    {
        out.backward = std::make_shared<Graph>();
        GraphBuilder bb(*out.backward);
        ValueMap values;
        for (size_t s = 0; s < ordered.size(); ++s)
            values[ordered[s]] = Argument::ref(namedPlaceholder(bb, out.saved[s].name, out.saved[s].meta, ordered[s].first->capturedName));
        for (Node* t : tangents) values[{t, -1}] = Argument::ref(namedPlaceholder(bb, t->name, t->meta[0]));
        for (const Node* n : backwardCalls) copyCall(bb, *n, values);
        std::vector<Argument> outputs;
        for (const Argument& a : inputGrads) outputs.push_back(mapped(a, values));
        out.backward->setOutputs(std::move(outputs));
    }
    return out;
}

}  // namespace fusescope
