#pragma once
// Which kernels sum float32 values in chunks. Inductor's C++ backend accumulates a float sum
// over more than 4096 elements through a cascade-sum helper, for precision (cpp.py's
// need_use_acc_helper); Fusescope's kernels then add each chunk's sum to the total
// (codegen/cpp/cpp_kernel.cpp). A symbolic reduction size is decided from its current value
// and guarded, as there: a later call's sizes take the same side of 4096.

#include <cstdint>

#include "graph/graph_compiler.h"
#include "lower/ir.h"
#include "schedule/scheduler.h"

namespace fusescope {

constexpr int64_t kSumChunk = 4096;  // Inductor's chunk size

// Sets KernelGroup::chunkedSums; `guardSize` (may be null) receives each symbolic size's guard.
void chooseChunkedSums(Schedule& schedule, const LoweredGraph& graph, const SizeGuardSink& guardSize);

}  // namespace fusescope
