#include "aot/aot_graphs.h"

#include <functional>
#include <map>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "autograd/argument_gradients.h"
#include "autograd/derivative_ops.h"
#include "capture/symbolic_sizes.h"
#include "core/grad_mode.h"
#include "decompose/graph_copy.h"
#include "decompose/rewrite.h"
#include "dispatch/dispatcher.h"

namespace fusescope {

namespace {

// A placeholder named `name` (not the sanitized source a captured input gets), standing for
// the captured node `captured` (its input, or a value backward saved).
Node* namedPlaceholder(GraphBuilder& b, const std::string& name, const TensorMeta& meta, const std::string& captured = "") {
    Node* p = b.placeholder(name, meta, name);
    p->capturedName = captured;
    return p;
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

// Traces the joint graph of a captured graph, then partitions it: each step one method,
// run in the order aotGraphs calls them.
class AotTracer {
public:
    AotTracer(const Graph& graph, std::vector<bool> inputRequiresGrad) : graph_(graph), requiresGrad_(std::move(inputRequiresGrad)) {}
    AotTracer(const AotTracer&) = delete;  // b_ refers into joint_
    AotTracer& operator=(const AotTracer&) = delete;

    // The forward: the captured graph's calls on meta tensors that require grad where its
    // inputs do.
    void traceForward() {
        for (const auto& n : graph_.nodes()) {
            if (n->op == NodeOp::Placeholder) {
                addPrimal(*n);
            } else if (n->op != NodeOp::Output) {
                if (!n->target.empty() && n->target.back() == '_') throw AotUnsupported(fmt::format("{} is an in-place op", n->name));
                addForwardCall(*n);
            }
        }
        for (const Argument& a : graph_.outputs()) userOutputs_.push_back(mapped(a, fromCaptured_));
        out_.userOutputs = userOutputs_.size();
    }

    // The backward: a tangent for each output that requires grad, then each call's
    // derivative in reverse order, recorded; gradients meeting at a value are added.
    void traceBackward() {
        RecordingOps recording(joint_);
        for (size_t o = 0; o < userOutputs_.size(); ++o) {
            IValue v = b_.value(userOutputs_[o]);
            if (!v.isTensor() || !v.toTensor().defined() || !v.toTensor().requiresGrad()) continue;
            const Tensor& t = v.toTensor();
            Node* tangent = namedPlaceholder(b_, fmt::format("tangents_{}", tangents_.size() + 1),
                                             TensorMeta{t.sizes(), contiguousStrides(t.sizes()), t.dtype(), {}});
            joint_.remember(tangent);
            tangents_.push_back(tangent);
            out_.outputsWithTangent.push_back(o);
            accumulate(t, b_.value(Argument::ref(tangent)).toTensor());
        }
        for (auto c = calls_.rbegin(); c != calls_.rend(); ++c) differentiate(*c);
        for (size_t i = 0; i < primals_.size(); ++i) {
            Tensor t = b_.value(Argument::ref(primals_[i])).toTensor();
            auto g = grads_.find(t.impl());
            if (!t.requiresGrad() || g == grads_.end()) continue;
            inputGrads_.push_back(joint_.argumentOf(IValue(g->second)));
            out_.inputsWithGradient.push_back(i);
        }
    }

    // What the backward needs: the recorded calls that lead to an input's gradient, and the
    // forward values (or inputs) they read, in the order they are first read.
    void partition() {
        std::set<const Node*> recorded(joint_.backwardCalls.begin(), joint_.backwardCalls.end());
        std::set<const Node*> live;
        std::function<void(const Argument&)> need = [&](const Argument& a) {
            if (recorded.count(a.node) && live.insert(a.node).second) forEachRef(*a.node, need);
        };
        for (const Argument& a : inputGrads_) forEachRef(a, need);
        for (const Node* n : joint_.backwardCalls)
            if (live.count(n)) backwardCalls_.push_back(n);
        std::set<const Node*> tangents(tangents_.begin(), tangents_.end());
        auto save = [&](const Argument& a) {
            ValueKey key{a.node, a.outputIndex};
            if (!recorded.count(a.node) && !tangents.count(a.node) && std::find(saved_.begin(), saved_.end(), key) == saved_.end())
                saved_.push_back(key);
        };
        for (const Node* n : backwardCalls_) forEachRef(*n, save);
        for (const Argument& a : inputGrads_) forEachRef(a, save);
    }

    // The joint graph as PyTorch logs it: primals and tangents in; outputs and gradients out.
    void copyJoint() {
        out_.joint = std::make_shared<Graph>();
        GraphBuilder b(*out_.joint);
        ValueMap values = placeholders(b, primals_);
        for (Node* t : tangents_) values[{t, -1}] = Argument::ref(namedPlaceholder(b, t->name, t->meta[0]));
        for (const ForwardCall& c : calls_) copyCall(b, *c.node, values);
        for (const Node* n : backwardCalls_) copyCall(b, *n, values);
        std::vector<Argument> outputs;
        for (const Argument& a : userOutputs_) outputs.push_back(mapped(a, values));
        for (const Argument& a : inputGrads_) outputs.push_back(mapped(a, values));
        out_.joint->setOutputs(std::move(outputs));
    }

    // The forward graph: the user's outputs, then the saved forward values (saved inputs come
    // from the call itself).
    void copyForward() {
        out_.forward = std::make_shared<Graph>();
        GraphBuilder b(*out_.forward);
        ValueMap values = placeholders(b, primals_);
        for (const ForwardCall& c : calls_) copyCall(b, *c.node, values);
        std::vector<Argument> outputs;
        for (const Argument& a : userOutputs_) outputs.push_back(mapped(a, values));
        for (const ValueKey& key : saved_) {
            TensorMeta meta = key.first->meta.at(key.second < 0 ? 0 : static_cast<size_t>(key.second));
            meta.strides = contiguousStrides(meta.sizes);  // what the backward graph takes
            SavedValue saved{key.second < 0 ? key.first->name : fmt::format("{}_{}", key.first->name, key.second), -1, -1, meta};
            auto primal = std::find(primals_.begin(), primals_.end(), key.first);
            if (primal != primals_.end()) {
                saved.input = static_cast<int>(primal - primals_.begin());
            } else {
                saved.forwardOutput = static_cast<int>(outputs.size());
                outputs.push_back(mapped(Argument::ref(const_cast<Node*>(key.first), key.second), values));
            }
            out_.saved.push_back(std::move(saved));
        }
        out_.forward->setOutputs(std::move(outputs));
    }

    // The backward graph: saved values and tangents in, the inputs' gradients out.
    void copyBackward() {
        out_.backward = std::make_shared<Graph>();
        GraphBuilder b(*out_.backward);
        ValueMap values;
        for (size_t s = 0; s < saved_.size(); ++s)
            values[saved_[s]] = Argument::ref(namedPlaceholder(b, out_.saved[s].name, out_.saved[s].meta, saved_[s].first->capturedName));
        for (Node* t : tangents_) values[{t, -1}] = Argument::ref(namedPlaceholder(b, t->name, t->meta[0]));
        for (const Node* n : backwardCalls_) copyCall(b, *n, values);
        std::vector<Argument> outputs;
        for (const Argument& a : inputGrads_) outputs.push_back(mapped(a, values));
        out_.backward->setOutputs(std::move(outputs));
    }

    AotGraphs result() { return std::move(out_); }

private:
    void addPrimal(const Node& n) {
        const TensorMeta& meta = n.meta.at(0);
        for (const std::string& symbol : meta.symbols)
            if (!symbol.empty()) throw AotUnsupported(fmt::format("{} has a dynamic size", n.name));
        Node* p = namedPlaceholder(b_, fmt::format("primals_{}", primals_.size() + 1), meta, n.name);
        Tensor t = b_.value(Argument::ref(p)).toTensor();
        size_t i = primals_.size();
        if (i < requiresGrad_.size() && requiresGrad_[i] && isFloating(t.dtype())) t.setRequiresGrad(true);
        joint_.remember(p);
        primals_.push_back(p);
        fromCaptured_[{&n, -1}] = Argument::ref(p);
    }

    void addForwardCall(const Node& n) {
        Node* m = copyCall(b_, n, fromCaptured_);
        IValueList argValues;
        for (const Argument& a : m->args) argValues.push_back(b_.value(a));
        Kwargs kwargValues;
        for (const auto& [name, a] : m->kwargs) kwargValues.emplace_back(name, b_.value(a));
        auto [op, bound] = OpRegistry::instance().resolve(m->target, argValues, kwargValues);
        IValue result = b_.value(Argument::ref(m));
        bool graded = false;
        if (m->gradEnabled && !managesGradItself(m->target))  // not under torch.no_grad(), not detach
            for (const IValue& v : bound.values_) graded = graded || anyRequiresGrad(v);
        if (graded) markRequiresGrad(result);
        joint_.remember(m);
        calls_.push_back({m, op, bound, result});
    }

    void accumulate(const Tensor& value, const Tensor& g) {
        auto [it, fresh] = grads_.emplace(value.impl(), g);
        if (!fresh) it->second = grad::add(it->second, g);
    }

    // Records call c's derivative when a result of it has a gradient (each of unbind's parts
    // may have one, as eager's backward gives them).
    void differentiate(const ForwardCall& c) {
        const IValueList* items = c.result.isSequence() ? &c.result.toSequence()->items : nullptr;
        std::vector<Tensor> resultGrads;
        for (const IValue& v : items ? *items : IValueList{c.result}) {
            auto g = v.isTensor() && v.toTensor().defined() ? grads_.find(v.toTensor().impl()) : grads_.end();
            resultGrads.push_back(g == grads_.end() ? Tensor() : g->second);
        }
        if (std::none_of(resultGrads.begin(), resultGrads.end(), [](const Tensor& g) { return g.defined(); })) return;
        joint_.differentiating = c.node;
        std::vector<TensorSlot> slots = tensorSlots(c.args);
        std::vector<Tensor> argGrads = slotGradients(*c.op, c.args, c.result, resultGrads[0], slots, nullptr, &resultGrads);
        for (size_t s = 0; s < slots.size(); ++s) {
            const Tensor& arg = slotTensor(c.args, slots[s]);
            if (argGrads[s].defined() && arg.defined() && arg.requiresGrad()) accumulate(arg, argGrads[s]);
        }
    }

    static ValueMap placeholders(GraphBuilder& b, const std::vector<Node*>& primals) {
        ValueMap values;
        for (Node* p : primals) values[{p, -1}] = Argument::ref(namedPlaceholder(b, p->name, p->meta[0], p->capturedName));
        return values;
    }

    const Graph& graph_;
    const std::vector<bool> requiresGrad_;
    TracedJoint joint_;
    GraphBuilder& b_ = joint_.b;
    ValueMap fromCaptured_;
    std::vector<Node*> primals_, tangents_;
    std::vector<ForwardCall> calls_;
    std::vector<Argument> userOutputs_, inputGrads_;
    std::unordered_map<const TensorImpl*, Tensor> grads_;  // a traced value's gradient so far
    std::vector<const Node*> backwardCalls_;               // the live recorded calls, in order
    std::vector<ValueKey> saved_;                          // forward values and inputs the backward reads
    AotGraphs out_;
};

}  // namespace

AotGraphs aotGraphs(const Graph& graph, const std::vector<bool>& inputRequiresGrad) {
    GradModeGuard noGrad(false);
    AotTracer tracer(graph, inputRequiresGrad);
    try {
        tracer.traceForward();
        tracer.traceBackward();
        tracer.partition();
        tracer.copyJoint();
        tracer.copyForward();
        tracer.copyBackward();
    } catch (const AotUnsupported&) {
        throw;
    } catch (const SymbolicSizesUnsupported&) {
        throw;  // the whole graph runs eagerly (CheckedCompiler), its backward as eager's
    } catch (const Error& e) {  // an op the meta tensors cannot take, a derivative that raises
        throw AotUnsupported(e.what());
    }
    return tracer.result();
}

}  // namespace fusescope
