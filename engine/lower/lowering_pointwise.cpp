// Lowering rules for elementwise ops, conversions and tensor creation: each becomes a lazy
// value whose element function loads its (broadcast) inputs and applies loop-body ops.

#include <fmt/format.h>

#include "lower/lowering_context.h"

namespace fusescope {

LValue elementwise(LoweringContext& c, const std::vector<LValue>& inputs, std::optional<DType> computeType, DType outType,
                   ElementFn apply) {
    return c.lazy(c.outputSizes(), outType,
                  [inputs, computeType, apply](LoopBodyBuilder& b, const std::vector<IndexExpr>& index) {
                      std::vector<int> loaded;
                      for (const auto& in : inputs) {
                          if (in.scalar && computeType) {
                              loaded.push_back(b.constant(*in.scalar, *computeType));
                              continue;
                          }
                          int v = in.load(b, broadcastIndex(index, in.sizes));
                          loaded.push_back(computeType ? b.toDtype(v, *computeType) : v);
                      }
                      return apply(b, loaded);
                  },
                  inputs);
}

namespace {

using Loaded = std::vector<int>;
using Apply = ElementFn;

// PyTorch's result type: tensors decide, a Python number only lifts the category
// (bool < int < float).
DType resultType(const std::vector<LValue>& inputs) {
    auto category = [](DType t) { return t == DType::Bool ? 0 : isFloating(t) ? 2 : 1; };
    std::optional<DType> tensors;
    int numberCategory = -1;
    for (const auto& v : inputs) {
        if (v.wrappedNumber) {
            numberCategory = std::max(numberCategory, category(v.dtype));
        } else {
            tensors = tensors ? promoteTypes(*tensors, v.dtype) : v.dtype;
        }
    }
    DType t = tensors.value_or(numberCategory == 2 ? DType::Float32 : numberCategory == 1 ? DType::Int64 : DType::Bool);
    if (numberCategory > category(t)) t = numberCategory == 2 ? defaultFloat() : DType::Int64;
    return t;
}


Apply op(LoopOpKind kind, DType resultType) {
    return [kind, resultType](LoopBodyBuilder& b, const Loaded& x) { return b.call(kind, x, resultType); };
}

// Ops computed in the output's dtype: inputs are converted to it first.
LoweringRule inOutputType(LoopOpKind loopOp, std::vector<std::string> inputs) {
    return [loopOp, inputs](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        std::vector<LValue> values;
        for (const auto& name : inputs) values.push_back(a.tensor(name));
        DType out = c.meta().dtype;
        return {elementwise(c, values, out, out, op(loopOp, out))};
    };
}

LoweringRule unary(LoopOpKind loopOp) { return inOutputType(loopOp, {"self"}); }
LoweringRule binary(LoopOpKind loopOp) { return inOutputType(loopOp, {"self", "other"}); }

// Comparisons and predicates: computed in the inputs' common type, result bool.
LoweringRule predicate(LoopOpKind loopOp, std::vector<std::string> inputs) {
    return [loopOp, inputs](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        std::vector<LValue> values;
        for (const auto& name : inputs) values.push_back(a.tensor(name));
        return {elementwise(c, values, resultType(values), DType::Bool, op(loopOp, DType::Bool))};
    };
}

// Logical ops see their inputs as bools.
LoweringRule logical(LoopOpKind loopOp, std::vector<std::string> inputs) {
    return [loopOp, inputs](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        std::vector<LValue> values;
        for (const auto& name : inputs) values.push_back(a.tensor(name));
        return {elementwise(c, values, DType::Bool, DType::Bool, op(loopOp, DType::Bool))};
    };
}

// add / sub with alpha: other * alpha first.
LoweringRule withAlpha(LoopOpKind loopOp) {
    return [loopOp](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        DType out = c.meta().dtype;
        double alpha = a.bound().number("alpha");
        return {elementwise(c, {a.tensor("self"), a.tensor("other")}, out, out,
                            [loopOp, alpha, out](LoopBodyBuilder& b, const Loaded& x) {
                                int other = x[1];
                                if (alpha != 1) other = b.call(LoopOpKind::Mul, {other, b.constant(alpha, out)}, out);
                                return b.call(loopOp, {x[0], other}, out);
                            })};
    };
}

LValue identity(LoweringContext& c, const LValue& v) { return c.lazy(v.sizes, v.dtype, [v](LoopBodyBuilder& b, const std::vector<IndexExpr>& i) { return v.load(b, i); }, {v}); }

// A value converted to the node's output dtype.
LoweringRule conversion(const std::string& input) {
    return [input](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        LValue v = a.tensor(input);
        DType out = c.meta().dtype;
        if (v.dtype == out) return {identity(c, v)};
        return {elementwise(c, {v}, std::nullopt, out, [out](LoopBodyBuilder& b, const Loaded& x) { return b.toDtype(x[0], out); })};
    };
}

// full / zeros / ones and their _like forms: a constant of the output's shape and dtype.
LoweringRule filled(std::optional<double> value) {
    return [value](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        double v = value ? *value : a.bound().number("fill_value");
        DType out = c.meta().dtype;
        return {c.lazy(c.outputSizes(), out, [v, out](LoopBodyBuilder& b, const std::vector<IndexExpr>&) { return b.constant(v, out); }, {})};
    };
}

LoweringRule arange(bool hasStart) {
    return [hasStart](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        double start = hasStart ? a.bound().number("start") : 0;
        double step = hasStart ? a.bound().number("step") : 1;
        DType out = c.meta().dtype;
        return {c.lazy(c.outputSizes(), out,
                       [start, step, out](LoopBodyBuilder& b, const std::vector<IndexExpr>& index) {
                           int i = b.indexExpr(index.at(0), DType::Int64);
                           DType math = isFloating(out) ? DType::Float64 : DType::Int64;
                           int v = b.call(LoopOpKind::Add,
                                          {b.call(LoopOpKind::Mul, {b.toDtype(i, math), b.constant(step, math)}, math), b.constant(start, math)},
                                          math);
                           return b.toDtype(v, out);
                       },
                       {})};
    };
}

// tril / triu: keep elements on the right side of the diagonal, zero the rest.
LoweringRule triangle(bool lower) {
    return [lower](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        LValue self = a.tensor("self");
        int64_t diagonal = a.bound().integer("diagonal");
        DType out = c.meta().dtype;
        return {c.lazy(c.outputSizes(), out,
                       [self, diagonal, out, lower](LoopBodyBuilder& b, const std::vector<IndexExpr>& index) {
                           size_t n = index.size();
                           int offset = b.indexExpr(index[n - 1] - index[n - 2], DType::Int64);
                           int keep = b.call(lower ? LoopOpKind::Le : LoopOpKind::Ge, {offset, b.constant(static_cast<double>(diagonal), DType::Int64)}, DType::Bool);
                           return b.call(LoopOpKind::Where, {keep, self.load(b, index), b.constant(0, out)}, out);
                       },
                       {self})};
    };
}

// Registry op names, each with the loop op it lowers to.
using OpKinds = std::initializer_list<std::pair<const char*, LoopOpKind>>;

std::map<std::string, LoweringRule> makeRules() {
    std::map<std::string, LoweringRule> r;
    using K = LoopOpKind;
    for (auto [name, kind] : OpKinds{
             {"exp2", K::Exp2}, {"expm1", K::Expm1}, {"log", K::Log}, {"log2", K::Log2}, {"log1p", K::Log1p},
             {"sqrt", K::Sqrt}, {"rsqrt", K::Rsqrt}, {"reciprocal", K::Reciprocal}, {"sin", K::Sin}, {"cos", K::Cos},
             {"tanh", K::Tanh}, {"sigmoid", K::Sigmoid}, {"erf", K::Erf}, {"neg", K::Neg}, {"abs", K::Abs},
             {"relu", K::Relu}, {"floor", K::Floor}, {"ceil", K::Ceil}, {"sign", K::Sign}, {"bitwise_not", K::BitwiseNot},
             {"silu", K::Silu}, {"square", K::Square}})
        r[name] = unary(kind);
    r["exp"] = [](LoweringContext& c, const LoweringArgs& a) {
        return unary(c.hooks().plants(TestHooks::PlantedBug::Lowering) ? K::Exp2 : K::Exp)(c, a);
    };
    r["round"] = [](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        if (a.bound().integer("decimals") != 0) c.unsupported("round with decimals");
        return unary(K::Round)(c, a);
    };
    r["gelu"] = [](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        return unary(a.bound()["approximate"].toString() == "tanh" ? K::GeluTanh : K::Gelu)(c, a);
    };
    r["add"] = withAlpha(K::Add);
    r["sub"] = withAlpha(K::Sub);
    r["mul"] = binary(K::Mul);
    r["pow"] = inOutputType(K::Pow, {"self", "exponent"});
    r["maximum"] = binary(K::Maximum);
    r["max.other"] = binary(K::Maximum);
    r["minimum"] = binary(K::Minimum);
    r["min.other"] = binary(K::Minimum);
    r["remainder"] = binary(K::Mod);
    r["floor_divide"] = binary(K::FloorDiv);
    r["bitwise_and"] = binary(K::BitwiseAnd);
    r["bitwise_or"] = binary(K::BitwiseOr);
    r["bitwise_xor"] = binary(K::BitwiseXor);
    r["div"] = [](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        const IValue& mode = a.bound()["rounding_mode"];
        K loopOp = mode.isNone() ? K::TrueDiv : mode.toString() == "floor" ? K::FloorDiv : K::TruncDiv;
        return binary(loopOp)(c, a);
    };
    for (auto [name, kind] : OpKinds{{"eq", K::Eq}, {"ne", K::Ne}, {"lt", K::Lt}, {"le", K::Le}, {"gt", K::Gt}, {"ge", K::Ge}})
        r[name] = predicate(kind, {"self", "other"});
    for (auto [name, kind] : OpKinds{{"isnan", K::IsNan}, {"isinf", K::IsInf}, {"isfinite", K::IsFinite}})
        r[name] = predicate(kind, {"self"});
    for (auto [name, kind] : OpKinds{{"logical_and", K::LogicalAnd}, {"logical_or", K::LogicalOr}, {"logical_xor", K::LogicalXor}})
        r[name] = logical(kind, {"self", "other"});
    r["logical_not"] = logical(K::LogicalNot, {"self"});
    r["where"] = [](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        DType out = c.meta().dtype;
        return {elementwise(c, {a.tensor("condition"), a.tensor("self"), a.tensor("other")}, std::nullopt, out,
                            [out](LoopBodyBuilder& b, const Loaded& x) {
                                return b.call(K::Where, {b.toDtype(x[0], DType::Bool), b.toDtype(x[1], out), b.toDtype(x[2], out)}, out);
                            })};
    };
    r["masked_fill"] = [](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        DType out = c.meta().dtype;
        double value = a.bound().number("value");
        return {elementwise(c, {a.tensor("mask"), a.tensor("self")}, std::nullopt, out,
                            [out, value](LoopBodyBuilder& b, const Loaded& x) {
                                return b.call(K::Where, {b.toDtype(x[0], DType::Bool), b.constant(value, out), b.toDtype(x[1], out)}, out);
                            })};
    };
    auto clampRule = [](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        DType out = c.meta().dtype;
        std::vector<LValue> values{a.tensor("self")};
        bool hasMin = a.has("min"), hasMax = a.has("max");
        if (hasMin) values.push_back(a.tensor("min"));
        if (hasMax) values.push_back(a.tensor("max"));
        return {elementwise(c, values, out, out, [hasMin, hasMax, out](LoopBodyBuilder& b, const Loaded& x) {
            int v = x[0];
            if (hasMin) v = b.call(K::Maximum, {v, x[1]}, out);
            if (hasMax) v = b.call(K::Minimum, {v, x[hasMin ? 2 : 1]}, out);
            return v;
        })};
    };
    r["clamp"] = clampRule;
    r["clamp.Tensor"] = clampRule;
    for (const char* name : {"to.dtype", "to.other", "to.device", "type_as", "float", "double", "long", "int", "bool"})
        r[name] = conversion("self");
    for (const char* name : {"clone", "contiguous", "detach"})
        r[name] = [](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> { return {identity(c, a.tensor("self"))}; };
    r["dropout"] = [](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        if (a.bound().flag("training") && a.bound().number("p") != 0) c.unsupported("dropout in training mode (random)");
        return {identity(c, a.tensor("input"))};
    };
    r["realize"] = [](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        LValue v = identity(c, a.tensor("self"));
        return {c.realize(v, nullptr)};
    };
    r["full"] = filled(std::nullopt);
    r["full_like"] = filled(std::nullopt);
    r["zeros"] = r["zeros_like"] = filled(0.0);
    r["ones"] = r["ones_like"] = filled(1.0);
    r["arange"] = arange(false);
    r["arange.start"] = arange(true);
    r["tril"] = triangle(true);
    r["triu"] = triangle(false);
    return r;
}

}  // namespace

const std::map<std::string, LoweringRule>& pointwiseRules() {
    static const std::map<std::string, LoweringRule> rules = makeRules();
    return rules;
}

}  // namespace fusescope
