#include "autograd/backward_engine.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "autograd/derivative_ops.h"
#include "core/autograd_node.h"
#include "core/error.h"
#include "core/grad_mode.h"
#include "profile/profiler.h"

namespace fusescope {

namespace {

void accumulate(Tensor& sum, const Tensor& grad) {
    if (!grad.defined()) return;
    sum = sum.defined() ? grad::add(sum, grad) : grad;
}

// The nodes reachable from `starts`, each with how many edges lead into it from reachable nodes.
std::map<AutogradNode*, int> dependencies(const std::vector<AutogradNode*>& starts) {
    std::map<AutogradNode*, int> count;
    std::vector<AutogradNode*> stack = starts;
    std::set<AutogradNode*> seen(starts.begin(), starts.end());
    for (AutogradNode* n : starts) count.emplace(n, 0);
    while (!stack.empty()) {
        AutogradNode* node = stack.back();
        stack.pop_back();
        for (const AutogradEdge& e : node->next) {
            if (!e.node) continue;
            ++count[e.node.get()];
            if (seen.insert(e.node.get()).second) stack.push_back(e.node.get());
        }
    }
    return count;
}

// Adds to a tensor's .grad; the first gradient is copied (it may be a view of another
// tensor, or the same tensor another path gets).
void addToGrad(TensorImpl& impl, const Tensor& grad) {
    if (!grad.defined()) return;
    std::shared_ptr<TensorImpl>& sum = impl.autograd.grad;
    sum = (sum ? grad::add(Tensor(sum), grad) : grad::call("clone", {grad})).implPtr();
}

}  // namespace

Tensor implicitGradient(const Tensor& root) {
    if (root.numel() != 1) throw ScriptError("RuntimeError", "grad can be implicitly created only for scalar outputs");
    return grad::call("ones_like", {root});
}

std::vector<Tensor> runBackward(const std::vector<Tensor>& roots, const std::vector<Tensor>& grads, const BackwardOptions& options) {
    GradModeGuard noGrad(false);
    std::map<AutogradNode*, std::vector<Tensor>> buffers;  // gradients of each node's outputs so far
    std::vector<AutogradNode*> starts;
    std::vector<std::shared_ptr<AutogradNode>> keepAlive;
    for (size_t i = 0; i < roots.size(); ++i) {
        AutogradEdge edge = gradientEdge(roots[i]);
        if (!edge.node)
            throw ScriptError("RuntimeError", "element " + std::to_string(i) + " of tensors does not require grad and does not have a grad_fn");
        if (grads[i].defined() && grads[i].sizes() != roots[i].sizes())
            throw ScriptError("RuntimeError", fmt::format("Mismatch in shape: grad_output[{0}] has a shape of torch.Size([{1}]) and output[{0}] "
                                                          "has a shape of torch.Size([{2}]).",
                                                          i, fmt::join(grads[i].sizes(), ", "), fmt::join(roots[i].sizes(), ", ")));
        keepAlive.push_back(edge.node);
        starts.push_back(edge.node.get());
        auto& buffer = buffers[edge.node.get()];
        buffer.resize(static_cast<size_t>(edge.node->outputs));
        accumulate(buffer[static_cast<size_t>(edge.inputNr)], grads[i]);
    }
    // Where each asked-for input's gradient is read (torch.autograd.grad).
    std::vector<AutogradEdge> wanted;
    for (const Tensor& input : options.inputs) {
        AutogradEdge edge = gradientEdge(input);
        if (!edge.node) throw ScriptError("RuntimeError", "One of the differentiated Tensors does not require grad");
        wanted.push_back(edge);
    }
    std::vector<Tensor> results(options.inputs.size());
    const bool intoGrad = options.inputs.empty();

    std::map<AutogradNode*, int> pending = dependencies(starts);
    std::vector<AutogradNode*> ready;
    for (AutogradNode* n : starts)
        if (pending[n] == 0 && std::find(ready.begin(), ready.end(), n) == ready.end()) ready.push_back(n);
    while (!ready.empty()) {
        AutogradNode* node = ready.back();
        ready.pop_back();
        std::vector<Tensor> outputs = std::move(buffers[node]);
        buffers.erase(node);
        outputs.resize(static_cast<size_t>(node->outputs));
        for (size_t w = 0; w < wanted.size(); ++w)
            if (wanted[w].node.get() == node) accumulate(results[w], outputs[static_cast<size_t>(wanted[w].inputNr)]);
        if (intoGrad) {
            for (size_t i = 0; i < node->retained.size() && i < outputs.size(); ++i)
                if (auto impl = node->retained[i].lock()) addToGrad(*impl, outputs[i]);
            if (auto leaf = node->leaf.lock()) addToGrad(*leaf, outputs[0]);
        }
        const bool anyGradient = std::any_of(outputs.begin(), outputs.end(), [](const Tensor& g) { return g.defined(); });
        if (node->apply && anyGradient) {  // an AccumulateGrad node has nothing to apply
            std::optional<RecordScope> span;  // PyTorch's record of each node the engine runs
            if (Profiler::active()) span.emplace(TraceCategory::CpuOp, "autograd::engine::evaluate_function: " + node->name);
            std::vector<Tensor> inputGrads = node->apply(outputs);
            span.reset();
            if (!options.retainGraph && node->release) node->release();
            for (size_t i = 0; i < node->next.size() && i < inputGrads.size(); ++i) {
                const AutogradEdge& edge = node->next[i];
                if (!edge.node) continue;
                auto& buffer = buffers[edge.node.get()];
                buffer.resize(static_cast<size_t>(edge.node->outputs));
                if (edge.inputNr < 0 || edge.inputNr >= edge.node->outputs)
                    throw Error(fmt::format("internal error: {} sends a gradient to input {} of {}, which has {}", node->name,
                                            edge.inputNr, edge.node->name, edge.node->outputs));
                accumulate(buffer[static_cast<size_t>(edge.inputNr)], inputGrads[i]);
            }
        }
        for (const AutogradEdge& edge : node->next)
            if (edge.node && --pending[edge.node.get()] == 0) ready.push_back(edge.node.get());
    }
    for (size_t w = 0; w < wanted.size(); ++w)
        if (!results[w].defined() && !options.allowUnused)
            throw ScriptError("RuntimeError", "The differentiated Tensor at index " + std::to_string(w) +
                                                  " appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior.");
    return results;
}

}  // namespace fusescope
