#pragma once
// The ops derivatives are written with (OpDef::derivative): each dispatches the op as the
// engine's own call, so a gradient is computed by the same kernels as everything else.
// Backward runs with grad mode off, so these record no nodes.

#include <string_view>

#include "ops/op_registry.h"

namespace fusescope::grad {

Tensor call(std::string_view op, const IValueList& args, const Kwargs& kwargs = {});

// The node PyTorch records for an op it declares not differentiable (floor_divide): backward
// through it raises "derivative for aten::NAME is not implemented".
inline constexpr const char* kNotImplementedNode = "torch::autograd::NotImplemented";

Tensor add(const Tensor& a, const Tensor& b);
Tensor sub(const Tensor& a, const Tensor& b);
Tensor mul(const Tensor& a, const Tensor& b);
Tensor mul(const Tensor& a, double b);
Tensor div(const Tensor& a, const Tensor& b);
Tensor neg(const Tensor& a);
Tensor oneMinus(const Tensor& a);  // 1 - a
Tensor transpose(const Tensor& a, int64_t dim0, int64_t dim1);
Tensor reshape(const Tensor& a, const Shape& shape);
Tensor expand(const Tensor& a, const Shape& shape);

// A derivative's constants go where its gradients are: factory keywords putting a result
// on `like`'s device; zeros of `like`'s dtype on its device; 0..end-1 (int64) on its device.
// A meta `like` (AOT Autograd tracing a joint graph) adds no device: the graph is compiled
// for one, and its factories make their tensors there (eagerRunner).
Kwargs onDeviceOf(const Tensor& like);
Tensor zeros(const Shape& shape, const Tensor& like);
Tensor arange(int64_t end, const Tensor& like);
// `part` put at `start` along `dim` of a zero tensor of shape `whole` (the gradient of a
// slice, narrow or select of a tensor of that shape).
Tensor placeInto(const Tensor& part, const Shape& whole, int64_t dim, int64_t start);

// The gradient for an argument from one of the result's shape: summed to the argument's
// shape (sumToShape) and in its dtype.
Tensor fitTo(const Tensor& grad, const Tensor& argument);
// Undoes broadcasting: `grad`, of a result broadcast from an argument of `shape`, summed
// over the dims the broadcast added or stretched from 1.
Tensor sumToShape(const Tensor& grad, const Shape& shape);
// The gradient of a reduction over `dims` (all when empty) of a tensor of `shape`, spread
// back over it: the reduced dims put back (keepdim) and expanded.
Tensor unreduce(const Tensor& grad, const Shape& shape, std::vector<int64_t> dims, bool keepdim);

}  // namespace fusescope::grad
