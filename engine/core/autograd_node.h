#pragma once
// Eager autograd's graph (PyTorch's torch.autograd.graph.Node): the autograd dispatch layer
// makes a backward node for each op call whose tensor inputs require grad. A node holds what
// its op's derivative needs (the call's arguments and result, "saved tensors") and an edge
// for each argument to where that argument's gradient goes: the backward node of the op
// that computed it, or a leaf's AccumulateGrad node, which adds it to the leaf's .grad.
// The backward engine (autograd/backward_engine.h) walks the nodes from a result.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/tensor.h"

namespace fusescope {

struct AutogradEdge {
    std::shared_ptr<AutogradNode> node;  // null: that input needs no gradient
    int inputNr = 0;                     // which of the node's outputs' gradients it is
};

struct AutogradNode {
    std::string name;  // "MulBackward0", "AccumulateGrad"
    // One edge per tensor argument of the op, in order (each tensor of a Tensor[] its own).
    std::vector<AutogradEdge> next;
    int outputs = 1;  // results of the op, so gradients the node takes
    // The gradients of the op's tensor arguments (one per `next` edge; undefined where none) from
    // those of its results (undefined: zero). Throws ScriptError when it cannot.
    std::function<std::vector<Tensor>(const std::vector<Tensor>& gradOutputs)> apply;
    // Frees what apply needs (a backward without retain_graph); apply then raises PyTorch's
    // "backward through the graph a second time" error.
    std::function<void()> release;
    std::weak_ptr<TensorImpl> leaf;  // AccumulateGrad: the leaf whose .grad it adds to
    // Results that keep their gradient (retain_grad()), by output number.
    std::vector<std::weak_ptr<TensorImpl>> retained;
};

// The AccumulateGrad node of a leaf that requires grad (made on first use).
std::shared_ptr<AutogradNode> gradAccumulator(const Tensor& leaf);

// Where a gradient for `t` goes: its backward node, its leaf's accumulator, or nowhere
// (it does not require grad).
AutogradEdge gradientEdge(const Tensor& t);

// A node for results that have a backward node's name but no derivative here (a compiled
// function's results when AOT Autograd could not differentiate its graph): backward through
// it raises, naming it and saying why.
std::shared_ptr<AutogradNode> opaqueGradFn(std::string name, std::string why);

// PyTorch's error for a backward through freed saved tensors.
inline constexpr const char* kBackwardTwice =
    "Trying to backward through the graph a second time (or directly access saved tensors after they have already been "
    "freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify "
    "retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors "
    "after calling backward.";

}  // namespace fusescope
