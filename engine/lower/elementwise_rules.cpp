#include "lower/elementwise_rules.h"

#include <algorithm>

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

LValue identity(LoweringContext& c, const LValue& v) {
    return c.lazy(v.sizes, v.dtype, [v](LoopBodyBuilder& b, const std::vector<IndexExpr>& i) { return v.load(b, i); }, {v});
}

DType promotedType(const std::vector<LValue>& inputs) {
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

namespace {

ElementFn op(LoopOpKind kind, DType resultType) {
    return [kind, resultType](LoopBodyBuilder& b, const std::vector<int>& x) { return b.call(kind, x, resultType); };
}

// The node's tensor arguments named `inputs`, lowered.
std::vector<LValue> values(const LoweringArgs& a, const std::vector<std::string>& inputs) {
    std::vector<LValue> out;
    for (const auto& name : inputs) out.push_back(a.tensor(name));
    return out;
}

}  // namespace

LoweringRule computedInOutputType(LoopOpKind loopOp, std::vector<std::string> inputs) {
    return [loopOp, inputs](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        DType out = c.meta().dtype;
        return {elementwise(c, values(a, inputs), out, out, op(loopOp, out))};
    };
}

LoweringRule unaryRule(LoopOpKind loopOp) { return computedInOutputType(loopOp, {"self"}); }
LoweringRule binaryRule(LoopOpKind loopOp) { return computedInOutputType(loopOp, {"self", "other"}); }

LoweringRule predicateRule(LoopOpKind loopOp, std::vector<std::string> inputs) {
    return [loopOp, inputs](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        std::vector<LValue> in = values(a, inputs);
        return {elementwise(c, in, promotedType(in), DType::Bool, op(loopOp, DType::Bool))};
    };
}

LoweringRule logicalRule(LoopOpKind loopOp, std::vector<std::string> inputs) {
    return [loopOp, inputs](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        return {elementwise(c, values(a, inputs), DType::Bool, DType::Bool, op(loopOp, DType::Bool))};
    };
}

LoweringRule conversionRule(const std::string& input) {
    return [input](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        LValue v = a.tensor(input);
        DType out = c.meta().dtype;
        if (v.dtype == out) return {identity(c, v)};
        return {elementwise(c, {v}, std::nullopt, out, [out](LoopBodyBuilder& b, const std::vector<int>& x) { return b.toDtype(x[0], out); })};
    };
}

}  // namespace fusescope
