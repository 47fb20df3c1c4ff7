// Lowering rules for reductions: each becomes a Reduction buffer whose loop body reads the
// (possibly lazy) input over the pointwise dims and the reduced dims.

#include "lower/lowering_context.h"

namespace fusescope {

namespace {

std::vector<int64_t> dimsArg(const LoweringArgs& a, const char* name) {
    const IValue& v = a.bound()[name];
    if (v.isNone()) return {};
    return v.toIntList();
}

// sum / amax / amin / prod / any / all over `dim` (none or empty: every dim).
LoweringRule reduction(ReductionKind type) {
    return [type](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        return {c.reduce(a.tensor("self"), dimsArg(a, "dim"), a.bound().flag("keepdim"), type, c.meta().dtype)};
    };
}

// argmax / argmin over one dim, or over the flattened tensor when dim is None.
LoweringRule argReduction(ReductionKind type) {
    return [type](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        LValue self = a.tensor("self");
        const IValue& dim = a.bound()["dim"];
        if (dim.isNone()) {
            std::vector<IndexExpr> flat{product(self.sizes)};
            LValue whole = c.lazy(flat, self.dtype,
                                  [self](LoopBodyBuilder& b, const std::vector<IndexExpr>& index) {
                                      std::vector<IndexExpr> strides = contiguousStrides(self.sizes);
                                      std::vector<IndexExpr> at;
                                      for (size_t k = 0; k < self.sizes.size(); ++k) {
                                          IndexExpr q = IndexExpr::floorDiv(index[0], strides[k], b.ranges());
                                          at.push_back(k == 0 ? q : IndexExpr::mod(q, self.sizes[k], b.ranges()));
                                      }
                                      return self.load(b, at);
                                  },
                                  {self});
            return {c.reduce(whole, {0}, false, type, DType::Int64)};
        }
        return {c.reduce(self, {dim.toInt()}, a.bound().flag("keepdim"), type, DType::Int64)};
    };
}

// max.dim / min.dim: (values, indices).
LoweringRule valuesAndIndices(ReductionKind valueType, ReductionKind indexType) {
    return [valueType, indexType](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        LValue self = a.tensor("self");
        std::vector<int64_t> dim{a.bound().integer("dim")};
        bool keepdim = a.bound().flag("keepdim");
        return {c.reduce(self, dim, keepdim, valueType, self.dtype), c.reduce(self, dim, keepdim, indexType, DType::Int64)};
    };
}

// mean: the sum divided by the count of reduced elements.
std::vector<LValue> mean(LoweringContext& c, const LoweringArgs& a) {
    LValue self = a.tensor("self");
    std::vector<int64_t> dims = dimsArg(a, "dim");
    DType out = c.meta().dtype;
    LValue sum = c.reduce(self, dims, a.bound().flag("keepdim"), ReductionKind::Sum, out);
    IndexExpr count(1);
    if (dims.empty()) {
        count = product(self.sizes);
    } else {
        for (int64_t d : dims) count = count * self.sizes[normalizeDim(d, self.sizes.size())];
    }
    // A dynamic count (s0) is read as an index expression of the kernel's size parameters.
    return {c.lazy(sum.sizes, out,
                   [sum, count, out](LoopBodyBuilder& b, const std::vector<IndexExpr>& index) {
                       auto n = count.constant();
                       int divisor = n ? b.constant(static_cast<double>(*n), out) : b.toDtype(b.indexExpr(count, DType::Int64), out);
                       return b.call(LoopOpKind::TrueDiv, {sum.load(b, index), divisor}, out);
                   },
                   {sum})};
}

std::map<std::string, LoweringRule> makeRules() {
    std::map<std::string, LoweringRule> r;
    r["sum"] = reduction(ReductionKind::Sum);
    r["prod"] = reduction(ReductionKind::Prod);
    r["amax"] = reduction(ReductionKind::Max);
    r["amin"] = reduction(ReductionKind::Min);
    r["any"] = reduction(ReductionKind::Any);
    r["all"] = reduction(ReductionKind::All);
    for (auto [name, type] : {std::pair{"max", ReductionKind::Max}, std::pair{"min", ReductionKind::Min}})
        r[name] = [type](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
            return {c.reduce(a.tensor("self"), {}, false, type, c.meta().dtype)};
        };
    r["argmax"] = argReduction(ReductionKind::ArgMax);
    r["argmin"] = argReduction(ReductionKind::ArgMin);
    r["max.dim"] = valuesAndIndices(ReductionKind::Max, ReductionKind::ArgMax);
    r["min.dim"] = valuesAndIndices(ReductionKind::Min, ReductionKind::ArgMin);
    r["mean"] = mean;
    return r;
}

}  // namespace

const std::map<std::string, LoweringRule>& reductionRules() {
    static const std::map<std::string, LoweringRule> rules = makeRules();
    return rules;
}

}  // namespace fusescope
