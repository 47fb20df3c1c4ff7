#include "ops/op_gradients.h"

#include <cctype>
#include <map>

#include "core/error.h"
#include "core/grad_mode.h"

namespace fusescope {

namespace {

bool anyRequiresGrad(const IValue& v) {
    if (v.isTensor()) return v.toTensor().defined() && v.toTensor().requiresGrad();
    if (v.isSequence())
        for (const IValue& item : v.toSequence()->items)
            if (anyRequiresGrad(item)) return true;
    return false;
}

// Ops that say themselves what requires grad.
bool managesGradItself(const std::string& name) {
    return name == "requires_grad_" || name == "detach" || name == "detach_";
}

void mark(const IValue& v, const std::string& gradFn) {
    if (v.isTensor()) {
        const Tensor& t = v.toTensor();
        if (!t.defined() || !isFloating(t.dtype())) return;
        t.setRequiresGrad(true);
        t.impl()->gradFn = gradFn;
    } else if (v.isSequence()) {
        for (const IValue& item : v.toSequence()->items) mark(item, gradFn);
    }
}

bool isInplace(const std::string& name) { return !name.empty() && name.back() == '_' && !managesGradItself(name); }

}  // namespace

std::string gradFnName(const std::string& opName) {
    // Where PyTorch's backward node is not the op's own name.
    static const std::map<std::string, std::string> renamed = {
        {"reshape", "View"},       {"matmul", "Mm"},        {"linear", "Addmm"},      {"square", "Pow"},
        {"layer_norm", "NativeLayerNorm"}, {"to", "ToCopy"}, {"contiguous", "Clone"}, {"max.other", "Maximum"},
        {"min.other", "Minimum"}};
    std::string base = opName.substr(0, opName.find('.'));
    if (!base.empty() && base.back() == '_') base.pop_back();
    auto it = renamed.find(opName);
    if (it == renamed.end()) it = renamed.find(base);
    if (it != renamed.end()) return it->second + "Backward0";
    std::string camel;
    bool upper = true;
    for (char c : base) {
        if (c == '_') {
            upper = true;
            continue;
        }
        camel += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    return camel + "Backward0";
}

void checkInplaceOnLeaf(const OpDef& op, const BoundArgs& args) {
    if (!gradEnabled() || !isInplace(op.name) || args.values_.empty() || !args.values_[0].isTensor()) return;
    const Tensor& self = args.values_[0].toTensor();
    if (self.defined() && self.requiresGrad() && self.isLeaf())
        throw ScriptError("RuntimeError", "a leaf Variable that requires grad is being used in an in-place operation.");
}

void recordGradFn(const OpDef& op, const BoundArgs& args, const IValue& result) {
    if (!gradEnabled() || managesGradItself(op.name)) return;
    bool needed = false;
    for (const IValue& v : args.values_) needed = needed || anyRequiresGrad(v);
    if (needed) mark(result, gradFnName(op.name));
}

}  // namespace fusescope
