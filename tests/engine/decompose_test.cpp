// The decompose stage: each composite op becomes the expected core ops, computes the same
// values as eager, keeps its provenance and its result's metadata; other graphs pass
// through unchanged.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "backends/backend.h"
#include "core/random.h"
#include "decompose/decompose.h"
#include "dispatch/dispatcher.h"
#include "decompose/graph_builder.h"
#include "graph/graph_printer.h"

namespace fusescope {
namespace {

constexpr int kOpLine = 3;  // where a case's composite op is written
const char* kOpCode = "y = composite(x)";

Argument c(IValue v) { return Argument::value(std::move(v)); }
Argument intList(std::vector<int64_t> v) { return c(IValue::intList(v)); }

struct Input {
    Shape sizes;
    DType dtype = DType::Float32;
    std::vector<std::string> symbols = {};  // per dim; empty: static
    Shape strides = {};                     // empty: contiguous
};

// A graph built op by op, each op written on a line of model.py in function forward.
class TestGraph {
public:
    std::shared_ptr<Graph> graph = std::make_shared<Graph>();

    Argument input(const Input& in) {
        std::string source = "L['x" + std::to_string(graph->placeholders().size()) + "']";
        std::vector<std::string> symbols = in.symbols.empty() ? std::vector<std::string>(in.sizes.size()) : in.symbols;
        Shape strides = in.strides.empty() ? contiguousStrides(in.sizes) : in.strides;
        Node* node = builder_.placeholder(source, TensorMeta{in.sizes, strides, in.dtype, symbols});
        inputs_.push_back(in);
        return Argument::ref(node);
    }
    Argument op(const std::string& target, std::vector<Argument> args, ArgumentKwargs kwargs = {}, int line = kOpLine,
                const std::string& code = kOpCode) {
        Node* node = builder_.call(target, std::move(args), std::move(kwargs));
        node->where = SourceLocation{"model.py", line, 5};
        node->sourceLine = code;
        node->stack = {StackFrame{"model.py", line, "forward", code}};
        node->inlineDepth = 1;
        return Argument::ref(node);
    }
    void output(std::vector<Argument> outputs) { graph->setOutputs(std::move(outputs)); }

    // Random values laid out as each input's sizes and strides say (torch.manual_seed(0)).
    std::vector<Tensor> randomInputs() const {
        manualSeed(0);
        std::vector<Tensor> tensors;
        for (const Input& in : inputs_) {
            IValue flat = dispatch("randn", {IValue::intList({shapeNumel(in.sizes)})}, {{"dtype", IValue(in.dtype)}});
            Shape strides = in.strides.empty() ? contiguousStrides(in.sizes) : in.strides;
            tensors.push_back(dispatch("as_strided", {flat, IValue::intList(in.sizes), IValue::intList(strides)}).toTensor());
        }
        return tensors;
    }

private:
    GraphBuilder builder_{*graph};
    std::vector<Input> inputs_;
};

std::vector<std::string> targets(const Graph& graph) {
    std::vector<std::string> result;
    for (const auto& node : graph.nodes())
        if (node->op != NodeOp::Placeholder) result.push_back(node->target);
    return result;
}

const TensorMeta& outputMeta(const Argument& out) {
    return out.node->meta.at(out.outputIndex < 0 ? 0 : static_cast<size_t>(out.outputIndex));
}

// Float32 rounding: 1e-5 relative, with 1e-6 absolute for results near zero, where one
// rounding of an intermediate (1 + erf(x) for very negative x, x - mean) is all there is.
void expectSameOutputs(const Graph& original, const Graph& decomposed, const std::vector<Tensor>& inputs) {
    std::vector<Tensor> expected = runGraphEagerly(original, inputs);
    std::vector<Tensor> actual = runGraphEagerly(decomposed, inputs);
    ASSERT_EQ(actual.size(), expected.size());
    for (size_t o = 0; o < expected.size(); ++o) {
        ASSERT_EQ(actual[o].sizes(), expected[o].sizes());
        EXPECT_EQ(actual[o].dtype(), expected[o].dtype());
        for (int64_t i = 0; i < expected[o].numel(); ++i) {
            double want = expected[o].readDouble(i), got = actual[o].readDouble(i);
            EXPECT_NEAR(got, want, 1e-6 + 1e-5 * std::fabs(want)) << "output " << o << " element " << i;
        }
    }
}

// Symbols compare per dim: no list and a list of "" both say every dim is static.
std::vector<std::string> symbolsPerDim(const TensorMeta& m) {
    return m.symbols.empty() ? std::vector<std::string>(m.sizes.size()) : m.symbols;
}

void expectSameMeta(const TensorMeta& actual, const TensorMeta& expected) {
    EXPECT_EQ(actual.sizes, expected.sizes);
    EXPECT_EQ(actual.strides, expected.strides);
    EXPECT_EQ(actual.dtype, expected.dtype);
    EXPECT_EQ(symbolsPerDim(actual), symbolsPerDim(expected));
}

// ---- one composite op per case ---------------------------------------------------------

using Inputs = std::vector<Argument>;

struct Case {
    std::string name;
    std::vector<Input> inputs;
    std::function<Argument(TestGraph&, const Inputs&)> composite;
    std::vector<std::string> targets;  // of the decomposed graph
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

const Input x48{{4, 8}};
const std::vector<std::string> kLayerNorm = {"sum", "div", "sub", "mul", "sum", "div", "add", "rsqrt", "mul"};
const std::vector<std::string> kVariance = {"sum", "div", "sub", "mul", "sum", "div"};

std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

const std::vector<Case> kCases = {
    {"Softmax", {x48}, [](TestGraph& g, const Inputs& x) { return g.op("softmax", {x[0], c(-1)}); },
     {"amax", "sub", "exp", "sum", "reciprocal", "mul"}},
    {"SoftmaxOverDim0WithDtype", {x48}, [](TestGraph& g, const Inputs& x) { return g.op("softmax", {x[0], c(0)}, {{"dtype", c(DType::Float64)}}); },
     {"to", "amax", "sub", "exp", "sum", "reciprocal", "mul"}},
    {"SoftmaxFloat16ComputesInFloat32", {{{4, 8}, DType::Float16}},
     [](TestGraph& g, const Inputs& x) { return g.op("softmax", {x[0], c(-1)}); },
     {"to", "amax", "sub", "exp", "sum", "reciprocal", "mul", "to"}},
    {"SoftmaxOfTransposedInputStaysContiguous", {{{8, 4}, DType::Float32, {}, {1, 8}}},
     [](TestGraph& g, const Inputs& x) { return g.op("softmax", {x[0], c(-1)}); },
     {"amax", "sub", "exp", "sum", "reciprocal", "mul", "contiguous"}},
    {"SoftmaxOverDynamicDim", {{{6, 8}, DType::Float32, {"s0", "s1"}}},
     [](TestGraph& g, const Inputs& x) { return g.op("softmax", {x[0], c(-1)}); },
     {"amax", "sub", "exp", "sum", "reciprocal", "mul"}},
    {"LogSoftmax", {x48}, [](TestGraph& g, const Inputs& x) { return g.op("log_softmax", {x[0], c(1)}); },
     {"amax", "sub", "exp", "sum", "log", "sub"}},
    {"LayerNormWithWeightAndBias", {{{2, 3, 8}}, {{8}}, {{8}}},
     [](TestGraph& g, const Inputs& x) { return g.op("layer_norm", {x[0], intList({8}), x[1], x[2]}, {{"eps", c(1e-5)}}); },
     kLayerNorm + std::vector<std::string>{"mul", "add"}},
    {"LayerNormOverTwoDims", {{{3, 4, 5}}}, [](TestGraph& g, const Inputs& x) { return g.op("layer_norm", {x[0], intList({4, 5})}); },
     kLayerNorm},
    {"LayerNormDynamicBatch", {{{6, 8}, DType::Float32, {"s0", ""}}},
     [](TestGraph& g, const Inputs& x) { return g.op("layer_norm", {x[0], intList({8})}); }, kLayerNorm},
    {"Gelu", {x48}, [](TestGraph& g, const Inputs& x) { return g.op("gelu", {x[0]}); }, {"mul", "mul", "erf", "add", "mul"}},
    {"GeluTanh", {x48}, [](TestGraph& g, const Inputs& x) { return g.op("gelu", {x[0]}, {{"approximate", c("tanh")}}); },
     {"mul", "mul", "mul", "add", "mul", "tanh", "add", "mul", "mul"}},
    {"Silu", {x48}, [](TestGraph& g, const Inputs& x) { return g.op("silu", {x[0]}); }, {"sigmoid", "mul"}},
    {"Linear", {{{4, 8}}, {{5, 8}}, {{5}}}, [](TestGraph& g, const Inputs& x) { return g.op("linear", {x[0], x[1], x[2]}); },
     {"t", "mm", "add"}},
    {"LinearWithoutBias", {{{4, 8}}, {{5, 8}}}, [](TestGraph& g, const Inputs& x) { return g.op("linear", {x[0], x[1]}); },
     {"t", "mm"}},
    {"Linear3d", {{{2, 3, 8}}, {{5, 8}}, {{5}}}, [](TestGraph& g, const Inputs& x) { return g.op("linear", {x[0], x[1], x[2]}); },
     {"reshape", "t", "mm", "reshape", "add"}},
    {"Linear1d", {{{8}}, {{5, 8}}}, [](TestGraph& g, const Inputs& x) { return g.op("linear", {x[0], x[1]}); },
     {"reshape", "t", "mm", "reshape"}},
    {"LinearDynamicBatch", {{{6, 3, 8}, DType::Float32, {"s0", "", ""}}, {{5, 8}}, {{5}}},
     [](TestGraph& g, const Inputs& x) { return g.op("linear", {x[0], x[1], x[2]}); }, {"reshape", "t", "mm", "reshape", "add"}},
    {"Matmul2dBy2d", {{{4, 8}}, {{8, 3}}}, [](TestGraph& g, const Inputs& x) { return g.op("matmul", {x[0], x[1]}); }, {"mm"}},
    {"Matmul1dBy2d", {{{8}}, {{8, 3}}}, [](TestGraph& g, const Inputs& x) { return g.op("matmul", {x[0], x[1]}); },
     {"unsqueeze", "mm", "squeeze"}},
    {"Matmul2dBy1d", {{{4, 8}}, {{8}}}, [](TestGraph& g, const Inputs& x) { return g.op("matmul", {x[0], x[1]}); },
     {"unsqueeze", "mm", "squeeze"}},
    {"Matmul1dBy1d", {{{8}}, {{8}}}, [](TestGraph& g, const Inputs& x) { return g.op("matmul", {x[0], x[1]}); },
     {"unsqueeze", "unsqueeze", "mm", "squeeze"}},
    {"Matmul3dBy3d", {{{2, 4, 8}}, {{2, 8, 3}}}, [](TestGraph& g, const Inputs& x) { return g.op("matmul", {x[0], x[1]}); }, {"bmm"}},
    {"Matmul3dSameDynamicBatch", {{{2, 4, 8}, DType::Float32, {"s0", "", ""}}, {{2, 8, 3}, DType::Float32, {"s0", "", ""}}},
     [](TestGraph& g, const Inputs& x) { return g.op("matmul", {x[0], x[1]}); }, {"bmm"}},
    {"Matmul3dBroadcastBatch", {{{1, 4, 8}}, {{3, 8, 2}}}, [](TestGraph& g, const Inputs& x) { return g.op("matmul", {x[0], x[1]}); },
     {"expand", "bmm"}},
    {"Matmul3dBy2d", {{{2, 4, 8}}, {{8, 3}}}, [](TestGraph& g, const Inputs& x) { return g.op("matmul", {x[0], x[1]}); },
     {"reshape", "mm", "reshape"}},
    {"Matmul3dBy1d", {{{2, 4, 8}}, {{8}}}, [](TestGraph& g, const Inputs& x) { return g.op("matmul", {x[0], x[1]}); },
     {"reshape", "unsqueeze", "mm", "reshape"}},
    {"Matmul4dFoldsIntoBmm", {{{2, 2, 4, 8}}, {{2, 2, 8, 3}}}, [](TestGraph& g, const Inputs& x) { return g.op("matmul", {x[0], x[1]}); },
     {"reshape", "reshape", "bmm", "reshape"}},
    {"Matmul4dBroadcastStays", {{{2, 2, 4, 8}}, {{1, 2, 8, 3}}}, [](TestGraph& g, const Inputs& x) { return g.op("matmul", {x[0], x[1]}); },
     {"matmul"}},
    {"MeanOverDim", {x48}, [](TestGraph& g, const Inputs& x) { return g.op("mean", {x[0], c(1)}, {{"keepdim", c(true)}}); },
     {"sum", "div"}},
    {"MeanOfAll", {x48}, [](TestGraph& g, const Inputs& x) { return g.op("mean", {x[0]}); }, {"sum", "div"}},
    {"MeanFloat16", {{{4, 8}, DType::Float16}}, [](TestGraph& g, const Inputs& x) { return g.op("mean", {x[0], c(0)}); },
     {"to", "sum", "div", "to"}},
    {"MeanOverDynamicDimStays", {{{6, 8}, DType::Float32, {"s0", ""}}},
     [](TestGraph& g, const Inputs& x) { return g.op("mean", {x[0], c(0)}); }, {"mean"}},
    {"Var", {x48}, [](TestGraph& g, const Inputs& x) { return g.op("var", {x[0], c(1)}); }, kVariance},
    {"VarUnbiasedOverload", {x48}, [](TestGraph& g, const Inputs& x) { return g.op("var", {x[0], c(false)}); }, kVariance},
    {"StdWithCorrectionKeepdim", {x48},
     [](TestGraph& g, const Inputs& x) { return g.op("std", {x[0], intList({0})}, {{"correction", c(0)}, {"keepdim", c(true)}}); },
     kVariance + std::vector<std::string>{"sqrt"}},
    {"Square", {x48}, [](TestGraph& g, const Inputs& x) { return g.op("square", {x[0]}); }, {"mul"}},
    {"Outer", {{{4}}, {{3}}}, [](TestGraph& g, const Inputs& x) { return g.op("outer", {x[0], x[1]}); },
     {"unsqueeze", "unsqueeze", "mul"}},
    {"DropoutNotTrainingIsItsInput", {x48},
     [](TestGraph& g, const Inputs& x) { return g.op("dropout", {x[0]}, {{"training", c(false)}}); }, {}},
    {"DropoutWithZeroPIsItsInput", {x48}, [](TestGraph& g, const Inputs& x) { return g.op("dropout", {x[0], c(0.0)}); }, {}},
};

class DecomposeCase : public testing::TestWithParam<Case> {};

TEST_P(DecomposeCase, BecomesCoreOpsWithSameValuesMetaAndProvenance) {
    const Case& tc = GetParam();
    TestGraph g;
    Inputs inputs;
    for (const Input& in : tc.inputs) inputs.push_back(g.input(in));
    Argument result = tc.composite(g, inputs);
    g.output({result});
    const std::string composite = result.node->target;

    std::shared_ptr<Graph> decomposed = decomposeForInductor(*g.graph);

    EXPECT_EQ(targets(*decomposed), tc.targets);
    ASSERT_EQ(decomposed->outputs().size(), 1u);
    expectSameMeta(outputMeta(decomposed->outputs()[0]), outputMeta(result));
    for (const auto& node : decomposed->nodes()) {
        if (node->op == NodeOp::Placeholder) continue;
        EXPECT_EQ(node->where.line, kOpLine) << node->name;
        EXPECT_EQ(node->sourceLine, kOpCode) << node->name;
        ASSERT_EQ(node->stack.size(), 1u) << node->name;
        EXPECT_EQ(node->stack[0].function, "forward");
        EXPECT_EQ(node->inlineDepth, 1) << node->name;
        EXPECT_EQ(node->meta.size(), 1u) << node->name;
    }
    expectSameOutputs(*g.graph, *decomposed, g.randomInputs());
}

INSTANTIATE_TEST_SUITE_P(Decompose, DecomposeCase, testing::ValuesIn(kCases),
                         [](const testing::TestParamInfo<Case>& info) { return info.param.name; });

// An op that takes only some values of a dynamic size (layer_norm over a dim s0 with
// normalized_shape (6,), reshape(-1, 2) of s0) has results no symbolic size describes:
// decomposing with the example sizes would be wrong for the others, so it refuses.
TEST(Decompose, RefusesResultsWhoseSizesCannotBeSymbolic) {
    auto layerNorm = [] {
        TestGraph g;
        g.output({g.op("layer_norm", {g.input({{4, 6}, DType::Float32, {"", "s0"}}), intList({6})})});
        decomposeForInductor(*g.graph);
    };
    auto pairs = [] {
        TestGraph g;
        g.output({g.op("reshape", {g.input({{6}, DType::Float32, {"s0"}}), intList({-1, 2})})});
        decomposeForInductor(*g.graph);
    };
    EXPECT_THROW(layerNorm(), SymbolicSizesUnsupported);
    EXPECT_THROW(pairs(), SymbolicSizesUnsupported);
    // Of a (4, s0): 2*s0 rows, which a symbolic size says.
    TestGraph g;
    Argument rows = g.op("reshape", {g.input({{4, 6}, DType::Float32, {"", "s0"}}), intList({-1, 2})});
    EXPECT_EQ(rows.node->meta[0].symbols, (std::vector<std::string>{"2*s0", ""}));
}

// ---- whole graphs ------------------------------------------------------------------------

// x -> layer_norm -> linear -> gelu, one statement per line, as a transformer MLP block.
struct MlpBlock {
    TestGraph g;
    MlpBlock() {
        Argument x = g.input({{2, 4, 8}}), w = g.input({{8}}), b = g.input({{8}});
        Argument fc = g.input({{16, 8}}), fcBias = g.input({{16}});
        Argument h = g.op("layer_norm", {x, intList({8}), w, b}, {}, 4, "h = F.layer_norm(x, (8,), w, b)");
        Argument y = g.op("linear", {h, fc, fcBias}, {}, 5, "y = F.linear(h, fc, fc_bias)");
        Argument out = g.op("gelu", {y}, {}, 6, "return F.gelu(y)");
        g.output({out});
    }
};

TEST(Decompose, MlpBlockPrintsAsCoreOpsUnderItsSourceLines) {
    MlpBlock block;
    std::shared_ptr<Graph> decomposed = decomposeForInductor(*block.g.graph);

    // The bias add comes right after mm, so it and gelu form one pointwise epilogue.
    std::vector<std::string> expected =
        kLayerNorm + std::vector<std::string>{"mul", "add", "reshape", "t", "mm", "reshape", "add", "mul", "mul", "erf", "add", "mul"};
    EXPECT_EQ(targets(*decomposed), expected);
    std::string readable = graphReadable(*decomposed);
    EXPECT_GT(readable.size(), 512u) << readable;
    EXPECT_NE(readable.find("# File: model.py:4 in forward, code: h = F.layer_norm(x, (8,), w, b)\n"
                            "        sum_1: \"f32[2, 4, 1]\" = torch.sum(l_x0_, [2], keepdim = True)\n"
                            "        div: \"f32[2, 4, 1]\" = sum_1 / 8\n"),
              std::string::npos)
        << readable;
    EXPECT_NE(readable.find("# File: model.py:5 in forward, code: y = F.linear(h, fc, fc_bias)\n"
                            "        reshape: \"f32[8, 8]\" = torch.reshape(add_1, [8, 8])\n"
                            "        t: \"f32[8, 16]\" = torch.t(l_x3_)\n"
                            "        mm: \"f32[8, 16]\" = torch.mm(reshape, t)\n"
                            "        reshape_1: \"f32[2, 4, 16]\" = torch.reshape(mm, [2, 4, 16])\n"
                            "        add_2: \"f32[2, 4, 16]\" = reshape_1 + l_x4_\n"),
              std::string::npos)
        << readable;
    EXPECT_NE(readable.find("# File: model.py:6 in forward, code: return F.gelu(y)\n"
                            "        mul_3: \"f32[2, 4, 16]\" = add_2 * 0.5\n"
                            "        mul_4: \"f32[2, 4, 16]\" = add_2 * 0.7071067811865476\n"),
              std::string::npos)
        << readable;
    expectSameOutputs(*block.g.graph, *decomposed, block.g.randomInputs());
}

TEST(Decompose, LeavesItsInputGraphUnchangedAndKeepsPlaceholders) {
    MlpBlock block;
    const std::string before = block.g.graph->fingerprint();
    std::shared_ptr<Graph> decomposed = decomposeForInductor(*block.g.graph);
    EXPECT_EQ(block.g.graph->fingerprint(), before);
    std::vector<Node*> original = block.g.graph->placeholders(), copied = decomposed->placeholders();
    ASSERT_EQ(copied.size(), original.size());
    for (size_t i = 0; i < original.size(); ++i) {
        EXPECT_EQ(copied[i]->name, original[i]->name);
        EXPECT_EQ(copied[i]->target, original[i]->target);
        expectSameMeta(copied[i]->meta[0], original[i]->meta[0]);
    }
}

TEST(Decompose, GraphOfCoreOpsComesOutIdentical) {
    TestGraph g;
    Argument x = g.input({{4, 8}}), y = g.input({{4, 8}});
    Argument sum = g.op("add", {x, y});
    Argument relu = g.op("relu", {sum});
    Argument max = g.op("max", {relu}, {{"dim", c(1)}});
    Argument view = g.op("view", {Argument::ref(max.node, 1), intList({-1, 1})});
    Argument total = g.op("sum", {Argument::ref(max.node, 0)});
    g.output({view, total});

    std::shared_ptr<Graph> decomposed = decomposeForInductor(*g.graph);

    EXPECT_EQ(decomposed->fingerprint(), g.graph->fingerprint());
    EXPECT_EQ(graphReadable(*decomposed), graphReadable(*g.graph));
    expectSameOutputs(*g.graph, *decomposed, g.randomInputs());
}

}  // namespace
}  // namespace fusescope
