#pragma once
// Stopping a run in the middle of a long eager kernel (serve's cancel, the CLI's Ctrl+C).
// The run's session makes its cancel flag current on the interpreter's thread; kernels
// that loop over many elements poll it between blocks and raise KeyboardInterrupt, which
// reaches the script line of the op like any error of the op.

#include <atomic>
#include <cstdint>

#include "core/thread_current.h"

namespace fusescope {

// Makes a flag the current run's cancel flag on this thread while it lives.
using CancellationScope = ThreadCurrent<const std::atomic<bool>>::Scope;

// Throws ScriptError("KeyboardInterrupt") when this thread's run was cancelled.
void throwIfCancelled();

// Elements a kernel handles between two polls: a poll costs nothing next to them, and the
// longest wait for a cancel stays far under a second.
inline constexpr int64_t kCancelPollElements = int64_t{1} << 16;

}  // namespace fusescope
