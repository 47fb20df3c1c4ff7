#pragma once
// The in-process C++ toolchain: generated C++ is compiled by Clang (as a library), optimised
// at -O3 for the host CPU and loaded into one process-wide ORC JIT. Built without LLVM,
// available() is false and compile() throws.
//
// Each module gets its own JITDylib, so modules may define the same symbol names (kernel
// names repeat across modules); a module sees its own symbols, then the defineSymbol()
// ones, then the process's (libc, libm, libmvec, libomp). Generated code must not need
// static initialisers: they are not run.

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/error.h"

namespace fusescope {

// One generated C++ module loaded in the JIT. Destroying it removes its code from the JIT
// (through its own ResourceTracker), so no function of it may run any more.
struct CompiledModule {
    // Address of a function or variable the module defines (an extern "C" name as written);
    // throws Error if the module defines no such symbol.
    void* symbol(const std::string& name) const;

    std::string llvmIr;        // the optimised LLVM IR as text (what -O3 produced, before codegen)
    std::string assembly;      // host assembly (AT&T syntax) of the module
    bool fromCache = false;    // the object came from the on-disk cache
    double compileSeconds = 0; // wall time spent in this compile() call
    std::vector<std::string> remarks;  // the optimiser's warnings (e.g. a loop not vectorised); none from the cache
    std::string sourcePath;    // the source as kept in the cache folder (<key>.cpp); "" if it could not be written

private:
    friend class CppJit;
    std::string name_;
    std::unordered_map<std::string, void*> symbols_;
    std::shared_ptr<void> loaded_;  // releasing it removes the module from the JIT
};

// A compile error in generated C++. The message is Clang's diagnostics (file:line:col:
// error: ..., with the source snippet and caret), followed by the offending source lines,
// numbered.
class CppCompileError : public Error {
public:
    using Error::Error;
};

class CppJit {
public:
    static bool available();                 // false when built without LLVM
    static std::string unavailableReason();  // why not; "" when available
    static CppJit& instance();               // the process-wide JIT; safe to use from any thread

    // Makes a function (or variable) of this binary callable from generated code under
    // `name`, e.g. runtime helpers and extern kernels. Call before compiling code that uses
    // it. Defining a name again with the same address is allowed; another address throws.
    void defineSymbol(const std::string& name, void* address);

    // Compiles C++17 source (freestanding: no headers needed; Clang builtins such as
    // __builtin_expf, __restrict and `#pragma omp parallel for` work), optimises it at -O3
    // for the host CPU, vectorising math calls through glibc's libmvec, and loads it.
    // moduleName names the file in diagnostics. Throws CppCompileError on a compile error,
    // Error when loading fails (e.g. a call to an undefined function).
    std::shared_ptr<CompiledModule> compile(const std::string& source, const std::string& moduleName);

    // The on-disk cache of compiled objects: the folder set by setCacheDir(), else
    // $FUSESCOPE_CACHE_DIR, else $XDG_CACHE_HOME/fusescope, else ~/.cache/fusescope.
    // Created when first written to.
    std::string cacheDir() const;
    void setCacheDir(std::string dir);

    CppJit(const CppJit&) = delete;
    CppJit& operator=(const CppJit&) = delete;

private:
    CppJit();
    ~CppJit() = delete;  // never destroyed: modules and JIT'd code may outlive any owner

    struct Impl;
    std::unique_ptr<Impl> impl_;
    mutable std::mutex cacheDirMutex_;
    std::string cacheDir_;  // "" = the default from the environment
};

}  // namespace fusescope
