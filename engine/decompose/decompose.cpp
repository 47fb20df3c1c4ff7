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
#include "decompose/op_decomposition.h"

namespace fusescope {

namespace {

Argument constant(IValue v) { return Argument::value(std::move(v)); }

void copyProvenance(const Node& from, Node& to) {
    to.where = from.where;
    to.sourceLine = from.sourceLine;
    to.stack = from.stack;
    to.inlineDepth = from.inlineDepth;
    to.capturedName = from.capturedName.empty() ? from.name : from.capturedName;
}

}  // namespace

// One composite node being rewritten: its arguments bound to its schema, and the emitter
// of the core ops replacing it, each of which carries the composite's provenance.
class Rewrite {
public:
    Rewrite(GraphBuilder& builder, const Node& origin, const OpDef& def, BoundArgs boundArgs, const std::vector<Argument>& args,
            const ArgumentKwargs& kwargs, const TestHooks& hooks)
        : bound(std::move(boundArgs)), hooks(hooks), builder_(builder), origin_(origin), def_(def), args_(args), kwargs_(kwargs) {}

    const BoundArgs bound;  // the composite's arguments as values (meta tensors, constants)
    const TestHooks& hooks;

    // The new graph's argument for tensor parameter `name`; nullopt when it is None.
    std::optional<Argument> maybeTensor(const std::string& name) const {
        if (bound[name].isNone()) return std::nullopt;
        const auto& params = OpRegistry::instance().parsed(def_).params;
        auto param = std::find_if(params.begin(), params.end(), [&](const SchemaParam& p) { return p.name == name; });
        auto position = static_cast<size_t>(param - params.begin());
        if (param != params.end() && !param->kwOnly && position < args_.size()) return args_[position];
        for (const auto& [key, arg] : kwargs_)
            if (key == name) return arg;
        throw Error(fmt::format("internal error: {} has no argument '{}'", def_.name, name));
    }
    Argument tensor(const std::string& name) const { return maybeTensor(name).value(); }
    // A parameter's value, or `fallback` when this overload has no such parameter.
    IValue valueOr(const std::string& name, IValue fallback) const {
        bool has = std::find(bound.names.begin(), bound.names.end(), name) != bound.names.end();
        return has ? bound[name] : fallback;
    }

    TensorMeta meta(const Argument& a) const { return builder_.meta(a); }
    // Whether dim `d` of `m` has the same size in every call of the graph: it has no symbol
    // and, in a dynamic graph, its symbols are known (SymbolicSizes leaves them unknown
    // where an op's inference fails on symbolic sizes, as layer_norm's does).
    bool isStatic(const TensorMeta& m, size_t d) const {
        if (m.symbols.size() != m.sizes.size()) return !builder_.dynamic();
        return m.symbols[d].empty();
    }
    const TensorMeta& result() const { return origin_.meta[0]; }
    const std::string& opName() const { return def_.name; }

    Argument call(const std::string& target, std::vector<Argument> args, ArgumentKwargs kwargs = {}) {
        Node* node = builder_.call(target, std::move(args), std::move(kwargs));
        copyProvenance(origin_, *node);
        return Argument::ref(node);
    }

private:
    GraphBuilder& builder_;
    const Node& origin_;
    const OpDef& def_;
    const std::vector<Argument>& args_;
    const ArgumentKwargs& kwargs_;
};

namespace {

using Decomposition = std::function<std::optional<Argument>(Rewrite&)>;

// ---- helpers -------------------------------------------------------------------------

// A dim's size as the graph knows it: its symbol, its size when static, nullopt when unknown.
std::optional<std::string> sizeExpression(const Rewrite& r, const TensorMeta& m, size_t dim) {
    if (r.isStatic(m, dim)) return std::to_string(m.sizes[dim]);
    if (m.symbols.size() == m.sizes.size()) return m.symbols[dim];
    return std::nullopt;
}

// The dims a reduction covers, listed explicitly (every dim for dim=None or []).
std::vector<int64_t> reducedDims(const IValue& dim, size_t rank) {
    std::vector<int64_t> given = dim.isNone() ? std::vector<int64_t>{} : dim.toIntList();
    auto n = static_cast<int64_t>(rank);
    std::vector<int64_t> dims;
    for (int64_t d = 0; d < n; ++d)
        if (given.empty() || std::any_of(given.begin(), given.end(), [&](int64_t g) { return g == d || g + n == d; }))
            dims.push_back(d);
    return dims;
}

// How many elements a reduction over `dims` sees; nullopt when that depends on a symbol
// (the count is baked into the graph as a constant).
std::optional<int64_t> staticCount(const Rewrite& r, const TensorMeta& m, const std::vector<int64_t>& dims) {
    int64_t count = 1;
    for (int64_t d : dims) {
        if (!r.isStatic(m, static_cast<size_t>(d))) return std::nullopt;
        count *= m.sizes[static_cast<size_t>(d)];
    }
    return count;
}

// Sizes for reshape, with -1 for the one dim that is not static (its example size would
// pin the dynamic graph to one input size); nullopt when several are not.
std::optional<std::vector<int64_t>> reshapeSizes(const Rewrite& r, const TensorMeta& m) {
    std::vector<int64_t> sizes = m.sizes;
    int dynamic = 0;
    for (size_t d = 0; d < sizes.size(); ++d) {
        if (r.isStatic(m, d)) continue;
        sizes[d] = -1;
        ++dynamic;
    }
    if (dynamic > 1) return std::nullopt;
    return sizes;
}

// Low-precision floats compute in float32 and are rounded once at the end (matchResult),
// as PyTorch's kernels accumulate them; ints given a float result convert first.
Argument inComputeType(Rewrite& r, const Argument& x) {
    DType out = r.result().dtype;
    DType compute = out == DType::Float16 || out == DType::BFloat16 ? DType::Float32 : out;
    return r.meta(x).dtype == compute ? x : r.call("to", {x, constant(compute)});
}

Argument reduce(Rewrite& r, const char* op, const Argument& x, const std::vector<int64_t>& dims, bool keepdim) {
    return r.call(op, {x, constant(IValue::intList(dims))}, {{"keepdim", constant(keepdim)}});
}

// x - max(x) along dim, its exp, and the sum of that (kept as a dim for broadcasting).
struct ShiftedExp {
    Argument shifted, exp, sum;
};
ShiftedExp shiftedExp(Rewrite& r) {
    Argument x = inComputeType(r, r.tensor("self"));
    std::vector<int64_t> dim = {r.bound.integer("dim")};
    Argument max = reduce(r, "amax", x, dim, true);
    Argument shifted = r.call("sub", {x, max});
    Argument exp = r.call("exp", {shifted});
    return {shifted, exp, reduce(r, "sum", exp, dim, true)};
}

// x - mean(x) over dims (count elements each), and the sum of its squares.
struct Centered {
    Argument centered, sumOfSquares;
};
Centered centered(Rewrite& r, const Argument& x, const std::vector<int64_t>& dims, int64_t count, bool keepdim) {
    Argument sum = reduce(r, "sum", x, dims, true);
    Argument mean = r.call("div", {sum, constant(count)});
    Argument c = r.call("sub", {x, mean});
    Argument squares = r.call("mul", {c, c});
    return {c, reduce(r, "sum", squares, dims, keepdim)};
}

// ---- decompositions ------------------------------------------------------------------

std::optional<Argument> softmax(Rewrite& r) {
    ShiftedExp s = shiftedExp(r);
    if (r.hooks.plants(TestHooks::PlantedBug::InductorDecomposition)) return r.call("div", {s.exp, r.call("add", {s.sum, constant(1)})});
    return r.call("div", {s.exp, s.sum});
}

std::optional<Argument> logSoftmax(Rewrite& r) {
    ShiftedExp s = shiftedExp(r);
    Argument logSum = r.call("log", {s.sum});
    return r.call("sub", {s.shifted, logSum});
}

std::optional<Argument> layerNorm(Rewrite& r) {
    Argument input = r.tensor("input");
    TensorMeta m = r.meta(input);
    size_t normalized = r.bound.ints("normalized_shape").size();
    std::vector<int64_t> dims;
    for (size_t d = m.sizes.size() - normalized; d < m.sizes.size(); ++d) dims.push_back(static_cast<int64_t>(d));
    std::optional<int64_t> count = staticCount(r, m, dims);
    if (!count) return std::nullopt;
    Centered c = centered(r, inComputeType(r, input), dims, *count, true);
    Argument var = r.call("div", {c.sumOfSquares, constant(*count)});
    Argument shifted = r.call("add", {var, constant(r.bound.number("eps"))});
    Argument rstd = r.call("rsqrt", {shifted});
    Argument y = r.call("mul", {c.centered, rstd});
    if (auto weight = r.maybeTensor("weight")) y = r.call("mul", {y, *weight});
    if (auto bias = r.maybeTensor("bias")) y = r.call("add", {y, *bias});
    return y;
}

std::optional<Argument> gelu(Rewrite& r) {
    const std::string& approximate = r.bound["approximate"].toString();
    if (approximate != "none" && approximate != "tanh") return std::nullopt;  // eager raises its error
    Argument x = inComputeType(r, r.tensor("self"));
    if (approximate == "none") {
        // x * 0.5 * (1 + erf(x / sqrt(2)))
        Argument half = r.call("mul", {x, constant(0.5)});
        Argument scaled = r.call("mul", {x, constant(std::numbers::sqrt2 / 2)});
        Argument erf = r.call("erf", {scaled});
        Argument onePlus = r.call("add", {erf, constant(int64_t{1})});
        return r.call("mul", {half, onePlus});
    }
    // 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))
    Argument square = r.call("mul", {x, x});
    Argument cube = r.call("mul", {square, x});
    Argument cubeTerm = r.call("mul", {cube, constant(0.044715)});
    Argument inner = r.call("add", {x, cubeTerm});
    Argument scaled = r.call("mul", {inner, constant(std::sqrt(2 / std::numbers::pi))});
    Argument tanh = r.call("tanh", {scaled});
    Argument onePlus = r.call("add", {tanh, constant(int64_t{1})});
    Argument half = r.call("mul", {x, constant(0.5)});
    return r.call("mul", {half, onePlus});
}

std::optional<Argument> silu(Rewrite& r) {
    Argument x = inComputeType(r, r.tensor("self"));
    Argument sigmoid = r.call("sigmoid", {x});
    return r.call("mul", {x, sigmoid});
}

// x [..., k] @ matrix [k, n] as one mm: x's leading dims fold into its rows, and the
// product is reshaped back to the composite's result [..., n]. nullopt, before anything is
// emitted, when a dynamic graph leaves the reshapes no way to be written.
std::optional<Argument> foldedMm(Rewrite& r, Argument x, const std::function<Argument()>& matrix) {
    TensorMeta m = r.meta(x);
    size_t rank = m.sizes.size();
    if (rank == 2) return r.call("mm", {x, matrix()});
    std::optional<std::vector<int64_t>> resultSizes = reshapeSizes(r, r.result());
    if (!r.isStatic(m, rank - 1) || !resultSizes) return std::nullopt;
    int64_t rows = 1;  // the leading dims, -1 when one of them is not static
    for (size_t d = 0; d + 1 < rank && rows != -1; ++d) rows = r.isStatic(m, d) ? rows * m.sizes[d] : -1;
    Argument folded = r.call("reshape", {x, constant(IValue::intList({rows, m.sizes.back()}))});
    Argument product = r.call("mm", {folded, matrix()});
    return r.call("reshape", {product, constant(IValue::intList(*resultSizes))});
}

std::optional<Argument> linear(Rewrite& r) {
    std::optional<Argument> y = foldedMm(r, r.tensor("input"), [&] { return r.call("t", {r.tensor("weight")}); });
    if (!y) return std::nullopt;
    if (r.hooks.plants(TestHooks::PlantedBug::AotDecomposition)) y = r.call("mul", {*y, constant(2)});
    if (auto bias = r.maybeTensor("bias")) return r.call("add", {*y, *bias});
    return y;
}

std::optional<Argument> matmul(Rewrite& r) {
    Argument a = r.tensor("self"), b = r.tensor("other");
    TensorMeta am = r.meta(a), bm = r.meta(b);
    size_t ra = am.sizes.size(), rb = bm.sizes.size();
    if (ra <= 2 && rb <= 2) {
        // Vectors become a 1xk row (left) or a kx1 column (right) and are squeezed out after.
        std::vector<int64_t> squeezed;
        if (ra == 1) {
            a = r.call("unsqueeze", {a, constant(int64_t{0})});
            squeezed.push_back(0);
        }
        if (rb == 1) {
            b = r.call("unsqueeze", {b, constant(int64_t{1})});
            squeezed.push_back(1);
        }
        Argument y = r.call("mm", {a, b});
        return squeezed.empty() ? y : r.call("squeeze", {y, constant(IValue::intList(squeezed))});
    }
    if (ra > 2 && rb <= 2) {
        // A matrix (or a vector as a kx1 column) applies to the last dim of a batch.
        return foldedMm(r, a, [&] { return rb == 1 ? r.call("unsqueeze", {b, constant(int64_t{1})}) : b; });
    }
    if (ra != 3 || rb != 3) return std::nullopt;
    std::optional<std::string> batchA = sizeExpression(r, am, 0), batchB = sizeExpression(r, bm, 0);
    if (!batchA || !batchB) return std::nullopt;
    if (*batchA != *batchB) {
        // A static batch of 1 broadcasts against the other operand's static batch.
        if (!r.isStatic(am, 0) || !r.isStatic(bm, 0)) return std::nullopt;
        auto expanded = [&](const Argument& t, int64_t batch) {
            return r.call("expand", {t, constant(IValue::intList({batch, -1, -1}))});
        };
        if (am.sizes[0] == 1) a = expanded(a, bm.sizes[0]);
        else b = expanded(b, am.sizes[0]);
    }
    return r.call("bmm", {a, b});
}

std::optional<Argument> mean(Rewrite& r) {
    Argument x = r.tensor("self");
    TensorMeta m = r.meta(x);
    std::vector<int64_t> dims = reducedDims(r.bound["dim"], m.sizes.size());
    std::optional<int64_t> count = staticCount(r, m, dims);
    if (!count) return std::nullopt;
    Argument sum = reduce(r, "sum", inComputeType(r, x), dims, r.bound.flag("keepdim"));
    return r.call("div", {sum, constant(*count)});
}

// var and std, including their (self, unbiased) overloads.
Decomposition variance(bool takeSqrt) {
    return [takeSqrt](Rewrite& r) -> std::optional<Argument> {
        Argument x = r.tensor("self");
        TensorMeta m = r.meta(x);
        std::vector<int64_t> dims = reducedDims(r.valueOr("dim", None{}), m.sizes.size());
        std::optional<int64_t> count = staticCount(r, m, dims);
        if (!count) return std::nullopt;
        IValue correction = r.valueOr("correction", None{}), unbiased = r.valueOr("unbiased", None{});
        double c = !correction.isNone() ? correction.toDouble() : unbiased.isNone() || unbiased.toBool() ? 1.0 : 0.0;
        double denominator = std::max(0.0, static_cast<double>(*count) - c);
        IValue divisor = std::floor(denominator) == denominator ? IValue(static_cast<int64_t>(denominator)) : IValue(denominator);

        Centered centeredX = centered(r, inComputeType(r, x), dims, *count, r.valueOr("keepdim", false).toBool());
        Argument var = r.call("div", {centeredX.sumOfSquares, constant(divisor)});
        return takeSqrt ? r.call("sqrt", {var}) : var;
    };
}

std::optional<Argument> square(Rewrite& r) {
    Argument x = r.tensor("self");
    if (r.meta(x).dtype == DType::Bool) return std::nullopt;  // square(bool) is int64, bool * bool is bool
    return r.call("mul", {x, x});
}

std::optional<Argument> outer(Rewrite& r) {
    Argument column = r.call("unsqueeze", {r.tensor("self"), constant(int64_t{1})});
    Argument row = r.call("unsqueeze", {r.tensor("vec2"), constant(int64_t{0})});
    return r.call("mul", {column, row});
}

std::optional<Argument> dropout(Rewrite& r) {
    if (r.bound.flag("training") && r.bound.number("p") != 0) return std::nullopt;
    return r.tensor("input");
}

}  // namespace

const std::map<std::string, OpDecomposition>& decompositionTable() {
    static const std::map<std::string, OpDecomposition> table = {
        {"softmax", {softmax, false}},
        {"log_softmax", {logSoftmax, false}},
        {"layer_norm", {layerNorm, false}},
        {"gelu", {gelu, false}},
        {"silu", {silu, false}},
        {"linear", {linear, true}},
        {"matmul", {matmul, true}},
        {"mean", {mean, false}},
        {"var", {variance(false), false}},
        {"var.unbiased", {variance(false), false}},
        {"std", {variance(true), false}},
        {"std.unbiased", {variance(true), false}},
        {"square", {square, true}},
        {"outer", {outer, true}},
        {"dropout", {dropout, true}},
    };
    return table;
}

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

std::optional<Argument> decompose(GraphBuilder& builder, const Node& node, const std::vector<Argument>& args,
                                  const ArgumentKwargs& kwargs, bool aotOnly, const TestHooks& hooks) {
    if (node.returnsTuple || node.meta.size() != 1) return std::nullopt;
    IValueList argValues;
    for (const Argument& a : args) argValues.push_back(builder.value(a));
    Kwargs kwargValues;
    for (const auto& [name, a] : kwargs) kwargValues.emplace_back(name, builder.value(a));
    auto [def, bound] = OpRegistry::instance().resolve(node.target, argValues, kwargValues);
    const OpDecomposition* rule = def->decomposition.get();
    if (!rule || (aotOnly && !rule->inAot) || passesNumberForTensor(bound)) return std::nullopt;
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
            Node* input = builder.placeholder(node->target, node->meta.at(0));
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
