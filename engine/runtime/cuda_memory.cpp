#include "runtime/cuda_memory.h"

#include <utility>

#include "runtime/cuda_allocator.h"

namespace fusescope {

namespace {

class CudaCopy : public DeviceCopy {
public:
    explicit CudaCopy(size_t nbytes) : pointer_(CudaCachingAllocator::instance().allocate(nbytes)) {}
    ~CudaCopy() override { CudaCachingAllocator::instance().release(pointer_); }
    // Synchronous on the legacy default stream: waits for the kernels that wrote it.
    void download(void* host, std::size_t nbytes) override {
        if (nbytes) cudaCheck(cudaApi().cuMemcpyDtoH(host, pointer_, nbytes), "cuMemcpyDtoH");
    }
    CudaDevicePtr pointer() const { return pointer_; }

private:
    CudaDevicePtr pointer_;
};

CudaCopy& deviceCopyOf(Storage& storage) {
    if (!storage.deviceCopy()) storage.setDeviceCopy(std::make_unique<CudaCopy>(storage.nbytes()));
    return static_cast<CudaCopy&>(*storage.deviceCopy());
}

}  // namespace

CudaDevicePtr cudaDataPtr(const Tensor& t) {
    Storage& storage = *t.storage();
    CudaCopy& copy = deviceCopyOf(storage);
    if (!storage.deviceValid()) {
        const void* host = std::as_const(storage).data();
        if (storage.nbytes()) cudaCheck(cudaApi().cuMemcpyHtoD(copy.pointer(), host, storage.nbytes()), "cuMemcpyHtoD");
        storage.markUploaded();
    }
    return copy.pointer() + static_cast<CudaDevicePtr>(t.storageOffset()) * dtypeSize(t.dtype());
}

Tensor cudaResultTensor(int64_t numel, DType dtype, Device device) {
    auto impl = std::make_shared<TensorImpl>();
    impl->storage = std::make_shared<Storage>(static_cast<size_t>(numel) * dtypeSize(dtype), device, /*zeroed=*/false);
    deviceCopyOf(*impl->storage);
    impl->storage->markDeviceWritten();
    impl->sizes = {numel};
    impl->strides = {1};
    impl->dtype = dtype;
    impl->device = device;
    return Tensor(impl);
}

void markDeviceWritten(const Tensor& t) { t.storage()->markDeviceWritten(); }

}  // namespace fusescope
