#include "core/autograd_node.h"

#include "core/error.h"

namespace fusescope {

const std::string& Tensor::gradFnName() const {
    static const std::string none;
    return impl_->autograd.gradFn ? impl_->autograd.gradFn->name : none;
}

std::shared_ptr<AutogradNode> gradAccumulator(const Tensor& leaf) {
    std::shared_ptr<AutogradNode>& node = leaf.impl()->autograd.accumulator;
    if (!node) {
        node = std::make_shared<AutogradNode>();
        node->name = "AccumulateGrad";
        node->leaf = leaf.implPtr();
    }
    return node;
}

AutogradEdge gradientEdge(const Tensor& t) {
    if (!t.defined() || !t.requiresGrad()) return {};
    if (!t.isLeaf()) return {t.impl()->autograd.gradFn, t.impl()->autograd.outputNr};
    return {gradAccumulator(t), 0};
}

std::shared_ptr<AutogradNode> opaqueGradFn(std::string name, std::string why) {
    auto node = std::make_shared<AutogradNode>();
    node->name = std::move(name);
    node->apply = [name = node->name, why = std::move(why)](const std::vector<Tensor>&) -> std::vector<Tensor> {
        throw ScriptError("RuntimeError", "Fusescope cannot differentiate through " + name + ": " + why);
    };
    return node;
}

}  // namespace fusescope
