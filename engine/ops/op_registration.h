#pragma once
// Internal: how the registry is filled. OpRegistry::instance() calls registerAllOps
// (engine/opdefs/op_definitions.cpp) explicitly, because static initialisers in a static
// library may be dropped; it registers every op family (opdefs/op_families.h), then checks
// the whole.

namespace fusescope {

class OpRegistry;

void registerAllOps(OpRegistry& registry);

}  // namespace fusescope
