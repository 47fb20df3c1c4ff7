#include "toolchain/llvm/llvm_backend.h"

#include <exception>
#include <set>
#include <thread>

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>

#include "core/error.h"
#include "toolchain/llvm/host_target.h"

namespace fusescope {

namespace {

struct VectorFunction {
    std::string scalar;  // a float or double libm function, or an LLVM math intrinsic
    std::string vector;  // its libmvec variant
    unsigned lanes;
};

// glibc 2.36's libmvec (x86-64), named by the vector function ABI:
// _ZGV<isa>N<lanes><args>_<name> with isa b = SSE (xmm), d = AVX2 (ymm), e = AVX-512 (zmm).
// Only the ISAs the host has are offered, so the vectoriser never picks a variant the CPU
// cannot run. The AVX-512 variants take and return zmm registers: see preferZmmVectors.
std::vector<VectorFunction> libmvecFunctions() {
    static const char* const unary[] = {"acos", "acosh", "asin",  "asinh", "atan",  "atanh",
                                        "cbrt", "cos",   "cosh",  "erf",   "erfc",  "exp",
                                        "exp10", "exp2", "expm1", "log",   "log10", "log1p",
                                        "log2", "sin",   "sinh",  "tan",   "tanh"};
    static const char* const binary[] = {"atan2", "hypot", "pow"};
    // the libm calls Clang emits as intrinsics under -fno-math-errno
    static const std::set<std::string> intrinsics = {"cos", "exp", "exp2", "log",
                                                     "log10", "log2", "pow", "sin"};

    struct Isa {
        char letter;
        unsigned floatLanes;
    };
    std::vector<Isa> isas = {{'b', 4}};
    const HostTarget& host = HostTarget::get();
    if (host.has("avx2")) isas.push_back({'d', 8});
    if (host.has("avx512f")) isas.push_back({'e', 16});

    std::vector<VectorFunction> table;
    auto add = [&](const std::string& name, const std::string& args) {
        for (const Isa& isa : isas) {
            std::string prefix = std::string("_ZGV") + isa.letter + "N";
            std::string floatVersion = prefix + std::to_string(isa.floatLanes) + args + "_" + name + "f";
            std::string doubleVersion = prefix + std::to_string(isa.floatLanes / 2) + args + "_" + name;
            table.push_back({name + "f", floatVersion, isa.floatLanes});
            table.push_back({name, doubleVersion, isa.floatLanes / 2});
            if (!intrinsics.count(name)) continue;
            table.push_back({"llvm." + name + ".f32", floatVersion, isa.floatLanes});
            table.push_back({"llvm." + name + ".f64", doubleVersion, isa.floatLanes / 2});
        }
    };
    for (const char* name : unary) add(name, "v");
    for (const char* name : binary) add(name, "vv");
    return table;
}

std::string emit(llvm::Module& module, llvm::CodeGenFileType type) {
    auto machine = HostTarget::get().createTargetMachine();
    llvm::SmallString<0> output;
    llvm::raw_svector_ostream stream(output);
    llvm::legacy::PassManager passes;
    if (machine->addPassesToEmitFile(passes, stream, nullptr, type))
        throw Error("C++ JIT: LLVM cannot emit this kind of file for " + machine->getTargetTriple().str());
    passes.run(module);
    return output.str().str();
}

// LLVM tunes the AVX-512 CPUs it knows (Ice Lake to Sapphire Rapids) to prefer 256-bit
// vectors, where clock slowdowns made 512-bit code lose on wide Skylake servers. Our kernels
// are loops of vector arithmetic, and they gain from 512 bits as PyTorch's do (its CPU
// kernels take 512-bit vectors on AVX-512 machines): on a 2-core Sapphire Rapids,
// bench_inductor's exp/sin/tanh chain took 15-23 ms instead of 38-41, softmax 11-12 ms
// instead of 15, argmax 3.3-3.6 instead of 4.7-6.1 (bench/README.md), for C++ compiles up
// to a third longer (a 5000-op pointwise graph 1.9-2.3 s instead of 1.4-1.7). Without the
// preference a 512-bit type is also illegal unless a function asks for it, and a 16-float
// argument then goes as two ymm halves: an AVX-512 libmvec call would read garbage from
// zmm0. Both attributes together make every function 512 bits wide.
void preferZmmVectors(llvm::Module& module) {
    constexpr unsigned kZmmBits = 512;
    for (llvm::Function& f : module) {
        if (f.isDeclaration()) continue;
        unsigned width = 0;
        if (f.hasFnAttribute("min-legal-vector-width"))
            f.getFnAttribute("min-legal-vector-width").getValueAsString().getAsInteger(10, width);
        if (width < kZmmBits) f.addFnAttr("min-legal-vector-width", std::to_string(kZmmBits));
        f.addFnAttr("prefer-vector-width", std::to_string(kZmmBits));
    }
}

}  // namespace

void optimiseModule(llvm::Module& module, llvm::TargetMachine& machine) {
    static const std::vector<VectorFunction> vectorFunctions = libmvecFunctions();
    static const std::vector<llvm::VecDesc> vectorizable = [] {
        std::vector<llvm::VecDesc> descriptions;
        for (const auto& f : vectorFunctions)
            descriptions.push_back({f.scalar, f.vector, llvm::ElementCount::getFixed(f.lanes)});
        return descriptions;
    }();
    llvm::TargetLibraryInfoImpl libraryInfo(llvm::Triple(module.getTargetTriple()));
    libraryInfo.addVectorizableFunctions(vectorizable);
    if (HostTarget::get().has("avx512f")) preferZmmVectors(module);

    llvm::PipelineTuningOptions tuning;  // what clang sets at -O3
    tuning.LoopUnrolling = true;
    tuning.LoopInterleaving = true;
    tuning.LoopVectorization = true;
    tuning.SLPVectorization = true;

    llvm::LoopAnalysisManager loops;
    llvm::FunctionAnalysisManager functions;
    llvm::CGSCCAnalysisManager callGraph;
    llvm::ModuleAnalysisManager modules;
    llvm::PassBuilder builder(&machine, tuning);
    // registered first, so the default TargetLibraryAnalysis registered next is ignored
    functions.registerPass([&] { return llvm::TargetLibraryAnalysis(libraryInfo); });
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(callGraph);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, callGraph, modules);
    builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(module, modules);
}

MachineCode emitMachineCode(llvm::Module& module) {
    // The assembly (for display) and the object are two code generation runs over the same
    // IR, as long as each other: they run side by side, the assembly's on a copy of the module
    // read into a context of its own (an LLVM context belongs to one thread; code generation
    // rewrites the IR it runs on).
    llvm::SmallVector<char, 0> bitcode;
    {
        llvm::raw_svector_ostream stream(bitcode);
        llvm::WriteBitcodeToFile(module, stream);
    }
    MachineCode code;
    std::exception_ptr assemblyFailed;
    std::thread assembly([&] {
        try {
            llvm::LLVMContext context;
            auto copy = llvm::parseBitcodeFile(llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()), "module"), context);
            if (!copy) throw Error("C++ JIT: cannot copy the module for its assembly: " + llvm::toString(copy.takeError()));
            code.assembly = emit(**copy, llvm::CGFT_AssemblyFile);
        } catch (...) {
            assemblyFailed = std::current_exception();
        }
    });
    try {
        code.object = emit(module, llvm::CGFT_ObjectFile);
    } catch (...) {
        assembly.join();
        throw;
    }
    assembly.join();
    if (assemblyFailed) std::rethrow_exception(assemblyFailed);
    return code;
}

}  // namespace fusescope
