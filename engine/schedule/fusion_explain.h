#pragma once
// Why two scheduler nodes of a graph did or did not end up in one kernel, for any pair:
// the decision that fused them, the decision that refused them, or, for a pair the
// scheduler never paired, the fusion rules applied to their kernels now (fusion.h).

#include <optional>
#include <string>
#include <vector>

#include "schedule/scheduler.h"

namespace fusescope {

struct FusionExplanation {
    std::string node1, node2;        // as asked
    std::string kernel1, kernel2;    // the post-fusion nodes holding them (equal when fused)
    bool fused = false;
    bool considered = false;         // a decision of the schedule paired their groups
    int step = 0;                    // fused: the decision that joined them; else the last that refused them (0: none)
    std::optional<FusionKind> kind;  // of that decision (none: no decision paired them)
    std::string reason;
};

// Names are pre-fusion nodes (buf0), post-fusion ones (buf0_buf1_buf2) or a group a fusion
// step made on the way (buf0_buf1). Throws Error naming a few of the graph's nodes when a
// name is none of them, or was removed as dead.
FusionExplanation explainFusion(const Schedule& s, const std::string& node1, const std::string& node2);

}  // namespace fusescope
