#include "codegen/common/kernel_code.h"

#include <algorithm>

#include <fmt/format.h>

namespace fusescope {

void KernelCode::add(const std::string& text, int member) {
    code += text;
    lineMembers.insert(lineMembers.end(), std::count(text.begin(), text.end(), '\n'), member);
}

void SourceBuilder::add(const std::string& text, const std::vector<std::string>& buffers) {
    int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n'));
    for (const auto& b : buffers) tag(b, nextLine_, nextLine_ + lines - 1);
    source_ += text;
    nextLine_ += lines;
}

void SourceBuilder::addKernel(const GroupKernel& kernel) {
    tagKernelLines(kernel.kernel, *kernel.group, nextLine_);
    for (const KernelGroup* group : kernel.reusedBy) tagKernelLines(kernel.kernel, *group, nextLine_);
    source_ += kernel.kernel.code;
    nextLine_ += static_cast<int>(kernel.kernel.lineMembers.size());
}

void SourceBuilder::addModuleStart(const std::string& prelude, const std::vector<GroupKernel>& kernels) {
    add(prelude);
    for (const auto& kernel : kernels) {
        add("\n");
        addKernel(kernel);
    }
}

void SourceBuilder::tagKernelLines(const KernelCode& kernel, const KernelGroup& group, int firstLine) {
    for (size_t i = 0; i < kernel.lineMembers.size(); ++i) {
        int line = firstLine + static_cast<int>(i);
        int m = kernel.lineMembers[i];
        if (m == KernelCode::kAllMembers)
            for (const auto* n : group.nodes) tag(n->name, line, line);
        else
            tag(group.nodes[static_cast<size_t>(m)]->name, line, line);
    }
}

void SourceBuilder::tag(const std::string& buffer, int first, int last) {
    if (last < first) return;
    LineRanges& ranges = bufferLines_[buffer];
    if (!ranges.empty() && ranges.back().second + 1 >= first) ranges.back().second = std::max(ranges.back().second, last);
    else ranges.push_back({first, last});
}

std::vector<std::string> computedOutputBuffers(const LoweredGraph& graph) {
    std::vector<std::string> buffers;
    for (const auto& o : graph.outputs)
        if (graph.findBuffer(o.buffer) && std::find(buffers.begin(), buffers.end(), o.buffer) == buffers.end())
            buffers.push_back(o.buffer);
    return buffers;
}

std::string fusedKernelName(const std::string& prefix, const KernelGroup& kernel, size_t index) {
    std::vector<std::string> ops;
    for (const auto* n : kernel.nodes)
        for (const Node* o : n->buffer->origins)
            if (std::find(ops.begin(), ops.end(), o->target) == ops.end() && ops.size() < 3) ops.push_back(o->target);
    std::string name = prefix + "_fused";
    for (auto op : ops) {
        std::replace(op.begin(), op.end(), '.', '_');
        name += "_" + op;
    }
    return fmt::format("{}_{}", name, index);
}

}  // namespace fusescope
