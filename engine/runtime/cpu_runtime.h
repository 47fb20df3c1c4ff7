#pragma once
// Runs a generated C++ module: computes the size symbols from the inputs, allocates the
// output buffers, calls the module's `call`, and returns the graph outputs as tensors
// (views onto output buffers or inputs, as the graph's outputs are).

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "codegen/common/rendered_module.h"
#include "core/error.h"
#include "core/tensor.h"
#include "runtime/device_allocator.h"
#include "runtime/graph_call.h"

namespace fusescope {

struct CompiledModule;

// Makes the runtime helpers generated code calls known to the JIT: fs_alloc and fs_free
// (the allocator's), fs_gemm, fs_trace_begin and fs_trace_end. Idempotent for one allocator.
void registerCpuRuntimeSymbols(const DeviceAllocator& allocator);

// What generated code is running now ("graph __compiled_fn_1 (compile 0/0)"), or null: read
// by a crash handler, so a plain pointer load that is safe inside a signal handler.
const char* runningGeneratedCode();

class CpuGraphRunner {
public:
    // inPlace: output buffers to compute in an input's storage (schedule/in_place_outputs.h),
    // where the input's layout at the call allows.
    CpuGraphRunner(const LoweredGraph& graph, const RenderedModule& generated, std::shared_ptr<CompiledModule> module,
                   GraphTraceName traceName, std::map<std::string, int> inPlace = {});
    std::vector<Tensor> operator()(const std::vector<Tensor>& inputs) const;

    // What the trace needs to know of each call in the wrapper (RenderedModule::tracedCalls).
    struct TracedCallInfo {
        std::string name;
        std::vector<FixedLayout> buffers;  // the layout of each pointer: its sizes are the span's input dims
        std::vector<std::string> computes;  // the buffers the call computes
    };

private:
    using CallFn = int (*)(void* const*, void* const*, const int64_t*);
    // The input an output buffer is computed in this call, or null.
    const Tensor* inPlaceTarget(const std::string& buffer, const FixedLayout& layout, const Shape& sizes,
                                const std::vector<Tensor>& inputs, const SymbolValues& symbols) const;
    std::vector<InputBuffer> inputs_;
    std::vector<OutputSpec> outputs_;
    std::vector<SymbolSource> symbols_;
    std::vector<std::pair<std::string, FixedLayout>> outputBuffers_;
    std::map<std::string, int> inPlace_;
    std::shared_ptr<CompiledModule> module_;
    CallFn call_ = nullptr;
    GraphStatusSites statusSites_;  // where fs_status's errors are raised
    GraphTraceName traceName_;
    std::string crashLabel_;  // what runningGeneratedCode() says while this graph runs
    std::vector<TracedCallInfo> tracedCalls_;
    friend void* fsTraceBegin(int call, int nbuffers, void* const* buffers);
};

}  // namespace fusescope
