#include "codegen/common/row_max_exps.h"

#include <algorithm>
#include <optional>

#include "codegen/common/same_value.h"

namespace fusescope {

namespace {

// The index expression a load or a store reads its position from, if it is a plain one.
const IndexExpr* positionOf(const LoopBody& body, const LoopOp& op) {
    if (op.args.empty()) return nullptr;
    const LoopOp& at = body.ops[static_cast<size_t>(op.args[0])];
    return at.kind == LoopOpKind::GetIndex ? &body.indices[static_cast<size_t>(at.index)] : nullptr;
}

// The member storing `buffer` as a max reduction, with its reduced value's op.
struct MaxReduction {
    size_t member = 0;
    int value = -1;
    const IndexExpr* storedAt = nullptr;
};
std::optional<MaxReduction> maxReductionStoring(const std::vector<LoopBody>& bodies, const std::string& buffer) {
    for (size_t m = 0; m < bodies.size(); ++m)
        for (const LoopOp& store : bodies[m].ops) {
            if (store.kind != LoopOpKind::StoreReduction || store.buffer != buffer) continue;
            const LoopOp& reduction = bodies[m].ops[static_cast<size_t>(store.args.back())];
            if (reduction.kind != LoopOpKind::Reduction || reduction.reductionKind != ReductionKind::Max) return std::nullopt;
            return MaxReduction{m, reduction.args[0], positionOf(bodies[m], store)};
        }
    return std::nullopt;
}

// How many ops of `body` read op `i`.
size_t readers(const LoopBody& body, int i) {
    size_t n = 0;
    for (const LoopOp& op : body.ops) n += static_cast<size_t>(std::count(op.args.begin(), op.args.end(), i));
    return n;
}

// Whether op `e` of `body` is read only by a sum reduction.
bool onlySummed(const LoopBody& body, int e) {
    if (readers(body, e) != 1) return false;
    return std::any_of(body.ops.begin(), body.ops.end(), [&](const LoopOp& op) {
        return op.kind == LoopOpKind::Reduction && op.reductionKind == ReductionKind::Sum && op.args[0] == e;
    });
}

// Whether `exp`, an op of member `b`, is exp(x - m) with m the max of x over its row,
// stored by another member of the same iteration at the index `exp`'s member loads it from.
bool ofRowMinusItsMax(const std::vector<LoopBody>& bodies, size_t b, const LoopOp& exp) {
    const LoopBody& body = bodies[b];
    const LoopOp& sub = body.ops[static_cast<size_t>(exp.args[0])];
    if (sub.kind != LoopOpKind::Sub) return false;
    const LoopOp& max = body.ops[static_cast<size_t>(sub.args[1])];
    if (max.kind != LoopOpKind::Load || !positionOf(body, max)) return false;
    std::optional<MaxReduction> producer = maxReductionStoring(bodies, max.buffer);
    if (!producer || producer->member == b || !producer->storedAt || *producer->storedAt != *positionOf(body, max) ||
        bodies[producer->member].vars != body.vars)
        return false;
    return SameValue(bodies[producer->member], body)(producer->value, sub.args[0]);
}

}  // namespace

void markRowMaxExps(const KernelGroup& kernel, std::vector<LoopBody>& bodies, const std::set<size_t>& alsoStored) {
    const size_t dims = kernel.pointwiseSizes.size() + kernel.reductionSizes.size();
    for (size_t b = 0; b < bodies.size(); ++b) {
        LoopBody& body = bodies[b];
        if (body.vars.size() != dims) continue;
        for (size_t e = 0; e < body.ops.size(); ++e) {
            if (body.ops[e].kind != LoopOpKind::Exp || !ofRowMinusItsMax(bodies, b, body.ops[e])) continue;
            body.ops[e].kind = !alsoStored.count(b) && onlySummed(body, static_cast<int>(e)) ? LoopOpKind::ExpSummand
                                                                                           : LoopOpKind::ExpNonPositive;
        }
    }
}

}  // namespace fusescope
