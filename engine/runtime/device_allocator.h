#pragma once
// A device's memory for the intermediate buffers of generated code: what the code's
// fs_alloc and fs_free (declared by its prelude) call.

#include <cstdint>

namespace fusescope {

struct DeviceAllocator {
    void* (*allocate)(int64_t bytes);
    void (*release)(void* p, int64_t bytes);
};

}  // namespace fusescope
