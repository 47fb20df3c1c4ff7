#pragma once
// Fusion: merges scheduler nodes into kernels. Candidates are pairs that share a buffer
// (a producer and its consumer: vertical; two readers of one buffer: horizontal), taken
// in order of the memory traffic they save. A pair fuses when neither is an extern kernel,
// fusing creates no cycle through a third node, both fit one loop nest (equal iterations,
// or one splitting into the other; a reduction's pointwise producers and consumers), and
// every consumer reads its producer's element where the producer writes it.

#include "schedule/scheduler.h"

namespace fusescope {

// Fills s.decisions, s.fusedNodes, s.order and s.kernels from s.nodes.
void fuseNodes(Schedule& s);

}  // namespace fusescope
