// Fills the op registry: every family's definitions, then the reasons that whole kinds of
// ops run eagerly, then the check that every op either lowers or says why it runs eagerly.

#include <fmt/format.h>

#include "core/error.h"
#include "opdefs/op_families.h"
#include "ops/op_registration.h"

namespace fusescope {

OpDef& lowerWith(OpDef& op, LoweringRule rule) {
    op.lowering = std::make_shared<OpLowering>(OpLowering{std::move(rule)});
    return op;
}

OpDef& decomposeWith(OpDef& op, std::function<std::optional<Argument>(Rewrite&)> rewrite, bool inAot) {
    op.decomposition = std::make_shared<OpDecomposition>(OpDecomposition{std::move(rewrite), inAot});
    return op;
}

OpDef& runEagerly(OpDef& op, std::string reason) {
    op.runsEagerlyBecause = std::move(reason);
    return op;
}

OpDef& gradFnNamed(OpDef& op, std::string gradFn) {
    op.gradFn = [gradFn = std::move(gradFn)](const BoundArgs&) { return gradFn; };
    return op;
}

OpDef& gradFnNamedBy(OpDef& op, std::function<std::string(const BoundArgs&)> gradFn) {
    op.gradFn = std::move(gradFn);
    return op;
}

OpDef& differentiateWith(OpDef& op, std::function<ArgumentGradients(const DerivativeArgs&)> derivative, Saved saved) {
    op.derivative = std::move(derivative);
    op.derivativeReadsValues = saved == Saved::Values;
    return op;
}

namespace {

// In-place ops, and composites where their decomposition does not apply (a dynamic count,
// say), run eagerly for the same reason each.
void markEagerKinds(OpRegistry& r) {
    for (const std::string& name : r.allNames()) {
        OpDef& op = r.definition(name);
        if (op.lowering || !op.runsEagerlyBecause.empty()) continue;
        if (name.back() == '_') runEagerly(op, "in-place: the lowering has no mutation");
        else if (op.decomposition) runEagerly(op, "lowered through its decomposition, which did not apply here");
    }
}

}  // namespace

void registerAllOps(OpRegistry& r) {
    registerArithmeticOps(r);
    registerUnaryMathOps(r);
    registerReductionOps(r);
    registerViewOps(r);
    registerCreationOps(r);
    registerNnLinalgOps(r);
    registerMiscOps(r);
    registerActivationOps(r);
    registerIndexingOps(r);
    registerConvolutionOps(r);
    registerSelectionOps(r);
    registerAttentionOps(r);
    registerComplexOps(r);
    registerSymbolicIntOps(r);
    markEagerKinds(r);
    std::vector<std::string> incomplete = r.incompleteDefinitions();
    if (!incomplete.empty())
        throw Error(fmt::format("internal error: incomplete op definitions:\n{}", fmt::join(incomplete, "\n")));
}

}  // namespace fusescope
