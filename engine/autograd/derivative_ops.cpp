#include "autograd/derivative_ops.h"

#include <algorithm>

#include "dispatch/dispatcher.h"

namespace fusescope::grad {

Tensor call(std::string_view op, const IValueList& args, const Kwargs& kwargs) {
    return dispatch(op, args, kwargs).toTensor();
}

Tensor add(const Tensor& a, const Tensor& b) { return call("add", {a, b}); }
Tensor sub(const Tensor& a, const Tensor& b) { return call("sub", {a, b}); }
Tensor mul(const Tensor& a, const Tensor& b) { return call("mul", {a, b}); }
Tensor mul(const Tensor& a, double b) { return call("mul", {a, b}); }
Tensor div(const Tensor& a, const Tensor& b) { return call("div", {a, b}); }
Tensor neg(const Tensor& a) { return call("neg", {a}); }
Tensor oneMinus(const Tensor& a) { return neg(call("sub", {a, 1.0})); }
Tensor transpose(const Tensor& a, int64_t dim0, int64_t dim1) { return call("transpose", {a, dim0, dim1}); }
Tensor reshape(const Tensor& a, const Shape& shape) { return call("reshape", {a, IValue::intList(shape)}); }
Tensor expand(const Tensor& a, const Shape& shape) { return call("expand", {a, IValue::intList(shape)}); }

Kwargs onDeviceOf(const Tensor& like) {
    if (like.device().isMeta()) return {};
    return {{"device", IValue(like.device())}};
}
Tensor zeros(const Shape& shape, const Tensor& like) {
    Kwargs kwargs = onDeviceOf(like);
    kwargs.emplace_back("dtype", IValue(like.dtype()));
    return call("zeros", {IValue::intList(shape)}, kwargs);
}
Tensor arange(int64_t end, const Tensor& like) { return call("arange", {end}, onDeviceOf(like)); }

Tensor placeInto(const Tensor& part, const Shape& whole, int64_t dim, int64_t start) {
    const auto d = static_cast<size_t>(dim < 0 ? dim + static_cast<int64_t>(whole.size()) : dim);
    Shape before = whole, after = whole;
    before[d] = start;
    after[d] = whole[d] - start - part.size(static_cast<int64_t>(d));
    IValueList pieces;
    if (before[d] > 0) pieces.emplace_back(zeros(before, part));
    pieces.emplace_back(part);
    if (after[d] > 0) pieces.emplace_back(zeros(after, part));
    return pieces.size() == 1 ? part : call("cat", {IValue::list(pieces), static_cast<int64_t>(d)});
}

Tensor fitTo(const Tensor& grad, const Tensor& argument) {
    Tensor fitted = sumToShape(grad, argument.sizes());
    return fitted.dtype() == argument.dtype() ? fitted : call("to", {fitted, argument.dtype()});
}

Tensor sumToShape(const Tensor& grad, const Shape& shape) {
    if (grad.sizes() == shape) return grad;
    const int64_t lead = grad.dim() - static_cast<int64_t>(shape.size());
    std::vector<int64_t> dims;
    for (int64_t d = 0; d < grad.dim(); ++d)
        if (d < lead || (shape[static_cast<size_t>(d - lead)] == 1 && grad.size(d) != 1)) dims.push_back(d);
    Tensor summed = dims.empty() ? grad : call("sum", {grad, IValue::intList(dims), true});
    return reshape(summed, shape);
}

Tensor unreduce(const Tensor& grad, const Shape& shape, std::vector<int64_t> dims, bool keepdim) {
    const auto rank = static_cast<int64_t>(shape.size());
    if (rank == 0) return reshape(grad, shape);  // a scalar reduced over its one dim (0 or -1) is itself
    if (!keepdim) {
        if (dims.empty())
            for (int64_t d = 0; d < rank; ++d) dims.push_back(d);
        for (int64_t& d : dims) d = d < 0 ? d + rank : d;
        std::sort(dims.begin(), dims.end());
        Shape kept = grad.sizes();
        for (int64_t d : dims) kept.insert(kept.begin() + d, 1);
        return expand(reshape(grad, kept), shape);
    }
    return expand(grad, shape);
}

}  // namespace fusescope::grad
