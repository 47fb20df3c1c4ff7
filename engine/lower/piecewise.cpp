#include "lower/piecewise.h"

namespace fusescope {

int indexConstant(LoopBodyBuilder& b, const IndexExpr& e) {
    auto c = e.constant();
    return c ? b.constant(static_cast<double>(*c), DType::Int64) : b.indexExpr(e, DType::Int64);
}

LValue piecewise(LoweringContext& c, std::vector<Piece> pieces) {
    std::vector<LValue> from;
    // A constant piece (zeros beside a gradient: a split's backward) is emitted where it is
    // used; any other is read through masked loads, so it must be in a buffer.
    for (auto& p : pieces) {
        if (!p.value.storageBacked() && !p.value.filled)
            p.value = c.realize(p.value, nullptr, "an input of cat/stack, read through masked loads");
        from.push_back(p.value);
    }
    DType out = c.meta().dtype;
    return c.lazy(c.outputSizes(), out,
                  [pieces, out](LoopBodyBuilder& b, const std::vector<IndexExpr>& index) {
                      int result = -1;
                      for (size_t k = pieces.size(); k-- > 0;) {
                          const LValue& v = pieces[k].value;
                          int mask = pieces[k].mine(b, index);
                          int loaded = v.storageBacked()
                                           ? b.maskedLoad(v.buffer, v.view.indexOf(pieces[k].at(index)).simplify(b.ranges()),
                                                          mask, v.dtype)
                                           : v.load(b, pieces[k].at(index));
                          loaded = b.toDtype(loaded, out);
                          result = result < 0 ? loaded : b.call(LoopOpKind::Where, {mask, loaded, result}, out);
                      }
                      return result;
                  },
                  from);
}

}  // namespace fusescope
