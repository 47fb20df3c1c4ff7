#pragma once
// softmax's and log_softmax's row sums add exp(x - max) over the row the max was taken
// over: every term is at most exp(0) = 1 and one of them is 1. Such an exp needs neither
// fs_exp's clamp against overflow nor its exact results below the normal floats (they add
// nothing to a sum that holds 1), and log_softmax's sum pass, which stores nothing, is
// bounded by the exp's instructions (docs/inductor.md "Generated C++").

#include <set>
#include <vector>

#include "lower/loop_body.h"
#include "schedule/scheduler.h"

namespace fusescope {

// Turns into ExpSummand each exp in `bodies` (the kernel's members as the writer holds them)
// that only a sum reduction reads, of `x - m` where `m` is loaded from a buffer another
// member reduces with max, over the same values as `x`, at the same index. A member in
// `alsoStored` (its reduced value is kept in an output too) keeps its exps.
void markExpSummands(const KernelGroup& kernel, std::vector<LoopBody>& bodies, const std::set<size_t>& alsoStored);

}  // namespace fusescope
