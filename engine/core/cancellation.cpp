#include "core/cancellation.h"

#include "core/error.h"

namespace fusescope {

void throwIfCancelled() {
    if (ThreadCurrent<const std::atomic<bool>>::get().load(std::memory_order_relaxed))
        throw ScriptError("KeyboardInterrupt", "the run was cancelled");
}

}  // namespace fusescope
