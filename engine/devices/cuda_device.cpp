// The CUDA device: CUDA kernels for the schedule, compiled by NVRTC to PTX and a cubin (no
// GPU needed), loaded and launched by CudaGraphRunner. Under GPU code generation only
// (DeviceContext::cudaOnHost), the graph's results come from the CPU device running the
// same schedule.

#include <mutex>

#include <fmt/format.h>

#include "codegen/cuda/cuda_codegen.h"
#include "core/device_context.h"
#include "devices/device_backend.h"
#include "runtime/cuda_runtime.h"
#include "toolchain/cuda/cuda_compiler.h"

namespace fusescope {

namespace {

using LaunchPlan = std::shared_ptr<const std::vector<CudaLaunchStep>>;

class CudaDevice : public DeviceBackend {
public:
    // Generated code's buffers: the CPU's when the graph runs as C++ (GPU code generation
    // only); on the GPU, CudaGraphRunner takes them from the CUDA caching allocator.
    const DeviceAllocator& allocator() const override { return cpuDevice().allocator(); }

    RenderedModule render(const LoweredGraph& graph, const Schedule& schedule, const TestHooks& hooks) const override {
        GeneratedCuda generated = generateCuda(graph, schedule, hooks.faultInGpuKernel);  // the launch plan also ends the source as comments
        LaunchPlan plan = std::make_shared<const std::vector<CudaLaunchStep>>(std::move(generated.steps));
        RenderedModule module = std::move(generated);
        module.launchPlan = plan;
        return module;
    }

    CompiledArtifact compile(const RenderedModule& module, const CompileRequest& request,
                             const InductorReporter& report) const override {
        CompiledArtifact compiled;
        compiled.arch = request.settings.cudaArch;
        if (compiled.arch.empty()) compiled.arch = cudaKernelsRunOnGpu() ? cudaApi().arch : CudaCompiler::kDefaultArch;
        if (!CudaCompiler::available()) {
            static std::once_flag noToolkitNotice;
            std::call_once(noToolkitNotice, [&] {
                report.log(LogLevel::Warning, CudaCompiler::unavailableReason() + "; CUDA kernels are generated but not compiled");
            });
            return compiled;
        }
        try {
            CudaModuleCode code = compilePhase(request, "toolchain", [&] {
                return CudaCompiler::compile(module.source, request.graphName + ".cu", compiled.arch, !request.eagerOp);
            });
            compiled.addArtifact("ptx", code.ptx);
            compiled.addArtifact("sass", code.sass);
            compiled.compileSeconds = code.compileSeconds;
            if (!code.log.empty()) report.artifact("perf_hints", request.graphName + ": " + code.log);
            compiled.program = code.cubin.empty() ? code.ptx : code.cubin;  // the driver compiles PTX on load
        } catch (const Error& e) {
            compiled.error = e.what();
        }
        return compiled;
    }

    ScriptError compileError(const std::string& graphName, const std::string& message) const override {
        return ScriptError("CudaCompileError",
                           fmt::format("CUDA compile error in the code generated for {}:\n{}", graphName, message));
    }

    CompiledGraph load(const ScheduledGraph& g, const RenderedModule& module, const CompiledArtifact& compiled,
                       const CompileRequest& request) const override {
        if (cudaKernelsRunOnGpu()) {
            if (!compiled.program.has_value())
                throw ScriptError("RuntimeError", "cannot run " + request.graphName + " on the GPU: " +
                                                      CudaCompiler::unavailableReason());
            auto runner = std::make_shared<CudaGraphRunner>(g.lowered, *std::any_cast<LaunchPlan>(module.launchPlan),
                                                            std::any_cast<std::string>(compiled.program), request.device,
                                                            GraphTraceName{request.compileId, request.graphName, request.eagerOp});
            return [runner](const std::vector<Tensor>& inputs) { return (*runner)(inputs); };
        }
        // GPU code generation only: the same schedule runs on the CPU device, reported
        // nowhere (the user reads the CUDA code), and its results are put on this device.
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
