// The op definitions: registration refuses names that are not ops and ops that neither
// lower nor say why they run eagerly; the ops defined whole in one place (opdefs/) work
// eagerly, compiled for the CPU and in CUDA code generation.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/error.h"
#include "opdefs/op_families.h"
#include "ops/op_registration.h"
#include "ops/op_registry.h"
#include "ops_test_support.h"
#include "test_support.h"
#include "toolchain/cpp_jit.h"

namespace fusescope::test {
namespace {

TEST(OpDefinitions, EveryOpLowersOrSaysWhyItRunsEagerly) {
    OpRegistry registry;
    ASSERT_NO_THROW(registerAllOps(registry));
    EXPECT_EQ(registry.incompleteDefinitions(), std::vector<std::string>{});
    EXPECT_EQ(registry.definition("randn").runsEagerlyBecause,
              "random numbers come from the eager generator, so compiled and eager runs draw the same values");
    EXPECT_EQ(registry.definition("add_").runsEagerlyBecause, "in-place: the lowering has no mutation");
    EXPECT_TRUE(registry.definition("add").lowering);
    EXPECT_TRUE(registry.definition("softmax").decomposition);
}

TEST(OpDefinitions, ANameThatIsNoOpFailsRegistration) {
    OpRegistry registry;
    registerArithmeticOps(registry);
    try {
        registry.definition("softmaxx");
        FAIL() << "a misspelled op name was accepted";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "op definition names an op that does not exist: 'softmaxx'");
    }
}

TEST(OpDefinitions, AnOpWithoutLoweringOrReasonIsReported) {
    OpRegistry registry;
    OpDef op;
    op.name = "frobnicate";
    op.schema = "frobnicate(Tensor self) -> Tensor";
    registry.add(op);
    EXPECT_EQ(registry.incompleteDefinitions(),
              std::vector<std::string>{"frobnicate: no lowering and no reason to run eagerly"});
    registry.definition("frobnicate").runsEagerlyBecause = "a test op";
    EXPECT_EQ(registry.incompleteDefinitions(), std::vector<std::string>{});
}

// Reference values from the ops' definitions in PyTorch's documentation.
TEST(OpDefinitions, NewActivationsComputeEagerlyAsPyTorch) {
    const double inf = std::numeric_limits<double>::infinity();
    expectNear(T("softplus", {floats({-1, 0, 1, 30})}), {0.3132617, 0.6931472, 1.3132617, 30.0}, 1e-6);
    expectNear(T("softplus", {floats({1, 20})}, {{"beta", IValue(2.0)}, {"threshold", IValue(10.0)}}), {1.0634640, 20.0}, 1e-6);
    expectNear(T("hardswish", {floats({-4, -1, 0.5, 1, 4})}), {0.0, -1.0 / 3, 0.5 * 3.5 / 6, 2.0 / 3, 4.0}, 1e-6);
    expectNear(T("logaddexp", {floats({0, 1, 10}), floats({0, 2, 10})}), {0.6931472, 2.3132617, 10.6931472}, 1e-5);
    EXPECT_EQ(values(T("logaddexp", {floats({-inf, inf}), floats({-inf, inf})})), (std::vector<double>{-inf, inf}));
    EXPECT_EQ(T("logaddexp", {floats({1}, {}, DType::Float64), floats({2})}).dtype(), DType::Float64);
    EXPECT_EQ(errorOf([] { T("hardswish", {longs({1, 2})}); }), "\"hardswish_cpu\" not implemented for 'Long'");
    expectInferMatches("logaddexp", {floats({1, 2}, {2, 1}), floats({3})}, {toMeta(floats({1, 2}, {2, 1})), toMeta(floats({3}))});
}

const char* kActivations = R"(import torch
import torch.nn.functional as F

def f(x, y):
    return F.softplus(x * 2.0) + F.hardswish(x) - F.softplus(torch.logaddexp(x, y), beta=2.0)

x = torch.linspace(-5.0, 5.0, 12).reshape(3, 4)
y = torch.linspace(3.0, -3.0, 12).reshape(3, 4)
print(f(x, y))
print(torch.compile(f)(x, y))
)";

TEST(OpDefinitions, NewActivationsCompileForTheCpuLikeEager) {
    SKIP_WITHOUT_CPP_JIT();
    ScriptRun run = runScript(kActivations, "+inductor");
    ASSERT_EQ(run.error, "");
    size_t half = run.out.size() / 2;
    EXPECT_EQ(run.out.substr(0, half), run.out.substr(half)) << run.out;
    EXPECT_EQ(run.logs.find("running the graph eagerly"), std::string::npos) << run.logs;
    auto sources = run.eventsOf<KernelSourceEvent>();
    ASSERT_EQ(sources.size(), 1u);
    EXPECT_EQ(sources[0].kernels.size(), 1u) << sources[0].source;  // one fused kernel
    EXPECT_NE(sources[0].source.find("fs_log1p"), std::string::npos);
}

TEST(OpDefinitions, NewActivationsGenerateCudaKernels) {
    SessionOptions options;
    options.gpuCodegenOnly = true;
    options.backendOverride = "inductor";
    std::string script = kActivations;
    script.replace(script.find("\n\ndef"), 0, "\ntorch.set_default_device('cuda')");
    ScriptRun run = runScriptWith(script, options);
    ASSERT_EQ(run.error, "");
    auto sources = run.eventsOf<KernelSourceEvent>();
    ASSERT_EQ(sources.size(), 1u);
    EXPECT_EQ(sources[0].language, "cuda");
    EXPECT_NE(sources[0].source.find("__global__"), std::string::npos);
    EXPECT_NE(sources[0].source.find("fs_log1p"), std::string::npos);
    EXPECT_EQ(sources[0].error, "");
}

// An op without lowering runs its graph eagerly, and the event says why in the op's words.
TEST(OpDefinitions, AGraphWithAnEagerOnlyOpFallsBackGivingTheOpsReason) {
    ScriptRun run = runScript(R"(import torch
@torch.compile
def f(x):
    return x.cumsum(0) + 1
print(f(torch.arange(4.0)))
)");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([1., 2., 4., 7.])\n");
    auto fallbacks = run.eventsOf<EagerFallbackEvent>();
    ASSERT_EQ(fallbacks.size(), 1u);
    EXPECT_EQ(fallbacks[0].compileId, "0/0");
    EXPECT_EQ(fallbacks[0].graph, "__compiled_fn_0");
    EXPECT_EQ(fallbacks[0].backend, "inductor");
    EXPECT_EQ(fallbacks[0].reason.rfind("cannot lower cumsum (a scan, which the loop IR has no form for yet)", 0), 0u)
        << fallbacks[0].reason;
}

}  // namespace
}  // namespace fusescope::test
