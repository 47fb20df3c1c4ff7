// The tensor type: its attributes computed on reading (x.shape, x.dtype, ...) and its methods
// (x.item(), ...) as tables (script/types/method_table.h), then the ops that are methods (x.view(2, 3)).
#include <algorithm>

#include <fmt/format.h>

#include "autograd/view_history.h"
#include "core/autograd_node.h"
#include "core/grad_mode.h"
#include "ops/op_registry.h"
#include "script/graph_break_kinds.h"
#include "script/interpreter.h"
#include "script/python_hash.h"
#include "script/types/indexing.h"
#include "script/types/method_table.h"
#include "script/types/type_slots.h"
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

namespace {

// A graph value's device is the one of the tensor it stands for, as a fake tensor's is.
Device deviceOf(Interpreter& in, const Tensor& t) { return in.tracer() ? in.tracer()->deviceOf(t) : t.device(); }

// x.is_leaf, x._version and x.grad_fn are not graph values: a call that reads one replays its
// Python (no direct call).
void readUntraced(Interpreter& in, const char* name) {
    if (TraceHooks* hooks = in.tracer()) hooks->onUntracedEffect(std::string("it reads a tensor's .") + name);
}

// A value computed in the graph being captured has no autograd history yet: Dynamo gives up
// on the function (GB0104), which here breaks the graph and gives the value its history.
const Tensor& withHistory(Interpreter& in, const Value& self) {
    readUntraced(in, "grad_fn");
    if (in.tracer() && in.tracer()->isLazy(self.asTensor())) in.tracer()->graphBreak(graph_breaks::tensorGradFn());
    return self.asTensor();
}

// A graph value is a leaf when it does not require grad (an op's result that does has a
// grad_fn), which its meta tensor tells without its data, as Dynamo answers it.
Value isLeaf(Interpreter& in, const Value& self) {
    readUntraced(in, "is_leaf");
    const Tensor& t = self.asTensor();
    return Value(in.tracer() && in.tracer()->isLazy(t) ? !t.requiresGrad() : t.isLeaf());
}

Value version(Interpreter& in, const Value& self) {
    readUntraced(in, "_version");
    return Value(self.asTensor().version());
}

Value gradFn(Interpreter& in, const Value& self) {
    const Tensor& t = withHistory(in, self);
    refreshViewHistory(t);  // a view changed in place through its base: its history made again, as PyTorch shows it
    return gradFnValue(t.impl()->autograd.gradFn);
}

// Size d of t as the script reads it: a SymInt where the trace keeps the dim symbolic, else
// the int (guarded while traced).
Value sizeValue(Interpreter& in, const Tensor& t, int64_t d) {
    if (TraceHooks* hooks = in.tracer()) {
        if (SymbolicIntPtr symbolic = hooks->symbolicSize(t, d)) return Value(std::move(symbolic));
        hooks->onSizeUse(t, d);
    }
    return Value(t.size(d));
}

// x.shape, x.size(): a torch.Size of sizeValue's.
Value sizesValue(Interpreter& in, const Tensor& t) {
    if (!in.tracer()) return sizeObject(t.sizes());
    auto size = std::make_shared<SizeObject>();
    for (int64_t d = 0; d < t.dim(); ++d) size->items.push_back(sizeValue(in, t, d));
    return Value(ObjectPtr(size));
}

Value shape(Interpreter& in, const Value& self) { return sizesValue(in, self.asTensor()); }

Value grad(Interpreter& in, const Value& self) {
    Value value = tensorGrad(self.asTensor());
    if (TraceHooks* hooks = in.tracer()) hooks->onGradRead(self.asTensor());
    return value;
}

Value transposed(Interpreter& in, const Value& self) {
    ValueList dims;
    for (int64_t d = self.asTensor().dim() - 1; d >= 0; --d) dims.push_back(Value(d));
    return in.callOp("permute", CallStyle::Method, {self, makeTuple(dims)}, {}, in.currentSite());
}

// .real and .imag: views of a complex tensor's parts (opdefs/complex.cpp).
Value complexPartOf(Interpreter& in, const Value& self, const char* part) {
    return in.callOp(part, CallStyle::TorchFunction, {self}, {}, in.currentSite());
}

Value matrixTransposed(Interpreter& in, const Value& self) {
    return in.callOp("transpose", CallStyle::Method, {self, Value(int64_t{-2}), Value(int64_t{-1})}, {}, in.currentSite());
}

Value size(Interpreter& in, const Value& s, CallArgs& args) {
    const Tensor& x = s.asTensor();
    const Value* dimArg = args.args.empty() ? args.kwarg("dim") : &args.args[0];
    if (!dimArg || dimArg->isNone()) return sizesValue(in, x);
    return sizeValue(in, x, wrapDim(dimArg->asInt(), x.dim(), in));
}

Value stride(Interpreter& in, const Value& s, CallArgs& args) {
    const Tensor& x = s.asTensor();
    if (args.args.empty()) {
        ValueList strides;
        for (int64_t st : x.strides()) strides.push_back(Value(st));
        return makeTuple(strides);
    }
    return Value(x.stride(wrapDim(args.args[0].asInt(), x.dim(), in)));
}

Value numel(Interpreter& in, const Value& s, CallArgs&) {
    if (!in.tracer()) return Value(s.asTensor().numel());
    return sizesProduct(in, sizesValue(in, s.asTensor()).as<TupleObject>()->items);
}

Value item(Interpreter& in, const Value& s, CallArgs&) {
    Tensor x = in.realTensor(s.asTensor(), graph_breaks::itemCall);
    if (x.numel() != 1) in.fail("RuntimeError", fmt::format("a Tensor with {} elements cannot be converted to Scalar", x.numel()));
    return elementValue(x, 0);
}

Value tolist(Interpreter& in, const Value& s, CallArgs&) {
    Tensor x = in.realTensor(s.asTensor(), [&s] { return graph_breaks::tolistCall(s.asTensor().dtype()); });
    int64_t flat = 0;
    return toList(x, 0, flat);
}

Value requiresGrad_(Interpreter&, const Value& s, CallArgs& args) {
    bool flag = args.args.empty() ? (args.kwarg("requires_grad") ? args.kwarg("requires_grad")->asBool() : true) : args.args[0].asBool();
    s.asTensor().setRequiresGrad(flag);
    return s.unsourced();
}

// x.split(...) / x.chunk(...): torch.split / torch.chunk with x first.
template <bool kChunks>
Value splitMethod(Interpreter& in, const Value& s, CallArgs& args) {
    ValueList all{s};
    all.insert(all.end(), args.args.begin(), args.args.end());
    CallArgs call{all, args.kwargs, args.where};
    return splitTensor(in, call, kChunks);
}

void setRequiresGrad(Interpreter& in, const Value& self, const Value& value) {
    if (in.tracer()) in.tracer()->onUntracedEffect("it sets a tensor's .requires_grad");
    if (!value.isBool()) in.fail("TypeError", "requires_grad must be a bool");
    if (!self.asTensor().isLeaf()) in.fail("RuntimeError", kNonLeafRequiresGrad);
    self.asTensor().setRequiresGrad(value.asBool());
}

// .data: the tensor's values outside autograd, an alias of its storage (a traced function
// reads the tensor itself, as before).
Value data(Interpreter& in, const Value& self) {
    if (in.tracer()) return self.unsourced();
    const Tensor& t = self.asTensor();
    return Value(t.asStrided(t.sizes(), t.strides(), t.storageOffset()));
}

// p.data = t: p takes t's storage, sizes and dtype, keeping its own autograd identity (a
// Parameter stays the parameter its module and optimizer hold).
void setData(Interpreter& in, const Value& self, const Value& value) {
    if (in.tracer()) in.tracer()->onUntracedEffect("it sets a tensor's .data");
    if (!value.isTensor()) in.fail("TypeError", "Variable data has to be a tensor, but got " + pythonTypeName(value));
    TensorImpl& to = *self.asTensor().impl();
    const TensorImpl& from = *value.asTensor().impl();
    to.storage = from.storage;
    to.sizes = from.sizes;
    to.strides = from.strides;
    to.storageOffset = from.storageOffset;
    to.dtype = from.dtype;
    to.device = from.device;
}

}  // namespace

const GetterTable& tensorGetters() {
    static const GetterTable table({
        {"shape", shape},
        {"dtype", [](Interpreter&, const Value& s) { return Value(s.asTensor().dtype()); }},
        {"device", [](Interpreter& in, const Value& s) { return Value(deviceOf(in, s.asTensor())); }},
        {"ndim", [](Interpreter&, const Value& s) { return Value(s.asTensor().dim()); }},
        {"requires_grad", [](Interpreter&, const Value& s) { return Value(s.asTensor().requiresGrad()); }, setRequiresGrad},
        {"is_leaf", isLeaf},
        {"_version", version},
        {"grad_fn", gradFn},
        {"grad", grad, [](Interpreter& in, const Value& s, const Value& value) {
             if (in.tracer()) in.tracer()->onUntracedEffect("it sets a tensor's .grad");
             setTensorGrad(in, s.asTensor(), value);
         }},
        {"data", data, setData},
        {"is_cuda", [](Interpreter& in, const Value& s) { return Value(deviceOf(in, s.asTensor()).kind == Device::Kind::Cuda); }},
        {"is_xpu", [](Interpreter&, const Value&) { return Value(false); }},  // Fusescope has no XPU device
        {"is_nested", [](Interpreter&, const Value&) { return Value(false); }},  // nor nested tensors
        {"is_sparse", [](Interpreter&, const Value&) { return Value(false); }},  // nor sparse ones
        {"is_meta", [](Interpreter&, const Value& s) { return Value(s.asTensor().isMeta()); }},
        {"T", transposed},
        {"mT", matrixTransposed},
        {"real", [](Interpreter& in, const Value& s) { return complexPartOf(in, s, "real"); }},
        {"imag", [](Interpreter& in, const Value& s) { return complexPartOf(in, s, "imag"); }},
    });
    return table;
}

const MethodTable& tensorMethods() {
    static const MethodTable table("Tensor", {
        {"backward", tensorBackward, 0, kAnyArgs},
        {"retain_grad", [](Interpreter& in, const Value& s, CallArgs&) { return tensorRetainGrad(in, s); }, 0, kAnyArgs},
        {"size", size, 0, kAnyArgs},
        {"stride", stride, 0, kAnyArgs},
        {"storage_offset", [](Interpreter&, const Value& s, CallArgs&) { return Value(s.asTensor().storageOffset()); }, 0, 0},
        {"dim", [](Interpreter&, const Value& s, CallArgs&) { return Value(s.asTensor().dim()); }, 0, kAnyArgs},
        {"ndimension", [](Interpreter&, const Value& s, CallArgs&) { return Value(s.asTensor().dim()); }, 0, kAnyArgs},
        {"numel", numel, 0, kAnyArgs},
        {"nelement", numel, 0, kAnyArgs},
        {"is_contiguous", [](Interpreter&, const Value& s, CallArgs&) { return Value(s.asTensor().isContiguous()); }, 0, kAnyArgs},
        {"is_floating_point", [](Interpreter&, const Value& s, CallArgs&) { return Value(isFloating(s.asTensor().dtype())); }, 0, kAnyArgs},
        {"is_complex", [](Interpreter&, const Value& s, CallArgs&) { return Value(isComplex(s.asTensor().dtype())); }, 0, 0},
        {"element_size", [](Interpreter&, const Value& s, CallArgs&) { return Value(static_cast<int64_t>(dtypeSize(s.asTensor().dtype()))); }, 0, kAnyArgs},
        {"item", item, 0, kAnyArgs},
        {"tolist", tolist, 0, kAnyArgs},
        {"requires_grad_", requiresGrad_, 0, kAnyArgs},
        {"split", splitMethod<false>, 0, kAnyArgs},
        {"chunk", splitMethod<true>, 0, kAnyArgs},
    });
    return table;
}

namespace {

// After the tables: the ops that are tensor methods (x.view(2, 3)), then those the library
// writes in Python (x.norm()), else the AttributeError
// with what PyTorch has that we lack. It has no location: getAttribute gives it the read's.
Value opMethod(Interpreter& in, const Value& self, std::string_view name) {
    const OpDef* op = OpRegistry::instance().find(std::string(name));
    if (!op || !op->isMethod) {
        if (auto method = in.libraryTensorMethod(self, name)) return *method;
        throw ScriptError("AttributeError", fmt::format("'Tensor' object has no attribute '{}'{}", name,
                                                        missingAttributeNote("torch.Tensor", std::string(name), {})));
    }
    return makeBuiltin("Tensor." + std::string(name), [self, opName = std::string(name), op](Interpreter& in, CallArgs& args) -> Value {
        ValueList all{self};
        all.insert(all.end(), args.args.begin(), args.args.end());
        return in.callOp(opName, CallStyle::Method, all, args.kwargs, in.currentSite());
    });
}

// The op a binary operator on a tensor runs.
const char* tensorOpFor(BinaryOperator op) {
    switch (op) {
    case BinaryOperator::Add: return "add";
    case BinaryOperator::Sub: return "sub";
    case BinaryOperator::Mult: return "mul";
    case BinaryOperator::Div: return "div";
    case BinaryOperator::FloorDiv: return "floor_divide";  // as PyTorch's Tensor.__floordiv__
    case BinaryOperator::Mod: return "remainder";
    case BinaryOperator::Pow: return "pow";
    case BinaryOperator::MatMult: return "matmul";
    case BinaryOperator::BitAnd: return "bitwise_and";  // bool masks stay bool
    case BinaryOperator::BitOr: return "bitwise_or";
    case BinaryOperator::BitXor: return "bitwise_xor";
    default: return nullptr;
    }
}

// tensor op other / other op tensor: the op, unless the other operand is an instance,
// whose own operator (or reflected one) answers (NotImplemented, as PyTorch's wrapper gives).
std::optional<Value> tensorBinary(Interpreter& in, BinaryOperator op, const Value& left, const Value& right) {
    if (left.as<InstanceObject>() || right.as<InstanceObject>()) return std::nullopt;
    const char* name = tensorOpFor(op);
    if (!name) in.fail("TypeError", std::string("unsupported operand type(s) for ") + binaryOperatorSymbol(op) + " with tensors in Fusescope");
    return in.callOp(name, CallStyle::Operator, {left, right}, {}, in.currentSite(), binaryOperatorSymbol(op));
}

// The op a comparison of a tensor runs.
const char* tensorOpFor(CompareOperator op) {
    switch (op) {
    case CompareOperator::Eq: return "eq";
    case CompareOperator::NotEq: return "ne";
    case CompareOperator::Lt: return "lt";
    case CompareOperator::LtE: return "le";
    case CompareOperator::Gt: return "gt";
    case CompareOperator::GtE: return "ge";
    default: return nullptr;
    }
}

// tensor op tensor or number, number op tensor: the comparison op, elementwise.
std::optional<Value> tensorCompare(Interpreter& in, CompareOperator op, const Value& left, const Value& right) {
    if (!(left.isTensor() || left.isNumber()) || !(right.isTensor() || right.isNumber())) return std::nullopt;
    const char* name = tensorOpFor(op);
    if (!name) return std::nullopt;
    return in.callOp(name, CallStyle::Operator, {left, right}, {}, in.currentSite(), compareOperatorSymbol(op));
}

// x[index] = value: a copy into (or a fill of) the view the index selects.
void setTensorItem(Interpreter& in, const Value& self, const Value& index, const Value& value) {
    ValueList parts = index.as<TupleObject>() ? index.as<TupleObject>()->items : ValueList{index};
    if (isAdvancedIndex(parts)) {  // index_put_: tensor[index] would be a copy, not a view to write into
        in.callComposite("_index_put_with_tensors", {self, index, value});
        return;
    }
    Value view = in.indexTensor(self, index);
    if (value.isTensor()) in.callOp("copy_", CallStyle::Method, {view, value}, {}, in.currentSite());
    else if (value.isNumber()) in.callOp("fill_", CallStyle::Method, {view, value}, {}, in.currentSite());
    else in.fail("TypeError", "can't assign a " + pythonTypeName(value) + " to a tensor");
}

// len(x): its first size, guarded.
int64_t tensorLength(Interpreter& in, const Value& self) {
    const Tensor& t = self.asTensor();
    if (t.dim() == 0) in.fail("TypeError", "len() of a 0-d tensor");
    if (in.tracer()) in.tracer()->onSizeUse(t, 0);
    return t.size(0);
}

// for row in x: its rows, x[0], x[1], ... (views; the first size guarded).
ValueList tensorRows(Interpreter& in, const Value& self) {
    const Tensor& t = self.asTensor();
    if (t.dim() == 0) in.fail("TypeError", "iteration over a 0-d tensor");
    if (in.tracer()) in.tracer()->onSizeUse(t, 0);
    ValueList rows;
    for (int64_t i = 0; i < t.size(0); ++i)
        rows.push_back(in.callOp("select", CallStyle::Method, {self, Value(int64_t{0}), Value(i)}, {}, in.currentSite()));
    return rows;
}

// bool(x) of a one-element tensor: its value is needed now (a graph break when tracing).
bool tensorTruth(Interpreter& in, const Value& self) {
    Tensor t = in.realTensor(self.asTensor(), [&] {
        const Tensor& t = self.asTensor();
        return graph_breaks::dataDependentBranch(in.tracer()->computationTrace(t), in.tracer()->producingOp(t), t.dtype(), t.dim());
    });
    if (t.numel() != 1)
        in.fail("RuntimeError", t.numel() == 0 ? "Boolean value of Tensor with no values is ambiguous"
                                               : "Boolean value of Tensor with more than one value is ambiguous");
    return t.item() != 0.0;
}

// -x, +x, ~x: ~ is bitwise on ints (~5 is -6), logical on bools, as in PyTorch.
std::optional<Value> tensorUnary(Interpreter& in, UnaryOperator op, const Value& self) {
    if (op == UnaryOperator::USub) return in.callOp("neg", CallStyle::Operator, {self}, {}, in.currentSite(), "-");
    if (op == UnaryOperator::UAdd) return self.unsourced();
    if (isFloating(self.asTensor().dtype())) in.fail("TypeError", "~ (operator.invert) is only implemented on integer and Boolean-type tensors");
    return in.callOp("bitwise_not", CallStyle::Operator, {self}, {}, in.currentSite(), "~");
}

// x += y, -=, *=, /=: the in-place op on x itself; the others make a new tensor.
std::optional<Value> tensorInPlace(Interpreter& in, BinaryOperator op, const Value& self, const Value& other) {
    const char* name = op == BinaryOperator::Add ? "add_" : op == BinaryOperator::Sub ? "sub_" : op == BinaryOperator::Mult ? "mul_"
                       : op == BinaryOperator::Div ? "div_" : nullptr;
    if (!name) return std::nullopt;
    in.callOp(name, CallStyle::Method, {self, other}, {}, in.currentSite());
    return self;  // the same tensor, changed
}

// x.grad = g and x.requires_grad = b; the rest of a tensor's attributes are read-only.
}  // namespace

const TypeSlots& tensorType() {
    static const TypeSlots type{
        .name = "Tensor",
        .getters = &tensorGetters(),
        .methods = &tensorMethods(),
        .getattr = opMethod,
        .items = tensorRows,
        .binary = tensorBinary,
        .compare = tensorCompare,
        .hash = [](Interpreter&, const Value& self) { return python_hash::ofAddress(self.asTensor().impl()); },  // by identity
        .getitem = [](Interpreter& in, const Value& self, const Value& index) { return in.indexTensor(self, index); },
        .setitem = setTensorItem,
        .length = tensorLength,
        .truth = tensorTruth,
        .contains = [](Interpreter& in, const Value&, const Value&) -> bool { in.fail("NotImplementedError", "'in' on tensors is not supported by Fusescope"); },
        .unary = tensorUnary,
        .inplace = tensorInPlace};
    return type;
}

}  // namespace fusescope
