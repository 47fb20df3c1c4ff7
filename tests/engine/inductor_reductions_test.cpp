// The inductor backend's reduction kernels: reductions of one input fused into one kernel
// with the reason in the fusion log, a costly value computed once per element, full
// reductions split across threads, reductions across rows walking tiles of outputs, var and
// std over dynamic sizes, and every shape of them equal to eager within float tolerance
// (odd sizes, sizes smaller than a vector, tile and lane remainders, non-contiguous inputs,
// NaN).

#include <gtest/gtest.h>

#include "test_support.h"

namespace fusescope::test {
namespace {

// The C++ of the one module a run compiled, from its first kernel on (past the prelude).
std::string kernelCode(const ScriptRun& run) {
    auto modules = run.eventsOf<KernelSourceEvent>();
    EXPECT_EQ(modules.size(), 1u);
    if (modules.empty()) return "";
    size_t at = modules[0].source.find("extern \"C\" void cpp_");
    EXPECT_NE(at, std::string::npos) << modules[0].source;
    return at == std::string::npos ? "" : modules[0].source.substr(at);
}

// Runs f(x) = `returns`, compiled, over rows of infinities, NaN of either sign, signed
// zeros, the largest and a denormal float and a repeated maximum, in each of `dtypes`,
// printing each result as a list. The expected texts are real PyTorch 2.15's.
ScriptRun runOnSpecialValues(const std::string& returns, const std::string& dtypes) {
    return runScript(R"(import torch
inf = float("inf")
nan = float("nan")
rows = [[-inf, -inf, -inf], [inf, 1.0, inf], [-0.0, 0.0, -0.0], [0.0, -0.0, 0.0], [1.0, nan, nan], [-nan, -5.0, 3.0], [3.4e38, -3.4e38, 1e-45], [2.0, 2.0, 1.0]]
@torch.compile
def f(x):
    return )" + returns + R"(
for dtype in )" + dtypes + R"(:
    for t in f(torch.tensor(rows, dtype=dtype)):
        print(t.tolist())
)");
}

// Floating max and min reduce integer order keys in one vector loop (a zero takes the
// row's first zero's sign, as eager keeps the first of equal values).
TEST(InductorReductions, MaxAndMinOverOrderKeysPrintWhatPyTorchPrints) {
    SKIP_WITHOUT_CPP_JIT();
    ScriptRun run = runOnSpecialValues("x.amax(1), x.amin(1), x.amax(0)", "[torch.float32, torch.float64]");
    ASSERT_EQ(run.error, "") << run.logs;
    const std::string floats = "[-inf, inf, -0.0, 0.0, nan, nan, 3.3999999521443642e+38, 2.0]\n"
                               "[-inf, 1.0, -0.0, 0.0, nan, nan, -3.3999999521443642e+38, 1.0]\n"
                               "[nan, nan, nan]\n";
    const std::string doubles = "[-inf, inf, -0.0, 0.0, nan, nan, 3.4e+38, 2.0]\n"
                                "[-inf, 1.0, -0.0, 0.0, nan, nan, -3.4e+38, 1.0]\n"
                                "[nan, nan, nan]\n";
    EXPECT_EQ(run.out, floats + doubles);
    auto modules = run.eventsOf<KernelSourceEvent>();
    ASSERT_EQ(modules.size(), 2u);  // float, then double (a recompile)
    for (const auto& module : modules) EXPECT_NE(module.source.find("#pragma omp simd reduction(max : "), std::string::npos);
}

// argmax and argmin of floats reduce each value's order key above its index as one int64:
// the first of equal values wins, NaN counting as the extreme, signed zeros equal.
TEST(InductorReductions, ArgmaxAndArgminOverPackedKeysPickTheFirstExtreme) {
    SKIP_WITHOUT_CPP_JIT();
    ScriptRun run = runOnSpecialValues("x.argmax(1), x.argmin(1), x.argmax(0), x.argmin(0)", "[torch.float32]");
    ASSERT_EQ(run.error, "") << run.logs;
    EXPECT_EQ(run.out, "[0, 0, 0, 0, 1, 0, 0, 0]\n[0, 1, 0, 0, 1, 0, 1, 2]\n[5, 4, 4]\n[5, 4, 4]\n");
    EXPECT_NE(kernelCode(run).find("fs_arg_key("), std::string::npos);
}

TEST(InductorReductions, MeanVarianceAndATransposedSumOfOneInputAreOneKernel) {
    SKIP_WITHOUT_CPP_JIT();
    ScriptRun run = runScript(R"(import torch

@torch.compile
def moments(x):
    return x.mean(dim=1), x.var(dim=1), x.t().sum(dim=0)

x = torch.randn(64, 100)
m, v, s = moments(x)
print(torch.allclose(m, x.mean(dim=1), rtol=1e-05, atol=1e-05), torch.allclose(v, x.var(dim=1), rtol=1e-05, atol=1e-05), torch.allclose(s, x.t().sum(dim=0), rtol=1e-05, atol=1e-04))
)");
    ASSERT_EQ(run.error, "") << run.logs;
    EXPECT_EQ(run.out, "True True True\n");
    auto modules = run.eventsOf<KernelSourceEvent>();
    ASSERT_EQ(modules.size(), 1u);
    EXPECT_EQ(modules[0].kernels.size(), 1u) << modules[0].source;
    // The three reductions of x met as readers of one buffer: horizontal fusions, each
    // with its reason; the pointwise divisions then joined them vertically.
    int horizontal = 0;
    for (const auto& d : run.eventsOf<FusionDecisionEvent>()) {
        EXPECT_TRUE(d.fused) << d.reason;
        if (d.kind == "horizontal") {
            ++horizontal;
            EXPECT_EQ(d.reason, "fused (horizontal): shared reads over iteration ((64,), (100,))");
        }
    }
    EXPECT_EQ(horizontal, 2);
}

TEST(InductorReductions, SoftmaxComputesEachExpOnce) {
    SKIP_WITHOUT_CPP_JIT();
    ScriptRun run = runScript(R"(import torch
@torch.compile
def f(x):
    return torch.softmax(x, dim=-1)
x = torch.randn(33, 1000)
print(torch.allclose(f(x), torch.softmax(x, dim=-1), rtol=1e-05, atol=1e-06))
)");
    ASSERT_EQ(run.error, "") << run.logs;
    EXPECT_EQ(run.out, "True\n");
    std::string code = kernelCode(run);
    // The sum's pass keeps exp(x - max) in the output, in the loop that sums it, asking for
    // the output's lines two blocks ahead; the product with the sum's reciprocal reads it back.
    EXPECT_EQ(countOccurrences(code, "fs_exp_nonpositive("), 1) << code;
    EXPECT_EQ(countOccurrences(code, "fs_exp("), 0) << code;
    EXPECT_NE(code.find("fs_prefetch_write(&buf2[(1000L*c0 + rb + 512L)], (rb_end - rb) * sizeof(buf2[0]));\n"
                        "                #pragma omp simd reduction(+ : m1_acc)\n"
                        "                for (int64_t c1 = rb; c1 < rb_end; ++c1) {"),
              std::string::npos) << code;
    EXPECT_NE(code.find("buf2[(1000L*c0 + c1)] = m1_exp;\n                    m1_acc = m1_acc + m1_exp;"), std::string::npos) << code;
    EXPECT_NE(code.find("float m2_mul = m2_exp * m2_reciprocal;"), std::string::npos) << code;
}

// log_softmax's row sum adds exp(x - max) over the row the max was taken over: that exp is
// fs_exp_summand (no clamp against overflow; below -87 it gives exp(-87), which adds nothing
// to a sum holding exp(0) = 1), also where rows hold -inf, NaN, -1e30 or a large maximum.
// An exp of x - min keeps fs_exp.
TEST(InductorReductions, ExpsOfARowMinusItsMaxThatOnlyASumReadsSkipTheirClamps) {
    SKIP_WITHOUT_CPP_JIT();
    ScriptRun run = runScript(R"(import torch
@torch.compile
def log_softmax(x):
    return torch.log_softmax(x, dim=1)
@torch.compile
def above_min(x):
    return torch.exp(x - x.amin(dim=1, keepdim=True)).sum(dim=1)
x = torch.randn(37, 1000) * 30.0
x[0, 5] = float("-inf")
x[1, :] = float("-inf")
x[2, 7] = float("nan")
x[3, 0:500] = -1e30
x[4, 0] = 200.0
print(torch.allclose(log_softmax(x), torch.log_softmax(x, dim=1), rtol=1e-05, atol=1e-05, equal_nan=True))
print(log_softmax(x)[0, 5], log_softmax(x)[1, 0], log_softmax(x)[2, 0], log_softmax(x)[3, 0])
y = x[5:] / 30.0
print(torch.allclose(above_min(y), torch.exp(y - y.amin(dim=1, keepdim=True)).sum(dim=1), rtol=1e-05))
)");
    ASSERT_EQ(run.error, "") << run.logs;
    EXPECT_EQ(run.out, "True\ntensor(-inf) tensor(nan) tensor(nan) tensor(-1.0000e+30)\nTrue\n");
    auto modules = run.eventsOf<KernelSourceEvent>();
    ASSERT_EQ(modules.size(), 2u);
    EXPECT_NE(modules[0].source.find("float m1_exp = fs_exp_summand(m1_sub);"), std::string::npos) << modules[0].source;
    EXPECT_EQ(countOccurrences(modules[0].source, "fs_exp(m"), 0) << modules[0].source;
    EXPECT_NE(modules[1].source.find("float m1_exp = fs_exp(m1_sub);"), std::string::npos) << modules[1].source;
    EXPECT_EQ(modules[1].source.find("fs_exp_summand(m"), std::string::npos) << modules[1].source;
}

// An exp of a row minus its max that is stored (softmax's, or the exp itself) is
// fs_exp_nonpositive: fs_exp bit for bit on x <= 0, below the normal floats too. Softmax's
// results there are real PyTorch 2.15's.
TEST(InductorReductions, AStoredExpOfARowMinusItsMaxIsFsExpBitForBit) {
    SKIP_WITHOUT_CPP_JIT();
    ScriptRun run = runScript(R"(import torch
@torch.compile
def exp_of_row_minus_max(x):
    return torch.exp(x - x.amax(dim=1, keepdim=True))
@torch.compile
def exp_of_scaled(x):
    return torch.exp((x - x.amax(dim=1, keepdim=True)) * 1.0)
@torch.compile
def softmax(x):
    return torch.softmax(x, dim=1)
x = torch.linspace(-110.0, 0.0, 1000003).reshape(1, -1)
print(torch.equal(exp_of_row_minus_max(x), exp_of_scaled(x)))
x = torch.zeros(3, 300)
x[0, :4] = torch.tensor([0.0, -88.0, -100.0, -103.9])
x[0, 4:] = float("-inf")
x[1, :] = torch.linspace(-105.0, -85.0, 300)
x[1, 299] = 0.0
x[2, 7] = float("nan")
y = softmax(x)
print(y[0, :5].tolist())
print(y[1, ::37].tolist())
print(y[2, 0].item(), y[2, 7].item())
)");
    ASSERT_EQ(run.error, "") << run.logs;
    EXPECT_EQ(run.out,
              "True\n"
              "[1.0, 6.054601485195952e-39, 3.783505853677006e-44, 1.401298464324817e-45, 0.0]\n"
              "[0.0, 2.802596928649634e-45, 3.5032461608120427e-44, 4.203895392974451e-43, 4.994227726853648e-42, "
              "5.933237827797708e-41, 7.04909179493956e-40, 8.374871482424984e-39, 9.949926472170992e-38]\n"
              "nan nan\n");
    auto modules = run.eventsOf<KernelSourceEvent>();
    ASSERT_EQ(modules.size(), 3u);
    EXPECT_NE(modules[0].source.find("= fs_exp_nonpositive(m1_sub);"), std::string::npos) << modules[0].source;
    EXPECT_EQ(countOccurrences(modules[0].source, "fs_exp(m"), 0) << modules[0].source;
    EXPECT_EQ(countOccurrences(modules[1].source, "fs_exp(m"), 1) << modules[1].source;
    EXPECT_EQ(countOccurrences(modules[2].source, "fs_exp_nonpositive(m"), 1) << modules[2].source;
}

// Rows reduced one by one: while the second member computes from the row in cache, it
// prefetches the first member's input at the next row, and log_softmax's output (a later
// member's) at this row for writing, in blocks of 256 elements. Rows shorter than a block
// prefetch nothing.
TEST(InductorReductions, TheSecondPassOverARowPrefetchesTheNextRow) {
    SKIP_WITHOUT_CPP_JIT();
    ScriptRun run = runScript(R"(import torch
@torch.compile
def wide(x):
    return torch.log_softmax(x, dim=1)
@torch.compile
def short(x):
    return torch.log_softmax(x, dim=1)
x, y = torch.randn(5, 600), torch.randn(5, 100)
print(torch.allclose(wide(x), torch.log_softmax(x, dim=1), rtol=1e-05, atol=1e-05))
print(torch.allclose(short(y), torch.log_softmax(y, dim=1), rtol=1e-05, atol=1e-05))
)");
    ASSERT_EQ(run.error, "") << run.logs;
    EXPECT_EQ(run.out, "True\nTrue\n");
    auto modules = run.eventsOf<KernelSourceEvent>();
    ASSERT_EQ(modules.size(), 2u);  // rows of 600, then of 100
    const std::string& wide = modules[0].source;
    EXPECT_NE(wide.find("            for (int64_t rb = 0; rb < 600L; rb += 256) {\n"
                        "                const int64_t rb_end = rb + 256 < 600L ? rb + 256 : 600L;\n"
                        "                fs_prefetch(&arg0_1[(600L*c0 + rb + 600L)], (rb_end - rb) * sizeof(arg0_1[0]));\n"
                        "                fs_prefetch_write(&buf2[(600L*c0 + rb)], (rb_end - rb) * sizeof(buf2[0]));\n"
                        "                #pragma omp simd reduction(+ : m1_acc)\n"),
              std::string::npos) << wide;
    EXPECT_EQ(countOccurrences(wide, "fs_prefetch(&"), 1) << "only the second member prefetches";
    EXPECT_EQ(modules[1].source.find("fs_prefetch(&"), std::string::npos) << modules[1].source;
}

TEST(InductorReductions, AFullReductionIsSplitAcrossThreadsInPieces) {
    SKIP_WITHOUT_CPP_JIT();
    ScriptRun run = runScript(R"(import torch
@torch.compile
def f(x):
    return x.sum()
x = torch.randn(100003)
print(torch.allclose(f(x), x.to(torch.float64).sum().to(torch.float32), rtol=1e-05, atol=1e-03))
)");
    ASSERT_EQ(run.error, "") << run.logs;
    EXPECT_EQ(run.out, "True\n");
    std::string code = kernelCode(run);
    EXPECT_NE(code.find("#pragma omp parallel for if(parallel: 100003L >= 32768)\n        for (int64_t part = 0; part < 64; ++part)"),
              std::string::npos)
        << code;
}

TEST(InductorReductions, AReductionAcrossRowsWalksTilesOfNeighbouringOutputs) {
    SKIP_WITHOUT_CPP_JIT();
    ScriptRun run = runScript(R"(import torch
@torch.compile
def f(x):
    return x.sum(dim=0)
x = torch.randn(300, 1000)
print(torch.allclose(f(x), x.sum(dim=0), rtol=1e-05, atol=1e-04))
)");
    ASSERT_EQ(run.error, "") << run.logs;
    EXPECT_EQ(run.out, "True\n");
    std::string code = kernelCode(run);
    // Rows outside, the tile's columns inside: contiguous loads in the vector loop.
    EXPECT_NE(code.find("const int64_t c0_step = fs_column_tile(1000L);"), std::string::npos) << code;
    EXPECT_NE(code.find("for (int64_t c0_tile = 0; c0_tile < 1000L; c0_tile += c0_step)"), std::string::npos) << code;
    EXPECT_NE(code.find("#pragma omp simd\n"), std::string::npos) << code;
}

// With sizes that changed between calls (s0, s1), the count var and std divide by is
// symbolic: they lower directly instead of through their decomposition, and the graph is
// compiled rather than run eagerly.
TEST(InductorReductions, VarianceAndStdOverDynamicSizesAreCompiled) {
    SKIP_WITHOUT_CPP_JIT();
    ScriptRun run = runScript(R"(import torch

@torch.compile
def spread(x):
    return x.var(dim=1), x.std(dim=0, keepdim=True), x.var(), x.var(dim=1, correction=0), torch.var(x, False)

for shape in [(6, 10), (9, 13), (33, 70), (5, 1)]:
    x = torch.randn(*shape)
    got = spread(x)
    want = (x.var(dim=1), x.std(dim=0, keepdim=True), x.var(), x.var(dim=1, correction=0), torch.var(x, False))
    print([torch.allclose(g, w, rtol=1e-4, atol=1e-5, equal_nan=True) for g, w in zip(got, want)], [tuple(g.shape) for g in got])
)");
    ASSERT_EQ(run.error, "") << run.logs;
    EXPECT_EQ(run.out,
              "[True, True, True, True, True] [(6,), (1, 10), (), (6,), ()]\n"
              "[True, True, True, True, True] [(9,), (1, 13), (), (9,), ()]\n"
              "[True, True, True, True, True] [(33,), (1, 70), (), (33,), ()]\n"
              "[True, True, True, True, True] [(5,), (1, 1), (), (5,), ()]\n");
    EXPECT_EQ(run.logs.find("running the graph eagerly"), std::string::npos) << run.logs;
    auto modules = run.eventsOf<KernelSourceEvent>();
    // The static first call, one dynamic graph for the next two, and 5x1 (a size-1 dim is
    // specialised, as in PyTorch).
    ASSERT_EQ(modules.size(), 3u);
    EXPECT_NE(modules[1].source.find("int64_t s77"), std::string::npos) << modules[1].source;  // L['x'].size()[0], as PyTorch names it
}

// Every new kernel shape against eager in float64, the compiled run printing what the eager
// one does: all True.
TEST(InductorReductions, EveryKernelShapeEqualsEagerOnOddAndNonContiguousInputs) {
    SKIP_WITHOUT_CPP_JIT();
    CompiledAndEager runs = runCompiledAndEager(R"(
def close(name, got, want, tol):
    print(name, torch.allclose(got.to(torch.float64), want, rtol=tol, atol=tol))

def full(x):
    return x.sum(), x.amax(), x.amin()

def rows(x):
    return x.sum(dim=1), x.var(dim=1), x.std(dim=1), x.amax(dim=1), x.argmax(dim=1), torch.softmax(x, dim=1), torch.log_softmax(x, dim=1)

def columns(x):
    return x.sum(dim=0), x.mean(dim=0), x.var(dim=0), x.amin(dim=0), x.argmax(dim=0), torch.softmax(x, dim=0), torch.log_softmax(x, dim=0)

def norm(x, w, b):
    return torch.nn.functional.layer_norm(x, (x.shape[-1],), w, b)

# A kernel per shape, each with static sizes.
torch._dynamo.config.automatic_dynamic_shapes = False
torch._dynamo.config.cache_size_limit = 64
full_c, rows_c, columns_c, norm_c = COMPILE(full), COMPILE(rows), COMPILE(columns), COMPILE(norm)
torch.manual_seed(0)
for n in [1, 7, 16, 17, 100003]:
    x = torch.randn(n)
    s, hi, lo = full_c(x)
    d = x.to(torch.float64)
    close(f"full sum {n}", s, d.sum(), 1e-4)
    print(f"full amax/amin {n}", torch.equal(hi, x.amax()), torch.equal(lo, x.amin()))
for shape in [(1, 1), (3, 5), (17, 1), (2, 15), (5, 257), (40, 513), (300, 7)]:
    x = torch.randn(*shape)
    for name, t in [("", x), (" transposed", x.t().contiguous().t())]:
        d = t.to(torch.float64)
        label = f"{shape[0]}x{shape[1]}{name}"
        s, v, sd, hi, arg, sm, lsm = rows_c(t)
        close("rows sum " + label, s, d.sum(dim=1), 1e-4)
        if shape[1] > 1:
            close("rows var " + label, v, d.var(dim=1), 1e-4)
            close("rows std " + label, sd, d.std(dim=1), 1e-4)
        print("rows amax/argmax " + label, torch.equal(hi, t.amax(dim=1)), torch.equal(arg, t.argmax(dim=1)))
        close("rows softmax " + label, sm, torch.softmax(d, dim=1), 1e-5)
        close("rows log_softmax " + label, lsm, torch.log_softmax(d, dim=1), 1e-5)
        s, m, v, lo, arg, sm, lsm = columns_c(t)
        close("columns sum " + label, s, d.sum(dim=0), 1e-4)
        close("columns mean " + label, m, d.mean(dim=0), 1e-4)
        if shape[0] > 1:
            close("columns var " + label, v, d.var(dim=0), 1e-4)
        print("columns amin/argmax " + label, torch.equal(lo, t.amin(dim=0)), torch.equal(arg, t.argmax(dim=0)))
        close("columns softmax " + label, sm, torch.softmax(d, dim=0), 1e-5)
        close("columns log_softmax " + label, lsm, torch.log_softmax(d, dim=0), 1e-5)
        w, b = torch.randn(shape[1]), torch.randn(shape[1])
        close("layer_norm " + label, norm_c(t, w, b), torch.nn.functional.layer_norm(d, (shape[1],), w.to(torch.float64), b.to(torch.float64)), 1e-4)
# A strided view read in place, and NaN: the first NaN wins argmax and amax, as in eager.
x = torch.randn(64, 300)
view = x[:, ::3]
s, m, v, lo, arg, sm, lsm = columns_c(view)
close("columns sum of a strided view", s, view.to(torch.float64).sum(dim=0), 1e-4)
x[5, 2] = float("nan")
x[9, 2] = float("nan")
x[7, 4] = float("nan")
s, m, v, lo, arg, sm, lsm = columns_c(x)
print("columns argmax with NaN", arg[2].item(), arg[4].item(), torch.isnan(lo[2]).item())
s, v, sd, hi, arg, sm, lsm = rows_c(x)
print("rows argmax with NaN", arg[5].item(), arg[7].item(), torch.isnan(hi[9]).item())
)");
    expectSameOutput(runs);
    EXPECT_EQ(countOccurrences(runs.compiled.out, "False"), 0) << runs.compiled.out;
    // 3 per full size; per shape and layout 12, with var and std of rows wider than 1 and
    // var of columns longer than 1 (1x1: 12, 17x1: 13, the others 15); the strided view;
    // the two isnan prints.
    EXPECT_EQ(countOccurrences(runs.compiled.out, "True"), 5 * 3 + 2 * (12 + 13 + 5 * 15) + 1 + 2) << runs.compiled.out;
    EXPECT_NE(runs.compiled.out.find("columns argmax with NaN 5 7 True\nrows argmax with NaN 2 4 True\n"), std::string::npos)
        << runs.compiled.out;
}

// A float sum over more than 4096 elements adds the sums of chunks of 4096 (Inductor's
// cascade sum) in each shape of reduction kernel: a full sum split across threads, row sums,
// column sums walking tiles, a softmax's kept exponentials, two reduced dims; shorter sums
// add one by one.
TEST(InductorReductions, FloatSumsPastAChunkAddTheSumsOfChunks) {
    SKIP_WITHOUT_CPP_JIT();
    auto runOn = [](const std::string& shape) {
        return runScript(R"(import torch

@torch.compile
def sums(x, y):
    return x.sum(), x.sum(1), x.t().sum(1), x.softmax(1), y.sum((0, 2))

torch.manual_seed(0)
x = torch.rand()" + shape + R"() + 100
y = x.reshape(x.shape[0], 2, -1)
expected = [r.float() for r in (x.double().sum(), x.double().sum(1), x.double().t().sum(1), x.double().softmax(1), y.double().sum((0, 2)))]
print([torch.allclose(a, b, rtol=1e-5) for a, b in zip(sums(x, y), expected)])
)");
    };
    ScriptRun longRows = runOn("6, 9000");
    ASSERT_EQ(longRows.error, "") << longRows.logs;
    EXPECT_EQ(longRows.out, "[True, True, True, True, True]\n");
    const std::string code = kernelCode(longRows);
    size_t chunked = 0;
    for (size_t at = code.find("chunk_sum = "); at != std::string::npos; at = code.find("chunk_sum = ", at + 1)) ++chunked;
    EXPECT_GE(chunked, 4u) << code;  // row sums, the softmax's, the pieces' of the full sum, the two dims'
    ScriptRun longColumns = runOn("9000, 6");
    ASSERT_EQ(longColumns.error, "") << longColumns.logs;
    EXPECT_EQ(longColumns.out, "[True, True, True, True, True]\n");
    EXPECT_NE(kernelCode(longColumns).find("m0_total["), std::string::npos) << kernelCode(longColumns);  // column sums
    ScriptRun shortRows = runOn("6, 90");
    ASSERT_EQ(shortRows.error, "") << shortRows.logs;
    EXPECT_EQ(kernelCode(shortRows).find("chunk"), std::string::npos);
}

}  // namespace
// A kernel that normalizes each row in its buffer (kept for a matrix product that reads it
// too), then reduces over the normalized row: softmax's backward inside attention's
// gradients. LLVM 16's loop vectorizer, interleaving accesses across the unrolled rows, read
// one element from before its division: rows after the first came out wrong, silently
// (clang_frontend.cpp turns its interleave groups off). Compared with real PyTorch 2.15.
TEST(InductorReductions, ARowNormalizedInItsBufferThenReducedOverMatchesPyTorch) {
    SKIP_WITHOUT_CPP_JIT();
    ScriptRun run = runScript(R"(import torch
import torch.nn.functional as F
@torch.compile(dynamic=False)
def f(a, d):
    exp = a.exp()
    p = exp / exp.sum(-1, keepdim=True)
    return p * (d * p).sum(-1, keepdim=True), p @ d.transpose(1, 2)
for shape in [(1, 8, 8), (2, 5, 5), (4, 4, 4)]:
    n = shape[0] * shape[1] * shape[2]
    a = (torch.arange(n).reshape(shape) * 0.31).sin()
    d = (torch.arange(n).reshape(shape) * 0.37).sin()
    print(f(a, d)[0][:, :3, :2])
q = (torch.arange(80).reshape(2, 2, 5, 4) * 0.17).cos().requires_grad_()
torch.compile(lambda q: F.scaled_dot_product_attention(q, q * 2, q).pow(2).mean())(q).backward()
print(f"{q.grad.abs().sum().item():.6f}")
)");
    ASSERT_EQ(run.error, "") << run.logs;
    EXPECT_EQ(run.out, R"x(tensor([[[ 0.0443,  0.0601],
         [-0.1061, -0.0810],
         [ 0.0351,  0.0396]]])
tensor([[[ 0.0781,  0.1060],
         [ 0.1370,  0.1315],
         [-0.2512, -0.1848]],

        [[-0.0936, -0.0922],
         [-0.2285, -0.1678],
         [ 0.1331,  0.1335]]])
tensor([[[ 0.0909,  0.1233],
         [ 0.2098,  0.2214],
         [-0.0789, -0.0602]],

        [[ 0.0491,  0.0554],
         [ 0.1388,  0.1889],
         [-0.0007, -0.0008]],

        [[-0.0764, -0.0598],
         [ 0.1763,  0.1942],
         [ 0.0308,  0.0419]],

        [[-0.2027, -0.1593],
         [ 0.2325,  0.1792],
         [ 0.1108,  0.1191]]])
1.884704
)x");
}

}  // namespace fusescope::test
