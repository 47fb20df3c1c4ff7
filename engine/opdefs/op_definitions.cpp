// Fills the op registry: every family's definitions, then the compile stages of families
// whose lowering and decomposition still live in lower/ and decompose/ tables, attached by
// name (a name that is not an op fails registration), then the check that every op either
// lowers or says why it runs eagerly.

#include <fmt/format.h>

#include "core/error.h"
#include "decompose/op_decomposition.h"
#include "lower/op_lowering.h"
#include "opdefs/op_families.h"
#include "ops/op_registration.h"

namespace fusescope {

namespace {

void attachLowerings(OpRegistry& r) {
    for (const auto* table : {&pointwiseRules(), &viewRules(), &reductionRules(), &concatRules(), &externRules()})
        for (const auto& [name, rule] : *table) r.definition(name).lowering = std::make_shared<OpLowering>(OpLowering{rule});
}

void attachDecompositions(OpRegistry& r) {
    for (const auto& [name, decomposition] : decompositionTable())
        r.definition(name).decomposition = std::make_shared<OpDecomposition>(decomposition);
}

// Where PyTorch's backward node is not the op's own name.
void attachGradFnNames(OpRegistry& r) {
    for (auto [name, gradFn] : {std::pair{"reshape", "ViewBackward0"}, {"matmul", "MmBackward0"}, {"linear", "AddmmBackward0"},
                                {"square", "PowBackward0"}, {"layer_norm", "NativeLayerNormBackward0"},
                                {"to.dtype", "ToCopyBackward0"}, {"to.device", "ToCopyBackward0"},
                                {"to.other", "ToCopyBackward0"}, {"contiguous", "CloneBackward0"},
                                {"max.other", "MaximumBackward0"}, {"min.other", "MinimumBackward0"}})
        r.definition(name).gradFn = gradFn;
}

}  // namespace

void registerAllOps(OpRegistry& r) {
    registerPointwiseOps(r);
    registerReductionOps(r);
    registerViewOps(r);
    registerCreationOps(r);
    registerNnLinalgOps(r);
    registerMiscOps(r);
    registerActivationOps(r);
    attachLowerings(r);
    attachDecompositions(r);
    attachGradFnNames(r);
    markEagerOnlyOps(r);
    std::vector<std::string> incomplete = r.incompleteDefinitions();
    if (!incomplete.empty())
        throw Error(fmt::format("internal error: incomplete op definitions:\n{}", fmt::join(incomplete, "\n")));
}

}  // namespace fusescope
