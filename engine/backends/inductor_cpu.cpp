// The inductor backend's CPU code path: C++ for the schedule, compiled by the in-process
// JIT and run by CpuGraphRunner.

#include <mutex>

#include <fmt/format.h>

#include "backends/backend.h"
#include "backends/inductor_stages.h"
#include "codegen/cpp/cpp_codegen.h"
#include "runtime/cpu_runtime.h"
#include "toolchain/cpp_jit.h"

namespace fusescope {

CompiledGraph compileForCpu(const ScheduledGraph& g, const CompileRequest& request, const InductorReporter& report) {
    const TestHooks& hooks = request.settings.testHooks;
    GeneratedCpp generated = compilePhase(request, "codegen", [&] { return generateCpp(g.lowered, g.schedule, hooks); });
    if (hooks.breakCodegen) generated.source += "\nthis line is not C++;\n";
    report.artifact("output_code", fmt::format("Output code of {}:\n{}", request.graphName, generated.source));
    KernelSourceEvent source = kernelSourceOf(request, "cpp", generated);

    if (!CppJit::available()) {
        static std::once_flag noJitNotice;
        std::call_once(noJitNotice, [&] { report.log(LogLevel::Warning, CppJit::unavailableReason() + "; compiled graphs run eagerly"); });
        report.emit(source);
        return eagerRunner(g.graph);
    }
    std::shared_ptr<CompiledModule> module;
    try {
        module = compilePhase(request, "toolchain", [&] {
            registerCpuRuntimeSymbols();
            return CppJit::instance().compile(generated.source, request.graphName + ".cpp");
        });
    } catch (const Error& e) {
        source.error = e.what();
        report.emit(source);
        throw ScriptError("CppCompileError", fmt::format("C++ compile error in the code generated for {}:\n{}", request.graphName, e.what()));
    }
    for (const auto& remark : module->remarks) report.artifact("perf_hints", request.graphName + ": " + remark);
    source.llvmIr = module->llvmIr;
    source.assembly = module->assembly;
    source.fromCache = module->fromCache;
    source.compileSeconds = module->compileSeconds;
    if (module->fromCache)
        report.log(LogLevel::Info, fmt::format("{}: kernel cache hit ({} kernels loaded from {})", request.graphName,
                                               generated.kernelNames.size(), CppJit::instance().cacheDir()));
    report.emit(source);
    auto runner = std::make_shared<CpuGraphRunner>(g.lowered, generated, module, GraphTraceName{request.compileId, request.graphName});
    return [runner](const std::vector<Tensor>& inputs) { return (*runner)(inputs); };
}

}  // namespace fusescope
