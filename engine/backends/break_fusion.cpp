#include "backends/break_fusion.h"

#include <algorithm>
#include <functional>
#include <map>

#include "decompose/decompose.h"
#include "lower/lowering.h"
#include "schedule/scheduler.h"

namespace fusescope {

std::shared_ptr<Graph> joinAcrossBreak(const Graph& before, const Graph& after, const std::vector<int>& afterReads) {
    auto joined = std::make_shared<Graph>();
    std::map<const Node*, Argument> valueOf;  // a node of either graph -> its value in the joined one
    std::function<Argument(const Argument&)> remap = [&](const Argument& a) {
        if (a.kind == Argument::Kind::Constant) return a;
        if (a.kind == Argument::Kind::NodeRef) {
            Argument r = valueOf.at(a.node);
            if (a.outputIndex >= 0) r.outputIndex = a.outputIndex;
            return r;
        }
        Argument r = a;
        for (auto& item : r.items) item = remap(item);
        return r;
    };
    auto copyNodes = [&](const Graph& graph, const std::function<std::optional<Argument>(int placeholder)>& wired) {
        int placeholder = 0;
        for (const auto& n : graph.nodes()) {
            if (n->op == NodeOp::Placeholder) {
                std::optional<Argument> w = wired(placeholder++);
                valueOf[n.get()] = w ? *w : Argument::ref(joined->addPlaceholder(n->target, n->meta.at(0)));
                continue;
            }
            valueOf[n.get()] = Argument::ref(joined->addCopyOf(*n, remap));
        }
    };
    copyNodes(before, [](int) { return std::nullopt; });
    copyNodes(after, [&](int k) -> std::optional<Argument> {
        if (k >= static_cast<int>(afterReads.size()) || afterReads[k] < 0) return std::nullopt;
        return remap(before.outputs().at(afterReads[k]));
    });
    std::vector<Argument> outputs;
    for (const auto& a : after.outputs()) outputs.push_back(remap(a));
    for (size_t i = 0; i < before.outputs().size(); ++i)
        if (std::find(afterReads.begin(), afterReads.end(), static_cast<int>(i)) == afterReads.end())
            outputs.push_back(remap(before.outputs()[i]));
    joined->setOutputs(std::move(outputs));
    return joined;
}

std::optional<int> scheduledKernelCount(const Graph& graph, const CompileSettings& settings) {
    try {
        std::shared_ptr<Graph> transformed = decomposeForInductor(graph, settings.testHooks);
        LoweredGraph lowered = lowerGraph(*transformed, settings);
        return static_cast<int>(schedule(lowered, settings.inductor).kernels.size());
    } catch (const Error&) {  // an op without a lowering, sizes it can't express: inductor runs it eagerly
        return std::nullopt;
    }
}

}  // namespace fusescope
