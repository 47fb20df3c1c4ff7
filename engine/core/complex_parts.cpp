#include "core/complex_parts.h"

#include <fmt/format.h>

#include "core/error.h"

namespace fusescope {

namespace {
// The same storage seen with other geometry and element type; meta tensors stay meta.
Tensor retyped(const Tensor& t, DType dtype, Shape sizes, Shape strides, int64_t offset) {
    auto impl = std::make_shared<TensorImpl>();
    impl->storage = t.storage();
    impl->device = t.device();
    impl->dtype = dtype;
    impl->sizes = std::move(sizes);
    impl->strides = std::move(strides);
    impl->storageOffset = offset;
    return Tensor(std::move(impl));
}
}  // namespace

Tensor complexAsPairs(const Tensor& complex) {
    if (!isComplex(complex.dtype())) throw ScriptError("TypeError", "view_as_real is only supported for complex tensors");
    Shape sizes = complex.sizes(), strides;
    sizes.push_back(2);
    for (int64_t s : complex.strides()) strides.push_back(2 * s);
    strides.push_back(1);
    return retyped(complex, complexValueType(complex.dtype()), std::move(sizes), std::move(strides), 2 * complex.storageOffset());
}

Tensor pairsAsComplex(const Tensor& pairs) {
    DType t = pairs.dtype();
    if (t == DType::Float16) throw ScriptError("NotImplementedError", "view_as_complex of a Half tensor is complex32, which Fusescope does not have");
    if (t != DType::Float32 && t != DType::Float64)
        throw ScriptError("NotImplementedError", "view_as_complex is only supported for half, float and double tensors, but got a tensor of scalar type: " +
                                                     std::string(dtypeScalarName(t)));
    if (pairs.dim() == 0 || pairs.sizes().back() != 2) throw ScriptError("RuntimeError", "Tensor must have a last dimension of size 2");
    if (pairs.strides().back() != 1) throw ScriptError("RuntimeError", "Tensor must have a last dimension with stride 1");
    Shape sizes(pairs.sizes().begin(), pairs.sizes().end() - 1), strides;
    for (std::size_t d = 0; d + 1 < pairs.strides().size(); ++d) {
        if (pairs.strides()[d] % 2 != 0) throw ScriptError("RuntimeError", "Tensor must have a stride divisible by 2 for all but last dimension");
        strides.push_back(pairs.strides()[d] / 2);
    }
    if (pairs.storageOffset() % 2 != 0) throw ScriptError("RuntimeError", "Tensor must have a storage_offset divisible by 2");
    return retyped(pairs, complexOf(t), std::move(sizes), std::move(strides), pairs.storageOffset() / 2);
}

Tensor complexPart(const Tensor& complex, int part) {
    Tensor pairs = complexAsPairs(complex);
    Shape sizes(pairs.sizes().begin(), pairs.sizes().end() - 1);
    Shape strides(pairs.strides().begin(), pairs.strides().end() - 1);
    return retyped(pairs, pairs.dtype(), std::move(sizes), std::move(strides), pairs.storageOffset() + part);
}

}  // namespace fusescope
