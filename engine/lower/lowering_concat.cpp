// Lowering rules for cat and stack: the output element picks one input by its position
// along `dim`. Each input is read through a masked load (not performed where the element
// belongs to another input), so no read goes out of bounds; a where-chain picks the value.

#include "lower/lowering_context.h"

namespace fusescope {

namespace {

// One input of the concatenation: which output elements are its, and where they are in it.
struct Piece {
    LValue value;
    std::function<int(LoopBodyBuilder&, const std::vector<IndexExpr>&)> mine;  // bool op
    std::function<std::vector<IndexExpr>(const std::vector<IndexExpr>&)> at;
};

int indexConstant(LoopBodyBuilder& b, const IndexExpr& e) {
    auto c = e.constant();
    return c ? b.constant(static_cast<double>(*c), DType::Int64) : b.indexExpr(e, DType::Int64);
}

LValue piecewise(LoweringContext& c, std::vector<Piece> pieces) {
    std::vector<LValue> from;
    for (auto& p : pieces) {
        if (!p.value.storageBacked()) p.value = c.realize(p.value);
        from.push_back(p.value);
    }
    DType out = c.meta().dtype;
    return c.lazy(c.outputSizes(), out,
                  [pieces, out](LoopBodyBuilder& b, const std::vector<IndexExpr>& index) {
                      int result = -1;
                      for (size_t k = pieces.size(); k-- > 0;) {
                          const LValue& v = pieces[k].value;
                          int mask = pieces[k].mine(b, index);
                          IndexExpr at = v.view.indexOf(pieces[k].at(index)).simplify(b.ranges());
                          int loaded = b.toDtype(b.maskedLoad(v.buffer, at, mask, v.dtype), out);
                          result = result < 0 ? loaded : b.call(LoopOpKind::Where, {mask, loaded, result}, out);
                      }
                      return result;
                  },
                  from);
}

std::map<std::string, LoweringRule> makeRules() {
    std::map<std::string, LoweringRule> r;
    r["cat"] = [](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        std::vector<LValue> inputs = a.tensors("tensors");
        size_t rank = c.outputSizes().size();
        int64_t dim = normalizeDim(a.bound().integer("dim"), rank);
        std::vector<Piece> pieces;
        IndexExpr offset;
        for (const auto& v : inputs) {
            if (v.sizes.size() != rank) continue;  // PyTorch skips 1-D empty tensors
            IndexExpr begin = offset, end = offset + v.sizes[dim];
            pieces.push_back({v,
                              [dim, begin, end](LoopBodyBuilder& b, const std::vector<IndexExpr>& index) {
                                  int i = b.indexExpr(index[dim], DType::Int64);
                                  int lo = b.call(LoopOpKind::Ge, {i, indexConstant(b, begin)}, DType::Bool);
                                  int hi = b.call(LoopOpKind::Lt, {i, indexConstant(b, end)}, DType::Bool);
                                  return b.call(LoopOpKind::LogicalAnd, {lo, hi}, DType::Bool);
                              },
                              [dim, begin](const std::vector<IndexExpr>& index) {
                                  std::vector<IndexExpr> at = index;
                                  at[dim] = index[dim] - begin;
                                  return at;
                              }});
            offset = end;
        }
        return {piecewise(c, std::move(pieces))};
    };
    r["stack"] = [](LoweringContext& c, const LoweringArgs& a) -> std::vector<LValue> {
        std::vector<LValue> inputs = a.tensors("tensors");
        int64_t dim = normalizeDim(a.bound().integer("dim"), c.outputSizes().size());
        std::vector<Piece> pieces;
        for (size_t k = 0; k < inputs.size(); ++k) {
            int64_t position = static_cast<int64_t>(k);
            pieces.push_back({inputs[k],
                              [dim, position](LoopBodyBuilder& b, const std::vector<IndexExpr>& index) {
                                  int i = b.indexExpr(index[dim], DType::Int64);
                                  return b.call(LoopOpKind::Eq, {i, b.constant(static_cast<double>(position), DType::Int64)}, DType::Bool);
                              },
                              [dim](const std::vector<IndexExpr>& index) {
                                  std::vector<IndexExpr> at = index;
                                  at.erase(at.begin() + dim);
                                  return at;
                              }});
        }
        return {piecewise(c, std::move(pieces))};
    };
    return r;
}

}  // namespace

const std::map<std::string, LoweringRule>& concatRules() {
    static const std::map<std::string, LoweringRule> rules = makeRules();
    return rules;
}

}  // namespace fusescope
