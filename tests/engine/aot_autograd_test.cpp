// AOT Autograd: a compiled graph whose inputs require grad becomes a joint graph, a forward
// graph that also returns what backward needs, and a backward graph; both compile like any
// graph, and CompiledFunctionBackward runs the compiled backward. Gradients are eager's.

#include <gtest/gtest.h>

#include "aot/aot_graphs.h"
#include "decompose/graph_builder.h"
#include "graph/graph_printer.h"
#include "observe/compile_report.h"
#include "test_support.h"

namespace fusescope::test {
namespace {

TensorMeta metaOf(const Shape& sizes) { return TensorMeta{sizes, contiguousStrides(sizes), DType::Float32, {}}; }

// A linear layer with relu: x @ w.t() + b, relu, summed.
std::shared_ptr<Graph> linearReluSum() {
    auto g = std::make_shared<Graph>();
    GraphBuilder b(*g);
    Node* x = b.placeholder("L['x']", metaOf({3, 4}));
    Node* w = b.placeholder("L['w']", metaOf({5, 4}));
    Node* bias = b.placeholder("L['b']", metaOf({5}));
    Node* linear = b.call("linear", {Argument::ref(x), Argument::ref(w), Argument::ref(bias)});
    Node* relu = b.call("relu", {Argument::ref(linear)});
    g->setOutputs({Argument::ref(b.call("sum", {Argument::ref(relu)}))});
    return g;
}

TEST(AotGraphs, TheBackwardTakesWhatTheForwardSavedAndTheTangents) {
    AotGraphs g = aotGraphs(*linearReluSum(), {false, true, true});
    // The forward returns the sum, then relu (which relu's derivative reads); x is saved as
    // an input (the weight's gradient reads it), the weight not at all (x needs no gradient).
    EXPECT_EQ(g.userOutputs, 1u);
    ASSERT_EQ(g.saved.size(), 2u);
    EXPECT_EQ(g.saved[0].name, "relu");
    EXPECT_EQ(g.saved[0].forwardOutput, 1);
    EXPECT_EQ(g.saved[1].name, "primals_1");
    EXPECT_EQ(g.saved[1].input, 0);
    EXPECT_EQ(g.outputsWithTangent, (std::vector<size_t>{0}));
    EXPECT_EQ(g.inputsWithGradient, (std::vector<size_t>{1, 2}));

    std::vector<std::string> backwardInputs;
    for (const Node* p : g.backward->placeholders()) backwardInputs.push_back(p->name + ": " + p->meta[0].str());
    EXPECT_EQ(backwardInputs, (std::vector<std::string>{"relu: f32[3, 5]", "primals_1: f32[3, 4]", "tangents_1: f32[]"}));
    EXPECT_EQ(g.forward->outputs().size(), 2u);
    EXPECT_EQ(g.backward->outputs().size(), 2u);  // the weight's and the bias's gradients
    EXPECT_EQ(g.joint->placeholders().size(), 4u);  // three primals and the tangent
    EXPECT_EQ(g.joint->outputs().size(), 3u);       // the sum, then the two gradients

    // Each backward node points at the forward node it differentiates.
    std::string readable = graphReadable(*g.backward);
    EXPECT_NE(readable.find("gt: \"b8[3, 5]\" = torch.gt(relu, 0.0)"), std::string::npos) << readable;
    for (const auto& n : g.backward->nodes()) {
        if (n->op == NodeOp::Placeholder || n->op == NodeOp::Output) continue;
        EXPECT_TRUE(n->capturedName == "linear" || n->capturedName == "relu" || n->capturedName == "sum_1") << n->name << ": " << n->capturedName;
    }
}

TEST(AotGraphs, AnOpWithoutADerivativeOnTheGradientsPathIsUnsupported) {
    auto g = std::make_shared<Graph>();
    GraphBuilder b(*g);
    Node* x = b.placeholder("L['x']", metaOf({3, 4}));
    // floor_divide has none in PyTorch either.
    g->setOutputs({Argument::ref(b.call("floor_divide", {Argument::ref(x), Argument::ref(x)}))});
    try {
        aotGraphs(*g, {true});
        FAIL() << "floor_divide has no derivative";
    } catch (const AotUnsupported& e) {
        EXPECT_STREQ(e.what(), "derivative for aten::floor_divide is not implemented");  // PyTorch's words
    }
    // The same graph when nothing requires grad has nothing to differentiate.
    EXPECT_TRUE(aotGraphs(*g, {false}).inputsWithGradient.empty());
}

// A compiled MLP step: each backend's gradients are eager's, and the graphs are logged.
TEST(AotAutograd, CompiledGradientsAreEagersOnEveryAotBackend) {
    const std::string script = R"(import torch
torch.manual_seed(0)
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(4, 8)
        self.fc2 = torch.nn.Linear(8, 3)
    def forward(self, x):
        return torch.log_softmax(self.fc2(torch.nn.functional.gelu(self.fc1(x))), dim=1)
model = Net()
x = torch.linspace(-1, 1, 24).reshape(6, 4)
y = torch.tensor([0, 1, 2, 1, 0, 2])
def step(fn):
    model.zero_grad()
    loss = torch.nn.functional.nll_loss(fn(x), y)
    loss.backward()
    return loss, [p.grad.clone() for p in model.parameters()]
loss, expected = step(model)
for backend in ["aot_eager", "aot_eager_decomp_partition", "inductor"]:
    torch._dynamo.reset()
    got_loss, got = step(torch.compile(model, backend=backend))
    print(backend, torch.allclose(got_loss, loss), all(torch.allclose(g, e, atol=1e-6) for g, e in zip(got, expected)))
)";
    ScriptRun run = runScript(script, "aot_graphs,aot_joint_graph,aot");
    ASSERT_EQ(run.error, "") << run.out;
    EXPECT_EQ(run.out, "aot_eager True True\naot_eager_decomp_partition True True\ninductor True True\n");
    EXPECT_NE(run.logs.find("===== Joint graph __compiled_fn_0 ====="), std::string::npos) << run.logs;
    EXPECT_NE(run.logs.find("===== Forward graph __compiled_fn_0 ====="), std::string::npos) << run.logs;
    EXPECT_NE(run.logs.find("===== Backward graph __compiled_fn_0 ====="), std::string::npos) << run.logs;
    EXPECT_NE(run.logs.find("def forward(self, primals_1: \"f32[6, 4]\", primals_2: \"f32[8, 4]\""), std::string::npos) << run.logs;
    EXPECT_NE(run.logs.find("__compiled_fn_0: partitioner default (every forward value the backward reads is saved); saved for "
                            "backward (5):"),
              std::string::npos)
        << run.logs;
}

TEST(AotAutograd, OutputsThatNeedNoGradientAndCallsUnderNoGrad) {
    ScriptRun run = runScript(R"(import torch
w = torch.ones(3, requires_grad=True)
@torch.compile
def f(x):
    y = x * w
    return y.sum(), y.argmax(), x * 2
loss, index, doubled = f(torch.arange(3.0))
print(loss.grad_fn.name(), index.requires_grad, doubled.requires_grad)
loss.backward()
print(w.grad)
with torch.no_grad():
    print(f(torch.arange(3.0))[0].requires_grad)
try:
    loss.backward()
except RuntimeError as e:
    print(str(e)[:40])
)");
    ASSERT_EQ(run.error, "") << run.out;
    EXPECT_EQ(run.out, "CompiledFunctionBackward False False\ntensor([0., 1., 2.])\nFalse\nTrying to backward through the graph a s\n");
}

// An op that returns its input (contiguous of a contiguous tensor), detach, and an input
// returned as an output: gradients as eager's, the input still a leaf with its own history.
TEST(AotAutograd, IdentityOpsDetachAndReturnedInputsKeepEagersGradients) {
    ScriptRun run = runScript(R"(import torch
x = torch.linspace(-1, 1, 6).reshape(2, 3).requires_grad_()
w = torch.linspace(0, 1, 12).reshape(3, 4).requires_grad_()
def f(x, w):
    h = (x @ w).contiguous()
    return (h * h.detach()).sum(), h.detach(), x
for backend in ["aot_eager", "inductor"]:
    grads = []
    for fn in [f, torch.compile(f, backend=backend)]:
        x.grad = w.grad = None
        for step in range(2):
            loss, detached, same = fn(x, w)
            loss.backward()
        grads.append((x.grad.clone(), w.grad.clone()))
        print(backend, detached.requires_grad, same.requires_grad, x.is_leaf, x.grad_fn)
    print(all(torch.allclose(a, b) for a, b in zip(*grads)))
)");
    ASSERT_EQ(run.error, "") << run.out;
    EXPECT_EQ(run.out,
              "aot_eager False True True None\naot_eager False True True None\nTrue\n"
              "inductor False True True None\ninductor False True True None\nTrue\n");
}

// A CNN's backward compiled by inductor: convolutions' gradients as convolutions, max
// pooling's as a kernel of its own (windows that overlap, padding, dilation, ceil_mode, ties
// after relu), each equal to eager's, and no graph falls back to eager.
TEST(AotAutograd, ConvolutionAndPoolingGradientsCompiledEqualEagers) {
    ScriptRun run = runScript(R"(import torch
import torch.nn.functional as F
x = (torch.arange(2 * 3 * 7 * 6) * 37 % 101).float().reshape(2, 3, 7, 6) / 50 - 1
w = (torch.arange(4 * 3 * 3 * 3) * 7 % 11).float().reshape(4, 3, 3, 3) / 10 - 0.5
b = torch.linspace(-1, 1, 4)
def f(x, w, b):
    h = torch.relu(F.conv2d(x, w, b, stride=(1, 2), padding=1))
    return (F.max_pool2d(h, 3, 2, 1) * 3).sum() + F.max_pool2d(h, 2, 1, 0, 2, True).sum() + F.max_pool2d(h, 2).pow(2).sum()
grads = []
for fn in [f, torch.compile(f)]:
    inputs = [t.clone().requires_grad_() for t in (x, w, b)]
    fn(*inputs).backward()
    grads.append([t.grad for t in inputs])
print([torch.allclose(a, e, atol=1e-5) for a, e in zip(*grads)])
)", "inductor");
    ASSERT_EQ(run.error, "") << run.out;
    EXPECT_EQ(run.out, "[True, True, True]\n");
    EXPECT_EQ(run.logs.find("running the graph eagerly"), std::string::npos) << run.logs;
}

// A whole training step compiled: breaks at zero_grad() and backward(); the graph before
// backward() gets a backward graph, the optimizer step after it (in-place updates under no_grad) compiles without one,
// and the compile report counts them.
TEST(AotAutograd, AnOptimizerStepCompilesAndTheReportCountsBackwardGraphs) {
    ScriptRun run = runScript(R"(import torch
w = torch.nn.Parameter(torch.linspace(-1, 1, 4))
opt = torch.optim.SGD([w], lr=0.5, momentum=0.9)
@torch.compile
def step(x):
    opt.zero_grad()
    loss = (w * x).pow(2).sum()
    loss.backward()
    opt.step()
    return loss
for _ in range(3):
    print(f"{step(torch.ones(4)).item():.4f}")
print(w)
)", "aot,inductor");
    ASSERT_EQ(run.error, "") << run.out;
    // PyTorch 2.15 prints the same.
    EXPECT_EQ(run.out, "2.2222\n0.0000\n1.8000\nParameter containing:\ntensor([ 0.8100,  0.2700, -0.2700, -0.8100], requires_grad=True)\n");
    EXPECT_EQ(run.logs.find("running the graph eagerly"), std::string::npos) << run.logs;
    CompileReport report;
    for (const Event& e : run.events) report.consume(e);
    const std::string text = report.render();
    EXPECT_NE(text.find("3 graphs (1 with a backward graph), 9 ops, 4 graph breaks"), std::string::npos) << text;
    // The graph breaks are PyTorch 2.15's: zero_grad (Dynamo skips it), backward(), and the
    // optimizer's _use_grad (optimizer.py:78), met in the step's frame and again in the frame of
    // its wrapper (profile_hook_step); SGD.step is a frame of its own with the update's graphs.
    EXPECT_NE(text.find("Attempted to inline function marked as skipped (script.py:6)"), std::string::npos) << text;
    EXPECT_NE(text.find("Unsupported Tensor.backward() call (script.py:8)"), std::string::npos) << text;
    EXPECT_NE(text.find("torch_dynamo_resume_in_wrapper_at_567 (torch/optim/optimizer.py:567)"), std::string::npos) << text;
}

// A compiled AdamW step: _init_group makes the state untraced before the state is guarded, and
// the step count stays a tensor while traced, so every step runs one graph (PyTorch 2.15's
// counters say 1 unique graph too), and the parameters follow eager's.
TEST(AotAutograd, ACompiledAdamWStepCompilesOnceAndFollowsEager) {
    ScriptRun run = runScript(R"(import torch
def train(compile_step):
    p = [torch.nn.Parameter(torch.linspace(-1, 1, 6)), torch.nn.Parameter(torch.linspace(0, 2, 3))]
    opt = torch.optim.AdamW(p, lr=0.1)
    step = torch.compile(opt.step) if compile_step else opt.step
    for i in range(5):
        for q in p:
            q.grad = torch.cos(q.detach() * (i + 1))  # detached, as backward makes them (a cycle otherwise)
        step()
    return p
# PyTorch 2.15's compiled step differs from its eager one by up to 5e-6 here (float32 powers).
print(all(torch.allclose(a, b, atol=1e-5) for a, b in zip(train(True), train(False))))
@torch.compile
def compiling():
    return torch.compiler.is_compiling()
print(torch.compiler.is_compiling(), compiling())
)", "inductor");
    ASSERT_EQ(run.error, "") << run.out;
    EXPECT_EQ(run.out, "True\nFalse True\n");
    // compiling() has none.
    EXPECT_EQ(run.eventsOf<GraphCapturedEvent>().size(), 1u);
}

TEST(AotAutograd, AGraphItCannotDifferentiateRunsEagerlyUnderAutogradWhereItsInputsRequireGrad) {
    ScriptRun run = runScript(R"(import torch
x = torch.ones(2, 3, requires_grad=True)
@torch.compile
def f(x):
    return (x // 2).sum(), (x * 3).sum()
a, b = f(x)
print(a, b)
b.backward()
print(x.grad)
a.backward()
)", "aot");
    // One node named as a compiled call's, eager's history behind it: the differentiable
    // output's gradient is eager's, the other raises as eager does.
    EXPECT_EQ(run.out, "tensor(0., grad_fn=<CompiledFunctionBackward>) tensor(18., grad_fn=<CompiledFunctionBackward>)\n"
                       "tensor([[3., 3., 3.],\n        [3., 3., 3.]])\n");
    EXPECT_EQ(run.error, "script.py:10:1: error: RuntimeError: derivative for aten::floor_divide is not implemented");
    EXPECT_NE(run.logs.find("AOT Autograd could not differentiate __compiled_fn_0 (derivative for aten::floor_divide is not "
                            "implemented); where its inputs require grad it runs eagerly, under eager autograd"),
              std::string::npos)
        << run.logs;
}

TEST(AotAutograd, AGraphOfDynamicSizesIsDifferentiatedWithItsSizesAsSymInts) {
    // A training step whose batch size changes: its second compile is dynamic (automatic
    // dynamic shapes). Its backward is traced at two sizes; a derivative's size argument
    // that differs between them is computed from the inputs' sizes, as PyTorch's SymInts.
    // (Once: "cannot differentiate through CompiledFunctionBackward ... has a dynamic size".)
    ScriptRun run = runScript(R"(import torch
lin = torch.nn.Linear(4, 3)
with torch.no_grad():
    lin.weight.copy_(torch.linspace(-1, 1, 12).reshape(3, 4))
    lin.bias.copy_(torch.tensor([0.1, 0.2, -0.3]))
@torch.compile
def step(x, y):
    return ((lin(x).tanh() - y) ** 2).mean()
for n in (2, 3, 5):
    x = torch.linspace(-1, 1, n * 4).reshape(n, 4)
    y = torch.linspace(0, 1, n * 3).reshape(n, 3)
    loss = step(x, y)
    loss.backward()
    print(n, loss.grad_fn.name(), f"{loss.item():.6f}", lin.weight.grad.abs().sum().item() > 0)
    with torch.no_grad():
        lin.weight -= 0.1 * lin.weight.grad
        lin.bias -= 0.1 * lin.bias.grad
    lin.zero_grad()
print(f"{lin.weight.sum().item():.5f} {lin.bias.sum().item():.5f}")
)", "aot,inductor");
    ASSERT_EQ(run.error, "") << run.logs;
    // Real PyTorch 2.15 printed these.
    EXPECT_EQ(run.out, "2 CompiledFunctionBackward 0.841756 True\n3 CompiledFunctionBackward 0.693726 True\n"
                       "5 CompiledFunctionBackward 0.715442 True\n0.15958 0.08631\n");
    EXPECT_EQ(run.eventsOf<GraphCapturedEvent>().size(), 2u);  // 2, then dynamic for 3 and 5
    std::string backward;
    for (const IrDumpEvent& e : run.eventsOf<IrDumpEvent>())
        if (e.stage == "aot_backward_graph" && e.graph == "__compiled_fn_1") backward = e.text;
    // mean's gradient: expanded to the batch's size, divided by its element count.
    EXPECT_NE(backward.find(R"x(sym_size_int: "Sym(s77)" = torch.ops.aten.sym_size.int(primals_1, 0))x"), std::string::npos) << backward;
    EXPECT_NE(backward.find(R"x(expand: "f32[s77, 3]" = reshape.expand([sym_size_int, 3]))x"), std::string::npos) << backward;
    EXPECT_NE(backward.find(R"x(mul: "Sym(3*s77)" = sym_size_int * 3)x"), std::string::npos) << backward;
    EXPECT_NE(backward.find(R"x(div: "f32[s77, 3]" = expand / mul)x"), std::string::npos) << backward;
    EXPECT_EQ(run.logs.find("could not differentiate"), std::string::npos) << run.logs;
    EXPECT_EQ(run.logs.find("running the graph eagerly"), std::string::npos) << run.logs;  // both graphs lowered
}

TEST(AotAutograd, ADerivativesFloatComputedFromADynamicSizeMakesTheGraphRunEagerlyUnderAutograd) {
    // std's derivative multiplies by 1 / (n - 1), a float of the dynamic size: no SymInt
    // computes it, so the dynamic graph is not differentiated here; its gradients are eager's.
    ScriptRun run = runScript(R"(import torch
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
@torch.compile
def f(x):
    return (x * w).std(0).sum() + (x * w).var(dim=0, correction=0).sum()
for n in (4, 5, 7):
    x = torch.linspace(-1, 2, n * 3).reshape(n, 3)
    loss = f(x)
    loss.backward()
    print(n, f"{loss.item():.5f}", w.grad)
    w.grad = None
)", "aot,inductor");
    ASSERT_EQ(run.error, "") << run.logs;
    EXPECT_EQ(run.out, "4 8.09002 tensor([ 1.8930, -2.7298,  4.4034])\n5 7.89685 tensor([ 1.8430, -2.6695,  4.3226])\n"
                       "7 7.65489 tensor([ 1.7821, -2.5921,  4.2121])\n");  // real PyTorch 2.15's
    EXPECT_NE(run.logs.find("AOT Autograd could not differentiate __compiled_fn_1 (a derivative calls mul with a float computed "
                            "from a dynamic size); where its inputs require grad it runs eagerly, under eager autograd"),
              std::string::npos)
        << run.logs;
}

TEST(AotAutograd, ATrainingGraphsDebugFoldersHoldItsJointForwardAndBackwardGraphs) {
    SessionOptions options;
    options.debugDir = writeTempFile("keep", "") + ".d";
    ScriptRun run = runScriptWith(R"(import torch
w = torch.ones(3, requires_grad=True)
@torch.compile
def f(x):
    return (x * w).sin().sum()
f(torch.arange(3.0)).backward()
)",
                                  options);
    ASSERT_EQ(run.error, "");
    for (const char* file : {"aot_joint_graph.txt", "aot_forward_graph.txt", "aot_backward_graph.txt", "output_code.cpp"})
        EXPECT_FALSE(readFile(options.debugDir + "/f_0_0/" + file).empty()) << file;
    std::string backwardCode = readFile(options.debugDir + "/f_0_0___compiled_fn_0_backward/output_code.cpp");
    EXPECT_NE(backwardCode.find("cos"), std::string::npos) << "sin's derivative is in the backward's kernels";
}

}  // namespace
}  // namespace fusescope::test
