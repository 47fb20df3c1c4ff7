#include "codegen/cpp/chunked_sums.h"

#include <map>

#include "codegen/common/loop_statements.h"

namespace fusescope {

namespace {

// The current value of each size symbol: the size (or stride) of the input it is read from.
std::map<std::string, IndexExpr> symbolHints(const LoweredGraph& graph) {
    std::map<std::string, IndexExpr> hints;
    for (const SymbolSource& s : graph.symbols)
        for (const InputBuffer& in : graph.inputs) {
            if (in.placeholder != s.placeholder || !in.node || in.node->meta.empty()) continue;
            const Shape& values = s.stride ? in.node->meta[0].strides : in.node->meta[0].sizes;
            if (static_cast<size_t>(s.dim) < values.size()) hints[s.name] = IndexExpr(values[static_cast<size_t>(s.dim)]);
        }
    return hints;
}

// Whether a member of the kernel sums float32 values (the helper's case: not doubles, and not
// a product).
bool sumsFloats(const KernelGroup& kernel) {
    for (size_t m = 0; m < kernel.nodes.size() && m < kernel.bodies.size(); ++m) {
        if (!kernel.nodes[m]->isReduction()) continue;
        const LoopOp& reduction = reductionOpOf(kernel.bodies[m]);
        if (reduction.reductionKind == ReductionKind::Sum && reduction.dtype == DType::Float32) return true;
    }
    return false;
}

}  // namespace

void chooseChunkedSums(Schedule& schedule, const LoweredGraph& graph, const SizeGuardSink& guardSize) {
    const std::map<std::string, IndexExpr> hints = symbolHints(graph);
    for (KernelGroup& kernel : schedule.kernels) {
        if (kernel.reductionSizes.empty() || !sumsFloats(kernel)) continue;
        const IndexExpr size = product(kernel.reductionSizes);
        std::optional<int64_t> value = size.substitute(hints).constant();
        if (!value) {  // no value to decide from: chunks, which hold for any size (as Inductor does)
            kernel.chunkedSums = true;
            continue;
        }
        kernel.chunkedSums = *value > kSumChunk;
        if (guardSize && !size.constant()) guardSize(size, !kernel.chunkedSums, kSumChunk, "_inductor/codegen/cpp.py:2397 in need_use_acc_helper");
    }
}

}  // namespace fusescope
