#pragma once
// The inductor backend's limits, as torch._inductor.config names them: when the lowering
// stops inlining a value into its consumers and writes it to a buffer ("realizes" it), and
// how many nodes one fused kernel may hold. Scripts set them as PyTorch's do
// (torch._inductor.config.max_fusion_size = 16); each compile takes the values set when it
// starts. Every decision they cause is logged with its reason (docs/inductor.md).

#include <string_view>
#include <vector>

namespace fusescope {

struct InductorConfig {
    // A value read by several users is realized when one element loads more than this many
    // values (recomputing it in every user would repeat the loads).
    int realizeReadsThreshold = 4;
    // ... or when one element computes more than this many ops.
    int realizeOpcountThreshold = 30;
    // Any inlined value is realized when one element loads more than this many values, so a
    // long chain of ops does not accumulate into one ever-growing loop body.
    int realizeAccReadsThreshold = 8;
    // A fused kernel holds at most this many scheduler nodes.
    int maxFusionSize = 64;
    // Each reader of a buffer is paired (a horizontal fusion candidate) with at most this
    // many of the next readers of it, so a buffer read by thousands of nodes yields
    // candidates linear in its readers, not quadratic.
    int maxFusionBufferGroupPairwiseAttempts = 64;
};

// An inlined body larger than this many ops is realized whatever its users (inductor's
// guard against unbounded recursion in its element functions; not a setting there either).
constexpr int kLargeInlinedBodyOps = 100;

// The settings by their torch._inductor.config names, for scripts and the docs.
struct InductorSetting {
    std::string_view name;  // "max_fusion_size"
    int InductorConfig::*field;
};
const std::vector<InductorSetting>& inductorSettings();

}  // namespace fusescope
