#pragma once
// The state shared by the lowering rules (lowering.cpp drives it; op definitions'
// rules use it): lazy tensor values, buffer creation, realization.

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "lower/ir.h"
#include "lower/lowering.h"
#include "ops/op_registry.h"

namespace fusescope {

// A tensor during lowering: either backed by a buffer's storage (seen through a strided
// view) or lazy (`inner` emits the ops computing the element at an index).
struct LValue {
    std::vector<IndexExpr> sizes;
    DType dtype = DType::Float32;
    std::string buffer;  // non-empty: storage-backed
    FixedLayout view;    // storage-backed: where the elements are
    std::function<int(LoopBodyBuilder&, const std::vector<IndexExpr>&)> inner;
    std::vector<const Node*> origins;
    int reads = 0;  // loads one element costs (decides realization: InductorConfig)
    int ops = 0;    // graph ops inlined into one element, the size of its body (likewise)
    bool wrappedNumber = false;     // a Python number in a tensor slot (type promotion)
    // Dims from outermost to innermost in memory, when a buffer this value reads (with the
    // same sizes) lies in another order than row-major: a channels-last convolution output.
    // Realizing the value keeps that order, so elementwise chains between convolutions stay
    // channels-last (inductor's layout optimization). Empty: row-major.
    std::vector<size_t> memoryOrder;
    std::optional<double> scalar;  // a constant: emitted directly in the dtype it's used at
    bool filled = false;           // every element one constant (zeros, full): reads no memory

    bool storageBacked() const { return !buffer.empty(); }
    int load(LoopBodyBuilder& b, const std::vector<IndexExpr>& index) const;
};

// Arguments of a call as the op's schema names them; tensors map back to lowered values.
class LoweringArgs {
public:
    LoweringArgs(BoundArgs bound, std::map<const TensorImpl*, const LValue*> values)
        : bound_(std::move(bound)), values_(std::move(values)) {}
    const BoundArgs& bound() const { return bound_; }
    bool has(std::string_view name) const { return !bound_[name].isNone(); }
    // A tensor argument: its lowered value, or a 0-dim constant for a wrapped number.
    LValue tensor(std::string_view name) const;
    std::vector<LValue> tensors(std::string_view name) const;

private:
    LValue fromTensor(const Tensor& t) const;
    BoundArgs bound_;
    std::map<const TensorImpl*, const LValue*> values_;
};

class LoweringContext {
public:
    LoweringContext(LoweredGraph& out, const CompileSettings& settings) : out_(out), settings_(settings) {}
    const TestHooks& hooks() const { return settings_.testHooks; }
    const InductorConfig& config() const { return settings_.inductor; }

    // The node being lowered (provenance of what gets created) and its result metadata.
    const Node* node = nullptr;
    const TensorMeta& meta(size_t result = 0) const;
    std::vector<IndexExpr> outputSizes(size_t result = 0) const;

    // A lazy value of the node's output shape computed from the given element function.
    LValue lazy(std::vector<IndexExpr> sizes, DType dtype, std::function<int(LoopBodyBuilder&, const std::vector<IndexExpr>&)> inner,
                const std::vector<LValue>& from) const;
    // Writes `value` into a new buffer (in its memoryOrder, row-major if it has none, unless
    // `layout` is given), its loops in memory order; `reason` says why it is not inlined
    // into its consumers (Buffer::realizedBecause).
    LValue realize(const LValue& value, const FixedLayout* layout, std::string reason);
    LValue reduce(const LValue& input, std::vector<int64_t> dims, bool keepdim, ReductionKind type, DType outDtype);
    LValue extern_(ExternKernelKind kernel, std::vector<LValue> operands, FixedLayout layout, std::vector<int64_t> args = {});
    // A storage-backed, 2-D/3-D BLAS-compatible view of `value` (realizing it if needed).
    LValue blasOperand(const LValue& value);

    std::string newBufferName() { return fmt::format("buf{}", nextBuffer_++); }
    FixedLayout contiguousLayout(const std::vector<IndexExpr>& sizes, DType dtype) const;
    // Dense strides with dims laid out from outermost to innermost in `order`.
    FixedLayout orderedLayout(const std::vector<IndexExpr>& sizes, DType dtype, const std::vector<size_t>& order) const;
    [[noreturn]] void unsupported(const std::string& what) const;

private:
    LoweredGraph& out_;
    const CompileSettings& settings_;
    int nextBuffer_ = 0;
};

// The order of a dense layout's dims from outermost to innermost in memory, when it is not
// row-major (empty when it is, or when sizes or strides are not constants).
std::vector<size_t> memoryOrderOf(const FixedLayout& layout);

// Broadcasts an index of the output shape to an input of shape `sizes` (right-aligned;
// size-1 dims read element 0).
std::vector<IndexExpr> broadcastIndex(const std::vector<IndexExpr>& index, const std::vector<IndexExpr>& sizes);

// A rule lowers one op and returns its result(s); it is part of the op's definition
// (OpDef::lowering, engine/opdefs/).
using LoweringRule = std::function<std::vector<LValue>(LoweringContext&, const LoweringArgs&)>;

int64_t normalizeDim(int64_t dim, size_t rank);

}  // namespace fusescope
