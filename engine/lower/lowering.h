#pragma once
// Lowering: a (decomposed) graph becomes loop IR. Pointwise ops and views stay lazy (a
// function from an element's index to the ops computing it) and are inlined into their
// consumers; a value becomes a buffer ("is realized") when it is a graph output, a
// reduction, an extern kernel's operand or result, an input of cat/stack, an explicit
// torch._inductor.test_operators.realize(), or when inductor's limits say so
// (core/inductor_config.h): read by several users and costly enough that recomputing it
// would be worse, or grown too large to inline further. Each buffer says why
// (Buffer::realizedBecause).

#include "core/error.h"
#include "graph/graph_compiler.h"
#include "lower/ir.h"

namespace fusescope {

// An op (or dtype, or argument form) the lowering has no rule for; the backend then runs
// the graph eagerly and says which op and line stopped it.
class LoweringUnsupported : public Error {
public:
    using Error::Error;
};

// The settings' InductorConfig decides which values are realized; their test hooks may
// plant a bug in a lowering rule (core/test_hooks.h).
LoweredGraph lowerGraph(const Graph& graph, const CompileSettings& settings = {});

}  // namespace fusescope
