#include "lower/ir.h"

#include <fmt/format.h>

#include "core/error.h"

namespace fusescope {

std::string FixedLayout::str() const {
    std::string offsetText = offset.isZero() ? "" : ", offset=" + offset.str();
    return fmt::format("FixedLayout('{}', {}, size={}, stride={}{})", device.str(), dtypeName(dtype), sizesStr(size, false),
                       sizesStr(stride, false), offsetText);
}

IndexExpr FixedLayout::indexOf(const std::vector<IndexExpr>& index) const {
    IndexExpr at = offset;
    for (size_t i = 0; i < index.size() && i < stride.size(); ++i) at = at + index[i] * stride[i];
    return at;
}

bool FixedLayout::isContiguous() const {
    std::vector<IndexExpr> expected = contiguousStrides(size);
    for (size_t i = 0; i < size.size(); ++i)
        if (size[i] != IndexExpr(1) && stride[i] != expected[i]) return false;
    return offset.isZero();
}

void LoweredGraph::setDevice(const Device& device) {
    for (auto& in : inputs) in.layout.device = device;
    for (auto& b : buffers) {
        b.layout.device = device;
        for (auto& op : b.operands) op.view.device = device;
    }
    for (auto& o : outputs) o.view.device = device;
}

void LoweredGraph::addBuffer(Buffer buffer) {
    bufferIndex_[buffer.name] = buffers.size();
    buffers.push_back(std::move(buffer));
}

const Buffer* LoweredGraph::findBuffer(const std::string& name) const {
    auto it = bufferIndex_.find(name);
    return it == bufferIndex_.end() ? nullptr : &buffers[it->second];
}

const FixedLayout& LoweredGraph::layoutOf(const std::string& name) const {
    if (const Buffer* b = findBuffer(name)) return b->layout;
    for (const auto& in : inputs)
        if (in.name == name) return in.layout;
    throw Error("internal error: no buffer named " + name);
}

}  // namespace fusescope
