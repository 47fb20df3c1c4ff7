// The cache size limit and automatic dynamic shapes.
#include <gtest/gtest.h>

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "capture/symbol_names.h"
#include "core/digest.h"
#include "test_support.h"

using fusescope::test::runScript;

TEST(CacheLimit, CompilesAtMostLimitTimesWarnsOnceThenRunsEagerly) {
    auto run = runScript(R"(import torch

torch._dynamo.config.cache_size_limit = 4

@torch.compile(backend="eager", dynamic=False)
def fn(x):
    return x * 2 + 1

for n in range(1, 11):
    print(fn(torch.arange(float(n))).sum().item())
)");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.compiles, 4);
    // sum(2i + 1 for i < n) = n^2
    EXPECT_EQ(run.out, "1.0\n4.0\n9.0\n16.0\n25.0\n36.0\n49.0\n64.0\n81.0\n100.0\n");
    auto warnings = run.eventsOf<fusescope::CacheLimitEvent>();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0].limit, 4);
    EXPECT_EQ(run.logs,
              "[0/4] [dynamo] WARNING: torch._dynamo hit config.recompile_limit (4)\n"
              "   function: 'fn' (script.py:5)\n"
              "   last reason: 0/3: tensor 'x' size mismatch at index 0. expected 4, actual 5\n"
              "To log all recompilation reasons, use TORCH_LOGS=\"recompiles\".\n"
              "To diagnose recompilation issues, see "
              "https://docs.pytorch.org/docs/main/user_guide/torch_compiler/compile/programming_model.recompilation.html\n");
}

TEST(CacheLimit, DefaultLimitIsEight) {
    auto run = runScript(R"(import torch

@torch.compile(backend="eager", dynamic=False)
def fn(x):
    return x + 1

for n in range(1, 13):
    fn(torch.ones(n))
print(torch._dynamo.config.cache_size_limit)
)");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "8\n");
    EXPECT_EQ(run.compiles, 8);
    EXPECT_EQ(run.eventsOf<fusescope::CacheLimitEvent>().size(), 1u);
}

namespace {

const char* kSizes8910 = R"(import torch

@torch.compile(backend="eager"DYNAMIC)
def fn(x):
    return torch.sin(x) * 2

for n in [8, 9, 10]:
    print(fn(torch.zeros(n)).shape)
)";

std::string withDynamic(const std::string& option) {
    std::string s = kSizes8910;
    s.replace(s.find("DYNAMIC"), 7, option);
    return s;
}

}  // namespace

TEST(DynamicShapes, SecondSizeCompilesSymbolicallyThirdHitsCache) {
    auto run = runScript(withDynamic(""), "recompiles,dynamic");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "torch.Size([8])\ntorch.Size([9])\ntorch.Size([10])\n");
    EXPECT_EQ(run.compiles, 2);
    // PyTorch 2.15's words (its symbolic_shapes log adds the frame of its own that made the symbol).
    EXPECT_NE(run.logs.find("[0/1] [__dynamic] marking L['x'] as dynamic (from automatic dynamic/PGO)\n"
                            "[0/1] [__dynamic] create_symbol s77 = 9 for L['x'].size()[0] [2, int_oo] return torch.sin(x) * 2  "
                            "# script.py:5 in fn\n"),
              std::string::npos)
        << run.logs;
    auto graphs = run.eventsOf<fusescope::GraphCapturedEvent>();
    ASSERT_EQ(graphs.size(), 2u);
    EXPECT_NE(graphs[0].readable.find("l_x_: \"f32[8]\""), std::string::npos);
    EXPECT_NE(graphs[1].readable.find("l_x_: \"f32[s77]\""), std::string::npos) << graphs[1].readable;
    // The second entry's guards, as PyTorch 2.15's for this program: the size free, the stride
    // no symbol changes kept, and the symbol's range.
    auto guards = run.eventsOf<fusescope::GuardsEvent>();
    ASSERT_EQ(guards.size(), 2u);
    const std::string second = fmt::format("{}", fmt::join(guards[1].guards, "\n"));
    EXPECT_NE(second.find("size=[None], stride=[1])"), std::string::npos) << second;
    EXPECT_NE(second.find("2 <= L['x'].size()[0]"), std::string::npos) << second;
}

// A tensor the code reads only for its size (y.shape[0] becomes a constant of the graph) is
// guarded all the same: another size recompiles, saying so as PyTorch 2.15 does for this
// program; its size is then a SymInt (tests/engine/symbolic_ints_test.cpp), so a third size
// hits that entry.
TEST(Guards, ATensorReadOnlyForItsSizeIsGuarded) {
    auto run = runScript(R"(import torch

def f(x, y):
    return (x * 2).sum(0) + y.shape[0]

cf = torch.compile(f, backend="eager")
print(cf(torch.ones(3, 2), torch.ones(6)))
print(cf(torch.ones(3, 2), torch.ones(7)))
print(cf(torch.ones(3, 2), torch.ones(8)))
)",
                         "recompiles");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([12., 12.])\ntensor([13., 13.])\ntensor([14., 14.])\n");
    EXPECT_EQ(run.compiles, 2);
    EXPECT_EQ(run.logs,
              "[0/1] [__recompiles] Recompiling function f in script.py:3\n"
              "    triggered by the following guard failure(s):\n"
              "    - 0/0: tensor 'y' size mismatch at index 0. expected 6, actual 7\n");
}

// PyTorch 2.15's ShapeEnv names a symbol by the sha256 of its source, modulo 100, the next
// number on a clash (L['t5'].size()[0] hashes to 77 too).
TEST(DynamicShapes, SymbolsAreNamedAsPyTorchNamesThem) {
    if (!fusescope::hexDigest(fusescope::DigestKind::Sha256, "")) GTEST_SKIP() << "built without OpenSSL: symbols are s0, s1, ...";
    fusescope::SymbolNames names;
    EXPECT_EQ(names.next("L['x'].size()[0]"), "s77");
    EXPECT_EQ(names.next("L['y'].size()[0]"), "s17");
    EXPECT_EQ(names.next("L['t5'].size()[0]"), "s78");
    EXPECT_EQ(fusescope::SymbolNames().next("L['t5'].size()[0]"), "s77");  // each compile names its own
}

// The names and the expressions are PyTorch 2.15's for this program (its graph_code log).
TEST(DynamicShapes, IntermediateSizesAreSymbolicExpressions) {
    auto run = runScript(R"(import torch

@torch.compile(backend="eager", dynamic=True)
def fn(x, w):
    h = torch.cat([x, x], 0) @ w
    return h.flatten().sum(0, keepdim=True), torch.softmax(h, dim=-1)[1:, 0]

a, b = fn(torch.ones(3, 4), torch.ones(4, 2))
print(a, b.shape)
)");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([48.]) torch.Size([5])\n");
    auto graphs = run.eventsOf<fusescope::GraphCapturedEvent>();
    ASSERT_EQ(graphs.size(), 1u);
    EXPECT_EQ(graphs[0].readable,
              "class GraphModule(torch.nn.Module):\n"
              "    def forward(self, l_x_: \"f32[s77, s27]\", l_w_: \"f32[s27, s21]\"):\n"
              "\n"
              "        # File: script.py:5 in fn, code: h = torch.cat([x, x], 0) @ w\n"
              "        cat: \"f32[2*s77, s27]\" = torch.cat([l_x_, l_x_], 0)\n"
              "        matmul: \"f32[2*s77, s21]\" = cat @ l_w_\n"
              "\n"
              "        # File: script.py:6 in fn, code: return h.flatten().sum(0, keepdim=True), torch.softmax(h, dim=-1)[1:, 0]\n"
              "        flatten: \"f32[2*s21*s77]\" = matmul.flatten()\n"
              "        sum_1: \"f32[1]\" = flatten.sum(0, keepdim = True)\n"
              "        softmax: \"f32[2*s77, s21]\" = torch.softmax(matmul, dim = -1)\n"
              "        slice_1: \"f32[2*s77 - 1, s21]\" = softmax[1:]\n"
              "        select: \"f32[2*s77 - 1]\" = slice_1[:, 0]\n"
              "        return (sum_1, select)\n");
    // Duck sizing: x's dim 1 and w's dim 0 were both 4, so they share s27 and must stay equal.
    auto guards = run.eventsOf<fusescope::GuardsEvent>();
    ASSERT_EQ(guards.size(), 1u);
    EXPECT_NE(std::find_if(guards[0].guards.begin(), guards[0].guards.end(),
                           [](const std::string& g) { return g.rfind("L['w'].size()[0] == L['x'].size()[1]", 0) == 0; }),
              guards[0].guards.end());
    // Each guard names the script line that made it: the tensor checks the line using them.
    ASSERT_EQ(guards[0].lines.size(), guards[0].guards.size());
    for (size_t i = 0; i < guards[0].guards.size(); ++i) {
        const std::string& g = guards[0].guards[i];
        int expected = g.find("# h = torch.cat") != std::string::npos ? 5 : g.find("# return h.flatten()") != std::string::npos ? 6 : -1;
        if (expected > 0) EXPECT_EQ(guards[0].lines[i], expected) << g;
        else EXPECT_GT(guards[0].lines[i], 0) << g;
    }
}

TEST(DynamicShapes, SharedSymbolGuardFailsWhenTheDimsStopMatching) {
    auto run = runScript(R"(import torch

@torch.compile(backend="eager", dynamic=True)
def fn(x, y):
    return x + y

fn(torch.ones(4), torch.ones(4))
fn(torch.ones(5), torch.ones(5))
fn(torch.ones(5), torch.ones(1))
)",
                         "recompiles");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.compiles, 2);
    EXPECT_NE(run.logs.find("    - 0/0: y.size()[0] == x.size()[0]                          # return x + y  # script.py:5 in fn\n"), std::string::npos) << run.logs;
}

TEST(DynamicShapes, DynamicFalseCompilesEverySize) {
    auto run = runScript(withDynamic(", dynamic=False"));
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.compiles, 3);
}

TEST(DynamicShapes, DynamicTrueIsSymbolicFromTheStart) {
    auto run = runScript(withDynamic(", dynamic=True"));
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.compiles, 1);
}

TEST(Reset, ClearsEveryCache) {
    auto run = runScript(R"(import torch

@torch.compile(backend="eager")
def fn(x):
    return x + 1

fn(torch.ones(2))
fn(torch.ones(2))
torch._dynamo.reset()
fn(torch.ones(2))
)",
                         "+dynamo");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.compiles, 2);
    EXPECT_NE(run.logs.find("[0/0] [dynamo] Step 1: torchdynamo start tracing fn script.py:3"), std::string::npos)
        << run.logs;
}

// A fuzz find: reset() inside the compiled function freed the cache entry the call was
// tracing (a segfault in the CLI). As in PyTorch it breaks the graph and runs, so every call
// compiles afresh: the function, then the code after the break (its resume function).
TEST(Reset, CalledInsideTheCompiledFunctionBreaksTheGraphAndEveryCallRecompiles) {
    auto run = runScript(R"(import torch

@torch.compile(backend="aot_eager")
def fn(x):
    y = x + 1
    torch._dynamo.reset()
    return y * 2

print(fn(torch.ones(3)))
print(fn(torch.ones(3)))
print(fn(torch.ones(4)))
)");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([4., 4., 4.])\ntensor([4., 4., 4.])\ntensor([4., 4., 4., 4.])\n");
    EXPECT_EQ(run.compiles, 6);
    auto breaks = run.eventsOf<fusescope::GraphBreakEvent>();
    ASSERT_EQ(breaks.size(), 3u);
    EXPECT_EQ(breaks[0].reason, "Attempted to call function marked as skipped");
    EXPECT_EQ(breaks[0].explanation, "Dynamo developers have intentionally marked that the function `reset` in file "
                                     "`torch/_dynamo/__init__.py` should not be traced.");
}

// Stances Fusescope does not have yet are refused by name, never taken as "default".
TEST(Stances, UnsupportedStancesAreRefusedClearly) {
    auto run = runScript("import torch\ntorch.compiler.set_stance('eager_then_compile')\n");
    EXPECT_EQ(run.error, "script.py:2:1: error: NotImplementedError: torch.compiler.set_stance('eager_then_compile') is not supported by Fusescope yet (raised in torch/_stance.py:16:21)");
    run = runScript("import torch\nwith torch.compiler.set_stance('fail_on_recompile_please'):\n    pass\n");
    EXPECT_EQ(run.error, "script.py:2:6: error: ValueError: unknown torch.compile stance 'fail_on_recompile_please' (raised in torch/_stance.py:16:21)");
}
