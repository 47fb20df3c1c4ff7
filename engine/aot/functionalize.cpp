#include "aot/functionalize.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "aot/aot_graphs.h"
#include "decompose/graph_copy.h"
#include "decompose/rewrite.h"

namespace fusescope {

namespace {

bool isInPlace(const Node& n) { return n.op != NodeOp::Placeholder && n.op != NodeOp::Output && !n.target.empty() && n.target.back() == '_'; }

bool mayAlias(const Node& n) {
    if (n.op != NodeOp::CallFunction && n.op != NodeOp::CallMethod) return false;
    const OpDef* def = OpRegistry::instance().find(n.target);
    return def && def->mayAlias;
}

class Functionalizer {
public:
    Functionalizer(const Graph& graph, const std::vector<bool>& requiresGrad) : graph_(graph), requiresGrad_(requiresGrad) {
        for (const auto& n : graph.nodes()) {
            if (n->op == NodeOp::Placeholder) {
                size_t number = inputNumber_.size();
                inputNumber_[n.get()] = number;
            }
            forEachRef(*n, [&](const Argument& a) {
                lastUse_[a.node] = std::max(lastUse_[a.node], n->index);
                readers_[a.node].push_back(n.get());
            });
            // Whether a gradient can flow from an input that requires grad into its value.
            bool graded = n->op == NodeOp::Placeholder ? inputNumber_[n.get()] < requiresGrad.size() && requiresGrad[inputNumber_[n.get()]]
                                                       : n->gradEnabled;
            if (n->op != NodeOp::Placeholder && graded) {
                graded = false;
                forEachRef(*n, [&](const Argument& a) { graded = graded || gradFlows_.count(a.node); });
            }
            if (graded) gradFlows_.insert(n.get());
        }
        for (const Argument& a : graph.outputs())
            forEachRef(a, [&](const Argument& r) { lastUse_[r.node] = static_cast<int>(graph.nodes().size()); });
    }

    FunctionalGraph run() {
        out_.graph = std::make_shared<Graph>();
        GraphBuilder b(*out_.graph);
        std::vector<Node*> placeholders;
        for (const auto& n : graph_.nodes()) {
            if (n->op == NodeOp::Placeholder) {
                Node* p = b.placeholder(n->target, n->meta.at(0), n->name);
                p->capturedName = n->name;
                values_[{n.get(), -1}] = Argument::ref(p);
                placeholders.push_back(n.get());
            } else if (isInPlace(*n)) {
                functional(b, *n);
            } else if (n->op != NodeOp::Output) {
                if (mayAlias(*n) && !n->args.empty() && n->args[0].kind == Argument::Kind::NodeRef) {
                    const Node* of = base(n->args[0]);  // a view of a view views the same tensor
                    viewBase_[n.get()] = viewBase_.count(of) ? viewBase_.at(of) : of;
                }
                copyCall(b, *n, values_);
            }
        }
        std::vector<Argument> outputs;
        for (const Argument& a : graph_.outputs()) {
            outputs.push_back(mapped(a, values_));
            int input = -1;
            auto last = a.kind == Argument::Kind::NodeRef ? lastChange_.find(base(a)) : lastChange_.end();
            if (last != lastChange_.end() && last->second == a.node) input = static_cast<int>(inputNumber_.at(last->first));
            out_.outputIsInput.push_back(input);
        }
        out_.userOutputs = outputs.size();
        for (size_t i = 0; i < placeholders.size(); ++i) {
            auto last = lastChange_.find(placeholders[i]);
            if (last == lastChange_.end()) continue;
            outputs.push_back(values_.at({last->second, -1}));
            out_.changedInputs.push_back(i);
        }
        out_.graph->setOutputs(std::move(outputs));
        return std::move(out_);
    }

private:
    // The value an argument changes when changed in place: past in-place calls to the tensor
    // they were called on.
    static Argument namedArgument(const Node& n, const ArgumentKwargs& kwargs, const std::string& name) {
        for (const auto& [k, v] : kwargs)
            if (k == name) return v;
        throw AotUnsupported(fmt::format("{} without its {} argument", n.target, name));
    }

    const Node* base(const Argument& a) const {
        const Node* n = a.node;
        while (n && isInPlace(*n) && !n->args.empty()) n = n->args[0].node;
        return n;
    }

    void functional(GraphBuilder& b, const Node& n) {
        const Argument& self = n.args.at(0);
        if (self.kind != Argument::Kind::NodeRef) throw AotUnsupported(fmt::format("{} changes a constant in place", n.name));
        const Node* changed = base(self);
        if (viewBase_.count(changed))
            throw AotUnsupported(fmt::format("{} changes {}, a view, in place (its base would change too)", n.name, changed->name));
        for (const auto& [view, of] : viewBase_)
            if (of == changed && lastUse_[view] > n.index)
                throw AotUnsupported(fmt::format("{} changes {} in place while {}, a view of it, is read afterwards", n.name,
                                                 changed->name, view->name));
        auto input = inputNumber_.find(changed);
        const bool inputGraded = input != inputNumber_.end() && input->second < requiresGrad_.size() && requiresGrad_[input->second];
        if (inputGraded && n.gradEnabled)
            throw AotUnsupported(fmt::format("{} changes {}, which requires grad, in place", n.name, changed->name));
        // Changed under no_grad, an input that requires grad must not be read in grad mode
        // afterwards: its gradient would flow through the new value, which has none.
        if (inputGraded)
            for (const Node* reader : readers_[&n])
                if (reader->gradEnabled && !(isInPlace(*reader) && base(reader->args.at(0)) == changed))
                    throw AotUnsupported(fmt::format("{} changes {}, which requires grad, under no_grad and {} reads it in grad mode",
                                                     n.name, changed->name, reader->name));
        // An input given a value a gradient flows into would need a backward node of its own.
        if (input != inputNumber_.end() && n.gradEnabled && gradFlows_.count(&n))
            throw AotUnsupported(fmt::format("{} gives {} a value that requires grad", n.name, changed->name));

        const size_t before = out_.graph->nodes().size();
        Argument value = functionalValue(b, n);
        for (size_t k = before; k < out_.graph->nodes().size(); ++k) copyProvenance(n, *out_.graph->nodes()[k]);  // the calls made for it
        values_[{&n, -1}] = value;
        if (changed->op == NodeOp::Placeholder) lastChange_[changed] = &n;
        ++out_.inPlaceCalls;
    }

    // The value the in-place call `n` leaves in self, as functional calls.
    Argument functionalValue(GraphBuilder& b, const Node& n) {
        const TensorMeta& self = n.meta.at(0);
        Argument selfValue = mapped(n.args[0], values_);
        std::vector<Argument> args;
        for (const Argument& a : n.args) args.push_back(mapped(a, values_));
        ArgumentKwargs kwargs;
        for (const auto& [name, a] : n.kwargs) kwargs.emplace_back(name, mapped(a, values_));
        Argument value;
        if (n.target == "copy_") {
            value = args.size() > 1 ? args[1] : namedArgument(n, kwargs, "src");
            // The source's own node keeps its grad mode: copied under no_grad, no gradient flows.
            if (!n.gradEnabled) value = Argument::ref(b.call("detach", {value}));
        } else if (n.target == "zero_") {
            value = Argument::ref(b.call("zeros_like", {selfValue}));
        } else if (n.target == "fill_") {
            value = Argument::ref(b.call("full_like", {selfValue, args.size() > 1 ? args[1] : namedArgument(n, kwargs, "value")}));
        } else {
            std::string name = n.target.substr(0, n.target.size() - 1);
            try {
                value = Argument::ref(b.call(name, std::move(args), std::move(kwargs)));
            } catch (const Error& e) {
                throw AotUnsupported(fmt::format("{} has no functional form here ({})", n.target, e.what()));
            }
        }
        // In self's dtype and shape, as the in-place op writes it.
        if (b.meta(value).dtype != self.dtype) value = Argument::ref(b.call("to", {value, Argument::value(IValue(self.dtype))}));
        if (b.meta(value).sizes != self.sizes)  // its own memory, as self's: later in-place writes must not meet a stride 0
            value = Argument::ref(b.call("contiguous", {Argument::ref(b.call("expand", {value, Argument::value(IValue::intList(self.sizes))}))}));
        return value;
    }

    const Graph& graph_;
    const std::vector<bool>& requiresGrad_;
    FunctionalGraph out_;
    ValueMap values_;
    std::map<const Node*, std::vector<const Node*>> readers_;  // the nodes reading each value
    std::set<const Node*> gradFlows_;                     // values a gradient can flow into
    std::map<const Node*, size_t> inputNumber_;           // each placeholder's place among them
    std::map<const Node*, int> lastUse_;                  // the last node (or the output) reading each value
    std::map<const Node*, const Node*> viewBase_;         // each view -> the value it views
    std::map<const Node*, const Node*> lastChange_;       // each changed input -> its last in-place call
};

}  // namespace

std::optional<FunctionalGraph> functionalize(const Graph& graph, const std::vector<bool>& inputRequiresGrad) {
    if (std::none_of(graph.nodes().begin(), graph.nodes().end(), [](const auto& n) { return isInPlace(*n); })) return std::nullopt;
    try {
        return Functionalizer(graph, inputRequiresGrad).run();
    } catch (const AotUnsupported&) {
        throw;
    } catch (const Error& e) {
        throw AotUnsupported(e.what());
    }
}

}  // namespace fusescope
