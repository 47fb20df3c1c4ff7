#include "decompose/graph_builder.h"

#include <algorithm>
#include <map>

#include "core/error.h"

namespace fusescope {

namespace {

// Binary ops printed as Python operators, as a script would write them.
const std::map<std::string, std::string>& operatorSymbols() {
    static const std::map<std::string, std::string> symbols = {{"add", "+"}, {"sub", "-"}, {"mul", "*"}, {"div", "/"}};
    return symbols;
}

CallStyle styleFor(const OpDef& def) {
    if (def.isFunction) return CallStyle::TorchFunction;
    if (def.isMethod) return CallStyle::Method;
    return CallStyle::Functional;
}

TensorMeta metaOf(const Tensor& t) { return TensorMeta{t.sizes(), t.strides(), t.dtype(), {}}; }

void collectImpls(const IValue& v, std::vector<const TensorImpl*>& out) {
    if (v.isTensor() && v.toTensor().defined()) out.push_back(v.toTensor().impl());
    if (v.isSequence())
        for (const IValue& item : v.toSequence()->items) collectImpls(item, out);
}

// A result that is one of the call's inputs (contiguous() of a contiguous tensor) as an
// object of its own: every node's value is its own, as passes that key values by tensor
// (AOT Autograd's gradients) need.
IValue ownResult(const IValue& result, const IValueList& args, const Kwargs& kwargs) {
    std::vector<const TensorImpl*> inputs;
    for (const IValue& v : args) collectImpls(v, inputs);
    for (const auto& kv : kwargs) collectImpls(kv.second, inputs);
    auto own = [&inputs](const IValue& v) {
        if (!v.isTensor() || !v.toTensor().defined() || std::find(inputs.begin(), inputs.end(), v.toTensor().impl()) == inputs.end())
            return v;
        const Tensor& t = v.toTensor();
        return IValue(Tensor::emptyMeta(t.sizes(), t.strides(), t.dtype()));
    };
    if (!result.isSequence()) return own(result);
    IValueList items;
    for (const IValue& item : result.toSequence()->items) items.push_back(own(item));
    return result.toSequence()->isTuple ? IValue::tuple(std::move(items)) : IValue::list(std::move(items));
}

}  // namespace

Node* GraphBuilder::placeholder(const std::string& source, const TensorMeta& meta, const std::string& name) {
    Node* node = graph_.addPlaceholder(source, meta, name);
    Tensor example = Tensor::emptyMeta(meta.sizes, meta.strides, meta.dtype);
    if (meta.symbols.size() == meta.sizes.size()) symbolic_.addInput(node, example);
    values_[node] = IValue(example);
    return node;
}

Node* GraphBuilder::call(const std::string& target, std::vector<Argument> args, ArgumentKwargs kwargs) {
    IValueList argValues;
    for (const Argument& a : args) argValues.push_back(value(a));
    Kwargs kwargValues;
    for (const auto& [name, a] : kwargs) kwargValues.emplace_back(name, value(a));
    auto [def, bound] = OpRegistry::instance().resolve(target, argValues, kwargValues);
    if (!def->infer) throw Error("internal error: op '" + def->name + "' has no shape inference");
    IValue result = ownResult(def->infer(bound), argValues, kwargValues);

    auto symbol = operatorSymbols().find(target);
    bool asOperator = symbol != operatorSymbols().end() && args.size() == 2 && kwargs.empty();
    CallStyle style = asOperator ? CallStyle::Operator : styleFor(*def);
    Node* node = graph_.addCall(style == CallStyle::Method ? NodeOp::CallMethod : NodeOp::CallFunction, target, style,
                                std::move(args), std::move(kwargs));
    if (asOperator) node->operatorSymbol = symbol->second;
    if (result.isTensor()) {
        node->meta.push_back(metaOf(result.toTensor()));
    } else if (result.isSequence()) {
        node->returnsTuple = true;
        for (const IValue& item : result.toSequence()->items)
            if (item.isTensor()) node->meta.push_back(metaOf(item.toTensor()));
    }
    values_[node] = std::move(result);
    symbolic_.addCall(node, *def);
    return node;
}

IValue GraphBuilder::value(const Argument& arg) const {
    auto resultOf = [this](const Node* n) -> const IValue* {
        auto it = values_.find(n);
        return it == values_.end() ? nullptr : &it->second;
    };
    std::optional<IValue> v = argumentValue(arg, resultOf);
    if (!v) throw Error("internal error: an argument refers to a node this graph builder did not make");
    return *v;
}

TensorMeta GraphBuilder::meta(const Argument& tensor) const {
    if (tensor.kind == Argument::Kind::NodeRef)
        return tensor.node->meta.at(tensor.outputIndex < 0 ? 0 : static_cast<size_t>(tensor.outputIndex));
    IValue v = value(tensor);
    if (!v.isTensor()) throw Error("internal error: the metadata of a non-tensor argument was asked for");
    return metaOf(v.toTensor());
}

}  // namespace fusescope
