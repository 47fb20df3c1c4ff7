// Temporary: registration hooks for op families not landed yet.
#include "ops/op_registration.h"

namespace fusescope {
void registerReductionOps(OpRegistry&) {}
void registerNnLinalgOps(OpRegistry&) {}
}  // namespace fusescope
