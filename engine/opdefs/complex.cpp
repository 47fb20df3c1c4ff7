// Complex tensors: the views between complex and real values (view_as_real, view_as_complex,
// real, imag), and each op's complex form (OpDef::complexKernel). A complex form computes
// with real ops on the parts, as PyTorch's kernels do on c10::complex values: the operands
// are first converted to the result's complex type, then each product and sum is rounded in
// its value type. Complex values never reach a code generator: inductor rewrites them as
// real pairs with the same formulas (lower/complex_as_pairs.cpp, ops/complex_formulas.h).
// Nothing here has a derivative yet (the complex layer refuses grad-requiring complex
// arguments rather than give a wrong gradient).

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "core/error.h"
#include "dispatch/dispatcher.h"
#include "opdefs/op_families.h"
#include "core/complex_parts.h"
#include "ops/complex_formulas.h"
#include "ops/kernel_support.h"

namespace fusescope {

namespace {

// Reached only where a graph keeps a complex value (inductor first rewrites complex values as
// real pairs: lower/complex_as_pairs.cpp).
constexpr const char* kComplexRunsEagerly = "complex tensors: the code generators handle real dtypes only";

Tensor call(std::string_view op, const IValueList& args, const Kwargs& kwargs = {}) { return dispatch(op, args, kwargs).toTensor(); }

// The complex number re + i*im for each element (PyTorch's torch.complex).
Tensor fromParts(const Tensor& re, const Tensor& im) { return pairsAsComplex(call("stack", {IValue::list({re, im}), int64_t{-1}})); }

// `t` in the complex type `type` (a real tensor gets imaginary part 0).
Tensor toComplex(const Tensor& t, DType type) { return t.dtype() == type ? t : call("to", {t, type}); }

// The complex type the tensor arguments named compute in (torch.result_type).
DType complexResultType(const BoundArgs& a, const std::vector<std::string>& names) {
    std::vector<Tensor> operands;
    for (const std::string& n : names) {
        const IValue& v = a[n];
        if (v.isTensor()) operands.push_back(v.toTensor());
        else if (v.isSequence())
            for (const IValue& item : v.toSequence()->items) operands.push_back(item.toTensor());
    }
    return complexOf(resultType(operands));
}

using Parts = ComplexParts<Tensor>;
Parts partsOf(const Tensor& complex) { return {complexPart(complex, 0), complexPart(complex, 1)}; }

// The real ops of the complex formulas (ops/complex_formulas.h), computed now.
Tensor realOp(const std::string& op, std::initializer_list<Tensor> args) { return call(op, IValueList(args.begin(), args.end())); }
Tensor fromParts(const Parts& p) { return fromParts(p.re, p.im); }

using ComplexKernel = std::function<IValue(const BoundArgs&)>;

// Binary ops on self and other, both converted to their complex result type first.
ComplexKernel binary(std::function<Tensor(const Parts&, const Parts&, const BoundArgs&)> f) {
    return [f](const BoundArgs& a) {
        DType type = complexResultType(a, {"self", "other"});
        return IValue(f(partsOf(toComplex(a.tensor("self"), type)), partsOf(toComplex(a.tensor("other"), type)), a));
    };
}

// An op applied to the real parts and to the imaginary parts separately: right for ops that
// move, select or sum values (sum, cat, flip, ...). The `values` arguments are converted to
// their complex result type and replaced by one part each time; the others (indices, dims,
// masks) stay; a complex dtype= becomes its value type.
ComplexKernel partwise(const OpDef& op, std::vector<std::string> values) {
    return [&op, values](const BoundArgs& a) {
        DType type = complexResultType(a, values);
        Tensor results[2];
        for (int part = 0; part < 2; ++part) {
            BoundArgs b = a;
            for (std::size_t i = 0; i < b.names.size(); ++i) {
                IValue& v = b.values_[i];
                auto partOf = [&](const IValue& t) { return IValue(complexPart(toComplex(t.toTensor(), type), part)); };
                bool isValue = std::find(values.begin(), values.end(), b.names[i]) != values.end();
                if (isValue && v.isTensor()) {
                    v = partOf(v);
                } else if (isValue && v.isSequence()) {
                    IValueList items;
                    for (const IValue& item : v.toSequence()->items) items.push_back(partOf(item));
                    v = v.toSequence()->isTuple ? IValue::tuple(items) : IValue::list(items);
                } else if (v.isDType() && isComplex(v.toDType())) {
                    v = IValue(complexValueType(v.toDType()));
                }
            }
            results[part] = OpRegistry::instance().run(op, b).toTensor();
        }
        return IValue(fromParts(results[0], results[1]));
    };
}

// Factories asked for a complex dtype (or like a complex tensor): the real values they make,
// imaginary part 0.
ComplexKernel realValuedFactory(const OpDef& op) {
    return [&op](const BoundArgs& a) {
        BoundArgs b = a;
        for (IValue& v : b.values_) {
            if (v.isDType() && isComplex(v.toDType())) v = IValue(complexValueType(v.toDType()));
            else if (v.isTensor() && v.toTensor().defined() && isComplex(v.toTensor().dtype())) v = IValue(complexPart(v.toTensor(), 0));
        }
        Tensor re = OpRegistry::instance().run(op, b).toTensor();
        return IValue(fromParts(re, call("zeros_like", {re})));
    };
}

// An in-place op X_ as its out-of-place complex form, written back into self.
ComplexKernel inPlace(const OpDef& outOfPlace) {
    return [&outOfPlace](const BoundArgs& a) {
        const Tensor& self = a.tensor("self");
        if (!isComplex(self.dtype()))
            throw ScriptError("RuntimeError", fmt::format("result type {} can't be cast to the desired output type {}",
                                                          dtypeScalarName(complexResultType(a, {"self", "other"})), dtypeScalarName(self.dtype())));
        Tensor result = outOfPlace.complexKernel(a).toTensor();
        call("copy_", {self, result});
        return IValue(self);
    };
}

// A view whose element type differs from its input's (view_as_real and friends), defined
// for meta and real tensors alike.
OpDef& addRetypingView(OpRegistry& r, std::string name, std::string schema, std::function<Tensor(const Tensor&)> view) {
    OpDef d;
    d.name = std::move(name);
    d.schema = std::move(schema);
    d.isMethod = false;
    d.kernel = [view](const BoundArgs& a) { return IValue(view(a.tensor("self"))); };
    d.infer = d.kernel;
    d.mayAlias = true;
    return runEagerly(r.add(std::move(d)), kComplexRunsEagerly);
}

void registerComplexViews(OpRegistry& r) {
    addRetypingView(r, "view_as_real", "view_as_real(Tensor(a) self) -> Tensor(a)", complexAsPairs);
    addRetypingView(r, "view_as_complex", "view_as_complex(Tensor(a) self) -> Tensor(a)", pairsAsComplex);
    // Of a real tensor, real is the tensor itself and imag an error, as in PyTorch.
    addRetypingView(r, "real", "real(Tensor(a) self) -> Tensor(a)",
                    [](const Tensor& t) { return isComplex(t.dtype()) ? complexPart(t, 0) : t; });
    addRetypingView(r, "imag", "imag(Tensor(a) self) -> Tensor(a)", [](const Tensor& t) {
        if (!isComplex(t.dtype())) throw ScriptError("TypeError", "imag is not implemented for tensors with non-complex dtypes.");
        return complexPart(t, 1);
    });
}

void registerComplexForms(OpRegistry& r) {
    auto form = [&r](std::string_view name, ComplexKernel kernel) { r.definition(name).complexKernel = std::move(kernel); };
    // Pair by pair: a real alpha scales both parts.
    for (const char* name : {"add", "sub"})
        form(name, [name](const BoundArgs& a) {
            DType type = complexResultType(a, {"self", "other"});
            Tensor pairs = call(name, {complexAsPairs(toComplex(a.tensor("self"), type)), complexAsPairs(toComplex(a.tensor("other"), type))},
                                {{"alpha", a["alpha"]}});
            return IValue(pairsAsComplex(call("contiguous", {pairs})));
        });
    form("mul", binary([](const Parts& x, const Parts& y, const BoundArgs&) { return fromParts(complexProduct(x, y, "mul", realOp)); }));
    form("div", binary([](const Parts& x, const Parts& y, const BoundArgs& a) {
             if (!a["rounding_mode"].isNone())
                 throw ScriptError("RuntimeError", "div with rounding_mode is not implemented for complex tensors");
             return fromParts(complexQuotient(x, y, realOp));
         }));
    // Matrix products take no mixed dtypes: the real kernel's own check says so as PyTorch does.
    for (const char* name : {"mm", "bmm", "matmul"})
        form(name, [name, &op = r.definition(name)](const BoundArgs& a) {
            const Tensor &x = a.tensor(a.names[0]), &y = a.tensor(a.names[1]);
            if (x.dtype() != y.dtype()) {
                OpRegistry::instance().run(op, a);
                throw ScriptError("RuntimeError", fmt::format("{}: expected both operands to have the same dtype", name));
            }
            return IValue(fromParts(complexProduct(partsOf(x), partsOf(y), name, realOp)));
        });
    // A real value fills the real parts; the imaginary parts become 0.
    for (const char* name : {"fill_", "zero_"})
        form(name, [zero = name[0] == 'z'](const BoundArgs& a) {
            const Tensor& self = a.tensor("self");
            call("fill_", {complexPart(self, 0), zero ? IValue(0.0) : a["value"]});
            call("fill_", {complexPart(self, 1), 0.0});
            return IValue(self);
        });
    for (const char* name : {"add_", "sub_", "mul_", "div_"}) form(name, inPlace(r.definition(std::string_view(name, std::strlen(name) - 1))));
    // |a + bi| in double, rounded once: no overflow or underflow inside for complex64.
    form("abs", [](const BoundArgs& a) {
        Parts x = partsOf(a.tensor("self"));
        DType type = x.re.dtype();
        Tensor re = call("to", {x.re, DType::Float64}), im = call("to", {x.im, DType::Float64});
        return IValue(call("to", {call("sqrt", {call("add", {call("mul", {re, re}), call("mul", {im, im})})}), type}));
    });
    form("neg", [](const BoundArgs& a) {
        Parts x = partsOf(a.tensor("self"));
        return IValue(fromParts(call("neg", {x.re}), call("neg", {x.im})));
    });
    // Equal when both parts are.
    for (const char* name : {"eq", "ne"})
        form(name, binary([name](const Parts& x, const Parts& y, const BoundArgs&) {
                 return call(name[0] == 'e' ? "logical_and" : "logical_or", {call(name, {x.re, y.re}), call(name, {x.im, y.im})});
             }));
    for (const auto& [name, values] : std::vector<std::pair<const char*, std::vector<std::string>>>{
             {"sum", {"self"}}, {"mean", {"self"}}, {"cumsum", {"self"}}, {"cat", {"tensors"}}, {"stack", {"tensors"}},
             {"flip", {"self"}}, {"index_select", {"self"}}, {"tril", {"self"}}, {"triu", {"self"}}, {"where", {"self", "other"}}})
        for (const OpDef* op : r.overloads(name)) form(op->name, partwise(*op, values));
    for (const char* name : {"zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like", "empty_like", "tensor"})
        for (const OpDef* op : r.overloads(name)) form(op->name, realValuedFactory(*op));
    for (const char* name : {"copy_", "clone"}) r.definition(name).movesElements = true;
}

}  // namespace

void registerComplexOps(OpRegistry& r) {
    registerComplexViews(r);
    registerComplexForms(r);
}

}  // namespace fusescope
