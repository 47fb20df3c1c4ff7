#pragma once
// From Clang's LLVM module to host machine code: the -O3 pipeline (vectorising math calls
// through glibc's libmvec) and code generation.

#include <string>

#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

namespace fusescope {

// Runs LLVM's -O3 pipeline for `machine`, as clang -O3 -fveclib=libmvec would, but with
// every vector function of glibc 2.36's libmvec (LLVM 16's own list knows only exp, log,
// sin, cos and pow), so tanhf, erff, log1pf, ... vectorise too.
void optimiseModule(llvm::Module& module, llvm::TargetMachine& machine);

struct MachineCode {
    std::string object;    // ELF relocatable object
    std::string assembly;  // the same code as AT&T assembly, for display
};

// Generates the object and the assembly of an optimised module for the host CPU. The
// module itself is left as code generation leaves it (changed), so print it first.
MachineCode emitMachineCode(llvm::Module& module);

}  // namespace fusescope
