#pragma once
// The body of a computed buffer's loop nest, as a straight-line list of operations over
// the loop variables (z0, z1, ...): loads and stores at index expressions, constants,
// math. It prints as PyTorch's `class bufN_loop_body` dumps do, and code generators walk
// its ops in order.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "lower/index_expr.h"
#include "lower/loop_ops.h"

namespace fusescope {

struct LoopOp {
    std::string name;  // unique within the body: load, load_1, add
    LoopOpKind kind = LoopOpKind::Constant;
    std::vector<int> args;  // earlier ops this one uses
    std::string buffer;     // load / store / store_reduction
    int index = -1;         // get_index / index_expr: entry of LoopBody::indices
    double value = 0;       // constant
    DType dtype = DType::Float32;     // the result's type (constant, to_dtype, reduction: its output)
    DType srcDtype = DType::Float32;  // reduction: the reduced values' type
    ReductionKind reductionKind = ReductionKind::Sum;  // reduction
};

struct LoopBody {
    std::vector<std::string> vars;   // z0, z1, ...: pointwise vars, then reduction vars
    std::vector<IndexExpr> ranges;   // one per var
    size_t reductionVars = 0;        // how many of the trailing vars are reduction vars
    std::vector<IndexExpr> indices;  // index0, index1, ...
    std::vector<LoopOp> ops;         // ends with the store

    VarRanges varRanges() const;
    // `class <name>_loop_body:` with var_ranges, indices and the body's ops.
    std::string str(const std::string& bufferName) const;
    // Buffers the body loads, in first-load order, each with the indices it is loaded at
    // (none for a load at a computed position).
    std::vector<std::pair<std::string, std::vector<IndexExpr>>> loads() const;
    // A load's or store's index expression; null for a load at a computed position.
    const IndexExpr* indexOf(const LoopOp& op) const;
};

// Records a body op by op (the `ops` handler of lowering). Each call returns the new
// op's position, which later ops take as an argument.
class LoopBodyBuilder {
public:
    LoopBodyBuilder(std::vector<std::string> vars, std::vector<IndexExpr> ranges, size_t reductionVars);

    int load(const std::string& buffer, const IndexExpr& index, DType dtype);
    // A load at a computed position (an int64 op: an index read from another tensor).
    int loadAt(const std::string& buffer, int position, DType dtype);
    // A load performed only where `mask` (a bool op) is true; 0 elsewhere.
    int maskedLoad(const std::string& buffer, const IndexExpr& index, int mask, DType dtype);
    int constant(double value, DType dtype);
    int indexExpr(const IndexExpr& index, DType dtype);
    int toDtype(int x, DType dtype);
    int call(LoopOpKind kind, std::vector<int> args, DType resultType);
    int reduction(DType dtype, DType srcDtype, ReductionKind type, int value);
    int store(const std::string& buffer, const IndexExpr& index, int value);
    int storeReduction(const std::string& buffer, const IndexExpr& index, int value);

    DType dtypeOf(int op) const { return types_.at(op); }
    VarRanges ranges() const { return body_.varRanges(); }
    std::vector<IndexExpr> varExprs() const;  // the loop variables as expressions
    LoopBody finish() { return std::move(body_); }

private:
    int add(LoopOp op, DType type);
    int addStore(LoopOpKind kind, const std::string& buffer, const IndexExpr& index, int value);
    int getIndex(const IndexExpr& index);
    LoopBody body_;
    std::vector<DType> types_;
    std::array<int, kLoopOpKindCount> kindCounts_{};  // ops of each kind so far, for their names
};

// Merges adjacent loop dims that every index walks contiguously (16*z0 + z1 over (16, 16)
// becomes z0 over (256,)) and drops size-1 dims, within the pointwise dims and within the
// reduction dims. Returns the simplified body (vars renamed z0...).
LoopBody simplifyLoops(const LoopBody& body);

// Re-expresses `body` over a finer iteration `sizes` (each of the body's dims is a product
// of consecutive entries of `sizes`, `reductionSizes` count trailing reduction entries),
// with variables named `prefix`0, 1, ...; nullopt when the dims don't split that way.
std::optional<LoopBody> splitLoops(const LoopBody& body, const std::vector<IndexExpr>& sizes, size_t reductionSizes,
                                   const std::string& prefix);

std::string pythonFloat(double v);  // 1.0, 0.5, inf, -inf, nan as PyTorch's dumps show them
std::string dtypeCType(DType t);    // float, double, int64_t, int32_t, bool

}  // namespace fusescope
