#include "capture/fake_run_error.h"

#include <algorithm>
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
    if (a.kind == Argument::Kind::List || a.kind == Argument::Kind::Tuple) {  // torch.cat's list of tensors
        std::vector<std::string> items;
        for (size_t i = 0; i < a.items.size(); ++i) {
            const bool known = real.isSequence() && i < real.toSequence()->items.size();
            items.push_back(fakeRepr(a.items[i], known ? real.toSequence()->items[i] : IValue()));
        }
        const std::string inner = fmt::format("{}", fmt::join(items, ", "));
        if (a.kind == Argument::Kind::List) return "[" + inner + "]";
        return items.size() == 1 ? "(" + inner + ",)" : "(" + inner + ")";
    }
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
// meta kernel of mm, which linear and matmul use).
std::optional<std::string> matrixProductMessage(const std::string& name, const std::vector<Argument>& nodeArgs) {
    if ((name != "linear" && name != "mm" && name != "matmul") || nodeArgs.size() < 2 || !isTensorRef(nodeArgs[0]) ||
        !isTensorRef(nodeArgs[1]))
        return std::nullopt;
    std::vector<std::string> a = sizesOf(nodeArgs[0]), b = sizesOf(nodeArgs[1]);
    if (a.size() != 2 || b.size() != 2) return std::nullopt;
    if (name == "linear") std::swap(b[0], b[1]);  // the weight, transposed
    if (a[1] == b[0]) return std::nullopt;
    return fmt::format("a and b must have same reduction dim, but got [{}, {}] X [{}, {}].", a[0], a[1], b[0], b[1]);
}

std::vector<int64_t> staticSizes(const Argument& a) { return metaOf(a).sizes; }

bool hasSymbols(const Argument& a) {
    if (a.kind == Argument::Kind::List || a.kind == Argument::Kind::Tuple)
        return std::any_of(a.items.begin(), a.items.end(), hasSymbols);
    if (!isTensorRef(a)) return a.kind == Argument::Kind::NodeRef;  // a SymInt
    const std::vector<std::string>& symbols = metaOf(a).symbols;
    return std::any_of(symbols.begin(), symbols.end(), [](const std::string& s) { return !s.empty(); });
}

std::string sizeList(const std::vector<int64_t>& sizes) { return fmt::format("[{}]", fmt::join(sizes, ", ")); }

// torch._refs' _broadcast_shapes: the first dimension, from the right, of the first shape
// that cannot broadcast to those before it.
std::optional<std::string> broadcastMessage(const std::vector<std::vector<int64_t>>& shapes) {
    size_t rank = 0;
    for (const auto& shape : shapes) rank = std::max(rank, shape.size());
    std::vector<int64_t> common(rank, 1);
    for (size_t arg = 0; arg < shapes.size(); ++arg) {
        const auto& shape = shapes[arg];
        for (int64_t idx = -1; idx >= -static_cast<int64_t>(shape.size()); --idx) {
            const int64_t length = shape[shape.size() + idx];
            int64_t& target = common[common.size() + idx];
            if (length == target) continue;
            if (target == 1) target = length;
            if (length == 1 || length == target) continue;
            return fmt::format("Attempting to broadcast a dimension of length {} at {}! Mismatching argument at index {} had "
                               "torch.Size({}); but expected shape should be broadcastable to {}",
                               length, idx, arg, sizeList(shape), sizeList(common));
        }
    }
    return std::nullopt;
}

std::optional<int64_t> intConstant(const Argument& a) {
    if (a.kind != Argument::Kind::Constant || !a.constant.isInt()) return std::nullopt;
    return a.constant.toInt();
}

// The shape an op's trailing int arguments or its one list give (expand(3, 4), expand([3, 4])).
std::vector<int64_t> shapeArguments(const std::vector<Argument>& nodeArgs) {
    std::vector<int64_t> shape;
    const bool listed = nodeArgs.size() == 2 && (nodeArgs[1].kind == Argument::Kind::List || nodeArgs[1].kind == Argument::Kind::Tuple);
    for (const Argument& a : listed ? nodeArgs[1].items : std::vector<Argument>(nodeArgs.begin() + 1, nodeArgs.end()))
        if (std::optional<int64_t> n = intConstant(a)) shape.push_back(*n);
    return shape;
}

// torch._refs.expand's words: the first dimension, from the left, that cannot expand.
std::optional<std::string> expandMessage(const std::vector<Argument>& nodeArgs) {
    const std::vector<int64_t> self = staticSizes(nodeArgs[0]), shape = shapeArguments(nodeArgs);
    if (shape.size() < self.size()) return std::nullopt;
    const size_t offset = shape.size() - self.size();
    for (size_t i = 0; i < self.size(); ++i)
        if (shape[offset + i] != -1 && self[i] != 1 && self[i] != shape[offset + i])
            return fmt::format("expand: attempting to expand a dimension of length {} -> {}!", self[i], shape[offset + i]);
    return std::nullopt;
}

// torch._prims' cat meta: the first tensor, and its first dimension, that differs from the first's.
std::optional<std::string> catMessage(const std::vector<Argument>& nodeArgs, const std::vector<std::pair<std::string, Argument>>& nodeKwargs) {
    const Argument& list = nodeArgs[0];
    if (list.items.empty() || !std::all_of(list.items.begin(), list.items.end(), isTensorRef)) return std::nullopt;
    const std::vector<int64_t> first = staticSizes(list.items[0]);
    std::optional<int64_t> dim = nodeArgs.size() > 1 ? intConstant(nodeArgs[1]) : std::optional<int64_t>(0);
    for (const auto& [name, a] : nodeKwargs)
        if (name == "dim") dim = intConstant(a);
    if (!dim) return std::nullopt;
    const int64_t d = *dim < 0 ? *dim + static_cast<int64_t>(first.size()) : *dim;
    for (size_t t = 0; t < list.items.size(); ++t) {
        const std::vector<int64_t> sizes = staticSizes(list.items[t]);
        if (sizes.size() != first.size()) return std::nullopt;
        for (size_t i = 0; i < sizes.size(); ++i)
            if (static_cast<int64_t>(i) != d && sizes[i] != first[i])
                return fmt::format("Sizes of tensors must match except in dimension {}. Expected {} in dimension {} but got {} for "
                                   "tensor number {} in the list", d, first[i], i, sizes[i], t);
    }
    return std::nullopt;
}

// The fake kernel's words for the eager kernel's `error`, where Fusescope knows them: those of
// the meta kernels and torch._refs decompositions the fake run uses. Sizes must be static
// (dynamic ones are said by their symbols), but for a matrix product's.
std::optional<std::string> fakeKernelMessage(const OpDef& op, const std::vector<Argument>& nodeArgs,
                                             const std::vector<std::pair<std::string, Argument>>& nodeKwargs, const ScriptError& error) {
    const std::string name(baseOpName(op.name));
    if (std::optional<std::string> product = matrixProductMessage(name, nodeArgs)) return product;
    if (nodeArgs.empty() || std::any_of(nodeArgs.begin(), nodeArgs.end(), hasSymbols)) return std::nullopt;
    const std::string eager = error.what();
    // reshape's and view's, bmm's: the eager kernel's own words
    if (eager.starts_with("shape '[") || eager.starts_with("Expected size for first two dimensions of batch2 tensor")) return eager;
    if (eager.starts_with("The size of tensor a (")) {  // an elementwise op's operands
        std::vector<std::vector<int64_t>> shapes;
        for (const Argument& a : nodeArgs)
            if (isTensorRef(a)) shapes.push_back(staticSizes(a));
        return broadcastMessage(shapes);
    }
    if (eager.starts_with("The expanded size of the tensor") && name == "expand" && isTensorRef(nodeArgs[0])) return expandMessage(nodeArgs);
    if (eager.starts_with("Sizes of tensors must match except in dimension") && nodeArgs[0].kind == Argument::Kind::List)
        return catMessage(nodeArgs, nodeKwargs);
    return std::nullopt;
}

}  // namespace

std::optional<std::string> fakeRunError(const OpDef& op, CallStyle style, const IValueList& args, const std::vector<Argument>& nodeArgs,
                                        const std::vector<std::pair<std::string, Argument>>& nodeKwargs, const ScriptError& error) {
    std::optional<std::string> message = fakeKernelMessage(op, nodeArgs, nodeKwargs, error);
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
