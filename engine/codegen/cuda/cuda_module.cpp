// The CUDA module: prelude, kernels, and the launch plan, also written at the end of the
// source as comments (what each step allocates and launches).

#include <fmt/format.h>

#include "codegen/common/kernel_reuse.h"
#include "codegen/cuda/cuda_codegen.h"

namespace fusescope {

namespace {

std::string layoutTuple(const std::vector<IndexExpr>& values) {
    std::string out;
    for (const auto& v : values) out += (out.empty() ? "" : ", ") + v.str();
    return "(" + out + (values.size() == 1 ? ",)" : ")");
}

std::string launchComment(const CudaLaunchStep& step) {
    std::string args = fmt::format("{}", fmt::join(step.args, ", "));
    if (step.kind == CudaLaunchStep::Kind::Extern) return fmt::format("//     {}({})  # cuBLAS\n", step.kernel, args);
    if (step.kind == CudaLaunchStep::Kind::Pointwise)
        return fmt::format("//     {}<<<blocks_for({}), {}>>>({})\n", step.kernel, step.elements.str(), kCudaPointwiseThreads,
                           args);
    auto rowLength = step.reductionElements.constant();
    if (step.splitRow)
        return fmt::format("//     {}<<<{}, {}>>>({})  # one row of {} split across blocks\n", step.kernel,
                           rowLength ? std::to_string(cudaSplitBlocks(*rowLength)) : "split_blocks_for(" + step.reductionElements.str() + ")",
                           kCudaReductionThreads, args, step.reductionElements.str());
    if (step.threads)
        return fmt::format("//     {}<<<{}, {}>>>({})  # a block per row of {}, kept in registers\n", step.kernel, step.elements.str(),
                           step.threads, args, step.reductionElements.str());
    std::string threads = rowLength ? std::to_string(cudaReductionThreads(*rowLength))
                                    : fmt::format("threads_for({})", step.reductionElements.str());
    return fmt::format("//     {}<<<{}, {}>>>({})  # a block per row of {}\n", step.kernel, step.elements.str(), threads, args,
                       step.reductionElements.str());
}

}  // namespace

GeneratedCuda generateCuda(const LoweredGraph& graph, const Schedule& schedule, bool plantFault) {
    GeneratedCuda gen;
    gen.language = "cuda";
    gen.outputBuffers = computedOutputBuffers(graph);
    std::vector<GroupKernel> kernels;
    KernelReuse reuse;
    for (const auto& k : schedule.kernels) {
        CudaLaunchStep step;
        if (k.node->kind == SchedulerNode::Kind::Extern) {
            const Buffer& b = *k.node->buffer;
            step.kind = CudaLaunchStep::Kind::Extern;
            step.kernel = fmt::format("extern_kernels.{}", externKernelName(b.externKernel));
            for (const auto& op : b.operands) step.args.push_back(op.buffer);
            step.args.push_back(b.name);
            step.computes = {b.name};
            gen.bufferKernels[b.name] = step.kernel;
            gen.steps.push_back(std::move(step));
            continue;
        }
        std::string fresh = fusedKernelName("cuda", k, gen.kernelNames.size());
        KernelCode kernel = cudaKernel(k, fresh, graph, plantFault);
        step.kind = k.reductionSizes.empty() ? CudaLaunchStep::Kind::Pointwise : CudaLaunchStep::Kind::Reduction;
        step.args = kernel.buffers;
        for (const auto& s : graph.symbols) step.args.push_back(s.name);
        step.kernel = reuse.add(kernels, std::move(kernel), k, fresh);
        if (step.kernel == fresh) gen.kernelNames.push_back(step.kernel);
        step.elements = product(k.pointwiseSizes);
        step.reductionElements = product(k.reductionSizes);
        step.splitRow = cudaSplitMembers(k) > 0;
        step.threads = cudaPersistentThreads(k);
        for (const auto* n : k.nodes) {
            step.computes.push_back(n->name);
            gen.bufferKernels[n->name] = step.kernel;
        }
        gen.steps.push_back(std::move(step));
    }

    SourceBuilder out(gen.source, gen.bufferLines);
    out.addModuleStart(cudaPrelude(), kernels);
    std::string inputs;
    for (const auto& in : graph.inputs) inputs += (inputs.empty() ? "" : ", ") + in.name;
    out.add(fmt::format("\n// Launch plan (run by Fusescope's CUDA runtime):\n// def call({}):\n", inputs));
    for (const auto& node : schedule.nodes) {
        const Buffer& b = *node->buffer;
        out.add(fmt::format("//     {} = empty_strided_cuda({}, {}, {})\n", b.name, layoutTuple(b.layout.size),
                            layoutTuple(b.layout.stride), dtypeName(b.layout.dtype)),
                {b.name});
    }
    for (const auto& step : gen.steps) out.add(launchComment(step), step.computes);
    std::string returned;
    for (const auto& o : graph.outputs) returned += o.buffer + ", ";
    out.add(fmt::format("//     return ({})\n", returned.substr(0, returned.size() - (returned.empty() ? 0 : 2)) +
                                                   (graph.outputs.size() == 1 ? "," : "")));
    return gen;
}

}  // namespace fusescope
