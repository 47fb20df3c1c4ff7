// The autograd layer: what grad mode (core/grad_mode.h) makes of an eager op. When an input
// requires grad, the call gets a backward node (core/autograd_node.h) with PyTorch's
// name, the arguments and result its derivative needs, and an edge to where each argument's
// gradient goes; each floating result requires grad and points at it. An in-place op on a
// leaf that requires grad is refused, as in PyTorch; one on another tensor is differentiated
// as its functional twin, from a copy of `self` taken before it changed. Every in-place op
// bumps its storage's version counter, and a node checks the versions of the tensors its
// derivative reads against those they had when saved, raising PyTorch's error when an
// in-place op changed one in between.

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "autograd/argument_gradients.h"
#include "autograd/view_history.h"
#include "core/autograd_node.h"
#include "core/error.h"
#include "core/grad_mode.h"
#include "dispatch/dispatch_layers.h"
#include "ops/kernel_support.h"

namespace fusescope {

namespace {

bool isInplace(const std::string& name) { return !name.empty() && name.back() == '_' && !managesGradItself(name); }

// The name of the call's backward node in PyTorch: its definition's, or the op's (an
// in-place op's functional twin's) name in CamelCase: "MulBackward0" for mul and mul_,
// "Log1PBackward0" for log1p.
std::string gradFnName(const BoundCall& call) {
    if (call.op.gradFn) return call.op.gradFn(call.args);
    std::string base = call.op.name.substr(0, call.op.name.find('.'));
    if (!base.empty() && base.back() == '_') {
        base.pop_back();
        const OpDef* functional = OpRegistry::instance().find(base);
        if (functional && functional->gradFn) return functional->gradFn(call.args);
    }
    std::string camel;
    bool upper = true;
    for (char c : base) {
        if (c == '_') {
            upper = true;
            continue;
        }
        camel += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = std::isdigit(static_cast<unsigned char>(c));  // log1p: Log1PBackward0
    }
    return camel + "Backward0";
}

// What a node keeps of its call for the derivative: the arguments, and the result without
// its own grad_fn (a node holding its result would hold itself).
struct SavedCall {
    BoundArgs args;
    IValue result;
};

IValue withoutHistory(const IValue& v) {
    if (v.isTensor()) return v.toTensor().defined() ? IValue(fusescope::withoutHistory(v.toTensor())) : v;
    if (!v.isSequence()) return v;
    IValueList items;
    for (const IValue& item : v.toSequence()->items) items.push_back(withoutHistory(item));
    return v.toSequence()->isTuple ? IValue::tuple(std::move(items)) : IValue::list(std::move(items));
}

bool hasFloatingTensor(const IValue& v) {
    if (v.isTensor()) return v.toTensor().defined() && isFloating(v.toTensor().dtype());
    if (v.isSequence())
        for (const IValue& item : v.toSequence()->items)
            if (hasFloatingTensor(item)) return true;
    return false;
}

int tensorCount(const IValue& v) {
    if (v.isTensor()) return 1;
    int n = 0;
    if (v.isSequence())
        for (const IValue& item : v.toSequence()->items) n += tensorCount(item);
    return n;
}

// The op whose derivative an in-place op's node runs: its own (copy_), else its functional
// twin's (mul for mul_).
const OpDef* differentiatedOp(const OpDef& op) {
    if (!isInplace(op.name) || op.derivative) return &op;
    std::string base = op.name.substr(0, op.name.find('.'));
    return OpRegistry::instance().find(base.substr(0, base.size() - 1));
}

// A tensor a node saved, as its derivative reads it: which argument ("" for the result), the
// version its storage had, and what the error names. Weak pointers only: the node must not
// keep its own result (a cycle through grad_fn) or a released tensor's memory alive, and
// the message is made only when it is raised.
struct SavedVersion {
    std::string name;
    std::weak_ptr<Storage> storage;
    int64_t version;
    DType dtype;
    Shape sizes;
    std::weak_ptr<AutogradNode> producer;  // expired or null: a leaf
    int outputNr;
};

SavedVersion savedVersion(std::string name, const Tensor& t, const std::shared_ptr<AutogradNode>& producer, int outputNr) {
    return {std::move(name), t.impl()->storage, t.version(), t.dtype(), t.sizes(), producer, outputNr};
}

std::string modifiedInplaceError(const SavedVersion& s, int64_t now) {
    std::string sizes, producer;
    for (int64_t size : s.sizes) sizes += (sizes.empty() ? "" : ", ") + std::to_string(size);
    if (auto node = s.producer.lock()) {
        std::string name = node->name;
        if (size_t at = name.rfind("Backward"); at != std::string::npos) name.resize(at);
        producer = fmt::format(", which is output {} of {},", s.outputNr, name);
    }
    return fmt::format("one of the variables needed for gradient computation has been modified by an inplace operation: [{} [{}]]{} "
                       "is at version {}; expected version {} instead. Hint: enable anomaly detection to find the operation that failed "
                       "to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).",
                       legacyTypeName(s.dtype), sizes, producer, now, s.version);
}

std::shared_ptr<AutogradNode> backwardNode(const BoundCall& call, const BoundArgs& args, const IValue& result) {
    auto node = std::make_shared<AutogradNode>();
    node->name = gradFnName(call);
    std::vector<TensorSlot> slots = tensorSlots(args);
    for (const TensorSlot& slot : slots) {
        const IValue& v = call.args.at(slot.argument);
        node->next.push_back(gradientEdge(v.isTensor() ? v.toTensor() : v.toSequence()->items[slot.item].toTensor()));
    }
    node->outputs = std::max(1, tensorCount(result));
    const OpDef* op = differentiatedOp(call.op);
    std::vector<SavedVersion> versions;
    if (op && op->derivativeReadsValues) {
        for (size_t a = 0; a < args.size(); ++a)
            if (args.at(a).isTensor() && args.at(a).toTensor().defined()) {
                const Tensor& t = args.at(a).toTensor();
                versions.push_back(savedVersion(args.names[a], t, t.impl()->autograd.gradFn, t.impl()->autograd.outputNr));
            }
        if (result.isTensor()) versions.push_back(savedVersion("", result.toTensor(), node, 0));
    }
    auto saved = std::make_shared<std::optional<SavedCall>>(SavedCall{args, withoutHistory(result)});
    std::string missing = op && op->derivative ? "" : noDerivativeMessage(call.op, args);
    node->apply = [saved, op, slots, versions = std::move(versions), missing](const std::vector<Tensor>& gradOutputs) {
        if (!missing.empty()) throw ScriptError("RuntimeError", missing);
        if (!*saved) throw ScriptError("RuntimeError", kBackwardTwice);
        std::function<void(std::string_view)> beforeRead = [&versions](std::string_view name) {
            for (const SavedVersion& s : versions)
                if (auto storage = s.storage.lock(); s.name == name && storage && storage->version() != s.version)
                    throw ScriptError("RuntimeError", modifiedInplaceError(s, storage->version()));
        };
        return slotGradients(*op, (*saved)->args, (*saved)->result, gradOutputs[0], slots, &beforeRead, &gradOutputs);
    };
    if (!op || op->derivativeReadsValues) node->release = [saved] { saved->reset(); };  // else sizes stay readable
    return node;
}

void forEachTensor(const IValue& v, void (*f)(const Tensor&)) {
    if (v.isTensor()) f(v.toTensor());
    else if (v.isSequence())
        for (const IValue& item : v.toSequence()->items) forEachTensor(item, f);
}

// Points the floating tensors of `v` at `node` (by their place among its results).
void mark(const IValue& v, const std::shared_ptr<AutogradNode>& node, int& outputNr) {
    if (v.isTensor()) {
        const Tensor& t = v.toTensor();
        int nr = outputNr++;
        if (!t.defined() || !isFloating(t.dtype())) return;
        t.setRequiresGrad(true);
        t.impl()->autograd.gradFn = node;
        t.impl()->autograd.outputNr = nr;
    } else if (v.isSequence()) {
        for (const IValue& item : v.toSequence()->items) mark(item, node, outputNr);
    }
}

void checkInplaceOnLeaf(const BoundCall& call) {
    const auto& values = call.args.values_;
    if (!isInplace(call.op.name) || values.empty() || !values[0].isTensor()) return;
    const Tensor& self = values[0].toTensor();
    if (self.defined() && self.requiresGrad() && self.isLeaf())
        throw ScriptError("RuntimeError", "a leaf Variable that requires grad is being used in an in-place operation.");
    if (self.defined()) checkInplaceOnViewOfLeaf(self);
}

// Whether the op gave back an argument itself (x.float() of a float32 x): PyTorch records
// nothing then, and the argument keeps its own history.
bool returnsAnArgument(const BoundCall& call, const IValue& result) {
    if (!result.isTensor() || isInplace(call.op.name)) return false;
    const auto& values = call.args.values_;
    return std::any_of(values.begin(), values.end(), [&](const IValue& v) {
        return v.isTensor() && v.toTensor().impl() == result.toTensor().impl();
    });
}


// An in-place op's arguments as its node saves them: `self` copied before the op changes it,
// where the derivative reads values; else `self` without its history, since it becomes the
// result, which points at this node (a node holding it would hold itself: a leaked cycle).
BoundArgs withOriginalSelf(const BoundCall& call) {
    BoundArgs args = call.args;
    if (args.names.empty() || args.names[0] != "self" || !args.at(0).isTensor() || !args.at(0).toTensor().defined()) return args;
    const Tensor& self = args.at(0).toTensor();
    const OpDef* op = differentiatedOp(call.op);
    if (!op || !op->derivativeReadsValues) {
        auto alias = std::make_shared<TensorImpl>(*self.impl());
        alias->autograd = {};
        args.values_[0] = IValue(Tensor(alias));
        return args;
    }
    Tensor original = contiguousCopy(self);  // computed on the host: put where self is
    original.setDevice(self.device());
    original.setRequiresGrad(self.requiresGrad());
    args.values_[0] = IValue(original);
    return args;
}

IValue bumpingVersion(const BoundCall& call, IValue result) {
    if (isInplace(call.op.name) && !call.args.values_.empty() && call.args.values_[0].isTensor()) {
        const Tensor& self = call.args.values_[0].toTensor();
        if (self.defined() && self.impl()->storage) self.impl()->storage->bumpVersion();
    }
    return result;
}

class AutogradLayer : public DispatchLayer {
public:
    const char* name() const override { return "autograd"; }
    IValue call(const BoundCall& call, const NextLayer& next) const override {
        if (call.meta) return next(call);
        if (!gradEnabled()) {
            IValue result = bumpingVersion(call, next(call));
            recordViewBase(call.op, call.args, result);
            return result;
        }
        checkInplaceOnLeaf(call);
        for (const IValue& v : call.args.values_) forEachTensor(v, refreshViewHistory);
        const bool recorded = recordsGradFn(call.op.name, call.args);
        std::optional<BoundArgs> original;
        if (recorded && isInplace(call.op.name)) original = withOriginalSelf(call);
        IValue result = bumpingVersion(call, next(call));
        if (recorded && hasFloatingTensor(result) && !returnsAnArgument(call, result)) {  // a comparison's result needs no node
            auto node = backwardNode(call, original ? *original : call.args, result);
            if (isInplace(call.op.name) && result.isTensor() && viewOfHistory(result.toTensor())) {
                rebaseViewHistory(result.toTensor(), node);
            } else {
                int outputNr = 0;
                mark(result, node, outputNr);
            }
        }
        recordViewBase(call.op, call.args, result);
        return result;
    }
};

}  // namespace

const DispatchLayer& autogradLayer() {
    static const AutogradLayer layer;
    return layer;
}

}  // namespace fusescope
