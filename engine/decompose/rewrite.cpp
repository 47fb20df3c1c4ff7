#include "decompose/rewrite.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.h"

namespace fusescope {

void copyProvenance(const Node& from, Node& to) {
    to.where = from.where;
    to.sourceLine = from.sourceLine;
    to.stack = from.stack;
    to.moduleStack = from.moduleStack;
    to.inlineDepth = from.inlineDepth;
    to.gradEnabled = from.gradEnabled;
    to.capturedName = from.capturedName.empty() ? from.name : from.capturedName;
}

std::optional<Argument> Rewrite::maybeTensor(const std::string& name) const {
    if (bound[name].isNone()) return std::nullopt;
    const auto& params = OpRegistry::instance().parsed(def_).params;
    auto param = std::find_if(params.begin(), params.end(), [&](const SchemaParam& p) { return p.name == name; });
    auto position = static_cast<size_t>(param - params.begin());
    if (param != params.end() && !param->kwOnly && position < args_.size()) return args_[position];
    for (const auto& [key, arg] : kwargs_)
        if (key == name) return arg;
    throw Error(fmt::format("internal error: {} has no argument '{}'", def_.name, name));
}

IValue Rewrite::valueOr(const std::string& name, IValue fallback) const {
    bool has = std::find(bound.names.begin(), bound.names.end(), name) != bound.names.end();
    return has ? bound[name] : fallback;
}

bool Rewrite::isStatic(const TensorMeta& m, size_t d) const {
    if (m.symbols.size() != m.sizes.size()) return !builder_.dynamic();
    return m.symbols[d].empty();
}

Argument Rewrite::call(const std::string& target, std::vector<Argument> args, ArgumentKwargs kwargs) {
    Node* node = builder_.call(target, std::move(args), std::move(kwargs));
    copyProvenance(origin_, *node);
    return Argument::ref(node);
}

std::optional<std::string> sizeExpression(const Rewrite& r, const TensorMeta& m, size_t dim) {
    if (r.isStatic(m, dim)) return std::to_string(m.sizes[dim]);
    if (m.symbols.size() == m.sizes.size()) return m.symbols[dim];
    return std::nullopt;
}

std::vector<int64_t> reducedDims(const IValue& dim, size_t rank) {
    std::vector<int64_t> given = dim.isNone() ? std::vector<int64_t>{} : dim.toIntList();
    auto n = static_cast<int64_t>(rank);
    std::vector<int64_t> dims;
    for (int64_t d = 0; d < n; ++d)
        if (given.empty() || std::any_of(given.begin(), given.end(), [&](int64_t g) { return g == d || g + n == d; }))
            dims.push_back(d);
    return dims;
}

std::optional<int64_t> staticCount(const Rewrite& r, const TensorMeta& m, const std::vector<int64_t>& dims) {
    int64_t count = 1;
    for (int64_t d : dims) {
        if (!r.isStatic(m, static_cast<size_t>(d))) return std::nullopt;
        count *= m.sizes[static_cast<size_t>(d)];
    }
    return count;
}

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

Argument inComputeType(Rewrite& r, const Argument& x) {
    DType out = r.result().dtype;
    DType compute = out == DType::Float16 || out == DType::BFloat16 ? DType::Float32 : out;
    return r.meta(x).dtype == compute ? x : r.call("to", {x, constant(compute)});
}

Argument reduce(Rewrite& r, const char* op, const Argument& x, const std::vector<int64_t>& dims, bool keepdim) {
    return r.call(op, {x, constant(IValue::intList(dims))}, {{"keepdim", constant(keepdim)}});
}

// x - mean(x) over dims (count elements each), and the sum of its squares.
Centered centered(Rewrite& r, const Argument& x, const std::vector<int64_t>& dims, int64_t count, bool keepdim) {
    Argument sum = reduce(r, "sum", x, dims, true);
    Argument mean = r.call("div", {sum, constant(count)});
    Argument c = r.call("sub", {x, mean});
    Argument squares = r.call("mul", {c, c});
    return {c, reduce(r, "sum", squares, dims, keepdim)};
}

}  // namespace fusescope
