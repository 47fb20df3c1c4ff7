#include "core/inductor_config.h"

namespace fusescope {

const std::vector<InductorSetting>& inductorSettings() {
    static const std::vector<InductorSetting> settings = {
        {"realize_reads_threshold", &InductorConfig::realizeReadsThreshold},
        {"realize_opcount_threshold", &InductorConfig::realizeOpcountThreshold},
        {"realize_acc_reads_threshold", &InductorConfig::realizeAccReadsThreshold},
        {"max_fusion_size", &InductorConfig::maxFusionSize},
        {"max_fusion_buffer_group_pairwise_attempts", &InductorConfig::maxFusionBufferGroupPairwiseAttempts},
    };
    return settings;
}

}  // namespace fusescope
