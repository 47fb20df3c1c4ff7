#include "codegen/common/exp_summands.h"

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

}  // namespace

void markExpSummands(const KernelGroup& kernel, std::vector<LoopBody>& bodies, const std::set<size_t>& alsoStored) {
    const size_t dims = kernel.pointwiseSizes.size() + kernel.reductionSizes.size();
    for (size_t b = 0; b < bodies.size(); ++b) {
        LoopBody& body = bodies[b];
        if (alsoStored.count(b) || body.vars.size() != dims) continue;
        for (const LoopOp& sum : body.ops) {
            if (sum.kind != LoopOpKind::Reduction || sum.reductionKind != ReductionKind::Sum) continue;
            const int e = sum.args[0];
            const LoopOp& exp = body.ops[static_cast<size_t>(e)];
            if (exp.kind != LoopOpKind::Exp || readers(body, e) != 1) continue;
            const LoopOp& sub = body.ops[static_cast<size_t>(exp.args[0])];
            if (sub.kind != LoopOpKind::Sub) continue;
            const LoopOp& max = body.ops[static_cast<size_t>(sub.args[1])];
            if (max.kind != LoopOpKind::Load || !positionOf(body, max)) continue;
            std::optional<MaxReduction> producer = maxReductionStoring(bodies, max.buffer);
            if (!producer || producer->member == b || !producer->storedAt || *producer->storedAt != *positionOf(body, max) ||
                bodies[producer->member].vars != body.vars)
                continue;
            if (SameValue(bodies[producer->member], body)(producer->value, sub.args[0]))
                body.ops[static_cast<size_t>(e)].kind = LoopOpKind::ExpSummand;
        }
    }
}

}  // namespace fusescope
