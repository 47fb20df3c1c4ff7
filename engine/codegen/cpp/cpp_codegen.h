#pragma once
// C++ code generation for the CPU: one function per kernel of the schedule (vectorisable
// inner loops, reductions with vector accumulators, the outer range in parallel through
// OpenMP) and a wrapper `call` that allocates intermediate buffers and runs kernels and
// extern kernels in order. The module needs no headers: the prelude declares what it uses.
//
// ABI of the wrapper:
//   extern "C" int call(void* const* inputs, void* const* outputs, const int64_t* symbols);
// inputs: each graph input's data pointer (placeholder order); outputs: the storage of each
// buffer in GeneratedCpp::outputBuffers, allocated by the caller; symbols: the value of
// each size symbol in LoweredGraph::symbols order. It returns 0, or 1 when an integer
// division by zero happened (the results are then not to be used).

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "codegen/common/kernel_code.h"
#include "core/test_hooks.h"
#include "lower/ir.h"
#include "schedule/scheduler.h"

namespace fusescope {

// A kernel or extern-kernel call of the wrapper. The wrapper brackets each one with
//   fs_span = fs_trace_begin(<index>, <n>, <buffer pointers>...); ... fs_trace_end(fs_span);
// so the runtime can record it when the profiler is on (runtime/cpu_runtime.cpp).
struct TracedCall {
    std::string name;                  // cpp_fused_add_0, extern_kernels.mm
    std::vector<std::string> buffers;  // the pointers passed to fs_trace_begin, in order
};

struct GeneratedCpp {
    std::string source;
    // Provenance (docs/architecture.md, principle 4): the lines that compute each buffer (its kernel's
    // statements, its allocation, the call that fills it) and the kernel each buffer is in.
    std::map<std::string, LineRanges> bufferLines;
    std::map<std::string, std::string> bufferKernels;
    std::vector<std::string> kernelNames;    // in call order
    std::vector<std::string> outputBuffers;  // computed buffers the caller allocates
    std::vector<TracedCall> tracedCalls;     // indexed by fs_trace_begin's first argument
};

// `hooks` may make the wrapper crash (core/test_hooks.h).
GeneratedCpp generateCpp(const LoweredGraph& graph, const Schedule& schedule, const TestHooks& hooks = {});

// The helper functions every module starts with (math with PyTorch's NaN rules, Python's
// floor division and modulo, allocation, BLAS entry points).
const std::string& cppPrelude();

// One kernel's function (codegen/common/kernel_code.h).
KernelCode cppKernel(const KernelGroup& kernel, const std::string& name, const LoweredGraph& graph);

}  // namespace fusescope
