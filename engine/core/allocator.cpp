#include "core/allocator.h"

#include <cstdlib>
#ifdef __linux__
#include <sys/mman.h>
#endif
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <atomic>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "core/error.h"

namespace fusescope {

namespace {

constexpr std::size_t kAlignment = 64;
constexpr std::size_t kHugePage = 2u << 20;
constexpr std::size_t kCachedMin = 1u << 20;     // smaller blocks are malloc's business
constexpr std::size_t kCacheLimit = 1ull << 30;  // bytes kept free for reuse at most

struct BlockCache {
    std::mutex mutex;
    std::multimap<std::size_t, void*> free;  // capacity -> block
    std::size_t cachedBytes = 0;
};

BlockCache& cache() {
    static BlockCache* c = new BlockCache;  // never destroyed: storages may outlive statics
    return *c;
}

std::size_t capacityFor(std::size_t nbytes) { return (nbytes + kAlignment - 1) / kAlignment * kAlignment; }

std::atomic<std::size_t> budget{0};     // setAllocationBudget
std::atomic<std::size_t> liveBytes{0};  // held by live blocks

[[noreturn]] void outOfMemory(std::size_t nbytes) {
    throw ScriptError("RuntimeError", fmt::format("DefaultCPUAllocator: not enough memory: you tried to allocate {} bytes.", nbytes));
}

// Blocks of several huge pages start on one and ask for them (as PyTorch's allocator does
// with THP_MEM_ALLOC_ENABLE): a large tensor streams through fewer TLB entries.
void* alignedBlock(std::size_t capacity) {
#ifdef __linux__
    if (capacity >= 2 * kHugePage) {
        void* p = std::aligned_alloc(kHugePage, (capacity + kHugePage - 1) / kHugePage * kHugePage);
        if (p) madvise(p, capacity, MADV_HUGEPAGE);
        return p;
    }
#endif
    return std::aligned_alloc(kAlignment, capacity);
}

}  // namespace

void* allocateBytes(std::size_t nbytes) {
    if (nbytes > (std::size_t(1) << 62)) outOfMemory(nbytes);  // and capacityFor cannot wrap
    std::size_t capacity = capacityFor(nbytes == 0 ? 1 : nbytes);
    const std::size_t bound = budget.load();
    if (liveBytes.fetch_add(capacity) + capacity > bound && bound) {
        liveBytes -= capacity;
        outOfMemory(nbytes);
    }
    if (capacity >= kCachedMin) {
        BlockCache& c = cache();
        std::lock_guard<std::mutex> lock(c.mutex);
        auto it = c.free.find(capacity);
        if (it != c.free.end()) {
            void* p = it->second;
            c.cachedBytes -= capacity;
            c.free.erase(it);
            return p;
        }
    }
    void* p = alignedBlock(capacity);
    if (!p) {  // under a memory limit (serve --memory-limit) the cached free blocks may be what is missing
        returnFreeMemory();
        p = alignedBlock(capacity);
    }
    if (!p) {
        liveBytes -= capacity;
        outOfMemory(nbytes);
    }
    return p;
}

void releaseBytes(void* p, std::size_t nbytes) {
    if (!p) return;
    std::size_t capacity = capacityFor(nbytes == 0 ? 1 : nbytes);
    liveBytes -= capacity;
    if (capacity >= kCachedMin) {
        BlockCache& c = cache();
        std::lock_guard<std::mutex> lock(c.mutex);
        if (c.cachedBytes + capacity <= kCacheLimit) {
            c.free.emplace(capacity, p);
            c.cachedBytes += capacity;
            return;
        }
    }
    std::free(p);
}

void returnFreeMemory() {
    BlockCache& c = cache();
    {
        std::lock_guard<std::mutex> lock(c.mutex);
        for (const auto& [capacity, block] : c.free) std::free(block);
        c.free.clear();
        c.cachedBytes = 0;
    }
#ifdef __GLIBC__
    malloc_trim(0);  // freed heap pages, which glibc otherwise keeps for the process
#endif
}

void setAllocationBudget(std::size_t bytes) { budget = bytes; }

}  // namespace fusescope
