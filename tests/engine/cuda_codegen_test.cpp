// CUDA code generation and the NVRTC toolchain, on graphs built op by op: one __global__
// kernel per fused group, compiled to PTX (and a cubin) for sm_90 without a GPU, with the
// same kernel names in the source, the launch plan and the PTX's entries.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>

#include "codegen/cuda/cuda_codegen.h"
#include "decompose/decompose.h"
#include "decompose/graph_builder.h"
#include "lower/lowering.h"
#include "schedule/scheduler.h"
#include "toolchain/cuda/cuda_compiler.h"

namespace fusescope {
namespace {

TensorMeta metaOf(const Shape& sizes, DType dtype = DType::Float32, std::vector<std::string> symbols = {}) {
    if (symbols.empty()) symbols.resize(sizes.size());
    return TensorMeta{sizes, contiguousStrides(sizes), dtype, symbols};
}

Argument number(double v) { return Argument::value(IValue(v)); }
Argument ints(std::vector<int64_t> v) { return Argument::value(IValue::intList(v)); }

// A graph with inputs of the given metas; `body` adds its ops and returns the outputs.
struct BuiltGraph {
    std::shared_ptr<Graph> graph = std::make_shared<Graph>();
    std::shared_ptr<const Graph> decomposed;  // the lowered buffers point to its nodes
    LoweredGraph lowered;
    Schedule schedule;
    GeneratedCuda cuda;
};

template <class Body>
std::unique_ptr<BuiltGraph> build(const std::vector<TensorMeta>& inputs, Body body) {
    auto g = std::make_unique<BuiltGraph>();
    GraphBuilder b(*g->graph);
    std::vector<Argument> args;
    for (size_t i = 0; i < inputs.size(); ++i) args.push_back(Argument::ref(b.placeholder("L['x" + std::to_string(i) + "']", inputs[i])));
    auto call = [&](const char* op, std::vector<Argument> a) { return Argument::ref(b.call(op, std::move(a))); };
    g->graph->setOutputs(body(call, args));
    g->decomposed = decomposeForInductor(*g->graph);
    g->lowered = lowerGraph(*g->decomposed);
    g->schedule = schedule(g->lowered);
    g->cuda = generateCuda(g->lowered, g->schedule);
    return g;
}

std::set<std::string> ptxEntries(const std::string& ptx) {
    std::set<std::string> names;
    static const std::regex entry(R"(\.entry\s+(\w+)\()");
    for (std::sregex_iterator it(ptx.begin(), ptx.end(), entry), end; it != end; ++it) names.insert((*it)[1]);
    return names;
}

CudaModuleCode compileOrSkip(const GeneratedCuda& cuda, const std::string& arch = CudaCompiler::kDefaultArch) {
    return CudaCompiler::compile(cuda.source, "output_code.cu", arch);
}

#define SKIP_WITHOUT_NVRTC()                                                                           \
    if (!CudaCompiler::available()) GTEST_SKIP() << "no CUDA toolkit: " << CudaCompiler::unavailableReason()

TEST(CudaCodegen, PointwiseChainIsOneGridStrideKernelCompiledForSm90) {
    auto g = build({metaOf({1024, 64})}, [](auto call, auto x) {
        Argument y = call("mul", {x[0], number(2.0)});
        y = call("add", {y, number(1.0)});
        y = call("relu", {y});
        y = call("exp", {y});
        return std::vector<Argument>{call("sub", {y, x[0]})};
    });
    ASSERT_EQ(g->cuda.kernelNames, (std::vector<std::string>{"cuda_fused_mul_add_relu_0"}));
    const std::string& src = g->cuda.source;
    EXPECT_NE(src.find("extern \"C\" __global__ void cuda_fused_mul_add_relu_0(const float* __restrict__ arg0_1, "
                       "float* __restrict__ buf0)"),
              std::string::npos)
        << src;
    // Grid-stride, four iterations at a time with no bound check inside them, then the rest.
    EXPECT_NE(src.find("const int64_t xindex_stride = (int64_t)gridDim.x * blockDim.x;\n"
                       "        for (; xindex_base + 3 * xindex_stride < 65536L; xindex_base += 4 * xindex_stride) {\n"
                       "            #pragma unroll\n"
                       "            for (int u = 0; u < 4; ++u) {\n"
                       "                const int64_t xindex = xindex_base + u * xindex_stride;\n"),
              std::string::npos)
        << src;
    EXPECT_NE(src.find("for (; xindex_base < 65536L; xindex_base += xindex_stride) {"), std::string::npos);
    EXPECT_NE(src.find("float m0_exp = fs_exp("), std::string::npos);
    // Before that loop, 16-byte vectors (when both buffers are aligned); it takes what is left.
    EXPECT_NE(src.find("const int64_t fs_vectors = (reinterpret_cast<unsigned long>(arg0_1) % sizeof(fs_vec<float, 4>) == 0) && "
                       "(reinterpret_cast<unsigned long>(buf0) % sizeof(fs_vec<float, 4>) == 0) ? (65536L) / 4 : 0;"),
              std::string::npos)
        << src;
    EXPECT_NE(src.find("fs_vec<float, 4> fs_vec0 = reinterpret_cast<const fs_vec<float, 4>*>(arg0_1)[xvec];\n"), std::string::npos);
    EXPECT_NE(src.find("float m0_load = fs_vec0.v[v];\n"), std::string::npos);
    EXPECT_NE(src.find("fs_vec1.v[v] = m0_sub;\n"), std::string::npos) << src;
    EXPECT_NE(src.find("reinterpret_cast<fs_vec<float, 4>*>(buf0)[xvec] = fs_vec1;\n"), std::string::npos);
    EXPECT_NE(src.find("int64_t xindex_base = fs_vectors * 4 + blockIdx.x * (int64_t)blockDim.x + threadIdx.x;"), std::string::npos);
    ASSERT_EQ(g->cuda.steps.size(), 1u);
    EXPECT_EQ(g->cuda.steps[0].kind, CudaLaunchStep::Kind::Pointwise);
    EXPECT_EQ(g->cuda.steps[0].elements.str(), "65536");
    EXPECT_NE(src.find("//     cuda_fused_mul_add_relu_0<<<blocks_for(65536), 256>>>(arg0_1, buf0)"), std::string::npos) << src;

    SKIP_WITHOUT_NVRTC();
    CudaModuleCode code = compileOrSkip(g->cuda);
    EXPECT_NE(code.ptx.find(".target sm_90"), std::string::npos);
    EXPECT_EQ(ptxEntries(code.ptx), (std::set<std::string>{"cuda_fused_mul_add_relu_0"}));
    EXPECT_NE(code.ptx.find(".loc"), std::string::npos) << "no line info";
    EXPECT_TRUE(std::regex_search(code.ptx, std::regex(R"(ld\.global(\.nc)?\.v4\.f32)"))) << "no vector loads\n" << code.ptx;
    EXPECT_NE(code.ptx.find("st.global.v4.f32"), std::string::npos) << "no vector stores";
    EXPECT_GT(code.compileSeconds, 0.0);
    if (!code.cubin.empty()) {
        EXPECT_EQ(code.cubin.substr(0, 4), "\x7f" "ELF");
    }
}

// The vector's width comes from the widest buffer read or written at its own element;
// an operand broadcast along a dim is loaded per element.
TEST(CudaCodegen, APointwiseKernelsVectorsHold16BytesOfItsWidestBufferAndBroadcastsLoadPerElement) {
    auto g = build({metaOf({64, 1000}), metaOf({1000}), metaOf({64, 1000}, DType::Float64)}, [](auto call, auto x) {
        Argument sum = call("add", {x[0], x[1]});
        return std::vector<Argument>{sum, call("gt", {sum, x[2]})};
    });
    ASSERT_EQ(g->cuda.kernelNames.size(), 1u);
    const std::string& src = g->cuda.source;
    EXPECT_NE(src.find("? (64000L) / 2 : 0;  // vectors of 2 elements"), std::string::npos) << src;
    EXPECT_NE(src.find("fs_vec<double, 2> "), std::string::npos);
    EXPECT_NE(src.find("fs_vec<bool, 2> "), std::string::npos);
    EXPECT_NE(src.find("= arg1_1[m0_get_index_1];"), std::string::npos) << "the broadcast row, per element\n" << src;
    // The sum the second output compares is the first's register, not a load of it.
    EXPECT_EQ(src.find("buf0[m1_"), std::string::npos) << src;

    SKIP_WITHOUT_NVRTC();
    CudaModuleCode code = compileOrSkip(g->cuda);
    EXPECT_TRUE(std::regex_search(code.ptx, std::regex(R"(ld\.global(\.nc)?\.v2\.f64)"))) << "no vector loads of the doubles";
}

TEST(CudaCodegen, SoftmaxIsOneBlockReductionKernel) {
    auto g = build({metaOf({64, 100})}, [](auto call, auto x) {
        return std::vector<Argument>{call("softmax", {x[0], Argument::value(IValue(int64_t(-1)))})};
    });
    ASSERT_EQ(g->cuda.kernelNames.size(), 1u) << g->cuda.source;
    const CudaLaunchStep& step = g->cuda.steps[0];
    EXPECT_EQ(step.kind, CudaLaunchStep::Kind::Reduction);
    EXPECT_EQ(step.elements.str(), "64");
    EXPECT_EQ(step.reductionElements.str(), "100");
    const std::string& src = g->cuda.source;
    EXPECT_NE(src.find("for (int64_t xindex = blockIdx.x; xindex < 64L; xindex += gridDim.x)"), std::string::npos) << src;
    EXPECT_NE(src.find("fs_block_reduce<float>(m0_acc, -__builtin_inff(), fs_max())"), std::string::npos) << src;
    EXPECT_NE(src.find("fs_block_reduce<float>(m1_acc, 0.0f, fs_sum())"), std::string::npos) << src;
    // A row of 100 is persistent: 32 threads keep 4 elements each in registers.
    EXPECT_NE(src.find("//     cuda_fused_amax_sub_exp_0<<<64, 32>>>(arg0_1, buf0, buf1, buf2)  # a block per row of 100, kept in registers"),
              std::string::npos) << src;
    EXPECT_EQ(step.threads, 32);
    EXPECT_NE(src.find("float fs_row0[4];  // this thread's elements of arg0_1[100*c0 + c1]"), std::string::npos) << src;
    // 100 and the thread's 4 divide by 4: each thread takes a run of 4 contiguous elements,
    // loaded once, before the max, as one vector; 32 * 4 overruns the row, hence the check.
    EXPECT_NE(src.find("            const int64_t rindex = (threadIdx.x + u / 4 * 32L) * 4;\n"
                       "            if (rindex < 100) {\n"
                       "                int64_t c1 = rindex;\n"
                       "                fs_load_run<4>(fs_row0 + u, &arg0_1[(100L*c0 + c1)]);\n"),
              std::string::npos) << src;
    EXPECT_NE(src.find("const int64_t rindex = (threadIdx.x + u / 4 * 32L) * 4 + u % 4;"), std::string::npos) << src;
    EXPECT_NE(src.find("float m0_load = fs_row0[u];"), std::string::npos) << "the max reads the registers";
    EXPECT_NE(src.find("float m1_load = fs_row0[u];"), std::string::npos) << "so does the sum";
    EXPECT_NE(src.find("float m2_load = fs_row0[u];"), std::string::npos) << "so does the output";
    EXPECT_NE(src.find("fs_out2_0[u] = m2_mul;"), std::string::npos) << "the output is stored in runs after its loop";
    EXPECT_NE(src.find("fs_store_run<4>(&buf2[(100L*c0 + c1)], fs_out2_0 + u);"), std::string::npos) << src;
    // The later members read the row's max and sum from variables, so no barrier follows a
    // member (the block reductions wait before they reuse their shared memory).
    EXPECT_EQ(src.find("__syncthreads", src.find("extern \"C\" __global__")), std::string::npos) << src;
    EXPECT_EQ(cudaReductionThreads(100), 128);
    EXPECT_EQ(cudaReductionThreads(3), 32);
    EXPECT_EQ(cudaReductionThreads(1 << 20), kCudaReductionThreads);

    SKIP_WITHOUT_NVRTC();
    CudaModuleCode code = compileOrSkip(g->cuda);
    EXPECT_EQ(ptxEntries(code.ptx), (std::set<std::string>(g->cuda.kernelNames.begin(), g->cuda.kernelNames.end())));
    EXPECT_NE(code.ptx.find("shfl.sync.down"), std::string::npos) << "no warp shuffles";
    EXPECT_EQ(code.ptx.find(".local"), std::string::npos) << "the row's registers spilled to local memory";
    EXPECT_NE(code.ptx.find("ld.global.nc.v4.f32"), std::string::npos) << "no vector loads of runs";
    EXPECT_NE(code.ptx.find("st.global.v4.f32"), std::string::npos) << "no vector stores of runs";
}

TEST(CudaCodegen, ARowThatDoesNotDivideIntoRunsLoadsEachElementInItsFirstMember) {
    auto g = build({metaOf({16, 30})}, [](auto call, auto x) {
        return std::vector<Argument>{call("softmax", {x[0], Argument::value(IValue(int64_t(-1)))})};
    });
    const std::string& src = g->cuda.source;
    EXPECT_EQ(g->cuda.steps[0].threads, 32);
    EXPECT_NE(src.find("const int64_t rindex = threadIdx.x + u * 32L;"), std::string::npos) << src;
    EXPECT_NE(src.find("float m0_load = (fs_row0[u] = arg0_1[m0_get_index]);"), std::string::npos) << src;
    EXPECT_NE(src.find("float m1_load = fs_row0[u];"), std::string::npos) << "the sum reads the registers the max filled";
    EXPECT_EQ(src.find("fs_load_run"), src.rfind("fs_load_run")) << "only the prelude's definition";
    EXPECT_EQ(src.find("fs_store_run<"), std::string::npos) << src;
}

TEST(CudaCodegen, LayerNormArgmaxAndIntegerOpsCompile) {
    auto g = build({metaOf({32, 48}), metaOf({48}), metaOf({48}), metaOf({32, 48}, DType::Int64)}, [](auto call, auto x) {
        Argument ln = call("layer_norm", {x[0], ints({48}), x[1], x[2]});
        Argument arg = call("argmax", {x[0], Argument::value(IValue(int64_t(1)))});
        Argument q = call("floor_divide", {x[3], Argument::value(IValue(int64_t(3)))});
        Argument total = call("sum", {x[0]});
        return std::vector<Argument>{ln, arg, q, total};
    });
    EXPECT_NE(g->cuda.source.find("fs_block_arg_reduce("), std::string::npos);
    EXPECT_NE(g->cuda.source.find("fs_floordiv("), std::string::npos);
    SKIP_WITHOUT_NVRTC();
    CudaModuleCode code = compileOrSkip(g->cuda);
    EXPECT_EQ(ptxEntries(code.ptx), (std::set<std::string>(g->cuda.kernelNames.begin(), g->cuda.kernelNames.end())));
}

TEST(CudaCodegen, AWholeTensorReductionIsSplitAcrossBlocksUpToItsFirstDependentMember) {
    // sum and amax read only the input: split. The variance's second pass reads the mean the
    // kernel itself computed, so it runs after the blocks' partials are combined.
    auto g = build({metaOf({1000, 1000})}, [](auto call, auto x) {
        return std::vector<Argument>{call("sum", {x[0]}), call("amax", {x[0]}), call("var", {x[0]})};
    });
    ASSERT_EQ(g->cuda.steps.size(), 1u);
    const CudaLaunchStep& step = g->cuda.steps[0];
    EXPECT_EQ(step.kind, CudaLaunchStep::Kind::Reduction);
    EXPECT_TRUE(step.splitRow);
    EXPECT_EQ(cudaSplitMembers(g->schedule.kernels[0]), 3);  // sum, amax, and the variance's mean
    EXPECT_EQ(cudaSplitBlocks(1000000), 489);                // 2048 elements per block
    EXPECT_EQ(cudaSplitBlocks(1LL << 30), kCudaSplitBlocks);
    const std::string& src = g->cuda.source;
    EXPECT_NE(src.find("static __device__ float m0_partials[1024];"), std::string::npos) << src;
    EXPECT_NE(src.find("static __device__ float m2_partials[1024];"), std::string::npos) << src;
    EXPECT_EQ(src.find("m3_partials"), std::string::npos) << src;
    EXPECT_NE(src.find("        if (!fs_last_block(&fs_done)) return;\n"), std::string::npos) << src;
    EXPECT_NE(src.find("<<<489, 256>>>"), std::string::npos) << src;
    EXPECT_NE(src.find("# one row of 1000000 split across blocks"), std::string::npos) << src;
    // The blocks stride over runs of 4 contiguous elements, a vector load each, and a
    // thread's run reads its elements from registers; 1000000 divides by 4: no tail.
    EXPECT_NE(src.find("for (; rrun_base + 3 * rrun_stride < 1000000L / 4; rrun_base += 4 * rrun_stride) {"), std::string::npos) << src;
    EXPECT_NE(src.find("fs_load_run<4>(fs_run0, &arg0_1[c0]);"), std::string::npos) << src;
    EXPECT_NE(src.find("float m0_load = fs_run0[v];"), std::string::npos) << src;
    EXPECT_EQ(src.find("for (int64_t rindex = (1000000L / 4) * 4"), std::string::npos) << src;

    // A reduction per row of a matrix is not split: a block per row fills the GPU.
    auto rows = build({metaOf({1000, 1000})}, [](auto call, auto x) { return std::vector<Argument>{call("sum", {x[0], ints({1})})}; });
    EXPECT_FALSE(rows->cuda.steps[0].splitRow);
    EXPECT_EQ(cudaSplitMembers(rows->schedule.kernels[0]), 0);

    SKIP_WITHOUT_NVRTC();
    CudaModuleCode code = compileOrSkip(g->cuda);
    EXPECT_NE(code.ptx.find("atom.global.add.u32"), std::string::npos) << "the last block's ticket";
    EXPECT_NE(code.ptx.find("ld.global.nc.v4.f32"), std::string::npos) << "no vector loads of runs";
    EXPECT_EQ(code.ptx.find(".local"), std::string::npos) << "a run's registers spilled to local memory";

    // A row that does not divide into runs ends with the elements after the last run.
    auto odd = build({metaOf({1001})}, [](auto call, auto x) { return std::vector<Argument>{call("sum", {x[0]})}; });
    EXPECT_NE(odd->cuda.source.find("for (int64_t rindex = (1001L / 4) * 4 + blockIdx.x * (int64_t)blockDim.x + threadIdx.x; "
                                    "rindex < 1001L; rindex += (int64_t)gridDim.x * blockDim.x) {"),
              std::string::npos)
        << odd->cuda.source;
}

TEST(CudaCodegen, DynamicSizesArePassedAsSymbols) {
    auto g = build({metaOf({8, 16}, DType::Float32, {"s0", ""})}, [](auto call, auto x) {
        return std::vector<Argument>{call("sum", {call("sin", {x[0]}), Argument::value(IValue(int64_t(1)))})};
    });
    ASSERT_EQ(g->cuda.steps.size(), 1u);
    EXPECT_EQ(g->cuda.steps[0].args.back(), "s0");
    EXPECT_EQ(g->cuda.steps[0].elements.str(), "s0");
    EXPECT_NE(g->cuda.source.find(", int64_t s0)"), std::string::npos) << g->cuda.source;
    SKIP_WITHOUT_NVRTC();
    EXPECT_EQ(ptxEntries(compileOrSkip(g->cuda).ptx).size(), 1u);
}

TEST(CudaCodegen, MatmulIsAnExternStepOfTheLaunchPlan) {
    auto g = build({metaOf({16, 32}), metaOf({32, 8})}, [](auto call, auto x) {
        return std::vector<Argument>{call("relu", {call("mm", {x[0], x[1]})})};
    });
    ASSERT_EQ(g->cuda.steps.size(), 2u);
    EXPECT_EQ(g->cuda.steps[0].kind, CudaLaunchStep::Kind::Extern);
    EXPECT_EQ(g->cuda.steps[0].kernel, "extern_kernels.mm");
    EXPECT_EQ(g->cuda.bufferKernels.at("buf0"), "extern_kernels.mm");
    EXPECT_NE(g->cuda.source.find("//     extern_kernels.mm(arg0_1, arg1_1, buf0)  # cuBLAS"), std::string::npos) << g->cuda.source;
    EXPECT_NE(g->cuda.source.find("//     buf0 = empty_strided_cuda((16, 8), (8, 1), torch.float32)"), std::string::npos);
}

TEST(CudaCodegen, EachBufferKnowsItsLinesInTheSource) {
    auto g = build({metaOf({4, 8})}, [](auto call, auto x) {
        Argument s = call("sum", {x[0], Argument::value(IValue(int64_t(1)))});
        return std::vector<Argument>{s, call("cos", {x[0]})};
    });
    std::vector<std::string> lines;
    for (size_t start = 0, end; (end = g->cuda.source.find('\n', start)) != std::string::npos; start = end + 1)
        lines.push_back(g->cuda.source.substr(start, end - start));
    for (const auto& [buffer, ranges] : g->cuda.bufferLines) {
        ASSERT_FALSE(ranges.empty()) << buffer;
        bool mentioned = false;
        for (auto [first, last] : ranges)
            for (int l = first; l <= last; ++l) mentioned |= lines.at(l - 1).find(buffer) != std::string::npos;
        EXPECT_TRUE(mentioned) << buffer << " is on none of its lines";
    }
    EXPECT_EQ(g->cuda.bufferKernels.size(), 2u);
}

TEST(CudaCompiler, AnotherArchitectureOnRequest) {
    SKIP_WITHOUT_NVRTC();
    CudaModuleCode code = CudaCompiler::compile(cudaPrelude() + "extern \"C\" __global__ void k(float* x) { x[0] = 1; }\n",
                                                "k.cu", "sm_80");
    EXPECT_EQ(code.arch, "sm_80");
    EXPECT_NE(code.ptx.find(".target sm_80"), std::string::npos);
}

TEST(CudaCompiler, ACompileErrorNamesTheLine) {
    SKIP_WITHOUT_NVRTC();
    try {
        CudaCompiler::compile("extern \"C\" __global__ void k(float* x) {\n    x[0] = undefined_name;\n}\n", "broken.cu");
        FAIL() << "no error";
    } catch (const CudaCompileError& e) {
        EXPECT_NE(std::string(e.what()).find("broken.cu(2): error: identifier \"undefined_name\" is undefined"), std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace fusescope
