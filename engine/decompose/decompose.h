#pragma once
// The decompose stage: rewrites a captured graph's composite ops into the core ops the
// lowering turns into loop IR (pointwise math, reductions, views, mm/bmm), as Inductor's
// decomposition table does before lowering. Each op's rewrite is part of its definition
// (OpDef::decomposition, engine/opdefs/). The result is what fx_graph_transformed.py shows.
//
//   softmax        amax, sub, exp, sum, div        (x - max keeps exp from overflowing)
//   log_softmax    amax, sub, exp, sum, log, sub
//   layer_norm     sum, div, sub, mul, sum, div, add, rsqrt, mul [, mul weight] [, add bias]
//   gelu           mul, mul, erf, add, mul         (approximate='tanh': the tanh formula)
//   silu           sigmoid, mul
//   linear         t, mm [, add bias]; an N-D input is reshaped to 2-D and back. mm + add
//                  rather than addmm, so the bias joins a following pointwise op in one epilogue
//   matmul         mm for 1-D/2-D operands (unsqueeze/squeeze for vectors) and for N-D @ 1-D/2-D
//                  (reshaped as linear's), bmm for 3-D @ 3-D (a batch of 1 expanded); other
//                  ranks stay matmul
//   mean           sum, div                         var / std: sum, div, sub, mul, sum, div [, sqrt]
//   square         mul                              outer: unsqueeze, unsqueeze, mul
//   dropout        its input, when not training or p == 0 (as ATen returns it)
//
// float16/bfloat16 compute in float32 and are rounded once at the end (to); a result keeps
// the composite's dtype and, where it was contiguous, its layout. Every new node carries
// the provenance (file, line, source text, stack, inline depth) of the node it replaces;
// every other node is copied unchanged (the lowering runs unknown ops through a fallback).
//
// Limitation: the element count that mean, var, std and layer_norm divide by is a constant
// in the graph, so when a reduced dim is dynamic (a symbol such as s0) those ops stay
// composite. Likewise linear keeps its op when a reshape would need more than one dynamic
// size, and matmul when a dynamic batch would need broadcasting. softmax and log_softmax
// need no count and always decompose.

#include <memory>

#include "core/test_hooks.h"
#include "graph/graph.h"

namespace fusescope {

// A new graph computing the same outputs as `graph` (which is left unchanged): the same
// placeholders (names, sources, metadata) in the same order, composite ops decomposed.
// `hooks` may plant a bug in a decomposition (core/test_hooks.h).
std::shared_ptr<Graph> decomposeForInductor(const Graph& graph, const TestHooks& hooks = {});
// The same with only the decompositions AOT Autograd applies before any backend (PyTorch's
// CompositeImplicitAutograd ops: linear, matmul, square, outer, dropout): what the
// aot_eager backend runs, so a wrong result that appears only with the full table points
// at Inductor's own decompositions.
std::shared_ptr<Graph> decomposeForAot(const Graph& graph, const TestHooks& hooks = {});

}  // namespace fusescope
