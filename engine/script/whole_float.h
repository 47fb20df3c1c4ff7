#pragma once
// A float with no fraction left (floor, ceil, trunc or round of one) as a script int.

#include <cmath>
#include <cstdint>

#include "script/interpreter.h"

namespace fusescope {

// Fails as Python does: NaN is a ValueError, an infinity an OverflowError; past 64 bits is
// the OverflowError of every script int that would outgrow them (Python's ints grow).
inline int64_t wholeFloatToInt(const Interpreter& in, double whole) {
    if (std::isnan(whole)) in.fail("ValueError", "cannot convert float NaN to integer");
    if (std::isinf(whole)) in.fail("OverflowError", "cannot convert float infinity to integer");
    if (whole >= 0x1p63 || whole < -0x1p63) in.fail("OverflowError", "integer overflow (script ints are 64-bit)");
    return static_cast<int64_t>(whole);
}

}  // namespace fusescope
