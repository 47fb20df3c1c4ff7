#pragma once
// Lowering: a (decomposed) graph becomes loop IR. Pointwise ops and views stay lazy (a
// function from an element's index to the ops computing it) and are inlined into their
// consumers; a value becomes a buffer ("is realized") when it is a graph output, a
// reduction, an extern kernel's operand or result, an explicit
// torch._inductor.test_operators.realize(), or read by several users and costly enough
// that recomputing it would be worse.

#include "core/error.h"
#include "core/test_hooks.h"
#include "lower/ir.h"

namespace fusescope {

// An op (or dtype, or argument form) the lowering has no rule for; the backend then runs
// the graph eagerly and says which op and line stopped it.
class LoweringUnsupported : public Error {
public:
    using Error::Error;
};

// `hooks` may plant a bug in a lowering rule (core/test_hooks.h).
LoweredGraph lowerGraph(const Graph& graph, const TestHooks& hooks = {});

}  // namespace fusescope
