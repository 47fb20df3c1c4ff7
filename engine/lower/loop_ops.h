#pragma once
// The kinds of the loop IR: the ops a loop body holds, the reductions a Reduction buffer
// computes and the extern kernels it calls, each with the name PyTorch's IR dumps print.
// Renderers switch on the reduction and extern-kernel kinds (the compiler names a kind one
// misses) and on the structural loop ops; each math loop op carries its C spelling.

#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace fusescope {

// X(Kind, "name", "spelling"): one row per op; the enum, the names and the C spellings are
// all made from this list. Structural ops move data or shape the loop, and each renderer
// spells them itself (they touch buffers, indices and dtypes). Math ops compute a value
// from their arguments, print as ops.<name>(args), and are spelled in C and CUDA alike by
// their row: {0}, {1}, {2} stand for the arguments; fs_<name> is the preludes' helper
// (codegen/common/fs_helpers.cpp), which gives every dtype PyTorch's semantics.
#define FUSESCOPE_LOOP_OPS(X)                           \
    /* structural */                                    \
    X(GetIndex, "get_index", "")                        \
    X(Load, "load", "")                                 \
    X(MaskedLoad, "masked_load", "")                    \
    X(Store, "store", "")                               \
    X(StoreReduction, "store_reduction", "")            \
    X(Constant, "constant", "")                         \
    X(IndexExpr, "index_expr", "")                      \
    X(ToDtype, "to_dtype", "")                          \
    X(Reduction, "reduction", "")                       \
    /* math: unary */                                   \
    X(Exp, "exp", "fs_exp({0})")                        \
    /* exps of x <= 0: of a row minus its max (codegen/common/row_max_exps.h) */ \
    X(ExpNonPositive, "exp_nonpositive", "fs_exp_nonpositive({0})") \
    X(ExpSummand, "exp_summand", "fs_exp_summand({0})") \
    X(Exp2, "exp2", "fs_exp2({0})")                     \
    X(Expm1, "expm1", "fs_expm1({0})")                  \
    X(Log, "log", "fs_log({0})")                        \
    X(Log2, "log2", "fs_log2({0})")                     \
    X(Log1p, "log1p", "fs_log1p({0})")                  \
    X(Sqrt, "sqrt", "fs_sqrt({0})")                     \
    X(Rsqrt, "rsqrt", "fs_rsqrt({0})")                  \
    X(Reciprocal, "reciprocal", "fs_reciprocal({0})")   \
    X(Sin, "sin", "fs_sin({0})")                        \
    X(Cos, "cos", "fs_cos({0})")                        \
    X(Tanh, "tanh", "fs_tanh({0})")                     \
    X(Sigmoid, "sigmoid", "fs_sigmoid({0})")            \
    X(Erf, "erf", "fs_erf({0})")                        \
    X(Tan, "tan", "fs_tan({0})")                        \
    X(Asin, "asin", "fs_asin({0})")                     \
    X(Acos, "acos", "fs_acos({0})")                     \
    X(Atan, "atan", "fs_atan({0})")                     \
    X(Sinh, "sinh", "fs_sinh({0})")                     \
    X(Cosh, "cosh", "fs_cosh({0})")                     \
    X(Asinh, "asinh", "fs_asinh({0})")                  \
    X(Acosh, "acosh", "fs_acosh({0})")                  \
    X(Atanh, "atanh", "fs_atanh({0})")                  \
    X(Erfc, "erfc", "fs_erfc({0})")                     \
    X(Log10, "log10", "fs_log10({0})")                  \
    X(Trunc, "trunc", "fs_trunc({0})")                  \
    X(Lgamma, "lgamma", "fs_lgamma({0})")               \
    X(Digamma, "digamma", "fs_digamma({0})")            \
    X(Erfinv, "erfinv", "fs_erfinv({0})")               \
    X(Neg, "neg", "-{0}")                               \
    X(Abs, "abs", "fs_abs({0})")                        \
    X(Relu, "relu", "fs_relu({0})")                     \
    X(Floor, "floor", "fs_floor({0})")                  \
    X(Ceil, "ceil", "fs_ceil({0})")                     \
    X(Round, "round", "fs_round({0})")                  \
    X(Sign, "sign", "fs_sign({0})")                     \
    X(Silu, "silu", "fs_silu({0})")                     \
    X(Square, "square", "{0} * {0}")                    \
    X(Gelu, "gelu", "fs_gelu({0})")                     \
    X(GeluTanh, "gelu_tanh", "fs_gelu_tanh({0})")       \
    /* math: binary */                                  \
    X(Add, "add", "{0} + {1}")                          \
    X(Sub, "sub", "{0} - {1}")                          \
    X(Mul, "mul", "{0} * {1}")                          \
    X(TrueDiv, "truediv", "{0} / {1}")                  \
    X(FloorDiv, "floordiv", "fs_floordiv({0}, {1})")    \
    X(TruncDiv, "truncdiv", "fs_truncdiv({0}, {1})")    \
    X(Mod, "mod", "fs_mod({0}, {1})")                   \
    X(Pow, "pow", "fs_pow({0}, {1})")                   \
    X(Maximum, "maximum", "fs_maximum({0}, {1})")       \
    X(Minimum, "minimum", "fs_minimum({0}, {1})")       \
    X(BitwiseAnd, "bitwise_and", "{0} & {1}")           \
    X(BitwiseOr, "bitwise_or", "{0} | {1}")             \
    X(BitwiseXor, "bitwise_xor", "{0} ^ {1}")           \
    X(BitwiseNot, "bitwise_not", "fs_bitwise_not({0})") \
    /* math: predicates (bool result) */                \
    X(Eq, "eq", "{0} == {1}")                           \
    X(Ne, "ne", "{0} != {1}")                           \
    X(Lt, "lt", "{0} < {1}")                            \
    X(Le, "le", "{0} <= {1}")                           \
    X(Gt, "gt", "{0} > {1}")                            \
    X(Ge, "ge", "{0} >= {1}")                           \
    X(IsNan, "isnan", "fs_isnan({0})")                  \
    X(IsInf, "isinf", "fs_isinf({0})")                  \
    X(IsFinite, "isfinite", "fs_isfinite({0})")         \
    X(LogicalAnd, "logical_and", "{0} && {1}")          \
    X(LogicalOr, "logical_or", "{0} || {1}")            \
    X(LogicalXor, "logical_xor", "{0} != {1}")          \
    X(LogicalNot, "logical_not", "!{0}")                \
    /* math: select */                                  \
    X(Where, "where", "{0} ? {1} : {2}")                \
    /* an index read from a tensor, checked: 0 and fs_status 2 when outside [0, {1}) */ \
    X(CheckIndex, "check_index", "fs_check_index({0}, {1})")

enum class LoopOpKind {
#define FUSESCOPE_LOOP_OP_ENUMERATOR(kind, name, spelling) kind,
    FUSESCOPE_LOOP_OPS(FUSESCOPE_LOOP_OP_ENUMERATOR)
#undef FUSESCOPE_LOOP_OP_ENUMERATOR
};

// The printed names, in LoopOpKind order.
inline constexpr std::string_view kLoopOpNames[] = {
#define FUSESCOPE_LOOP_OP_NAME(kind, name, spelling) name,
    FUSESCOPE_LOOP_OPS(FUSESCOPE_LOOP_OP_NAME)
#undef FUSESCOPE_LOOP_OP_NAME
};
constexpr std::size_t kLoopOpKindCount = std::size(kLoopOpNames);

// The C spellings, in LoopOpKind order ("" for structural ops).
inline constexpr std::string_view kLoopOpSpellings[] = {
#define FUSESCOPE_LOOP_OP_SPELLING(kind, name, spelling) spelling,
    FUSESCOPE_LOOP_OPS(FUSESCOPE_LOOP_OP_SPELLING)
#undef FUSESCOPE_LOOP_OP_SPELLING
};

std::string_view loopOpName(LoopOpKind kind);  // "load", "masked_load", "add", "gelu_tanh"
bool isLoadOp(LoopOpKind kind);                // load, masked_load
bool isStoreOp(LoopOpKind kind);               // store, store_reduction
bool isMathOp(LoopOpKind kind);                // computes a value from its arguments (not structural)
// A math op's C expression with `args` in place of {0}, {1}, {2}: "a + b", "fs_exp(a)".
std::string spellMathOp(LoopOpKind kind, const std::vector<std::string>& args);

enum class ReductionKind { Sum, Prod, Max, Min, ArgMax, ArgMin, Any, All };
std::string_view reductionName(ReductionKind kind);  // "sum", "argmax"
bool isArgReduction(ReductionKind kind);             // argmax, argmin: the result is an index

enum class ExternKernelKind { Mm, Bmm, Convolution, Attention };
std::string_view externKernelName(ExternKernelKind kind);  // "mm", "bmm", "convolution", "flash_attention"

}  // namespace fusescope
