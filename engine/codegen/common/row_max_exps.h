#pragma once
// softmax's and log_softmax's exp(x - max) over the row the max was taken over: its argument
// is at most 0 (or NaN), so the exp needs no clamp against overflow, and when only the row's
// sum reads it (every term at most exp(0) = 1, one of them 1) not even exact results below
// the normal floats, which add nothing to that sum. Both passes are bounded by the exp's
// instructions (docs/inductor.md "Generated C++").

#include <set>
#include <vector>

#include "lower/loop_body.h"
#include "schedule/scheduler.h"

namespace fusescope {

// Each exp in `bodies` (the kernel's members as the writer holds them) of `x - m`, where `m`
// is loaded from a buffer another member reduces with max, over the same values as `x`, at
// the same index, becomes ExpSummand when only a sum reduction reads it and its member is not
// in `alsoStored` (its reduced value kept in an output too), else ExpNonPositive.
void markRowMaxExps(const KernelGroup& kernel, std::vector<LoopBody>& bodies, const std::set<size_t>& alsoStored);

}  // namespace fusescope
