// The ops with no lowering, each with the reason a graph holding it runs eagerly (the
// inductor backend logs it). Every op must lower or have a reason: registration checks.

#include <utility>

#include "decompose/op_decomposition.h"
#include "opdefs/op_families.h"
#include "ops/op_registry.h"

namespace fusescope {

void markEagerOnlyOps(OpRegistry& r) {
    const char* random = "random numbers come from the eager generator, so compiled and eager runs draw the same values";
    for (auto [name, reason] : {
             std::pair{"allclose", "returns a Python bool, not a tensor"},
             {"equal", "returns a Python bool, not a tensor"},
             {"numel", "returns a Python int, not a tensor"},
             {"tensor", "makes a tensor from Python data"},
             {"empty", "uninitialised memory has no value to compute"},
             {"empty_like", "uninitialised memory has no value to compute"},
             {"as_strided", "an arbitrary view of storage, which loop-IR indexing does not express"},
             {"cpu", "moves a tensor between devices; a compiled graph runs on one device"},
             {"cuda", "moves a tensor between devices; a compiled graph runs on one device"},
             {"half", "generated code stores float32, float64, integers and bools only"},
             {"bfloat16", "generated code stores float32, float64, integers and bools only"},
             {"cumsum", "a scan, which the loop IR has no form for yet"},
             {"eye", "not lowered yet"},
             {"linspace", "not lowered yet"},
             {"rand", random},
             {"rand_like", random},
             {"randn", random},
             {"randn_like", random},
             {"randint", random},
             {"randint.low", random},
         })
        r.definition(name).runsEagerlyBecause = reason;

    // Whole families: in-place ops, and composites left whole by their decomposition.
    for (const std::string& name : r.allNames()) {
        OpDef& op = r.definition(name);
        if (op.lowering || !op.runsEagerlyBecause.empty()) continue;
        if (name.back() == '_') op.runsEagerlyBecause = "in-place: the lowering has no mutation";
        else if (op.decomposition) op.runsEagerlyBecause = "lowered through its decomposition, which did not apply here";
    }
}

}  // namespace fusescope
