#pragma once
// Internal: how the registry is filled. OpRegistry::instance() calls registerAllOps
// (engine/opdefs/op_definitions.cpp) explicitly, because static initialisers in a static
// library may be dropped; it runs each family's registration, then checks the whole.

namespace fusescope {

class OpRegistry;

void registerAllOps(OpRegistry& registry);

// The eager families in ops/ (schema, shapes, kernel; their compile stages are attached by
// opdefs/ until each family moves there whole).
void registerPointwiseOps(OpRegistry& registry);
void registerReductionOps(OpRegistry& registry);
void registerViewOps(OpRegistry& registry);
void registerCreationOps(OpRegistry& registry);
void registerNnLinalgOps(OpRegistry& registry);
void registerMiscOps(OpRegistry& registry);

}  // namespace fusescope
