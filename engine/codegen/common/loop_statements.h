#pragma once
// A loop body's ops as C statements, and the pieces of a kernel around them, shared by the
// C++ and the CUDA kernels: both preludes define the same fs_* helpers (math with PyTorch's
// NaN rules, Python's floor division and modulo), so the statements read the same in both.

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "codegen/common/kernel_code.h"
#include "lower/ir.h"
#include "lower/loop_body.h"

namespace fusescope {

std::string cLiteral(double v, DType t);
// A reduction's starting value (argmax/argmin: of the best value) and one step of it (sum,
// prod, max, min, any, all).
std::string reductionInit(ReductionKind type, DType t);
std::string reductionCombine(ReductionKind type, const std::string& acc, const std::string& v);

// Each member's variables carry its own prefix (m0_, m1_, ...) so fused members never clash.
std::string memberPrefix(int member);

// The body's ops as statements, each line starting with `pad`. A reduction op's value is
// handed back through `reduced` (its variable) for the caller's loop to accumulate; without
// `reduced` a reduction is over one element and its store is written here. `spellLoad`, when
// given, spells each plain load from its buffer, index expression and the usual spelling
// (a kernel that keeps loaded values in registers hands back the register); `spellStore`
// likewise spells where each plain store writes.
// `hoist`, when given, takes floating-point math that reads nothing the loops change but a
// load (at an index free of the body's loop variables, from a buffer the kernel does not
// write) and constants: loop-invariant code motion. It is written once, before the loops,
// with what it reads, instead of per element (AdamW's bias corrections, `beta ** step`, were
// three pow calls per element of every parameter). Constants and math over constants alone
// stay in the loop, where the compiler folds them. Integer math stays: it is cheap, and some
// of it raises (division by zero), which an empty loop must not.
struct Hoisting {
    std::set<std::string> written;  // the kernel's stored buffers: their loads stay in the loop
    std::string pad;                // the hoisted statements' indentation
    std::string statements;         // filled
    // The variables of the loops the statements are hoisted out of; empty: all the body's.
    // (A member over a reduction group's every dim hoists what depends on its row alone,
    // log_softmax's log of the row's sum, to before its inner loops.)
    std::vector<std::string> varying = {};
};
using LoadSpelling = std::function<std::string(const std::string& buffer, const IndexExpr& index, const std::string& plain)>;
using StoreSpelling = LoadSpelling;
std::string loopStatements(const LoopBody& body, const std::string& prefix, const std::string& pad, std::string* reduced,
                           const LoadSpelling* spellLoad = nullptr, const StoreSpelling* spellStore = nullptr,
                           Hoisting* hoist = nullptr);

const LoopOp& storeOpOf(const LoopBody& body);
const LoopOp& reductionOpOf(const LoopBody& body);  // the body must have one

// The buffers a kernel reads or writes, in first-use order (its parameters).
struct KernelBuffers {
    std::vector<std::string> names;
    std::set<std::string> written;
};
KernelBuffers kernelBuffers(const KernelGroup& kernel);

// A kernel's start: its provenance comments, then `<declaration> <name>(<parameters>) {`
// with a pointer per buffer (const unless written, with the language's `restrict`
// spelling, except for the buffers in `mayAlias`: an output stored into its input's memory
// and that input) and then the size symbols. Its buffers are set.
KernelCode startKernel(const KernelGroup& kernel, const LoweredGraph& graph, const std::string& declaration,
                       const std::string& name, const char* restrictQualifier,
                       const std::set<std::string>& mayAlias = {});


}  // namespace fusescope
