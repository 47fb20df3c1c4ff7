// Compiled graphs and eager ops on a real GPU: results within 1e-4 of the CPU for every
// kind of kernel the CUDA code generator makes, the examples moved to cuda printing their
// CPU output, device memory that stays on the GPU between compiled calls and comes from a
// caching allocator, and PyTorch's out-of-memory message. Each test that needs a GPU skips,
// saying why, on a machine without one.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>

#include "devices/cuda_eager.h"
#include "runtime/cuda_allocator.h"
#include "runtime/cuda_driver.h"
#include "test_support.h"
#include "toolchain/cuda/cuda_compiler.h"

using namespace fusescope;
using namespace fusescope::test;

namespace {

#define SKIP_WITHOUT_GPU()                                                                                          \
    if (cudaDriverStatus().devices == 0) GTEST_SKIP() << "no GPU: " << cudaDriverStatus().reason;                   \
    if (!CudaCompiler::available()) GTEST_SKIP() << "no CUDA toolkit: " << CudaCompiler::unavailableReason()

ScriptRun runOnGpu(const std::string& source) {
    SessionOptions options;
    options.backendOverride = "inductor";
    return runScriptWith(source, options);
}

// What both scripts below start with: `same` says whether results on the GPU are cuda
// tensors of the CPU results' shape (and, with `layout`, dtype and strides along dims of
// more than one element) within 1e-4; two functions both check.
constexpr const char* kGpuCheckPrelude = R"(import torch
import torch.nn.functional as F
torch.manual_seed(0)

def same(got, expected, layout=False):
    if not isinstance(expected, tuple):
        expected, got = (expected,), (got,)
    return all(g.device.type == "cuda" and g.shape == e.shape and
               (not layout or g.dtype == e.dtype and all(a == b for a, b, n in zip(g.stride(), e.stride(), e.shape) if n > 1)) and
               torch.allclose(g.cpu().double(), e.double(), atol=1e-4, rtol=1e-4) for g, e in zip(got, expected))

def pointwise(a):
    return (a * 2 + 1).sin().exp() - a.abs().sqrt()
def softmax(a):
    return torch.softmax(a, dim=-1)
)";

// Each kernel shape compiled for cuda against the same function run eagerly on the CPU:
// `check` prints the name, then True when the compiled result is the same.
const std::string kKernelChecks = std::string(kGpuCheckPrelude) + R"(
def check(name, fn, *args, **options):
    print(name, same(torch.compile(fn, **options)(*[a.cuda() for a in args]), fn(*args)))

def log_softmax(a):
    return torch.log_softmax(a * 3, dim=1)
def layer_norm(a, w, b):
    return torch.nn.functional.layer_norm(a, (1001,), w, b)
def layer_norm_256(a, w, b):
    return torch.nn.functional.layer_norm(a, (256,), w, b)
def sum_all(a):
    return a.sum()
def mean_dim0(a):
    return a.mean(dim=0)
def max_argmax(a):
    return a.amax(dim=1), a.argmax(dim=1)
def var(a):
    return a.var(dim=1)
def transposed(a):
    return (a.t() * 2).contiguous()
def mm(a, m):
    return a @ m
def mm_transposed(a, m):
    return a.t() @ m
def linear_gelu(a, m, c):
    return torch.nn.functional.gelu(a @ m + c)
def bmm(a, m):
    return torch.bmm(a, m).relu()
def int_floordiv(a, d):
    return a // d, a % d
def dynamic(a):
    return a.cos() + 1
def empty(a):
    return a * 2
def full_reductions(a):
    return a.sum(), a.amax(), (a * a).mean(), a.var(), a.argmax()
def int_sum(a):
    return a.sum()

x = torch.randn(37, 1001)
check("pointwise", pointwise, x)
check("softmax", softmax, x)
check("log_softmax", log_softmax, x)
check("layer_norm", layer_norm, x, torch.randn(1001), torch.randn(1001))
# Persistent rows that fill their blocks exactly, more rows than blocks (each block takes
# several), a row of 8192 (1024 threads), a reduction over a strided dim.
def persistent_rows(a, w, b):
    return softmax(a), layer_norm_256(a, w, b), a.var(dim=1), a.amax(dim=1), a.argmax(dim=1)
def row_of_8192(a):
    return softmax(a), a.var(dim=1)
def strided_rows(a):
    return torch.softmax(a, dim=0)
check("persistent_rows", persistent_rows, torch.randn(9000, 256), torch.randn(256), torch.randn(256))
check("row_of_8192", row_of_8192, torch.randn(40, 8192))
check("strided_rows", strided_rows, torch.randn(300, 70))
check("sum_all", sum_all, torch.randn(100003))
check("mean_dim0", mean_dim0, x)
check("max_argmax", max_argmax, x)
check("var", var, x)
check("transposed", transposed, x)
check("mm", mm, torch.randn(65, 33), torch.randn(33, 17))
check("mm_transposed", mm_transposed, torch.randn(33, 65), torch.randn(33, 17))
check("linear_gelu", linear_gelu, torch.randn(64, 128), torch.randn(128, 96), torch.randn(96))
check("bmm", bmm, torch.randn(4, 16, 8), torch.randn(4, 8, 5))
check("int_floordiv", int_floordiv, torch.arange(-20, 20), torch.tensor([3]))
dynamic_compiled = torch.compile(dynamic, dynamic=True)
print("dynamic", all(torch.allclose(dynamic_compiled(t.cuda()).cpu(), dynamic(t), atol=1e-5)
                     for t in [torch.randn(10), torch.randn(777), torch.randn(3)]))
check("empty", empty, torch.randn(0, 5))
check("full_reductions", full_reductions, torch.randn(300001))
check("int_sum", int_sum, torch.arange(100000))
# Pointwise vectors: of 4 floats with a tail, of 2 doubles, bool and int64 results, a
# result read back by a later member, a broadcast operand; an input 4 bytes off alignment.
def vectors(a, b, c):
    y = a.exp()
    return y, y * 2 + b, a > 0, c.double() * 2, (c * 3).long()
check("vectors", vectors, torch.randn(37, 1001), torch.randn(1001), torch.randn(1003))
def shift(t):
    return t * 2 + 1
whole = torch.randn(1001)
print("unaligned", torch.allclose(torch.compile(shift)(whole.cuda()[1:]).cpu(), whole[1:] * 2 + 1))
# Rows in runs of 4 contiguous elements (vector loads and stores): rows that overrun the
# threads' share (100), a double result, inputs off alignment (their runs load per element).
def runs(a, w, b):
    return softmax(a), torch.nn.functional.layer_norm(a, (100,), w, b), a.argmax(dim=1), a.double().log_softmax(dim=1)
check("runs", runs, torch.randn(300, 100), torch.randn(100), torch.randn(100))
flat = torch.randn(64 * 256 + 1)
print("runs_unaligned", same(torch.compile(softmax)(flat.cuda()[1:].view(64, 256)), softmax(flat[1:].view(64, 256))),
      same(torch.compile(sum_all)(flat.cuda()[1:]), sum_all(flat[1:])))

@torch.compile
def step(a):
    return a * 0.5 + 1

y = torch.ones(1000, device="cuda")
for i in range(3):
    y = step(y)
print("chain", torch.allclose(y.cpu(), torch.full((1000,), 1.875)))
z = y + 1
print("eager_after_compiled", z.device, z[0].item())
)";

// Eager ops on cuda tensors against the same ops on the CPU: `check` prints the name, then
// True when each result is the same, dtype and strides included.
const std::string kEagerChecks = std::string(kGpuCheckPrelude) + R"(
def check(name, fn, *args):
    print(name, same(fn(*[a.cuda() for a in args]), fn(*args), layout=True))

def layer_norm(a, w, b):
    return F.layer_norm(a, (1001,), w, b)
def sums(a):
    return a.sum(dim=1), a.sum(), a.mean(dim=0, keepdim=True)
def max_dim(a):
    return tuple(a.max(dim=1))
def mm(a, m):
    return a @ m
def transposed(a):
    return a.t().contiguous()
def on_transposed(a):
    return a.t() * 2
def floordiv(a):
    return a // 3, a % 3
def cat(a, b):
    return torch.cat([a, b], dim=1)
def view(a):
    return a.view(1001, 37)
def in_place(a):
    return a.clone().add_(1)
# In-place ops: their functional op's kernels, the result copied into self on the GPU (a
# chain, a row of a matrix); a transposed self computes on the host.
def in_place_chain(a, b):
    y = a.clone()
    y.mul_(0.5).clamp_(-0.25, 0.25).add_(b * b, alpha=2)
    return y
def in_place_row(a):
    y = a.clone()
    y[3].sub_(1)
    return y
def in_place_transposed(a):
    return a.t().clone().mul_(3)
def where(a):
    return torch.where(a > 0, a, 0.0)
def to_double(a):
    return a.to(torch.float64) * 3

x = torch.randn(37, 1001)
check("pointwise", pointwise, x)
check("softmax", softmax, x)
check("layer_norm", layer_norm, x, torch.randn(1001), torch.randn(1001))
check("sums", sums, x)
check("max_dim", max_dim, x)
check("mm", mm, torch.randn(65, 33), torch.randn(33, 17))
check("transposed", transposed, x)
check("on_transposed", on_transposed, x)
check("floordiv", floordiv, torch.arange(-20, 20))
check("cat", cat, x, x)
check("view", view, x)
check("in_place", in_place, x)
check("in_place_chain", in_place_chain, x, torch.randn(1001))
check("in_place_row", in_place_row, x)
check("in_place_transposed", in_place_transposed, x)
check("where", where, x)
check("to_double", to_double, x)
)";

}  // namespace

TEST(GpuRuntime, TheCachingAllocatorRoundsToSizeClasses) {  // no GPU needed
    EXPECT_EQ(CudaCachingAllocator::sizeClass(0), 512u);
    EXPECT_EQ(CudaCachingAllocator::sizeClass(1), 512u);
    EXPECT_EQ(CudaCachingAllocator::sizeClass(513), 1024u);
    EXPECT_EQ(CudaCachingAllocator::sizeClass((1u << 20) + 1), 2u << 20);
    EXPECT_EQ(CudaCachingAllocator::sizeClass(3u << 20), 4u << 20);
}

TEST(GpuRuntime, EveryKernelShapeMatchesTheCpu) {
    SKIP_WITHOUT_GPU();
    ScriptRun run = runOnGpu(kKernelChecks);
    ASSERT_EQ(run.error, "") << run.out;
    EXPECT_EQ(run.out,
              "pointwise True\nsoftmax True\nlog_softmax True\nlayer_norm True\npersistent_rows True\nrow_of_8192 True\n"
              "strided_rows True\nsum_all True\nmean_dim0 True\n"
              "max_argmax True\nvar True\ntransposed True\nmm True\nmm_transposed True\nlinear_gelu True\nbmm True\n"
              "int_floordiv True\ndynamic True\nempty True\nfull_reductions True\nint_sum True\nvectors True\nunaligned True\n"
              "runs True\nruns_unaligned True True\nchain True\n"
              "eager_after_compiled cuda:0 2.875\n");
}

TEST(GpuRuntime, IntegerDivisionByZeroRaisesAtItsLine) {
    SKIP_WITHOUT_GPU();
    ScriptRun run = runOnGpu("import torch\n@torch.compile\ndef f(a, b):\n    return a // b\n"
                             "print(f(torch.arange(4, device='cuda'), torch.zeros(4, dtype=torch.int64, device='cuda')))\n");
    EXPECT_NE(run.error.find("ZeroDivisionError"), std::string::npos) << run.error;
    EXPECT_NE(run.error.find("script.py:4:"), std::string::npos) << run.error;
}

TEST(GpuRuntime, CompiledCallsReuseCachedDeviceMemory) {
    SKIP_WITHOUT_GPU();
    const char* loop = "import torch\n@torch.compile\ndef f(a):\n    return (a.softmax(dim=-1) * 2).sum(dim=0)\n"
                       "x = torch.randn(256, 4096, device='cuda')\nfor i in range(10):\n    y = f(x)\nprint(y.shape)\n";
    ASSERT_EQ(runOnGpu(loop).out, "torch.Size([4096])\n");
    size_t before = CudaCachingAllocator::instance().stats().driverAllocations;
    ASSERT_EQ(runOnGpu(loop).out, "torch.Size([4096])\n");
    EXPECT_EQ(CudaCachingAllocator::instance().stats().driverAllocations, before);
    EXPECT_EQ(CudaCachingAllocator::instance().stats().allocated, 0u) << "every tensor of the runs was freed";
}

TEST(GpuRuntime, OutOfMemoryGivesPyTorchsNumbers) {
    SKIP_WITHOUT_GPU();
    try {
        CudaCachingAllocator::instance().allocate(size_t(1) << 50);
        FAIL() << "a petabyte was allocated";
    } catch (const ScriptError& e) {
        std::string message = e.what();
        EXPECT_EQ(e.kind(), "OutOfMemoryError");
        EXPECT_TRUE(std::regex_search(message, std::regex(R"(^CUDA out of memory\. Tried to allocate 1048576\.00 GiB\. GPU 0 has a )"
                                                          R"(total capacity of [0-9.]+ GiB of which [0-9.]+ [MG]iB is free\.)")))
            << message;
    }
}

TEST(GpuRuntime, ExamplesOnCudaPrintTheirCpuOutput) {
    SKIP_WITHOUT_GPU();
    int examples = 0;
    for (const std::filesystem::path example : exampleScripts()) {
        SCOPED_TRACE(example.filename().string());
        std::string script = writeTempFile(example.filename().string(), onCudaByDefault(readFile(example.string())));
        auto r = runCli({"run", script, "--backend", "inductor"});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        EXPECT_EQ(withoutCudaDevice(r.out), readFile(sourcePath("tests/golden/examples/" + example.stem().string() + ".out")));
        ++examples;
    }
    EXPECT_GE(examples, 10);
}

// The training reference programs with cuda as the default device print what they print
// on the CPU: eager autograd's nodes, AOT forward and backward graphs compiled for the GPU,
// functionalized optimizer steps copying back into device memory. (tiny_gpt_adamw is left
// out: its eager ops compile a kernel for each new signature, over the CLI's minute.)
class TrainingOnCuda : public testing::TestWithParam<std::string> {};

TEST_P(TrainingOnCuda, PrintsItsCpuOutput) {
    SKIP_WITHOUT_GPU();
    std::string program = sourcePath("tests/scripts/reference/autograd/" + GetParam() + ".py");
    auto r = runCli({"run", writeTempFile(GetParam() + ".py", onCudaByDefault(readFile(program)))});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(deviceNeutral(r.out), deviceNeutral(readFile(sourcePath("tests/scripts/reference/autograd/" + GetParam() + ".out"))));
}

INSTANTIATE_TEST_SUITE_P(Gpu, TrainingOnCuda,
                         testing::Values("backward_basics", "mlp_sgd", "cnn_batchnorm", "adam_schedules", "bce_with_logits",
                                         "inplace_versions", "grad_fn_graph"));

// Tensors moved to the GPU explicitly, with no default device: every constant a derivative
// makes must be made there too.
TEST(GpuRuntime, TrainingWithTensorsMovedToCudaPrintsTheCpuOutput) {
    SKIP_WITHOUT_GPU();
    auto gpu = runCli({"run", deviceScript("training_on_device", false)});
    ASSERT_EQ(gpu.exitCode, 0) << gpu.err;
    EXPECT_EQ(deviceNeutral(gpu.out), deviceNeutral(runCli({"run", deviceScript("training_on_device", true)}).out));
}

TEST(GpuRuntime, KernelsAppearOnTheGpuTrackWithTheirDeviceTimes) {
    SKIP_WITHOUT_GPU();
    SessionOptions options;
    options.backendOverride = "inductor";
    options.trace = true;
    ScriptRun run = runScriptWith("import torch\n@torch.compile\ndef f(a, w):\n    return torch.softmax(a @ w, dim=-1)\n"
                                  "f(torch.randn(512, 256, device='cuda'), torch.randn(256, 128, device='cuda'))\n",
                                  std::move(options));
    ASSERT_EQ(run.error, "");
    std::map<int64_t, TraceRecord> byId;
    for (const auto& e : run.eventsOf<TraceEvent>()) byId[e.record.rfId] = e.record;
    std::vector<TraceRecord> kernels;
    for (const auto& [id, r] : byId)
        if (r.tid == gpuTrackTid(0)) kernels.push_back(r);
    ASSERT_EQ(kernels.size(), 2u);  // cuBLAS's product, then the fused softmax
    EXPECT_EQ(kernels[0].name, "extern_kernels.mm");
    EXPECT_EQ(kernels[1].name.rfind("cuda_fused_", 0), 0u) << kernels[1].name;
    for (const auto& k : kernels) {
        EXPECT_EQ(k.category, TraceCategory::Kernel);
        EXPECT_EQ(k.kernelBackend, "cuda");
        EXPECT_EQ(k.kernelFile, "__compiled_fn_0.cu");
        EXPECT_GT(k.endNs, k.beginNs);
        ASSERT_TRUE(byId.count(k.flowId)) << "launched by the graph call";
        const TraceRecord& call = byId.at(k.flowId);
        EXPECT_EQ(call.name, "## Call CompiledFxGraph __compiled_fn_0 ##");
        EXPECT_GE(k.beginNs, call.beginNs);
        EXPECT_LE(k.endNs, call.endNs);
    }
    EXPECT_LE(kernels[0].endNs, kernels[1].beginNs);
}

TEST(GpuRuntime, EagerOpsRunAsGpuKernelsWithEagersResults) {
    SKIP_WITHOUT_GPU();
    size_t before = eagerGpuVerdicts().size();
    ScriptRun run = runScriptWith(kEagerChecks, SessionOptions{});
    ASSERT_EQ(run.error, "") << run.out;
    EXPECT_EQ(run.out,
              "pointwise True\nsoftmax True\nlayer_norm True\nsums True\nmax_dim True\nmm True\ntransposed True\n"
              "on_transposed True\nfloordiv True\ncat True\nview True\nin_place True\nin_place_chain True\nin_place_row True\n"
              "in_place_transposed True\nwhere True\nto_double True\n");
    std::vector<EagerGpuVerdict> verdicts = eagerGpuVerdicts();
    std::map<std::string, std::string> byOp;  // the op's first signature's verdict
    std::string table;
    for (size_t i = before; i < verdicts.size(); ++i) {
        byOp.emplace(verdicts[i].op, verdicts[i].onHostBecause);
        table += verdicts[i].op + ": " + (verdicts[i].onHostBecause.empty() ? "GPU" : verdicts[i].onHostBecause) + "\n";
    }
    for (const char* op : {"mul", "add", "sin", "exp", "abs", "sqrt", "sub", "softmax", "layer_norm", "sum", "mean", "max.dim",
                           "matmul", "contiguous", "floor_divide", "remainder", "cat", "gt", "where", "to.dtype", "clamp"}) {
        ASSERT_TRUE(byOp.count(op)) << op << " never reached the GPU's eager kernels\n" << table;
        EXPECT_EQ(byOp[op], "") << op << "\n" << table;
    }
    for (const char* view : {"t", "view"}) EXPECT_EQ(byOp[view], "a result is an input or a view of one") << table;
    // clamp is only called in place: its functional op's verdict says the GPU computed it.
    EXPECT_FALSE(byOp.count("clamp_")) << "an in-place op runs as its functional op's signature";
    // A second run of the same script compiles nothing new.
    ASSERT_EQ(runScriptWith(kEagerChecks, SessionOptions{}).out, run.out);
    EXPECT_EQ(eagerGpuVerdicts().size(), verdicts.size());
}

TEST(GpuRuntime, EagerKernelsAreLaunchedWithinTheirOpsSpan) {
    SKIP_WITHOUT_GPU();
    SessionOptions options;
    options.trace = true;
    ScriptRun run = runScriptWith("import torch\nx = torch.randn(64, 300, device='cuda')\ny = torch.softmax(x, dim=-1)\n"
                                  "print(y.sum(dim=-1).cpu().allclose(torch.ones(64)))\n",
                                  std::move(options));
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "True\n");
    std::map<int64_t, TraceRecord> byId;
    for (const auto& e : run.eventsOf<TraceEvent>()) byId[e.record.rfId] = e.record;
    std::vector<std::string> launchedBy;
    for (const auto& [id, r] : byId) {
        if (r.tid != gpuTrackTid(0)) continue;
        EXPECT_EQ(r.category, TraceCategory::Kernel);
        EXPECT_GT(r.endNs, r.beginNs);
        ASSERT_TRUE(byId.count(r.flowId)) << r.name;
        const TraceRecord& launch = byId.at(r.flowId);
        EXPECT_EQ(launch.name, "cudaLaunchKernel");
        ASSERT_TRUE(byId.count(launch.parentId)) << "inside the op's span";
        launchedBy.push_back(byId.at(launch.parentId).name);
    }
    ASSERT_EQ(launchedBy.size(), 2u);  // softmax's kernel, then sum's
    EXPECT_EQ(launchedBy[0], "aten::softmax");
    EXPECT_EQ(launchedBy[1].rfind("aten::sum", 0), 0u) << launchedBy[1];
}
