// Functionalization: in-place calls in a compiled graph become functional ones, the inputs
// they changed are returned and copied back after each call, and what cannot be expressed
// that way is refused with the reason; compiled, a graph that changes its inputs leaves them
// as eager does.

#include <gtest/gtest.h>

#include "aot/aot_graphs.h"
#include "aot/functionalize.h"
#include "decompose/graph_builder.h"
#include "graph/graph_printer.h"
#include "test_support.h"

namespace fusescope::test {
namespace {

TensorMeta metaOf(const Shape& sizes, DType dtype = DType::Float32) { return TensorMeta{sizes, contiguousStrides(sizes), dtype, {}}; }

Argument number(double v) { return Argument::value(IValue(v)); }

// A BatchNorm-like step: a counter add_(1), a running mean copy_'d from a blend with the
// batch mean, and an output read from the changed mean.
TEST(Functionalize, InPlaceCallsBecomeFunctionalAndChangedInputsAreReturned) {
    Graph g;
    GraphBuilder b(g);
    Node* x = b.placeholder("L['x']", metaOf({4, 3}));
    Node* count = b.placeholder("L['count']", metaOf({}, DType::Int64));
    Node* mean = b.placeholder("L['mean']", metaOf({3}));
    b.call("add_", {Argument::ref(count), Argument::value(IValue(int64_t{1}))});
    Node* blend = b.call("add", {Argument::ref(b.call("mul", {Argument::ref(mean), number(0.9)})),
                                 Argument::ref(b.call("mul", {Argument::ref(b.call("mean", {Argument::ref(x), Argument::value(IValue::intList({0}))})),
                                                              number(0.1)}))});
    Node* copied = b.call("copy_", {Argument::ref(mean), Argument::ref(blend)});
    g.setOutputs({Argument::ref(b.call("sub", {Argument::ref(x), Argument::ref(copied)})), Argument::ref(copied)});

    std::optional<FunctionalGraph> f = functionalize(g, {false, false, false});
    ASSERT_TRUE(f);
    EXPECT_EQ(f->inPlaceCalls, 2);
    EXPECT_EQ(f->userOutputs, 2u);
    EXPECT_EQ(f->changedInputs, (std::vector<size_t>{1, 2}));
    EXPECT_EQ(f->outputIsInput, (std::vector<int>{-1, 2}));  // the changed mean is returned as the input itself
    ASSERT_EQ(f->graph->outputs().size(), 4u);
    for (const auto& n : f->graph->nodes()) EXPECT_NE(n->target.back(), '_') << n->name;
    std::string readable = graphReadable(*f->graph);
    EXPECT_NE(readable.find("add: \"i64[]\" = l_count_ + 1"), std::string::npos) << readable;
    // copy_ leaves the blend in the mean: later reads, the output and the copy back read it.
    EXPECT_NE(readable.find("sub: \"f32[4, 3]\" = l_x_ - add_1\n        return (sub, add_1, add, add_1)"), std::string::npos) << readable;
    // A functional call stands for the captured call it replaces; the others keep their own.
    EXPECT_EQ(f->graph->nodes()[3]->capturedName, "add_");
    EXPECT_EQ(f->graph->nodes()[7]->capturedName, "add");

    Graph plain;
    GraphBuilder p(plain);
    plain.setOutputs({Argument::ref(p.call("relu", {Argument::ref(p.placeholder("L['x']", metaOf({2})))}))});
    EXPECT_FALSE(functionalize(plain, {false}));
}

TEST(Functionalize, ChangesItCannotExpressAreRefusedWithTheReason) {
    auto refusal = [](const Graph& g, std::vector<bool> requiresGrad) {
        try {
            functionalize(g, requiresGrad);
        } catch (const AotUnsupported& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    {  // a view changed in place: its base would change too
        Graph g;
        GraphBuilder b(g);
        Node* x = b.placeholder("L['x']", metaOf({2, 3}));
        Node* row = b.call("select", {Argument::ref(x), Argument::value(IValue(int64_t{0})), Argument::value(IValue(int64_t{0}))});
        g.setOutputs({Argument::ref(b.call("add_", {Argument::ref(row), number(1)}))});
        EXPECT_EQ(refusal(g, {false}), "add_ changes select, a view, in place (its base would change too)");
    }
    {  // a value changed in place after a view of it was taken and read afterwards
        Graph g;
        GraphBuilder b(g);
        Node* y = b.call("mul", {Argument::ref(b.placeholder("L['x']", metaOf({2, 3}))), number(2)});
        Node* t = b.call("t", {Argument::ref(y)});
        b.call("mul_", {Argument::ref(y), number(3)});
        g.setOutputs({Argument::ref(t)});
        EXPECT_EQ(refusal(g, {false}), "mul_ changes mul in place while t, a view of it, is read afterwards");
    }
    {  // an input that requires grad, changed while grad mode is on
        Graph g;
        GraphBuilder b(g);
        g.setOutputs({Argument::ref(b.call("mul_", {Argument::ref(b.placeholder("L['x']", metaOf({2}))), number(3)}))});
        EXPECT_EQ(refusal(g, {true}), "mul_ changes l_x_, which requires grad, in place");
        EXPECT_EQ(refusal(g, {false}), "accepted");
    }
}

// A BatchNorm in train mode compiled by each AOT backend: no eager fallback, the running
// statistics and the counter as eager leaves them, and gradients as eager's.
TEST(Functionalize, ACompiledTrainModeBatchNormChangesItsStatisticsAsEager) {
    ScriptRun run = runScript(R"(import torch
x = torch.linspace(-1, 1, 96).reshape(2, 3, 4, 4)
def train(bn, fn):
    for _ in range(3):
        bn.zero_grad()
        fn(x).pow(2).sum().backward()
    return [bn.running_mean, bn.running_var, bn.num_batches_tracked, bn.weight.grad]
eager = torch.nn.BatchNorm2d(3)
expected = train(eager, eager)
for backend in ["aot_eager", "inductor"]:
    bn = torch.nn.BatchNorm2d(3)
    got = train(bn, torch.compile(bn, backend=backend))
    print(backend, all(torch.allclose(a, b) for a, b in zip(got, expected)), got[2])
@torch.compile
def bump(t):
    return t.add_(1)
t = torch.zeros(2)
print(bump(t) is t, t)
)", "aot,inductor");
    ASSERT_EQ(run.error, "") << run.out;
    EXPECT_EQ(run.out, "aot_eager True tensor(3)\ninductor True tensor(3)\nTrue tensor([1., 1.])\n");
    EXPECT_EQ(run.logs.find("running the graph eagerly"), std::string::npos) << run.logs;
    EXPECT_NE(run.logs.find("__compiled_fn_0: functionalized 3 in-place call(s); inputs changed in place, copied back after each "
                            "call: l_fn_buffers_num_batches_tracked_, l_fn_buffers_running_mean_, l_fn_buffers_running_var_"),
              std::string::npos)
        << run.logs;
}

// What a reviewer found functionalization got wrong, each now as eager (and PyTorch 2.15,
// whose output this is): a change through a view of a view, a copy-back reading an input
// already copied back, a copy under no_grad passing gradients, an input that requires grad
// changed under no_grad and read in grad mode, a copy of a value that requires grad
// returned, a changed clone's gradient.
TEST(Functionalize, ChangesThatAliasOrCarryGradientsBehaveAsEager) {
    ScriptRun run = runScript(R"(import torch
x = torch.linspace(-1, 1, 6).reshape(2, 3)


@torch.compile
def view_of_view(x):
    r = x[0, :2]
    x.mul_(2)
    return r + 1


print(view_of_view(x.clone()))


@torch.compile
def swap(p, old):
    d = p * 0.1
    old.copy_(p)
    p.sub_(d)


p, old = torch.linspace(0, 1, 3), torch.zeros(3)
swap(p, old)
print(p, old)

w = torch.linspace(1, 2, 3).requires_grad_()
buf = torch.zeros(3)


@torch.compile
def ema(w, buf):
    with torch.no_grad():
        buf.copy_(w)
    return (buf * w).sum()


ema(w, buf).backward()
print(w.grad, buf)


@torch.compile
def scale_then_use(w, x):
    with torch.no_grad():
        w.mul_(2)
    return (w * x).sum()


w.grad = None
scale_then_use(w, torch.ones(3)).backward()
print(w.grad, w)


@torch.compile
def copy_out(buf, w):
    buf.copy_(w)
    return buf


out = copy_out(torch.zeros(3), w)
print(out.requires_grad, out.grad_fn is not None)


@torch.compile
def scaled_clone(v):
    c = v.clone()
    c.mul_(2)
    return (c * v).sum()


v = torch.linspace(-1, 1, 4).requires_grad_()
scaled_clone(v).backward()
print(v.grad)
)", "aot");
    ASSERT_EQ(run.error, "") << run.out;
    EXPECT_EQ(run.out, "tensor([-1.0000, -0.2000])\ntensor([0.0000, 0.4500, 0.9000]) tensor([0.0000, 0.5000, 1.0000])\ntensor([1.0000, 1.5000, 2.0000]) tensor([1.0000, 1.5000, 2.0000])\ntensor([1., 1., 1.]) tensor([2., 3., 4.], requires_grad=True)\nTrue True\ntensor([-4.0000, -1.3333,  1.3333,  4.0000])\n");
    EXPECT_NE(run.logs.find("changes l_w_, which requires grad, under no_grad and"), std::string::npos) << run.logs;
    EXPECT_NE(run.logs.find("gives l_buf_ a value that requires grad"), std::string::npos) << run.logs;
}

}  // namespace
}  // namespace fusescope::test
