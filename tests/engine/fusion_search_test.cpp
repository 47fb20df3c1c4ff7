// How fusion finds and checks its candidates (schedule/fusion.cpp): a pair with a path
// through a third node between them is refused naming that node; each reader of a buffer
// is paired only with the next max_fusion_buffer_group_pairwise_attempts readers; and on
// random graphs of pointwise ops, reductions and matrix products the fused program keeps
// every node (no cycle) and still equals eager.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>

#include <fmt/format.h>

#include "test_support.h"

namespace fusescope::test {
namespace {

std::vector<FusionDecisionEvent> horizontal(const ScriptRun& run) {
    std::vector<FusionDecisionEvent> out;
    for (const auto& d : run.eventsOf<FusionDecisionEvent>())
        if (d.kind == "horizontal") out.push_back(d);
    return out;
}

int bufferNumber(const std::string& name) { return std::atoi(name.c_str() + 3); }  // "buf12" -> 12

TEST(FusionSearch, APathThroughAThirdNodeIsRefusedNamingIt) {
    SKIP_WITHOUT_CPP_JIT();
    // buf0 (the row sums) and buf3 (x times a scalar) both read x, but buf3 needs buf2
    // (the sum of the matrix product buf1 of buf0): fusing them would close a cycle.
    ScriptRun run = runScript(R"(import torch

def f(x, w):
    s = x.sum(1, keepdim=True)
    m = torch.mm(w.t(), s)
    return x * m.sum()

x = torch.linspace(-1.0, 1.0, 64).reshape(8, 8)
w = torch.linspace(0.0, 1.0, 32).reshape(8, 4)
print(torch.allclose(torch.compile(f)(x, w), f(x, w)))
)");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "True\n");
    auto decisions = horizontal(run);
    ASSERT_EQ(decisions.size(), 1u);
    EXPECT_EQ(decisions[0].reason, "cannot fuse buf0 with buf3: would create a cycle through buf2");
}

TEST(FusionSearch, EachReaderIsPairedWithTheNextFewReadersOnly) {
    SKIP_WITHOUT_CPP_JIT();
    // Ten reductions read x (buf0..buf9); with fusion capped at one node nothing merges, so
    // every pair the search generates shows up as a decision.
    auto script = [](int attempts) {
        return fmt::format(R"(import torch
torch._inductor.config.max_fusion_size = 1
torch._inductor.config.max_fusion_buffer_group_pairwise_attempts = {}

def fan(x):
    return torch.stack([(x * i).sum() for i in range(10)])

x = torch.linspace(0.0, 1.0, 64)
print(torch.allclose(torch.compile(fan)(x), fan(x)))
)",
                           attempts);
    };
    ScriptRun three = runScript(script(3));
    ASSERT_EQ(three.error, "");
    EXPECT_EQ(three.out, "True\n");
    auto pairs = horizontal(three);
    EXPECT_EQ(pairs.size(), 9u + 8u + 7u);
    for (const auto& d : pairs) EXPECT_LE(bufferNumber(d.node2) - bufferNumber(d.node1), 3) << d.reason;

    ScriptRun all = runScript(script(64));
    ASSERT_EQ(all.error, "");
    EXPECT_EQ(horizontal(all).size(), 45u);  // every two of the ten
}

// A random program over 8x8 inputs: pointwise ops, row sums, matrix products and
// transposes, whose values stay bounded; it prints whether compiled equals eager.
std::string randomProgram(unsigned seed, int ops) {
    std::mt19937 rng(seed);
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    std::vector<std::string> values = {"x", "y", "w"};
    std::string body;
    for (int i = 0; i < ops; ++i) {
        // Operands lean towards recent values, so chains form as well as fan-out.
        auto operand = [&] { return values[values.size() - 1 - std::min<size_t>(pick(6), values.size() - 1)]; };
        std::string a = operand(), b = operand(), expr;
        switch (pick(7)) {
        case 0: expr = fmt::format("torch.sin({})", a); break;
        case 1: expr = fmt::format("{} * {} * 0.5", a, b); break;
        case 2: expr = fmt::format("{} + {}", a, b); break;
        case 3: expr = fmt::format("torch.tanh({}.sum(1, keepdim=True)) + {}", a, b); break;
        case 4: expr = fmt::format("torch.tanh(torch.mm({}, {}) * 0.1)", a, b); break;
        case 5: expr = fmt::format("{}.t() - {}", a, b); break;
        default: expr = fmt::format("torch.relu({}) - {}.amax(0, keepdim=True)", a, b); break;
        }
        std::string name = fmt::format("v{}", i);
        body += fmt::format("    {} = {}\n", name, expr);
        values.push_back(name);
    }
    std::string outputs;
    for (size_t i = values.size() - 3; i < values.size(); ++i) outputs += values[i] + ", ";
    outputs += values[3 + static_cast<size_t>(pick(ops))];
    return fmt::format(R"(import torch

def f(x, y, w):
{}    return {}

x = torch.linspace(-1.0, 1.0, 64).reshape(8, 8)
y = torch.linspace(0.5, -0.5, 64).reshape(8, 8)
w = torch.linspace(-0.3, 0.7, 64).reshape(8, 8)
print(all(torch.allclose(a, e, rtol=1e-4, atol=1e-5) for a, e in zip(torch.compile(f)(x, y, w), f(x, y, w))))
)",
                       body, outputs);
}

TEST(FusionSearch, RandomGraphsKeepEveryNodeAndEqualEager) {
    SKIP_WITHOUT_CPP_JIT();
    for (unsigned seed = 1; seed <= 12; ++seed) {
        std::string source = randomProgram(seed, 40);
        ScriptRun run = runScript(source);
        ASSERT_EQ(run.error, "") << source;
        EXPECT_EQ(run.out, "True\n") << source;
        auto pre = run.eventsOf<IrDumpEvent>();
        size_t nodes = 0, kept = 0;
        for (const auto& e : pre) {
            if (e.stage == "ir_pre_fusion") nodes += e.nodes.size();
            if (e.stage == "ir_post_fusion")
                for (const auto& n : e.nodes) kept += std::max<size_t>(n.members.size(), 1);
        }
        EXPECT_GT(nodes, 10u) << source;
        EXPECT_EQ(kept, nodes) << source;
    }
}

}  // namespace
}  // namespace fusescope::test
