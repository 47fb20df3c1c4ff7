// Inductor's limits on inlining and fusion (core/inductor_config.h): a long chain of ops
// becomes a series of buffers, each saying why it is one; no fused kernel holds more nodes
// than max_fusion_size; scripts change the limits through torch._inductor.config; and the
// compiled result still equals eager.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "backends/backend.h"
#include "backends/schedule_archive.h"
#include "test_support.h"

namespace fusescope::test {
namespace {

// `settings` are torch._inductor.config lines; the script prints whether compiled equals eager.
std::string chainScript(int iterations, const std::string& settings = "") {
    return "import torch\n" + settings +
           "\n"
           "def chain(x, y):\n"
           "    for i in range(" + std::to_string(iterations) + "):\n"
           "        x = torch.sin(x) * 1.01 + y\n"
           "    return x\n"
           "\n"
           "x = torch.linspace(-1.0, 1.0, 64)\n"
           "y = torch.linspace(0.0, 0.5, 64)\n"
           "print(torch.allclose(torch.compile(chain)(x, y), chain(x, y), rtol=1e-4, atol=1e-5))\n";
}

IrDumpEvent irDump(const ScriptRun& run, const std::string& stage) {
    for (const auto& e : run.eventsOf<IrDumpEvent>())
        if (e.stage == stage) return e;
    ADD_FAILURE() << "no " << stage << " event";
    return {};
}

int countStartingWith(const IrDumpEvent& dump, const std::string& prefix) {
    return static_cast<int>(std::count_if(dump.nodes.begin(), dump.nodes.end(),
                                          [&](const IrNodeInfo& n) { return n.realizedBecause.rfind(prefix, 0) == 0; }));
}

size_t largestFusedGroup(const ScriptRun& run) {
    size_t largest = 0;
    for (const IrNodeInfo& n : irDump(run, "ir_post_fusion").nodes) largest = std::max(largest, std::max<size_t>(n.members.size(), 1));
    return largest;
}

TEST(InductorLimits, ALongChainIsSplitIntoBuffersEachWithItsReason) {
    SKIP_WITHOUT_CPP_JIT();
    ScriptRun run = runScript(chainScript(60), "realize");
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "True\n");
    IrDumpEvent pre = irDump(run, "ir_pre_fusion");
    // Each iteration loads y once more: a buffer and 8 iterations make 9 loads, so every 8
    // iterations are cut off into a buffer; the last 4 are the output.
    int accumulated = countStartingWith(pre, "one element loads 9 values (realize_acc_reads_threshold = 8)");
    EXPECT_EQ(accumulated, 7) << pre.text;
    EXPECT_EQ(countStartingWith(pre, "a graph output"), 1);
    EXPECT_EQ(static_cast<size_t>(accumulated + 1), pre.nodes.size());
    for (const IrNodeInfo& n : pre.nodes) EXPECT_NE(n.realizedBecause, "") << n.name;
    EXPECT_NE(run.logs.find("buf0: one element loads 9 values (realize_acc_reads_threshold = 8)"), std::string::npos) << run.logs;
    EXPECT_LE(largestFusedGroup(run), 64u);
}

TEST(InductorLimits, WithoutTheReadsLimitALargeBodyIsStillCut) {
    SKIP_WITHOUT_CPP_JIT();
    ScriptRun run = runScript(chainScript(60, "torch._inductor.config.realize_acc_reads_threshold = 1000\n"));
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "True\n");
    IrDumpEvent pre = irDump(run, "ir_pre_fusion");
    EXPECT_EQ(countStartingWith(pre, "one element loads"), 0) << pre.text;
    EXPECT_GE(countStartingWith(pre, "one element computes 101 ops (more than 100)"), 1) << pre.text;
}

TEST(InductorLimits, NoFusedKernelHoldsMoreThanMaxFusionSize) {
    SKIP_WITHOUT_CPP_JIT();
    ScriptRun run = runScript(chainScript(60, "torch._inductor.config.max_fusion_size = 3\n"));
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "True\n");
    EXPECT_EQ(largestFusedGroup(run), 3u);
    auto decisions = run.eventsOf<FusionDecisionEvent>();
    bool refused = std::any_of(decisions.begin(), decisions.end(), [](const FusionDecisionEvent& d) {
        return !d.fused && d.reason.find("exceeds max fusion (") != std::string::npos &&
               d.reason.find("nodes > max_fusion_size = 3)") != std::string::npos;
    });
    EXPECT_TRUE(refused);
}

TEST(InductorLimits, ASchedulerQuestionAfterTheRunUsesTheLimitsTheRunHad) {
    SKIP_WITHOUT_CPP_JIT();
    ScheduleArchive archive(findBackend);
    SessionOptions options;
    options.compilers = archive.lookup();
    ScriptRun run = runScriptWith(chainScript(20, "torch._inductor.config.max_fusion_size = 3\n"), options);
    ASSERT_EQ(run.error, "");
    ASSERT_EQ(archive.graphs().size(), 1u);
    const Schedule& rebuilt = archive.schedule(archive.graphs()[0]);
    EXPECT_EQ(rebuilt.config.maxFusionSize, 3);
    auto reported = run.eventsOf<FusionDecisionEvent>();
    ASSERT_EQ(rebuilt.decisions.size(), reported.size());
    for (size_t i = 0; i < reported.size(); ++i) EXPECT_EQ(rebuilt.decisions[i].reason, reported[i].reason) << i;
}

TEST(InductorLimits, ALimitMustBeAPositiveInt) {
    ScriptRun run = runScript(chainScript(2, "torch._inductor.config.max_fusion_size = 0\n"));
    EXPECT_NE(run.error.find("TypeError: torch._inductor.config.max_fusion_size must be a positive int"), std::string::npos)
        << run.error;
}

}  // namespace
}  // namespace fusescope::test
