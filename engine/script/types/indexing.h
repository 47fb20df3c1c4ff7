#pragma once
// Python's index and slice arithmetic on sequences of length n, shared by the sequence
// types' subscript slots (list, tuple, str, range) and tensor indexing.

#include <cstdint>
#include <vector>

#include "script/value.h"

namespace fusescope {

// i, or n + i for a negative i; IndexError "<what> index out of range" outside [0, n).
int64_t normaliseIndex(int64_t i, int64_t n, Interpreter& interp, const char* what);

// A slice's start, stop and step on a sequence of length n, as CPython's PySlice_AdjustIndices.
struct SliceBounds {
    int64_t start, stop, step;
};
SliceBounds sliceBounds(const SliceObject& s, int64_t n, Interpreter& interp);
// The indices a slice selects on a sequence of length n, in its order.
std::vector<int64_t> sliceIndices(const SliceObject& s, int64_t n, Interpreter& interp);

// A tensor or a list among an index's parts: PyTorch's advanced indexing.
bool isAdvancedIndex(const ValueList& parts);

}  // namespace fusescope
