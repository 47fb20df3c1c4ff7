// Guards a graph's compile makes on its symbolic sizes: AOT Autograd's trace asking whether a
// result's size may be 1 (guardSizesNotOne), and Inductor's C++ backend choosing how to sum from
// a reduction's size now (CompileRequest::guardSize, codegen/cpp/chunked_sums.h).
// ShapeEnv keeps such a guard on one size as that size's range (4*s77 <= 4096 makes
// 2 <= L['x'].size()[0] <= 1024, its comment naming both origins), on several as it is.
#include <fmt/format.h>

#include "capture/tracer.h"
#include "lower/index_expr.h"

namespace fusescope {

SizeExpressionPtr Tracer::sizeExpressionOf(const IndexExpr& size) const {
    SizeExpressionPtr sum;
    for (const auto& [monomial, coefficient] : size.terms()) {
        SizeExpressionPtr term = coefficient == 1 && !monomial.empty() ? nullptr : SizeExpression::constantOf(coefficient);
        for (const auto& atom : monomial) {
            SizeExpressionPtr factor;
            if (atom->kind == IndexExpr::Atom::Kind::Symbol) {
                const SymbolOrigin* origin = symbolOrigin(atom->name);
                if (!origin) return nullptr;
                factor = SizeExpression::size(atom->name, origin->source, origin->dim);
            } else if (atom->kind == IndexExpr::Atom::Kind::FloorDiv) {
                SizeExpressionPtr dividend = sizeExpressionOf(atom->lhs), divisor = sizeExpressionOf(atom->rhs);
                if (!dividend || !divisor) return nullptr;
                factor = SizeExpression::combine(BinaryOperator::FloorDiv, dividend, divisor);
            } else {
                return nullptr;
            }
            term = term ? SizeExpression::combine(BinaryOperator::Mult, term, factor) : factor;
        }
        sum = sum ? SizeExpression::combine(BinaryOperator::Add, sum, term) : term;
    }
    return sum ? sum : SizeExpression::constantOf(0);
}

namespace {

// The bound on one size that `expression` <= `limit` (atMost) or >= `limit` means, for sizes
// counted up from `from` (a value that holds): the last size that holds, or the first, as
// sympy solves it. A reduction's size grows with its sizes, so the sizes that hold are a range.
std::optional<int64_t> solvedBound(const SizeExpression& expression, bool atMost, int64_t limit, int64_t from) {
    auto holds = [&](int64_t size) {
        std::optional<int64_t> v = expression.evaluate(size);
        return v && (atMost ? *v <= limit : *v >= limit);
    };
    if (!holds(from)) return std::nullopt;
    if (!atMost) {  // the first size from 2 that holds
        int64_t lo = 2, hi = from;
        while (lo < hi) {
            const int64_t mid = lo + (hi - lo) / 2;
            holds(mid) ? hi = mid : lo = mid + 1;
        }
        return lo;
    }
    int64_t lo = from, hi = from;  // the last that holds: doubling past it, then halving back
    while (holds(hi)) {
        if (hi > (int64_t{1} << 40)) return std::nullopt;
        lo = hi, hi *= 2;
    }
    while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        holds(mid) ? lo = mid : hi = mid;
    }
    return lo;
}

}  // namespace

void Tracer::guardSizesNotOne(const Graph& graph) {
    for (const auto& node : graph.nodes()) {
        if (node->op != NodeOp::CallFunction && node->op != NodeOp::CallMethod) continue;
        for (const TensorMeta& meta : node->meta)
            for (size_t d = meta.symbols.size(); d-- > 0;) {  // is_contiguous walks the dims from the last
                if (meta.symbols[d].empty() || d >= meta.sizes.size()) continue;
                SizeExpressionPtr size = sizeExpressionOf(IndexExpr::parse(meta.symbols[d]));
                if (!size || !size->leaf() || !size->ofOneSize()) continue;
                const SizeExpression& leaf = *size->leaves().front();
                const SymbolOrigin* origin = symbolOrigin(leaf.symbol);
                if (origin && meta.sizes[d] == 1 && leaf.dim >= 0) {  // 1 now: guarded so, which fixes the size (s77 - 1 == 1)
                    specializeDim(leaf.source, leaf.dim, leaf.symbol, origin->size,
                                  fmt::format("{} (node {}) is {} = 1 (AOT Autograd's contiguity check)", meta.str(), node->name, meta.symbols[d]));
                    continue;
                }
                if (meta.sizes[d] < 2) continue;
                std::optional<int64_t> edge = origin ? solvedBound(*size, false, 2, origin->size) : std::nullopt;
                int64_t lower = 2;  // the size's range now
                for (const Guard& g : guards_)
                    if ((g.kind == Guard::Kind::DimAtLeast || (g.kind == Guard::Kind::SizeRelation && g.count > 0)) &&
                        g.source->str() == leaf.source->str() && g.dim == leaf.dim)
                        lower = std::max(lower, g.count);
                if (const Guard* raised = raisedBound(leaf.source->str(), leaf.dim)) lower = std::max(lower, raised->rhs->constant);
                if (!edge || *edge <= lower) continue;  // never 1 within the range
                Guard g = sizeRelation(SizeExpression::size(leaf.symbol, leaf.source, leaf.dim), CompareOperator::GtE,
                                       SizeExpression::constantOf(*edge));
                g.madeIn = "_prims_common/__init__.py:322 in is_contiguous";
                keepGuard(std::move(g));  // made by AOT Autograd's trace: no user code
            }
    }
}

void Tracer::guardCompiledSize(const IndexExpr& size, bool atMost, int64_t bound, const std::string& madeIn) {
    SizeExpressionPtr expression = sizeExpressionOf(size);
    if (!expression || !expression->leaf()) return;
    std::vector<const SizeExpression*> leaves = expression->leaves();
    Guard g;
    if (expression->ofOneSize()) {
        const SizeExpression& leaf = *leaves.front();
        const SymbolOrigin* origin = symbolOrigin(leaf.symbol);
        // size > bound: bound + 1 <= size
        std::optional<int64_t> edge = origin ? solvedBound(*expression, atMost, atMost ? bound : bound + 1, origin->size) : std::nullopt;
        if (!edge) return;
        g = sizeRelation(SizeExpression::size(leaf.symbol, leaf.source, leaf.dim), atMost ? CompareOperator::LtE : CompareOperator::GtE,
                         SizeExpression::constantOf(*edge));
    } else {
        // Guard::check reads every size from one tensor.
        for (const SizeExpression* leaf : leaves)
            if (leaf->source->str() != leaves.front()->source->str() || leaf->dim < 0) return;
        g = sizeRelation(expression, atMost ? CompareOperator::LtE : CompareOperator::Gt, SizeExpression::constantOf(bound));
    }
    g.madeIn = madeIn;
    keepGuard(std::move(g));  // made by the compile: no user code
}

}  // namespace fusescope
