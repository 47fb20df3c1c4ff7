// The debugging backends (seed 001): each error injector takes its path (WON'T CONVERT and
// eager results, a run-time error at the relu's line, an accuracy failure found by
// --check-accuracy, and all of them raising with suppress_errors off); bisecting a planted
// bug across eager, aot_eager, aot_eager_decomp_partition and inductor names its stage.

#include <iostream>

#include <gtest/gtest.h>

#include "test_support.h"

namespace fusescope::test {
namespace {

// relu(2x - 1) + 1 on four values: def on line 2, the relu on line 4 (one later with
// suppress_errors off).
std::string reluScript(const std::string& backend, bool suppressErrors = true) {
    return std::string("import torch\n") + (suppressErrors ? "" : "torch._dynamo.config.suppress_errors = False\n") +
           "def f(x):\n"
           "    y = x * 2\n"
           "    z = torch.relu(y - 1)\n"
           "    return z + 1\n"
           "cf = torch.compile(f, backend=\"" + backend + "\")\n"
           "print(cf(torch.tensor([0.25, 1.0, -2.0, 3.0])))\n";
}

ScriptRun runChecked(const std::string& source) {
    SessionOptions options;
    options.checkAccuracy = true;
    return runScriptWith(source, options, "script.py");
}

TEST(DebugBackends, CompileErrorSaysWontConvertAndRunsEagerly) {
    ScriptRun run = runChecked(reluScript("relu_compile_error_TESTING_ONLY"));
    EXPECT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([1., 2., 1., 6.])\n");
    EXPECT_NE(run.logs.find("[0/0] [dynamo] WARNING: WON'T CONVERT f script.py line 2\n"
                            "due to:\n"
                            "Traceback (most recent call last):\n"
                            "  File \"script.py\", line 4, in f\n"
                            "    z = torch.relu(y - 1)\n"
                            "BackendCompilerFailed: backend='relu_compile_error_TESTING_ONLY' raised:\n"
                            "ReluCompileError: the graph calls relu (relu_compile_error_TESTING_ONLY refuses it)"),
              std::string::npos)
        << run.logs;
    auto failures = run.eventsOf<GraphFailureEvent>();
    ASSERT_EQ(failures.size(), 1u);
    EXPECT_EQ(failures[0].kind, "compile");
    EXPECT_EQ(failures[0].graph, "__compiled_fn_0");
    EXPECT_EQ(failures[0].where.line, 4);
}

TEST(DebugBackends, RuntimeErrorIsReportedAtTheReluLine) {
    ScriptRun run = runChecked(reluScript("relu_runtime_error_TESTING_ONLY"));
    EXPECT_EQ(run.out, "");
    EXPECT_EQ(run.error, "script.py:4:9: error: AssertionError: ReluRuntimeError");
    auto failures = run.eventsOf<GraphFailureEvent>();
    ASSERT_EQ(failures.size(), 1u);
    EXPECT_EQ(failures[0].kind, "runtime");
}

TEST(DebugBackends, AccuracyErrorIsCaughtNamingTheOutputAndElement) {
    const std::string message = "Accuracy failed for __compiled_fn_0 (backend 'relu_accuracy_error_TESTING_ONLY'): output 0 (add) "
                                "element [0]: compiled 1.5, eager 1, float64 1 (tolerance rtol = atol = 0.0001)";
    ScriptRun run = runChecked(reluScript("relu_accuracy_error_TESTING_ONLY"));
    EXPECT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([ 1.5000,  3.0000, -3.0000,  7.0000])\n");
    EXPECT_NE(run.logs.find("[0/0] [dynamo] ERROR: " + message), std::string::npos) << run.logs;
    // Without the check the wrong result goes unnoticed.
    ScriptRun unchecked = runScript(reluScript("relu_accuracy_error_TESTING_ONLY"));
    EXPECT_EQ(unchecked.logs.find("Accuracy failed"), std::string::npos) << unchecked.logs;
    EXPECT_TRUE(unchecked.eventsOf<GraphFailureEvent>().empty());
}

// The eager reference runs on copies of the inputs that share memory as the inputs did: two
// overlapping views of one tensor, one changed in place, give eager's answer both ways.
TEST(DebugBackends, AccuracyCheckCopiesOverlappingInputsAsOneTensor) {
    ScriptRun run = runChecked("import torch\n"
                               "def f(a, b):\n"
                               "    a.add_(1)\n"
                               "    return b * 2\n"
                               "base = torch.arange(10.0)\n"
                               "print(torch.compile(f)(base[2:6], base[4:8]), base)\n");
    EXPECT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([10., 12., 12., 14.]) tensor([0., 1., 3., 4., 5., 6., 6., 7., 8., 9.])\n");
    EXPECT_EQ(run.logs.find("Accuracy failed"), std::string::npos) << run.logs;
}

TEST(DebugBackends, WithSuppressErrorsOffEachInjectorRaises) {
    EXPECT_EQ(runChecked(reluScript("relu_compile_error_TESTING_ONLY", false)).error,
              "script.py:5:9: error: BackendCompilerFailed: backend='relu_compile_error_TESTING_ONLY' raised:\n"
              "ReluCompileError: the graph calls relu (relu_compile_error_TESTING_ONLY refuses it)");
    EXPECT_EQ(runChecked(reluScript("relu_runtime_error_TESTING_ONLY", false)).error,
              "script.py:5:9: error: AssertionError: ReluRuntimeError");
    EXPECT_EQ(runChecked(reluScript("relu_accuracy_error_TESTING_ONLY", false)).error,
              "script.py:6:12: error: AccuracyError: Accuracy failed for __compiled_fn_0 (backend "
              "'relu_accuracy_error_TESTING_ONLY'): output 0 (add) element [0]: compiled 1.5, eager 1, float64 1 "
              "(tolerance rtol = atol = 0.0001)");
}

TEST(DebugBackends, NonLeafCompileErrorRefusesAComputedInput) {
    const std::string script = R"(import torch
torch._dynamo.config.suppress_errors = False
def f(a):
    return a.cos() + 1
cf = torch.compile(f, backend="non_leaf_compile_error_TESTING_ONLY")
x = torch.ones(3, requires_grad=True)
print(cf()";
    EXPECT_EQ(runScript(script + "x))\n").out, "tensor([1.5403, 1.5403, 1.5403], grad_fn=<AddBackward0>)\n");
    EXPECT_EQ(runScript(script + "x * 2))\n").error,
              "script.py:7:7: error: BackendCompilerFailed: backend='non_leaf_compile_error_TESTING_ONLY' raised:\n"
              "TestingOnlyCompileError: an input of the graph is not a leaf tensor (non_leaf_compile_error_TESTING_ONLY)");
}

TEST(DebugBackends, EagerNoExceptWrapsARunTimeException) {
    ScriptRun run = runScript(R"(import torch
def f(x, y):
    return (x // y) * 2
cf = torch.compile(f, backend="eager_noexcept")
cf(torch.tensor([4, 6]), torch.tensor([2, 0]))
)");
    EXPECT_EQ(run.error, "script.py:3:13: error: TorchDynamoException: Unexpected exception when running generated graph "
                         "__compiled_fn_0: RuntimeError: ZeroDivisionError");
}

TEST(DebugBackends, EveryDebugBackendComputesWhatEagerDoes) {
    for (const char* backend : {"eager", "eager_noexcept", "aot_eager", "aot_eager_decomp_partition", "inductor"}) {
        SCOPED_TRACE(backend);
        ScriptRun run = runChecked(std::string(R"(import torch
import torch.nn.functional as F
def f(x, w):
    h = F.linear(x, w).softmax(dim=-1)
    return F.layer_norm(h, (4,)) + h.square().mean()
cf = torch.compile(f, backend=")") + backend + R"(")
x = torch.linspace(-1.0, 1.0, 12).reshape(3, 4)
print(torch.allclose(cf(x, x.t() @ x), f(x, x.t() @ x), rtol=1e-5, atol=1e-6))
)");
        EXPECT_EQ(run.error, "");
        EXPECT_EQ(run.out, "True\n");
        EXPECT_TRUE(run.eventsOf<GraphFailureEvent>().empty());
    }
}

// The eager reference draws the random numbers the compiled run drew.
TEST(DebugBackends, AccuracyCheckingReplaysRandomOps) {
    for (const char* backend : {"eager", "aot_eager"}) {
        SCOPED_TRACE(backend);
        ScriptRun run = runChecked(std::string(R"(import torch
import torch.nn.functional as F
def f(x):
    return F.dropout(x * 2, p=0.5, training=True) + torch.rand(8)
cf = torch.compile(f, backend=")") + backend + R"(")
print(cf(torch.ones(8)).shape)
)");
        EXPECT_EQ(run.error, "");
        EXPECT_EQ(run.out, "torch.Size([8])\n");
        EXPECT_TRUE(run.eventsOf<GraphFailureEvent>().empty()) << run.logs;
    }
}

// A bug planted in one stage shows first under the backend that adds that stage.
TEST(DebugBackends, SwitchingBackendsPinpointsTheStageWithThePlantedBug) {
    std::string script = writeTempFile("bisect.py", R"(import torch
import torch.nn.functional as F
def f(x, w):
    return F.linear(x, w).softmax(dim=-1).exp()
cf = torch.compile(f)
x = torch.linspace(-1.0, 1.0, 12).reshape(3, 4)
print(cf(x, x).shape)
)");
    const std::vector<std::string> backends = {"eager", "aot_eager", "aot_eager_decomp_partition", "inductor"};
    // `stage` empty: no bug planted.
    auto firstWrong = [&](const std::string& stage) {
        for (const auto& backend : backends) {
            std::vector<std::string> args = {"run", script, "--backend", backend, "--check-accuracy"};
            if (!stage.empty()) args.insert(args.end(), {"--test-hook", "plant-bug=" + stage});
            ProcessResult r = runCli(args);
            EXPECT_EQ(r.exitCode, 0) << r.err;
            EXPECT_EQ(r.out, "torch.Size([3, 3])\n");
            if (r.err.find("Accuracy failed for __compiled_fn_0 (backend '" + backend + "')") != std::string::npos) return backend;
        }
        return std::string("none");
    };
    EXPECT_EQ(firstWrong("aot_decomposition"), "aot_eager");
    EXPECT_EQ(firstWrong("inductor_decomposition"), "aot_eager_decomp_partition");
    if (CppJit::available()) EXPECT_EQ(firstWrong("lowering"), "inductor");
    else std::cout << "lowering bug not checked: " << CppJit::unavailableReason() << "\n";
    EXPECT_EQ(firstWrong(""), "none");
}

}  // namespace
}  // namespace fusescope::test
