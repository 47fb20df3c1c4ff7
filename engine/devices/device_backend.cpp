#include "devices/device_backend.h"

#include <fmt/format.h>

namespace fusescope {

namespace {

KernelSourceEvent kernelSourceEvent(const CompileRequest& request, const RenderedModule& module,
                                    const CompiledArtifact& compiled) {
    KernelSourceEvent source;
    source.compileId = request.compileId;
    source.graph = request.graphName;
    source.language = module.language;
    source.source = module.source;
    source.kernels = module.kernelNames;
    source.bufferLines = module.bufferLines;
    source.bufferKernels = module.bufferKernels;
    source.artifacts = compiled.artifacts;
    source.arch = compiled.arch;
    source.fromCache = compiled.fromCache;
    source.compileSeconds = compiled.compileSeconds;
    source.error = compiled.error;
    return source;
}

}  // namespace

const DeviceBackend& deviceBackendFor(const Device& device) {
    return device.kind == Device::Kind::Cuda ? cudaDevice() : cpuDevice();
}

CompiledGraph compileOnDevice(const DeviceBackend& device, const ScheduledGraph& g, const CompileRequest& request) {
    InductorReporter report(request);
    RenderedModule module = compilePhase(request, "codegen", [&] {
        return device.render(g.lowered, g.schedule, request.settings.testHooks);
    });
    report.artifact("output_code", fmt::format("Output code of {}:\n{}", request.graphName, module.source));
    CompiledArtifact compiled = device.compile(module, request, report);
    report.emit(kernelSourceEvent(request, module, compiled));
    if (!compiled.error.empty()) throw device.compileError(request.graphName, compiled.error);
    return device.load(g, module, compiled, request);
}

}  // namespace fusescope
