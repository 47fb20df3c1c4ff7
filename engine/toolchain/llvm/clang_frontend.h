#pragma once
// Clang as a library: C++ source in memory to an LLVM module, not yet optimised.

#include <memory>
#include <string>
#include <vector>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

namespace fusescope {

// The clang command-line flags every module is compiled with (part of the cache key).
const std::vector<std::string>& clangFlags();

// Compiles `source` as the file `fileName` for the host CPU. The module carries -O3's
// function attributes but no LLVM pass has run on it: optimiseModule() does that.
// Throws CppCompileError with Clang's diagnostics when the source does not compile.
std::unique_ptr<llvm::Module> compileToModule(const std::string& source, const std::string& fileName,
                                              llvm::LLVMContext& context);

}  // namespace fusescope
