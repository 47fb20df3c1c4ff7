#include "script/types/indexing.h"

#include <algorithm>

#include "script/interpreter.h"
#include "script/types/numbers.h"

namespace fusescope {

int64_t normaliseIndex(int64_t i, int64_t n, Interpreter& interp, const char* what) {
    if (i < 0) i += n;
    if (i < 0 || i >= n) interp.fail("IndexError", std::string(what) + " index out of range");
    return i;
}

SliceBounds sliceBounds(const SliceObject& s, int64_t n, Interpreter& interp) {
    auto bound = [&](const Value& v) {
        if (!isIntLike(v)) interp.fail("TypeError", "slice indices must be integers or None or have an __index__ method");
        return intOf(v);
    };
    int64_t step = s.step.isNone() ? 1 : bound(s.step);
    if (step == 0) interp.fail("ValueError", "slice step cannot be zero");
    auto clamp = [&](const Value& v, int64_t dflt) {
        if (v.isNone()) return dflt;
        int64_t i = bound(v);
        if (i < 0) i += n;
        if (step > 0) return std::clamp<int64_t>(i, 0, n);
        return std::clamp<int64_t>(i, -1, n - 1);
    };
    return {clamp(s.start, step > 0 ? 0 : n - 1), clamp(s.stop, step > 0 ? n : -1), step};
}

std::vector<int64_t> sliceIndices(const SliceObject& s, int64_t n, Interpreter& interp) {
    SliceBounds b = sliceBounds(s, n, interp);
    std::vector<int64_t> out;
    for (int64_t i = b.start; b.step > 0 ? i < b.stop : i > b.stop;) {
        out.push_back(i);
        if (__builtin_add_overflow(i, b.step, &i)) break;
    }
    return out;
}

bool isAdvancedIndex(const ValueList& parts) {
    return std::any_of(parts.begin(), parts.end(), [](const Value& p) { return p.isTensor() || p.as<ListObject>(); });
}

}  // namespace fusescope
