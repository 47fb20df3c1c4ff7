// "Why not fused?" (schedule/fusion_explain.h) on a chain the scheduler fuses one step at a
// time: a group made on the way (buf0_buf1) can be asked about as well as the final kernel
// and the nodes it began with; an unknown name is answered with a few of the graph's nodes
// (not all of them), a graph input as what it is.

#include <gtest/gtest.h>

#include <string>

#include "backends/backend.h"
#include "backends/schedule_archive.h"
#include "core/error.h"
#include "schedule/fusion_explain.h"
#include "test_support.h"

namespace fusescope::test {
namespace {

// 30 realized adds in a row: buffers buf0 .. buf29, fused in order.
const char* kChain =
    "import torch\n"
    "from torch._inductor import test_operators\n"
    "\n"
    "@torch.compile\n"
    "def chain(x):\n"
    "    for i in range(30):\n"
    "        x = test_operators.realize(x + 1)\n"
    "    return x\n"
    "\n"
    "print(chain(torch.ones(4)))\n";

class FusionExplain : public ::testing::Test {
protected:
    void SetUp() override {
        SKIP_WITHOUT_CPP_JIT();
        SessionOptions options;
        options.compilers = archive_.lookup();
        ScriptRun run = runScriptWith(kChain, options);
        ASSERT_EQ(run.error, "");
        ASSERT_EQ(archive_.graphs().size(), 1u);
    }
    const Schedule& schedule() { return archive_.schedule(archive_.graphs()[0]); }

    ScheduleArchive archive_{findBackend};
};

TEST_F(FusionExplain, AGroupMadeOnTheWayIsAskedAboutLikeAKernel) {
    // Step 2 fused buf0_buf1 (made at step 1) with buf2.
    const FusionDecision& second = schedule().decisions.at(1);
    ASSERT_EQ(second.node1, "buf0_buf1");
    ASSERT_EQ(second.node2, "buf2");
    FusionExplanation e = explainFusion(schedule(), "buf0_buf1", "buf2");
    EXPECT_TRUE(e.fused);
    EXPECT_TRUE(e.considered);
    EXPECT_EQ(e.step, 2);
    EXPECT_EQ(e.reason, second.reason);
    EXPECT_EQ(e.kernel1, e.kernel2);
    EXPECT_EQ(e.kernel1.rfind("buf0_buf1_buf2_", 0), 0u) << e.kernel1;
    // And a group with a node of a later step.
    EXPECT_EQ(explainFusion(schedule(), "buf0_buf1_buf2", "buf7").step, 7);
    EXPECT_THROW(explainFusion(schedule(), "buf0_buf1", "buf1"), Error);  // one holds the other
}

TEST_F(FusionExplain, AnUnknownNameOrAGraphInputIsAnsweredInWords) {
    try {
        explainFusion(schedule(), "buf0", "buf99");
        FAIL() << "no error";
    } catch (const Error& error) {
        EXPECT_EQ(std::string(error.what()),
                  "no scheduler node 'buf99' in this graph; its nodes are buf0, buf1, buf2, buf3, buf4, buf5, buf6, buf7, "
                  "buf8, buf9, buf10, buf11, ... (30 in all, and the groups fusion made of them)");
    }
    try {
        explainFusion(schedule(), "arg0_1", "buf3");  // what a user may pick in the diagram
        FAIL() << "no error";
    } catch (const Error& error) {
        EXPECT_EQ(std::string(error.what()), "arg0_1 is an input of the graph: no kernel computes it, so it is fused with nothing");
    }
}

}  // namespace
}  // namespace fusescope::test
