#pragma once
// The building blocks of elementwise lowerings: a lazy value whose element function loads
// its (broadcast) inputs and applies loop-body ops, and the rules most pointwise ops are
// made of. Op definitions (engine/opdefs/) pick one per op.

#include <optional>
#include <string>
#include <vector>

#include "lower/lowering_context.h"

namespace fusescope {

// An elementwise value of the node's output shape: each input loaded (broadcast) and
// converted to `computeType` (unless nullopt), then combined by `apply`, which gets the
// loaded values' op positions and returns the result's.
using ElementFn = std::function<int(LoopBodyBuilder&, const std::vector<int>& loaded)>;
LValue elementwise(LoweringContext& c, const std::vector<LValue>& inputs, std::optional<DType> computeType, DType outType,
                   ElementFn apply);
// The same elements, as a new lazy value (a copy that a later realize may place anew).
LValue identity(LoweringContext& c, const LValue& v);
// PyTorch's result type: tensors decide, a Python number only lifts the category
// (bool < int < float).
DType promotedType(const std::vector<LValue>& inputs);

// `loopOp` of the named inputs, computed in the output's dtype (inputs converted first).
LoweringRule computedInOutputType(LoopOpKind loopOp, std::vector<std::string> inputs);
LoweringRule unaryRule(LoopOpKind loopOp);   // of self
LoweringRule binaryRule(LoopOpKind loopOp);  // of self and other
// Comparisons and predicates: computed in the inputs' promoted type, result bool.
LoweringRule predicateRule(LoopOpKind loopOp, std::vector<std::string> inputs);
// Logical ops see their inputs as bools.
LoweringRule logicalRule(LoopOpKind loopOp, std::vector<std::string> inputs);
// The named input converted to the node's output dtype.
LoweringRule conversionRule(const std::string& input);

}  // namespace fusescope
