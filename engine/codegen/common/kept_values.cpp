#include "codegen/common/kept_values.h"

#include <algorithm>

#include "codegen/common/same_value.h"

namespace fusescope {

namespace {

bool isCostly(LoopOpKind kind) {
    switch (kind) {
    case LoopOpKind::Exp:
    case LoopOpKind::ExpNonPositive:
    case LoopOpKind::ExpSummand:
    case LoopOpKind::Exp2:
    case LoopOpKind::Expm1:
    case LoopOpKind::Log:
    case LoopOpKind::Log2:
    case LoopOpKind::Log1p:
    case LoopOpKind::Sin:
    case LoopOpKind::Cos:
    case LoopOpKind::Tanh:
    case LoopOpKind::Sigmoid:
    case LoopOpKind::Erf:
    case LoopOpKind::Lgamma:
    case LoopOpKind::Digamma:
    case LoopOpKind::Erfinv:
    case LoopOpKind::Tan:
    case LoopOpKind::Asin:
    case LoopOpKind::Acos:
    case LoopOpKind::Atan:
    case LoopOpKind::Sinh:
    case LoopOpKind::Cosh:
    case LoopOpKind::Asinh:
    case LoopOpKind::Acosh:
    case LoopOpKind::Atanh:
    case LoopOpKind::Erfc:
    case LoopOpKind::Log10:
    case LoopOpKind::Pow:
    case LoopOpKind::Silu:
    case LoopOpKind::Gelu:
    case LoopOpKind::GeluTanh: return true;
    default: return false;
    }
}

// One pass over the ops up to `op` (each reads only earlier ops): a walk of the argument
// tree instead takes time exponential in the shared subexpressions of a long fused body.
bool hasCostlyOp(const LoopBody& body, int op) {
    std::vector<bool> costly(static_cast<size_t>(op) + 1);
    for (size_t i = 0; i < costly.size(); ++i) {
        const LoopOp& o = body.ops[i];
        costly[i] = isCostly(o.kind) || std::any_of(o.args.begin(), o.args.end(), [&](int a) { return costly[static_cast<size_t>(a)]; });
    }
    return costly.back();
}

// `body` with op `at` replaced by a load of `buffer` at `index`, and the ops only it read
// dropped.
LoopBody loadedInstead(const LoopBody& body, int at, const std::string& buffer, const IndexExpr& index) {
    LoopBody out = body;
    out.ops.clear();
    out.indices.push_back(index);
    std::vector<int> moved(body.ops.size(), -1);
    std::vector<bool> live(body.ops.size(), false);
    for (size_t i = body.ops.size(); i-- > 0;) {
        if (isStoreOp(body.ops[i].kind)) live[i] = true;
        if (live[i] && static_cast<int>(i) != at)
            for (int a : body.ops[i].args) live[static_cast<size_t>(a)] = true;
    }
    for (size_t i = 0; i < body.ops.size(); ++i) {
        if (!live[i]) continue;
        LoopOp op = body.ops[i];
        if (static_cast<int>(i) == at) {
            LoopOp get;
            get.name = "get_index_kept";
            get.kind = LoopOpKind::GetIndex;
            get.index = static_cast<int>(out.indices.size()) - 1;
            get.dtype = DType::Int64;
            out.ops.push_back(get);
            op.kind = LoopOpKind::Load;
            op.buffer = buffer;
            op.args = {static_cast<int>(out.ops.size()) - 1};
        } else {
            for (int& a : op.args) a = moved[static_cast<size_t>(a)];
        }
        moved[i] = static_cast<int>(out.ops.size());
        out.ops.push_back(op);
    }
    return out;
}

}  // namespace

std::vector<KeptValue> keptValues(const KernelGroup& kernel, const std::set<std::string>& excluded) {
    std::vector<KeptValue> kept;
    std::set<size_t> readers;
    size_t dims = kernel.pointwiseSizes.size() + kernel.reductionSizes.size();
    for (size_t r = 0; r < kernel.nodes.size(); ++r) {
        const LoopBody& reducing = kernel.bodies[r];
        if (!kernel.nodes[r]->isReduction() || reducing.vars.size() != dims) continue;
        auto red = std::find_if(reducing.ops.begin(), reducing.ops.end(), [](const LoopOp& o) { return o.kind == LoopOpKind::Reduction; });
        if (red == reducing.ops.end() || isArgReduction(red->reductionKind)) continue;
        int value = red->args[0];
        if (!hasCostlyOp(reducing, value)) continue;
        for (size_t p = r + 1; p < kernel.nodes.size(); ++p) {
            const LoopBody& reader = kernel.bodies[p];
            if (kernel.nodes[p]->isReduction() || reader.vars.size() != dims || readers.count(p)) continue;
            const LoopOp& store = *std::find_if(reader.ops.begin(), reader.ops.end(), [](const LoopOp& o) { return isStoreOp(o.kind); });
            const LoopOp& storeAt = reader.ops[static_cast<size_t>(store.args[0])];
            if (store.kind != LoopOpKind::Store || storeAt.kind != LoopOpKind::GetIndex || excluded.count(store.buffer) ||
                kernel.nodes[p]->buffer->layout.dtype != red->srcDtype)
                continue;
            SameValue same(reducing, reader);
            for (size_t op = 0; op < reader.ops.size(); ++op) {
                if (!same(value, static_cast<int>(op))) continue;
                IndexExpr index = reader.indices[static_cast<size_t>(storeAt.index)];
                kept.push_back({r, p, store.buffer, index, loadedInstead(reader, static_cast<int>(op), store.buffer, index)});
                readers.insert(p);
                break;
            }
            if (!kept.empty() && kept.back().reduction == r) break;
        }
    }
    return kept;
}

}  // namespace fusescope
