#pragma once
// The kinds of the loop IR: the ops a loop body holds, the reductions a Reduction buffer
// computes and the extern kernels it calls, each with the name PyTorch's IR dumps print.
// Renderers switch on these enums, so the compiler names any kind one of them misses.

#include <cstddef>
#include <iterator>
#include <string_view>

namespace fusescope {

// X(Kind, "name"): one row per op; the enum and the names are both made from this list.
// Structural ops move data or shape the loop; math ops compute a value from their
// arguments and print as ops.<name>(args).
#define FUSESCOPE_LOOP_OPS(X)            \
    /* structural */                     \
    X(GetIndex, "get_index")             \
    X(Load, "load")                      \
    X(MaskedLoad, "masked_load")         \
    X(Store, "store")                    \
    X(StoreReduction, "store_reduction") \
    X(Constant, "constant")              \
    X(IndexExpr, "index_expr")           \
    X(ToDtype, "to_dtype")               \
    X(Reduction, "reduction")            \
    /* math: unary */                    \
    X(Exp, "exp")                        \
    X(Exp2, "exp2")                      \
    X(Expm1, "expm1")                    \
    X(Log, "log")                        \
    X(Log2, "log2")                      \
    X(Log1p, "log1p")                    \
    X(Sqrt, "sqrt")                      \
    X(Rsqrt, "rsqrt")                    \
    X(Reciprocal, "reciprocal")          \
    X(Sin, "sin")                        \
    X(Cos, "cos")                        \
    X(Tanh, "tanh")                      \
    X(Sigmoid, "sigmoid")                \
    X(Erf, "erf")                        \
    X(Neg, "neg")                        \
    X(Abs, "abs")                        \
    X(Relu, "relu")                      \
    X(Floor, "floor")                    \
    X(Ceil, "ceil")                      \
    X(Round, "round")                    \
    X(Sign, "sign")                      \
    X(Silu, "silu")                      \
    X(Square, "square")                  \
    X(Gelu, "gelu")                      \
    X(GeluTanh, "gelu_tanh")             \
    /* math: binary */                   \
    X(Add, "add")                        \
    X(Sub, "sub")                        \
    X(Mul, "mul")                        \
    X(TrueDiv, "truediv")                \
    X(FloorDiv, "floordiv")              \
    X(TruncDiv, "truncdiv")              \
    X(Mod, "mod")                        \
    X(Pow, "pow")                        \
    X(Maximum, "maximum")                \
    X(Minimum, "minimum")                \
    X(BitwiseAnd, "bitwise_and")         \
    X(BitwiseOr, "bitwise_or")           \
    X(BitwiseXor, "bitwise_xor")         \
    X(BitwiseNot, "bitwise_not")         \
    /* math: predicates (bool result) */ \
    X(Eq, "eq")                          \
    X(Ne, "ne")                          \
    X(Lt, "lt")                          \
    X(Le, "le")                          \
    X(Gt, "gt")                          \
    X(Ge, "ge")                          \
    X(IsNan, "isnan")                    \
    X(IsInf, "isinf")                    \
    X(IsFinite, "isfinite")              \
    X(LogicalAnd, "logical_and")         \
    X(LogicalOr, "logical_or")           \
    X(LogicalXor, "logical_xor")         \
    X(LogicalNot, "logical_not")         \
    /* math: select */                   \
    X(Where, "where")

enum class LoopOpKind {
#define FUSESCOPE_LOOP_OP_ENUMERATOR(kind, name) kind,
    FUSESCOPE_LOOP_OPS(FUSESCOPE_LOOP_OP_ENUMERATOR)
#undef FUSESCOPE_LOOP_OP_ENUMERATOR
};

// The printed names, in LoopOpKind order.
inline constexpr std::string_view kLoopOpNames[] = {
#define FUSESCOPE_LOOP_OP_NAME(kind, name) name,
    FUSESCOPE_LOOP_OPS(FUSESCOPE_LOOP_OP_NAME)
#undef FUSESCOPE_LOOP_OP_NAME
};
constexpr std::size_t kLoopOpKindCount = std::size(kLoopOpNames);

std::string_view loopOpName(LoopOpKind kind);  // "load", "masked_load", "add", "gelu_tanh"
bool isLoadOp(LoopOpKind kind);                // load, masked_load
bool isStoreOp(LoopOpKind kind);               // store, store_reduction

enum class ReductionKind { Sum, Prod, Max, Min, ArgMax, ArgMin, Any, All };
std::string_view reductionName(ReductionKind kind);  // "sum", "argmax"
bool isArgReduction(ReductionKind kind);             // argmax, argmin: the result is an index

enum class ExternKernelKind { Mm, Bmm };
std::string_view externKernelName(ExternKernelKind kind);  // "mm", "bmm"

}  // namespace fusescope
