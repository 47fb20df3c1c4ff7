// The CUDA device: CUDA kernels for the schedule, compiled by NVRTC to PTX and a cubin (no
// GPU needed). Launching them needs the CUDA runtime; under GPU code generation only the
// graph's results come from the CPU device running the same schedule.

#include <mutex>

#include <fmt/format.h>

#include "codegen/cuda/cuda_codegen.h"
#include "devices/device_backend.h"
#include "toolchain/cuda/cuda_compiler.h"

namespace fusescope {

namespace {

class CudaDevice : public DeviceBackend {
public:
    // The buffers of a graph that runs as C++ on the CPU (GPU code generation only).
    const DeviceAllocator& allocator() const override { return cpuDevice().allocator(); }

    RenderedModule render(const LoweredGraph& graph, const Schedule& schedule, const TestHooks&) const override {
        return generateCuda(graph, schedule);  // the launch plan goes on in the source's closing comments
    }

    CompiledArtifact compile(const RenderedModule& module, const CompileRequest& request,
                             const InductorReporter& report) const override {
        CompiledArtifact compiled;
        compiled.arch = request.settings.cudaArch.empty() ? CudaCompiler::kDefaultArch : request.settings.cudaArch;
        if (!CudaCompiler::available()) {
            static std::once_flag noToolkitNotice;
            std::call_once(noToolkitNotice, [&] {
                report.log(LogLevel::Warning, CudaCompiler::unavailableReason() + "; CUDA kernels are generated but not compiled");
            });
            return compiled;
        }
        try {
            CudaModuleCode code = compilePhase(request, "toolchain", [&] {
                return CudaCompiler::compile(module.source, request.graphName + ".cu", compiled.arch);
            });
            compiled.addArtifact("ptx", code.ptx);
            compiled.addArtifact("sass", code.sass);
            compiled.compileSeconds = code.compileSeconds;
            if (!code.log.empty()) report.artifact("perf_hints", request.graphName + ": " + code.log);
        } catch (const Error& e) {
            compiled.error = e.what();
        }
        return compiled;
    }

    ScriptError compileError(const std::string& graphName, const std::string& message) const override {
        return ScriptError("CudaCompileError",
                           fmt::format("CUDA compile error in the code generated for {}:\n{}", graphName, message));
    }

    // The kernels are not launched (core/device_context.h): the same schedule runs on the
    // CPU device, reported nowhere (the user reads the CUDA code), and its results are put
    // on this device.
    CompiledGraph load(const ScheduledGraph& g, const RenderedModule&, const CompiledArtifact&,
                       const CompileRequest& request) const override {
        CompileRequest host = request;
        host.logger = nullptr;
        host.bus = nullptr;
        CompiledGraph run = compileOnDevice(cpuDevice(), g, host);
        Device device = request.device;
        return [run, device](const std::vector<Tensor>& inputs) {
            std::vector<Tensor> outputs = run(inputs);
            for (const Tensor& t : outputs)
                if (t.defined()) t.setDevice(device);
            return outputs;
        };
    }
};

}  // namespace

const DeviceBackend& cudaDevice() {
    static const CudaDevice device;
    return device;
}

}  // namespace fusescope
