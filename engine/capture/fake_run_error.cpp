#include "capture/fake_run_error.h"

#include <optional>

#include <fmt/format.h>

#include "graph/graph_printer.h"
#include "script/value.h"

namespace fusescope {

namespace {

const TensorMeta& metaOf(const Argument& a) { return a.node->meta.at(a.outputIndex < 0 ? 0 : static_cast<size_t>(a.outputIndex)); }

// A size of a graph value as the fake tensor prints it: its symbol's expression where dynamic.
std::vector<std::string> sizesOf(const Argument& a) {
    const TensorMeta& meta = metaOf(a);
    std::vector<std::string> sizes;
    for (size_t d = 0; d < meta.sizes.size(); ++d)
        sizes.push_back(d < meta.symbols.size() && !meta.symbols[d].empty() ? meta.symbols[d] : std::to_string(meta.sizes[d]));
    return sizes;
}

bool isTensorRef(const Argument& a) {
    return a.kind == Argument::Kind::NodeRef && a.node && !a.node->meta.empty() && a.node->symbolicScalar.empty();
}

// FakeTensor(..., size=(2, s27)), Parameter(...) around a parameter's; its dtype and
// requires_grad said as a tensor's repr says them.
std::string fakeRepr(const Argument& a, const IValue& real) {
    if (!isTensorRef(a)) return a.kind == Argument::Kind::Constant ? constantRepr(a.constant) : "...";
    const std::vector<std::string> sizes = sizesOf(a);
    const TensorMeta& meta = metaOf(a);
    std::string text = fmt::format("FakeTensor(..., size=({}{}))", fmt::join(sizes, ", "), sizes.size() == 1 ? "," : "");
    if (meta.dtype != DType::Float32) text.insert(text.size() - 1, fmt::format(", dtype={}", dtypeName(meta.dtype)));
    const bool tensor = real.isTensor() && real.toTensor().defined();
    if (tensor && real.toTensor().requiresGrad()) text.insert(text.size() - 1, ", requires_grad=True");
    return tensor && real.toTensor().impl()->isParameter ? "Parameter(" + text + ")" : text;
}

// How the FX node's target prints: a method's name, else the function object's repr.
std::string targetRepr(const OpDef& op, CallStyle style) {
    const std::string name(baseOpName(op.name));
    switch (style) {
    case CallStyle::Method: return name;
    case CallStyle::Operator: return "<built-in function " + pythonOperatorName(name) + ">";
    case CallStyle::Functional:  // torch.nn.functional's builtins from torch._C._nn, else its Python functions
        if (name == "linear" || name == "bilinear") return "<built-in function " + name + ">";
        return fmt::format("<function {} at 0x{:x}>", name, reinterpret_cast<uintptr_t>(&op));
    case CallStyle::TorchFunction: return fmt::format("<built-in method {} of type object at 0x{:x}>", name, reinterpret_cast<uintptr_t>(&op));
    }
    return name;
}

// The fake kernel's words: a matrix product of 2-D operands whose reduction dims differ (the
// meta kernel of mm, which linear and matmul use); nullopt for another error.
std::optional<std::string> fakeKernelMessage(const OpDef& op, const std::vector<Argument>& nodeArgs) {
    const std::string name(baseOpName(op.name));
    if ((name != "linear" && name != "mm" && name != "matmul") || nodeArgs.size() < 2 || !isTensorRef(nodeArgs[0]) ||
        !isTensorRef(nodeArgs[1]))
        return std::nullopt;
    std::vector<std::string> a = sizesOf(nodeArgs[0]), b = sizesOf(nodeArgs[1]);
    if (a.size() != 2 || b.size() != 2) return std::nullopt;
    if (name == "linear") std::swap(b[0], b[1]);  // the weight, transposed
    if (a[1] == b[0]) return std::nullopt;
    return fmt::format("a and b must have same reduction dim, but got [{}, {}] X [{}, {}].", a[0], a[1], b[0], b[1]);
}

}  // namespace

std::optional<std::string> fakeRunError(const OpDef& op, CallStyle style, const IValueList& args, const std::vector<Argument>& nodeArgs,
                                        const std::vector<std::pair<std::string, Argument>>& nodeKwargs, const ScriptError& error) {
    std::optional<std::string> message = fakeKernelMessage(op, nodeArgs);
    if (!message) return std::nullopt;
    std::vector<std::string> positional;
    for (size_t i = 0; i < nodeArgs.size(); ++i) positional.push_back(fakeRepr(nodeArgs[i], i < args.size() ? args[i] : IValue()));
    std::vector<std::string> named;
    for (const auto& [name, a] : nodeKwargs) named.push_back(fmt::format("'{}': {}", name, fakeRepr(a, IValue())));
    const std::string tuple = fmt::format("({}{})", fmt::join(positional, ", "), positional.size() == 1 ? "," : "");
    return fmt::format("Dynamo failed to run FX node with fake tensors: {} {}(*{}, **{{{}}}): got {}({})",
                       style == CallStyle::Method ? "call_method" : "call_function", targetRepr(op, style), tuple,
                       fmt::join(named, ", "), error.kind(), valueRepr(Value(*message)));
}

}  // namespace fusescope
