#include "core/cancellation.h"

#include "core/error.h"

namespace fusescope {

namespace {
thread_local const std::atomic<bool>* currentFlag = nullptr;
}  // namespace

CancellationScope::CancellationScope(const std::atomic<bool>& flag) : previous_(currentFlag) { currentFlag = &flag; }

CancellationScope::~CancellationScope() { currentFlag = previous_; }

void throwIfCancelled() {
    if (currentFlag && currentFlag->load(std::memory_order_relaxed))
        throw ScriptError("KeyboardInterrupt", "the run was cancelled");
}

}  // namespace fusescope
