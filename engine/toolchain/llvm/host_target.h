#pragma once
// The CPU generated code is compiled for: the host's, as -march=native would pick it.
// Clang, the optimiser, the code generator and the cache key all take it from here.

#include <memory>
#include <string>
#include <vector>

#include <llvm/Target/TargetMachine.h>

namespace fusescope {

struct HostTarget {
    std::string triple;
    std::string cpu;                    // llvm::sys::getHostCPUName(), e.g. "znver4"; "x86-64" if unknown
    std::string tuneCpu;                // cpu, or "generic" if unknown
    std::vector<std::string> features;  // "+avx2", "-avx512fp16", ... sorted

    static const HostTarget& get();

    bool has(const std::string& feature) const;  // e.g. has("avx512f")
    std::string featureString() const;           // comma-separated, as LLVM takes it
    // A target machine optimising at -O3 (CodeGenOpt::Aggressive), position-independent.
    std::unique_ptr<llvm::TargetMachine> createTargetMachine() const;
};

}  // namespace fusescope
