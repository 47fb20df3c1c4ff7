#pragma once
// Fusion: merges scheduler nodes into kernels. Candidates are pairs that share a buffer
// (a producer and its consumer: vertical; two readers of one buffer, neither an extern
// kernel, each paired with the next max_fusion_buffer_group_pairwise_attempts readers:
// horizontal), taken in order of the memory traffic they save. A pair fuses when together they hold at most
// max_fusion_size nodes (InductorConfig), neither is an extern kernel,
// fusing creates no cycle through a third node, both fit one loop nest (equal iterations,
// or one splitting into the other; a reduction's pointwise producers and consumers), and
// every consumer reads its producer's element where the producer writes it.

#include "schedule/scheduler.h"

namespace fusescope {

// Fills s.decisions, s.fusedNodes, s.order and s.kernels from s.nodes.
void fuseNodes(Schedule& s);

// Whether two post-fusion nodes of a finished schedule could fuse into one kernel by the
// rules above, whether or not fuseNodes ever paired them; the reason says why either way.
struct FusionVerdict {
    FusionVerdictKind kind = FusionVerdictKind::Fused;
    std::string reason;  // "cannot fuse buf0 with buf3: iteration ranges differ (256,) vs (16,)"

    bool fusable() const { return kind == FusionVerdictKind::Fused; }
};
FusionVerdict checkFusion(const Schedule& s, const SchedulerNode& a, const SchedulerNode& b);

}  // namespace fusescope
