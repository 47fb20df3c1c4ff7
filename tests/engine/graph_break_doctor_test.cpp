// The doctor's measure of graph breaks: each pair of graphs a break kept apart, the time
// spent between them over the run, what compiling them took, and the fusion the break
// prevented (the two graphs joined and scheduled as one); `--report` ranks the breaks.
#include <regex>

#include <gtest/gtest.h>

#include "backends/break_fusion.h"
#include "test_support.h"

using namespace fusescope;
using namespace fusescope::test;

namespace {

// Two breaks of different cost: after the print, 20,000 iterations of Python run before the
// next graph; after graph_break(), nothing does. Both split a pointwise chain inductor
// would have made one kernel.
const char* kTwoBreaks = R"(import torch

@torch.compile
def step(x):
    y = x.sin() * 2
    print("between")
    total = 0
    for i in range(20000):
        total += i
    z = y.cos() + total
    torch._dynamo.graph_break()
    return z * 3

x = torch.ones(64)
for _ in range(3):
    r = step(x)
print(r[0].item())
)";

SessionOptions withBreakCosts() {
    SessionOptions options;
    options.graphBreakCosts = true;
    return options;
}

}  // namespace

TEST(GraphBreakDoctor, MeasuresEachPairOfGraphsABreakKeptApart) {
    ScriptRun run = runScriptWith(kTwoBreaks, withBreakCosts(), "two_breaks.py");
    ASSERT_EQ(run.error, "");
    auto costs = run.eventsOf<GraphBreakCostEvent>();
    ASSERT_EQ(costs.size(), 2u);
    const GraphBreakCostEvent& print = costs[0];
    EXPECT_EQ(print.compileId, "0/0");
    EXPECT_EQ(print.function, "step");
    EXPECT_EQ(print.reason, "Failed to trace builtin operator");
    ASSERT_FALSE(print.userStack.empty());
    EXPECT_EQ(print.userStack.back().line, 6);
    EXPECT_EQ(print.graphBefore, "__compiled_fn_0");
    EXPECT_EQ(print.graphAfter, "__compiled_fn_1");
    EXPECT_EQ(print.opsBefore, 2);
    EXPECT_EQ(print.opsAfter, 2);
    EXPECT_EQ(print.calls, 3);
    EXPECT_GT(print.compileSecondsBefore, 0);
    EXPECT_GT(print.compileSecondsAfter, 0);
    // sin and mul, then cos and add: one kernel each, one kernel as a whole graph.
    EXPECT_EQ(print.kernelsBefore, 1);
    EXPECT_EQ(print.kernelsAfter, 1);
    EXPECT_EQ(print.kernelsJoined, 1);
    EXPECT_EQ(print.fusionsLost(), 1);

    const GraphBreakCostEvent& explicitBreak = costs[1];
    EXPECT_EQ(explicitBreak.reason, "Call to `torch._dynamo.graph_break()`");
    EXPECT_EQ(explicitBreak.graphBefore, "__compiled_fn_1");
    EXPECT_EQ(explicitBreak.graphAfter, "__compiled_fn_2");
    EXPECT_EQ(explicitBreak.calls, 3);
    EXPECT_EQ(explicitBreak.fusionsLost(), 1);
    // The loop runs between the first pair only: far more time there.
    EXPECT_GT(print.pythonSeconds, 10 * explicitBreak.pythonSeconds);
    EXPECT_EQ(run.out, "between\nbetween\nbetween\n599969984.0\n");  // as PyTorch 2.15 prints it
}

TEST(GraphBreakDoctor, ABreakBetweenMatrixProductsLosesNoFusion) {
    ScriptRun run = runScriptWith("import torch\n"
                                  "@torch.compile\n"
                                  "def f(x, w):\n"
                                  "    y = x @ w\n"
                                  "    torch._dynamo.graph_break()\n"
                                  "    return y @ w\n"
                                  "print(f(torch.ones(4, 4), torch.ones(4, 4))[0, 0].item())\n",
                                  withBreakCosts());
    ASSERT_EQ(run.error, "");
    auto costs = run.eventsOf<GraphBreakCostEvent>();
    ASSERT_EQ(costs.size(), 1u);
    EXPECT_EQ(costs[0].kernelsBefore, 1);
    EXPECT_EQ(costs[0].kernelsAfter, 1);
    EXPECT_EQ(costs[0].kernelsJoined, 2);
    EXPECT_EQ(costs[0].fusionsLost(), 0);
    EXPECT_EQ(run.out, "16.0\n");
}

// Without the option (a plain run) nothing is measured or sent.
TEST(GraphBreakDoctor, APlainRunSendsNoCosts) {
    ScriptRun run = runScript(kTwoBreaks);
    ASSERT_EQ(run.error, "");
    EXPECT_TRUE(run.eventsOf<GraphBreakCostEvent>().empty());
}

TEST(GraphBreakDoctor, TheReportRanksTheCostlierBreakFirst) {
    const std::string script = writeTempFile("two_breaks.py", kTwoBreaks);
    ProcessResult run = runCli({"run", script, "--report"});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    const std::string header = "\nGraph breaks by cost (time between the graphs they split, then fusions lost)\n";
    size_t at = run.err.find(header);
    ASSERT_NE(at, std::string::npos) << run.err;
    const std::string ranking = run.err.substr(at + header.size());
    const std::regex expected(
        R"(  1\. Failed to trace builtin operator \(.*two_breaks\.py:6\), in step 0/0
       splits __compiled_fn_0 \(2 ops\) from __compiled_fn_1 \(2 ops\)
       between them: [0-9.]+ ms over 3 calls \([0-9.]+ ms a call\)
       compiling them: [0-9.]+ s \+ [0-9.]+ s
       kernels: 1 \+ 1 apart, 1 as one graph: 1 fusion lost
  2\. Call to `torch._dynamo.graph_break\(\)` \(.*two_breaks\.py:11\), in torch_dynamo_resume_in_step_at_6 1/0
       splits __compiled_fn_1 \(2 ops\) from __compiled_fn_2 \(1 op\)
       between them: [0-9.]+ ms over 3 calls \([0-9.]+ ms a call\)
       compiling them: [0-9.]+ s \+ [0-9.]+ s
       kernels: 1 \+ 1 apart, 1 as one graph: 1 fusion lost
)");
    EXPECT_TRUE(std::regex_match(ranking, expected)) << ranking;
}

// The joined graph: the second graph's input that the first made is that output itself.
TEST(GraphBreakDoctor, JoinsTheGraphsThroughTheOutputTheSecondReads) {
    Graph before, after;
    TensorMeta meta{{4}, {1}, DType::Float32, {""}};
    Node* x = before.addPlaceholder("L['x']", meta);
    Node* sin = before.addCall(NodeOp::CallMethod, "sin", CallStyle::Method, {Argument::ref(x)}, {});
    sin->meta = {meta};
    before.setOutputs({Argument::ref(sin)});
    Node* y = after.addPlaceholder("___input_0", meta);
    Node* w = after.addPlaceholder("L['w']", meta);
    Node* add = after.addCall(NodeOp::CallFunction, "add", CallStyle::Operator, {Argument::ref(y), Argument::ref(w)}, {});
    add->meta = {meta};
    after.setOutputs({Argument::ref(add)});

    std::shared_ptr<Graph> joined = joinAcrossBreak(before, after, {0, -1});
    ASSERT_EQ(joined->placeholders().size(), 2u);
    EXPECT_EQ(joined->placeholders()[0]->target, "L['x']");
    EXPECT_EQ(joined->placeholders()[1]->target, "L['w']");
    EXPECT_EQ(joined->opCount(), 2);
    const Node& joinedAdd = *joined->nodes().back();
    EXPECT_EQ(joinedAdd.target, "add");
    EXPECT_EQ(joinedAdd.args[0].node->target, "sin");
    ASSERT_EQ(joined->outputs().size(), 1u);  // sin is read by the add: no output of its own
    EXPECT_EQ(joined->outputs()[0].node, &joinedAdd);
}
