// CppJit with LLVM: compile (or take from the cache), then load into the process-wide LLJIT.

#include "toolchain/cpp_jit.h"

#include <atomic>
#include <chrono>

#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/JITLink/EHFrameSupport.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ObjectFileInterface.h>
#include <llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h>
#include <llvm/IR/DiagnosticHandler.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/Support/raw_ostream.h>

#include "toolchain/llvm/clang_frontend.h"
#include "toolchain/llvm/host_target.h"
#include "toolchain/llvm/llvm_backend.h"
#include "toolchain/llvm/object_cache.h"

// Generated code calls libomp (__kmpc_*) and glibc's libmvec (_ZGV*), which the JIT finds
// among the process's symbols. Referencing one symbol of each keeps both libraries loaded
// even where the linker drops libraries nothing references (--as-needed).
extern "C" int omp_get_max_threads();
extern "C" void _ZGVdN8v_expf();  // declared loosely: only its address is taken

namespace fusescope {

namespace {

// The optimiser's warnings ("loop not vectorized") are kept with the module
// for the caller to report, instead of LLVM printing them to stderr.
class RemarkCollector : public llvm::DiagnosticHandler {
public:
    explicit RemarkCollector(std::vector<std::string>& out) : out_(out) {}
    bool handleDiagnostics(const llvm::DiagnosticInfo& info) override {
        if (info.getSeverity() == llvm::DS_Error) return false;
        if (info.getSeverity() != llvm::DS_Warning) return true;  // remarks: dropped
        std::string text;
        llvm::raw_string_ostream os(text);
        llvm::DiagnosticPrinterRawOStream printer(os);
        info.print(printer);
        out_.push_back(os.str());
        return true;
    }

private:
    std::vector<std::string>& out_;
};

[[gnu::used]] void* const runtimeAnchors[] = {reinterpret_cast<void*>(&omp_get_max_threads),
                                              reinterpret_cast<void*>(&_ZGVdN8v_expf)};

std::string describe(llvm::Error error) { return llvm::toString(std::move(error)); }

// ORC reports the cause of a failed link (e.g. "Symbols not found: [ f ]") to the session's
// error reporter, on the thread that links, and returns only "Failed to materialize
// symbols". While a thread loads a module, the cause is collected here.
thread_local std::string* linkErrors = nullptr;

void reportSessionError(llvm::Error error) {
    if (linkErrors)
        *linkErrors += (linkErrors->empty() ? "" : "; ") + describe(std::move(error));
    else
        llvm::logAllUnhandledErrors(std::move(error), llvm::errs(), "fusescope: C++ JIT: ");
}

// One module's place in the JIT. Destroying it unloads the module: its ResourceTracker
// frees the code, then the emptied JITDylib goes too.
struct LoadedModule {
    LoadedModule(llvm::orc::ExecutionSession& session, llvm::orc::JITDylib& dylib)
        : session(session), dylib(dylib), tracker(dylib.createResourceTracker()) {}
    LoadedModule(const LoadedModule&) = delete;
    LoadedModule& operator=(const LoadedModule&) = delete;

    ~LoadedModule() {
        if (auto error = tracker->remove())
            llvm::logAllUnhandledErrors(std::move(error), llvm::errs(), "fusescope: unloading a C++ module: ");
        if (auto error = session.removeJITDylib(dylib))
            llvm::logAllUnhandledErrors(std::move(error), llvm::errs(), "fusescope: unloading a C++ module: ");
    }

    llvm::orc::ExecutionSession& session;
    llvm::orc::JITDylib& dylib;
    llvm::orc::ResourceTrackerSP tracker;
};

std::unique_ptr<llvm::orc::LLJIT> createJit() {
    const HostTarget& host = HostTarget::get();
    llvm::orc::JITTargetMachineBuilder machine{llvm::Triple(host.triple)};
    machine.setCPU(host.cpu).addFeatures(host.features).setCodeGenOptLevel(llvm::CodeGenOpt::Aggressive);
    using IRCompiler = llvm::orc::IRCompileLayer::IRCompiler;
    auto jit = llvm::orc::LLJITBuilder()
                   .setJITTargetMachineBuilder(machine)
                   // IR added to the JIT directly compiles safely from any thread
                   // JITLink, not RuntimeDyld (LLVM 16's default on x86-64 Linux): RuntimeDyld's
                   // memory manager maps a module's code and its constants separately, and once
                   // they land more than 2 GB apart the code's 32-bit PC-relative loads of its
                   // constants wrap (a long run's kernels faulted so). JITLink allocates each
                   // module in one slab.
                   .setObjectLinkingLayerCreator([](llvm::orc::ExecutionSession& session, const llvm::Triple&)
                                                     -> llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> {
                       auto layer = std::make_unique<llvm::orc::ObjectLinkingLayer>(session);
                       layer->addPlugin(std::make_unique<llvm::orc::EHFrameRegistrationPlugin>(
                           session, std::make_unique<llvm::jitlink::InProcessEHFrameRegistrar>()));
                       return layer;
                   })
                   .setCompileFunctionCreator(
                       [](llvm::orc::JITTargetMachineBuilder builder) -> llvm::Expected<std::unique_ptr<IRCompiler>> {
                           return std::make_unique<llvm::orc::ConcurrentIRCompiler>(std::move(builder));
                       })
                   .create();
    if (!jit) throw Error("C++ JIT: cannot create the LLVM JIT: " + describe(jit.takeError()));
    auto processSymbols = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
        (*jit)->getDataLayout().getGlobalPrefix());
    if (!processSymbols)
        throw Error("C++ JIT: cannot search the process's symbols: " + describe(processSymbols.takeError()));
    (*jit)->getMainJITDylib().addGenerator(std::move(*processSymbols));
    (*jit)->getExecutionSession().setErrorReporter(reportSessionError);
    return std::move(*jit);
}

}  // namespace

struct CppJit::Impl {
    std::unique_ptr<llvm::orc::LLJIT> jit = createJit();
    std::mutex definedMutex;
    std::unordered_map<std::string, void*> defined;  // by defineSymbol()
    std::atomic<unsigned> loads{0};

    // Adds the object in a JITDylib of its own (whose link order continues with the main
    // one: defineSymbol()'s symbols, then the process's) and links it at once, so a missing
    // symbol is reported here rather than at the first call.
    void load(CompiledModule& module, const std::string& object) {
        auto& session = jit->getExecutionSession();
        // JITDylib names must be unique; module names need not be
        auto dylib = jit->createJITDylib(module.name_ + "#" + std::to_string(++loads));
        if (!dylib) throw Error("C++ JIT: " + describe(dylib.takeError()));
        dylib->addToLinkOrder(jit->getMainJITDylib());
        auto loaded = std::make_shared<LoadedModule>(session, *dylib);

        auto buffer = llvm::MemoryBuffer::getMemBufferCopy(object, module.name_);
        auto interface = llvm::orc::getObjectFileInterface(session, buffer->getMemBufferRef());
        if (!interface)
            throw Error("C++ JIT: module '" + module.name_ + "': " + describe(interface.takeError()));
        if (interface->InitSymbol)
            throw Error("C++ JIT: module '" + module.name_ +
                        "' has static initialisers, which the JIT does not run");
        llvm::orc::SymbolLookupSet names;
        for (const auto& [name, flags] : interface->SymbolFlags)
            if (flags.isExported()) names.add(name);

        if (auto error = jit->addObjectFile(loaded->tracker, std::move(buffer)))
            throw Error("C++ JIT: module '" + module.name_ + "': " + describe(std::move(error)));
        std::string errors;
        linkErrors = &errors;
        auto addresses = session.lookup(llvm::orc::makeJITDylibSearchOrder(&*dylib), std::move(names));
        linkErrors = nullptr;
        if (!addresses) {
            std::string failure = describe(addresses.takeError());
            throw Error("C++ JIT: linking module '" + module.name_ + "': " +
                        (errors.empty() ? failure : errors));
        }
        for (const auto& [name, symbol] : *addresses)
            module.symbols_[(*name).str()] = llvm::jitTargetAddressToPointer<void*>(symbol.getAddress());
        module.loaded_ = std::move(loaded);
    }
};

CppJit::CppJit() : impl_(std::make_unique<Impl>()) {}

bool CppJit::available() { return true; }

std::string CppJit::unavailableReason() { return ""; }

CppJit& CppJit::instance() {
    static CppJit* jit = new CppJit();
    return *jit;
}

void CppJit::defineSymbol(const std::string& name, void* address) {
    std::lock_guard lock(impl_->definedMutex);
    auto [known, added] = impl_->defined.emplace(name, address);
    if (!added) {
        if (known->second == address) return;
        throw Error("C++ JIT: symbol '" + name + "' is already defined at another address");
    }
    auto& session = impl_->jit->getExecutionSession();
    llvm::orc::SymbolMap symbols;
    symbols[session.intern(name)] =
        llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(address), llvm::JITSymbolFlags::Exported);
    if (auto error = impl_->jit->getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(symbols)))) {
        impl_->defined.erase(name);
        throw Error("C++ JIT: cannot define symbol '" + name + "': " + describe(std::move(error)));
    }
}

std::shared_ptr<CompiledModule> CppJit::compile(const std::string& source, const std::string& moduleName) {
    auto start = std::chrono::steady_clock::now();
    auto module = std::make_shared<CompiledModule>();
    module->name_ = moduleName;

    std::string key = cacheKey(source);
    std::string dir = cacheDir();
    CompiledObjectEntry entry;
    if (auto cached = loadCacheEntry(dir, key)) {
        entry = std::move(*cached);
        module->fromCache = true;
    } else {
        llvm::LLVMContext context;
        context.setDiagnosticHandler(std::make_unique<RemarkCollector>(module->remarks));
        auto ir = compileToModule(source, moduleName + ".cpp", context);
        optimiseModule(*ir, *HostTarget::get().createTargetMachine());
        llvm::raw_string_ostream irText(entry.llvmIr);
        ir->print(irText, nullptr);
        MachineCode code = emitMachineCode(*ir);
        entry.object = std::move(code.object);
        entry.assembly = std::move(code.assembly);
        storeCacheEntry(dir, key, entry);
    }
    impl_->load(*module, entry.object);
    module->sourcePath = storeCacheSource(dir, source);
    module->llvmIr = std::move(entry.llvmIr);
    module->assembly = std::move(entry.assembly);
    module->compileSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return module;
}

}  // namespace fusescope
