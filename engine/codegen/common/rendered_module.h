#pragma once
// One graph's generated code, in the language of the device it was rendered for: what a
// device's compiler takes (devices/device_backend.h) and the kernel_source event reports.

#include <any>
#include <map>
#include <string>
#include <vector>

#include "codegen/common/kernel_code.h"

namespace fusescope {

// A kernel or extern-kernel call the runtime records in the trace when the profiler is on
// (the C++ wrapper brackets each with fs_trace_begin / fs_trace_end; runtime/cpu_runtime.cpp).
struct TracedCall {
    std::string name;                  // cpp_fused_add_0, extern_kernels.mm
    std::vector<std::string> buffers;  // the pointers passed to fs_trace_begin, in order
    std::vector<std::string> computes; // what the call computes (its span's buffers)
};

struct RenderedModule {
    std::string language;  // "cpp", "cuda": as the kernel_source event names it
    std::string source;
    // Provenance (docs/architecture.md, principle 4): the lines that compute each buffer (its kernel's
    // statements, its allocation, the call that fills it) and the kernel each buffer is in.
    std::map<std::string, LineRanges> bufferLines;
    std::map<std::string, std::string> bufferKernels;
    std::vector<std::string> kernelNames;    // each defined kernel once, in order of first call
    std::vector<std::string> outputBuffers;  // computed buffers the caller allocates
    std::vector<TracedCall> tracedCalls;     // indexed by fs_trace_begin's first argument; none in CUDA
    std::any launchPlan;  // what the device's runtime runs beside the source (cuda: the CudaLaunchStep list)
};

}  // namespace fusescope
