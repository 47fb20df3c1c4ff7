#include "runtime/cuda_allocator.h"

#include <fmt/format.h>

namespace fusescope {

namespace {

constexpr int kOutOfMemory = 2;  // CUDA_ERROR_OUT_OF_MEMORY

std::string gib(size_t bytes) { return fmt::format("{:.2f} GiB", static_cast<double>(bytes) / (1ull << 30)); }

std::string mibOrGib(size_t bytes) {
    if (bytes >= (1ull << 30)) return gib(bytes);
    return fmt::format("{:.2f} MiB", static_cast<double>(bytes) / (1ull << 20));
}

}  // namespace

CudaCachingAllocator& CudaCachingAllocator::instance() {
    static CudaCachingAllocator* allocator = new CudaCachingAllocator;  // outlives every storage
    return *allocator;
}

size_t CudaCachingAllocator::sizeClass(size_t bytes) {
    constexpr size_t small = 512, large = 2u << 20;
    if (bytes == 0) bytes = 1;
    size_t unit = bytes >= (1u << 20) ? large : small;
    return (bytes + unit - 1) / unit * unit;
}

CudaDevicePtr CudaCachingAllocator::allocate(size_t bytes) {
    size_t size = sizeClass(bytes);
    std::lock_guard lock(mutex_);
    CudaDevicePtr p = 0;
    if (auto it = cached_.find(size); it != cached_.end()) {
        p = it->second;
        cached_.erase(it);
    } else {
        const CudaApi& cuda = cudaApi();
        int rc = cuda.cuMemAlloc(&p, size);
        if (rc == kOutOfMemory) {
            emptyCacheLocked();
            rc = cuda.cuMemAlloc(&p, size);
        }
        if (rc == kOutOfMemory) {
            size_t freeBytes = 0, total = 0;
            cuda.cuMemGetInfo(&freeBytes, &total);
            throw ScriptError("OutOfMemoryError",
                              fmt::format("CUDA out of memory. Tried to allocate {}. GPU 0 has a total capacity of {} of which {} "
                                          "is free. Of the allocated memory {} is allocated by Fusescope, and {} is reserved by "
                                          "Fusescope but unallocated.",
                                          mibOrGib(size), gib(total), mibOrGib(freeBytes), mibOrGib(stats_.allocated),
                                          mibOrGib(stats_.reserved - stats_.allocated)));
        }
        cudaCheck(rc, "cuMemAlloc");
        stats_.reserved += size;
        ++stats_.driverAllocations;
    }
    live_[p] = size;
    stats_.allocated += size;
    ++stats_.blocksHandedOut;
    stats_.peakAllocated = std::max(stats_.peakAllocated, stats_.allocated);
    return p;
}

void CudaCachingAllocator::release(CudaDevicePtr p) {
    if (!p) return;
    std::lock_guard lock(mutex_);
    auto it = live_.find(p);
    if (it == live_.end()) return;
    stats_.allocated -= it->second;
    cached_.emplace(it->second, p);
    live_.erase(it);
}

void CudaCachingAllocator::emptyCache() {
    std::lock_guard lock(mutex_);
    emptyCacheLocked();
}

void CudaCachingAllocator::emptyCacheLocked() {
    if (cached_.empty()) return;
    const CudaApi& cuda = cudaApi();
    for (const auto& [size, p] : cached_) {
        cuda.cuMemFree(p);
        stats_.reserved -= size;
    }
    cached_.clear();
}

CudaMemoryStats CudaCachingAllocator::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

}  // namespace fusescope
