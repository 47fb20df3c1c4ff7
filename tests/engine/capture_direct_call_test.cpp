// Direct calls (capture/direct_call.h): a cache hit that finds the state an earlier traced
// call saw runs the compiled graph without the function's Python. Each script runs compiled
// and eagerly (test::runCompiledAndEager); both must print the same, and the compiled run
// must have made the direct calls expected of it.
#include <gtest/gtest.h>

#include "test_support.h"

namespace fusescope {
namespace {

// A compiled optimizer step breaks its graph where PyTorch's does (_use_grad's graph_break,
// optimizer.py:78): the step's own frame (AdamW.step) is compiled on its own, called from the
// break, and it is that frame's cache hits that run directly. The printed guards of the step
// frame do not read the library's param_groups; the group's snapshot does: the changed rate
// replays (and learns a second plan). Gradients are made from detached parameters, as
// backward makes them: one made from its parameter with autograd on holds the parameter in a
// cycle (in PyTorch too), which make asan reports as a leak.
TEST(DirectCall, ACompiledOptimizerStepBreaksAsPyTorchsAndRunsItsStepFrameDirectly) {
    auto runs = test::runCompiledAndEager(R"(
ps = [torch.nn.Parameter(torch.arange(4.0) * (i + 1)) for i in range(3)]
opt = torch.optim.AdamW(ps, lr=0.1)
step = COMPILE(opt.step)
for i in range(8):
    for p in ps:
        p.grad = torch.ones(4) * (i + 1) - p.detach() * 0.5
    if i == 4:
        opt.param_groups[0]["lr"] = 0.01
    step()
for p in ps:
    print(p)
)");
    test::expectSameOutput(runs);
    // The first call makes the optimizer's state (a store: no plan), the next replays and
    // learns one; after the rate changes one more replay learns another.
    EXPECT_GE(runs.compiled.directCalls, 4);
    EXPECT_LE(runs.compiled.directCalls, 5);
}

TEST(DirectCall, AGradientThatBecomesNoneSkipsItsParameterAgain) {
    auto runs = test::runCompiledAndEager(R"(
ps = [torch.nn.Parameter(torch.ones(3)), torch.nn.Parameter(torch.ones(3) * 2)]
opt = torch.optim.SGD(ps, lr=0.1, momentum=0.9)
step = COMPILE(opt.step)
for i in range(6):
    ps[0].grad = torch.ones(3) * i
    ps[1].grad = None if i in (3, 4) else torch.ones(3) * -i
    step()
    print(ps[0], ps[1])
)");
    test::expectSameOutput(runs);
    EXPECT_GE(runs.compiled.directCalls, 1);
}

TEST(DirectCall, AFloatArgumentMadeDynamicIsReadFromEachCall) {
    // After the recompile that makes `scale` a SymFloat, the plan reads it from each call's own
    // argument: a new value runs the graph directly, with that value.
    auto runs = test::runCompiledAndEager(R"(
def block(x, scale, n):
    return (x * scale + n).sum()
f = COMPILE(block)
x = torch.arange(4.0)
for i in range(8):
    print(f(x, 0.5 + i / 4, 3))
)");
    test::expectSameOutput(runs);
    EXPECT_GE(runs.compiled.directCalls, 5);
}

TEST(DirectCall, ANumberTheGraphComputesIsNotReturnedFromAPlan) {
    // The half is computed from the float argument: a plan would return the value of the call
    // it learnt from, so the call replays.
    auto runs = test::runCompiledAndEager(R"(
def halves(x, scale):
    return x * scale, scale / 2
f = COMPILE(halves)
x = torch.arange(3.0)
for i in range(6):
    print(f(x, 1.0 + i))
)");
    test::expectSameOutput(runs);
    EXPECT_EQ(runs.compiled.directCalls, 0);
}

TEST(DirectCall, ClosuresOfOneDefKeepTheirOwnValues) {
    // Both functions share one cache (one def); each plan names the function it saw.
    auto runs = test::runCompiledAndEager(R"(
def make(k):
    def scaled(x):
        return x * k + 1
    return COMPILE(scaled)
double, triple = make(2.0), make(3.0)
x = torch.arange(3.0)
for i in range(3):
    print(double(x), triple(x))
)");
    test::expectSameOutput(runs);
    EXPECT_GE(runs.compiled.directCalls, 2);
}

TEST(DirectCall, StoresIntoObjectsMadeBeforeTheCallAreNeverSkipped) {
    auto runs = test::runCompiledAndEager(R"(
class Counter:
    def __init__(self):
        self.calls = 0
seen = []
counter = Counter()
@COMPILE
def tally(x):
    seen.append(1)
    counter.calls += 1
    return x + 1
x = torch.ones(2)
for i in range(4):
    y = tally(x)
print(y, len(seen), counter.calls)
)");
    test::expectSameOutput(runs);
    EXPECT_EQ(runs.compiled.directCalls, 0);
}

TEST(DirectCall, OneTensorPassedTwiceIsNotTakenForTwoTensors) {
    auto runs = test::runCompiledAndEager(R"(
@COMPILE
def combine(x, y):
    return x * 2 + y
a, b = torch.ones(3), torch.arange(3.0)
print(combine(a, a))
print(combine(a, a))
print(combine(b, a))
print(combine(a, b))
print(combine(a, a))
)");
    test::expectSameOutput(runs);
    EXPECT_GE(runs.compiled.directCalls, 1);
}

TEST(DirectCall, ResultsAreRebuiltAsTheFunctionReturnedThem) {
    // A tuple and a list of graph outputs, a mutated argument returned as itself, a number.
    auto runs = test::runCompiledAndEager(R"(
@COMPILE
def several(x, w):
    w.mul_(2)
    return (x + w, [x.sum(), w], 3, None)
x, w = torch.arange(3.0), torch.ones(3)
for i in range(3):
    out = several(x, w)
    print(out, out[1][1] is w)
)");
    test::expectSameOutput(runs);
    EXPECT_EQ(runs.compiled.directCalls, 2);
}

TEST(DirectCall, ANestedListChangedBetweenCallsIsReadAgain) {
    auto runs = test::runCompiledAndEager(R"(
class Scaler(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.table = [[1.0, 2.0], [3.0]]
    def forward(self, x):
        return x * self.table[0][1] + len(self.table[1])
model = Scaler()
run = COMPILE(model)
x = torch.ones(2)
print(run(x), run(x))
model.table[0][1] = 5.0
model.table[1].append(4.0)
print(run(x), run(x))
)");
    test::expectSameOutput(runs);
    EXPECT_GE(runs.compiled.directCalls, 1);
}

TEST(DirectCall, AClockReadInsideIsReadOnEveryCall) {
    auto runs = test::runCompiledAndEager(R"(
import time
@COMPILE
def stamped(x):
    return x + 1, time.perf_counter()
x = torch.ones(2)
stamps = [stamped(x)[1] for i in range(4)]
print(all(later > earlier for earlier, later in zip(stamps, stamps[1:])))
)");
    test::expectSameOutput(runs);
    EXPECT_EQ(runs.compiled.out, "True\n");
    EXPECT_EQ(runs.compiled.directCalls, 0);
}

TEST(DirectCall, ProfiledCallsReplaySoTheTraceShowsTheirOps) {
    auto runs = test::runCompiledAndEager(R"(
@COMPILE
def f(x):
    return (x * 2).relu()
x = torch.ones(4)
f(x)
f(x)
with torch.profiler.profile() as prof:
    for i in range(3):
        y = f(x)
print(y)
)");
    test::expectSameOutput(runs);
    EXPECT_EQ(runs.compiled.directCalls, 1);  // the second call only
}

// One test per kind of read a compiled function makes of an object made before it. Each
// object is held by the function's closure, where no guard looks into it, so only the
// read's hook tells a direct call to compare it again: the object's (onObjectTouch: an
// instance's attribute, a comparison running __lt__) or the closure variable's
// (onScopeTouch: its list, item by item). Each changes between calls after the direct
// calls began; the compiled run must print what the eager run prints (a stale direct call
// prints the old value: seen with either hook switched off).
void expectChangeSeenAfterDirectCalls(const std::string& makeF, const std::string& change) {
    auto runs = test::runCompiledAndEager(makeF + R"(
f = COMPILE(make())
x = torch.ones(2)
print(f(x), f(x), f(x))
)" + change + R"(
print(f(x), f(x))
)");
    test::expectSameOutput(runs);
    EXPECT_GE(runs.compiled.directCalls, 1) << "no direct call was made before the change";
}

TEST(DirectCallSeesEveryRead, AnAttribute) {
    expectChangeSeenAfterDirectCalls(R"(
class Config:
    pass
cfg = Config()
cfg.scale = 2.0
def make():
    held = cfg
    def f(x):
        return x * held.scale
    return f
)",
                                     "cfg.scale = 3.0");
}

TEST(DirectCallSeesEveryRead, AnItem) {
    expectChangeSeenAfterDirectCalls(R"(
row = [1.0, 2.0]
def make():
    held = row
    def f(x):
        return x * held[1]
    return f
)",
                                     "row[1] = 7.0");
}

TEST(DirectCallSeesEveryRead, ALength) {
    expectChangeSeenAfterDirectCalls(R"(
row = [1.0, 2.0]
def make():
    held = row
    def f(x):
        return x * len(held)
    return f
)",
                                     "row.append(3.0)");
}

TEST(DirectCallSeesEveryRead, AnIteration) {
    expectChangeSeenAfterDirectCalls(R"(
row = [1.0, 2.0]
def doubled(items):
    for w in items:
        yield w * 2
def make():
    held = row
    def f(x):
        for w in held:
            x = x * w
        return x + sum(doubled(held))
    return f
)",
                                     "row[0] = 5.0");
}

TEST(DirectCallSeesEveryRead, AComparison) {
    expectChangeSeenAfterDirectCalls(R"(
class Level:
    def __init__(self, v):
        self.v = v
    def __lt__(self, other):
        return self.v < other
level = Level(1)
def make():
    held = level
    def f(x):
        return x + 1 if held < 2 else x - 1
    return f
)",
                                     "level.v = 5");
}

}  // namespace
}  // namespace fusescope
