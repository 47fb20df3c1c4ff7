#pragma once
// Runs a generated CUDA module on the GPU: loads its cubin (or PTX) into the driver, then per
// call reads the size symbols off the inputs, gives every buffer of the plan device memory
// from the caching allocator, launches the plan's kernels and cuBLAS products in order on
// the default stream, and returns the outputs as cuda tensors whose bytes stay on the
// device until the host reads them. Nothing waits for the GPU unless the graph divides
// integers (its ZeroDivisionError flag is read back) or the profiler is on: then each step
// is timed with CUDA events and reported on the GPU's track of the trace, linked to the
// graph call that launched it.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "codegen/cuda/cuda_codegen.h"
#include "core/error.h"
#include "core/tensor.h"
#include "lower/ir.h"
#include "runtime/cuda_driver.h"
#include "runtime/graph_call.h"

namespace fusescope {

class CudaGraphRunner {
public:
    // `image`: a cubin, or PTX text the driver compiles on load.
    CudaGraphRunner(const LoweredGraph& graph, const std::vector<CudaLaunchStep>& plan, const std::string& image, Device device,
                    GraphTraceName traceName);
    ~CudaGraphRunner();
    CudaGraphRunner(const CudaGraphRunner&) = delete;
    CudaGraphRunner& operator=(const CudaGraphRunner&) = delete;

    std::vector<Tensor> operator()(const std::vector<Tensor>& inputs) const;

private:
    struct Step;
    class KernelTimer;
    void launch(const Step& step, const SymbolValues& symbols, const std::vector<int64_t>& sizeArgs,
                const std::function<CudaDevicePtr(const std::string&)>& bufferAddress) const;
    LoweredGraph graph_;
    std::vector<Step> steps_;
    Device device_;
    CudaModule module_ = nullptr;
    CudaDevicePtr status_ = 0;     // the module's fs_status flag
    GraphStatusSites statusSites_;  // where fs_status's errors are raised; none known: it is not read
    GraphTraceName traceName_;
};

}  // namespace fusescope
