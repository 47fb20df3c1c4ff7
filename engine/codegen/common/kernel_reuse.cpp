#include "codegen/common/kernel_reuse.h"

#include <cctype>
#include <string_view>

namespace fusescope {

namespace {

bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

std::string kernelShape(const KernelCode& kernel, const std::string& name) {
    std::unordered_map<std::string_view, size_t> position;
    for (size_t i = 0; i < kernel.buffers.size(); ++i) position[kernel.buffers[i]] = i;
    std::string shape;
    shape.reserve(kernel.code.size());
    std::string_view code = kernel.code;
    for (size_t lineStart = 0; lineStart < code.size();) {
        size_t lineEnd = code.find('\n', lineStart);
        lineEnd = lineEnd == std::string_view::npos ? code.size() : lineEnd + 1;
        std::string_view line = code.substr(lineStart, lineEnd - lineStart);
        lineStart = lineEnd;
        size_t text = line.find_first_not_of(' ');
        if (text != std::string_view::npos && line.substr(text, 2) == "//") continue;
        for (size_t i = 0; i < line.size();) {
            if (!isIdentifierChar(line[i])) {
                shape += line[i++];
                continue;
            }
            size_t end = i;
            while (end < line.size() && isIdentifierChar(line[end])) ++end;
            std::string_view word = line.substr(i, end - i);
            if (word == name) shape += "$K";
            else if (auto p = position.find(word); p != position.end()) shape += "$" + std::to_string(p->second);
            else shape += word;
            i = end;
        }
    }
    return shape;
}

std::string KernelReuse::add(std::vector<GroupKernel>& kernels, KernelCode kernel, const KernelGroup& group,
                             const std::string& name) {
    // Equal code has equal members; the count in the key keeps line tags in range regardless.
    std::string key = kernelShape(kernel, name) + "#" + std::to_string(group.nodes.size());
    auto [it, first] = byShape_.try_emplace(std::move(key), kernels.size());
    if (!first) {
        GroupKernel& earlier = kernels[it->second];
        earlier.reusedBy.push_back(&group);
        return earlier.name;
    }
    kernels.push_back({std::move(kernel), &group, {}, name});
    return name;
}

}  // namespace fusescope
