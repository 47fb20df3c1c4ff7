#pragma once
// CPU memory for tensor storages and generated code's buffers: 64-byte aligned (whole
// vector registers), and blocks of 1 MiB or more are kept for reuse when freed, so a
// compiled function called in a loop finds its buffers already mapped instead of paying
// page faults on every call (as PyTorch's caching allocators avoid them).

#include <cstddef>

namespace fusescope {

// Contents are undefined. Throws ScriptError (RuntimeError) when memory runs out.
void* allocateBytes(std::size_t nbytes);
void releaseBytes(void* p, std::size_t nbytes);

// Hands every cached free block and malloc's free pages back to the system: what a
// long-lived process (the GUI's engine) does after each run, so its size returns to what
// it holds rather than to what its largest run needed.
void returnFreeMemory();

// Bounds the bytes held by live blocks (for fuzzing scripts, where a sanitizer's allocator
// cannot take a process memory limit): past it allocateBytes fails as when memory runs
// out. 0: no bound.
void setAllocationBudget(std::size_t bytes);

}  // namespace fusescope
