#pragma once
// Kernels whose code differs only in the names of the buffers they take are defined once
// and called with each group's buffers, as inductor's wrapper keeps one definition per
// source text: a model's repeated layers then cost one kernel to compile, not one per layer.

#include <string>
#include <unordered_map>
#include <vector>

#include "codegen/common/kernel_code.h"

namespace fusescope {

// `kernel`'s code without its comment lines (they name graph nodes and buffers), its own
// name as `$K` and each of its buffers as `$<position>`: equal for kernels that differ only
// in what they are called and on which buffers.
std::string kernelShape(const KernelCode& kernel, const std::string& name);

class KernelReuse {
public:
    // Adds the kernel written for `group` under `name` to `kernels`, unless an earlier one
    // there has the same code up to buffer names and its own name: that one then also
    // computes `group`. Returns the name to call.
    std::string add(std::vector<GroupKernel>& kernels, KernelCode kernel, const KernelGroup& group, const std::string& name);

private:
    std::unordered_map<std::string, size_t> byShape_;  // code with names made positional -> index in kernels
};

}  // namespace fusescope
