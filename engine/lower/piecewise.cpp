#include "lower/piecewise.h"

namespace fusescope {

int indexConstant(LoopBodyBuilder& b, const IndexExpr& e) {
    auto c = e.constant();
    return c ? b.constant(static_cast<double>(*c), DType::Int64) : b.indexExpr(e, DType::Int64);
}

LValue piecewise(LoweringContext& c, std::vector<Piece> pieces) {
    std::vector<LValue> from;
    for (auto& p : pieces) {
        if (!p.value.storageBacked()) p.value = c.realize(p.value, nullptr, "an input of cat/stack, read through masked loads");
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

}  // namespace fusescope
