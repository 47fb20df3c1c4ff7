// Inputs changed in place, computed straight into their storage (schedule/in_place_outputs.h)
// where nothing else reads them afterwards, else copied back after the call. Each script runs
// compiled and eagerly (test::runCompiledAndEager) and both must print the same; the
// schedule log says which values were stored into their input.
#include <gtest/gtest.h>

#include "test_support.h"

namespace fusescope {
namespace {

int storedIntoInputs(const std::string& logs) { return test::countOccurrences(logs, "(changed in place): no copy back"); }

TEST(InductorInPlace, APointwiseUpdateIsStoredIntoItsInput) {
    SKIP_WITHOUT_CPP_JIT();
    auto runs = test::runCompiledAndEager(R"(
@COMPILE
def update(p, g):
    p.mul_(0.5).add_(g, alpha=-0.1)
p, g = torch.arange(6.0).reshape(2, 3), torch.ones(2, 3)
before = p._version
for i in range(3):
    update(p, g)
print(p, p._version > before)
)",
                                          "schedule");
    test::expectSameOutput(runs);
    EXPECT_EQ(storedIntoInputs(runs.compiled.logs), 1) << runs.compiled.logs;
}

TEST(InductorInPlace, AnInputReadAgainAfterItsUpdateIsCopiedBack) {
    SKIP_WITHOUT_CPP_JIT();
    // The flipped copy reads the old values at other indices, and the sum after the update
    // reads the input again: neither may see the new values early.
    auto runs = test::runCompiledAndEager(R"(
@COMPILE
def shifted(x):
    old = x.flip(0)
    x.add_(1)
    return old * 2
@COMPILE
def later(x):
    x.mul_(3)
    return x.sum() + x[0]
a, b = torch.arange(5.0), torch.arange(4.0)
print(shifted(a), a)
print(later(b), b)
)",
                                          "schedule");
    test::expectSameOutput(runs);
    EXPECT_EQ(storedIntoInputs(runs.compiled.logs), 0) << runs.compiled.logs;
}

TEST(InductorInPlace, TheSgdStepStoresItsParametersWhereTheyAre) {
    SKIP_WITHOUT_CPP_JIT();
    auto runs = test::runCompiledAndEager(R"(
ps = [torch.nn.Parameter(torch.arange(8.0) / (i + 1)) for i in range(2)]
opt = torch.optim.SGD(ps, lr=0.05, momentum=0.9)
step = COMPILE(opt.step)
for i in range(5):
    for p in ps:
        p.grad = p.detach() * 0.3 - i  # detached, as backward makes them (a cycle otherwise)
    step()
print(ps[0], ps[1])
)",
                                          "schedule");
    test::expectSameOutput(runs);
    // The first step's graph (it makes the momentum buffers) updates the two parameters;
    // the next one the parameters and their buffers, which the parameter's update reads
    // again in the same loop: their stores come after it.
    EXPECT_EQ(storedIntoInputs(runs.compiled.logs), 6) << runs.compiled.logs;
}

}  // namespace
}  // namespace fusescope
