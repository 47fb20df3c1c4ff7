#include "aot/aot_graphs.h"

#include <cstdlib>
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

// A call a derivative made while the graph's dynamic sizes were shifted (the shadow trace):
// a dynamic graph's trace compares the arguments of its own calls with these.
struct ShadowCall {
    std::string op;
    IValueList args;
    Kwargs kwargs;
};

// The joint graph as it is traced: primals, tangents, the forward's calls, then every call
// the derivatives made (the engine's op calls, recorded while it is installed). Tensors it
// has seen are references to the node that made them; others are constants.
//
// A graph of dynamic sizes is traced twice, at its example sizes and at sizes shifted by
// each symbol's offset (symbolic_sizes.h): a derivative's argument that differs between the
// two (expand(grad, [2, 3]) and [1000005, 3]) depends on the sizes, and becomes a SymInt
// node computing it (sym_size of an input, times 3); a float that differs (1/numel) cannot,
// and the graph is not differentiated here.
class TracedJoint : public OpRecorder {
public:
    Graph graph;
    GraphBuilder b{graph};
    std::vector<Node*> backwardCalls;
    const Node* differentiating = nullptr;  // the forward call whose derivative is recorded
    std::vector<ShadowCall>* shadowCalls = nullptr;     // the shadow trace records its calls here
    const std::vector<ShadowCall>* shadowOf = nullptr;  // a dynamic graph's trace compares with these
    std::vector<ShiftedSymbol> symbols;
    std::function<Argument(const SizeForm&)> sizeNode;  // the node computing a size of that form
    size_t compared = 0;

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
        if (shadowCalls) shadowCalls->push_back({std::string(op), args, kwargs});
        const ShadowCall* shadow = shadowOf ? &shadowCallFor(op, args, kwargs) : nullptr;
        std::vector<Argument> a;
        for (size_t i = 0; i < args.size(); ++i) a.push_back(shadow ? generalized(args[i], shadow->args[i], op) : argumentOf(args[i]));
        ArgumentKwargs kw;
        for (size_t i = 0; i < kwargs.size(); ++i)
            kw.emplace_back(kwargs[i].first, shadow ? generalized(kwargs[i].second, shadow->kwargs[i].second, op) : argumentOf(kwargs[i].second));
        Node* n = b.call(std::string(op), std::move(a), std::move(kw));
        if (differentiating) copyProvenance(*differentiating, *n);  // a backward node points at the forward node it differentiates
        backwardCalls.push_back(n);
        remember(n);
        return b.value(Argument::ref(n));
    }

private:
    const ShadowCall& shadowCallFor(std::string_view op, const IValueList& args, const Kwargs& kwargs) {
        const ShadowCall* shadow = compared < shadowOf->size() ? &(*shadowOf)[compared++] : nullptr;
        if (!shadow || shadow->op != op || shadow->args.size() != args.size() || shadow->kwargs.size() != kwargs.size())
            throw AotUnsupported(fmt::format("a derivative calls other ops at other sizes ({})", op));
        return *shadow;
    }
    // An argument as the trace at the example sizes gave it (`real`), with what the shadow
    // trace gave in its place: a size that differs is computed from the symbols.
    Argument generalized(const IValue& real, const IValue& shadow, std::string_view op) const {
        if (real.isInt() && shadow.isInt()) {
            if (real.toInt() == shadow.toInt()) return Argument::value(real);
            std::optional<SizeForm> form = sizeForm(real.toInt(), shadow.toInt(), symbols);
            if (!form) throw AotUnsupported(fmt::format("a derivative calls {} with a size Fusescope cannot express in the dynamic sizes", op));
            return sizeNode(*form);
        }
        if (real.isDouble() && shadow.isDouble() && real.toDouble() != shadow.toDouble())
            throw AotUnsupported(fmt::format("a derivative calls {} with a float computed from a dynamic size", op));
        if (real.isSequence() && shadow.isSequence()) {
            const IValueList &items = real.toSequence()->items, &shadowItems = shadow.toSequence()->items;
            if (items.size() != shadowItems.size()) throw AotUnsupported(fmt::format("a derivative calls {} with lists of other lengths at other sizes", op));
            std::vector<Argument> generalizedItems;
            for (size_t i = 0; i < items.size(); ++i) generalizedItems.push_back(generalized(items[i], shadowItems[i], op));
            return Argument::sequence(std::move(generalizedItems), real.toSequence()->isTuple);
        }
        Argument a = argumentOf(real);
        if (a.kind == Argument::Kind::Constant && real.isTensor() && shadow.isTensor() && real.toTensor().defined() &&
            shadow.toTensor().defined() && !sameConstant(real.toTensor(), shadow.toTensor()))
            throw AotUnsupported(fmt::format("a derivative calls {} with a tensor made from a dynamic size", op));
        return a;
    }

    // A constant tensor a derivative made (a scalar exponent) holds the same at both sizes.
    static bool sameConstant(const Tensor& real, const Tensor& shadow) {
        if (real.sizes() != shadow.sizes() || real.dtype() != shadow.dtype()) return false;
        if (real.isMeta() || shadow.isMeta()) return true;
        for (int64_t i = 0; i < real.numel(); ++i)  // read directly: the dispatcher records while this runs
            if (real.readDouble(i) != shadow.readDouble(i)) return false;
        return true;
    }

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

// How a trace takes a graph's dynamic sizes (none: Static).
enum class TracedSizes { Static, Shifted, Symbolic };

// Traces the joint graph of a captured graph, then partitions it: each step one method,
// run in the order aotGraphs calls them.
class AotTracer {
public:
    AotTracer(const Graph& graph, std::vector<bool> inputRequiresGrad, TracedSizes sizes, const std::vector<ShadowCall>* shadow = nullptr)
        : graph_(graph), requiresGrad_(std::move(inputRequiresGrad)), sizes_(sizes) {
        for (const auto& n : graph.nodes())
            if (n->op == NodeOp::Placeholder)
                for (size_t d = 0; d < n->meta.at(0).symbols.size(); ++d) {
                    const std::string& symbol = n->meta[0].symbols[d];
                    bool known = std::any_of(joint_.symbols.begin(), joint_.symbols.end(), [&](const ShiftedSymbol& s) { return s.name == symbol; });
                    if (!symbol.empty() && !known)
                        joint_.symbols.push_back(ShiftedSymbol{symbol, n->meta[0].sizes[d], shiftFor(joint_.symbols.size())});
                }
        if (sizes == TracedSizes::Shifted) joint_.shadowCalls = &shadowCalls_;
        if (sizes == TracedSizes::Symbolic) {
            joint_.shadowOf = shadow;
            joint_.sizeNode = [this](const SizeForm& form) { return sizeNode(form); };
        }
    }
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
            TensorMeta meta{t.sizes(), contiguousStrides(t.sizes()), t.dtype(), {}};
            if (sizes_ == TracedSizes::Symbolic) meta.symbols = plainSymbols(b_.meta(userOutputs_[o]), "an output");
            Node* tangent = namedPlaceholder(b_, fmt::format("tangents_{}", tangents_.size() + 1), meta);
            joint_.remember(tangent);
            tangents_.push_back(tangent);
            out_.outputsWithTangent.push_back(o);
            accumulate(t, b_.value(Argument::ref(tangent)).toTensor());
        }
        for (auto c = calls_.rbegin(); c != calls_.rend(); ++c) differentiate(*c);
        if (joint_.shadowOf && joint_.compared != joint_.shadowOf->size())
            throw AotUnsupported("the derivatives call other ops at other sizes");
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
        for (size_t s = 0; s < saved_.size(); ++s) {
            plainSymbols(out_.saved[s].meta, "a value saved for backward");
            values[saved_[s]] = Argument::ref(namedPlaceholder(b, out_.saved[s].name, out_.saved[s].meta, saved_[s].first->capturedName));
        }
        for (Node* t : tangents_) values[{t, -1}] = Argument::ref(namedPlaceholder(b, t->name, t->meta[0]));
        for (const Node* n : backwardCalls_) copyCall(b, *n, values);
        std::vector<Argument> outputs;
        for (const Argument& a : inputGrads_) outputs.push_back(mapped(a, values));
        out_.backward->setOutputs(std::move(outputs));
    }

    AotGraphs result() { return std::move(out_); }
    std::vector<ShadowCall> shadowCalls() { return std::move(shadowCalls_); }

private:
    // A graph input's meta at the shifted sizes: each dynamic dim its hint plus its symbol's
    // offset (contiguous inputs only: their strides follow).
    TensorMeta shifted(const TensorMeta& meta, const std::string& name) const {
        if (meta.strides != contiguousStrides(meta.sizes))
            throw AotUnsupported(fmt::format("{} has a dynamic size and is not contiguous", name));
        TensorMeta out = meta;
        for (size_t d = 0; d < meta.symbols.size(); ++d)
            for (const ShiftedSymbol& s : joint_.symbols)
                if (s.name == meta.symbols[d]) out.sizes[d] += s.offset;
        out.strides = contiguousStrides(out.sizes);
        out.symbols.clear();
        return out;
    }

    // A meta's symbols, each a dim's own symbol: a graph input whose size is an expression
    // ("2*s0") would make it a symbol of its own.
    std::vector<std::string> plainSymbols(const TensorMeta& meta, const char* what) const {
        for (const std::string& symbol : meta.symbols)
            if (!symbol.empty() && std::none_of(joint_.symbols.begin(), joint_.symbols.end(), [&](const ShiftedSymbol& s) { return s.name == symbol; }))
                throw AotUnsupported(fmt::format("{} has a size that is an expression of the dynamic sizes ({})", what, symbol));
        return meta.symbols;
    }

    // A SymInt node computing c*a + k (or c*a*b) from the inputs' sizes: what the backward
    // needs where the example's size was given (PyTorch saves such SymInts for backward).
    Argument sizeNode(const SizeForm& form) {
        // Printed as Dynamo's: torch.ops.aten.sym_size.int(primals_1, 0), then operators.
        auto record = [&](const std::string& op, std::vector<Argument> args, const std::string& expression) {
            Node* n = b_.call(op, std::move(args));
            n->symbolicScalar = expression;
            n->style = op == "sym_size" ? CallStyle::TorchFunction : CallStyle::Operator;
            n->operatorSymbol = op == "sym_mul" ? "*" : op == "sym_add" ? "+" : op == "sym_sub" ? "-" : "";
            if (joint_.differentiating) copyProvenance(*joint_.differentiating, *n);
            joint_.backwardCalls.push_back(n);
            return n;
        };
        auto symbolNode = [&](size_t i) {  // one per symbol
            const std::string& name = joint_.symbols[i].name;
            auto made = symbolNodes_.find(name);
            if (made != symbolNodes_.end()) return made->second;
            auto [node, dim] = symbolSources_.at(name);
            return symbolNodes_[name] = record("sym_size", {Argument::ref(node), Argument::value(IValue(static_cast<int64_t>(dim)))}, name);
        };
        std::string expression = joint_.symbols[form.a].name;
        Node* n = symbolNode(form.a);
        if (form.b) {
            expression += "*" + joint_.symbols[*form.b].name;
            n = record("sym_mul", {Argument::ref(n), Argument::ref(symbolNode(*form.b))}, expression);
        }
        if (form.coefficient != 1) {
            expression = fmt::format("{}*{}", form.coefficient, expression);
            n = record("sym_mul", {Argument::ref(n), Argument::value(IValue(form.coefficient))}, expression);
        }
        if (form.constant != 0) {
            expression = fmt::format("{} {} {}", expression, form.constant > 0 ? '+' : '-', std::abs(form.constant));
            n = record(form.constant > 0 ? "sym_add" : "sym_sub", {Argument::ref(n), Argument::value(IValue(std::abs(form.constant)))}, expression);
        }
        return Argument::ref(n);
    }

    void addPrimal(const Node& n) {
        const TensorMeta meta = sizes_ == TracedSizes::Shifted ? shifted(n.meta.at(0), n.name) : n.meta.at(0);
        Node* p = namedPlaceholder(b_, fmt::format("primals_{}", primals_.size() + 1), meta, n.name);
        for (size_t d = 0; d < meta.symbols.size(); ++d)
            if (!meta.symbols[d].empty()) symbolSources_.emplace(meta.symbols[d], std::make_pair(p, d));
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
    const TracedSizes sizes_;
    TracedJoint joint_;
    std::vector<ShadowCall> shadowCalls_;
    std::map<std::string, std::pair<Node*, size_t>> symbolSources_;  // a dim of an input for each symbol
    std::map<std::string, Node*> symbolNodes_;                       // the sym_size node reading it
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
    const bool dynamic = std::any_of(graph.nodes().begin(), graph.nodes().end(), [](const auto& n) {
        return n->op == NodeOp::Placeholder &&
               std::any_of(n->meta.at(0).symbols.begin(), n->meta.at(0).symbols.end(), [](const std::string& s) { return !s.empty(); });
    });
    try {
        std::vector<ShadowCall> shadow;
        if (dynamic) {
            AotTracer shifted(graph, inputRequiresGrad, TracedSizes::Shifted);
            shifted.traceForward();
            shifted.traceBackward();
            shadow = shifted.shadowCalls();
        }
        AotTracer tracer(graph, inputRequiresGrad, dynamic ? TracedSizes::Symbolic : TracedSizes::Static, &shadow);
        tracer.traceForward();
        tracer.traceBackward();
        tracer.partition();
        tracer.copyJoint();
        tracer.copyForward();
        tracer.copyBackward();
        return tracer.result();
    } catch (const AotUnsupported&) {
        throw;
    } catch (const Error& e) {  // an op the meta tensors cannot take, a derivative that raises, sizes it cannot follow
        throw AotUnsupported(e.what());
    }
}

}  // namespace fusescope
