#include "autograd/view_history.h"

#include "autograd/derivative_ops.h"
#include "core/error.h"

namespace fusescope {

namespace {

// A tensor's place in its storage: enough to address a view's elements within its base's.
struct Geometry {
    Shape sizes, strides;
    int64_t offset = 0;
};

Geometry geometryOf(const Tensor& t) { return {t.sizes(), t.strides(), t.storageOffset()}; }

// Elements of storage from the base's first one that the base's gradient needs.
int64_t span(const Geometry& g) {
    int64_t last = 0;
    for (size_t d = 0; d < g.sizes.size(); ++d) {
        if (g.sizes[d] == 0) return 0;
        last += (g.sizes[d] - 1) * g.strides[d];
    }
    return last + 1;
}

IValue ints(const Shape& s) { return IValue::intList(std::vector<int64_t>(s.begin(), s.end())); }

// g (shaped as `shown`) laid into a zero buffer the base's storage could hold.
Tensor placed(const Tensor& buffer, const Geometry& shown, int64_t baseOffset) {
    return grad::call("as_strided", {buffer, ints(shown.sizes), ints(shown.strides), shown.offset - baseOffset});
}

Tensor baseView(const Tensor& buffer, const Geometry& base) { return placed(buffer, base, base.offset); }

// The node a view's gradient goes through to its base's: its elements' gradients put where
// they are in the base, zero elsewhere.
std::shared_ptr<AutogradNode> asStridedNode(const Tensor& view, const Tensor& base) {
    auto node = std::make_shared<AutogradNode>();
    node->name = "AsStridedBackward0";
    node->next.push_back(gradientEdge(base));
    node->apply = [v = geometryOf(view), b = geometryOf(base), like = base](const std::vector<Tensor>& grads) {
        Tensor buffer = grad::zeros({span(b)}, like);
        if (grads[0].defined()) grad::call("copy_", {placed(buffer, v, b.offset), grads[0]});
        return std::vector<Tensor>{grad::call("clone", {baseView(buffer, b)})};
    };
    return node;
}

void pointAt(const Tensor& t, const std::shared_ptr<AutogradNode>& node) {
    t.setRequiresGrad(true);
    t.impl()->autograd.gradFn = node;
    t.impl()->autograd.outputNr = 0;
    t.impl()->autograd.viewVersion = t.version();
}

}  // namespace

void recordViewBase(const OpDef& op, const BoundArgs& args, const IValue& result) {
    if (!op.mayAlias || args.size() == 0 || !args.at(0).isTensor()) return;
    const Tensor& self = args.at(0).toTensor();
    if (!self.defined() || !self.impl()->storage) return;
    std::shared_ptr<TensorImpl> base = self.impl()->autograd.viewBase ? self.impl()->autograd.viewBase : self.implPtr();
    auto record = [&](const IValue& v) {
        if (!v.isTensor()) return;
        const Tensor& t = v.toTensor();
        if (t.defined() && t.impl() != self.impl() && t.impl()->storage == self.impl()->storage && t.impl() != base.get()) {
            t.impl()->autograd.viewBase = base;
            t.impl()->autograd.viewVersion = t.version();
        }
    };
    if (result.isSequence())
        for (const IValue& item : result.toSequence()->items) record(item);
    else
        record(result);
}

bool viewOfHistory(const Tensor& t) {
    const auto& base = t.impl()->autograd.viewBase;
    return base && isFloating(t.dtype());
}

void rebaseViewHistory(const Tensor& view, const std::shared_ptr<AutogradNode>& node) {
    Tensor base(view.impl()->autograd.viewBase);
    auto copySlices = std::make_shared<AutogradNode>();
    copySlices->name = "CopySlices";
    copySlices->next.push_back(gradientEdge(base));
    copySlices->next.insert(copySlices->next.end(), node->next.begin() + 1, node->next.end());
    // The base's gradient, with the view's part replaced by what the op's node makes of it
    // (nothing where the op overwrote the view), and the op's other arguments' gradients.
    copySlices->apply = [node, v = geometryOf(view), b = geometryOf(base), like = base](const std::vector<Tensor>& grads) {
        Tensor buffer = grad::zeros({span(b)}, like);
        if (grads[0].defined()) grad::call("copy_", {baseView(buffer, b), grads[0]});
        Tensor slice = placed(buffer, v, b.offset);
        std::vector<Tensor> res = node->apply({grad::call("clone", {slice})});
        if (res[0].defined()) grad::call("copy_", {slice, res[0]});
        else grad::call("zero_", {slice});
        res[0] = grad::call("clone", {baseView(buffer, b)});
        return res;
    };
    copySlices->release = node->release;
    pointAt(base, copySlices);
    pointAt(view, asStridedNode(view, base));
}

void refreshViewHistory(const Tensor& t) {
    if (!t.defined() || !t.impl()->autograd.viewBase || t.impl()->autograd.viewVersion == t.version()) return;
    Tensor base(t.impl()->autograd.viewBase);
    if (!base.requiresGrad() || base.isLeaf() || !isFloating(t.dtype())) {
        t.impl()->autograd.viewVersion = t.version();
        return;
    }
    pointAt(t, asStridedNode(t, base));
}

void checkInplaceOnViewOfLeaf(const Tensor& self) {
    const auto& base = self.impl()->autograd.viewBase;
    if (base && base->requiresGrad && !base->autograd.gradFn)
        throw ScriptError("RuntimeError", "a view of a leaf Variable that requires grad is being used in an in-place operation.");
}

}  // namespace fusescope
