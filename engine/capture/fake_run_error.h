#pragma once
// An op's error while it is traced, as Dynamo words it: Dynamo runs each FX node on fake
// tensors, and an error there reaches the traced code as
//   Dynamo failed to run FX node with fake tensors: call_function <built-in function linear>(
//   *(FakeTensor(..., size=(2, s27)), Parameter(FakeTensor(..., size=(5, 3), requires_grad=True)),
//   ...), **{}): got RuntimeError('a and b must have same reduction dim, but got [2, s27] X [3, 5].')
// the shapes in the fake kernel's words (its symbols for dynamic sizes). Code that catches it
// sees that text; where it escapes the compiled frame, it is the message of PyTorch's
// TorchRuntimeError ("RuntimeError when making fake tensor call", Tracer::compileErrorMessage).

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "graph/graph.h"
#include "ops/op_registry.h"

namespace fusescope {

// `error` raised by `op` called as `style` on `args` (the real values, for requires_grad and
// Parameter) that the graph has as `nodeArgs` / `nodeKwargs` (for the symbolic sizes). Said so
// only where Fusescope knows the fake kernel's words (a matrix product's reduction dims; with
// static sizes, reshape's and view's, bmm's, an elementwise op's broadcast, expand's and
// cat's); nullopt elsewhere: the error stays the eager kernel's (PyTorch's fake kernels check
// less than its eager ones, and word it otherwise).
std::optional<std::string> fakeRunError(const OpDef& op, CallStyle style, const IValueList& args, const std::vector<Argument>& nodeArgs,
                         const std::vector<std::pair<std::string, Argument>>& nodeKwargs, const ScriptError& error);

}  // namespace fusescope
