// One CUDA kernel per kernel group (the shapes are described in cuda_codegen.h). The
// statements of each member come from the shared loop-body writer; this file lays out the
// threads around them.

#include <fmt/format.h>

#include "codegen/common/loop_statements.h"
#include "codegen/cuda/cuda_codegen.h"

namespace fusescope {

namespace {

// Block-reduction step functors of the prelude, by reduction type: fs_sum(), fs_max(), ...
std::string reductionFunctor(ReductionKind type) { return fmt::format("fs_{}()", reductionName(type)); }

// `int64_t <var> = ...;` lines that split a flat index over `sizes` (row-major) into the
// loop variables `vars`.
std::string splitIndex(const std::string& flat, const std::vector<IndexExpr>& sizes, const std::vector<std::string>& vars,
                       const std::string& pad) {
    if (vars.empty()) return "";  // a single element: nothing to split
    if (vars.size() == 1) return fmt::format("{}int64_t {} = {};\n", pad, vars[0], flat);
    std::string rest = flat + "_rest";
    std::string out = fmt::format("{}int64_t {} = {};\n", pad, rest, flat);
    for (size_t d = vars.size(); d-- > 1;)
        out += fmt::format("{}int64_t {} = {} % ({}); {} /= ({});\n", pad, vars[d], rest, sizes[d].cstr(), rest, sizes[d].cstr());
    out += fmt::format("{}int64_t {} = {};\n", pad, vars[0], rest);
    return out;
}

class CudaKernelWriter {
public:
    CudaKernelWriter(const KernelGroup& k, const LoweredGraph& g) : k_(k), g_(g) {}

    KernelCode write(const std::string& name) {
        KernelCode out = startKernel(k_, g_, "extern \"C\" __global__ void", name, "__restrict__");
        std::string rows = product(k_.pointwiseSizes).cstr();
        std::vector<std::string> outerVars = vars(0, k_.pointwiseSizes.size());
        if (k_.reductionSizes.empty()) {
            out.add(fmt::format("    for (int64_t xindex = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; xindex < {}; "
                                "xindex += (int64_t)gridDim.x * blockDim.x) {{\n",
                                rows),
                    KernelCode::kAllMembers);
            out.add(splitIndex("xindex", k_.pointwiseSizes, outerVars, "        "), KernelCode::kAllMembers);
            for (int m = 0; m < static_cast<int>(k_.nodes.size()); ++m)
                out.add(loopStatements(k_.bodies[m], memberPrefix(m), "        ", nullptr), m);
        } else {
            out.add(fmt::format("    for (int64_t xindex = blockIdx.x; xindex < {}; xindex += gridDim.x) {{\n", rows),
                    KernelCode::kAllMembers);
            out.add(splitIndex("xindex", k_.pointwiseSizes, outerVars, "        "), KernelCode::kAllMembers);
            for (int m = 0; m < static_cast<int>(k_.nodes.size()); ++m) out.add(member(m, "        "), m);
        }
        out.add("    }\n}\n", KernelCode::kAllMembers);
        return out;
    }

private:
    // The loop variables of dims [first, last): the bodies name them c0, c1, ...
    std::vector<std::string> vars(size_t first, size_t last) const {
        std::vector<std::string> names;
        for (size_t d = first; d < last; ++d) names.push_back(fmt::format("c{}", d));
        return names;
    }

    // The block's threads over the row's reduced elements; `body` runs with its variables set.
    std::string rowLoop(const std::string& pad, const std::string& body) const {
        size_t p = k_.pointwiseSizes.size();
        std::string out = fmt::format("{}for (int64_t rindex = threadIdx.x; rindex < {}; rindex += blockDim.x) {{\n", pad,
                                      product(k_.reductionSizes).cstr());
        out += splitIndex("rindex", k_.reductionSizes, vars(p, p + k_.reductionSizes.size()), pad + "    ");
        return out + body + pad + "}\n";
    }

    std::string member(int m, const std::string& pad) const {
        const LoopBody& body = k_.bodies[m];
        std::string prefix = memberPrefix(m);
        // Over the row only (it reads the row's results): one thread writes it.
        if (body.vars.size() == k_.pointwiseSizes.size())
            return fmt::format("{}if (threadIdx.x == 0) {{\n{}{}}}\n{}__syncthreads();\n", pad,
                               loopStatements(body, prefix, pad + "    ", nullptr), pad, pad);
        if (!k_.nodes[m]->isReduction())
            return rowLoop(pad, loopStatements(body, prefix, pad + "    ", nullptr)) + pad + "__syncthreads();\n";
        const LoopOp& red = reductionOpOf(body);
        const LoopOp& store = storeOpOf(body);
        std::string storeIndex = body.indices[body.ops[store.args[0]].index].cstr();
        std::string in = pad + "    ";
        std::string value;
        std::string statements = loopStatements(body, prefix, in + "    ", &value);
        std::string srcType = dtypeCType(red.srcDtype);
        std::string init = reductionInit(red.reductionKind, red.srcDtype);
        std::string out = pad + "{\n";
        if (isArgReduction(red.reductionKind)) {
            bool isMax = red.reductionKind == ReductionKind::ArgMax;
            out += fmt::format("{}{} {}best = {};\n{}int64_t {}best_index = 0;\n", in, srcType, prefix, init, in, prefix);
            out += rowLoop(in, statements + fmt::format("{}    if (fs_arg_better({}, rindex, {}best, {}best_index, {})) {}best = {}, "
                                                        "{}best_index = rindex;\n",
                                                        in, value, prefix, prefix, isMax, prefix, value, prefix));
            out += fmt::format("{}int64_t {}acc = fs_block_arg_reduce({}best, {}best_index, {});\n", in, prefix, prefix, prefix,
                               isMax);
        } else {
            std::string type = dtypeCType(red.dtype);
            out += fmt::format("{}{} {}acc = {};\n", in, type, prefix, init);
            out += rowLoop(in, statements + fmt::format("{}    {}acc = {};\n", in, prefix,
                                                        reductionCombine(red.reductionKind, prefix + "acc", value)));
            out += fmt::format("{}{}acc = fs_block_reduce<{}>({}acc, {}, {});\n", in, prefix, type, prefix, init,
                               reductionFunctor(red.reductionKind));
        }
        out += fmt::format("{}if (threadIdx.x == 0) {}[{}] = {}acc;\n{}__syncthreads();\n{}}}\n", in, store.buffer, storeIndex, prefix,
                           in, pad);
        return out;
    }

    const KernelGroup& k_;
    const LoweredGraph& g_;
};

}  // namespace

KernelCode cudaKernel(const KernelGroup& kernel, const std::string& name, const LoweredGraph& graph) {
    return CudaKernelWriter(kernel, graph).write(name);
}

int cudaReductionThreads(int64_t rowElements) {
    int threads = 32;
    while (threads < kCudaReductionThreads && threads < rowElements) threads *= 2;
    return threads;
}

}  // namespace fusescope
