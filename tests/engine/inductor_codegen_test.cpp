// What the inductor backend generates: kernel counts after fusion, vector code, the on-disk
// kernel cache across processes, and the eager fallback on a compile error.

#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ops/convolution_kernel.h"
#include "test_support.h"

namespace fusescope::test {
namespace {

namespace fs = std::filesystem;

std::vector<KernelSourceEvent> kernelsOf(const ScriptRun& run) { return run.eventsOf<KernelSourceEvent>(); }

// Runs `script`, expects `out` on stdout and one compiled module; returns its C++.
std::string onlyModuleSource(const std::string& script, const std::string& out) {
    ScriptRun run = runScript(script);
    EXPECT_EQ(run.error, "") << run.logs;
    EXPECT_EQ(run.out, out);
    auto kernels = kernelsOf(run);
    EXPECT_EQ(kernels.size(), 1u);
    return kernels.empty() ? "" : kernels[0].source;
}

void expectEveryRefusalExplained(const ScriptRun& run) {
    for (const auto& d : run.eventsOf<FusionDecisionEvent>()) {
        if (d.fused) continue;
        EXPECT_EQ(d.reason.rfind("cannot fuse " + d.node1 + " with " + d.node2 + ": ", 0), 0u) << d.reason;
        EXPECT_GT(d.reason.size(), ("cannot fuse " + d.node1 + " with " + d.node2 + ": ").size() + 5) << d.reason;
    }
}

const char* kPointwiseChain = R"(import torch

@torch.compile
def chain(x):
    y = x * 2.0 + 1.0
    y = torch.exp(-y.abs())
    y = torch.sin(y) - 0.5
    y = torch.relu(y) * 3.0
    return torch.tanh(y) + torch.sigmoid(x)

x = torch.randn(1000)
print(torch.allclose(chain(x), torch.tanh(torch.relu(torch.sin(torch.exp(-(x * 2.0 + 1.0).abs())) - 0.5) * 3.0) + torch.sigmoid(x), rtol=1e-05, atol=1e-06))
)";

TEST(InductorCodegen, TenOpPointwiseChainIsOneVectorisedKernel) {
    SKIP_WITHOUT_CPP_JIT();
    ScriptRun run = runScript(kPointwiseChain);
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "True\n");
    auto kernels = kernelsOf(run);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].kernels.size(), 1u) << kernels[0].source;
    EXPECT_EQ(kernels[0].error, "");
    // Vector registers and libmvec's vector exp/sin/tanh: the loop really is vectorised.
    const std::string& s = kernels[0].artifacts["asm"];
    EXPECT_TRUE(s.find("%ymm") != std::string::npos || s.find("%zmm") != std::string::npos) << "no vector registers";
    EXPECT_NE(s.find("_ZGV"), std::string::npos) << "no vector math calls";
}

// exp of floats is the prelude's inline polynomial (no libm call, so it vectorises at the
// loop's width): within 1.02 ulp of the exact value everywhere it is finite, and the
// edges (overflow, the smallest denormal, underflow to 0, inf, NaN) print what PyTorch 2.15
// prints; sigmoid goes through it too.
TEST(InductorCodegen, FloatExpIsAnInlinePolynomialWithinAnUlpOnEveryRange) {
    SKIP_WITHOUT_CPP_JIT();
    ScriptRun run = runScript(R"(import torch
inf = float("inf")
nan = float("nan")
special = torch.tensor([inf, -inf, nan, 0.0, -0.0, 88.72283, 88.7229, -87.33654, -103.9, -104.0, -745.0])
x = torch.cat([torch.linspace(-110.0, 95.0, 400001), special])
@torch.compile
def f(x):
    return torch.exp(x), torch.sigmoid(x)
e, s = f(x)
exact = torch.exp(x.double())
finite = torch.isfinite(exact) & torch.isfinite(e)
ulp = torch.clamp(exact.abs() * 2.0 ** -23, min=2.0 ** -149)
print(torch.where(finite, (e.double() - exact).abs() / ulp, 0.0).max().item() <= 1.02)
print(e[-11:].tolist())
print(s[-11:].tolist())
print(torch.equal(torch.isinf(e), torch.isinf(exact.float())), torch.isnan(e).sum().item())
)");
    ASSERT_EQ(run.error, "") << run.logs;
    EXPECT_EQ(run.out, "True\n"
                       "[inf, 0.0, nan, 1.0, 1.0, 3.402798519021476e+38, inf, 1.175499675756452e-38, 1.401298464324817e-45, 0.0, 0.0]\n"
                       "[1.0, 0.0, nan, 0.5, 0.5, 1.0, 1.0, 1.175499675756452e-38, 0.0, 0.0, 0.0]\n"
                       "True 1\n");
    auto kernels = kernelsOf(run);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].artifacts["asm"].find("v_expf"), std::string::npos) << "a libmvec exp call";
}

// A value the loops do not change (AdamW's bias correction, a power of a 0-dim step) is
// computed once before them; what reads the elements, or the kernel's own results, stays in.
TEST(InductorCodegen, LoopInvariantValuesAreComputedOnceBeforeTheLoops) {
    std::string source = onlyModuleSource(R"(import torch
@torch.compile
def f(x, step, y):
    step.add_(1)
    return x * (0.9 ** step) + y.sum(dim=1, keepdim=True) * (1 - 0.999 ** step)
x, y = torch.ones(300, 200), torch.ones(300, 4)
print(f(x, torch.tensor(1.0), y)[0, :2])
)",
                                              "tensor([0.8180, 0.8180])\n");
    size_t kernel = source.find("cpp_fused_add_pow_mul");
    ASSERT_NE(kernel, std::string::npos) << source;
    size_t loops = source.find("#pragma omp parallel for", kernel);
    std::vector<size_t> pows;
    for (size_t at = source.find("fs_pow(", kernel); at != std::string::npos; at = source.find("fs_pow(", at + 1)) pows.push_back(at);
    ASSERT_EQ(pows.size(), 2u) << source;
    for (size_t at : pows) EXPECT_LT(at, loops) << source;
    EXPECT_GT(source.find("float m0_load = arg1_1[", kernel), loops) << "x's elements are read in the loop";
}

// A split's backward pads each part's gradient with zeros before adding them: constant
// pieces of a cat are emitted where they are read, not filled into buffers first.
TEST(InductorCodegen, ASplitsBackwardFillsNoBufferWithZeros) {
    SKIP_WITHOUT_CPP_JIT();
    ScriptRun run = runScript(R"(import torch
@torch.compile
def f(x):
    a, b, c = x.split(2, dim=1)
    return (a * 2).sum() + (b * b).sum() + c.exp().sum()
x = torch.arange(12.0).reshape(2, 6).div(10).requires_grad_()
f(x).backward()
print(x.grad)
)",
                              "realize");
    ASSERT_EQ(run.error, "") << run.logs;
    EXPECT_EQ(run.out, "tensor([[2.0000, 2.0000, 0.4000, 0.6000, 1.4918, 1.6487],\n"
                       "        [2.0000, 2.0000, 1.6000, 1.8000, 2.7183, 3.0042]])\n");
    // The three parts' gradients are buffers the cat reads; the four zero pieces are not.
    EXPECT_EQ(countOccurrences(run.logs, "an input of cat/stack"), 3) << run.logs;
}

// A gradient two products read (the next layer's input gradient and, transposed, the
// weight's gradient) is computed once into memory both read, the transposed one as a
// transposed BLAS operand rather than a transposed copy.
TEST(InductorCodegen, AGradientTwoProductsReadIsComputedOnce) {
    SKIP_WITHOUT_CPP_JIT();
    auto runs = runCompiledAndEager(R"(
x = torch.arange(24.0).reshape(4, 6).div(10).sin()
w1 = torch.arange(48.0).reshape(6, 8).div(20).cos().requires_grad_()
w2 = torch.arange(24.0).reshape(8, 3).div(7).sin().requires_grad_()
@COMPILE
def loss(x, w1, w2):
    return (torch.relu(x @ w1) @ w2).square().sum()
loss(x, w1, w2).backward()
print(w1.grad, w2.grad)
)",
                                    "realize");
    expectSameOutput(runs);
    const std::string& logs = runs.compiled.logs;
    auto count = [&](const std::string& what) { return countOccurrences(logs, what); };
    // The forward's relu (a product's operand, saved for backward) and the backward's
    // gradient of the square (both products' operand) are each realized once; only the relu
    // gradient, one product's operand alone, is realized by that product.
    EXPECT_EQ(count("one of them a matrix product that reads it from memory"), 2) << logs;
    EXPECT_EQ(count("an operand of a matrix product"), 1) << logs;
}

TEST(InductorCodegen, SoftmaxOverTheLastDimIsOneKernel) {
    ScriptRun run = runScript(R"(import torch
@torch.compile
def f(x):
    return torch.softmax(x, dim=-1)
x = torch.randn(64, 100)
print(torch.allclose(f(x), torch.softmax(x, dim=-1), rtol=1e-05, atol=1e-06))
)");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "True\n");
    auto kernels = kernelsOf(run);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].kernels.size(), 1u) << kernels[0].source;
    expectEveryRefusalExplained(run);
}

TEST(InductorCodegen, LinearBiasGeluIsOneMatmulAndOneFusedEpilogue) {
    ScriptRun run = runScript(R"(import torch
import torch.nn.functional as F
@torch.compile
def f(x, w, b):
    return F.gelu(F.linear(x, w, b))
x = torch.randn(32, 64)
w = torch.randn(48, 64)
b = torch.randn(48)
print(torch.allclose(f(x, w, b), F.gelu(F.linear(x, w, b)), rtol=1e-05, atol=1e-05))
)");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "True\n");
    auto kernels = kernelsOf(run);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].kernels.size(), 1u) << kernels[0].source;
    const std::string& src = kernels[0].source;
    EXPECT_EQ(countOccurrences(src, "    fs_parallel_gemm("), 1) << src;
    expectEveryRefusalExplained(run);
}

// float32 convolutions write channels-last (oneDNN's layout), the batch norm and relu
// between two convolutions run over channels-last loops with the channels innermost, the
// second convolution reads that buffer as it is, and the graph output gets eager's strides.
TEST(InductorCodegen, ConvolutionChainsStayChannelsLastAndOutputsKeepEagerStrides) {
    SKIP_WITHOUT_CPP_JIT();
    if (!convolutionUsesOneDnn()) GTEST_SKIP() << "this build runs convolutions without oneDNN";
    const std::string src = onlyModuleSource(R"(import torch
import torch.nn.functional as F
def f(x, w1, w2, scale):
    y = F.relu(F.conv2d(x, w1, padding=1) * scale.reshape(1, -1, 1, 1))
    z = F.conv2d(y, w2, stride=2)
    return z, z + 1
x = torch.linspace(-1.0, 1.0, 2 * 3 * 9 * 9).reshape(2, 3, 9, 9)
w1 = torch.linspace(-0.5, 0.5, 8 * 3 * 3 * 3).reshape(8, 3, 3, 3)
w2 = torch.linspace(0.3, -0.3, 16 * 8).reshape(16, 8, 1, 1)
scale = torch.linspace(0.5, 1.5, 8)
expected = f(x, w1, w2, scale)
actual = torch.compile(f)(x, w1, w2, scale)
for a, e in zip(actual, expected):
    print(torch.allclose(a, e, rtol=1e-05, atol=1e-05), a.stride() == e.stride(), a.is_contiguous())
)", "True True True\nTrue True True\n");
    // Both convolutions: input and output flags in the geometry's last two entries.
    EXPECT_NE(src.find(", 8, 1, 0, 1};"), std::string::npos) << src;   // reads x as given, writes NHWC
    EXPECT_NE(src.find(", 16, 1, 1, 1};"), std::string::npos) << src;  // reads the NHWC relu buffer
    // The relu's buffer: [2, 8, 9, 9] with NHWC strides, its loop with the channels innermost.
    EXPECT_NE(src.find("size=[2, 8, 9, 9], stride=[648, 1, 72, 8]"), std::string::npos) << src;
}

// Attention over tensors the graph computes (a projection split into heads) is one fused
// extern kernel: the trace sees those values' device as cpu (a graph value's meta tensor
// stands for a cpu tensor), as the CPU fast path in F.scaled_dot_product_attention asks.
TEST(InductorCodegen, AttentionOverComputedHeadsIsOneFusedExternKernel) {
    SKIP_WITHOUT_CPP_JIT();
    const std::string src = onlyModuleSource(R"(import torch
import torch.nn.functional as F
def f(x, w):
    q, k, v = (x @ w).split(16, dim=2)
    q, k, v = [t.view(2, 70, 2, 8).transpose(1, 2) for t in (q, k, v)]
    on_cpu = q.device.type == "cpu" and not q.is_cuda
    return F.scaled_dot_product_attention(q, k, v, is_causal=on_cpu)
x = torch.linspace(-1.0, 1.0, 2 * 70 * 16).reshape(2, 70, 16)
w = torch.linspace(-0.7, 0.7, 16 * 48).reshape(16, 48).cos()
print(torch.allclose(torch.compile(f)(x, w), f(x, w), rtol=1e-05, atol=1e-06))
)", "True\n");
    EXPECT_NE(src.find("extern_kernels.flash_attention"), std::string::npos) << src;
    EXPECT_NE(src.find("static const int64_t geometry[] = {2, 2, 70, 70, 8, 8, 1, "), std::string::npos) << src;  // causal
}

// Heads split from one qkv product are read in place (their B, H and row strides in the
// geometry), and the result, in PyTorch's [B, L, H, D] storage, reaches the projection
// through transpose(1, 2).contiguous().view(...) as a view: products and attention only.
TEST(InductorCodegen, AttentionReadsSplitHeadsInPlaceAndFeedsTheProjectionWithoutCopies) {
    SKIP_WITHOUT_CPP_JIT();
    const std::string src = onlyModuleSource(R"(import torch
import torch.nn.functional as F
def f(x, w, p):
    q, k, v = (x @ w).split(16, dim=2)
    q, k, v = [t.view(2, 70, 2, 8).transpose(1, 2) for t in (q, k, v)]
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    return y.transpose(1, 2).contiguous().view(2, 70, 16) @ p
x = torch.linspace(-1.0, 1.0, 2 * 70 * 16).reshape(2, 70, 16)
w = torch.linspace(-0.7, 0.7, 16 * 48).reshape(16, 48).cos()
p = torch.linspace(-0.5, 0.5, 16 * 16).reshape(16, 16).sin()
print(torch.allclose(torch.compile(f)(x, w, p), f(x, w, p), rtol=1e-04, atol=1e-05))  # values up to 6.6
)", "True\n");
    EXPECT_EQ(src.find("cpp_fused"), std::string::npos) << src;  // no copy before or after
    // q, k and v: batch, head and row strides of views into the [2, 70, 48] product; the result's [B, L, H, D] strides.
    EXPECT_NE(src.find(", 3360, 8, 48, 3360, 8, 48, 3360, 8, 48, 1120, 8, 16};"), std::string::npos) << src;
}

TEST(InductorCodegen, KernelsCarryTheirProvenance) {
    ScriptRun run = runScript(kPointwiseChain, "", "chain.py");
    auto kernels = kernelsOf(run);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_NE(kernels[0].source.find("//   chain.py:5: y = x * 2.0 + 1.0"), std::string::npos) << kernels[0].source;
    EXPECT_NE(kernels[0].source.find("graph nodes: "), std::string::npos);
}

TEST(InductorCodegen, GeneratedCodeCompileErrorFallsBackToEagerWithWontConvert) {
    SKIP_WITHOUT_CPP_JIT();
    std::string script = writeTempFile("chain.py", kPointwiseChain);
    ProcessResult broken = runCli({"run", script, "--test-hook", "break-codegen"});
    EXPECT_EQ(broken.exitCode, 0) << broken.err;
    EXPECT_EQ(broken.out, "True\n");
    EXPECT_NE(broken.err.find("WON'T CONVERT chain"), std::string::npos) << broken.err;
    EXPECT_NE(broken.err.find("due to:"), std::string::npos) << broken.err;
    EXPECT_NE(broken.err.find("this line is not C++"), std::string::npos) << broken.err;
}

TEST(InductorCodegen, AGraphThatFallsBackToEagerIsAnEagerFallbackEvent) {
    SKIP_WITHOUT_CPP_JIT();
    SessionOptions options;
    options.testHooks.breakCodegen = true;
    ScriptRun run = runScriptWith(kPointwiseChain, options, "chain.py");
    ASSERT_EQ(run.error, "");
    auto fallbacks = run.eventsOf<EagerFallbackEvent>();
    ASSERT_EQ(fallbacks.size(), 1u);
    EXPECT_EQ(fallbacks[0].compileId, "0/0");
    EXPECT_EQ(fallbacks[0].backend, "inductor");
    EXPECT_EQ(fallbacks[0].reason.rfind("CppCompileError: C++ compile error in the code generated for __compiled_fn_0:", 0), 0u)
        << fallbacks[0].reason;
}

std::vector<nlohmann::json> kernelEvents(const std::string& eventsFile) {
    std::vector<nlohmann::json> out;
    std::istringstream in(readFile(eventsFile));
    for (std::string line; std::getline(in, line);) {
        auto j = nlohmann::json::parse(line);
        if (j["type"] == "kernel_source") out.push_back(j);
    }
    return out;
}

// How much faster the warm compile is, is bench_inductor's to measure ("cold" against "warm
// (disk cache)" in bench/README.md): a timed ratio here failed on a loaded machine.
TEST(InductorCodegen, ASecondProcessLoadsEveryKernelFromTheDiskCache) {
    SKIP_WITHOUT_CPP_JIT();
    std::string dir = fs::path(writeTempFile("marker", "")).parent_path();
    std::string cache = dir + "/cache";
    std::string script = writeTempFile("chain.py", kPointwiseChain);
    ProcessResult cold = runCli({"run", script, "--events", dir + "/cold.jsonl"}, {"FUSESCOPE_CACHE_DIR=" + cache});
    ProcessResult warm = runCli({"run", script, "--events", dir + "/warm.jsonl", "--logs", "+inductor"},
                                {"FUSESCOPE_CACHE_DIR=" + cache});
    ASSERT_EQ(cold.exitCode, 0) << cold.err;
    ASSERT_EQ(warm.exitCode, 0) << warm.err;
    EXPECT_EQ(warm.out, cold.out);
    auto c = kernelEvents(dir + "/cold.jsonl"), w = kernelEvents(dir + "/warm.jsonl");
    ASSERT_EQ(c.size(), 1u);
    ASSERT_EQ(w.size(), 1u);
    EXPECT_FALSE(c[0]["from_cache"].get<bool>());
    EXPECT_TRUE(w[0]["from_cache"].get<bool>());
    EXPECT_NE(warm.err.find("kernel cache hit"), std::string::npos) << warm.err;
}

}  // namespace

TEST(InductorCodegen, AnEmbeddingIsALoadAtARowItReadsAndARowOutsideTheTableRaisesIndexError) {
    ScriptRun run = runScript(R"(import torch
import torch.nn.functional as F
table = torch.arange(12, dtype=torch.float32).reshape(4, 3)
@torch.compile
def f(ids, table):
    return F.embedding(ids, table) * 2
print(f(torch.tensor([3, 0]), table).tolist())
print(f(torch.tensor([1, 4]), table))
)");
    EXPECT_EQ(run.out, "[[18.0, 20.0, 22.0], [0.0, 2.0, 4.0]]\n");
    EXPECT_EQ(run.error, "script.py:6:5: error: IndexError: index out of range in self") << run.logs;
    auto sources = run.eventsOf<KernelSourceEvent>();
    ASSERT_FALSE(sources.empty()) << "the graph fell back: " << run.logs;
    EXPECT_NE(sources[0].source.find("fs_check_index("), std::string::npos) << sources[0].source;
    EXPECT_EQ(run.logs.find("cannot lower"), std::string::npos) << run.logs;
}

}  // namespace fusescope::test
