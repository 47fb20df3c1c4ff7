#pragma once
// Faults a test plants on purpose, so the paths that handle a broken compiler stage run end
// to end. They are an explicit option of a session (SessionOptions::testHooks; the CLI's
// --test-hook), carried to each stage with the compile request: no stage reads them from
// the environment.

#include <string>
#include <string_view>

namespace fusescope {

struct TestHooks {
    // One stage computes a wrong result.
    enum class PlantedBug {
        None,
        AotDecomposition,       // linear's decomposition doubles its result (every backend that decomposes)
        InductorDecomposition,  // softmax's decomposition divides by the sum plus 1
        Lowering,               // exp is lowered as exp2 (inductor only)
    };
    PlantedBug plantedBug = PlantedBug::None;
    bool breakCodegen = false;          // generated C++ gets a line that is not C++
    bool crashInGeneratedCode = false;  // every C++ wrapper writes through a null pointer
    bool hangInGeneratedCode = false;   // every C++ wrapper spins for ever (polling nothing)
    bool faultInGpuKernel = false;      // every CUDA kernel writes through a null pointer

    bool plants(PlantedBug bug) const { return plantedBug == bug; }
};

// Switches one hook on from its name: break-codegen, crash-in-generated-code,
// hang-in-generated-code, fault-in-gpu-kernel,
// plant-bug=aot_decomposition|inductor_decomposition|lowering. Throws Error naming the
// valid names for anything else.
void enableTestHook(TestHooks& hooks, std::string_view name);

// The valid names, for usage texts.
std::string testHookNames();

}  // namespace fusescope
