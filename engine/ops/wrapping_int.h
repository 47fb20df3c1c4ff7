#pragma once
// Integer tensor arithmetic wraps around on overflow, as PyTorch's does: done on uint64_t,
// since signed overflow is undefined behaviour in C++ and unsigned arithmetic is not.

#include <cstdint>

namespace fusescope {

inline int64_t wrapAdd(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)); }
inline int64_t wrapMul(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b)); }

}  // namespace fusescope
