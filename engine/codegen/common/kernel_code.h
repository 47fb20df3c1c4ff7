#pragma once
// What the C++ and the CUDA code generators share: a kernel's code with each line tagged by
// the fused member it computes, the module text with the lines of each buffer (provenance,
// docs/architecture.md, principle 4), and kernel names.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "lower/ir.h"
#include "schedule/scheduler.h"

namespace fusescope {

// 1-based, inclusive line ranges of the generated source.
using LineRanges = std::vector<std::pair<int, int>>;

// One kernel's function and the buffers it takes, in parameter order (then the symbols).
// Each line of the code is tagged with the kernel member (KernelGroup::nodes index) it
// computes, or kAllMembers for the loop nest and comments every member shares.
struct KernelCode {
    static constexpr int kAllMembers = -1;
    std::string code;
    std::vector<std::string> buffers;
    std::vector<int> lineMembers;  // one per line of code

    void add(const std::string& text, int member);  // text: whole lines
};

// A generated kernel, the group it was written for, and the later groups that call the
// same code with their own buffers (kernel_reuse.h).
struct GroupKernel {
    KernelCode kernel;
    const KernelGroup* group = nullptr;
    std::vector<const KernelGroup*> reusedBy;
    std::string name;
};

// Appends text to a module's source and records which buffers each appended line computes.
class SourceBuilder {
public:
    SourceBuilder(std::string& source, std::map<std::string, LineRanges>& bufferLines)
        : source_(source), bufferLines_(bufferLines) {}

    void add(const std::string& text, const std::vector<std::string>& buffers = {});
    // A kernel's lines, each tagged with its member's buffer (or all members') in the group
    // it was written for and in each group reusing it.
    void addKernel(const GroupKernel& kernel);
    // The prelude, then each kernel after a blank line.
    void addModuleStart(const std::string& prelude, const std::vector<GroupKernel>& kernels);

private:
    void tag(const std::string& buffer, int first, int last);
    void tagKernelLines(const KernelCode& kernel, const KernelGroup& group, int firstLine);

    std::string& source_;
    std::map<std::string, LineRanges>& bufferLines_;
    int nextLine_ = 1;
};

// The computed buffers the graph returns (the caller allocates them), each once, in order.
std::vector<std::string> computedOutputBuffers(const LoweredGraph& graph);

// <prefix>_<first ops>_<index>, as Inductor names its kernels (cpp_fused_add_mul_0).
std::string fusedKernelName(const std::string& prefix, const KernelGroup& kernel, size_t index);

}  // namespace fusescope
