#pragma once
// The scheduler: one node per buffer of the loop IR with its memory dependencies and
// users, dead-node elimination, then fusion. Every candidate pair of nodes gets a score
// and a verdict; the ordered decisions can be replayed step by step.

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/inductor_config.h"
#include "lower/ir.h"

namespace fusescope {

// MemoryDep('buf0', c0, {c0: 256}, None), StarDep(name='buf1', mode=None), WeakDep(...).
struct Dep {
    enum class Kind { Memory, Star, Weak };
    Kind kind = Kind::Memory;
    std::string name;
    IndexExpr index;                                          // Memory: over c0, c1, ...
    std::vector<std::pair<std::string, IndexExpr>> ranges;  // Memory: c0 -> extent
    std::string str() const;
    bool operator==(const Dep& o) const = default;  // member by member, indices by IndexExpr's normal form
};

struct SchedulerNode;

struct NodeUser {
    const SchedulerNode* node = nullptr;  // null: the graph's output
    bool canInplace = false;
    bool isWeak = false;
    std::string str() const;
};

struct SchedulerNode {
    enum class Kind { Computed, Extern, Fused };
    Kind kind = Kind::Computed;
    std::string name;
    const Buffer* buffer = nullptr;        // Computed / Extern
    std::vector<SchedulerNode*> members;   // Fused: in execution order
    std::vector<Dep> writes, unmetDependencies, metDependencies;
    std::vector<NodeUser> users;
    std::vector<IndexExpr> pointwiseSizes, reductionSizes;  // the loop nest (group.iteration)
    std::vector<std::pair<std::string, FixedLayout>> layouts;  // Computed: buffers read, then written
    int order = 0;  // position in the pre-fusion order

    bool isReduction() const { return !reductionSizes.empty(); }
    std::string kindName() const;  // SchedulerNode / ExternKernelSchedulerNode / FusedSchedulerNode
    std::string str() const;       // the ir_pre_fusion.txt / ir_post_fusion.txt text of this node
    std::vector<const SchedulerNode*> leaves() const;  // itself, or its members
};

// Vertical: a producer and its consumer; horizontal: two readers of one buffer.
enum class FusionKind { Vertical, Horizontal };
std::string_view fusionKindName(FusionKind kind);  // "vertical", "horizontal"

// The fact that decided a pair: they fused, or the rule that refused them (fusion.h).
enum class FusionVerdictKind {
    Fused,
    ExternKernel,           // one of them is an extern kernel
    WouldCreateCycle,       // a third node depends on one and feeds the other
    IterationRangesDiffer,  // no loop nest fits both
    ReadsOtherElement,      // a consumer reads its producer's output where it is not written
    ExceedsMaxFusion,       // together they would hold more nodes than max_fusion_size
};

struct FusionDecision {
    int step = 0;
    std::string node1, node2;  // the two (possibly already fused) nodes considered
    FusionKind kind = FusionKind::Vertical;
    int64_t score = 0;  // bytes of memory traffic the fusion saves
    FusionVerdictKind verdict = FusionVerdictKind::Fused;
    std::string reason;  // why, in words that name the facts
    std::string result;  // the fused node's name when fused

    bool fused() const { return verdict == FusionVerdictKind::Fused; }
};

// A kernel's worth of work after fusion: the members' loop bodies re-expressed over one
// iteration (the group's pointwise sizes, then reduction sizes) with variables x0, x1, ...
struct KernelGroup {
    const SchedulerNode* node = nullptr;  // the post-fusion node (an extern kernel: no bodies)
    std::vector<const SchedulerNode*> nodes;  // its computed members in execution order
    std::vector<IndexExpr> pointwiseSizes, reductionSizes;
    std::vector<LoopBody> bodies;  // one per node, over the group's iteration
    // Its float32 sums add chunks of kSumChunk elements (codegen/cpp/chunked_sums.h).
    bool chunkedSums = false;
};

struct Schedule {
    InductorConfig config;  // the limits it was made within (max_fusion_size)
    std::vector<std::unique_ptr<SchedulerNode>> nodes;  // pre-fusion, alive
    std::vector<std::string> removedDeadNodes;
    std::vector<std::unique_ptr<SchedulerNode>> fusedNodes;
    std::vector<SchedulerNode*> order;  // post-fusion, in execution order
    std::vector<FusionDecision> decisions;
    std::vector<KernelGroup> kernels;  // one per entry of `order`
    // Buffers computed in the storage of the input they are the new value of (buffer ->
    // placeholder; schedule/in_place_outputs.h), set after scheduling where the device can.
    std::map<std::string, int> storedIntoInputs;

    std::string preFusionText() const;
    std::string postFusionText() const;
};

// Builds the scheduler nodes for a lowered graph and fuses them within `config`'s limits.
Schedule schedule(const LoweredGraph& graph, const InductorConfig& config = {});

}  // namespace fusescope
