// The torch namespace scripts see: grad-mode context managers, seeding, compile options.
#include <gtest/gtest.h>

#include "test_support.h"

using fusescope::test::runScript;

TEST(TorchNamespace, GradModeContextManagersAreAcceptedWithoutAutograd) {
    auto run = runScript(R"(import torch
with torch.no_grad():
    y = torch.ones(2) * 2
with torch.inference_mode(), torch.enable_grad():
    print(y)
with torch.set_grad_enabled(False):
    print(y.sum())
)");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([2., 2.])\ntensor(4.)\n");
}

TEST(TorchNamespace, ManualSeedMakesRandomValuesRepeatable) {
    auto run = runScript(R"(import torch
torch.manual_seed(7)
a = torch.randn(5)
b = torch.rand(3)
c = torch.randint(0, 10, (4,))
torch.manual_seed(7)
print(torch.equal(a, torch.randn(5)), torch.equal(b, torch.rand(3)), torch.equal(c, torch.randint(0, 10, (4,))))
print(bool((b >= 0).all()), bool((b < 1).all()), bool((c >= 0).all()), bool((c < 10).all()), c.dtype)
)");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "True True True\nTrue True True True torch.int64\n");
}

// Advanced indexing Fusescope does not do yet is refused at the script's line, never a
// silently wrong result (an assignment through a picked copy would change nothing).
TEST(TorchNamespace, UnsupportedAdvancedIndexingIsRefusedAtItsLine) {
    const char* cases[][2] = {
        {"x[[0], :, torch.tensor([1])] = 1.0", "NotImplementedError: tensor indices apart from each other (their dims go first) are not supported by Fusescope yet"},
        {"x[x > 0] = torch.ones(24)", "NotImplementedError: assigning a tensor of several values through a bool mask (index_put_) is not supported by Fusescope yet; a number or a 0-d tensor is"},
        {"y = x[[0], x[0] > 0]", "NotImplementedError: a bool tensor (a mask) beside other indices is not supported by Fusescope yet; a mask alone is"},
        {"y = x[0, [1]]", "NotImplementedError: indexing with an integer beside a tensor or list index is not supported by Fusescope yet"},
        {"y = x[[0], :, [1]]", "NotImplementedError: tensor indices apart from each other (their dims go first) are not supported by Fusescope yet"},
        {"y = x[[3]]", "IndexError: index 3 is out of bounds for dimension 0 with size 3"},
    };
    for (const auto& [line, error] : cases) {
        SCOPED_TRACE(line);
        auto run = runScript(std::string("import torch\nx = torch.ones(3, 4, 2)\n") + line + "\n");
        EXPECT_EQ(run.error.rfind("script.py:3:", 0), 0u) << run.error;
        EXPECT_NE(run.error.find(error), std::string::npos) << run.error;
    }
}

TEST(TorchNamespace, UnknownBackendIsAClearError) {
    auto run = runScript(R"(import torch

@torch.compile(backend="nope")
def fn(x):
    return x + 1

fn(torch.ones(1))
)");
    EXPECT_EQ(run.error, "script.py:7:1: error: InvalidBackend: backend 'nope' is not available; available backends: eager, eager_noexcept, aot_eager, aot_eager_decomp_partition, inductor, "
                         "relu_compile_error_TESTING_ONLY, relu_runtime_error_TESTING_ONLY, relu_accuracy_error_TESTING_ONLY, "
                         "non_leaf_compile_error_TESTING_ONLY");
}

TEST(TorchNamespace, InductorIsTheDefaultBackendAndGeneratesCode) {
    auto run = runScript(R"(import torch

@torch.compile
def fn(x):
    return x + 1

print(fn(torch.ones(1)))
)",
                         "");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([2.])\n");
    auto code = run.eventsOf<fusescope::KernelSourceEvent>();
    ASSERT_EQ(code.size(), 1u);
    EXPECT_EQ(code[0].kernels.size(), 1u);
}

TEST(TorchNamespace, CompiledFunctionsNestAndInline) {
    auto run = runScript(R"(import torch

@torch.compile(backend="eager")
def inner(x):
    return x * 3

@torch.compile(backend="eager")
def outer(x):
    return inner(x) + 1

print(outer(torch.ones(2)), inner(torch.ones(1)))
)");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([4., 4.]) tensor([3.])\n");
    EXPECT_EQ(run.compiles, 2);  // outer (with inner inlined), then inner on its own
    auto graphs = run.eventsOf<fusescope::GraphCapturedEvent>();
    ASSERT_EQ(graphs.size(), 2u);
    EXPECT_EQ(graphs[0].opCount, 2);
}
