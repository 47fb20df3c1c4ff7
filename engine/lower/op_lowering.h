#pragma once
// An op's lowering, as its definition holds it (OpDef::lowering).

#include "lower/lowering_context.h"

namespace fusescope {

struct OpLowering {
    LoweringRule rule;
};

}  // namespace fusescope
