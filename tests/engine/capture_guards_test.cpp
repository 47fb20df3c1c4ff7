// Guard failures: every form PyTorch users grep for, and every failing guard of every
// cache entry reported on a recompile.
#include <gtest/gtest.h>

#include "capture/guard.h"
#include "test_support.h"

using fusescope::test::runScript;

namespace {

// A script that warms a compiled function up with `cached`, calls it with each of the
// `missed` inputs after a reset, and prints the first failure guard_fail_fn received.
std::string firstFailuresScript(const std::string& setup, const std::vector<std::string>& missed) {
    std::string s = R"(import torch

failures = []


def record(failure):
    failures.append(failure[0])


def func(a):
    return torch.add(a, 4)


def first_failure(cached, missed):
    torch._dynamo.reset()
    failures.clear()
    opt = torch._dynamo.optimize("eager", guard_fail_fn=record)(func)
    opt(cached)
    opt(missed)
    print(failures[0])


)";
    s += setup + "\n";
    for (const auto& m : missed) s += "first_failure(a, " + m + ")\n";
    return s;
}

}  // namespace

TEST(Guards, TensorMismatchFormsMatchPyTorch) {
    auto run = runScript(firstFailuresScript("a = torch.rand(3, 4, 5)\na_grad = a.clone()\na_grad.requires_grad = True",
                                             {"a[0:2, :, :]", "a.clone().as_strided((3, 4, 5), (1, 3, 12))", "a[0, :, :]",
                                              "a.to(torch.float16)", "a_grad", "a.to('meta')"}));
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out,
              "0/0: tensor 'a' size mismatch at index 0. expected 3, actual 2\n"
              "0/0: tensor 'a' stride mismatch at index 0. expected 20, actual 1\n"
              "0/0: tensor 'a' rank mismatch. expected 3, actual 2\n"
              "0/0: tensor 'a' dtype mismatch. expected Float, actual Half\n"
              "0/0: tensor 'a' requires_grad mismatch. expected requires_grad=0\n"
              "0/0: tensor 'a' dispatch key set mismatch. expected cpu, actual meta\n");
}

TEST(Guards, TypeMismatchNamesThePythonClass) {
    auto run = runScript(R"(import torch

def func(a, b):
    return a + b

failures = []
opt = torch._dynamo.optimize("eager", guard_fail_fn=lambda f: failures.append(f[0]))(func)
a = torch.rand(3, 4, 5)
b = torch.rand(3, 4, 5)
opt(a, b)
opt(a, 1)
print(failures)
)");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "[\"0/0: expected type of 'b' to be <class 'torch.Tensor'>, but found <class 'int'>\"]\n");
}

TEST(Guards, RecompileReportsEveryFailingEntryNewestFirst) {
    auto run = runScript(R"(import torch

def f(x):
    return torch.relu(x)

opt = torch.compile(f, backend="eager", dynamic=False)
for i in range(4):
    opt(torch.ones(8 + i))
)",
                         "recompiles");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.compiles, 4);
    EXPECT_NE(run.logs.find("[0/3] [__recompiles] Recompiling function f in script.py:3\n"
                            "    triggered by the following guard failure(s):\n"
                            "    - 0/2: tensor 'x' size mismatch at index 0. expected 10, actual 11\n"
                            "    - 0/1: tensor 'x' size mismatch at index 0. expected 9, actual 11\n"
                            "    - 0/0: tensor 'x' size mismatch at index 0. expected 8, actual 11\n"),
              std::string::npos)
        << run.logs;
}

// As PyTorch 2.15, the verbose log too gives each entry's first failing guard (its guard
// manager stops there); the event stream has every one.
TEST(Guards, VerboseRecompilesListEveryFailingGuardOfAnEntry) {
    auto run = runScript(R"(import torch

def f(x, y):
    return x * y

opt = torch.compile(f, backend="eager", dynamic=False)
opt(torch.ones(2), torch.ones(2))
opt(torch.ones(3), torch.ones(3, dtype=torch.float64))
)",
                         "recompiles_verbose");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.logs,
              "[0/1] [__recompiles_verbose] Recompiling function f in script.py:3\n"
              "    triggered by the following guard failure(s):\n"
              "    guard 0 failures:\n"
              "    - 0/0: tensor 'x' size mismatch at index 0. expected 2, actual 3\n");
    // Both failures reach the event stream too.
    auto failures = run.eventsOf<fusescope::GuardFailureEvent>();
    ASSERT_EQ(failures.size(), 1u);
    EXPECT_EQ(failures[0].reasons.size(), 2u);
}

// Grad mode is global state every entry guards first: calling under no_grad a function
// compiled with grad enabled recompiles, in Dynamo's words (its trailing space included),
// and each entry is then reused under its own mode.
TEST(Guards, SwitchingGradModeRecompilesWithTheGlobalStateReason) {
    auto run = runScript(R"(import torch

@torch.compile(backend="eager")
def f(x):
    return x * 2

x = torch.ones(3)
f(x)
with torch.no_grad():
    f(x)
    f(x)
f(x)
)",
                         "recompiles");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.compiles, 2);
    EXPECT_EQ(run.logs,
              "[0/1] [__recompiles] Recompiling function f in script.py:3\n"
              "    triggered by the following guard failure(s):\n"
              "    - 0/0: GLOBAL_STATE changed: grad_mode \n");
}

// An entry compiled by one backend is not another backend's: torch.compile with a different
// backend recompiles, in Dynamo's words, and a compile with the same backend name reuses it.
// (Reusing an aot_eager entry under `eager` gave CompiledFunctionBackward where PyTorch gives
// MulBackward0.)
TEST(Guards, ADifferentBackendRecompilesWithTheBackendMatchReason) {
    auto run = runScript(R"(import torch

def f(x):
    return x * 2

x = torch.ones(2, requires_grad=True)
a = torch.compile(f, backend="aot_eager")
b = torch.compile(f, backend="aot_eager")
c = torch.compile(f, backend="eager")
print(a(x).grad_fn.name(), b(x).grad_fn.name(), c(x).grad_fn.name(), a(x).grad_fn.name())
)",
                         "recompiles");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "CompiledFunctionBackward CompiledFunctionBackward MulBackward0 CompiledFunctionBackward\n");
    EXPECT_EQ(run.compiles, 2);
    EXPECT_EQ(run.logs,
              "[0/1] [__recompiles] Recompiling function f in script.py:3\n"
              "    triggered by the following guard failure(s):\n"
              "    - 0/0: BACKEND_MATCH failure: torch.compile detected different backend callables. Cached backend: "
              "_TorchCompileWrapper(compiler='aot_eager', dynamic=None). New backend: _TorchCompileWrapper(compiler='eager', "
              "dynamic=None). If this is unexpected, wrap your backend in functools.partial (or reuse the same cached backend) to "
              "avoid creating a new backend function each time. More details: https://github.com/pytorch/pytorch/issues/168373\n");
}

// PyTorch's backend callables are equal when their backend and `dynamic` are: torch.compile
// with dynamic=True is another callable (BACKEND_MATCH), a third call like the first reuses its
// entry. The log is PyTorch 2.15's for this program (its callables' ids left out).
TEST(Guards, TheDynamicOptionMakesAnotherBackendCallable) {
    auto run = runScript(R"(import torch

def f(x):
    return x * 2

a = torch.compile(f, backend="eager")
b = torch.compile(f, backend="eager", dynamic=True)
c = torch.compile(f, backend="eager")
d = torch.compile(f, dynamic=True)
e = torch.compile(f)
for fn in (a, b, c, d, e):
    fn(torch.ones(3))
)",
                         "recompiles");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.compiles, 4);
    const std::string tail = ". If this is unexpected, wrap your backend in functools.partial (or reuse the same cached backend) to "
                             "avoid creating a new backend function each time. More details: https://github.com/pytorch/pytorch/issues/168373\n";
    auto mismatch = [&](const std::string& id, const std::string& cached, const std::string& fresh) {
        return "    - " + id + ": BACKEND_MATCH failure: torch.compile detected different backend callables. Cached backend: " + cached +
               ". New backend: " + fresh + tail;
    };
    const std::string eagerNone = "_TorchCompileWrapper(compiler='eager', dynamic=None)";
    const std::string eagerTrue = "_TorchCompileWrapper(compiler='eager', dynamic=True)";
    const std::string inductor = "_TorchCompileInductorWrapper";
    const std::string header = " [__recompiles] Recompiling function f in script.py:3\n    triggered by the following guard failure(s):\n";
    EXPECT_EQ(run.logs, "[0/1]" + header + mismatch("0/0", eagerNone, eagerTrue) +
                            "[0/2]" + header + mismatch("0/0", eagerNone, inductor) + mismatch("0/1", eagerTrue, inductor) +
                            "[0/3]" + header + mismatch("0/2", inductor, inductor) + mismatch("0/0", eagerNone, inductor) +
                            mismatch("0/1", eagerTrue, inductor));
}

TEST(Guards, PythonValueGuardsKeepTheirSourceLine) {
    auto run = runScript(R"(import torch

def fn(x, ys, zs):
    return inner(x, ys, zs)

def inner(x, ys, zs):
    for y, z in zip(ys, zs):
        x += y * z
    return x

opt = torch.compile(fn, backend="eager")
x = torch.tensor([1.0])
ys = [1.0, 2.0]
zs = [3.0]
opt(x, ys, zs)
opt(x, ys[:1], zs)
print(x)
)",
                         "guards,recompiles");
    ASSERT_EQ(run.error, "");
    // Made where the code first consumes it (y * z), as PyTorch 2.15 says, not where zip read it
    EXPECT_NE(run.logs.find("L['zs'][0] == 3.0                                             # x += y * z  # script.py:8 in inner"),
              std::string::npos)
        << run.logs;
    EXPECT_NE(run.logs.find("    triggered by the following guard failure(s):\n"
                            "    - 0/0: len(ys) == 2                                             # for y, z in zip(ys, zs):  # script.py:7 in inner\n"
                            "    - User stack trace:\n"
                            "    -   File \"script.py\", line 4, in fn\n"
                            "    -     return inner(x, ys, zs)\n"
                            "    -   File \"script.py\", line 7, in inner\n"
                            "    -     for y, z in zip(ys, zs):\n"),
              std::string::npos)
        << run.logs;
    EXPECT_EQ(run.out, "tensor([7.])\n");  // x += 1*3 twice, in place, as in PyTorch
}

TEST(Guards, ConstantArgumentsAreSpecialised) {
    auto run = runScript(R"(import torch

@torch.compile(backend="eager")
def scale(x, k):
    return x * k

x = torch.ones(2)
print(scale(x, 2), scale(x, 2), scale(x, 3))
)",
                         "recompiles");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([2., 2.]) tensor([2., 2.]) tensor([3., 3.])\n");
    EXPECT_EQ(run.compiles, 2);
    EXPECT_NE(run.logs.find("    - 0/0: k == 2                                                   # return x * k  # script.py:5 in scale\n"),
              std::string::npos)
        << run.logs;
}

// A compiled function that reads an object's attributes guards them by their source
// (G['sc'].scale == 2.0, L['m'].w's tensor properties) and guards the object's class, so
// changing an attribute or passing an object of another class recompiles instead of
// reusing a trace of stale code; an unchanged object hits the cache.
TEST(Guards, ObjectAttributesAndTheirClassAreGuarded) {
    auto run = runScript(R"(import torch

class Scaler:
    def __init__(self, s):
        self.scale = s
        self.w = torch.ones(2)

    def apply(self, x):
        return x * self.scale + self.w

class Shifter:
    def __init__(self):
        self.scale = 5.0

    def apply(self, x):
        return x - self.scale

sc = Scaler(2.0)

@torch.compile(backend="eager")
def f(x):
    return sc.apply(x)

@torch.compile(backend="eager")
def g(m, x):
    return m.apply(x)

x = torch.ones(2)
print(f(x), f(x))
sc.scale = 3.0
print(f(x))
print(g(Scaler(4.0), x), g(Shifter(), x))
)", "recompiles");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([3., 3.]) tensor([3., 3.])\ntensor([4., 4.])\ntensor([5., 5.]) tensor([-4., -4.])\n");
    EXPECT_EQ(run.compiles, 4);
    const std::string scalerId = std::to_string(fusescope::typeId("<class '__main__.Scaler'>"));
    EXPECT_EQ(run.logs,
              "[0/1] [__recompiles] Recompiling function f in script.py:20\n"
              "    triggered by the following guard failure(s):\n"
              "    - 0/0: G['sc'].scale == 2.0                                          # return x * self.scale + self.w  # script.py:9 in apply\n"
              "    - User stack trace:\n"
              "    -   File \"script.py\", line 22, in f\n"
              "    -     return sc.apply(x)\n"
              "    -   File \"script.py\", line 9, in apply\n"
              "    -     return x * self.scale + self.w\n"
              "[1/1] [__recompiles] Recompiling function g in script.py:24\n"
              "    triggered by the following guard failure(s):\n"
              "    - 1/0: ___check_type_id(m, " + scalerId +
                  "), type=<class '__main__.Scaler'>  # return m.apply(x)  # script.py:26 in g (HINT: type Scaler)\n"
              "    - User stack trace:\n"
              "    -   File \"script.py\", line 26, in g\n"
              "    -     return m.apply(x)\n");
}

// torch.compile(module) compiles the module's forward with the module as L['self']; its
// parameters are graph inputs named by where they live (L['self']._modules['fc']._parameters
// ['weight']), and changing an attribute, switching train/eval or changing the batch size
// recompiles with the failing guard in PyTorch's words, pointing at the script's line.
TEST(Guards, ModuleAttributesTrainingAndBatchSizeRecompileAModule) {
    auto run = runScript(R"(import torch
import torch.nn as nn

class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.drop = nn.Dropout(0.5)
        self.scale = 2.0

    def forward(self, x):
        return self.drop(self.fc(x)) * self.scale

block = Block().eval()
fast = torch.compile(block, backend="eager")
x = torch.ones(2, 4)
fast(x)
fast(x)
block.scale = 3.0
fast(x)
block.train()
fast(x)
block.eval()
fast(torch.ones(5, 4))
)", "recompiles,graph_code");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.compiles, 4);
    auto logs = run.logs;
    EXPECT_NE(logs.find("def forward(self, l_x_: \"f32[2, 4]\", l_self_modules_fc_parameters_weight_: \"f32[4, 4]\", "
                        "l_self_modules_fc_parameters_bias_: \"f32[4]\"):"), std::string::npos) << logs;
    EXPECT_NE(logs.find("        # File: script.py:12 in forward, code: return self.drop(self.fc(x)) * self.scale\n"
                        "        linear: \"f32[2, 4]\" = torch.nn.functional.linear(l_x_, l_self_modules_fc_parameters_weight_, "
                        "l_self_modules_fc_parameters_bias_)\n"), std::string::npos) << logs;
    EXPECT_NE(logs.find("[0/1] [__recompiles] Recompiling function forward in script.py:11\n"
                        "    triggered by the following guard failure(s):\n"
                        "    - 0/0: self.scale == 2.0                                        # return self.drop(self.fc(x)) * self.scale  # script.py:12 in forward\n"),
              std::string::npos) << logs;
    // Made in torch.nn's Dropout.forward, shown at PyTorch's own line there, as PyTorch shows it.
    EXPECT_NE(logs.find("    - 0/1: self._modules['drop'].training == False                  # return F.dropout(input, self.p, "
                        "self.training, self.inplace)  # torch/nn/modules/dropout.py:73 in forward\n"),
              std::string::npos) << logs;
    EXPECT_NE(logs.find("    - 0/2: tensor 'x' size mismatch at index 0. expected 2, actual 5\n"), std::string::npos) << logs;
}

// Each captured node records the nn.Modules it ran in (Dynamo's nn_module_stack), outermost
// first and named from the compiled module: the Graph view groups nodes by it.
TEST(Guards, CapturedNodesRecordTheirModuleStack) {
    auto run = runScript(R"(import torch
import torch.nn as nn

class Inner(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return torch.relu(self.fc(x))

class Outer(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Inner(), Inner()])
        self.head = nn.Linear(4, 2)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.head(x) * 2

torch.compile(Outer(), backend="eager")(torch.ones(2, 4))
)");
    ASSERT_EQ(run.error, "");
    auto graphs = run.eventsOf<fusescope::GraphCapturedEvent>();
    ASSERT_EQ(graphs.size(), 1u);
    std::vector<std::string> stacks;
    for (const auto& node : graphs[0].graph["nodes"]) {
        std::string text = node["name"].get<std::string>() + ":";
        for (const auto& m : node["nn_module_stack"]) text += " " + m["path"].get<std::string>() + "(" + m["class"].get<std::string>() + ")";
        stacks.push_back(text);
    }
    EXPECT_EQ(stacks, (std::vector<std::string>{
                          "l_x_:",
                          "l_self_modules_blocks_modules_0_modules_fc_parameters_weight_:",
                          "l_self_modules_blocks_modules_0_modules_fc_parameters_bias_:",
                          "l_self_modules_blocks_modules_1_modules_fc_parameters_weight_:",
                          "l_self_modules_blocks_modules_1_modules_fc_parameters_bias_:",
                          "l_self_modules_head_parameters_weight_:",
                          "l_self_modules_head_parameters_bias_:",
                          "linear: blocks.0(Inner) blocks.0.fc(Linear)",
                          "relu: blocks.0(Inner)",
                          "linear_1: blocks.1(Inner) blocks.1.fc(Linear)",
                          "relu_1: blocks.1(Inner)",
                          "linear_2: head(Linear)",
                          "mul:",
                      }));
}

// A trace that walked a ModuleList saw that many layers: appending one after compiling
// recompiles (the dict of submodules is length-guarded) instead of skipping the new layer.
TEST(Guards, GrowingAModuleListRecompiles) {
    auto run = runScript(R"(import torch
import torch.nn as nn

class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(2, 2) for _ in range(2)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

s = Stack()
f = torch.compile(s, backend="eager")
x = torch.ones(1, 2)
with torch.no_grad():
    print(torch.allclose(f(x), s(x)))
    s.layers.append(nn.Linear(2, 2))
    print(torch.allclose(f(x), s(x)))
)", "recompiles");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "True\nTrue\n");
    // The ModuleList's keys are guarded in order (PyTorch 2.15's DictGuardManager), its length first.
    EXPECT_EQ(run.logs,
              "[0/1] [__recompiles] Recompiling function forward in script.py:9\n"
              "    triggered by the following guard failure(s):\n"
              "    - 0/0: len(self._modules['layers']._modules) != 2\n");
}

// torch.nn's own forward reads its module's globals (F in linear.py) as Dynamo names them,
// through the module PyTorch defines the class in: replacing F.linear recompiles, with the guard
// shown at PyTorch's line; F reached from two torch.nn modules is one object (OBJECT_ALIASING).
TEST(Guards, TorchNnGlobalsAreGuardedThroughTheirModule) {
    auto run = runScript(R"(import torch
import torch.nn as nn
import torch.nn.functional as F

net = nn.Sequential(nn.Linear(2, 2), nn.GELU())
f = torch.compile(net, backend="eager")
x = torch.ones(1, 2)
with torch.no_grad():
    print(torch.allclose(f(x), net(x)))
    original = F.linear
    F.linear = lambda input, weight, bias: original(input, weight, bias) * 2
    print(torch.allclose(f(x), F.gelu(2 * original(x, net[0].weight, net[0].bias))))
    F.linear = original
)", "recompiles,guards");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "True\nTrue\n");
    EXPECT_NE(run.logs.find("    - 0/0: ___check_obj_id(G['__import_torch_dot_nn_dot_modules_dot_linear'].F.linear, "), std::string::npos)
        << run.logs;
    EXPECT_NE(run.logs.find("), type=<class 'builtin_function_or_method'>  # return F.linear(input, self.weight, self.bias)  # "
                            "torch/nn/modules/linear.py:134 in forward\n"),
              std::string::npos)
        << run.logs;
    EXPECT_NE(run.logs.find("+- OBJECT_ALIASING: G['__import_torch_dot_nn_dot_modules_dot_linear'].F is "
                            "G['__import_torch_dot_nn_dot_modules_dot_activation'].F  # return F.gelu(input, "
                            "approximate=self.approximate)  # torch/nn/modules/activation.py:817 in forward\n"),
              std::string::npos)
        << run.logs;
    EXPECT_NE(run.logs.find("+- TYPE_MATCH: ___check_type_id(G['__import_torch_dot_nn_dot_modules_dot_module']._global_forward_hooks, "),
              std::string::npos)
        << run.logs;
}

TEST(Guards, AKeyTheScriptLooksUpInAModuleDictIsGuarded) {
    // `"shift" in self._buffers` decides the graph: registering the buffer later recompiles,
    // with the key's guard as the reason. The nn.Module machinery's own lookups add none.
    auto run = runScript(R"(import torch

class Shifted(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(2, 2)

    def forward(self, x):
        y = self.lin(x)
        if "shift" in self._buffers:
            y = y + self.shift
        return y

m = Shifted()
f = torch.compile(m, backend="eager")
x = torch.ones(1, 2)
a = f(x)
m.register_buffer("shift", torch.full((2,), 10.0))
print(torch.allclose(f(x) - a, torch.full((1, 2), 10.0)))
)", "recompiles,guards");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "True\n");
    EXPECT_NE(run.logs.find("+- DICT_CONTAINS: not ___dict_contains('shift', L['self']._buffers)             # if \"shift\" in "
                            "self._buffers:  # script.py:10 in forward (HINT: Dictionary L['self']._buffers must not contain key 'shift'; "
                            "Dynamo specialized the compiled code on this key being absent.)\n"),
              std::string::npos)
        << run.logs;
    EXPECT_NE(run.logs.find("[0/1] [__recompiles] Recompiling function forward in script.py:8\n"
                            "    triggered by the following guard failure(s):\n"
                            "    - 0/0: not ___dict_contains('shift', self._buffers)             # if \"shift\" in self._buffers:  # script.py:10 in "
                            "forward (HINT: Dictionary self._buffers must not contain key 'shift'; Dynamo specialized the compiled code on this "
                            "key being absent.)\n"),
              std::string::npos)
        << run.logs;
    EXPECT_NE(run.logs.find("+- DICT_CONTAINS: ___dict_contains('shift', L['self']._buffers)                 # if \"shift\" in "
                            "self._buffers:  # script.py:10 in forward (HINT: Dictionary L['self']._buffers must contain key 'shift'; "
                            "Dynamo specialized the compiled code on this key being present.)\n"),
              std::string::npos)
        << run.logs;
    // nn.Module's own lookup of self.lin guards the dicts it reads by type only, as Dynamo's.
    EXPECT_EQ(run.logs.find("___dict_contains('lin'"), std::string::npos) << run.logs;
    EXPECT_NE(run.logs.find("+- TYPE_MATCH: ___check_type_id(L['self']._modules, "), std::string::npos) << run.logs;
}

TEST(Guards, AMethodShadowedOnTheInstanceRecompiles) {
    // A method the trace called (a submodule's forward, a method of the script) holds while
    // no instance attribute of the same name shadows it; setting one recompiles with that
    // guard as the reason, as Dynamo's DICT_CONTAINS guards on __dict__ do.
    auto run = runScript(R"(import torch

class Scaled(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(2, 2)

    def scale(self, y):
        return y * 2

    def forward(self, x):
        return self.scale(self.lin(x))

m = Scaled()
f = torch.compile(m, backend="eager")
x = torch.ones(1, 2)
f(x)
f(x)
m.lin.forward = lambda t: t * 0
print(f(x))
m.scale = lambda y: y + 100
print(f(x))
)", "recompiles");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([[0., 0.]])\ntensor([[100., 100.]])\n");
    EXPECT_EQ(run.logs,
              "[0/1] [__recompiles] Recompiling function forward in script.py:11\n"
              "    triggered by the following guard failure(s):\n"
              "    - 0/0: not ___dict_contains('forward', self._modules['lin'].__dict__)  # return self.scale(self.lin(x))  # script.py:12 in forward\n"
              "    - User stack trace:\n"
              "    -   File \"script.py\", line 12, in forward\n"
              "    -     return self.scale(self.lin(x))\n"
              "[0/2] [__recompiles] Recompiling function forward in script.py:11\n"
              "    triggered by the following guard failure(s):\n"
              "    - 0/1: not ___dict_contains('scale', self.__dict__)             # return self.scale(self.lin(x))  # script.py:12 in forward\n"
              "    - User stack trace:\n"
              "    -   File \"script.py\", line 12, in forward\n"
              "    -     return self.scale(self.lin(x))\n"
              "    - 0/0: not ___dict_contains('forward', self._modules['lin'].__dict__)  # return self.scale(self.lin(x))  # script.py:12 in forward\n"
              "    - User stack trace:\n"
              "    -   File \"script.py\", line 12, in forward\n"
              "    -     return self.scale(self.lin(x))\n");
}

// One tensor passed twice is one graph input: the second name is guarded to be the same object
// (OBJECT_ALIASING, not a second TENSOR_MATCH), and two different tensors recompile, as PyTorch
// 2.15 logs this program.
TEST(Guards, OneTensorPassedTwiceIsGuardedAsOneObject) {
    auto run = runScript(R"(import torch

def f(a, b):
    a.add_(1)
    return a + b

t = torch.ones(2)
cf = torch.compile(f, backend="eager")
print(cf(t, t), cf(t, t))
u = torch.ones(2)
print(cf(t, u), cf(u, u))
)", "recompiles,guards");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([4., 4.]) tensor([6., 6.])\ntensor([5., 5.]) tensor([4., 4.])\n");
    EXPECT_NE(run.logs.find("| | +- OBJECT_ALIASING: L['a'] is L['b']"), std::string::npos) << run.logs;
    EXPECT_EQ(run.logs.find("TENSOR_MATCH: check_tensor(L['b']"), run.logs.rfind("TENSOR_MATCH: check_tensor(L['b']")) << run.logs;
    EXPECT_NE(run.logs.find("    - 0/0: a is b "), std::string::npos) << run.logs;
}

// The values a breaking call is handed are wrapped as Dynamo wraps its stack there: a list or
// tuple guarded by type and length, a dict by type, the tensors they hold as graph inputs (one
// also reached as a local: the same object), their other items not at all (PyTorch 2.15's guards).
TEST(Guards, TheContainersABreakingCallIsHandedAreGuardedByTypeAndLength) {
    auto run = runScript(R"(import torch

def g(*xs):
    print("hi")
    return xs[0]

def h(a, l, tp, d):
    return g(a + 1, l, tp, d)

t = torch.ones(2)
torch.compile(h, backend="eager")(t, [1, t], (2, 3), {"k": 1, "j": t})
)", "guards");
    ASSERT_EQ(run.error, "");
    for (const char* guard : {"| | +- OBJECT_ALIASING: L['a'] is L['l'][1]", "| | +- OBJECT_ALIASING: L['a'] is L['d']['j']",
                              "| | +- TYPE_MATCH: ___check_type_id(L['d'], ", "| | +- LENGTH_CHECK: len(L['l']) == 2",
                              "| | +- LENGTH_CHECK: len(L['tp']) == 2"})
        EXPECT_NE(run.logs.find(guard), std::string::npos) << guard << "\n" << run.logs;
    for (const char* unguarded : {"L['tp'][0]", "L['l'][0]", "L['d']['k']", "DICT_LENGTH"})
        EXPECT_EQ(run.logs.find(unguarded), std::string::npos) << unguarded << "\n" << run.logs;
}

// A parameter keeps its static sizes through a recompile (Dynamo's force_parameter_static_shapes):
// another module's Linear recompiles with PyTorch 2.15's note on the parameter, and none is made
// dynamic; with the setting off, a module of the script's own shares one dynamic graph, while
// torch.nn's own modules keep theirs static still (force_nn_module_property_static_shapes).
TEST(Guards, AParametersSizesStayStaticThroughARecompile) {
    const char* script = R"(import torch

class Scale(torch.nn.Module):
    def __init__(self, n):
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(n))

    def forward(self, x):
        return x * self.w

torch._dynamo.config.force_parameter_static_shapes = STATIC
linear = torch.compile(lambda m, x: m(x) * 2, backend="eager")
scale = torch.compile(lambda m, x: m(x) + 1, backend="eager")
for n in (3, 5, 7):
    print(tuple(linear(torch.nn.Linear(4, n), torch.ones(2, 4)).shape), scale(Scale(n), torch.ones(n)).sum().item())
)";
    for (bool isStatic : {true, false}) {
        std::string text = script;
        text.replace(text.find("STATIC"), 6, isStatic ? "True" : "False");
        auto run = runScript(text, "recompiles,dynamic");
        ASSERT_EQ(run.error, "");
        EXPECT_EQ(run.out, "(2, 3) 6.0\n(2, 5) 10.0\n(2, 7) 14.0\n");
        EXPECT_NE(run.logs.find("    - 0/0: tensor 'm._parameters['bias']' size mismatch at index 0. expected 3, actual 5. Guard "
                                "failed on a parameter, consider using torch._dynamo.config.force_parameter_static_shapes = "
                                "False to allow dynamism on parameters.\n"),
                  std::string::npos)
            << run.logs;
        EXPECT_NE(run.logs.find("[0/2] [__recompiles] Recompiling function <lambda>"), std::string::npos) << run.logs;
        EXPECT_EQ(run.logs.find("[1/2] [__recompiles]") != std::string::npos, isStatic) << run.logs;
        EXPECT_EQ(run.logs.find("marking L['m']._parameters['bias'] as dynamic"), std::string::npos) << run.logs;
        EXPECT_EQ(run.logs.find("marking L['m']._parameters['w'] as dynamic") == std::string::npos, isStatic) << run.logs;
    }
}

// A function PyTorch writes in C++ and Fusescope's library in Python (F.conv_transpose2d), and
// torch.nn's _single, are calls Dynamo makes itself: what they read of the library is not
// guarded, and what they read of their arguments is guarded at the call (PyTorch 2.15's guards).
TEST(Guards, ABuiltinWrittenInPythonIsGuardedAtItsCall) {
    auto run = runScript(R"(import torch

conv = torch.nn.ConvTranspose2d(2, 3, 3, stride=2, output_padding=1)
print(tuple(torch.compile(conv, backend="eager")(torch.ones(1, 2, 4, 4)).shape))
)", "guards");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "(1, 3, 10, 10)\n");
    EXPECT_NE(run.logs.find("| | | | +- EQUALS_MATCH: L['fn'].output_padding == (1, 1)                              "
                            "# ret = _single(self.output_padding)  # converting to list if was not already  "
                            "# torch/nn/modules/conv.py:789 in _output_padding\n"),
              std::string::npos)
        << run.logs;
    for (const char* unguarded : {"__import_torch_dot_nn_dot_functional", "utils.py"})
        EXPECT_EQ(run.logs.find(unguarded), std::string::npos) << unguarded << "\n" << run.logs;
    EXPECT_NE(run.logs.find("type=<class 'tuple'>  # if not isinstance(self.padding, tuple):  # torch/nn/modules/conv.py:1183 in forward"),
              std::string::npos)
        << run.logs;
}

// isinstance realizes what it is handed, as Dynamo does: the object by its type (a tuple's
// length with it), each class by id; a float found equal to a constant is that constant from
// there on, so the relations guarded before it go (ShapeEnv's replacement).
TEST(Guards, IsinstanceGuardsTheObjectAndTheClass) {
    auto run = runScript(R"(import torch

def f(x, p, pad):
    if not isinstance(pad, tuple):
        return x - 1
    if p < -1.0 or p > 1.0:
        raise ValueError("p")
    if p == 0.0:
        return x
    return x * p

cf = torch.compile(f, backend="eager")
x = torch.ones(2)
print(cf(x, 0.5, (1, 2)), cf(x, 0.0, (1, 2)), cf(x, 0.0, [1, 2]))
)", "recompiles,guards");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([0.5000, 0.5000]) tensor([1., 1.]) tensor([0., 0.])\n");
    const std::string second = run.logs.substr(run.logs.find("[0/1] [__guards]"));
    for (const char* guard :
         {"| | +- TYPE_MATCH: ___check_type_id(L['pad'], ", "| | +- LENGTH_CHECK: len(L['pad']) == 2",
          "| | | | +- ID_MATCH: ___check_obj_id(G['__builtins_dict___2']['tuple'], ",
          "+- LAMBDA_GUARD: L['p'] == 0.0  # if p == 0.0:  # script.py:8 in f (_dynamo/variables/tensor.py:3083 in evaluate_expr)"})
        EXPECT_NE(second.find(guard), std::string::npos) << guard << "\n" << second;
    EXPECT_EQ(second.find("L['p'] >= -1.0"), std::string::npos) << second;
    EXPECT_NE(run.logs.find("    - 0/1: ___check_type_id(pad, " + std::to_string(fusescope::typeId("<class 'tuple'>")) +
                            "), type=<class 'tuple'>  # if not isinstance(pad, tuple):  # script.py:4 in f (HINT: type tuple)\n"),
              std::string::npos)
        << run.logs;
}

// A method's defaults are guarded on its instance's class, as Dynamo reads the method there:
// their type and count at the call, a default the call takes where it is used (PyTorch 2.15).
TEST(Guards, AMethodsDefaultsAreGuardedOnItsClass) {
    auto run = runScript(R"(import torch

class M(torch.nn.Module):
    def helper(self, x, output_size=None, scale=2):
        if output_size is None:
            return x + 1
        return x * scale

    def forward(self, x):
        return self.helper(x)

print(torch.compile(M(), backend="eager")(torch.ones(2)))
)", "guards");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([2., 2.])\n");
    for (const char* guard :
         {"| | | | +- GuardManager: source=dict(type(L['self']).__dict__)['helper'], accessed_by=DictGetItemGuardAccessor('helper'), "
          "type=<class 'function'>",
          "| | | | | | +- LENGTH_CHECK: len(dict(type(L['self']).__dict__)['helper'].__defaults__) == 2  # return self.helper(x)  "
          "# script.py:10 in forward",
          "NONE_MATCH: dict(type(L['self']).__dict__)['helper'].__defaults__[0] is None  # if output_size is None:  # script.py:5 in helper"})
        EXPECT_NE(run.logs.find(guard), std::string::npos) << guard << "\n" << run.logs;
    EXPECT_EQ(run.logs.find("__defaults__[1]"), std::string::npos) << run.logs;
}

// An attribute handed to a method as its argument is a lazy value to Dynamo: guarded where the
// method reads it (its stack there), not at all where it never does, so changing it does not
// recompile (real PyTorch 2.15's guards and recompiles for this script).
TEST(Guards, AnAttributeHandedToAMethodIsGuardedWhereTheMethodReadsIt) {
    auto run = runScript(R"(import torch

class Scaler(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.read = (2, 2)
        self.unread = (3, 3)

    def scale(self, x, read, unread):
        return x * read[0]

    def forward(self, x):
        return self.scale(x, self.read, unread=self.unread)

m = Scaler()
f = torch.compile(m, backend="eager")
x = torch.ones(2)
print(f(x))
m.unread = (5, 5)
print(f(x))
m.read = (4, 4)
print(f(x))
)", "guards,recompiles");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([2., 2.])\ntensor([2., 2.])\ntensor([4., 4.])\n");
    EXPECT_EQ(run.compiles, 2);
    EXPECT_NE(run.logs.find("| | | | +- EQUALS_MATCH: L['self'].read == (2, 2)                                      "
                            "# return x * read[0]  # script.py:10 in scale\n"),
              std::string::npos) << run.logs;
    EXPECT_NE(run.logs.find("    - 0/0: self.read == (2, 2)                                      # return x * read[0]  # script.py:10 in scale\n"),
              std::string::npos) << run.logs;
    EXPECT_EQ(run.logs.find("unread =="), std::string::npos) << run.logs;
}
