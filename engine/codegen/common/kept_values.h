#pragma once
// A value a reduction accumulates that a later pointwise member of the same kernel computes
// again at the same element: softmax sums exp(x - max) over a row, then divides that exp by
// the sum. The reduction's pass stores each value where the later member writes its result,
// and that member reads it back instead of computing it again: one exp per element instead
// of two, while the row is still in cache.

#include <set>
#include <string>
#include <vector>

#include "lower/loop_body.h"
#include "schedule/scheduler.h"

namespace fusescope {

struct KeptValue {
    size_t reduction = 0;  // the member accumulating the value
    size_t reader = 0;     // the later member computing it again
    std::string buffer;    // the reader's output, where the value is kept until it is overwritten
    IndexExpr index;       // the reader's store index (over the kernel's variables)
    LoopBody readerBody;   // the reader's body, reading the kept value instead of computing it
};

// The values worth keeping in a kernel group: costly ones (transcendental math), stored in
// an output of their own type that is not `excluded` (an output written into its input's
// memory). At most one per reduction and per reader.
std::vector<KeptValue> keptValues(const KernelGroup& kernel, const std::set<std::string>& excluded);

}  // namespace fusescope
