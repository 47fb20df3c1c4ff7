// The ops of PyTorch's SymInts and SymFloats: a size of a graph value read into a Python int
// (aten.sym_size.int), the int arithmetic the traced code does with it, and a float input's
// value read from the f64[] tensor that carries it into the graph (x.item()). Only the tracer
// makes them (capture/traced_sizes.cpp, traced_floats.cpp): a graph holding them runs its ops
// eagerly, each computing its scalar on every call.

#include <functional>
#include <limits>

#include "core/error.h"
#include "opdefs/op_families.h"

namespace fusescope {

namespace {

constexpr const char* kComputesSizes = "computes a size as a Python int (a SymInt): Fusescope's compiled kernels take one "
                                       "only as an operand of arithmetic or a comparison";
constexpr const char* kComputesFloats = "computes a float input as a Python float (a SymFloat): Fusescope's compiled kernels "
                                        "take scalars only as constants";

// An op only the tracer makes (no torch.<name>, no tensor method): `compute` is its kernel and,
// unless `infer` is given, its shape inference too (a scalar needs no meta); a graph holding it
// runs eagerly, saying `why`.
void addScalarOp(OpRegistry& r, const std::string& name, const std::string& signature, const char* why,
                 std::function<IValue(const BoundArgs&)> compute, std::function<IValue(const BoundArgs&)> infer = nullptr) {
    OpDef d;
    d.name = name;
    d.schema = name + signature;
    d.isFunction = false;
    d.isMethod = false;
    d.infer = infer ? std::move(infer) : compute;
    d.kernel = std::move(compute);
    runEagerly(r.add(std::move(d)), why);
}

// `apply` writes a OP b and says whether it overflowed: an error, not a wrapped size
// (symbolic_sizes.h's shifted sizes are large).
void addIntOp(OpRegistry& r, const std::string& name, bool (*apply)(int64_t, int64_t, int64_t*)) {
    addScalarOp(r, name, "(int self, int other) -> int", kComputesSizes, [apply](const BoundArgs& a) {
        int64_t result = 0;
        if (apply(a.integer("self"), a.integer("other"), &result))
            throw ScriptError("OverflowError", "integer overflow (script ints are 64-bit)");
        return IValue(result);
    });
}

// Python's float arithmetic on a SymFloat (scale / 2): `apply` writes a OP b, or raises.
void addFloatOp(OpRegistry& r, const std::string& name, double (*apply)(double, double)) {
    addScalarOp(r, name, "(float self, float other) -> float", kComputesFloats,
                [apply](const BoundArgs& a) { return IValue(apply(a.number("self"), a.number("other"))); });
}

}  // namespace

void registerSymbolicIntOps(OpRegistry& r) {
    addScalarOp(r, "sym_size", "(Tensor self, int dim) -> int", kComputesSizes,
                [](const BoundArgs& a) { return IValue(a.tensor("self").size(a.integer("dim"))); });
    // The tracer knows the value itself: a meta tensor holds none.
    addScalarOp(r, "item", "(Tensor self) -> float", kComputesFloats, [](const BoundArgs& a) { return IValue(a.tensor("self").item()); },
                [](const BoundArgs&) { return IValue(std::numeric_limits<double>::quiet_NaN()); });
    addScalarOp(r, "sym_float_neg", "(float self) -> float", kComputesFloats, [](const BoundArgs& a) { return IValue(-a.number("self")); });
    addFloatOp(r, "sym_float_add", [](double a, double b) { return a + b; });
    addFloatOp(r, "sym_float_sub", [](double a, double b) { return a - b; });
    addFloatOp(r, "sym_float_mul", [](double a, double b) { return a * b; });
    addFloatOp(r, "sym_float_truediv", [](double a, double b) {
        if (b == 0) throw ScriptError("ZeroDivisionError", "float division by zero");
        return a / b;
    });
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
