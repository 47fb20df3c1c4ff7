// What a captured graph looks like: its readable code, its table, and the provenance of
// every node (source line, inline depth, user stack).
#include <gtest/gtest.h>

#include "test_support.h"

using fusescope::test::runScript;

namespace {

const char* kScript = R"(import torch
import torch.nn.functional as F

def scale(h):
    return h * 0.5

@torch.compile(backend="eager")
def fn(x, w):
    h = F.relu(x @ w)
    v, i = torch.max(h, dim=1)
    return torch.cat([scale(h).sum(0), v], 0), i.view(-1, 1)

out, idx = fn(torch.ones(2, 3), torch.ones(3, 3))
print(out, idx.shape)
)";

}  // namespace

TEST(GraphCapture, ReadableCodeNamesEveryNodeWithItsSourceLine) {
    auto run = runScript(kScript);
    ASSERT_EQ(run.error, "");
    EXPECT_EQ(run.out, "tensor([3., 3., 3., 3., 3.]) torch.Size([2, 1])\n");
    auto graphs = run.eventsOf<fusescope::GraphCapturedEvent>();
    ASSERT_EQ(graphs.size(), 1u);
    EXPECT_EQ(graphs[0].readable,
              "class GraphModule(torch.nn.Module):\n"
              "    def forward(self, l_x_: \"f32[2, 3]\", l_w_: \"f32[3, 3]\"):\n"
              "\n"
              "        # File: script.py:9 in fn, code: h = F.relu(x @ w)\n"
              "        matmul: \"f32[2, 3]\" = l_x_ @ l_w_\n"
              "        relu: \"f32[2, 3]\" = torch.nn.functional.relu(matmul)\n"
              "\n"
              "        # File: script.py:10 in fn, code: v, i = torch.max(h, dim=1)\n"
              "        max_1 = torch.max(relu, dim = 1)\n"
              "\n"
              "        # File: script.py:5 in scale, code: return h * 0.5\n"
              "        mul: \"f32[2, 3]\" = relu * 0.5\n"
              "\n"
              "        # File: script.py:11 in fn, code: return torch.cat([scale(h).sum(0), v], 0), i.view(-1, 1)\n"
              "        sum_1: \"f32[3]\" = mul.sum(0)\n"
              "        cat: \"f32[5]\" = torch.cat([sum_1, max_1[0]], 0)\n"
              "        view: \"i64[2, 1]\" = max_1[1].view(-1, 1)\n"
              "        return (cat, view)\n");
    EXPECT_EQ(graphs[0].opCount, 7);
}

TEST(GraphCapture, TableListsOpcodesTargetsAndArgs) {
    auto run = runScript(kScript);
    auto graphs = run.eventsOf<fusescope::GraphCapturedEvent>();
    ASSERT_EQ(graphs.size(), 1u);
    EXPECT_EQ(graphs[0].tabular,
              "opcode         name    target                      args                    kwargs\n"
              "-------------  ------  --------------------------  ----------------------  ----------\n"
              "placeholder    l_x_    L['x']                      ()                      {}\n"
              "placeholder    l_w_    L['w']                      ()                      {}\n"
              "call_function  matmul  <built-in function matmul>  (l_x_, l_w_)            {}\n"
              "call_function  relu    torch.nn.functional.relu    (matmul,)               {}\n"
              "call_function  max_1   torch.max                   (relu,)                 {'dim': 1}\n"
              "call_function  mul     <built-in function mul>     (relu, 0.5)             {}\n"
              "call_method    sum_1   sum                         (mul, 0)                {}\n"
              "call_function  cat     torch.cat                   ([sum_1, max_1[0]], 0)  {}\n"
              "call_method    view    view                        (max_1[1], -1, 1)       {}\n"
              "output         output  output                      ((cat, view),)          {}\n");
}

TEST(GraphCapture, NodesKeepProvenanceInTheirJson) {
    auto run = runScript(kScript);
    auto graphs = run.eventsOf<fusescope::GraphCapturedEvent>();
    ASSERT_EQ(graphs.size(), 1u);
    const auto& nodes = graphs[0].graph["nodes"];
    ASSERT_EQ(nodes.size(), 9u);
    const auto& mul = nodes[5];
    EXPECT_EQ(mul["name"], "mul");
    EXPECT_EQ(mul["line"], 5);
    EXPECT_EQ(mul["inline_depth"], 1);
    EXPECT_EQ(mul["inputs"], nlohmann::json::array({"relu"}));
    ASSERT_EQ(mul["stack"].size(), 2u);
    EXPECT_EQ(mul["stack"][0]["function"], "fn");
    EXPECT_EQ(mul["stack"][0]["line"], 11);
    EXPECT_EQ(mul["stack"][1]["function"], "scale");
    EXPECT_EQ(nodes[0]["op"], "placeholder");
    EXPECT_EQ(nodes[0]["meta"][0], "f32[2, 3]");
}
