// Tensor attributes (x.shape, x.dtype, ...) and methods (x.view(2, 3), x.item(), ...).
#include <algorithm>

#include <fmt/format.h>

#include "core/autograd_node.h"
#include "ops/op_registry.h"
#include "script/interpreter.h"
#include "script/torch_names.h"

namespace fusescope {

namespace {

Value sizeObject(const Shape& sizes) {
    auto size = std::make_shared<SizeObject>();
    for (int64_t s : sizes) size->items.push_back(Value(s));
    return Value(ObjectPtr(size));
}

int64_t wrapDim(int64_t dim, int64_t rank, Interpreter& interp) {
    int64_t n = std::max<int64_t>(rank, 1);
    if (dim < -n || dim >= n)
        interp.fail("IndexError", fmt::format("Dimension out of range (expected to be in range of [{}, {}], but got {})",
                                              -n, n - 1, dim));
    return dim < 0 ? dim + n : dim;
}

// The Python value of element i of a real tensor, typed by its dtype.
Value elementValue(const Tensor& t, int64_t flatIndex) {
    if (t.dtype() == DType::Bool) return Value(t.readDouble(flatIndex) != 0.0);
    if (isIntegral(t.dtype())) return Value(t.readInt64(flatIndex));
    return Value(t.readDouble(flatIndex));
}

Value toList(const Tensor& t, int64_t dim, int64_t& flat) {
    if (dim == t.dim()) return elementValue(t, flat++);
    ValueList items;
    for (int64_t i = 0; i < t.size(dim); ++i) items.push_back(toList(t, dim + 1, flat));
    return makeList(std::move(items));
}

}  // namespace

// Methods whose size arguments may be spread out: x.view(2, 3) means x.view((2, 3)).
ValueList packSizeArguments(const OpDef& op, const ValueList& args, size_t firstArg) {
    const auto& params = OpRegistry::instance().parsed(op).params;
    size_t paramIndex = firstArg;
    if (paramIndex >= params.size() || params[paramIndex].type != "int[]") return args;
    size_t spread = args.size() - firstArg;
    if (spread <= 1) return args;
    for (size_t i = firstArg; i < args.size(); ++i)
        if (!args[i].isInt()) return args;
    ValueList packed(args.begin(), args.begin() + static_cast<long>(firstArg));
    packed.push_back(makeTuple(ValueList(args.begin() + static_cast<long>(firstArg), args.end())));
    return packed;
}

Value splitTensor(Interpreter& in, const CallArgs& a, bool chunks) {
    const char* fn = chunks ? "chunk" : "split";
    const Value* sizeArg = a.args.size() > 1 ? &a.args[1] : a.kwarg(chunks ? "chunks" : "split_size_or_sections");
    if (a.args.empty() || !a.args[0].isTensor() || !sizeArg)
        in.fail("TypeError", std::string(fn) + "() takes a tensor and " + (chunks ? "a number of chunks" : "a size or a list of sizes"));
    const Value& self = a.args[0];
    const Tensor& t = self.asTensor();
    const Value* dimArg = a.args.size() > 2 ? &a.args[2] : a.kwarg("dim");
    int64_t rank = std::max<int64_t>(t.dim(), 1);
    int64_t dim = dimArg ? dimArg->asInt() : 0;
    if (dim < -rank || dim >= rank)
        in.fail("IndexError", fmt::format("Dimension out of range (expected to be in range of [{}, {}], but got {})", -rank, rank - 1, dim));
    if (dim < 0) dim += rank;
    if (in.tracer()) in.tracer()->onSizeUse(t, dim);
    int64_t n = t.size(dim);
    std::vector<int64_t> sizes;
    if (const ValueList* sections = sequenceItems(*sizeArg)) {
        int64_t total = 0;
        std::string listed;
        for (const Value& v : *sections) {
            sizes.push_back(v.asInt());
            total += v.asInt();
            listed += (listed.empty() ? "" : ", ") + std::to_string(v.asInt());
        }
        if (total != n)
            in.fail("RuntimeError", fmt::format("split_with_sizes expects split_sizes to sum exactly to {} (input tensor's size at "
                                                "dimension {}), but got split_sizes=[{}]", n, dim, listed));
    } else {
        int64_t k = sizeArg->asInt();
        if (chunks && k <= 0) in.fail("RuntimeError", "chunk expects `chunks` to be greater than 0, got: " + std::to_string(k));
        if (!chunks && k <= 0 && n > 0) in.fail("RuntimeError", "split_size can only be 0 if dimension size is 0, but got dimension size of " + std::to_string(n));
        int64_t piece = chunks ? (n + k - 1) / k : k;
        for (int64_t at = 0; at < n || (at == 0 && n == 0); at += std::max<int64_t>(piece, 1)) {
            sizes.push_back(std::min(piece, n - at));
            if (n == 0) break;
        }
    }
    ValueList parts;
    int64_t start = 0;
    const bool listed = sequenceItems(*sizeArg) != nullptr;
    for (int64_t size : sizes) {
        parts.push_back(in.callOp("narrow", CallStyle::Method, {self, Value(dim), Value(start), Value(size)}, {}, in.currentSite()));
        start += size;
        // Each part's node is named as PyTorch's one node for all of them.
        const Tensor& part = parts.back().asTensor();
        if (!in.tracer() && part.impl()->autograd.gradFn) part.impl()->autograd.gradFn->name = listed ? "SplitWithSizesBackward0" : "SplitBackward0";
    }
    return makeTuple(parts);
}

Value tensorAttribute(Interpreter& interp, const Value& self, const std::string& name, const SourceLocation& where) {
    const Tensor& t = self.asTensor();
    auto method = [&](auto fn) {
        Value captured = self;
        return makeBuiltin("Tensor." + name, [captured, fn](Interpreter& in, CallArgs& args) { return fn(in, captured, args); });
    };
    auto useAllSizes = [&] {
        if (interp.tracer())
            for (int64_t d = 0; d < t.dim(); ++d) interp.tracer()->onSizeUse(t, d);
    };
    if (name == "shape") {
        useAllSizes();
        return sizeObject(t.sizes());
    }
    if (name == "dtype") return Value(t.dtype());
    // A graph value's device is the one of the tensor it stands for, as a fake tensor's is.
    auto device = [&] { return interp.tracer() ? interp.tracer()->deviceOf(t) : t.device(); };
    if (name == "device") return Value(device());
    if (name == "ndim") return Value(t.dim());
    if (name == "requires_grad") return Value(t.requiresGrad());
    if (name == "is_leaf" || name == "_version" || name == "grad_fn")
        if (TraceHooks* hooks = interp.tracer()) hooks->onUntracedEffect("it reads a tensor's ." + name);
    if (name == "is_leaf") return Value(t.isLeaf());
    if (name == "_version") return Value(t.version());
    if (name == "grad") {
        if (TraceHooks* hooks = interp.tracer()) hooks->onGradRead(t);
        return tensorGrad(t);
    }
    if (name == "grad_fn") return gradFnValue(t.impl()->autograd.gradFn);
    if (name == "backward")
        return method([](Interpreter& in, const Value& s, CallArgs& args) { return tensorBackward(in, s, args); });
    if (name == "retain_grad") return method([](Interpreter& in, const Value& s, CallArgs&) { return tensorRetainGrad(in, s); });
    if (name == "data") return self.unsourced();
    if (name == "is_cuda") return Value(device().kind == Device::Kind::Cuda);
    if (name == "is_meta") return Value(t.isMeta());
    if (name == "T" || name == "mT") {
        if (name == "T") {
            ValueList dims;
            for (int64_t d = t.dim() - 1; d >= 0; --d) dims.push_back(Value(d));
            return interp.callOp("permute", CallStyle::Method, {self, makeTuple(dims)}, {}, interp.currentSite());
        }
        return interp.callOp("transpose", CallStyle::Method, {self, Value(int64_t{-2}), Value(int64_t{-1})}, {},
                             interp.currentSite());
    }
    if (name == "size")
        return method([](Interpreter& in, const Value& s, CallArgs& args) -> Value {
            const Tensor& x = s.asTensor();
            const Value* dimArg = args.args.empty() ? args.kwarg("dim") : &args.args[0];
            if (!dimArg || dimArg->isNone()) {
                if (in.tracer())
                    for (int64_t d = 0; d < x.dim(); ++d) in.tracer()->onSizeUse(x, d);
                return sizeObject(x.sizes());
            }
            int64_t d = wrapDim(dimArg->asInt(), x.dim(), in);
            if (in.tracer()) in.tracer()->onSizeUse(x, d);
            return Value(x.size(d));
        });
    if (name == "stride")
        return method([](Interpreter& in, const Value& s, CallArgs& args) -> Value {
            const Tensor& x = s.asTensor();
            if (args.args.empty()) {
                ValueList strides;
                for (int64_t st : x.strides()) strides.push_back(Value(st));
                return makeTuple(strides);
            }
            return Value(x.stride(wrapDim(args.args[0].asInt(), x.dim(), in)));
        });
    if (name == "dim" || name == "ndimension")
        return method([](Interpreter&, const Value& s, CallArgs&) -> Value { return Value(s.asTensor().dim()); });
    if (name == "numel" || name == "nelement")
        return method([](Interpreter& in, const Value& s, CallArgs&) -> Value {
            if (in.tracer())
                for (int64_t d = 0; d < s.asTensor().dim(); ++d) in.tracer()->onSizeUse(s.asTensor(), d);
            return Value(s.asTensor().numel());
        });
    if (name == "is_contiguous")
        return method([](Interpreter&, const Value& s, CallArgs&) -> Value { return Value(s.asTensor().isContiguous()); });
    if (name == "is_floating_point")
        return method([](Interpreter&, const Value& s, CallArgs&) -> Value { return Value(isFloating(s.asTensor().dtype())); });
    if (name == "element_size")
        return method([](Interpreter&, const Value& s, CallArgs&) -> Value {
            return Value(static_cast<int64_t>(dtypeSize(s.asTensor().dtype())));
        });
    if (name == "item")
        return method([](Interpreter& in, const Value& s, CallArgs&) -> Value {
            Tensor x = in.realTensor(s.asTensor(), "unsupported call Tensor.item(): it turns a tensor into a Python number");
            if (x.numel() != 1)
                in.fail("RuntimeError", fmt::format("a Tensor with {} elements cannot be converted to Scalar", x.numel()));
            return elementValue(x, 0);
        });
    if (name == "tolist")
        return method([](Interpreter& in, const Value& s, CallArgs&) -> Value {
            Tensor x = in.realTensor(s.asTensor(), "unsupported call Tensor.tolist(): it turns a tensor into Python numbers");
            int64_t flat = 0;
            return toList(x, 0, flat);
        });
    if (name == "requires_grad_")
        return method([](Interpreter&, const Value& s, CallArgs& args) -> Value {
            bool flag = args.args.empty() ? (args.kwarg("requires_grad") ? args.kwarg("requires_grad")->asBool() : true)
                                          : args.args[0].asBool();
            s.asTensor().setRequiresGrad(flag);
            return s.unsourced();
        });

    if (name == "split" || name == "chunk")
        return method([name](Interpreter& in, const Value& s, CallArgs& args) -> Value {
            ValueList all{s};
            all.insert(all.end(), args.args.begin(), args.args.end());
            CallArgs call{all, args.kwargs, args.where};
            return splitTensor(in, call, name == "chunk");
        });

    const OpRegistry& registry = OpRegistry::instance();
    const OpDef* op = registry.find(name);
    if (op && op->isMethod) {
        std::string opName = name;
        return method([opName, op](Interpreter& in, const Value& s, CallArgs& args) -> Value {
            ValueList all{s};
            all.insert(all.end(), args.args.begin(), args.args.end());
            return in.callOp(opName, CallStyle::Method, packSizeArguments(*op, all, 1), args.kwargs, in.currentSite());
        });
    }
    throw ScriptError("AttributeError", "'Tensor' object has no attribute '" + name + "'" + missingAttributeNote("torch.Tensor", name, {}),
                      where);
}

}  // namespace fusescope
