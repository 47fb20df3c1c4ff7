#pragma once
// The op families, one file each in engine/opdefs/. A family defines each of its ops whole
// in one place: schema, shapes and dtype, eager kernel, decomposition, lowering or the
// reason it runs eagerly, and its backward node's name. registerAllOps
// (op_definitions.cpp) calls every family, then checks that each op is complete.

#include <string>

#include "decompose/rewrite.h"
#include "lower/op_lowering.h"
#include "ops/op_registry.h"

namespace fusescope {

void registerArithmeticOps(OpRegistry& registry);  // arithmetic.cpp: add ... bitwise_xor, where, clamp, fill_, copy_
void registerUnaryMathOps(OpRegistry& registry);   // unary_math.cpp: exp, sqrt, relu, gelu, ...
void registerReductionOps(OpRegistry& registry);   // reductions.cpp: sum, amax, max, argmax, mean, var, ...
void registerViewOps(OpRegistry& registry);        // views.cpp: view, reshape, permute, select, slice, ...
void registerCreationOps(OpRegistry& registry);    // creation.cpp: tensor, full, zeros, arange, rand, to, clone, ...
void registerNnLinalgOps(OpRegistry& registry);    // nn_linalg.cpp: mm, matmul, linear, softmax, layer_norm, cat, ...
void registerMiscOps(OpRegistry& registry);        // misc.cpp: masked_fill, tril, outer, dropout, cumsum, allclose, ...
void registerActivationOps(OpRegistry& registry);  // activations.cpp: softplus, hardswish, logaddexp
void registerIndexingOps(OpRegistry& registry);    // indexing.cpp: embedding, index_select, gather, flip, repeat
void registerConvolutionOps(OpRegistry& registry); // convolution.cpp: conv1d, conv2d, max/avg/adaptive_avg_pool2d
void registerSelectionOps(OpRegistry& registry);   // selection.cpp: topk, multinomial
void registerAttentionOps(OpRegistry& registry);   // attention.cpp: _scaled_dot_product_flash_attention_for_cpu
// complex.cpp: view_as_real, view_as_complex, real, imag, and the complex forms of the ops
// above (after them: it adds to their definitions)
void registerComplexOps(OpRegistry& registry);
void registerSymbolicIntOps(OpRegistry& registry);  // symbolic_ints.cpp: sym_size, sym_add, sym_sub, ...

// The compile stages of a definition, attached where the family adds it (OpRegistry::add
// returns the entry). Each returns `op`.
OpDef& lowerWith(OpDef& op, LoweringRule rule);
OpDef& decomposeWith(OpDef& op, std::function<std::optional<Argument>(Rewrite&)> rewrite, bool inAot = false);
OpDef& runEagerly(OpDef& op, std::string reason);
// PyTorch's name of the op's backward node, where it is not the op's own.
OpDef& gradFnNamed(OpDef& op, std::string gradFn);
// ... where it depends on the call (PowBackward0/1/2 by which argument is a Python number).
OpDef& gradFnNamedBy(OpDef& op, std::function<std::string(const BoundArgs&)> gradFn);
// The op's derivative (autograd/derivative_ops.h has the ops to write it with), and whether
// it reads values of the call's tensors (SavesValues) or only their sizes and the gradient.
enum class Saved { Values, SizesOnly };
OpDef& differentiateWith(OpDef& op, std::function<ArgumentGradients(const DerivativeArgs&)> derivative, Saved saved = Saved::Values);

}  // namespace fusescope
