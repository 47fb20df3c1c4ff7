#pragma once
// The real arithmetic of complex products and quotients, written once for eager tensors
// (opdefs/complex.cpp) and for graph values (lower/complex_as_pairs.cpp), so compiled code
// computes what eager computes. `call(op, {a, b})` computes or emits the real op `op`.

#include <string>
#include <utility>

namespace fusescope {

template <class V>
struct ComplexParts {
    V re, im;
};

// (a + bi)(c + di) = (ac - bd) + (ad + bc)i, each product rounded, then the sums (as
// Vectorized<c10::complex<float>> computes it); `product` is mul or a matrix product.
template <class V, class Call>
ComplexParts<V> complexProduct(const ComplexParts<V>& x, const ComplexParts<V>& y, const std::string& product, Call call) {
    return {call("sub", {call(product, {x.re, y.re}), call(product, {x.im, y.im})}),
            call("add", {call(product, {x.re, y.im}), call(product, {x.im, y.re})})};
}

// (a + bi) / (c + di), both first scaled by 1 / max(|c|, |d|), so that squaring the divisor
// overflows only where the quotient does (PyTorch's vectorized complex division scales so).
template <class V, class Call>
ComplexParts<V> complexQuotient(const ComplexParts<V>& x, const ComplexParts<V>& y, Call call) {
    V scale = call("reciprocal", {call("maximum", {call("abs", {y.re}), call("abs", {y.im})})});
    V a = call("mul", {x.re, scale}), b = call("mul", {x.im, scale});
    V c = call("mul", {y.re, scale}), d = call("mul", {y.im, scale});
    V denominator = call("add", {call("mul", {c, c}), call("mul", {d, d})});
    V re = call("add", {call("mul", {a, c}), call("mul", {b, d})});
    V im = call("sub", {call("mul", {b, c}), call("mul", {a, d})});
    return {call("div", {re, denominator}), call("div", {im, denominator})};
}

}  // namespace fusescope
