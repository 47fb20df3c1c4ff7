// The ops of PyTorch's SymInts: a size of a graph value read into a Python int
// (aten.sym_size.int) and the int arithmetic the traced code does with it. Only the tracer
// makes them (capture/traced_sizes.cpp): a graph holding them runs its ops eagerly, each
// computing its size on every call.

#include "core/error.h"
#include "opdefs/op_families.h"

namespace fusescope {

namespace {

constexpr const char* kComputesSizes = "computes a size as a Python int (a SymInt): Fusescope's compiled kernels take sizes "
                                       "only as their tensors' symbols";

// `apply` writes a OP b and says whether it overflowed: an error, not a wrapped size
// (symbolic_sizes.h's shifted sizes are large).
void addIntOp(OpRegistry& r, const std::string& name, bool (*apply)(int64_t, int64_t, int64_t*)) {
    OpDef d;
    d.name = name;
    d.schema = name + "(int self, int other) -> int";
    d.isFunction = false;
    d.isMethod = false;
    auto f = [apply](const BoundArgs& a) {
        int64_t result = 0;
        if (apply(a.integer("self"), a.integer("other"), &result))
            throw ScriptError("OverflowError", "integer overflow (script ints are 64-bit)");
        return IValue(result);
    };
    d.infer = f;
    d.kernel = f;
    runEagerly(r.add(std::move(d)), kComputesSizes);
}

}  // namespace

void registerSymbolicIntOps(OpRegistry& r) {
    {
        OpDef d;
        d.name = "sym_size";
        d.schema = "sym_size(Tensor self, int dim) -> int";
        d.isFunction = false;
        d.isMethod = false;
        auto f = [](const BoundArgs& a) { return IValue(a.tensor("self").size(a.integer("dim"))); };
        d.infer = f;
        d.kernel = f;
        runEagerly(r.add(std::move(d)), kComputesSizes);
    }
    addIntOp(r, "sym_add", [](int64_t a, int64_t b, int64_t* out) { return __builtin_add_overflow(a, b, out); });
    addIntOp(r, "sym_sub", [](int64_t a, int64_t b, int64_t* out) { return __builtin_sub_overflow(a, b, out); });
    addIntOp(r, "sym_mul", [](int64_t a, int64_t b, int64_t* out) { return __builtin_mul_overflow(a, b, out); });
    addIntOp(r, "sym_floordiv", [](int64_t a, int64_t b, int64_t* out) {
        if (b == 0) throw ScriptError("ZeroDivisionError", "integer division or modulo by zero");
        if (a == INT64_MIN && b == -1) return true;
        *out = a / b - ((a % b != 0 && (a < 0) != (b < 0)) ? 1 : 0);  // toward negative infinity, as Python's
        return false;
    });
}

}  // namespace fusescope
