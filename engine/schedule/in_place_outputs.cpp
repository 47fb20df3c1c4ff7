#include "schedule/in_place_outputs.h"

#include <algorithm>

namespace fusescope {

namespace {

bool reads(const SchedulerNode& node, const std::string& name) {
    for (const auto* deps : {&node.unmetDependencies, &node.metDependencies})
        for (const Dep& d : *deps)
            if (d.name == name) return true;
    return false;
}

// The same elements at the same places, from the start of the storage.
bool sameGeometry(const FixedLayout& a, const FixedLayout& b) {
    return a.size == b.size && a.stride == b.stride && a.offset.isZero() && b.offset.isZero();
}

// Whether `buffer`, computed by post-fusion node `order[at]`, may be stored into `input`.
// Every read of the input must be at the element being written. In a pointwise kernel all
// members run in one loop body and the store comes after all of them (codegen defers it), so
// any member may read the input there; in a kernel with a reduction only the writer may.
bool safeInPlace(const Schedule& schedule, size_t at, const Buffer& buffer, const std::string& input) {
    for (size_t later = at + 1; later < schedule.order.size(); ++later)
        if (reads(*schedule.order[later], input)) return false;
    const KernelGroup& kernel = schedule.kernels[at];
    bool onePointwiseLoop = kernel.reductionSizes.empty();
    std::vector<const SchedulerNode*> leaves = schedule.order[at]->leaves();
    auto writer = std::find_if(leaves.begin(), leaves.end(), [&](const SchedulerNode* n) { return n->buffer == &buffer; });
    if (writer == leaves.end() || (*writer)->writes.empty() || (*writer)->isReduction()) return false;
    const Dep& written = (*writer)->writes.front();
    for (auto leaf = leaves.begin(); leaf != leaves.end(); ++leaf) {
        if ((*leaf)->kind == SchedulerNode::Kind::Extern) return false;
        for (const auto* deps : {&(*leaf)->unmetDependencies, &(*leaf)->metDependencies})
            for (const Dep& d : *deps) {
                if (d.name == buffer.name && leaf != writer) return false;  // would read it before the deferred store
                if (d.name != input) continue;
                if ((leaf != writer && !onePointwiseLoop) || d.kind != Dep::Kind::Memory || d.index != written.index ||
                    d.ranges != written.ranges)
                    return false;
            }
    }
    return true;
}

}  // namespace

std::map<std::string, int> inPlaceOutputs(const LoweredGraph& graph, const Schedule& schedule,
                                          const std::vector<std::pair<size_t, size_t>>& candidates) {
    std::map<std::string, int> chosen;
    for (const auto& [output, placeholder] : candidates) {
        if (output >= graph.outputs.size()) continue;
        const OutputSpec& spec = graph.outputs[output];
        const Buffer* buffer = graph.findBuffer(spec.buffer);
        auto input = std::find_if(graph.inputs.begin(), graph.inputs.end(),
                                  [&](const InputBuffer& in) { return in.placeholder == static_cast<int>(placeholder); });
        if (!buffer || buffer->kind != Buffer::Kind::Computed || input == graph.inputs.end() || chosen.count(buffer->name))
            continue;
        if (buffer->layout.dtype != input->layout.dtype || !sameGeometry(buffer->layout, input->layout) ||
            !sameGeometry(spec.view, buffer->layout))
            continue;
        // Another output that is the input itself (or a view of it) must keep its old values.
        if (std::any_of(graph.outputs.begin(), graph.outputs.end(), [&](const OutputSpec& o) { return o.buffer == input->name; }))
            continue;
        for (size_t at = 0; at < schedule.order.size(); ++at) {
            std::vector<const SchedulerNode*> leaves = schedule.order[at]->leaves();
            bool writes = std::any_of(leaves.begin(), leaves.end(), [&](const SchedulerNode* n) { return n->buffer == buffer; });
            if (!writes) continue;
            if (safeInPlace(schedule, at, *buffer, input->name)) chosen[buffer->name] = input->placeholder;
            break;
        }
    }
    return chosen;
}

}  // namespace fusescope
