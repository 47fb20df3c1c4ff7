#include "decompose/decompose.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numbers>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>

#include "core/error.h"
#include "core/test_hooks.h"
#include "decompose/graph_builder.h"
#include "decompose/rewrite.h"

namespace fusescope {

namespace {

// ---- the pass ------------------------------------------------------------------------

// The decomposed value with the composite's dtype (low-precision results are rounded here)
// and, where the composite's result was contiguous, its layout.
Argument matchResult(Rewrite& r, Argument y) {
    const TensorMeta& want = r.result();
    if (r.meta(y).dtype != want.dtype) y = r.call("to", {y, constant(want.dtype)});
    if (r.meta(y).strides != want.strides && want.strides == contiguousStrides(want.sizes)) y = r.call("contiguous", {y});
    TensorMeta got = r.meta(y);
    if (got.sizes != want.sizes || got.dtype != want.dtype)
        throw Error(fmt::format("internal error: decomposing {} gave {} instead of {}", r.opName(), got.str(), want.str()));
    return y;
}

// A Python number where the schema wants a tensor (torch.square(3)): rare enough to leave
// the op as it is rather than make every decomposition handle constants.
bool passesNumberForTensor(const BoundArgs& bound) {
    return std::any_of(bound.values_.begin(), bound.values_.end(),
                       [](const IValue& v) { return v.isTensor() && v.toTensor().impl()->wrappedNumber; });
}

// Decompositions are written for real values: a complex op keeps its complex form.
bool touchesComplex(const Node& node, const BoundArgs& bound) {
    if (isComplex(node.meta.at(0).dtype)) return true;
    return std::any_of(bound.values_.begin(), bound.values_.end(),
                       [](const IValue& v) { return v.isTensor() && v.toTensor().defined() && isComplex(v.toTensor().dtype()); });
}

std::optional<Argument> decompose(GraphBuilder& builder, const Node& node, const std::vector<Argument>& args,
                                  const ArgumentKwargs& kwargs, bool aotOnly, const TestHooks& hooks) {
    if (node.returnsTuple || node.meta.size() != 1) return std::nullopt;
    IValueList argValues;
    for (const Argument& a : args) argValues.push_back(builder.value(a));
    Kwargs kwargValues;
    for (const auto& [name, a] : kwargs) kwargValues.emplace_back(name, builder.value(a));
    auto [def, bound] = OpRegistry::instance().resolve(node.target, argValues, kwargValues);
    const OpDecomposition* rule = def->decomposition.get();
    if (!rule || (aotOnly && !rule->inAot) || passesNumberForTensor(bound) || touchesComplex(node, bound)) return std::nullopt;
    Rewrite rewrite(builder, node, *def, std::move(bound), args, kwargs, hooks);
    std::optional<Argument> result = rule->rewrite(rewrite);
    if (!result) return std::nullopt;
    return matchResult(rewrite, *result);
}

Argument copyCall(GraphBuilder& builder, const Node& node, std::vector<Argument> args, ArgumentKwargs kwargs) {
    Node* copy = builder.call(node.target, std::move(args), std::move(kwargs));
    copy->op = node.op;
    copy->style = node.style;
    copy->operatorSymbol = node.operatorSymbol;
    copy->meta = node.meta;
    copy->returnsTuple = node.returnsTuple;
    copy->symbolicScalar = node.symbolicScalar;
    copyProvenance(node, *copy);
    return Argument::ref(copy);
}

// An argument of the old graph in terms of the new one.
Argument remap(const Argument& arg, const std::unordered_map<const Node*, Argument>& values) {
    switch (arg.kind) {
    case Argument::Kind::NodeRef: {
        const Argument& value = values.at(arg.node);
        return arg.outputIndex < 0 ? value : Argument::ref(value.node, arg.outputIndex);
    }
    case Argument::Kind::Constant: return arg;
    case Argument::Kind::List:
    case Argument::Kind::Tuple: {
        std::vector<Argument> items;
        for (const Argument& item : arg.items) items.push_back(remap(item, values));
        return Argument::sequence(std::move(items), arg.kind == Argument::Kind::Tuple);
    }
    }
    return arg;
}

std::shared_ptr<Graph> decomposeGraph(const Graph& graph, bool aotOnly, const TestHooks& hooks) {
    auto result = std::make_shared<Graph>();
    GraphBuilder builder(*result);
    std::unordered_map<const Node*, Argument> values;  // each old node's value in the new graph
    for (const auto& node : graph.nodes()) {
        if (node->op == NodeOp::Placeholder) {
            Node* input = builder.placeholder(node->target, node->meta.at(0), node->name);
            copyProvenance(*node, *input);
            values[node.get()] = Argument::ref(input);
            continue;
        }
        std::vector<Argument> args;
        for (const Argument& a : node->args) args.push_back(remap(a, values));
        ArgumentKwargs kwargs;
        for (const auto& [name, a] : node->kwargs) kwargs.emplace_back(name, remap(a, values));
        std::optional<Argument> decomposed = decompose(builder, *node, args, kwargs, aotOnly, hooks);
        values[node.get()] = decomposed ? *decomposed : copyCall(builder, *node, std::move(args), std::move(kwargs));
    }
    std::vector<Argument> outputs;
    for (const Argument& out : graph.outputs()) outputs.push_back(remap(out, values));
    result->setOutputs(std::move(outputs));
    return result;
}

}  // namespace

std::shared_ptr<Graph> decomposeForInductor(const Graph& graph, const TestHooks& hooks) {
    return decomposeGraph(graph, false, hooks);
}
std::shared_ptr<Graph> decomposeForAot(const Graph& graph, const TestHooks& hooks) { return decomposeGraph(graph, true, hooks); }

}  // namespace fusescope
