#pragma once
// C++ code generation for the CPU: one function per kernel of the schedule (vectorisable
// inner loops, reductions with vector accumulators, the outer range in parallel through
// OpenMP) and a wrapper `call` that allocates intermediate buffers and runs kernels and
// extern kernels in order. The module needs no headers: the prelude declares what it uses.
//
// ABI of the wrapper:
//   extern "C" int call(void* const* inputs, void* const* outputs, const int64_t* symbols);
// inputs: each graph input's data pointer (placeholder order); outputs: the storage of each
// buffer in RenderedModule::outputBuffers, allocated by the caller; symbols: the value of
// each size symbol in LoweredGraph::symbols order. It returns 0, or 1 when an integer
// division by zero happened (the results are then not to be used). It brackets each kernel
// and extern-kernel call with
//   fs_span = fs_trace_begin(<index>, <n>, <buffer pointers>...); ... fs_trace_end(fs_span);
// so the runtime can record it when the profiler is on (RenderedModule::tracedCalls).

#include <string>

#include "codegen/common/kernel_code.h"
#include "codegen/common/rendered_module.h"
#include "core/test_hooks.h"
#include "lower/ir.h"
#include "schedule/scheduler.h"

namespace fusescope {

// `hooks` may make the wrapper crash (core/test_hooks.h).
RenderedModule generateCpp(const LoweredGraph& graph, const Schedule& schedule, const TestHooks& hooks = {});

// The helper functions every module starts with (math with PyTorch's NaN rules, Python's
// floor division and modulo, allocation, BLAS entry points).
const std::string& cppPrelude();

// One kernel's function (codegen/common/kernel_code.h).
// `storedIntoInputs`: the schedule's buffers computed in an input's memory (Schedule).
KernelCode cppKernel(const KernelGroup& kernel, const std::string& name, const LoweredGraph& graph,
                     const std::map<std::string, int>& storedIntoInputs = {});

}  // namespace fusescope
