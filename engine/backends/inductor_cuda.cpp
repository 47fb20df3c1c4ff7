// The inductor backend's CUDA code path: CUDA kernels for the schedule, compiled by NVRTC to
// PTX and a cubin (no GPU needed). Launching them needs the CUDA runtime; under GPU code
// generation only the graph's results come from the CPU code of the same schedule.

#include <mutex>

#include <fmt/format.h>

#include "backends/inductor_stages.h"
#include "codegen/cuda/cuda_codegen.h"
#include "toolchain/cuda/cuda_compiler.h"

namespace fusescope {

CompiledGraph compileForCuda(const ScheduledGraph& g, const CompileRequest& request, const InductorReporter& report) {
    GeneratedCuda generated = compilePhase(request, "codegen", [&] { return generateCuda(g.lowered, g.schedule); });
    report.artifact("output_code", fmt::format("Output code of {}:\n{}", request.graphName, generated.source));
    KernelSourceEvent source = kernelSourceOf(request, "cuda", generated);
    source.arch = request.settings.cudaArch.empty() ? CudaCompiler::kDefaultArch : request.settings.cudaArch;

    if (!CudaCompiler::available()) {
        static std::once_flag noToolkitNotice;
        std::call_once(noToolkitNotice, [&] {
            report.log(LogLevel::Warning, CudaCompiler::unavailableReason() + "; CUDA kernels are generated but not compiled");
        });
    } else {
        try {
            CudaModuleCode code = compilePhase(request, "toolchain", [&] {
                return CudaCompiler::compile(generated.source, request.graphName + ".cu", source.arch);
            });
            source.ptx = code.ptx;
            source.sass = code.sass;
            source.compileSeconds = code.compileSeconds;
            if (!code.log.empty()) report.artifact("perf_hints", request.graphName + ": " + code.log);
        } catch (const Error& e) {
            source.error = e.what();
            report.emit(source);
            throw ScriptError("CudaCompileError", fmt::format("CUDA compile error in the code generated for {}:\n{}", request.graphName, e.what()));
        }
    }
    report.emit(source);

    // The kernels are not launched (core/device_context.h): the same schedule runs as C++,
    // reported nowhere (the user reads the CUDA code), and its results are put on the device.
    CompileRequest host = request;
    host.logger = nullptr;
    host.bus = nullptr;
    CompiledGraph run = compileForCpu(g, host, InductorReporter(host));
    Device device = request.device;
    return [run, device](const std::vector<Tensor>& inputs) {
        std::vector<Tensor> outputs = run(inputs);
        for (const Tensor& t : outputs)
            if (t.defined()) t.setDevice(device);
        return outputs;
    };
}

}  // namespace fusescope
