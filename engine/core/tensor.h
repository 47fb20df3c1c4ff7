#pragma once
// A strided view onto shared storage, as in PyTorch: sizes, strides (in elements) and a
// storage offset over a Storage that several views may share.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/device.h"
#include "core/dtype.h"

namespace fusescope {

using Shape = std::vector<int64_t>;

// Contiguous (row-major) strides for sizes.
Shape contiguousStrides(const Shape& sizes);
int64_t shapeNumel(const Shape& sizes);
// ATen's computeStride: strides for viewing (sizes, strides) as newShape without copying,
// or nullopt when some new dim would span non-contiguous chunks.
std::optional<Shape> viewStrides(const Shape& oldShape, const Shape& oldStrides, const Shape& newShape);

// A copy of a storage's bytes in an accelerator's memory (runtime/cuda_memory.h makes them).
class DeviceCopy {
public:
    virtual ~DeviceCopy() = default;
    virtual void download(void* host, std::size_t nbytes) = 0;
};

class Storage {
public:
    // Zero-filled unless `zeroed` is false (generated code writes every element itself).
    Storage(std::size_t nbytes, Device device, bool zeroed = true);
    ~Storage();
    Storage(const Storage&) = delete;
    Storage& operator=(const Storage&) = delete;
    // The host bytes, first brought up to date from the device copy when a kernel wrote that
    // one last. Host code may write through the pointer, so the device copy is stale after.
    void* data() {
        syncHost();
        deviceValid_ = false;
        return data_;
    }
    const void* data() const {
        syncHost();
        return data_;
    }
    std::size_t nbytes() const { return nbytes_; }
    Device device() const { return device_; }

    // The device copy (null until a kernel needs this storage), and which copy is current:
    // the runtime uploads the host bytes when !deviceValid(), and marks the device copy
    // written after a kernel stores into it, so the host copy waits for the next host access.
    DeviceCopy* deviceCopy() const { return deviceCopy_.get(); }
    void setDeviceCopy(std::unique_ptr<DeviceCopy> copy) { deviceCopy_ = std::move(copy), deviceValid_ = false; }
    bool deviceValid() const { return deviceCopy_ && deviceValid_; }
    void markUploaded() { deviceValid_ = true; }
    void markDeviceWritten() { deviceValid_ = true, hostValid_ = false; }

    // PyTorch's version counter, shared by every tensor viewing this storage: each in-place
    // op bumps it, so autograd finds a saved tensor changed after it was saved.
    int64_t version() const { return version_; }
    void bumpVersion() { ++version_; }

private:
    void syncHost() const {
        if (!hostValid_) deviceCopy_->download(data_, nbytes_), hostValid_ = true;
    }
    void* data_ = nullptr;
    std::size_t nbytes_ = 0;
    Device device_;
    std::unique_ptr<DeviceCopy> deviceCopy_;
    bool deviceValid_ = false;
    mutable bool hostValid_ = true;
    int64_t version_ = 0;
};

struct AutogradNode;  // core/autograd_node.h
struct TensorImpl;

// What eager autograd keeps on a tensor (core/autograd_node.h).
struct AutogradMeta {
    // The backward node of the op that computed it from tensors requiring grad, and which of
    // that op's results it is; null for a leaf.
    std::shared_ptr<AutogradNode> gradFn;
    int outputNr = 0;
    // A leaf's AccumulateGrad node, made when an op first uses it: every use adds to one .grad.
    std::shared_ptr<AutogradNode> accumulator;
    std::shared_ptr<TensorImpl> grad;  // .grad: of a leaf, or of a tensor that retains its grad
    bool retainsGrad = false;
    // A view's base (the tensor, itself no view, whose storage it shows) and the storage's
    // version when its history was last made: an in-place op on the view or its base since
    // means its history must be made again from the base's (autograd/view_history.h).
    std::shared_ptr<TensorImpl> viewBase;
    int64_t viewVersion = 0;
};

struct TensorImpl {
    std::shared_ptr<Storage> storage;  // null for meta tensors
    Shape sizes;
    Shape strides;
    int64_t storageOffset = 0;
    DType dtype = DType::Float32;
    Device device;
    bool requiresGrad = false;
    AutogradMeta autograd;
    // A 0-dim tensor made from a Python number passed where a Tensor was expected; type
    // promotion gives it the lowest priority (PyTorch's "wrapped number").
    bool wrappedNumber = false;
    // torch.nn.Parameter: a leaf tensor a module registers as a parameter (prints as
    // "Parameter containing:").
    bool isParameter = false;
    // torch._dynamo.mark_dynamic's dims (PyTorch's _dynamo_dynamic_indices): a compile that
    // lifts the tensor makes them symbolic from the first compile on.
    std::vector<int64_t> dynamoDynamicDims;
};

class Tensor {
public:
    Tensor() = default;  // undefined tensor
    explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

    // New contiguous tensor; contents uninitialised (zeroed for determinism).
    static Tensor empty(const Shape& sizes, DType dtype, Device device = Device::cpu());
    // A contiguous CPU tensor whose elements are not initialised (for outputs that are
    // written in full before anyone reads them).
    static Tensor uninitialized(const Shape& sizes, DType dtype);
    // Meta tensor: sizes/strides/dtype only, no storage.
    static Tensor emptyMeta(const Shape& sizes, const Shape& strides, DType dtype);
    // 0-dim tensors holding one value.
    static Tensor scalar(double value, DType dtype);

    bool defined() const { return impl_ != nullptr; }
    TensorImpl* impl() const { return impl_.get(); }
    const std::shared_ptr<TensorImpl>& implPtr() const { return impl_; }

    const Shape& sizes() const { return impl_->sizes; }
    const Shape& strides() const { return impl_->strides; }
    int64_t size(int64_t dim) const;  // negative dims wrap
    int64_t stride(int64_t dim) const;
    int64_t storageOffset() const { return impl_->storageOffset; }
    int64_t dim() const { return static_cast<int64_t>(impl_->sizes.size()); }
    int64_t numel() const { return shapeNumel(impl_->sizes); }
    DType dtype() const { return impl_->dtype; }
    Device device() const { return impl_->device; }
    bool isMeta() const { return impl_->device.isMeta(); }
    bool requiresGrad() const { return impl_->requiresGrad; }
    void setRequiresGrad(bool value) const { impl_->requiresGrad = value; }
    bool isLeaf() const { return impl_->autograd.gradFn == nullptr; }
    int64_t version() const { return impl_->storage ? impl_->storage->version() : 0; }
    // PyTorch's name of its backward node ("MulBackward0"); "" for a leaf.
    const std::string& gradFnName() const;
    // Labels a freshly computed result with the device its inputs were on: cuda tensors run
    // on the CPU under GPU code generation only (core/device_context.h).
    void setDevice(Device device) const { impl_->device = device; }
    bool isContiguous() const;
    const std::shared_ptr<Storage>& storage() const { return impl_->storage; }

    // A view sharing this tensor's storage.
    Tensor asStrided(const Shape& sizes, const Shape& strides, int64_t storageOffset) const;
    // Make this impl (and so every handle to it) become `other`: same storage, sizes,
    // strides, offset, dtype, device. Tracing uses it to turn meta tensors into real ones.
    void become(const Tensor& other) const;

    // Element access by multi-index / flat row-major index, converted to double
    // (int64 values beyond 2^53 lose precision; use readInt64 for those).
    double readDouble(int64_t flatIndex) const;
    int64_t readInt64(int64_t flatIndex) const;
    void writeDouble(int64_t flatIndex, double value) const;
    double item() const;  // requires numel() == 1
    // Storage offset (in elements) of the element at a row-major flat index of this view.
    int64_t elementOffset(int64_t flatIndex) const;
    bool isWrappedNumber() const { return impl_->wrappedNumber; }

    // Typed pointer to element 0 of this view (storage + offset). CPU only.
    void* dataPtr() const;
    template <class T>
    T* data() const { return static_cast<T*>(dataPtr()); }

private:
    std::shared_ptr<TensorImpl> impl_;
};

}  // namespace fusescope
