// The CPU device: C++ for the schedule, compiled by the in-process JIT (toolchain/cpp_jit.h)
// and run by CpuGraphRunner. Without LLVM in the build, graphs run eagerly.

#include <mutex>

#include <fmt/format.h>

#include "graph/graph_interpreter.h"
#include "codegen/cpp/cpp_codegen.h"
#include "core/allocator.h"
#include "devices/device_backend.h"
#include "runtime/cpu_runtime.h"
#include "toolchain/cpp_jit.h"

namespace fusescope {

namespace {

// Intermediate buffers come from the caching allocator, as storages do.
void* allocateHost(int64_t bytes) { return allocateBytes(static_cast<size_t>(bytes)); }
void releaseHost(void* p, int64_t bytes) { releaseBytes(p, static_cast<size_t>(bytes)); }

class CpuDevice : public DeviceBackend {
public:
    const DeviceAllocator& allocator() const override {
        static const DeviceAllocator host{allocateHost, releaseHost};
        return host;
    }

    RenderedModule render(const LoweredGraph& graph, const Schedule& schedule, const TestHooks& hooks) const override {
        RenderedModule module = generateCpp(graph, schedule, hooks);
        if (hooks.breakCodegen) module.source += "\nthis line is not C++;\n";
        return module;
    }

    CompiledArtifact compile(const RenderedModule& module, const CompileRequest& request,
                             const InductorReporter& report) const override {
        CompiledArtifact compiled;
        if (!CppJit::available()) {
            static std::once_flag noJitNotice;
            std::call_once(noJitNotice, [&] {
                report.log(LogLevel::Warning, CppJit::unavailableReason() + "; compiled graphs run eagerly");
            });
            return compiled;
        }
        std::shared_ptr<CompiledModule> jitModule;
        try {
            jitModule = compilePhase(request, "toolchain", [&] {
                registerCpuRuntimeSymbols(allocator());
                return CppJit::instance().compile(module.source, request.graphName + ".cpp");
            });
        } catch (const Error& e) {
            compiled.error = e.what();
            return compiled;
        }
        for (const auto& remark : jitModule->remarks) report.artifact("perf_hints", request.graphName + ": " + remark);
        if (jitModule->fromCache)
            report.log(LogLevel::Info, fmt::format("{}: kernel cache hit ({} kernels loaded from {})", request.graphName,
                                                   module.kernelNames.size(), CppJit::instance().cacheDir()));
        compiled.addArtifact("llvm_ir", jitModule->llvmIr);
        compiled.addArtifact("asm", jitModule->assembly);
        compiled.fromCache = jitModule->fromCache;
        compiled.compileSeconds = jitModule->compileSeconds;
        compiled.program = std::move(jitModule);
        return compiled;
    }

    ScriptError compileError(const std::string& graphName, const std::string& message) const override {
        return ScriptError("CppCompileError",
                           fmt::format("C++ compile error in the code generated for {}:\n{}", graphName, message));
    }

    CompiledGraph load(const ScheduledGraph& g, const RenderedModule& module, const CompiledArtifact& compiled,
                       const CompileRequest& request) const override {
        if (!compiled.program.has_value()) return eagerRunner(g.graph);  // no JIT in this build
        auto jitModule = std::any_cast<std::shared_ptr<CompiledModule>>(compiled.program);
        auto runner = std::make_shared<CpuGraphRunner>(g.lowered, module, jitModule, GraphTraceName{request.compileId, request.graphName},
                                                       g.schedule.storedIntoInputs);
        return [runner](const std::vector<Tensor>& inputs) { return (*runner)(inputs); };
    }
};

}  // namespace

const DeviceBackend& cpuDevice() {
    static const CpuDevice device;
    return device;
}

}  // namespace fusescope
