#pragma once
// Device memory for cuda tensors and generated code's buffers, cached like PyTorch's CUDA
// caching allocator: a freed block is kept for the next request of its size class instead
// of going back to cuMemFree (which synchronises the device), so a compiled function
// called in a loop allocates nothing from the driver after its first call.

#include <cstddef>
#include <map>
#include <mutex>

#include "runtime/cuda_driver.h"

namespace fusescope {

struct CudaMemoryStats {
    size_t allocated = 0;      // in blocks handed out
    size_t reserved = 0;       // obtained from the driver (allocated + cached)
    size_t peakAllocated = 0;
    size_t driverAllocations = 0;  // cuMemAlloc calls that succeeded
    size_t blocksHandedOut = 0;    // allocate() calls that succeeded
};

class CudaCachingAllocator {
public:
    static CudaCachingAllocator& instance();

    // A block of at least `bytes` (rounded up to the size class); contents undefined.
    // Out of memory, it empties the cache and retries once, then throws OutOfMemoryError
    // with PyTorch's numbers (what was asked, the device's capacity and free memory, what
    // Fusescope holds).
    CudaDevicePtr allocate(size_t bytes);
    void release(CudaDevicePtr p);

    // Returns every cached block to the driver.
    void emptyCache();
    CudaMemoryStats stats() const;

    // Requests are rounded up to 512 bytes, and those of 1 MiB or more to 2 MiB, so blocks
    // are found again when sizes vary a little (a dynamic batch).
    static size_t sizeClass(size_t bytes);

private:
    void emptyCacheLocked();
    mutable std::mutex mutex_;
    std::multimap<size_t, CudaDevicePtr> cached_;  // free blocks by size class
    std::map<CudaDevicePtr, size_t> live_;          // handed-out blocks and their size class
    CudaMemoryStats stats_;
};

}  // namespace fusescope
