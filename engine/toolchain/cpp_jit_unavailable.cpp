// CppJit in a build without LLVM (FUSESCOPE_HAVE_LLVM off): it exists so callers need no
// #ifdefs, says why it is unavailable, and compiles nothing.

#include "toolchain/cpp_jit.h"

namespace fusescope {

struct CppJit::Impl {};

CppJit::CppJit() = default;

bool CppJit::available() { return false; }

std::string CppJit::unavailableReason() {
    return "C++ JIT unavailable: Fusescope was built without LLVM 16 "
           "(FUSESCOPE_WITH_LLVM=OFF or LLVM 16 not found)";
}

CppJit& CppJit::instance() {
    static CppJit* jit = new CppJit();
    return *jit;
}

void CppJit::defineSymbol(const std::string&, void*) {}

std::shared_ptr<CompiledModule> CppJit::compile(const std::string&, const std::string&) {
    throw Error(unavailableReason());
}

}  // namespace fusescope
