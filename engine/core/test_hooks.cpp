#include "core/test_hooks.h"

#include <array>
#include <utility>

#include "core/error.h"

namespace fusescope {

namespace {

using Bug = TestHooks::PlantedBug;

constexpr std::array<std::pair<std::string_view, Bug>, 3> kPlantedBugs = {{
    {"aot_decomposition", Bug::AotDecomposition},
    {"inductor_decomposition", Bug::InductorDecomposition},
    {"lowering", Bug::Lowering},
}};

constexpr std::string_view kPlantBug = "plant-bug=";

}  // namespace

std::string testHookNames() {
    std::string names = "break-codegen, crash-in-generated-code, hang-in-generated-code, fault-in-gpu-kernel";
    for (const auto& [stage, bug] : kPlantedBugs) names += ", " + std::string(kPlantBug) + std::string(stage);
    return names;
}

void enableTestHook(TestHooks& hooks, std::string_view name) {
    if (name == "break-codegen") {
        hooks.breakCodegen = true;
        return;
    }
    if (name == "crash-in-generated-code") {
        hooks.crashInGeneratedCode = true;
        return;
    }
    if (name == "hang-in-generated-code") {
        hooks.hangInGeneratedCode = true;
        return;
    }
    if (name == "fault-in-gpu-kernel") {
        hooks.faultInGpuKernel = true;
        return;
    }
    if (name.starts_with(kPlantBug)) {
        std::string_view stage = name.substr(kPlantBug.size());
        for (const auto& [known, bug] : kPlantedBugs)
            if (stage == known) {
                hooks.plantedBug = bug;
                return;
            }
    }
    throw Error("unknown test hook '" + std::string(name) + "'; valid: " + testHookNames());
}

}  // namespace fusescope
