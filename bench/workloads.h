#pragma once
// The workloads the inductor benchmarks measure, as graphs built op by op with random
// inputs: a pointwise chain, single ops (softmax, sum, var, argmax), layer_norm, three
// reductions of one input (mean, var and a transposed sum) and linear+GELU. Shared by
// bench_inductor (CPU) and bench_gpu (CUDA).

#include <memory>
#include <string>
#include <vector>

#include "decompose/graph_builder.h"

namespace fusescope::bench {

struct Workload {
    std::string name;
    std::shared_ptr<Graph> graph;
    std::vector<Tensor> inputs;
    double bytes = 0;  // the minimum memory traffic: inputs read once, outputs written once
    // Held to the read-only limit (a reduction: it reads its input and writes next to
    // nothing), else to the copy limit (a map reads and writes as much).
    bool readOnly = false;
};

Tensor randn(const Shape& sizes);

// Ten pointwise ops on n floats: arithmetic only (memory-bound), or with exp/sin/tanh
// (where vector math decides).
Workload pointwiseChain(int64_t n, bool transcendental);
// One op of x (and `extra` arguments).
Workload unary(const std::string& name, const char* op, const Shape& sizes, std::vector<Argument> extra, double bytes);
// A reduction of x, read-only: `extra` names its dims and options.
Workload reduction(const std::string& name, const char* op, const Shape& sizes, std::vector<Argument> extra);
Workload layerNorm(int64_t rows, int64_t cols);
// x.mean(dim=1), x.var(dim=1) and x.t().sum(dim=0) of one input: one pass over it when fused.
Workload moments(int64_t rows, int64_t cols);
Workload linearGelu(int64_t rows, int64_t in, int64_t out);

}  // namespace fusescope::bench
