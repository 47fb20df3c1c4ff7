#include "workloads.h"

#include <fmt/format.h>

#include "dispatch/dispatcher.h"

namespace fusescope::bench {

namespace {

TensorMeta metaOf(const Shape& sizes) { return TensorMeta{sizes, contiguousStrides(sizes), DType::Float32, std::vector<std::string>(sizes.size())}; }

}  // namespace

Tensor randn(const Shape& sizes) {
    return dispatch("randn", {IValue::intList(sizes)}).toTensor();
}

Workload pointwiseChain(int64_t n, bool transcendental) {
    Workload w{fmt::format("pointwise chain (10 ops{}) {}M f32", transcendental ? ", exp/sin/tanh" : "", n >> 20),
               std::make_shared<Graph>(), {randn({n})}, 8.0 * n};
    GraphBuilder b(*w.graph);
    Argument x = Argument::ref(b.placeholder("L['x']", metaOf({n})));
    auto call = [&](const char* op, std::vector<Argument> args) { return Argument::ref(b.call(op, std::move(args))); };
    auto number = [](double v) { return Argument::value(IValue(v)); };
    Argument y = call("mul", {x, number(2.0)});
    y = call("add", {y, number(1.0)});
    y = call("relu", {y});
    y = call("sub", {y, number(0.5)});
    y = transcendental ? call("exp", {y}) : call("mul", {y, y});
    y = call("abs", {y});
    y = transcendental ? call("sin", {y}) : call("add", {y, x});
    y = call("mul", {y, number(3.0)});
    y = transcendental ? call("tanh", {y}) : call("neg", {y});
    y = call("maximum", {y, x});
    w.graph->setOutputs({y});
    return w;
}

Workload unary(const std::string& name, const char* op, const Shape& sizes, std::vector<Argument> extra, double bytes) {
    Workload w{name, std::make_shared<Graph>(), {randn(sizes)}, bytes};
    GraphBuilder b(*w.graph);
    std::vector<Argument> args{Argument::ref(b.placeholder("L['x']", metaOf(sizes)))};
    args.insert(args.end(), extra.begin(), extra.end());
    w.graph->setOutputs({Argument::ref(b.call(op, args))});
    return w;
}

Workload reduction(const std::string& name, const char* op, const Shape& sizes, std::vector<Argument> extra) {
    int64_t numel = 1;
    for (int64_t s : sizes) numel *= s;
    Workload w = unary(name, op, sizes, std::move(extra), 4.0 * numel);
    w.readOnly = true;
    return w;
}

Workload moments(int64_t rows, int64_t cols) {
    Workload w{fmt::format("mean, var, t().sum(0) of {}x{}", rows, cols), std::make_shared<Graph>(), {randn({rows, cols})},
               4.0 * rows * cols, true};
    GraphBuilder b(*w.graph);
    Argument x = Argument::ref(b.placeholder("L['x']", metaOf({rows, cols})));
    auto dims = [](int64_t d) { return Argument::value(IValue::intList({d})); };
    Argument mean = Argument::ref(b.call("mean", {x, dims(1)}));
    Argument var = Argument::ref(b.call("var", {x, dims(1)}));
    Argument transposed = Argument::ref(b.call("t", {x}));
    Argument sum = Argument::ref(b.call("sum", {transposed, dims(0)}));
    w.graph->setOutputs({mean, var, sum});
    return w;
}

Workload layerNorm(int64_t rows, int64_t cols) {
    Workload w{fmt::format("layer_norm {}x{}", rows, cols), std::make_shared<Graph>(), {randn({rows, cols}), randn({cols}), randn({cols})},
               8.0 * rows * cols};
    GraphBuilder b(*w.graph);
    Argument x = Argument::ref(b.placeholder("L['x']", metaOf({rows, cols})));
    Argument g = Argument::ref(b.placeholder("L['g']", metaOf({cols})));
    Argument be = Argument::ref(b.placeholder("L['b']", metaOf({cols})));
    w.graph->setOutputs({Argument::ref(b.call("layer_norm", {x, Argument::value(IValue::intList({cols})), g, be}))});
    return w;
}

Workload linearGelu(int64_t rows, int64_t in, int64_t out) {
    Workload w{fmt::format("linear({}x{})+bias+gelu, {} rows", in, out, rows), std::make_shared<Graph>(),
               {randn({rows, in}), randn({out, in}), randn({out})}, 4.0 * (rows * in + in * out + rows * out)};
    GraphBuilder b(*w.graph);
    Argument x = Argument::ref(b.placeholder("L['x']", metaOf({rows, in})));
    Argument wt = Argument::ref(b.placeholder("L['w']", metaOf({out, in})));
    Argument bias = Argument::ref(b.placeholder("L['b']", metaOf({out})));
    Argument y = Argument::ref(b.call("linear", {x, wt, bias}));
    w.graph->setOutputs({Argument::ref(b.call("gelu", {y}))});
    return w;
}

}  // namespace fusescope::bench
