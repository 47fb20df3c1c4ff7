#include "toolchain/llvm/host_target.h"

#include <algorithm>

#include <llvm/ADT/StringMap.h>
#include <llvm/ADT/Triple.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/TargetSelect.h>

#include "core/error.h"

namespace fusescope {

namespace {

HostTarget detectHost() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();

    HostTarget host;
    host.triple = llvm::sys::getProcessTriple();
    host.cpu = host.tuneCpu = llvm::sys::getHostCPUName().str();
    // A CPU newer than LLVM 16 is "generic", which clang rejects for x86; like clang
    // -march=native, take the baseline model plus the features the CPU reports.
    if (host.cpu == "generic" && llvm::Triple(host.triple).isX86()) host.cpu = "x86-64";
    llvm::StringMap<bool> features;
    if (llvm::sys::getHostCPUFeatures(features))
        for (const auto& feature : features)
            host.features.push_back((feature.second ? "+" : "-") + feature.first().str());
    std::sort(host.features.begin(), host.features.end());  // StringMap order is arbitrary
    return host;
}

}  // namespace

const HostTarget& HostTarget::get() {
    static const HostTarget host = detectHost();
    return host;
}

bool HostTarget::has(const std::string& feature) const {
    return std::binary_search(features.begin(), features.end(), "+" + feature);
}

std::string HostTarget::featureString() const {
    std::string joined;
    for (const auto& feature : features) joined += (joined.empty() ? "" : ",") + feature;
    return joined;
}

std::unique_ptr<llvm::TargetMachine> HostTarget::createTargetMachine() const {
    std::string error;
    const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, error);
    if (!target) throw Error("C++ JIT: no LLVM target for " + triple + ": " + error);
    llvm::TargetOptions options;
    options.MCOptions.AsmVerbose = true;  // loop and block comments in the displayed assembly
    std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
        triple, cpu, featureString(), options, llvm::Reloc::PIC_, llvm::CodeModel::Small,
        llvm::CodeGenOpt::Aggressive));
    if (!machine) throw Error("C++ JIT: cannot create a target machine for " + cpu);
    return machine;
}

}  // namespace fusescope
