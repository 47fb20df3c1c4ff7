#pragma once
// Internal: each ops_*.cpp file registers its ops into the registry. Called explicitly from
// OpRegistry::instance() because static initialisers in a static library may be dropped.

namespace fusescope {

class OpRegistry;

void registerPointwiseOps(OpRegistry& registry);
void registerReductionOps(OpRegistry& registry);
void registerViewOps(OpRegistry& registry);
void registerCreationOps(OpRegistry& registry);
void registerNnLinalgOps(OpRegistry& registry);
void registerMiscOps(OpRegistry& registry);

}  // namespace fusescope
