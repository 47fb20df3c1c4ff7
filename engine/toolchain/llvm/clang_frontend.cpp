#include "toolchain/llvm/clang_frontend.h"

#include <set>
#include <sstream>

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Driver/Compilation.h>
#include <clang/Driver/Driver.h>
#include <clang/Driver/Job.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <fmt/format.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include "toolchain/cpp_jit.h"
#include "toolchain/llvm/host_target.h"

namespace fusescope {

namespace {

// Prints diagnostics as clang does and remembers the main-file lines that have errors.
class RecordingDiagnosticPrinter : public clang::TextDiagnosticPrinter {
public:
    using TextDiagnosticPrinter::TextDiagnosticPrinter;

    void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
        TextDiagnosticPrinter::HandleDiagnostic(level, info);
        if (level < clang::DiagnosticsEngine::Error || !info.hasSourceManager() ||
            info.getLocation().isInvalid())
            return;
        const auto& sources = info.getSourceManager();
        auto location = sources.getExpansionLoc(info.getLocation());
        if (sources.isInMainFile(location)) errorLines.insert(sources.getExpansionLineNumber(location));
    }

    std::set<unsigned> errorLines;
};

// Clang's diagnostics, then each line with an error, numbered.
std::string describeErrors(const std::string& diagnostics, const std::set<unsigned>& errorLines,
                           const std::string& source, const std::string& fileName) {
    std::string message = diagnostics;
    if (errorLines.empty()) return message;
    message += fmt::format("{}, the lines with errors:\n", fileName);
    std::istringstream lines(source);
    std::string line;
    for (unsigned number = 1; std::getline(lines, line); ++number)
        if (errorLines.count(number)) message += fmt::format("{:>6} | {}\n", number, line);
    return message;
}

// The driver turns our flags into cc1 arguments: the resource dir (builtin headers such as
// <stddef.h> and <omp.h>), the target and the -O3 defaults come out right, as for `clang`.
std::shared_ptr<clang::CompilerInvocation> createInvocation(const std::string& fileName,
                                                            clang::DiagnosticsEngine& diags) {
    const HostTarget& host = HostTarget::get();
    clang::driver::Driver driver(FUSESCOPE_CLANG_EXECUTABLE, host.triple, diags);
    driver.setCheckInputsExist(false);  // the source lives in memory
    std::vector<const char*> args = {FUSESCOPE_CLANG_EXECUTABLE};
    for (const auto& flag : clangFlags()) args.push_back(flag.c_str());
    args.push_back(fileName.c_str());
    std::unique_ptr<clang::driver::Compilation> compilation(driver.BuildCompilation(args));
    if (!compilation || diags.hasErrorOccurred()) return nullptr;

    const auto& jobs = compilation->getJobs();
    if (jobs.size() != 1 || !llvm::isa<clang::driver::Command>(*jobs.begin()))
        throw Error("C++ JIT: the clang driver planned " + std::to_string(jobs.size()) +
                    " jobs instead of one compile");
    const auto& cc1Args = llvm::cast<clang::driver::Command>(*jobs.begin()).getArguments();
    auto invocation = std::make_shared<clang::CompilerInvocation>();
    if (!clang::CompilerInvocation::CreateFromArgs(*invocation, cc1Args, diags)) return nullptr;

    // The driver asks for -disable-free (a compiler process exits anyway); we compile many
    // modules per process, so the AST, the IR and the target machine must be freed.
    invocation->getFrontendOpts().DisableFree = false;
    invocation->getCodeGenOpts().DisableFree = false;
    invocation->getCodeGenOpts().DisableLLVMPasses = true;  // optimiseModule() runs -O3
    auto& target = invocation->getTargetOpts();  // -march=native, with exactly the host's features
    target.CPU = host.cpu;
    target.TuneCPU = host.tuneCpu;
    target.FeaturesAsWritten = host.features;
    return invocation;
}

// The -mllvm options of our flags, which `clang` itself hands to LLVM (they are process-wide;
// in-process, only the first compile's take effect, and every compile has the same).
void applyLlvmOptions(const std::vector<std::string>& llvmArgs) {
    static const bool applied = [&llvmArgs] {
        std::vector<const char*> argv = {FUSESCOPE_CLANG_EXECUTABLE};
        for (const std::string& arg : llvmArgs) argv.push_back(arg.c_str());
        return llvm::cl::ParseCommandLineOptions(static_cast<int>(argv.size()), argv.data(), "", &llvm::errs());
    }();
    (void)applied;
}

}  // namespace

const std::vector<std::string>& clangFlags() {
    static const std::vector<std::string> flags = {
        "-c", "-x", "c++", "-std=c++17", "-O3", "-fopenmp", "-fno-math-errno", "-fPIC",
        "-fno-discard-value-names",  // readable IR for display
        // LLVM 14-16's loop vectorizer miscompiles interleaved access groups when an unrolled
        // row loop stores a value and a later statement reloads it: a kernel that normalized a
        // row in its buffer, then reduced over it, read one element from before its division
        // (softmax's backward, attention's gradients, silently wrong). Strided accesses
        // vectorize without interleave groups instead (tests/engine/cpp_codegen_test.cpp).
        "-mllvm", "-enable-interleaved-mem-accesses=false",
    };
    return flags;
}

std::unique_ptr<llvm::Module> compileToModule(const std::string& source, const std::string& fileName,
                                              llvm::LLVMContext& context) {
    std::string diagnostics;
    llvm::raw_string_ostream diagnosticsStream(diagnostics);
    auto diagOptions = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
    RecordingDiagnosticPrinter printer(diagnosticsStream, diagOptions.get());
    clang::DiagnosticsEngine diags(llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(), diagOptions,
                                   &printer, /*ShouldOwnClient=*/false);

    std::unique_ptr<llvm::Module> module;
    if (auto invocation = createInvocation(fileName, diags)) {
        invocation->getPreprocessorOpts().addRemappedFile(  // the preprocessor takes ownership
            fileName, llvm::MemoryBuffer::getMemBufferCopy(source, fileName).release());
        applyLlvmOptions(invocation->getFrontendOpts().LLVMArgs);
        clang::CompilerInstance compiler;
        compiler.setInvocation(std::move(invocation));
        compiler.createDiagnostics(&printer, /*ShouldOwnClient=*/false);
        compiler.setVerboseOutputStream(llvm::nulls());  // no "1 error generated." on stderr
        clang::EmitLLVMOnlyAction action(&context);
        if (compiler.ExecuteAction(action)) module = action.takeModule();
    }
    if (!module) throw CppCompileError(describeErrors(diagnostics, printer.errorLines, source, fileName));
    return module;
}

}  // namespace fusescope
