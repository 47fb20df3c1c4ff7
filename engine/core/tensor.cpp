#include "core/tensor.h"

#include <unistd.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <new>
#include <stdexcept>

#include <fmt/format.h>

#include "core/allocator.h"
#include "core/error.h"
#include "core/half.h"

namespace fusescope {

Shape contiguousStrides(const Shape& sizes) {
    Shape strides(sizes.size());
    int64_t s = 1;
    for (std::size_t i = sizes.size(); i-- > 0;) {
        strides[i] = s;
        if (__builtin_mul_overflow(s, std::max<int64_t>(sizes[i], 1), &s))
            throw ScriptError("RuntimeError", "numel: integer multiplication overflow");  // PyTorch's words
    }
    return strides;
}

int64_t shapeNumel(const Shape& sizes) {
    // Any zero size makes the product zero, however large the others (as PyTorch).
    for (int64_t s : sizes)
        if (s == 0) return 0;
    int64_t n = 1;
    for (int64_t s : sizes)
        if (__builtin_mul_overflow(n, s, &n))
            throw ScriptError("RuntimeError", "numel: integer multiplication overflow");  // PyTorch's words
    return n;
}

std::optional<Shape> viewStrides(const Shape& oldShape, const Shape& oldStrides, const Shape& newShape) {
    if (oldShape.empty()) return Shape(newShape.size(), 1);
    int64_t numel = shapeNumel(oldShape);
    if (numel == 0 && oldShape == newShape) return oldStrides;
    Shape newStrides(newShape.size());
    if (numel == 0) {
        for (std::ptrdiff_t d = static_cast<std::ptrdiff_t>(newShape.size()) - 1; d >= 0; --d) {
            std::size_t u = static_cast<std::size_t>(d);
            newStrides[u] = u + 1 == newShape.size() ? 1 : std::max<int64_t>(newShape[u + 1], 1) * newStrides[u + 1];
        }
        return newStrides;
    }
    std::ptrdiff_t viewD = static_cast<std::ptrdiff_t>(newShape.size()) - 1;
    int64_t chunkBase = oldStrides.back();
    int64_t tensorNumel = 1, viewNumel = 1;
    for (std::ptrdiff_t td = static_cast<std::ptrdiff_t>(oldShape.size()) - 1; td >= 0; --td) {
        std::size_t t = static_cast<std::size_t>(td);
        tensorNumel *= oldShape[t];
        if (td == 0 || (oldShape[t - 1] != 1 && oldStrides[t - 1] != tensorNumel * chunkBase)) {
            while (viewD >= 0 && (viewNumel < tensorNumel || newShape[static_cast<std::size_t>(viewD)] == 1)) {
                newStrides[static_cast<std::size_t>(viewD)] = viewNumel * chunkBase;
                viewNumel *= newShape[static_cast<std::size_t>(viewD)];
                --viewD;
            }
            if (viewNumel != tensorNumel) return std::nullopt;
            if (td > 0) {
                chunkBase = oldStrides[t - 1];
                tensorNumel = 1;
                viewNumel = 1;
            }
        }
    }
    if (viewD != -1) return std::nullopt;
    return newStrides;
}

namespace {
// Requests beyond the machine's physical memory fail before they reach the allocator
// (which, under overcommit or a sanitizer, might not fail cleanly).
std::size_t physicalMemoryBytes() {
    static const std::size_t bytes = [] {
        long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
        if (pages <= 0 || pageSize <= 0) return std::size_t{1} << 40;
        return static_cast<std::size_t>(pages) * static_cast<std::size_t>(pageSize);
    }();
    return bytes;
}

[[noreturn]] void failAllocation(std::size_t nbytes) {
    throw ScriptError("RuntimeError",
                      fmt::format("DefaultCPUAllocator: not enough memory: you tried to allocate {} bytes.", nbytes));
}

// Bytes of a contiguous tensor of these sizes.
std::size_t storageBytes(const Shape& sizes, DType dtype) {
    std::size_t nbytes = 0;
    if (__builtin_mul_overflow(static_cast<std::size_t>(shapeNumel(sizes)), dtypeSize(dtype), &nbytes))
        throw ScriptError("RuntimeError", fmt::format("Storage size calculation overflowed with sizes=[{}]", fmt::join(sizes, ", ")));
    return nbytes;
}
}  // namespace

Storage::Storage(std::size_t nbytes, Device device, bool zeroed) : nbytes_(nbytes), device_(device) {
    if (nbytes > physicalMemoryBytes()) failAllocation(nbytes);
    data_ = allocateBytes(nbytes);
    if (zeroed) std::memset(data_, 0, nbytes);
}

Storage::~Storage() { releaseBytes(data_, nbytes_); }

namespace {
int64_t wrapDim(int64_t dim, int64_t ndim) {
    int64_t n = std::max<int64_t>(ndim, 1);
    if (dim < -n || dim >= n)
        throw ScriptError("IndexError", fmt::format("Dimension out of range (expected to be in range of [{}, {}], but got {})",
                                                    -n, n - 1, dim));
    return dim < 0 ? dim + n : dim;
}
}  // namespace

Tensor Tensor::uninitialized(const Shape& sizes, DType dtype) {
    auto impl = std::make_shared<TensorImpl>();
    impl->storage = std::make_shared<Storage>(storageBytes(sizes, dtype), Device::cpu(), false);
    impl->sizes = sizes;
    impl->strides = contiguousStrides(sizes);
    impl->dtype = dtype;
    return Tensor(std::move(impl));
}

Tensor Tensor::empty(const Shape& sizes, DType dtype, Device device) {
    for (int64_t s : sizes)
        if (s < 0)
            throw ScriptError("RuntimeError",
                              fmt::format("Trying to create tensor with negative dimension {}: [{}]", s, fmt::join(sizes, ", ")));
    if (device.isMeta()) return emptyMeta(sizes, contiguousStrides(sizes), dtype);
    auto impl = std::make_shared<TensorImpl>();
    impl->storage = std::make_shared<Storage>(storageBytes(sizes, dtype), device);
    impl->sizes = sizes;
    impl->strides = contiguousStrides(sizes);
    impl->dtype = dtype;
    impl->device = device;
    return Tensor(std::move(impl));
}

Tensor Tensor::emptyMeta(const Shape& sizes, const Shape& strides, DType dtype) {
    auto impl = std::make_shared<TensorImpl>();
    impl->sizes = sizes;
    impl->strides = strides;
    impl->dtype = dtype;
    impl->device = Device::meta();
    return Tensor(std::move(impl));
}

Tensor Tensor::scalar(double value, DType dtype) {
    Tensor t = empty({}, dtype);
    t.writeDouble(0, value);
    return t;
}

int64_t Tensor::size(int64_t dim) const { return impl_->sizes[wrapDim(dim, this->dim())]; }
int64_t Tensor::stride(int64_t dim) const { return impl_->strides[wrapDim(dim, this->dim())]; }

bool Tensor::isContiguous() const {
    // PyTorch ignores strides of size-1 dims, and any tensor without elements is contiguous.
    int64_t expected = 1;
    for (std::size_t i = impl_->sizes.size(); i-- > 0;) {
        int64_t s = impl_->sizes[i];
        if (s == 0) return true;
        if (s == 1) continue;
        if (impl_->strides[i] != expected) return false;
        expected *= s;
    }
    return true;
}

Tensor Tensor::asStrided(const Shape& sizes, const Shape& strides, int64_t storageOffset) const {
    shapeNumel(sizes);  // a view's element count must fit too (an expand raises, as in PyTorch)
    auto impl = std::make_shared<TensorImpl>(*impl_);
    impl->sizes = sizes;
    impl->strides = strides;
    impl->storageOffset = storageOffset;
    impl->wrappedNumber = false;
    impl->isParameter = false;
    impl->requiresGrad = false;  // a view op's grad mode decides (dispatch/autograd_layer.cpp)
    impl->autograd = {};
    return Tensor(std::move(impl));
}

void Tensor::become(const Tensor& other) const {
    bool grad = impl_->requiresGrad;
    *impl_ = *other.impl_;
    impl_->requiresGrad = impl_->requiresGrad || grad;
}

int64_t Tensor::elementOffset(int64_t flatIndex) const {
    int64_t offset = impl_->storageOffset;
    for (std::size_t i = impl_->sizes.size(); i-- > 0;) {
        int64_t s = impl_->sizes[i];
        offset += (flatIndex % s) * impl_->strides[i];
        flatIndex /= s;
    }
    return offset;
}

void* Tensor::dataPtr() const {
    if (!impl_->storage)
        throw ScriptError("RuntimeError", "Cannot access data of a tensor on device '" + impl_->device.str() + "'");
    return static_cast<unsigned char*>(impl_->storage->data()) +
           impl_->storageOffset * static_cast<int64_t>(dtypeSize(impl_->dtype));
}

namespace {
unsigned char* elementPtr(const Tensor& t, int64_t flatIndex) {
    if (flatIndex < 0 || flatIndex >= t.numel())
        throw ScriptError("IndexError", fmt::format("index {} is out of bounds for tensor with {} elements", flatIndex, t.numel()));
    if (!t.storage())
        throw ScriptError("RuntimeError", "Cannot access data of a tensor on device '" + t.device().str() + "'");
    return static_cast<unsigned char*>(t.storage()->data()) +
           t.elementOffset(flatIndex) * static_cast<int64_t>(dtypeSize(t.dtype()));
}

template <class T>
T load(const unsigned char* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
// A complex element read or written as one real number would lose its imaginary part.
ScriptError complexAsReal(DType t) {
    return ScriptError("RuntimeError", fmt::format("a {} element cannot be read or written as a real number", dtypeName(t)));
}
template <class T>
void store(unsigned char* p, T v) {
    std::memcpy(p, &v, sizeof v);
}
}  // namespace

double Tensor::readDouble(int64_t flatIndex) const {
    const unsigned char* p = elementPtr(*this, flatIndex);
    switch (dtype()) {
        case DType::Bool: return *p ? 1.0 : 0.0;
        case DType::Int32: return load<int32_t>(p);
        case DType::Int64: return static_cast<double>(load<int64_t>(p));
        case DType::Float16: return halfToFloat(load<uint16_t>(p));
        case DType::BFloat16: return bfloat16ToFloat(load<uint16_t>(p));
        case DType::Float32: return load<float>(p);
        case DType::Float64: return load<double>(p);
        case DType::Complex64: case DType::Complex128: throw complexAsReal(dtype());
    }
    return 0;
}

int64_t Tensor::readInt64(int64_t flatIndex) const {
    const unsigned char* p = elementPtr(*this, flatIndex);
    switch (dtype()) {
        case DType::Bool: return *p ? 1 : 0;
        case DType::Int32: return load<int32_t>(p);
        case DType::Int64: return load<int64_t>(p);
        default: return static_cast<int64_t>(readDouble(flatIndex));
    }
}

void Tensor::writeDouble(int64_t flatIndex, double value) const {
    unsigned char* p = elementPtr(*this, flatIndex);
    switch (dtype()) {
        case DType::Bool: *p = value != 0.0; break;
        case DType::Int32: store<int32_t>(p, static_cast<int32_t>(value)); break;
        case DType::Int64: store<int64_t>(p, static_cast<int64_t>(value)); break;
        case DType::Float16: store<uint16_t>(p, floatToHalf(static_cast<float>(value))); break;
        case DType::BFloat16: store<uint16_t>(p, floatToBfloat16(static_cast<float>(value))); break;
        case DType::Float32: store<float>(p, static_cast<float>(value)); break;
        case DType::Float64: store<double>(p, value); break;
        case DType::Complex64: case DType::Complex128: throw complexAsReal(dtype());
    }
}

double Tensor::item() const {
    if (numel() != 1)
        throw ScriptError("RuntimeError",
                          fmt::format("a Tensor with {} elements cannot be converted to Scalar", numel()));
    if (isMeta())
        throw ScriptError("RuntimeError",
                          "Tensor.item() cannot be called on meta tensors");
    return readDouble(0);
}

}  // namespace fusescope
