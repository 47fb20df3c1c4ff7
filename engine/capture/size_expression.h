#pragma once
// What a SymInt computes: dynamic sizes of inputs (their symbols, s77) with + - * // by
// constants or each other, as Python ints do. The tracer keeps one per SymInt
// (capture/traced_sizes.cpp); a guard on a comparison evaluates it again for a later call's
// size, so a guard takes only an expression of one size (a comparison of B * T specializes).

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "script/ast.h"
#include "script/value.h"

namespace fusescope {

struct SizeExpression;
using SizeExpressionPtr = std::shared_ptr<const SizeExpression>;

struct SizeExpression {
    enum class Op { Size, Constant, Add, Sub, Mul, FloorDiv };
    Op op = Op::Constant;
    int64_t constant = 0;  // Constant
    std::string symbol;    // Size: s77
    SourcePtr source;      // Size: the input it is a size of, and which dim (-1: the input is an int, this is it)
    int64_t dim = 0;
    SizeExpressionPtr left, right;

    static SizeExpressionPtr size(std::string symbol, SourcePtr source, int64_t dim);
    static SizeExpressionPtr constantOf(int64_t value);
    // left OP right; null when OP is none of these.
    static SizeExpressionPtr combine(BinaryOperator op, SizeExpressionPtr left, SizeExpressionPtr right);
    // The (first) size it is computed from; null for a constant.
    const SizeExpression* leaf() const;
    // Every size it is computed from, and whether they are all one symbol (what a guard can evaluate).
    std::vector<const SizeExpression*> leaves() const;
    bool ofOneSize() const;
    // Its value where its size is `size`; nullopt on a division by zero.
    std::optional<int64_t> evaluate(int64_t size) const;
    // Its value with each size leaf's value from `sizeOf` (nullopt: unknown, and so is the result).
    std::optional<int64_t> evaluate(const std::function<std::optional<int64_t>(const SizeExpression& leaf)>& sizeOf) const;
    // As sympy prints it ("s77 - 1", "2*s77", "(s77//2)"), or with the size spelled by its
    // source ("L['x'].size()[0] - 1"), as guards are.
    std::string str(bool bySource = false) const;
};

// a OP b for ints (a SymInt's guard) or floats (a SymFloat's): the comparison operators only.
template <class Number>
bool compareNumbers(CompareOperator op, Number a, Number b) {
    switch (op) {
    case CompareOperator::Eq: return a == b;
    case CompareOperator::NotEq: return a != b;
    case CompareOperator::Lt: return a < b;
    case CompareOperator::LtE: return a <= b;
    case CompareOperator::Gt: return a > b;
    case CompareOperator::GtE: return a >= b;
    default: return false;
    }
}
// The operator that holds where `op` does not: < for >=.
CompareOperator negated(CompareOperator op);
// The operator that holds with the operands swapped: > for <.
CompareOperator mirrored(CompareOperator op);

}  // namespace fusescope
