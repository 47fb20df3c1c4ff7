#pragma once
// Python's int arithmetic on the interpreter's ints (int64_t) and bools: what the number
// type's slots (types/number_type.cpp), comparisons and indexing share.

#include <cstdint>

#include "script/ast.h"
#include "script/value.h"

namespace fusescope {

inline bool isIntLike(const Value& v) { return v.isInt() || v.isBool(); }
inline int64_t intOf(const Value& v) { return v.isBool() ? (v.asBool() ? 1 : 0) : v.asInt(); }
inline double floatOf(const Value& v) { return v.isFloat() ? v.asFloat() : static_cast<double>(intOf(v)); }

// a // b and a % b rounding toward negative infinity, as Python's (b != 0).
inline int64_t floorDivInt(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}
inline int64_t floorModInt(int64_t a, int64_t b) {
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}

// The answer of an ordering or equality operator to a three-way comparison c (<0, 0, >0).
inline bool orderedAs(CompareOperator op, int c) {
    switch (op) {
    case CompareOperator::Eq: return c == 0;
    case CompareOperator::NotEq: return c != 0;
    case CompareOperator::Lt: return c < 0;
    case CompareOperator::LtE: return c <= 0;
    case CompareOperator::Gt: return c > 0;
    case CompareOperator::GtE: return c >= 0;
    default: return false;
    }
}

}  // namespace fusescope
