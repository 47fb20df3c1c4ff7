#pragma once
// A device the inductor backend compiles for, shaped like tinygrad's `Compiled` device: an
// allocator, a renderer (schedule -> source), a compiler (source -> a program, plus the
// texts people read) and a runtime (program -> callable graph). compileOnDevice runs a
// scheduled graph through them. What a compiler produces reaches the kernel_source event,
// the debug-trace files and the workbench by name (KernelSourceEvent::artifacts), so a new
// device is one more DeviceBackend.

#include <any>
#include <map>
#include <string>

#include "devices/inductor_stages.h"
#include "codegen/common/rendered_module.h"
#include "core/device.h"
#include "runtime/device_allocator.h"

namespace fusescope {

// What a device's compiler made of a rendered module.
struct CompiledArtifact {
    std::any program;  // what the device's runtime loads; empty when nothing was compiled
    std::map<std::string, std::string> artifacts;  // texts by name: llvm_ir, asm (cpp); ptx, sass (cuda)
    std::string arch;  // the architecture compiled for, on a device with several (cuda: sm_90)
    bool fromCache = false;
    double compileSeconds = 0;
    std::string error;  // the compiler's message when it failed

    // An empty text is no artifact (e.g. no SASS without nvdisasm): nothing to show or write.
    void addArtifact(const std::string& name, std::string text) {
        if (!text.empty()) artifacts[name] = std::move(text);
    }
};

class DeviceBackend {
public:
    virtual ~DeviceBackend() = default;

    // Allocator: where generated code allocates its intermediate buffers.
    virtual const DeviceAllocator& allocator() const = 0;

    // Renderer: the schedule as one module of source in the device's language.
    virtual RenderedModule render(const LoweredGraph& graph, const Schedule& schedule, const TestHooks& hooks) const = 0;

    // Compiler. A compile error comes back in `error` rather than thrown, so the
    // kernel_source event can carry it; without its toolchain it warns once and compiles
    // nothing.
    virtual CompiledArtifact compile(const RenderedModule& module, const CompileRequest& request,
                                     const InductorReporter& report) const = 0;
    // What the script raises for a compile error.
    virtual ScriptError compileError(const std::string& graphName, const std::string& message) const = 0;

    // Runtime: the compiled module as a callable graph.
    virtual CompiledGraph load(const ScheduledGraph& g, const RenderedModule& module, const CompiledArtifact& compiled,
                               const CompileRequest& request) const = 0;
};

// C++ with OpenMP, compiled in-process by Clang into the ORC JIT; eager without LLVM.
const DeviceBackend& cpuDevice();
// CUDA C++ compiled by NVRTC (no GPU needed); under GPU code generation only, the graph
// runs as C++ on the CPU with its results labelled with the cuda device.
const DeviceBackend& cudaDevice();
// The device object for a graph whose inputs live on `device`.
const DeviceBackend& deviceBackendFor(const Device& device);

// Renders, compiles and loads a scheduled graph on `device`, reporting the generated code
// (output_code log artifact, kernel_source event). Throws the device's compileError when
// the generated code does not compile.
CompiledGraph compileOnDevice(const DeviceBackend& device, const ScheduledGraph& g, const CompileRequest& request);

}  // namespace fusescope
