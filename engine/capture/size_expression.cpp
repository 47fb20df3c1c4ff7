#include "capture/size_expression.h"

#include <algorithm>

#include <fmt/format.h>

namespace fusescope {

SizeExpressionPtr SizeExpression::size(std::string symbol, SourcePtr source, int64_t dim) {
    auto e = std::make_shared<SizeExpression>();
    e->op = Op::Size;
    e->symbol = std::move(symbol);
    e->source = std::move(source);
    e->dim = dim;
    return e;
}

SizeExpressionPtr SizeExpression::constantOf(int64_t value) {
    auto e = std::make_shared<SizeExpression>();
    e->constant = value;
    return e;
}

const SizeExpression* SizeExpression::leaf() const {
    if (op == Op::Size) return this;
    if (op == Op::Constant) return nullptr;
    const SizeExpression* l = left->leaf();
    return l ? l : right->leaf();
}

std::vector<const SizeExpression*> SizeExpression::leaves() const {
    if (op == Op::Size) return {this};
    if (op == Op::Constant) return {};
    std::vector<const SizeExpression*> all = left->leaves(), more = right->leaves();
    all.insert(all.end(), more.begin(), more.end());
    return all;
}

bool SizeExpression::ofOneSize() const {
    std::vector<const SizeExpression*> all = leaves();
    return std::all_of(all.begin(), all.end(), [&](const SizeExpression* e) { return e->symbol == all.front()->symbol; });
}

SizeExpressionPtr SizeExpression::combine(BinaryOperator op, SizeExpressionPtr left, SizeExpressionPtr right) {
    auto e = std::make_shared<SizeExpression>();
    switch (op) {
    case BinaryOperator::Add: e->op = Op::Add; break;
    case BinaryOperator::Sub: e->op = Op::Sub; break;
    case BinaryOperator::Mult: e->op = Op::Mul; break;
    case BinaryOperator::FloorDiv: e->op = Op::FloorDiv; break;
    default: return nullptr;
    }
    e->left = std::move(left);
    e->right = std::move(right);
    return e;
}

std::optional<int64_t> SizeExpression::evaluate(int64_t size) const {
    return evaluate([size](const SizeExpression&) { return std::optional<int64_t>(size); });
}

std::optional<int64_t> SizeExpression::evaluate(const std::function<std::optional<int64_t>(const SizeExpression& leaf)>& sizeOf) const {
    if (op == Op::Size) return sizeOf(*this);
    if (op == Op::Constant) return constant;
    std::optional<int64_t> a = left->evaluate(sizeOf), b = right->evaluate(sizeOf);
    if (!a || !b) return std::nullopt;
    switch (op) {
    case Op::Add: return *a + *b;
    case Op::Sub: return *a - *b;
    case Op::Mul: return *a * *b;
    case Op::FloorDiv: {
        if (*b == 0) return std::nullopt;
        const int64_t q = *a / *b;  // toward negative infinity, as Python's
        return (*a % *b != 0 && (*a < 0) != (*b < 0)) ? q - 1 : q;
    }
    default: return std::nullopt;
    }
}

std::string SizeExpression::str(bool bySource) const {
    switch (op) {
    case Op::Size:  // dim -1: an int argument itself
        if (!bySource) return symbol;
        return dim < 0 ? source->str() : fmt::format("{}.size()[{}]", source->str(), dim);
    case Op::Constant: return std::to_string(constant);
    case Op::Add:
        if (right->op == Op::Constant && right->constant < 0) return fmt::format("{} - {}", left->str(bySource), -right->constant);
        return fmt::format("{} + {}", left->str(bySource), right->str(bySource));
    case Op::Sub: {
        const bool group = right->op == Op::Add || right->op == Op::Sub;
        const std::string subtrahend = right->str(bySource);
        return left->str(bySource) + " - " + (group ? "(" + subtrahend + ")" : subtrahend);
    }
    case Op::Mul: {
        auto factor = [&](const SizeExpressionPtr& e) {
            bool group = e->op == Op::Add || e->op == Op::Sub;
            return group ? "(" + e->str(bySource) + ")" : e->str(bySource);
        };
        // sympy puts the number first (2*s77) and symbols by name (s27*s77)
        const bool swap = (left->op != Op::Constant && right->op == Op::Constant) ||
                          (left->op == Op::Size && right->op == Op::Size && right->symbol < left->symbol);
        return swap ? factor(right) + "*" + factor(left) : factor(left) + "*" + factor(right);
    }
    case Op::FloorDiv: {  // sympy's FloorDiv: ((2*s77)//3), (s77//2)
        const bool atomic = left->op == Op::Size || left->op == Op::Constant;
        const std::string dividend = atomic ? left->str(bySource) : "(" + left->str(bySource) + ")";
        return "(" + dividend + "//" + right->str(bySource) + ")";
    }
    }
    return "?";
}

CompareOperator negated(CompareOperator op) {
    switch (op) {
    case CompareOperator::Eq: return CompareOperator::NotEq;
    case CompareOperator::NotEq: return CompareOperator::Eq;
    case CompareOperator::Lt: return CompareOperator::GtE;
    case CompareOperator::LtE: return CompareOperator::Gt;
    case CompareOperator::Gt: return CompareOperator::LtE;
    case CompareOperator::GtE: return CompareOperator::Lt;
    default: return op;
    }
}

CompareOperator mirrored(CompareOperator op) {
    switch (op) {
    case CompareOperator::Lt: return CompareOperator::Gt;
    case CompareOperator::LtE: return CompareOperator::GtE;
    case CompareOperator::Gt: return CompareOperator::Lt;
    case CompareOperator::GtE: return CompareOperator::LtE;
    default: return op;
    }
}

}  // namespace fusescope
