#pragma once
// The op families defined whole in opdefs/ (schema, shapes, eager kernel, decomposition,
// lowering, backward node: one definition per op), and the reasons of the ops that run
// eagerly. Called by registerAllOps (op_definitions.cpp).

namespace fusescope {

class OpRegistry;

void registerActivationOps(OpRegistry& registry);  // activations.cpp: softplus, hardswish, logaddexp
void markEagerOnlyOps(OpRegistry& registry);       // eager_only.cpp

}  // namespace fusescope
